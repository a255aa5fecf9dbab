"""A served game's memory ceiling (issue 34, item 2): past it the game ends with a goodbye, not the machine."""

from __future__ import annotations

import subprocess
import sys

from wom_tui.settings import OUT_OF_MEMORY, OUT_OF_MEMORY_STATUS

GROWING_GAME = """
import sys
import wom_tui.launch as launch
from wom_tui.settings import Settings

def play(settings, identity):
    hoard = []
    for _ in range(256):  # a game that grows (an endless paste once did), up to 4 GiB (calloc: untouched pages)
        hoard.append(bytearray(16 * 1024 * 1024))
    return 0

launch.play = play
sys.exit(launch.run_served(Settings(data_dir=".", seed=1, served=True, game_memory_limit=int(sys.argv[1])), None))
"""


def test_a_game_that_grows_without_end_stops_at_its_memory_limit_with_a_goodbye(tmp_path) -> None:
    done = subprocess.run([sys.executable, "-c", GROWING_GAME, str(768 * 1024 * 1024)], capture_output=True,
                          text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == OUT_OF_MEMORY_STATUS, done.stderr[-2000:]
    assert OUT_OF_MEMORY in done.stderr
    assert "Traceback" not in done.stderr
