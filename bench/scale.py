"""Several servers, one database, many players: connections, guess latency across servers, reads, memory.

    .venv/bin/python bench/scale.py [--servers 4] [--sessions 50] [--tables 8] [--seats 3] [--guesses 3]
                                    [--clients 4] [--idle 15] [--max-connections 60] [--db-pool N] [--no-hub]
                                    [--tiny] [--json]

A throwaway PostgreSQL (tests/throwaway_pg.py) started with ``max_connections`` = ``--max-connections``; ``--servers``
``wom-tui serve`` processes on it (tests/serve/fleet.py), ``--sessions`` registered SSH players on each, every one
of them brought to the lobby. The players' SSH clients run in ``--clients`` processes of the bench (asyncssh,
one event loop each): the players of a table in one of them, with pyte screens (80×24); those only in the lobby
are read and not drawn (no pyte), spread over the same processes. Then ``--tables`` tables of ``--seats`` players each,
the seats spread across the servers (seat k of table t on server (t + k) mod servers), opened in the store
and taken up by each player from their lobby; every player sets a code and each makes ``--guesses`` wrong
guesses, the tables playing at once. One JSON object (``--json``):

- ``sessions``: the sessions that reached the lobby (of ``sessions_tried``);
- ``db_connections_max``: the most client connections the database had at once (sampled every 0.2 s);
- ``guess_to_others_p95_ms`` (and p50, max): from a guess's Enter to the other players' screens (on other
  servers) showing its count, as tests/serve/test_two_servers.py watches it; ``guess_same_server_p95_ms`` (and
  p50): the same at ``--same-server-tables`` tables whose players all play on one server, in the same run, and
  ``p95_other_server_to_same_server`` the ratio of the two p95s;
- ``table_reads_per_guess``: tables read on a move's way (its read-modify-write, and a copy for the computers to
  think ahead on when the hub has none), per move, as the hubs count them (their log line as they stop);
  ``fan_out_reads_per_move``: tables read to send a change on to the sessions (once per server, however
  many sessions watch); ``game_asked_reads``: tables a game asked for that its hub did not have at hand;
- ``pss_per_session_mib``: the servers' process trees' PSS (server, hub, warm parent, games) less the same
  trees' PSS before any player came (``pss_empty_mib``: the fixed processes), per session;
  ``pss_per_session_all_mib``: without taking the fixed processes off;
- ``db_write_xacts_per_s_lobby`` and ``db_wal_kib_per_s_lobby``: write transactions the database committed, and
  the WAL it wrote, per second while every player waited in the lobby (``--idle`` seconds: heartbeats, sweeps);
  ``db_write_xacts_per_guess``, ``db_wal_kib_per_guess``: the same while the tables played, per guess (the
  computers' and the sweeps' writes meanwhile included);
- ``bench_cpu_s``: CPU seconds of the busiest of the bench's client processes.

``--no-hub`` runs the servers as before the hub (each game its own store: 3 connections a session), for a
comparison at a size the database can take. ``--tiny`` is a smoke run (2 servers, 2 sessions each, one table).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import resource
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
HUB_MORE = re.compile(r"(\d+) change\(s\) at hand not read; (\d+) heartbeats in (\d+) writes")


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
        self._stop = asyncio.Event()
        self._task = asyncio.ensure_future(self._run())

    async def stop(self) -> None:
        self._stop.set()
        if self._task is not None:
            await self._task
            self._task = None


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


# ---------------------------------------------------------------- a client process: some of the players


def _say(**message: object) -> None:
    print(json.dumps(message), flush=True)


async def _heard() -> dict:
    line = await asyncio.to_thread(sys.stdin.readline)
    if not line:
        raise SystemExit(0)  # the bench stopped
    return json.loads(line)


async def client(connect_at_once: int) -> None:
    """One client process (``--client``): the players it is given on stdin, step by step as the bench says."""
    import asyncssh

    job = await _heard()
    host_key = asyncssh.import_private_key(job["host_key"])
    playing = {name for seated in job["tables"] for name in seated}
    conns = []
    terminals: dict[str, Terminal] = {}
    gate = asyncio.Semaphore(connect_at_once)

    async def arrive(port: int, name: str, key: str) -> None:
        async with gate:
            try:
                conn, terminal = await fleet.open_session(port, name.lower(), asyncssh.import_private_key(key), host_key)
                conns.append(conn)
                await fleet.to_lobby(terminal)
                # Those only in the lobby are read, not drawn from here on (pyte is the bench's costliest part).
                terminal.muted = name not in playing
            except (AssertionError, OSError, asyncio.TimeoutError, asyncssh.Error) as error:
                print(f"{name}: {str(error)[:200]}", file=sys.stderr)
                return
            terminals[name] = terminal

    await asyncio.gather(*(arrive(port, name, key) for port, name, key in job["players"]))
    _say(arrived=len(terminals))
    await _heard()  # the tables are open

    async def take_up(name: str) -> None:
        terminal = terminals[name]
        # The line "You still have a seat" may be replaced at once by "X is back" (arrivals go on): the row's
        # mark says it too, and the lobby highlights that row as the seat comes; with 200 online at 80×24 the
        # names fill the screen and hide both, and only the footer's "x Leave seat" says it.
        await terminal.wait_until(lambda t: any(sign in t.text for sign in ("still have a seat", "← your seat",
                                                                            "Leave seat")), timeout=120)
        terminal.type("\r")
        await terminal.wait_for_text("Your code", timeout=120)
        terminal.type(CODE + "\r")
        await terminal.wait_for_text("Your guess", timeout=120)

    await asyncio.gather(*(take_up(name) for seated in job["tables"] for name in seated))
    _say(seated=True)
    await _heard()  # play
    results = await asyncio.gather(*(play_table([(n, terminals[n]) for n in seated], job["guesses"])
                                     for seated in job["tables"]))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    _say(latencies=results, cpu_s=usage.ru_utime + usage.ru_stime)
    await _heard()  # done
    for conn in conns:
        conn.close()


class Client:
    """The bench's side of one client process."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process

    @classmethod
    async def start(cls, job: dict, connect_at_once: int) -> Client:
        process = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--client", str(connect_at_once), stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, limit=1 << 24)
        client = cls(process)
        client.tell(job)
        return client

    def tell(self, message: object) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")

    async def hear(self, timeout: float) -> dict:
        assert self.process.stdout is not None
        line = await asyncio.wait_for(self.process.stdout.readline(), timeout)
        if not line:
            raise RuntimeError(f"a client process stopped (status {await self.process.wait()})")
        return json.loads(line)

    async def stop(self) -> None:
        if self.process.returncode is None:
            self.tell("done")
            try:
                await asyncio.wait_for(self.process.wait(), 30)
            except asyncio.TimeoutError:
                self.process.kill()
                await self.process.wait()


def writes(pg: throwaway_pg.ThrowawayPostgres) -> tuple[int, int]:
    """Write transactions the database has given an id so far (read-only ones take none) and bytes of WAL
    written: both exact at once (the statistics views lag by up to ten seconds)."""
    xid, wal = pg.sql("SELECT txid_snapshot_xmax(txid_current_snapshot()), pg_current_wal_lsn() - '0/0'::pg_lsn")[0]
    return int(xid), int(wal)


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
    clients: list[Client] = []
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
        seats = [[names[(t + k) % args.servers][t] for k in range(args.seats)] for t in range(args.tables)]
        # The same run's one-server figure: tables whose players are all on one server.
        local = [[names[t % args.servers][args.tables + (t // args.servers) * args.seats + k] for k in range(args.seats)]
                 for t in range(args.same_server_tables)]
        seats += local
        playing = {name for seated in seats for name in seated}
        port_of = {name: server.port for server, row in zip(servers, names) for name in row}
        # Each table's players in one client process (its latencies timed on one clock); the others spread.
        count = max(1, min(args.clients, args.servers * args.sessions))
        jobs = [{"host_key": host_key.export_private_key().decode(), "tables": [], "players": [],
                 "guesses": args.guesses} for _ in range(count)]
        for t, seated in enumerate(seats):
            jobs[t % count]["tables"].append(seated)
        lobby_only = [name for row in zip(*names) for name in row if name not in playing]
        for index, name in enumerate([name for seated in seats for name in seated] + lobby_only):
            job = jobs[next(j for j, job in enumerate(jobs) if name in {n for t in job["tables"] for n in t})
                       if name in playing else index % count]
            job["players"].append([port_of[name], name, keys[name].export_private_key().decode()])

        try:
            empty = [tree_memory(server.process.pid) for server in servers]
            started = time.perf_counter()
            clients = list(await asyncio.gather(*(Client.start(job, max(1, CONNECT_AT_ONCE // count)) for job in jobs)))
            arrived = [await client.hear(timeout=1800) for client in clients]
            figures["sessions"] = sum(said["arrived"] for said in arrived)
            figures["sessions_tried"] = args.servers * args.sessions
            figures["arrival_s"] = time.perf_counter() - started
            if args.idle:
                # Everyone in the lobby: what the database writes for them per second (heartbeats, sweeps).
                before = await asyncio.to_thread(writes, pg)
                await asyncio.sleep(args.idle)
                after = await asyncio.to_thread(writes, pg)
                figures["db_write_xacts_per_s_lobby"] = (after[0] - before[0]) / args.idle
                figures["db_wal_kib_per_s_lobby"] = (after[1] - before[1]) / args.idle / 1024
            # The tables, opened in the store with their seats taken; each player takes theirs up from the lobby.
            # Each seat held by the player's session as it is online now (a seat held by an earlier session would
            # count its grace down on every lobby's screen, once a second, until taken up: 200 redraws a second).
            online = {presence.name: presence.session for presence in store.live.sessions()}
            for t, seated in enumerate(seats):
                holders = [SeatHolder(name, online.get(name, f"earlier-{name.lower()}"), True) for name in seated]
                table = store.live.create_table(holders[0], seats=args.seats, seed=t + 1, grace=600.0)  # (players slow to arrive keep their seats)
                for index, holder in enumerate(holders[1:], 1):
                    store.live.play(table.table_id, Sit(holder, index))
                store.live.play(table.table_id, Start(holders[0]))
            for client in clients:
                client.tell("go")
            for client in clients:
                await client.hear(timeout=600)
            memory = [tree_memory(server.process.pid) for server in servers]
            sessions = max(1, figures["sessions"])
            figures["processes"] = sum(m[0] for m in memory)
            figures["pss_empty_mib"] = sum(m[2] for m in empty) / (1 << 20)
            figures["pss_per_session_mib"] = (sum(m[2] for m in memory) - sum(m[2] for m in empty)) / sessions / (1 << 20)
            figures["pss_per_session_all_mib"] = sum(m[2] for m in memory) / sessions / (1 << 20)
            before = await asyncio.to_thread(writes, pg)
            for client in clients:
                client.tell("play")
            played = [await client.hear(timeout=3600) for client in clients]
            by_table = {tuple(seated): said["latencies"][n] for client_job, said in zip(jobs, played)
                        for n, seated in enumerate(client_job["tables"])}
            same = [ms for seated in local for ms in by_table[tuple(seated)]]
            latencies = [ms for seated in seats if seated not in local for ms in by_table[tuple(seated)]]
            if same:
                figures["guess_same_server_p50_ms"] = statistics.median(same)
                figures["guess_same_server_p95_ms"] = percentile(same, 0.95)
            figures["bench_cpu_s"] = max(said["cpu_s"] for said in played)
            if latencies:
                after = await asyncio.to_thread(writes, pg)
                figures["guesses"] = len(latencies)
                figures["guess_to_others_p50_ms"] = statistics.median(latencies)
                figures["guess_to_others_p95_ms"] = percentile(latencies, 0.95)
                figures["guess_to_others_max_ms"] = max(latencies)
                if same:
                    figures["p95_other_server_to_same_server"] = percentile(latencies, 0.95) / percentile(same, 0.95)
                figures["db_write_xacts_per_guess"] = (after[0] - before[0]) / len(latencies)
                figures["db_wal_kib_per_guess"] = (after[1] - before[1]) / len(latencies) / 1024
        except BaseException:
            for number, server in enumerate(servers):
                print(f"--- server {number}'s log (last lines)", *server.log[-40:], sep="\n", file=sys.stderr)
            raise
        finally:
            await sampler.stop()
            figures["db_connections_max"] = sampler.most
            for client in clients:
                await client.stop()
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
    more = [[int(n) for n in match.groups()] for server in servers for line in server.log
            if (match := HUB_MORE.search(line))]
    if more:
        figures["fan_out_reads_spared_per_move"] = sum(hub[0] for hub in more) / max(1, figures.get("moves", 0))
        figures["heartbeats_per_write"] = sum(hub[1] for hub in more) / max(1, sum(hub[2] for hub in more))
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", type=int, default=4)
    parser.add_argument("--sessions", type=int, default=50, help="SSH players per server")
    parser.add_argument("--tables", type=int, default=8, help="0: sessions only (arrival, connections, memory)")
    parser.add_argument("--seats", type=int, default=3, choices=(2, 3, 4))
    parser.add_argument("--guesses", type=int, default=3, choices=range(1, len(WRONG) + 1), metavar=f"1..{len(WRONG)}")
    parser.add_argument("--same-server-tables", type=int, default=2,
                        help="tables more whose players are all on one server (the same run's one-server latency)")
    parser.add_argument("--clients", type=int, default=4, help="the bench's processes running the players' SSH clients")
    parser.add_argument("--idle", type=float, default=15.0,
                        help="seconds everyone waits in the lobby while the database's commits are counted (0: none)")
    parser.add_argument("--client", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--max-connections", type=int, default=60, help="the database's max_connections")
    parser.add_argument("--db-pool", type=int, default=0, help="each server's --db-pool (default: the server's)")
    parser.add_argument("--no-hub", action="store_true", help="each game its own store, as before the hub")
    parser.add_argument("--tiny", action="store_true", help="a smoke run: 2 servers × 2 sessions, one table of 2")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.client is not None:
        asyncio.run(client(args.client))
        return
    if args.tiny:
        args.servers, args.sessions, args.tables, args.seats, args.guesses, args.clients, args.idle = 2, 2, 1, 2, 1, 2, 1.0
        args.same_server_tables = 0
    if args.seats > args.servers and args.tables:
        parser.error("--seats must be at most --servers (each seat of a table on another server)")
    if args.sessions < args.tables + -(-args.same_server_tables // args.servers) * args.seats:
        parser.error("--sessions must be at least --tables, plus --seats for each --same-server-tables on a server")
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
