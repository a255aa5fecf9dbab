"""Setup screens: where focus starts, what fits at 80×24 and 60×20, and leaving while mounting."""

from __future__ import annotations


import pytest
from textual.geometry import Region
from textual.widgets import Button, Collapsible, RadioButton, RadioSet

from wom_tui.screens.menu import MenuScreen
from wom_tui.screens.wom_setup import WomSetupScreen
from wom_tui.screens.wom_game import WomGameScreen

from .burst import send_burst
from .conftest import wait_for


async def open_wom_setup(pilot) -> WomSetupScreen:
    await pilot.press("p")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, WomSetupScreen) and pilot.app.screen.query("#setup-start"))
    return pilot.app.screen


async def test_the_wom_setup_opens_with_focus_off_start_so_an_early_enter_starts_nothing(app, store):
    store.register("Alan")
    async with app.run_test(size=(80, 24)) as pilot:
        send_burst(app, "p", "enter", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, WomSetupScreen) and app.focused is not None)
        for _ in range(5):
            await pilot.pause()
        assert isinstance(app.screen, WomSetupScreen), "an Enter typed ahead started a game"
        assert app.focused.id != "setup-start"
        assert not any(isinstance(screen, WomGameScreen) for screen in app.screen_stack)


async def test_with_four_players_and_the_advanced_rules_open_start_is_on_screen_at_80x24(app, store):
    for name in ("Alan", "Grace", "Ada"):
        store.register(name)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_wom_setup(pilot)
        four = next(b for b in screen.query_one("#setup-count", RadioSet).query(RadioButton) if b.name == "4")
        await pilot.click(four)
        await wait_for(pilot, lambda: screen.query_one("#seat-4").display)
        await pilot.click(f"#{screen.query_one(Collapsible).id} CollapsibleTitle")
        await wait_for(pilot, lambda: not screen.query_one(Collapsible).collapsed)
        for _ in range(3):
            await pilot.pause()
        start = screen.query_one("#setup-start", Button)
        assert app.screen.region.contains_region(start.region), f"Start at {start.region} is below the fold"
        assert await pilot.click("#setup-start")
        await wait_for(pilot, lambda: isinstance(app.screen, WomGameScreen), message="clicking Start starts")


async def test_keys_typed_ahead_into_the_wom_setup_then_esc_leave_cleanly(app, store):
    store.register("Alan")
    async with app.run_test(size=(80, 24)) as pilot:
        send_burst(app, "p", "tab", "down", "escape", "p", "escape", "p", "shift+tab", "escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen) and len(app.screen_stack) == 1)
        for _ in range(5):
            await pilot.pause()
        assert app.is_running and app._exception is None


# -- every setup, menu, register, scoreboard and help screen is usable at 60×20 -----------------


async def _walk_focus(pilot, limit: int = 40) -> list[str]:
    """Tab through the screen; every control that takes focus must then be wholly on screen
    (above the footer), and so must each choice of a radio set. Returns what was reached."""
    app = pilot.app
    screen = app.screen
    visible = Region(0, 0, screen.region.width, screen.region.height - 1)  # above the footer row
    reached: list[str] = []
    seen = set()
    for _ in range(limit):
        await pilot.press("tab")
        for _ in range(3):
            await pilot.pause()
        widget = app.focused
        if widget is None or widget in seen:
            break
        seen.add(widget)
        reached.append(widget.id or type(widget).__name__)
        assert visible.contains_region(widget.region), f"{widget} at {widget.region} is cut off at {visible.size}"
        if isinstance(widget, RadioSet):
            for button in widget.query(RadioButton):
                assert visible.contains_region(button.region), f"{button.label} of {widget.id} is cut off"
    return reached


SCREENS = {
    "menu": (),
    "register": ("r",),
    "scoreboard": ("s",),
    # Help has no controls: nothing on it takes the focus, the screen scrolls its text by the keys
    # (tests/ui/test_help_scroll.py).
    "wom setup": ("p",),
    "solo setup": ("o",),
}


@pytest.mark.parametrize("size", [(60, 20), (80, 24)], ids=["60x20", "80x24"])
@pytest.mark.parametrize("where", list(SCREENS))
async def test_every_control_can_be_reached_and_seen(app, store, where, size):
    for name in ("Alan", "Grace", "Ada"):
        store.register(name)
    async with app.run_test(size=size) as pilot:
        await pilot.press(*SCREENS[where])
        await wait_for(pilot, lambda: app.focused is not None, message=f"{where} has focus")
        reached = await _walk_focus(pilot)
        assert reached, f"nothing on the {where} screen takes focus"


async def test_the_solo_setup_at_60x20_offers_every_choice_and_its_buttons(app):
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.press("o")
        await wait_for(pilot, lambda: app.screen.query("#solo-play"))
        reached = await _walk_focus(pilot)
        assert {"solo-length", "solo-palette", "solo-play", "solo-back"} <= set(reached)


async def test_the_wom_setup_at_60x20_with_four_players_and_advanced_rules_reaches_start(app, store):
    for name in ("Alan", "Grace", "Ada"):
        store.register(name)
    async with app.run_test(size=(60, 20)) as pilot:
        screen = await open_wom_setup(pilot)
        await pilot.press("right", "right", "enter")  # players: 4
        await wait_for(pilot, lambda: screen.query_one("#seat-4").display)
        screen.query_one(Collapsible).collapsed = False
        reached = await _walk_focus(pilot)
        assert {"seat-select-4", "setup-length", "setup-palette", "setup-repeats", "setup-start"} <= set(reached)
        app.screen.query_one("#setup-start").focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, WomGameScreen))


# -- the solo setup's choices stay where they are, whatever is chosen -----------------------------


def _pressed_label(screen, set_id: str) -> str:
    button = screen.query_one(f"#{set_id}", RadioSet).pressed_button
    return str(button.label) if button is not None else ""


@pytest.mark.parametrize("size", [(80, 24), (60, 20), (100, 40)], ids=["80x24", "60x20", "100x40"])
@pytest.mark.parametrize(
    ("first", "changes"),
    [("#solo-length-5", "the summary loses its record line"),
     ("#solo-mode-1", "the lifeline and coach rows give way to the scoring row"),
     ("#solo-palette-2", "the rules do not go together: the refusal replaces the summary")],
    ids=["random", "computer-breaks", "refused"],
)
async def test_a_click_after_a_choice_lands_on_the_option_that_was_there(app, store, size, first, changes):
    """Choosing *Random* (or another mode, or rules that refuse) must not move the options under the
    pointer: the next click chooses what the player saw there."""
    store.register("Alan")
    async with app.run_test(size=size) as pilot:
        await pilot.press("o")
        await wait_for(pilot, lambda: app.screen.query("#solo-play") and app.screen.query_one("#solo-summary").region)
        screen = app.screen
        if first == "#solo-palette-2":  # Rainbow has 7 colours: length 8 without repeats refuses
            await pilot.click("#solo-repeats-1")
            await pilot.click("#solo-length-4")
        for _ in range(3):
            await pilot.pause()
        where = {name: screen.query_one(name).region.offset
                 for name in ("#solo-palette-3", "#solo-length-1", "#solo-repeats-1", "#solo-play")}
        await pilot.click(first)
        await wait_for(pilot, lambda: screen.query_one(first).value, message=f"{first} chosen")
        for _ in range(3):
            await pilot.pause()
        assert await pilot.click(offset=where["#solo-palette-3"] + (1, 0))
        await wait_for(pilot, lambda: _pressed_label(screen, "solo-palette") == "Classic", timeout=10,
                       message=f"after {changes}, a click where Classic was chose {_pressed_label(screen, 'solo-palette')}")
        assert await pilot.click(offset=where["#solo-length-1"] + (1, 0))
        await wait_for(pilot, lambda: _pressed_label(screen, "solo-length") == "5", timeout=10,
                       message=f"after {changes}, a click where 5 was chose {_pressed_label(screen, 'solo-length')}")
        if first != "#solo-mode-1":  # the other mode has other rows above Play
            assert screen.query_one("#solo-play").region.offset == where["#solo-play"], f"after {changes} Play moved"
