"""PegInput as a person types it: keys in one burst, one symbol too many, pastes."""

from __future__ import annotations

import asyncio

import pytest
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Input

from wom_tui.domain.codes import DIGITS10, RAINBOW, WOM, Ruleset
from wom_tui.patches.key_queue import KeyQueue
from wom_tui.widgets.peg_input import PegInput

from .burst import send_burst, send_paste
from .conftest import wait_for
from .test_solo import said
from .test_widgets import Host

WOM4 = Ruleset(4, WOM, True, 10)
RAINBOW5 = Ruleset(5, RAINBOW, True, 10)


@pytest.mark.parametrize(
    ("burst", "expected"),
    [
        (("backspace", "5"), ("1", "5", None, None)),
        (("left", "5"), ("1", "5", None, None)),
        (("left", "left", "backspace", "9"), ("9", "2", None, None)),
        (("home", "7", "end", "8"), ("7", "2", None, "8")),
        (("backspace", "backspace", "3", "4", "5", "6"), ("3", "4", "5", "6")),
        (("left", "up", "3"), ("1", "3", None, None)),
    ],
)
async def test_keys_sent_in_one_burst_are_all_applied_in_order(burst, expected):
    host = Host(Ruleset(4, DIGITS10, True, 10))
    async with host.run_test(size=(80, 24)) as pilot:
        peg_input = host.query_one(PegInput)
        await pilot.press("1", "2")
        send_burst(host, *burst)
        await wait_for(pilot, lambda: peg_input.slots == expected, message=f"{expected} after {burst}")


async def test_a_whole_guess_and_enter_in_one_burst_submits_it():
    host = Host(Ruleset(4, DIGITS10, True, 10))
    async with host.run_test(size=(80, 24)) as pilot:
        send_burst(host, "1", "2", "backspace", "3", "4", "5", "enter")
        await wait_for(pilot, lambda: host.submitted)
        assert host.submitted == ["1345"]


async def test_a_symbol_too_many_is_kept_and_submitted_so_the_domain_refuses_it():
    host = Host(RAINBOW5)
    async with host.run_test(size=(80, 24)) as pilot:
        peg_input = host.query_one(PegInput)
        await pilot.press(*"roygbv")
        assert peg_input.slots == ("R", "O", "Y", "G", "B")  # the fifth slot is not overwritten
        assert peg_input.value == "ROYGBV"
        assert "1 too many" in str(peg_input.query_one(".peg-input--extra").render())
        await pilot.press("enter")
        await wait_for(pilot, lambda: host.submitted)
        assert host.submitted == ["ROYGBV"]
        with pytest.raises(ValueError, match="Guess too long; it must be exactly 5 symbols."):
            RAINBOW5.parse(host.submitted[0])


async def test_backspace_removes_the_extra_symbol_first():
    host = Host(WOM4)
    async with host.run_test(size=(80, 24)) as pilot:
        peg_input = host.query_one(PegInput)
        await pilot.press(*"rgbyk")
        assert peg_input.value == "RGBYK"
        await pilot.press("backspace")
        assert peg_input.value == "RGBY"
        assert peg_input.slots == ("R", "G", "B", "Y")
        assert not peg_input.query_one(".peg-input--extra").display
        await pilot.press("backspace")
        assert peg_input.slots == ("R", "G", "B", None)


async def test_a_masked_code_too_long_stays_too_long_and_hidden():
    host = Host(WOM4, masked=True)
    async with host.run_test(size=(80, 24)) as pilot:
        peg_input = host.query_one(PegInput)
        await pilot.press(*"rgbyk")
        extra = str(peg_input.query_one(".peg-input--extra").render())
        assert "K" not in extra and "1 too many" in extra
        await pilot.press("enter")
        await wait_for(pilot, lambda: host.submitted)
        assert host.submitted == ["RGBYK"]


async def test_a_paste_too_long_is_kept_whole():
    host = Host(RAINBOW5)
    async with host.run_test(size=(80, 24)) as pilot:
        peg_input = host.query_one(PegInput)
        send_paste(host, "roygbv")
        await wait_for(pilot, lambda: peg_input.value == "ROYGBV", message=peg_input.value)
        await pilot.press("enter")
        await wait_for(pilot, lambda: host.submitted)
        assert host.submitted == ["ROYGBV"]


async def test_a_pasted_typo_is_kept_for_the_domain_to_explain():
    host = Host(WOM4)
    async with host.run_test(size=(80, 24)) as pilot:
        peg_input = host.query_one(PegInput)
        send_paste(host, "rg-b")
        await wait_for(pilot, lambda: peg_input.value == "RG-B", message=peg_input.value)


async def test_moving_into_the_slots_and_typing_overwrites_without_extra():
    host = Host(WOM4)
    async with host.run_test(size=(80, 24)) as pilot:
        peg_input = host.query_one(PegInput)
        await pilot.press(*"rgby", "home", "k")
        assert peg_input.value == "KGBY"
        await pilot.press("end", "w")
        assert peg_input.value == "KGBW"


async def test_a_guess_typed_while_the_game_screen_is_still_being_built_keeps_every_symbol(app):
    """The digits arrive (one SSH packet) while the new game screen is being built: none is dropped."""
    from wom_tui.screens.solo_game import SoloGameScreen
    from wom_tui.screens.solo_setup import SoloSetupScreen

    class TypedDuringBuild(SoloGameScreen):
        def compose(self):
            send_burst(self.app, "1", "2", "3", "4", "enter")  # the keys reach the app mid-build
            yield from super().compose()

    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(app.screen, SoloSetupScreen) and app.screen.is_mounted)
        app.push_screen(TypedDuringBuild(app.screen.choice()))
        await wait_for(pilot, lambda: isinstance(app.screen, SoloGameScreen) and app.screen.game.history)
        (attempt,) = app.screen.game.history
        assert attempt.guess == "1234"


async def test_a_second_enter_in_the_same_burst_does_not_play_the_guess_again(app):
    """``5678⏎⏎`` in one packet played 5678 twice and cost a guess; the second Enter now finds the
    field empty and does nothing: no guess, and no "too short" under the feedback just given."""
    from wom_tui.screens.solo_game import SoloGameScreen
    from wom_tui.screens.solo_setup import SoloSetupScreen

    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(app.screen, SoloSetupScreen) and app.screen.is_mounted)
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, SoloGameScreen) and app.screen.is_mounted)
        screen = app.screen
        send_burst(app, "5", "6", "7", "8", "enter", "enter")
        await wait_for(pilot, lambda: screen.game.history)
        for _ in range(5):
            await pilot.pause()
        assert [attempt.guess for attempt in screen.game.history] == ["5678"]
        assert not [line for line in said(screen) if "too short" in line]


async def test_one_burst_from_the_menu_opens_the_setup_starts_the_game_and_plays_the_guess(app):
    """``op1234⏎`` in one SSH packet: ``o`` opens the solo setup, ``p`` starts a game, and the guess
    behind them is played in it (the keys after ``p`` went to the setup being left, and were lost)."""
    from wom_tui.screens.solo_game import SoloGameScreen

    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        send_burst(app, "o", "p", "1", "2", "3", "4", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, SoloGameScreen) and app.screen.game.history,
                       message="the game opened and the guess played")
        assert [attempt.guess for attempt in app.screen.game.history] == ["1234"]


async def test_keys_behind_one_whose_widget_is_removed_mid_way_are_not_held_for_ever(app):
    """A key is in flight until a callback queued behind it has passed its widget and each ancestor;
    a widget removed with that callback still queued is passed over, so the keys behind still go."""
    from textual.widgets import Static

    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        doomed = Static("going")
        await app.screen.mount(doomed)
        handled: list[str] = []
        doomed.call_later = lambda *args, **kwargs: True  # taken into its queue, and lost there:
        app._after_handled(doomed, lambda: handled.append("done"))
        doomed._closing = True  # as when a widget is removed with messages still queued
        try:
            # (the pilot's own wait would wait for the closing widget too: the condition is polled instead)
            deadline = asyncio.get_running_loop().time() + 10
            while handled != ["done"] and asyncio.get_running_loop().time() < deadline:
                await asyncio.sleep(0.05)
            assert handled == ["done"], "the keys behind waited on a removed widget"
        finally:
            doomed._closing = False
            await doomed.remove()


async def test_a_bound_key_and_a_letter_in_one_burst_apply_in_the_order_typed(app):
    """``←`` then ``a`` in one SSH packet: the arrow is a binding (an action), the letter a keystroke;
    Textual applied the letter first ("Alna"). One key after another, it reads "Alan"."""
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await wait_for(pilot, lambda: app.focused is not None and hasattr(app.focused, "value"))
        field = app.focused
        await pilot.press(*"Aln")
        send_burst(app, "left", "a")
        await wait_for(pilot, lambda: len(field.value) == 4, message="both keys applied")
        assert field.value == "Alan"


class _SlowScreen(Screen[None]):
    """A screen whose entry exists only once its first read is shown (as a live table's code entry)."""

    def compose(self) -> ComposeResult:
        yield Input(id="first")

    def on_mount(self) -> None:
        self.app.hold_keys_for(self)  # type: ignore[attr-defined]

    async def read_shown(self) -> None:
        await self.mount(Input(id="second"))
        self.query_one("#second", Input).focus()
        self.app.keys_ready(self)  # type: ignore[attr-defined]


class _KeysApp(KeyQueue[None]):
    pass


@pytest.mark.parametrize("first_view", ["shown", "never shown"])
async def test_keys_typed_into_a_screen_still_reading_wait_for_what_it_shows_first(first_view):
    app = _KeysApp()
    async with app.run_test(size=(60, 20)) as pilot:
        screen = _SlowScreen()
        await app.push_screen(screen)
        send_burst(app, *"abc")
        first = screen.query_one("#first", Input)
        await wait_for(pilot, lambda: len(app._held_keys) == 3, message="the three keys held")
        assert first.value == ""  # not typed into the widget on show while the screen reads
        if first_view == "never shown":  # they go on to the entry on show once the wait is up
            await wait_for(pilot, lambda: first.value == "abc", timeout=10, message="abc once the wait is up")
            return
        await screen.read_shown()
        await wait_for(pilot, lambda: screen.query_one("#second", Input).value == "abc", message="abc, held, then typed")
        assert first.value == ""
