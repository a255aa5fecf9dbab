"""The live state on PostgreSQL: LISTEN/NOTIFY latency across processes, and what a move costs.

    .venv/bin/python bench/pglive.py [--changes 100] [--sessions 20] [--tables 8] [--store URL] [--json]

Without ``--store`` a throwaway PostgreSQL server is started (tests/throwaway_pg.py: the system's
package, fsync off — so the figures are the software's, not a disk's).

* feed latency: another process changes a table (``update_table``, one transaction) every 50 ms;
  a subscriber in this process (``store.live.feed()``, its own LISTEN connection) times each change
  from just before the write to its arrival (p50, p95, max);
* one ``update_table`` (a row locked FOR UPDATE, the table decoded, changed and written): wall ms;
* one sweep with ``--sessions`` sessions online and ``--tables`` open tables: wall ms;
* ``--sessions`` idle subscribers in one process over 5 s: percent of one core.

Compare with ``bench/live.py`` (the data folder's watchfiles feed).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from wom_tui.domain.stores import open_store  # noqa: E402
from wom_tui.domain.table import SeatHolder  # noqa: E402

CTX = multiprocessing.get_context("spawn")
CREATOR = SeatHolder("Alan", "s-alan", True)


def writer(url: str, table_id: str, count: int, stamps) -> None:
    """Change the table ``count`` times, 50 ms apart, putting each write's wall time."""
    store = open_store(url)
    live = store.live
    for i in range(count):
        time.sleep(0.05)
        stamps.put(time.time())
        live.update_table(table_id, lambda t: t.seat_computer(CREATOR, 1, "HAL9000") if i % 2 == 0
                          else t.unseat_computer(CREATOR, 1))
    store.close()


async def feed_latency(url: str, table_id: str, count: int) -> list[float]:
    """Milliseconds from each write in another process to its arrival at a subscriber."""
    store = open_store(url)
    stop, ready = asyncio.Event(), asyncio.Event()
    arrivals: list[float] = []

    async def watch():
        async for change in store.live.feed().changes(stop, ready):
            if table_id in change.tables:
                arrivals.append(time.time())

    task = asyncio.create_task(watch())
    await ready.wait()
    stamps = CTX.Queue()
    process = CTX.Process(target=writer, args=(url, table_id, count, stamps))
    process.start()
    written = [await asyncio.to_thread(stamps.get, True, 60) for _ in range(count)]
    await asyncio.to_thread(process.join, 60)
    deadline = time.monotonic() + 5
    while len(arrivals) < count and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    stop.set()
    await task
    store.close()
    latencies = []
    for stamp in written:
        later = [a for a in arrivals if a >= stamp]
        if later:
            latencies.append((min(later) - stamp) * 1000)
    return latencies


async def idle_cpu(url: str, subscribers: int, seconds: float) -> float:
    """Percent of one core that ``subscribers`` feeds in this process use while nothing changes."""
    import resource

    store = open_store(url)
    stops = [asyncio.Event() for _ in range(subscribers)]
    readies = [asyncio.Event() for _ in range(subscribers)]

    async def subscribe(i: int) -> None:
        async for _ in store.live.feed().changes(stops[i], readies[i]):
            pass

    tasks = [asyncio.create_task(subscribe(i)) for i in range(subscribers)]
    for ready in readies:
        await ready.wait()
    before = resource.getrusage(resource.RUSAGE_SELF)
    await asyncio.sleep(seconds)
    after = resource.getrusage(resource.RUSAGE_SELF)
    for stop in stops:
        stop.set()
    await asyncio.gather(*tasks)
    store.close()
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return used / seconds * 100


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def run(url: str, args: argparse.Namespace) -> dict[str, float]:
    figures: dict[str, float] = {}
    store = open_store(url)
    live = store.live
    table = live.create_table(CREATOR, seats=2)
    latencies = asyncio.run(feed_latency(url, table.table_id, args.changes))
    figures["feed_listen_notify_p50_ms"] = statistics.median(latencies)
    figures["feed_listen_notify_p95_ms"] = percentile(latencies, 0.95)
    figures["feed_listen_notify_max_ms"] = max(latencies)
    figures["feed_changes_seen"] = len(latencies)
    rounds = 200
    wall = time.perf_counter()
    for i in range(rounds):
        live.update_table(table.table_id, lambda t: t.seat_computer(CREATOR, 1, "HAL9000") if i % 2 == 0
                          else t.unseat_computer(CREATOR, 1))
    figures["update_table_wall_ms"] = (time.perf_counter() - wall) / rounds * 1000
    people = [live.join(f"guest {i}", False) for i in range(args.sessions)]
    for i in range(args.tables):
        live.create_table(people[i % len(people)].holder(), seats=3)
    live.sweep()
    wall = time.perf_counter()
    for _ in range(50):
        live.sweep()
    figures["sweep_wall_ms"] = (time.perf_counter() - wall) / 50 * 1000
    store.close()
    figures["idle_feeds_cpu_percent"] = asyncio.run(idle_cpu(url, args.sessions, 5.0))
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=100)
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--store", metavar="URL", help="an empty PostgreSQL database (default: a throwaway server)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.store:
        figures = run(args.store, args)
    else:
        from throwaway_pg import ThrowawayPostgres

        server = ThrowawayPostgres()
        try:
            server.start()
            figures = run(server.new_database("bench"), args)
        finally:
            server.remove()
    if args.json:
        print(json.dumps({k: round(v, 2) for k, v in figures.items()}))
    else:
        for key, value in figures.items():
            print(f"{key:32} {value:10.2f}")


if __name__ == "__main__":
    main()
