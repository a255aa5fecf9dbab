"""Keys typed in one burst with the quit key quit cleanly (the random run, bench/fuzz.py, seeds 1
and 9).

Textual went on handling the keys queued behind the quit key (then ``q``, now ``x``) while it closed the screens: ``v`` opened
Replays on a closing app (NoMatches for its table), ``down`` reached a Select whose parts were gone,
a key with no screen left raised ScreenStackError, and a screen opened just before the quit read a
Select that the closing app never set (KeyError: 'Select.NULL', seed 1, event 518). Each ended the app with a traceback instead
of the goodbye.
"""

from __future__ import annotations

import pytest

from .burst import send_burst


@pytest.mark.parametrize(
    "keys",
    [
        ("x", "v", "down"),  # Replays opened while quitting
        ("x", "r", "x"),  # Register opened while quitting
        ("x", "q", "escape"),  # quick match opened while quitting
        ("pagedown", "enter", "v", "down"),  # the menu's last entry is Quit: Enter quits, then v, down
        ("end", "enter", "d"),  # Daily opened by a key handled before Quit's Enter: it read its Select unset
        ("end", "enter", "o"),  # the solo setup, likewise
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


async def test_two_enters_on_quit_say_goodbye_once_and_report_no_errors(app, capsys):
    # Random run, seed 1: both Enters chose Quit before the app closed, so it exited twice and the
    # terminal showed the goodbye, then "NOTE: 1 of 2 errors shown" for an error that never was.
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        send_burst(app, "end", "enter", "enter")
        for _ in range(10):
            await pilot.pause()
    printed = capsys.readouterr()
    assert "errors shown" not in printed.err + printed.out
    assert (printed.err + printed.out).count("Thank you for playing") == 1
