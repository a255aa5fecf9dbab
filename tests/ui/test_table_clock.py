"""A live table opened with a clock per guess (the table form): the seat's title counts its time down;
out of time, the player is told, the code they were breaking counts as not broken; 80×24 and 60×20."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from wom_tui.screens.live_table import LiveTableScreen
from wom_tui.screens.lobby import LobbyScreen, NewTableScreen

from .conftest import build_app, wait_for


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def _title(app) -> str:
    return str(app.screen.query_one("#table-title", Static).render())


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_a_table_with_a_clock_counts_down_and_times_out(data_dir: Path, size) -> None:
    app = build_app(data_dir)
    async with app.run_test(size=size) as pilot:
        import time

        clock = Clock(time.time())
        app.store.live.clock = clock
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.feed_ready.is_set(),
                       message="lobby")
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, NewTableScreen), message="the form")
        app.screen.query_one("#new-clock").value = 30.0
        await pilot.pause()
        await pilot.click("#new-create")
        await wait_for(pilot, lambda: isinstance(app.screen, LiveTableScreen) and app.screen.view is not None,
                       message="at the table")
        assert app.screen.view.guess_clock == 30.0 and "30 s a guess" in _title(app)
        await pilot.press("h")
        await wait_for(pilot, lambda: "HAL9000" in str(app.screen.view.seats[1].name), message="HAL9000")
        await pilot.press("g")
        await wait_for(pilot, lambda: app.screen.view.phase == "making", message="making")
        await pilot.press(*"RGBY", "enter")
        await wait_for(pilot, lambda: app.screen.view.phase == "guessing", message="guessing")
        await wait_for(pilot, lambda: "0:30 left" in _title(app) or "0:29 left" in _title(app), message="counting")
        clock.now += 31
        app.screen.poke_tick()
        await wait_for(pilot, lambda: app.screen.view.seats[0].timed_out, message="out of time")
        assert "out of time" in _title(app)
        assert any("ran out of time" in line for line in app.screen.view.log)
        await pilot.press(*"RGBY", "enter")  # one guess too many: refused, nothing played
        await pilot.pause()
        assert app.store.live.table(app.screen.table_id).view_for(None).seats[0].attempts_used == 0


async def test_the_form_opens_without_a_clock_by_default(data_dir: Path) -> None:
    app = build_app(data_dir)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), message="lobby")
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, NewTableScreen), message="the form")
        await pilot.pause()
        await pilot.press("enter", "enter")  # a second Enter lands on the table, harmlessly
        await wait_for(pilot, lambda: isinstance(app.screen, LiveTableScreen) and app.screen.view is not None,
                       message="at the table")
        assert app.screen.view.guess_clock is None
        assert app.screen.query_one("#table-title").region.width > 0


async def test_a_code_never_set_is_drawn_when_the_code_clock_runs_out(data_dir: Path) -> None:
    # A player starts a table with HAL9000 and sets no code: the title counts the code clock down; when it runs out
    # the table draws the code (the rules' tick, as the hub's would) and the game goes on, the player guessing.
    from wom_tui.domain.waits import CODE_CLOCK

    app = build_app(data_dir)
    async with app.run_test(size=(60, 20)) as pilot:
        import time

        clock = Clock(time.time())
        app.store.live.clock = clock
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.feed_ready.is_set(),
                       message="lobby")
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, NewTableScreen), message="the form")
        await pilot.pause()
        await pilot.click("#new-create")
        await wait_for(pilot, lambda: isinstance(app.screen, LiveTableScreen) and app.screen.view is not None,
                       message="at the table")
        await pilot.press("h")
        await wait_for(pilot, lambda: "HAL9000" in str(app.screen.view.seats[1].name), message="HAL9000")
        await pilot.press("g")
        left = f"code: {int(CODE_CLOCK) // 60}:{int(CODE_CLOCK) % 60:02d} left"
        await wait_for(pilot, lambda: app.screen.view.phase == "making" and left in _title(app), message="code clock")
        clock.now += CODE_CLOCK + 1
        app.screen.poke_tick()
        await wait_for(pilot, lambda: app.screen.view.phase == "guessing", message="the code drawn, guessing")
        assert any("did not set a code in time: one was drawn for HAL9000" in line for line in app.screen.view.log)
        assert "code:" not in _title(app)
        await pilot.press(*"RGBY", "enter")  # the player plays on
        await wait_for(pilot, lambda: app.store.live.table(app.screen.table_id).view_for(None).seats[0]
                       .attempts_used == 1, message="a guess played")
