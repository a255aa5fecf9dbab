"""A seeded 10,000-event random run over every screen: keys, bursts, clicks, pastes, resizes.

    .venv/bin/python bench/fuzz.py [--events 10000] [--seed 9] [--minutes M]

Prints the events by kind, the screens reached (events seen on each), how many launches (q and
ctrl+q quit; the run starts the app again on the same folder), the time taken, any crash, and
whether the data folder is valid at the end. ``make test`` runs a shorter version
(tests/ui/test_fuzz.py).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.ui.fuzz import run_fuzz
from wom_tui.domain.store import StoreError
from wom_tui.domain.store.folder.store import FolderStore as Store


def quicker_idle_checks() -> None:
    """The pilot's idle checks every 2 ms instead of 20 ms, as the test suite has them (tests/conftest.py)."""
    import textual._wait

    textual._wait.SLEEP_GRANULARITY = 0.002
    textual._wait.SLEEP_IDLE = 0.0005


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--minutes", type=float, default=None, help="stop after this long, with fewer events")
    args = parser.parse_args()
    quicker_idle_checks()
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        def progress(report) -> None:
            screens = ", ".join(f"{name} {n}" for name, n in report.screens.most_common())
            print(f"  {report.events} events, {time.perf_counter() - started:.0f} s: {screens}", flush=True)

        deadline = None if args.minutes is None else time.monotonic() + args.minutes * 60
        report = asyncio.run(run_fuzz(Path(folder), args.events, args.seed, progress=progress, deadline=deadline))
        elapsed = time.perf_counter() - started
        try:
            Store(folder).check()
            valid = "valid"
        except StoreError as error:
            valid = f"INVALID: {error}"
        users = Store(folder).scoreboard()
        games = len(Store(folder).games())
    print(f"seed {args.seed}: {report.events} events in {elapsed:.0f} s, {report.launches} launches")
    print("events: " + ", ".join(f"{kind} {n}" for kind, n in report.kinds.most_common()))
    print("screens reached: " + ", ".join(f"{name} {n}" for name, n in report.screens.most_common()))
    print(f"data folder: {valid}; {len(users)} users, {games} games on file")
    print(f"crash: {report.crash or 'none'}")
    if report.crash:
        print("last events:\n  " + "\n  ".join(report.recent))
    if report.trace:
        print(report.trace)
    return 1 if report.crash or valid != "valid" else 0


if __name__ == "__main__":
    sys.exit(main())
