"""The live state's figures: change-feed latency across processes, and what waiting costs.

    .venv/bin/python bench/live.py [--changes 60] [--sessions 20] [--tables 8] [--json]

* feed latency: another process changes a table (``update_table``) every 50 ms; a subscriber in
  this process times each change from the write to its arrival (p50, p95, max), with inotify (Linux,
  the feed's default there), watchfiles (elsewhere) and the polling fallback (1 s);
* one sweep (presence collected, every table brought up to date) with ``--sessions`` sessions
  online and ``--tables`` open tables: wall and CPU ms;
* one ``tick`` of a table (the lock, a read, presence): wall ms;
* ``--sessions`` idle subscribers in one process over 10 s: percent of one core.

These are the building blocks of playing together (docs/perf/; ``bench/together.py`` measures them through
the screens). The measuring is shared with ``bench/pglive.py`` (``bench/livefeed.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from livefeed import CREATOR, feed_latency, idle_cpu, percentile, print_figures, sweep_ms

from wom_tui.domain.store.folder.feed import FolderFeed
from wom_tui.domain.store.folder.store import FolderStore as Store


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=60)
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--tiny", action="store_true", help="one quick pass to check the bench runs (figures meaningless)")
    args = parser.parse_args()
    if args.tiny:
        args.changes, args.sessions, args.tables = 2, 2, 1
    polled, idle_seconds, rounds = (1, 0.5, 2) if args.tiny else (10, 10.0, 200)
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        table = Store(folder).live.create_table(CREATOR, seats=2)
        for name in (["inotify"] if sys.platform == "linux" else []) + ["watchfiles", "polling"]:
            latencies = asyncio.run(feed_latency(FolderFeed(folder, watcher=name), tmp, table.table_id,
                                                 args.changes if name != "polling" else polled))
            figures[f"feed_{name}_p50_ms"] = statistics.median(latencies)
            figures[f"feed_{name}_p95_ms"] = percentile(latencies, 0.95)
            figures[f"feed_{name}_max_ms"] = max(latencies)
    with tempfile.TemporaryDirectory() as tmp:
        Store(tmp).live
        figures["idle_feeds_cpu_percent"] = asyncio.run(idle_cpu(lambda: FolderFeed(tmp), args.sessions, idle_seconds))
    with tempfile.TemporaryDirectory() as tmp:
        live = Store(tmp).live
        figures["sweep_wall_ms"], figures["sweep_cpu_ms"] = sweep_ms(live, args.sessions, args.tables, rounds)
        table_id = live.tables().tables[0].table_id
        wall = time.perf_counter()
        for _ in range(rounds):
            live.tick(table_id)
        figures["tick_wall_ms"] = (time.perf_counter() - wall) / rounds * 1000
    print_figures(figures, args.json)


if __name__ == "__main__":
    main()
