"""Line mode's cost against the full screen's, side by side: N SSH players each play the same few solo guesses.

For each N (default 10 and 25) two fresh servers (``python -m wom_tui serve --port 0``, temp data folder) are
measured, one where the N guests connect with ``ssh -t host`` (the full-screen game, a process forked per
session) and one where they connect with ``ssh -t host line`` (line mode, a task of the server: docs/serve.md,
*Line mode*). Each player starts a solo game and plays four guesses, waiting for each answer. Measured:

- memory: PSS of the server and all its processes (hub, warm parent, games) once everyone has played, minus
  the same before anyone connected, per session;
- CPU of the server side (SSH server, hub, warm parent, games) per session to its start (the menu, or line
  mode's greeting) and per guess once every game is open (the solo game's screen built, or its first line);
- the guess's answer latency on the client (median and p95).

    .venv/bin/python bench/line_load.py [--json] [N ...]

With ``--json`` it prints one JSON object per N with ``sessions``, ``tui_pss_per_session_mib``,
``line_pss_per_session_mib``, ``tui_cpu_per_session_s``, ``line_cpu_per_session_s``, ``tui_cpu_per_guess_ms``,
``line_cpu_per_guess_ms``, ``tui_guess_p95_ms`` and ``line_guess_p95_ms``. The client runs on the same cores,
so the wall times include its work (a pyte screen for the full screen, plain bytes for line mode).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import sys
import tempfile
import time

import asyncssh

from ssh_load import MENU_TEXT, Terminal, percentile, start_server, tree_cpu, tree_memory

GUESSES = ("1234", "5678", "9012", "3456")
TIMEOUT = 300.0
LINE_GREETING = "World of Mastermind, line mode."


class LineClient(asyncssh.SSHClientSession):
    """A line-mode client: the bytes it received, searched as text."""

    def __init__(self) -> None:
        self.text = ""
        self.changed = asyncio.Event()
        self.chan: asyncssh.SSHClientChannel | None = None

    def connection_made(self, chan: asyncssh.SSHClientChannel) -> None:  # type: ignore[override]
        self.chan = chan

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:  # type: ignore[override]
        self.text += data.decode("utf-8", "replace")
        self.changed.set()

    async def wait_for(self, pattern: str) -> None:
        """Until ``pattern`` (a regular expression) is in what was received."""
        while not re.search(pattern, self.text, re.M):
            self.changed.clear()
            await self.changed.wait()


def server_side_cpu(pid: int) -> float:
    """CPU seconds of the server and every process under it (hub, warm parent, games)."""
    server, others, games = tree_cpu(pid)
    return server + others + sum(games.values())


async def connect(port: int, number: int, conns: list[asyncssh.SSHClientConnection], line: bool) -> Terminal | LineClient:
    """The ``number``-th guest on an 80×24 pty: ``ssh -t host`` or ``ssh -t host line``."""
    conn = await asyncssh.connect(
        "127.0.0.1", port, known_hosts=None, client_keys=None, password="", agent_path=None, username="bench",
        local_addr=(f"127.0.0.{2 + number % 8}", 0),  # at most 32 connections of one address may sign in at once
    )
    conns.append(conn)
    if line:
        _chan, client = await conn.create_session(LineClient, "line", term_type="xterm-256color", term_size=(80, 24),
                                                  encoding=None)
        return client
    _chan, terminal = await conn.create_session(Terminal, term_type="xterm-256color", term_size=(80, 24), encoding=None)
    return terminal


async def one_round(n: int, line: bool) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="wom-line-load-") as data_dir:
        server, port, _ = await start_server(data_dir, n)
        conns: list[asyncssh.SSHClientConnection] = []
        try:
            await asyncio.sleep(1.0)  # the hub and the warm parent settle (their start is no session's cost)
            _, _, pss_before = tree_memory(server.pid)
            cpu_before = server_side_cpu(server.pid)

            async def arrive(number: int) -> Terminal | LineClient:
                client = await connect(port, number, conns, line)
                if isinstance(client, LineClient):
                    await client.wait_for(re.escape(LINE_GREETING))
                else:
                    await client.wait_for(MENU_TEXT)
                return client

            clients = await asyncio.wait_for(asyncio.gather(*(arrive(number) for number in range(n))), TIMEOUT)
            cpu_started = server_side_cpu(server.pid)

            async def open_solo(client: Terminal | LineClient) -> None:
                assert client.chan is not None
                if isinstance(client, LineClient):
                    client.chan.write(b"solo\r")
                    await client.wait_for(r"^Solo game: ")
                else:
                    client.chan.write(b"op")
                    await client.wait_for("Guess #1 of")

            async def play(client: Terminal | LineClient) -> list[float]:
                assert client.chan is not None
                latencies = []
                for number, guess in enumerate(GUESSES, 1):
                    started = time.perf_counter()
                    client.chan.write(guess.encode() + b"\r")
                    if isinstance(client, LineClient):
                        await client.wait_for(rf"^Guess {number}: ")
                    else:
                        await client.wait_for(f"Guess #{number + 1} of")
                    latencies.append(time.perf_counter() - started)
                return latencies

            await asyncio.wait_for(asyncio.gather(*(open_solo(client) for client in clients)), TIMEOUT)
            cpu_playing = server_side_cpu(server.pid)
            played = await asyncio.wait_for(asyncio.gather(*(play(client) for client in clients)), TIMEOUT)
            cpu_played = server_side_cpu(server.pid)
            processes, _, pss_after = tree_memory(server.pid)
        finally:
            for conn in conns:
                conn.close()
            server.terminate()
            await asyncio.wait_for(server.wait(), TIMEOUT)
    latencies = [seconds for per_client in played for seconds in per_client]
    return {
        "pss_per_session": (pss_after - pss_before) / n / 2**20,
        "cpu_per_session": (cpu_started - cpu_before) / n,
        "cpu_per_guess": (cpu_played - cpu_playing) / (n * len(GUESSES)),
        "guess_median": statistics.median(latencies) * 1000,
        "guess_p95": percentile(latencies, 0.95) * 1000,
        "processes": processes,
    }


async def main(sizes: list[int], as_json: bool = False) -> None:
    if not as_json:
        print(f"line mode against the full screen over SSH: Python {sys.version.split()[0]}, {os.cpu_count()} CPU(s)")
        header = (f"{'sessions':>8} | {'mode':>11} | {'PSS/session':>11} | {'CPU/session':>11} | {'CPU/guess':>9} | "
                  f"{'guess median':>12} | {'guess p95':>9} | {'procs':>5}")
        print(header)
        print("-" * len(header))
    for n in sizes:
        tui = await one_round(n, line=False)
        line = await one_round(n, line=True)
        if as_json:
            print(json.dumps({
                "sessions": n,
                **{f"{mode}_{key}": round(value, 3) for mode, row in (("tui", tui), ("line", line)) for key, value in (
                    ("pss_per_session_mib", row["pss_per_session"]), ("cpu_per_session_s", row["cpu_per_session"]),
                    ("cpu_per_guess_ms", row["cpu_per_guess"] * 1000), ("guess_median_ms", row["guess_median"]),
                    ("guess_p95_ms", row["guess_p95"]), ("processes", row["processes"]))},
            }), flush=True)
            continue
        for mode, row in (("full screen", tui), ("line", line)):
            print(f"{n:>8} | {mode:>11} | {row['pss_per_session']:>7.2f} MiB | {row['cpu_per_session'] * 1000:>8.0f} ms | "
                  f"{row['cpu_per_guess'] * 1000:>6.1f} ms | {row['guess_median']:>9.1f} ms | {row['guess_p95']:>6.1f} ms | "
                  f"{row['processes']:>5}", flush=True)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line: the session counts to measure, and the output's form."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sessions", nargs="*", type=int, default=[10, 25], metavar="N",
                        help="players at once, two fresh servers (full screen, line mode) for each N (default: 10 25)")
    parser.add_argument("--json", action="store_true", help="one JSON object per N instead of the table")
    return parser.parse_args(argv)


if __name__ == "__main__":
    args = parse_args()
    asyncio.run(main(args.sessions, args.json))
