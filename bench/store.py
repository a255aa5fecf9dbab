"""The store's figures: write times with 10,000 users, the SIGKILL test, and 8 processes at once.

    .venv/bin/python bench/store.py [--users 10000] [--writes 100] [--kills 100]

Prints median and max per write (register, record_game, and a full read of the scoreboard) on a
folder that already holds ``--users`` users; how many random SIGKILLs left a valid folder; and
how long 8 processes × 50 updates take, with a check that all 400 arrived.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.store.helpers import wom_game  # noqa: E402
from tests.store.workers import (  # noqa: E402
    kill_at_random_moments,
    record_forever,
    register_forever,
    run_concurrently,
    verify_recorded,
    verify_registered,
)
from wom_tui.domain.store import Store, atomic_write, encode_users  # noqa: E402
from wom_tui.domain.users import User, UserRegistry  # noqa: E402


def timed(action, times: int) -> list[float]:
    """Milliseconds each of ``times`` calls of ``action(i)`` took."""
    result = []
    for i in range(times):
        started = time.perf_counter()
        action(i)
        result.append((time.perf_counter() - started) * 1000)
    return result


def line(label: str, samples: list[float]) -> None:
    print(f"  {label:<34} median {statistics.median(samples):7.2f} ms   max {max(samples):7.2f} ms   (n={len(samples)})")


def bench_big_folder(users: int, writes: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        rng = Random(0)
        registry = UserRegistry(User(f"player{i:05d}", rng.randrange(500), rng.randrange(60)) for i in range(users))
        registry.register("Alan")
        atomic_write(folder / "users.json", encode_users(registry))
        store = Store(folder)
        size = (folder / "users.json").stat().st_size
        print(f"users.json with {users + 1:,} users: {size / 1024:.0f} KiB")
        line("register (read-modify-write)", timed(lambda i: store.register(f"new{i:05d}"), writes))
        line("record_game (journalled, 3 fsyncs)", timed(lambda i: store.record_game(wom_game("Alan")), writes))
        line("scoreboard (read + validate)", timed(lambda i: store.scoreboard(), writes))
        line(f"check at start ({writes} games on file)", timed(lambda i: store.check(), 5))
        line("games (read every game)", timed(lambda i: store.games(), 5))


def bench_kills(kills: int) -> None:
    print(f"SIGKILL at random moments ({kills // 2} registering + {kills - kills // 2} recording games):")
    total = valid = temps = pendings = 0
    for worker, verify, count, seed in ((register_forever, verify_registered, kills // 2, 1),
                                        (record_forever, verify_recorded, kills - kills // 2, 2)):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            if worker is record_forever:
                Store(folder).register("Alan")
            stats = kill_at_random_moments(folder, worker, verify, count, Random(seed))
        total += stats["kills"]
        valid += stats["valid"]
        temps += stats["temp_left"]
        pendings += stats["pending_left"]
    print(f"  {total} kills, {valid} left a valid folder (old or new state, points exactly once); "
          f"{temps} landed mid-write (temp file left), {pendings} between a game's two writes")


def bench_concurrency(processes: int, updates: int) -> None:
    print(f"{processes} processes × {updates} updates at once:")
    for kind in ("record", "register"):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            if kind == "record":
                Store(folder).register("Alan")
            elapsed = run_concurrently(folder, kind, processes, updates)
            store = Store(folder)
            store.check()
            if kind == "record":
                alan = store.user("Alan")
                present = min(alan.score, alan.games, len(store.games()))
                what = "record_game for one shared user"
            else:
                present = len(store.users())
                what = "register distinct users"
        expected = processes * updates
        verdict = "all present" if present == expected else "LOST UPDATES"
        print(f"  {what:<34} {present}/{expected} {verdict}, {elapsed:.2f} s "
              f"({elapsed / expected * 1000:.1f} ms per update)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=10_000)
    parser.add_argument("--writes", type=int, default=100)
    parser.add_argument("--kills", type=int, default=100)
    args = parser.parse_args()
    started = time.perf_counter()
    bench_big_folder(args.users, args.writes)
    bench_kills(args.kills)
    bench_concurrency(8, 50)
    print(f"(bench took {time.perf_counter() - started:.1f} s)")


if __name__ == "__main__":
    main()
