"""What bench/live.py (the data folder) and bench/pglive.py (PostgreSQL) measure alike: how long a
change written by another process takes to reach a subscriber of the change feed, and what idle
subscribers cost. Either store's location works: a folder or a ``postgresql://`` URL.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import resource
import time
from collections.abc import Callable

from wom_tui.domain.store import open_store
from wom_tui.domain.store.api import ChangeFeed
from wom_tui.domain.table import SeatHolder

CTX = multiprocessing.get_context("spawn")
CREATOR = SeatHolder("Alan", "s-alan", True)


def toggle_hal(live, table_id: str, i: int) -> None:
    """One change of the table (one transaction, or one locked write): HAL9000 sits down or stands up."""
    live.update_table(table_id, lambda t: t.seat_computer(CREATOR, 1, "HAL9000") if i % 2 == 0
                      else t.unseat_computer(CREATOR, 1))


def writer(location: str, table_id: str, count: int, stamps) -> None:
    """Change the table ``count`` times, 50 ms apart, putting each write's wall time just before it."""
    store = open_store(location)
    for i in range(count):
        time.sleep(0.05)
        stamps.put(time.time())
        toggle_hal(store.live, table_id, i)
    store.close()


async def feed_latency(feed: ChangeFeed, location: str, table_id: str, count: int) -> list[float]:
    """Milliseconds from each write in another process to its arrival through ``feed``."""
    stop, ready = asyncio.Event(), asyncio.Event()
    arrivals: list[float] = []

    async def watch() -> None:
        async for change in feed.changes(stop, ready):
            if table_id in change.tables:
                arrivals.append(time.time())

    task = asyncio.create_task(watch())
    await ready.wait()
    stamps = CTX.Queue()
    process = CTX.Process(target=writer, args=(location, table_id, count, stamps))
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


async def idle_cpu(new_feed: Callable[[], ChangeFeed], subscribers: int, seconds: float) -> float:
    """Percent of one core that ``subscribers`` feeds in this process use while nothing changes."""
    stops = [asyncio.Event() for _ in range(subscribers)]
    readies = [asyncio.Event() for _ in range(subscribers)]

    async def subscribe(i: int) -> None:
        async for _ in new_feed().changes(stops[i], readies[i]):
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


def sweep_ms(live, sessions: int, tables: int, rounds: int) -> tuple[float, float]:
    """Wall and CPU ms of one sweep with ``sessions`` sessions online and ``tables`` open tables."""
    people = [live.join(f"guest {i}", False) for i in range(sessions)]
    for i in range(tables):
        live.create_table(people[i % len(people)].holder(), seats=3)
    live.sweep()
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(rounds):
        live.sweep()
    return (time.perf_counter() - wall) / rounds * 1000, (time.process_time() - cpu) / rounds * 1000


def percentile(values: list[float], fraction: float) -> float:
    """The value below which ``fraction`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def print_figures(figures: dict[str, float], as_json: bool) -> None:
    """One figure a line, or one JSON object."""
    if as_json:
        print(json.dumps({k: round(v, 2) for k, v in figures.items()}))
    else:
        for key, value in figures.items():
            print(f"{key:32} {value:10.2f}")


__all__ = ["CREATOR", "feed_latency", "idle_cpu", "percentile", "print_figures", "sweep_ms", "toggle_hal"]
