"""Memory left behind by opening and closing screens: N opens of each screen, from the main menu.

Runs the app headless at 80×24 (a temp data folder with a few users and games), opens a screen with
its menu key and closes it with Esc, N times, and prints how much the process grew: RSS (what the
machine pays) and the Python heap (tracemalloc is too slow here, so gc object counts), after a
warm-up of 20 opens so that one-time caches are not counted. Goal: 1,000 opens of any screen add
at most 5 MiB.

    .venv/bin/python bench/screen_memory.py [--opens 1000] [--warm-up 20] [--screens scoreboard help register solo play palette]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import sys
import tempfile
import time
from pathlib import Path

from wom_tui.app import WomApp
from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.settings import Settings

SCREENS = {
    "scoreboard": ("s", "ScoreboardScreen"),
    "help": ("f1", "HelpScreen"),
    "register": ("r", "RegisterScreen"),
    "solo": ("o", "SoloSetupScreen"),
    "play": ("p", "WomSetupScreen"),
    "palette": ("ctrl+p", "WomCommandPalette"),
}
WARM_UP = 20


def rss_mib() -> float:
    """Resident memory of this process in MiB (Linux /proc)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


async def measure(name: str, opens: int, data_dir: Path, warm_up: int = WARM_UP) -> tuple[float, int, float]:
    """(RSS growth in MiB, growth in live objects, seconds per open) over ``opens`` opens of ``name``."""
    key, class_name = SCREENS[name]
    store = Store(data_dir)
    app = WomApp(store, random.Random(1), Settings(data_dir=data_dir, seed=1, computer_pace=0))
    async with app.run_test(size=(80, 24)) as pilot:

        async def wait_for(condition: object) -> None:
            for _ in range(1000):
                if condition():  # type: ignore[operator]
                    return
                await pilot.pause()
            raise RuntimeError(f"{name}: the screen did not change")

        async def open_and_close() -> None:
            await pilot.press(key)
            await wait_for(lambda: type(app.screen).__name__ == class_name)
            await pilot.pause()
            await pilot.press("escape")
            await wait_for(lambda: len(app.screen_stack) == 1)
            await pilot.pause()

        for _ in range(warm_up):
            await open_and_close()
        gc.collect()
        rss, objects = rss_mib(), len(gc.get_objects())
        started = time.perf_counter()
        for _ in range(opens):
            await open_and_close()
        seconds = (time.perf_counter() - started) / opens
        await pilot.pause()
        gc.collect()
        return rss_mib() - rss, len(gc.get_objects()) - objects, seconds


def seed_data(data_dir: Path) -> None:
    """A few users, so the scoreboard has rows to show."""
    store = Store(data_dir)
    store.check()
    for name in ("Alan", "Grace", "Ada", "Linus"):
        store.register(name)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opens", type=int, default=1000)
    parser.add_argument("--screens", nargs="*", default=list(SCREENS), choices=list(SCREENS))
    parser.add_argument("--warm-up", type=int, default=WARM_UP, help="opens before measuring (one-time caches)")
    args = parser.parse_args()
    print(f"{args.opens} opens of each screen (after {args.warm_up} to warm up), Python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory(prefix="wom-screen-memory-") as folder:
        data_dir = Path(folder)
        seed_data(data_dir)
        for name in args.screens:
            grown, objects, seconds = await measure(name, args.opens, data_dir, args.warm_up)
            print(f"{name:>10}: RSS +{grown:6.1f} MiB, live objects {objects:+8d}, "
                  f"{seconds * 1000:5.0f} ms per open and close", flush=True)


if __name__ == "__main__":
    asyncio.run(main())
