"""Leaving a screen with a Select before it has mounted crashes nothing.

The random run (bench/fuzz.py, seed 9, event 56) ended with NoMatches('SelectOverlay') when Replays
was left while it was still being built: the Select's mount handler looked for its removed overlay.
The WoM setup had the same fault; every screen with a drop-down is tried here, popped after 0…11
turns of the event loop.
"""

from __future__ import annotations

import asyncio

import pytest

from wom_tui.screens.daily import DailyScreen
from wom_tui.screens.menu import MenuScreen
from wom_tui.screens.replay import ReplaysScreen
from wom_tui.screens.solo_setup import SoloSetupScreen
from wom_tui.screens.stats import StatsScreen
from wom_tui.screens.wom_setup import WomSetupScreen

from .conftest import wait_for


@pytest.mark.parametrize("screen", [ReplaysScreen, StatsScreen, DailyScreen, SoloSetupScreen, WomSetupScreen])
async def test_leaving_a_screen_with_a_select_before_it_has_mounted_does_not_crash(app, store, screen):
    store.register("Alan")
    async with app.run_test(size=(80, 24)) as pilot:
        for ticks in range(12):
            app.push_screen(screen())
            for _ in range(ticks):
                await asyncio.sleep(0)
            app.pop_screen()
            await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen), message=f"menu {app.screen}")
        for _ in range(5):
            await pilot.pause()
        assert app.is_running and app._exception is None

