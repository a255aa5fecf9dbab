"""A nudge when it's time: the sequences (OSC 9, OSC 777, tmux's passthrough), what a name can never put in
them, and the live table ringing when the table fills and when the creator's code is to be set."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.domain.table import SeatHolder
from wom_tui.screens.base import NARROW_NOTICE_SECONDS
from wom_tui.screens.live_table import LiveTableScreen
from wom_tui.widgets.nudge import desktop_sequences, in_tmux, nudge, tmux_wrap

from .conftest import build_app, wait_for


def test_osc_9_and_777_carry_the_reason():
    assert desktop_sequences("World of Mastermind", "Quick match found") == (
        "\x1b]9;World of Mastermind: Quick match found\x07"
        "\x1b]777;notify;World of Mastermind;Quick match found\x07")


def test_inside_tmux_each_sequence_is_wrapped_with_its_escapes_doubled():
    wrapped = desktop_sequences("T", "go", tmux=True)
    assert wrapped == tmux_wrap("\x1b]9;T: go\x07") + tmux_wrap("\x1b]777;notify;T;go\x07")
    assert tmux_wrap("\x1b]9;x\x07") == "\x1bPtmux;\x1b\x1b]9;x\x07\x1b\\"


def test_tmux_is_the_players_terminal_not_the_servers():
    assert in_tmux({"TMUX": "/tmp/tmux-0/default,1,0", "TERM": "xterm"})
    assert in_tmux({"TERM": "tmux-256color"}) and in_tmux({"TERM": "screen-256color"})  # a client in tmux, served
    assert not in_tmux({"TERM": "xterm-256color"})


@given(st.text())
def test_a_name_can_never_end_or_add_a_sequence(name):
    out = desktop_sequences("World of Mastermind", f"{name} invites you")
    body = out.replace("\x1b]9;", "").replace("\x1b]777;", "")
    assert body.count("\x07") == 2 and "\x1b" not in body
    assert out.split("\x1b]777;notify;")[1].count(";") == 1  # title;body: nothing more


class _Driver:
    def __init__(self):
        self.out = []

    def write(self, data):
        self.out.append(data)

    def flush(self):
        pass


class _App:
    def __init__(self):
        self._driver = _Driver()
        self.bells = 0

    def bell(self):
        self.bells += 1


def test_the_bell_and_the_desktop_notification_are_each_their_own_choice():
    app = _App()
    nudge(app, "Your turn", bell=True, desktop=False, env={})
    assert app.bells == 1 and app._driver.out == []
    nudge(app, "Your turn", bell=False, desktop=True, env={"TERM": "tmux-256color"})
    assert app.bells == 1 and app._driver.out[0].startswith("\x1bPtmux;")


async def test_the_creator_is_nudged_when_the_table_fills_and_when_their_code_is_due(data_dir: Path) -> None:
    store = Store(data_dir)
    store.register("Bea")
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        await wait_for(pilot, lambda: getattr(app.screen, "feed_ready", None) is not None
                       and app.screen.feed_ready.is_set(), message="lobby")
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, LiveTableScreen) and app.screen.view is not None,
                       message="at the new table")
        assert getattr(app, "nudges", 0) == 0
        table_id = app.screen.table_id
        bea = SeatHolder("Bea", "s-bea", True)
        store.live.join("Bea", True, "s-bea")
        store.live.update_table(table_id, lambda t: t.sit(bea, 1))
        await wait_for(pilot, lambda: getattr(app, "nudges", 0) == 1, message="nudged: the table is full")
        await pilot.press("g")
        await wait_for(pilot, lambda: getattr(app, "nudges", 0) == 2, message="nudged: set your code")
        messages = [str(n.message) for n in app._notifications]
        # The game started: "press g to start" is no longer true and goes; the new nudge stays.
        assert not any("Every seat is filled" in m for m in messages)
        assert any("set the code Bea will break" in m for m in messages)


@pytest.mark.parametrize("size", [(60, 20), (80, 24)], ids=["60x20", "80x24"])
async def test_a_nudge_no_longer_true_goes_and_at_60x20_none_covers_the_board_for_long(data_dir: Path, size) -> None:
    """"Every seat is filled: press g to start" stacked over the live table's board after the game had
    started; at 60×20 the notices covered the Feedback column."""
    store = Store(data_dir)
    store.register("Bea")
    app = build_app(data_dir)
    async with app.run_test(size=size) as pilot:
        await pilot.press("l")
        await wait_for(pilot, lambda: getattr(app.screen, "feed_ready", None) is not None
                       and app.screen.feed_ready.is_set(), message="lobby")
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, LiveTableScreen) and app.screen.view is not None,
                       message="at the new table")
        table_id = app.screen.table_id
        store.live.join("Bea", True, "s-bea")
        store.live.update_table(table_id, lambda t: t.sit(SeatHolder("Bea", "s-bea", True), 1))

        def notices() -> list[str]:
            return [str(n.message) for n in app._notifications]

        await wait_for(pilot, lambda: any("Every seat is filled" in m for m in notices()), message="nudged: full")
        await pilot.press("g")
        await wait_for(pilot, lambda: any("set the code Bea will break" in m for m in notices()),
                       message="nudged: set your code")
        # (Withdrawn as the new one is given: asserted at once, well before a toast's own time is up.)
        assert not any("Every seat is filled" in m for m in notices()), f"the stale notice is still up: {notices()}"
        if size == (60, 20):
            longest = max(n.timeout for n in app._notifications)
            assert longest <= NARROW_NOTICE_SECONDS, f"a notice covers the board for {longest} s at 60×20"
