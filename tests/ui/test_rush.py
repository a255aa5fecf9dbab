"""Rush on screen: the clock starts with the first guess, a break brings the next code, a skip costs 10 s, time up
keeps the personal best (and says so), a bad guess is refused at no cost, ``a`` plays again. 80×24 and 60×20."""

from __future__ import annotations

from pathlib import Path

import pytest

from wom_tui.domain.rush import RUSH_SECONDS, RushScore
from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.screens.rush import RushScreen

from .conftest import build_app, wait_for
from .screen_text import screen_text


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def flat(app) -> str:
    """The screen's words as one line (a narrow terminal wraps them anywhere)."""
    return " ".join(" ".join(line.strip(" │╭╮╰╯─") for line in screen_text(app).splitlines()).split())


def answer(screen: RushScreen) -> str:
    return screen.game._code(len(screen.game.codes))  # the code being broken (the test peeks)


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_a_rush_from_first_guess_to_a_personal_best(data_dir: Path, size) -> None:
    store = Store(data_dir)
    store.submit_rush("local", RushScore(1, 9, 1))
    clock = Clock()
    app = build_app(data_dir)
    async with app.run_test(size=size) as pilot:
        app.call_later(app.push_screen, RushScreen(clock))
        await wait_for(pilot, lambda: isinstance(app.screen, RushScreen) and "3:00" in screen_text(app),
                       message="the clock waits for the first guess")
        screen = app.screen
        assert "starts with your first guess" in screen_text(app) and "best 1" in screen_text(app)
        await pilot.press(*"rg", "enter")  # too short: refused, nothing spent, the clock not started
        await wait_for(pilot, lambda: screen.game.started_at is None and "Guess" in screen_text(app), message="refused")
        first = answer(screen)
        await pilot.press(*"bb", "enter")  # completed: RGBB is played, and starts the clock
        await wait_for(pilot, lambda: screen.game.started_at == 100.0, message="the clock started")
        if screen.game.broken == 0:
            await pilot.press(*first.lower(), "enter")
        await wait_for(pilot, lambda: screen.game.broken == 1, message="broke the first code")
        assert f"Broken: {first}" in flat(app)
        await pilot.press(*answer(screen).lower(), "enter")
        await wait_for(pilot, lambda: "+15 s for 2 in a row" in flat(app), message="the run's bonus said")
        await pilot.press("ctrl+n")
        await wait_for(pilot, lambda: "Lost: the code was" in flat(app), message="the skip said")
        assert screen.game.time_left(100.0) == RUSH_SECONDS + 15 - 10
        clock.now += RUSH_SECONDS + 5
        await wait_for(pilot, lambda: "Time is up: 2 codes broken" in flat(app), message="over")
        assert "A new personal best!" in flat(app)
        assert store.rush_best("local") == screen.game.score()
        await pilot.press(*"rgby", "enter")  # after the end: nothing is played
        assert screen.game.score().broken == 2
        await pilot.press("a")
        await wait_for(pilot, lambda: screen.game.ended_at is None and "3:00" in screen_text(app), message="again")
