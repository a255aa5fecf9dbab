"""Quick match under a crowd: N players arrive within a few seconds, each its own process on one store.

Each player does what the quick-match screen does (wom_tui/screens/quick_match.py): announce itself,
heartbeat, queue, then every second (or at once when the change feed says the queue or the tables
changed) run the wave that is due and look at its ticket, until seated at a started table. The waves are
the rules' (every 10 s, or at once when 4 wait); arrivals are drawn from one seed.

Figures (``measure()`` returns them; ``--json`` prints them as one object):

* ``quick_match_p95_s``: the 95th percentile of each player's time from queueing to seeing its started
  table (goal ≤ 12 s for 20 players arriving within 5 s);
* ``left_alone``: players who ended up with no other person at their table (seated with computers only
  after the fill time) or were not seated at all (goal 0);
* ``quick_match_max_s``, ``tables``, ``players``.

Run from the repository's root: ``.venv/bin/python bench/arcade_match.py [--players 20] [--within 5]
[--store postgresql://…] [--json]``. Without ``--store`` it uses a fresh data folder in a temporary
directory. The lead's ``bench/arcade.py`` merges ``measure()``'s keys into its own object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import multiprocessing
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wom_tui.domain.matchmaking import FILL_AFTER, WAVE_INTERVAL
from wom_tui.domain.presence import HEARTBEAT_INTERVAL
from wom_tui.domain.store import open_store
from wom_tui.domain.table import SeatHolder

CTX = multiprocessing.get_context("fork")
TICK = 1.0
"""How often a waiting player looks again without being woken (the screen's)."""


def unrated(name: str) -> float | None:
    """Everyone unrated: the bench measures the waves, not the ratings."""
    return None


def _player(where: str, name: str, start_at: float, fill_after: float, interval: float, timeout: float, results: Any) -> None:
    delay = start_at - time.time()
    if delay > 0:
        time.sleep(delay)
    try:
        results.put(asyncio.run(_wait(where, name, fill_after, interval, timeout)))
    except Exception as exc:  # noqa: BLE001  (reported, counted as not seated)
        results.put((name, None, None, repr(exc)))


async def _wait(where: str, name: str, fill_after: float, interval: float, timeout: float):
    store = open_store(where)
    live = store.live
    me = SeatHolder(name, f"bench-{name}", False)
    presence = live.join(me.name, False, me.session)
    stop, ready, woken = asyncio.Event(), asyncio.Event(), asyncio.Event()

    async def watch() -> None:
        async for change in live.feed().changes(stop, ready):
            if change.queue or change.tables:
                woken.set()

    async def heartbeat() -> None:
        while not stop.is_set():
            await asyncio.to_thread(live.heartbeat, presence)
            try:
                await asyncio.wait_for(stop.wait(), HEARTBEAT_INTERVAL)
            except asyncio.TimeoutError:
                pass

    tasks = [asyncio.create_task(watch()), asyncio.create_task(heartbeat())]
    await ready.wait()
    began = time.monotonic()
    seed = random.Random(name).getrandbits(48)
    try:
        await asyncio.to_thread(live.enqueue, me, fill_after=fill_after)
        while time.monotonic() - began < timeout:
            woken.clear()
            await asyncio.to_thread(live.match_wave, unrated, seed, interval=interval)
            ticket = live.match_queue().ticket(me.session)
            if ticket is not None and ticket.table_id is not None:
                table = live.table(ticket.table_id)
                if table is not None:
                    seated = time.monotonic() - began
                    await asyncio.to_thread(live.leave_queue, me.session)
                    people = [n for n in table.names if n is not None and n not in ("HAL9000", "VIKI")]
                    return name, seated, len(people), table.table_id
            seed += 1
            try:
                await asyncio.wait_for(woken.wait(), TICK)
            except asyncio.TimeoutError:
                pass
        return name, None, None, "timed out"
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        live.part(me.session)
        store.close()


def measure(players: int = 20, within: float = 5.0, *, store: str | None = None, seed: int = 1,
            fill_after: float = FILL_AFTER, interval: float = WAVE_INTERVAL, timeout: float = 120.0) -> dict[str, Any]:
    """Run the crowd once; the figures (see the module's docstring)."""
    with tempfile.TemporaryDirectory(prefix="wom-match-bench-") as tmp:
        where = store or str(Path(tmp) / "data")
        open_store(where).close()  # made (or migrated) once, before the crowd
        rng = random.Random(seed)
        t0 = time.time() + 0.5
        arrivals = sorted(rng.uniform(0, within) for _ in range(players))
        results = CTX.Queue()
        processes = [CTX.Process(target=_player, args=(where, f"P{i + 1}", t0 + at, fill_after, interval, timeout, results),
                                 name=f"P{i + 1}") for i, at in enumerate(arrivals)]
        for process in processes:
            process.start()
        outcome = [results.get(timeout=timeout + within + 30) for _ in processes]
        for process in processes:
            process.join(30)
    waits = sorted(w for _, w, _, _ in outcome if w is not None)
    alone = sum(1 for _, w, people, _ in outcome if w is None or people == 1)
    tables = {t for _, w, _, t in outcome if w is not None}
    return {
        "players": players,
        "quick_match_p95_s": round(_percentile(waits, 95), 3) if waits else None,
        "quick_match_max_s": round(waits[-1], 3) if waits else None,
        "left_alone": alone,
        "tables": len(tables),
    }


def _percentile(values: list[float], p: float) -> float:
    """The ``p``-th percentile (nearest rank) of sorted ``values``."""
    rank = max(1, math.ceil(p / 100 * len(values)))
    return values[rank - 1]


def main(argv: list[str] | None = None) -> None:
    """Command line: run :func:`measure` and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=20, help="players arriving (default 20)")
    parser.add_argument("--within", type=float, default=5.0, help="seconds over which they arrive (default 5)")
    parser.add_argument("--store", metavar="URL", help="a PostgreSQL URL (default: a fresh data folder)")
    parser.add_argument("--seed", type=int, default=1, help="the arrivals' seed (default 1)")
    parser.add_argument("--fill-after", type=float, default=FILL_AFTER,
                        help=f"seconds before computers fill a lone player's table (default {FILL_AFTER:g})")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    figures = measure(args.players, args.within, store=args.store, seed=args.seed, fill_after=args.fill_after)
    if args.json:
        print(json.dumps(figures))
        return
    print(f"quick match, {figures['players']} players arriving within {args.within:g} s "
          f"({'PostgreSQL' if args.store else 'data folder'}):")
    print(f"  seated p95 {figures['quick_match_p95_s']} s (goal <= 12), max {figures['quick_match_max_s']} s, "
          f"{figures['tables']} tables")
    print(f"  left alone: {figures['left_alone']} (goal 0)")


if __name__ == "__main__":
    main()
