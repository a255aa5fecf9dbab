"""Keys typed in one burst with the quit key quit cleanly (issue 9's random run, seeds 1 and 9).

Textual went on handling the keys queued behind ``q`` while it closed the screens: ``v`` opened
Replays on a closing app (NoMatches for its table), ``down`` reached a Select whose parts were gone,
and a key with no screen left raised ScreenStackError. Each ended the app with a traceback instead
of the goodbye.
"""

from __future__ import annotations

import pytest

from .burst import send_burst


@pytest.mark.parametrize(
    "keys",
    [
        ("q", "v", "down"),  # Replays opened while quitting
        ("q", "r", "x"),  # Register opened while quitting
        ("pagedown", "enter", "v", "down"),  # the menu's last entry is Quit: Enter quits, then v, down
    ],
)
async def test_keys_behind_quit_in_one_burst_end_the_app_cleanly(app, keys):
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        send_burst(app, *keys)
        for _ in range(10):
            await pilot.pause()
        assert app._exit, "the burst quits"
        assert app._exception is None
