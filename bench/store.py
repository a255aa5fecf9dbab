"""The store's figures: write times with 10,000 users, the SIGKILL test, and 8 processes at once;
then the data folder against PostgreSQL with 10,000 and 100,000 users.

    .venv/bin/python bench/store.py [--users 10000] [--writes 100] [--kills 100]
                                    [--sizes 10000,100000] [--compare-writes 20] [--only-compare]
                                    [--daily-attempts 50000] [--only-daily]

Prints median and max per write (register, record_game, and a full read of the scoreboard) on a
folder that already holds ``--users`` users; how many random SIGKILLs left a valid folder; and
how long 8 processes × 50 updates take (``--processes``, ``--updates``), with a check that all arrived. The comparison starts
a throwaway PostgreSQL server (tests/throwaway_pg.py: the system's package, fsync off — so its
figures are the database's work without the disk's, while the folder's include fsync).

The daily code: a start (``start_daily``, which holds the folder's lock or the database's
per-puzzle lock) with no attempt kept and with ``--daily-attempts`` kept (100 a day), on both
stores, and moving an older version's single ``daily.json`` of that size into ``daily/`` once.
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
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from tests.store.helpers import wom_game
from tests.store.workers import (
    kill_at_random_moments,
    record_forever,
    register_forever,
    run_concurrently,
    verify_recorded,
    verify_registered,
)
from wom_tui.domain.halloffame import HallOfFame
from wom_tui.domain.store.documents import encode_users
from wom_tui.domain.store.folder.files import atomic_write
from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.domain.store.api import Arcade
from wom_tui.domain.users import User, UserRegistry


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


def filled_stores(users: int, folder: Path, url: str):
    """A data folder and a database each holding ``users`` users plus Alan (written directly, not registered)."""
    from wom_tui.domain.store.postgres.store import PostgresStore

    rng = Random(0)
    registry = UserRegistry(User(f"player{i:06d}", rng.randrange(500), rng.randrange(60)) for i in range(users))
    registry.register("Alan")
    atomic_write(folder / "users.json", encode_users(registry))
    database = PostgresStore(url)
    database.load(Arcade(users=tuple(registry), hall=HallOfFame(), games=(), themes={}, daily=(), daily_secret=None))
    return Store(folder), database


def bench_json_against_postgres(sizes: list[int], writes: int, processes: int = 8, updates: int = 50) -> None:
    from throwaway_pg import ThrowawayPostgres

    server = ThrowawayPostgres().start()
    try:
        print(f"Data folder against PostgreSQL {server.sql('SHOW server_version')[0][0]} (same run, same machine):")
        for users in sizes:
            with tempfile.TemporaryDirectory() as tmp:
                folder, database = filled_stores(users, Path(tmp), server.new_database(f"b{users}"))
                print(f" {users + 1:,} users:")
                for name, store in (("folder", folder), ("postgresql", database)):
                    line(f"{name:<10} register", timed(lambda i: store.register(f"new{i:05d}"), writes))
                    line(f"{name:<10} record_game (2 users)",
                         timed(lambda i: store.record_game(wom_game("Alan", f"new{i % writes:05d}")), writes))
                    line(f"{name:<10} scoreboard", timed(lambda i: store.scoreboard(), max(3, writes // 4)))
                database.close()
        url = server.new_database("conc")
        from wom_tui.domain.store.postgres.store import PostgresStore

        with PostgresStore(url) as database:
            database.register("Alan")
        elapsed = run_concurrently(url, "record", processes, updates)
        with PostgresStore(url) as database:
            alan = database.user("Alan")
            present = min(alan.score, alan.games, len(database.games()))
        expected = processes * updates
        print(f"  postgresql {processes} processes × {updates} record_game for one user: {present}/{expected} "
              f"{'all present' if present == expected else 'LOST UPDATES'}, {elapsed:.2f} s "
              f"({elapsed / expected * 1000:.1f} ms per update)")
    finally:
        server.remove()


def past_attempts(count: int) -> list:
    """``count`` finished attempts, 100 a day on the days before 2026-11-23 (50 per puzzle)."""
    from datetime import date, timedelta

    from wom_tui.domain.daily import DailyAttempt

    result = []
    for n in range(count):
        day = (date(2026, 11, 22) - timedelta(days=n // 100)).isoformat()
        result.append(DailyAttempt(day, ("classic", "digits")[n % 2], f"player{n % 100:03d}", f"{day}T08:00:00+00:00",
                                   f"{day}T08:05:00+00:00", 1 + n % 10, n % 3 > 0, None,
                                   f"SHA256:{n % 100:011d}{'A' * 32}"))
    return result


def bench_daily(sizes: list[int], starts: int) -> None:
    from datetime import datetime, timezone

    from throwaway_pg import ThrowawayPostgres
    from wom_tui.domain.daily import DailyAttempt
    from wom_tui.domain.store.documents import encode_attempts
    from wom_tui.domain.store.postgres.store import PostgresStore

    def today(i: int) -> DailyAttempt:
        now = datetime.now(timezone.utc)
        return DailyAttempt(now.date().isoformat(), "classic", f"today{i:05d}", now.isoformat(),
                            key=f"SHA256:{i:011d}{'T' * 32}")

    server = ThrowawayPostgres().start()
    try:
        print(f"The daily code: a start with attempts already kept ({starts} starts each):")
        for size in sizes:
            history = past_attempts(size)
            empty = Arcade(users=(), hall=HallOfFame(), games=(), themes={}, daily=tuple(history), daily_secret=None)
            with tempfile.TemporaryDirectory() as tmp:
                folder = Store(Path(tmp) / "data")
                folder.load(empty)
                line(f"folder     start_daily, {size:,} kept", timed(lambda i: folder.start_daily(today(i)), starts))
            database = PostgresStore(server.new_database(f"d{size}"))
            database.load(empty)
            line(f"postgresql start_daily, {size:,} kept", timed(lambda i: database.start_daily(today(i)), starts))
            database.close()
            if size:
                with tempfile.TemporaryDirectory() as tmp:
                    old = Path(tmp) / "data"
                    old.mkdir()
                    (old / "daily.json").write_bytes(encode_attempts(history))
                    mb = (old / "daily.json").stat().st_size / 1e6
                    moving = Store(old)
                    line(f"folder     moving a {mb:.1f} MB daily.json", timed(lambda i: moving.daily_attempts_on("2026-11-22"), 1))
    finally:
        server.remove()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=10_000)
    parser.add_argument("--writes", type=int, default=100)
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--sizes", default="10000,100000", help="user counts for the folder/PostgreSQL comparison")
    parser.add_argument("--compare-writes", type=int, default=20)
    parser.add_argument("--only-compare", action="store_true", help="only the folder/PostgreSQL comparison")
    parser.add_argument("--processes", type=int, default=8, help="processes writing at once")
    parser.add_argument("--updates", type=int, default=50, help="updates by each of those processes")
    parser.add_argument("--daily-attempts", type=int, default=50_000,
                        help="daily attempts already kept when timing a daily start (against none)")
    parser.add_argument("--daily-starts", type=int, default=50, help="daily starts timed on each store and size")
    parser.add_argument("--only-daily", action="store_true", help="only the daily code's figures")
    parser.add_argument("--tiny", action="store_true", help="one quick pass to check the bench runs (figures meaningless)")
    args = parser.parse_args()
    if args.tiny:
        args.users, args.writes, args.kills, args.sizes, args.compare_writes = 10, 2, 2, "10", 2
        args.processes, args.updates = 2, 2
        args.daily_attempts, args.daily_starts = 200, 2
    started = time.perf_counter()
    if args.only_daily:
        bench_daily([0, args.daily_attempts], args.daily_starts)
        print(f"(bench took {time.perf_counter() - started:.1f} s)")
        return
    if not args.only_compare:
        bench_big_folder(args.users, args.writes)
        bench_kills(args.kills)
        bench_concurrency(args.processes, args.updates)
    bench_json_against_postgres([int(n) for n in args.sizes.split(",")], args.compare_writes,
                                args.processes, args.updates)
    bench_daily([0, args.daily_attempts], args.daily_starts)
    print(f"(bench took {time.perf_counter() - started:.1f} s)")


if __name__ == "__main__":
    main()
