"""The live state's figures: change-feed latency across processes, and what waiting costs.

    .venv/bin/python bench/live.py [--changes 60] [--sessions 20] [--tables 8] [--json]

* feed latency: another process changes a table (``update_table``) every 50 ms; a subscriber in
  this process times each change from the write to its arrival (p50, p95, max), with watchfiles
  and with the polling fallback (1 s);
* one sweep (presence collected, every table brought up to date) with ``--sessions`` sessions
  online and ``--tables`` open tables: wall and CPU ms;
* one ``tick`` of a table (the lock, a read, presence): wall ms;
* ``--sessions`` idle subscribers in one process over 10 s: percent of one core.

These are the building blocks of issue 11's goals (``bench/together.py`` measures them through
the screens, later).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wom_tui.domain.live import FolderFeed  # noqa: E402
from wom_tui.domain.store import Store  # noqa: E402
from wom_tui.domain.table import SeatHolder  # noqa: E402

CTX = multiprocessing.get_context("fork")
CREATOR = SeatHolder("Alan", "s-alan", True)


def writer(folder: str, table_id: str, count: int, stamps) -> None:
    """Change the table ``count`` times, 50 ms apart, putting each write's wall time."""
    live = Store(folder).live
    for i in range(count):
        time.sleep(0.05)
        stamps.put(time.time())
        live.update_table(table_id, lambda t: t.seat_computer(CREATOR, 1, "HAL9000") if i % 2 == 0
                          else t.unseat_computer(CREATOR, 1))


async def feed_latency(folder: Path, table_id: str, count: int, polling: bool) -> list[float]:
    """Milliseconds from each write in another process to its arrival at a subscriber."""
    feed = FolderFeed(folder, polling=polling)
    stop, ready = asyncio.Event(), asyncio.Event()
    arrivals: list[float] = []

    async def watch():
        async for change in feed.changes(stop, ready):
            if table_id in change.tables:
                arrivals.append(time.time())

    task = asyncio.create_task(watch())
    await ready.wait()
    stamps = CTX.Queue()
    process = CTX.Process(target=writer, args=(str(folder), table_id, count, stamps))
    process.start()
    written = [await asyncio.to_thread(stamps.get, True, 60) for _ in range(count)]
    await asyncio.to_thread(process.join, 60)
    deadline = time.monotonic() + 5
    while len(arrivals) < count and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    stop.set()
    await task
    # Changes close together may arrive as one: each write is seen by the first arrival after it.
    latencies = []
    for stamp in written:
        later = [a for a in arrivals if a >= stamp]
        if later:
            latencies.append((min(later) - stamp) * 1000)
    return latencies


async def idle_cpu(folder: Path, subscribers: int, seconds: float) -> float:
    """Percent of one core that ``subscribers`` feeds in this process use while nothing changes."""
    import resource

    stops = [asyncio.Event() for _ in range(subscribers)]
    readies = [asyncio.Event() for _ in range(subscribers)]

    async def subscribe(i: int) -> None:
        async for _ in FolderFeed(folder).changes(stops[i], readies[i]):
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
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return used / seconds * 100


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=60)
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        live = Store(folder).live
        table = live.create_table(CREATOR, seats=2)
        for polling in (False, True):
            latencies = asyncio.run(feed_latency(folder, table.table_id, args.changes if not polling else 10, polling))
            name = "polling" if polling else "watchfiles"
            figures[f"feed_{name}_p50_ms"] = statistics.median(latencies)
            figures[f"feed_{name}_p95_ms"] = percentile(latencies, 0.95)
            figures[f"feed_{name}_max_ms"] = max(latencies)
    with tempfile.TemporaryDirectory() as tmp:
        Store(tmp).live
        figures["idle_feeds_cpu_percent"] = asyncio.run(idle_cpu(Path(tmp), args.sessions, 10.0))
    with tempfile.TemporaryDirectory() as tmp:
        live = Store(tmp).live
        people = [live.join(f"guest {i}", False) for i in range(args.sessions)]
        for i in range(args.tables):
            live.create_table(people[i % len(people)].holder(), seats=3)
        live.sweep()
        rounds = 200
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in range(rounds):
            live.sweep()
        figures["sweep_wall_ms"] = (time.perf_counter() - wall) / rounds * 1000
        figures["sweep_cpu_ms"] = (time.process_time() - cpu) / rounds * 1000
        table_id = live.tables().tables[0].table_id
        wall = time.perf_counter()
        for _ in range(rounds):
            live.tick(table_id)
        figures["tick_wall_ms"] = (time.perf_counter() - wall) / rounds * 1000
    if args.json:
        print(json.dumps({k: round(v, 2) for k, v in figures.items()}))
    else:
        for key, value in figures.items():
            print(f"{key:28} {value:8.2f}")


if __name__ == "__main__":
    main()
