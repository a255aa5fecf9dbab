"""A ban's and a kick's reach: how long from ``wom-tui users ban`` to every open session of that key, and from
an operator's kick to the session kicked, on two servers sharing one PostgreSQL database, each showing its line
and closed (goal: at most 5 s for both).

    .venv/bin/python bench/ban_reach.py [--store URL] [--rounds N] [--sessions N] [--json]

Two ``wom-tui serve`` processes (stand-ins for two hosts) share one database (without ``--store``, a throwaway
server: tests/throwaway_pg.py). Each round registers a player whose key holds ``--sessions`` open sessions on
each server (at the main menu, over real SSH with pyte terminals), bans the name through the store as
``wom-tui users ban`` does, and times from just before the ban's transaction to the last of those sessions
reading the line and closing: the transaction, NOTIFY, each server reading the bans again and ending
its sessions (the game's SIGHUP, the farewell line, SSH out). p50, p95 and max in ms over the rounds.

Then each round kicks one open session (alternately on either server) as the Operator screen does: its
presence id read from who is online, the kick kept in the store, timed from just before that transaction to
the session reading "An operator ended your session" and closing. p50, p95 and max in seconds
(``kick_reach_p95_s``).
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

from wom_tui.domain.moderation import Ban, Kick  # noqa: E402
from wom_tui.domain.store import open_store  # noqa: E402


def ban(url: str, name: str) -> None:
    """What ``wom-tui users ban NAME --for 1h`` does, timed from before its transaction (a separate process
    would hide the ban's reach inside its own start-up)."""
    store = open_store(url)
    try:
        store.add_ban(Ban.make(name, "bench", datetime.now(timezone.utc), timedelta(hours=1)))
    finally:
        store.close()


def kick(url: str, name: str) -> None:
    """What the Operator screen does on ``k`` then ``y``: the session of ``name`` online, kicked (timed from
    before the kick's transaction; who is online was read before)."""
    store = open_store(url)
    try:
        session = next(p.session for p in store.live.sessions() if p.name == name)
        store.kick(Kick.make(session, "bench", datetime.now(timezone.utc)))
    finally:
        store.close()


def online(url: str, name: str) -> bool:
    """True once ``name``'s session is in who is online."""
    store = open_store(url)
    try:
        return any(p.name == name for p in store.live.sessions())
    finally:
        store.close()


def _percentile(ordered: list[float], share: float) -> float:
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def _kicks(url: str, servers: list[fleet.ServeProcess], host_key, rounds: int) -> list[float]:
    """Seconds from each kick to its session closed with the kick's line."""
    reach: list[float] = []
    for number in range(rounds):
        name, key = f"Kicked{number}", new_key()
        store = open_store(url)
        store.register(name, key=key.get_fingerprint())
        store.close()
        conn, terminal = await fleet.open_session(servers[number % 2].port, name.lower(), key, host_key)
        await terminal.wait_for_text(MENU_TEXT)
        while not await asyncio.to_thread(online, url, name):  # its presence is written just after the menu
            await asyncio.sleep(0.05)
        start = time.perf_counter()
        await asyncio.to_thread(kick, url, name)
        await terminal.wait_until(lambda t: t.closed.is_set() and "An operator ended your session" in t.text, WAIT)
        reach.append(time.perf_counter() - start)
        conn.close()
    return reach


async def run(url: str, rounds: int = 5, sessions: int = 1) -> dict[str, float]:
    reach: list[float] = []
    kicks: list[float] = []
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
            kicks = await _kicks(url, servers, host_key, rounds)
        finally:
            for server in servers:
                await server.stop()
    ordered, kicked = sorted(reach), sorted(kicks)
    return {
        "ban_to_every_session_p50_ms": statistics.median(ordered),
        "ban_to_every_session_p95_ms": _percentile(ordered, 0.95),
        "ban_to_every_session_max_ms": ordered[-1],
        "kick_reach_p50_s": statistics.median(kicked),
        "kick_reach_p95_s": _percentile(kicked, 0.95),
        "kick_reach_max_s": kicked[-1],
        "rounds": len(ordered),
        "sessions_per_round": 2 * sessions,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", metavar="URL", help="an empty PostgreSQL database (default: a throwaway server)")
    parser.add_argument("--rounds", type=int, default=5, metavar="N", help="bans timed, and kicks (default 5)")
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
        print(json.dumps({k: round(v, 3) for k, v in figures.items()}))
    else:
        for key, value in figures.items():
            print(f"{key:32} {value:10.3f}")


if __name__ == "__main__":
    main()
