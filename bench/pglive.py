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

Compare with ``bench/live.py`` (the data folder's watchfiles feed), which measures the same way
(``bench/livefeed.py``); ``bench/two_servers.py`` times a guess from one server to a screen on another.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from livefeed import CREATOR, feed_latency, idle_cpu, percentile, print_figures, sweep_ms, toggle_hal  # noqa: E402

from wom_tui.domain.store import open_store  # noqa: E402


def run(url: str, args: argparse.Namespace) -> dict[str, float]:
    figures: dict[str, float] = {}
    store = open_store(url)
    live = store.live
    table = live.create_table(CREATOR, seats=2)
    latencies = asyncio.run(feed_latency(live.feed(), url, table.table_id, args.changes))
    figures["feed_listen_notify_p50_ms"] = statistics.median(latencies)
    figures["feed_listen_notify_p95_ms"] = percentile(latencies, 0.95)
    figures["feed_listen_notify_max_ms"] = max(latencies)
    figures["feed_changes_seen"] = len(latencies)
    rounds = 2 if args.tiny else 200
    wall = time.perf_counter()
    for i in range(rounds):
        toggle_hal(live, table.table_id, i)
    figures["update_table_wall_ms"] = (time.perf_counter() - wall) / rounds * 1000
    figures["sweep_wall_ms"], _ = sweep_ms(live, args.sessions, args.tables, 2 if args.tiny else 50)
    figures["idle_feeds_cpu_percent"] = asyncio.run(idle_cpu(live.feed, args.sessions, 0.5 if args.tiny else 5.0))
    store.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=100)
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--store", metavar="URL", help="an empty PostgreSQL database (default: a throwaway server)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--tiny", action="store_true", help="one quick pass to check the bench runs (figures meaningless)")
    args = parser.parse_args()
    if args.tiny:
        args.changes, args.sessions, args.tables = 2, 2, 1
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
    print_figures(figures, args.json)


if __name__ == "__main__":
    main()
