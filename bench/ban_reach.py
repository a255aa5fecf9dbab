"""A ban's reach: how long from ``wom-tui users ban`` to every open session of that key, on two
servers sharing one PostgreSQL database, showing the ban's line and closed (goal: at most 5 s).

    .venv/bin/python bench/ban_reach.py [--store URL] [--rounds N] [--sessions N] [--json]

Two ``wom-tui serve`` processes (stand-ins for two hosts) share one database (without ``--store``, a throwaway
server: tests/throwaway_pg.py). Each round registers a player whose key holds ``--sessions`` open sessions on
each server (at the main menu, over real SSH with pyte terminals), bans the name through the store as
``wom-tui users ban`` does, and times from just before the ban's transaction to the last of those sessions
reading the line and closing: the transaction, NOTIFY, each server reading the bans again and ending
its sessions (the game's SIGHUP, the farewell line, SSH out). p50, p95 and max in ms over the rounds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from serve import fleet  # noqa: E402
from serve.sshterm import MENU_TEXT, WAIT, new_key  # noqa: E402

from wom_tui.domain.moderation import Ban  # noqa: E402
from wom_tui.domain.store import open_store  # noqa: E402


def ban(url: str, name: str) -> None:
    """What ``wom-tui users ban NAME --for 1h`` does, timed from before its transaction (a separate process
    would hide the ban's reach inside its own start-up)."""
    store = open_store(url)
    try:
        store.add_ban(Ban.make(name, "bench", datetime.now(timezone.utc), timedelta(hours=1)))
    finally:
        store.close()


async def run(url: str, rounds: int = 5, sessions: int = 1) -> dict[str, float]:
    reach: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        key_file = Path(tmp) / "ssh_host_ed25519_key"
        host_key = fleet.make_host_key(key_file)
        servers = await fleet.start_together(*(
            fleet.ServeProcess.start(Path(tmp) / f"host{n}", key_file, "--store", url, "--seed", str(n),
                                     "--max-per-ip", "64", "--max-per-network", "64") for n in (1, 2)))
        try:
            for number in range(rounds):
                name, key = f"Banned{number}", new_key()
                store = open_store(url)
                store.register(name, key=key.get_fingerprint())
                store.close()
                opened = [await fleet.open_session(server.port, name.lower(), key, host_key)
                          for server in servers for _ in range(sessions)]
                for _conn, terminal in opened:
                    await terminal.wait_for_text(MENU_TEXT)
                start = time.perf_counter()
                await asyncio.to_thread(ban, url, name)
                await asyncio.gather(*(terminal.wait_until(
                    lambda t: t.closed.is_set() and "You are banned" in t.text, WAIT) for _conn, terminal in opened))
                reach.append((time.perf_counter() - start) * 1000)
                for conn, _terminal in opened:
                    conn.close()
        finally:
            for server in servers:
                await server.stop()
    ordered = sorted(reach)
    return {
        "ban_to_every_session_p50_ms": statistics.median(ordered),
        "ban_to_every_session_p95_ms": ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))],
        "ban_to_every_session_max_ms": ordered[-1],
        "rounds": len(ordered),
        "sessions_per_round": 2 * sessions,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", metavar="URL", help="an empty PostgreSQL database (default: a throwaway server)")
    parser.add_argument("--rounds", type=int, default=5, metavar="N", help="bans timed (default 5)")
    parser.add_argument("--sessions", type=int, default=1, metavar="N", help="open sessions of the key on each server")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.store:
        figures = asyncio.run(run(args.store, args.rounds, args.sessions))
    else:
        from throwaway_pg import ThrowawayPostgres

        server = ThrowawayPostgres()
        try:
            server.start()
            figures = asyncio.run(run(server.new_database("bench"), args.rounds, args.sessions))
        finally:
            server.remove()
    if args.json:
        print(json.dumps({k: round(v, 2) for k, v in figures.items()}))
    else:
        for key, value in figures.items():
            print(f"{key:32} {value:10.2f}")


if __name__ == "__main__":
    main()
