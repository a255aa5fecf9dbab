"""Several servers, one database, many players: connections, guess latency across servers, reads, memory.

    .venv/bin/python bench/scale.py [--servers 4] [--sessions 50] [--tables 8] [--seats 3] [--guesses 3]
                                    [--max-connections 60] [--db-pool N] [--no-hub] [--tiny] [--json]

A throwaway PostgreSQL (tests/throwaway_pg.py) started with ``max_connections`` = ``--max-connections``; ``--servers``
``wom-tui serve`` processes on it (tests/serve/fleet.py), ``--sessions`` registered SSH players on each (pyte
terminals, 80×24), every one of them brought to the lobby. Then ``--tables`` tables of ``--seats`` players each,
the seats spread across the servers (seat k of table t on server (t + k) mod servers), opened in the store
and taken up by each player from their lobby; every player sets a code and each makes ``--guesses`` wrong
guesses, the tables playing at once. One JSON object (``--json``):

- ``sessions``: the sessions that reached the lobby (of ``sessions_tried``);
- ``db_connections_max``: the most client connections the database had at once (sampled every 0.2 s);
- ``guess_to_others_p95_ms`` (and p50, max): from a guess's Enter to the other players' screens (on other
  servers) showing its count, as tests/serve/test_two_servers.py watches it;
- ``table_reads_per_guess``: tables read on a move's way (its read-modify-write, and a copy for the computers to
  think ahead on when the hub has none), per move, as the hubs count them (their log line as they stop);
  ``fan_out_reads_per_move``: tables read to send a change on to the sessions (once per server, however
  many sessions watch); ``game_asked_reads``: tables a game asked for that its hub did not have at hand;
- ``pss_per_session_mib``: the servers' process trees' PSS (server, hub, warm parent, games) per session.

``--no-hub`` runs the servers as before the hub (each game its own store: 3 connections a session), for a
comparison at a size the database can take. ``--tiny`` is a smoke run (2 servers, 2 sessions each, one table).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

import throwaway_pg  # noqa: E402
from serve import fleet  # noqa: E402
from serve.sshterm import Terminal, new_key  # noqa: E402
from ssh_load import tree_memory  # noqa: E402

from wom_tui.domain.moves import Sit, Start  # noqa: E402
from wom_tui.domain.store import open_store  # noqa: E402
from wom_tui.domain.table import SeatHolder  # noqa: E402

CODE = "RGBY"
WRONG = ("RRRR", "GGGG", "BBBB", "YYYY", "KKKK", "RRGG", "BBYY", "WWWW", "KKWW")
CONNECT_AT_ONCE = 8
HUB_LINE = re.compile(r"hub: (\d+) requests, (\d+) moves; table reads: (\d+) on the moves' way \((\d+) to think "
                      r"ahead\), (\d+) to send changes on, (\d+) asked by games")


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


class Sampler:
    """The database's client connections, sampled until stopped; the most seen."""

    def __init__(self, pg: throwaway_pg.ThrowawayPostgres) -> None:
        self.pg = pg
        self.most = 0
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def count(self) -> int:
        rows = self.pg.sql("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' "
                           "AND pid <> pg_backend_pid()")
        return int(rows[0][0])

    async def _run(self) -> None:
        while not self._stop.is_set():
            self.most = max(self.most, await asyncio.to_thread(self.count))
            try:
                await asyncio.wait_for(self._stop.wait(), 0.2)
            except asyncio.TimeoutError:
                pass

    def start(self) -> None:
        self._task = asyncio.ensure_future(self._run())

    async def stop(self) -> None:
        self._stop.set()
        if self._task is not None:
            await self._task


async def play_table(players: list[tuple[str, Terminal]], guesses: int) -> list[float]:
    """Each player in turn makes a wrong guess, timed until every other player's screen shows its count."""
    latencies = []
    for number in range(1, guesses + 1):
        for name, terminal in players:
            others = [t for n, t in players if n != name]
            await terminal.wait_until(lambda t, n=number: f"{11 - n} attempts left" in t.text)
            guess = WRONG[number - 1]
            terminal.type(guess)
            shown = re.compile(r"\s+".join(guess))
            await terminal.wait_until(lambda t, pattern=shown: pattern.search(t.text) is not None)
            start = time.perf_counter()
            terminal.type("\r")
            for other in others:
                await other.wait_until(lambda t, n=number, who=name: f"{n}/10" in fleet.seat_row(t, who), timeout=120)
            latencies.append((time.perf_counter() - start) * 1000)
    return latencies


async def run(pg: throwaway_pg.ThrowawayPostgres, args: argparse.Namespace) -> dict[str, float]:
    url = pg.new_database("scale")
    names = [[f"P{server}x{number:02d}" for number in range(args.sessions)] for server in range(args.servers)]
    keys = {name: new_key() for row in names for name in row}
    store = open_store(url)
    for name, key in keys.items():
        store.register(name, key=key.get_fingerprint())
    sampler = Sampler(pg)
    sampler.start()
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        key_file = Path(tmp) / "ssh_host_ed25519_key"
        host_key = fleet.make_host_key(key_file)
        options = ["--store", url, "--max-sessions", str(args.sessions + 2), "--max-per-ip", "0",
                   "--max-per-network", "0", "--idle-timeout", "0"]
        if args.no_hub:
            options.append("--no-hub")
        if args.db_pool:
            options += ["--db-pool", str(args.db_pool)]
        servers = await fleet.start_together(*(
            fleet.ServeProcess.start(Path(tmp) / f"host{n}", key_file, *options, "--seed", str(n + 1))
            for n in range(args.servers)))
        conns = []
        terminals: dict[str, Terminal] = {}
        gate = asyncio.Semaphore(CONNECT_AT_ONCE)

        seats = [[names[(t + k) % args.servers][t] for k in range(args.seats)] for t in range(args.tables)]
        playing = {name for seated in seats for name in seated}

        async def arrive(server: fleet.ServeProcess, name: str) -> None:
            async with gate:
                try:
                    conn, terminal = await fleet.open_session(server.port, name.lower(), keys[name], host_key)
                    conns.append(conn)
                    await fleet.to_lobby(terminal)
                    # Those only in the lobby are read, not drawn from here on: one bench process draws every
                    # screen it watches, and a few dozen pyte screens made it the slowest part of the arcade.
                    terminal.muted = name not in playing
                except (AssertionError, OSError, asyncio.TimeoutError) as error:
                    print(f"{name}: {str(error)[:200]}", file=sys.stderr)
                    return
                terminals[name] = terminal

        try:
            started = time.perf_counter()
            await asyncio.gather(*(arrive(server, name) for server, row in zip(servers, names) for name in row))
            figures["sessions"] = len(terminals)
            figures["sessions_tried"] = args.servers * args.sessions
            figures["arrival_s"] = time.perf_counter() - started
            # The tables, opened in the store with their seats taken; each player takes theirs up from the lobby.
            tables = []
            for t, seated in enumerate(seats):
                holders = [SeatHolder(name, f"earlier-{name.lower()}", True) for name in seated]
                table = store.live.create_table(holders[0], seats=args.seats, seed=t + 1)
                for index, holder in enumerate(holders[1:], 1):
                    store.live.play(table.table_id, Sit(holder, index))
                store.live.play(table.table_id, Start(holders[0]))
                tables.append(seated)

            async def take_up(name: str) -> None:
                terminal = terminals[name]
                await terminal.wait_for_text("still have a seat", timeout=120)
                terminal.type("\r")
                await terminal.wait_for_text("Your code", timeout=120)
                terminal.type(CODE + "\r")
                await terminal.wait_for_text("Your guess", timeout=120)

            await asyncio.gather(*(take_up(name) for seated in tables for name in seated))
            memory = [tree_memory(server.process.pid) for server in servers]
            figures["processes"] = sum(m[0] for m in memory)
            figures["pss_per_session_mib"] = sum(m[2] for m in memory) / max(1, len(terminals)) / (1 << 20)
            results = await asyncio.gather(*(play_table([(n, terminals[n]) for n in seated], args.guesses)
                                             for seated in tables))
            latencies = [ms for table in results for ms in table]
            if latencies:
                figures["guesses"] = len(latencies)
                figures["guess_to_others_p50_ms"] = statistics.median(latencies)
                figures["guess_to_others_p95_ms"] = percentile(latencies, 0.95)
                figures["guess_to_others_max_ms"] = max(latencies)
        except BaseException:
            for number, server in enumerate(servers):
                print(f"--- server {number}'s log (last lines)", *server.log[-40:], sep="\n", file=sys.stderr)
            raise
        finally:
            await sampler.stop()
            figures["db_connections_max"] = sampler.most
            for conn in conns:
                conn.close()
            for server in servers:
                await server.stop()
            store.close()
    hubs = [[int(n) for n in match.groups()] for server in servers for line in server.log
            if (match := HUB_LINE.search(line))]
    if hubs:
        moves = sum(hub[1] for hub in hubs)
        figures["moves"] = moves
        figures["table_reads_per_guess"] = sum(hub[2] for hub in hubs) / max(1, moves)
        figures["fan_out_reads_per_move"] = sum(hub[4] for hub in hubs) / max(1, moves)
        figures["game_asked_reads"] = sum(hub[5] for hub in hubs)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", type=int, default=4)
    parser.add_argument("--sessions", type=int, default=50, help="SSH players per server")
    parser.add_argument("--tables", type=int, default=8, help="0: sessions only (arrival, connections, memory)")
    parser.add_argument("--seats", type=int, default=3, choices=(2, 3, 4))
    parser.add_argument("--guesses", type=int, default=3, choices=range(1, len(WRONG) + 1), metavar=f"1..{len(WRONG)}")
    parser.add_argument("--max-connections", type=int, default=60, help="the database's max_connections")
    parser.add_argument("--db-pool", type=int, default=0, help="each server's --db-pool (default: the server's)")
    parser.add_argument("--no-hub", action="store_true", help="each game its own store, as before the hub")
    parser.add_argument("--tiny", action="store_true", help="a smoke run: 2 servers × 2 sessions, one table of 2")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.tiny:
        args.servers, args.sessions, args.tables, args.seats, args.guesses = 2, 2, 1, 2, 1
    if args.seats > args.servers and args.tables:
        parser.error("--seats must be at most --servers (each seat of a table on another server)")
    if args.sessions < args.tables:
        parser.error("--sessions must be at least --tables (each table takes one player of each server it spans)")
    throwaway_pg.FAST_SETTINGS["max_connections"] = str(args.max_connections)
    pg = throwaway_pg.ThrowawayPostgres()
    try:
        pg.start()
        figures = asyncio.run(run(pg, args))
    finally:
        pg.remove()
    figures = {key: round(value, 2) for key, value in figures.items()}
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:28} {value:10.2f}")


if __name__ == "__main__":
    main()
