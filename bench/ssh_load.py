"""Load on `wom-tui serve`: N players connect at once; how fast do they get the menu and their keys answered?

For each N (default 10, 25, 50) a fresh server (`python -m wom_tui serve --port 0`, temp data folder)
is started and N asyncssh clients with an 80x24 pty connect at the same moment. Measured:

- time to main menu: from starting to connect until the menu is on that client's screen (pyte);
- keystroke-to-screen latency while all N are connected: every client opens the register screen, then
  all N type a name at once, one key at a time (after an untimed two-key prefix), each key timed until it shows in the name field;
- memory: RSS of the server plus all its game processes (and PSS, which counts shared pages once).

    .venv/bin/python bench/ssh_load.py [--json] [--metrics off|on|both] [N ...]

Each N is measured twice by default, on a server without ``--metrics`` and on one with it (scraped once a
second, as Prometheus would, while the players arrive and type), the two side by side: what counting costs
the players (docs/serve.md, "Metrics"). ``--metrics off`` or ``on`` measures one of them.

With ``--json`` it prints one JSON object per N and metrics setting, with the keys ``sessions``, ``metrics``, ``menu_median_s``,
``pss_per_session_mib`` and ``key_p95_ms`` (and a few more), instead of the table. Wall times depend
on what else the machine runs; the CPU figures do not: ``game_cpu_to_menu_s`` (median, one game from its
fork to the menu), ``server_cpu_per_session_s`` and ``bench_cpu_per_session_s`` (the SSH server's and
this client's own CPU per session while everyone connects), ``game_cpu_per_key_ms`` (a game, per key typed).
``game_cpu_per_key_mean_ms`` is the games' CPU summed over all keys typed: the median above is of
figures in 10 ms clock ticks over 12 keys each, so it reads 3.3 ms (40 ms / 12) for anything from
about 2.5 to 4 ms. Who uses the two cores: ``server_side_cpu_per_session_s`` (SSH server, warm parent and games together, per
session to the menus) against ``bench_cpu_per_session_s``; while everyone types, ``server_side_cpu_per_key_ms``
(of which ``server_cpu_per_key_ms`` is the SSH server's relaying) against ``bench_cpu_per_key_ms``, this
client's SSH and terminal emulation, which a real player's own machine would do. The client runs on the same
two cores, so the wall times above include its work.
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
from pathlib import Path

import asyncssh
import pyte
from wcwidth import wcwidth

MENU_TEXT = "Welcome to the World of Mastermind!"
REGISTER_TEXT = "What is the name of the new user?"
PREFIX = "Xq"
"""Typed first, untimed, so each timed key's text is unique on the screen."""
KEYS = "abcdefghij"
TIMEOUT = 300.0


def screen_line(screen: pyte.Screen, y: int) -> str:
    """Line ``y`` of ``screen`` as text, exactly as ``screen.display[y]`` gives it (without the other lines)."""
    row = screen.buffer[y]
    chars = []
    wide = False
    for x in range(screen.columns):
        if wide:  # the stub after a wide character
            wide = False
            continue
        char = row[x].data
        wide = wcwidth(char[0]) == 2
        chars.append(char)
    return "".join(chars)


class Screen:
    """A pyte screen whose text is kept line by line: only the lines pyte marks dirty are read again.

    ``screen.display`` renders all 24 lines at every look (it was most of this client's CPU, which on the
    same two cores delayed every game's echo as if it were the server's work; a player's own terminal does
    not run on the server). What is measured is unchanged: the moment the text shows on the client's screen.
    """

    def __init__(self) -> None:
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.changed = asyncio.Event()
        self.lines = [""] * self.screen.lines
        self.screen.dirty.update(range(self.screen.lines))

    def feed(self, data: bytes) -> None:
        """Draw ``data`` and wake whoever waits for a change."""
        self.stream.feed(data)
        self.changed.set()

    def shows(self, text: str) -> bool:
        """Whether ``text`` stands on one line of the screen now."""
        screen = self.screen
        if screen.dirty:
            for y in screen.dirty:
                if y < screen.lines:
                    self.lines[y] = screen_line(screen, y)
            screen.dirty.clear()
        return any(text in line for line in self.lines)

    def check_open(self) -> None:
        """Raise if the other end has gone (nothing more will come); open by default."""

    async def wait_for(self, text: str) -> None:
        """Until ``text`` shows."""
        while not self.shows(text):
            self.check_open()
            self.changed.clear()
            await self.changed.wait()


class Terminal(Screen, asyncssh.SSHClientSession):
    """A :class:`Screen` fed by an SSH channel."""

    def __init__(self) -> None:
        super().__init__()
        self.chan: asyncssh.SSHClientChannel | None = None

    def connection_made(self, chan: asyncssh.SSHClientChannel) -> None:  # type: ignore[override]
        self.chan = chan

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:  # type: ignore[override]
        self.feed(data)


def tree_pids(root: int) -> list[int]:
    """``root`` and all its descendants (Linux /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry))
    pids, todo = [], [root]
    while todo:
        pid = todo.pop()
        pids.append(pid)
        todo.extend(children.get(pid, []))
    return pids


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a live process has used so far, in seconds."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu(root: int) -> tuple[float, float, dict[int, float]]:
    """CPU seconds so far: the server ``root``, its warm parent(s), and each game (by pid)."""
    server = cpu_seconds(root)
    warm = 0.0
    games: dict[int, float] = {}
    for pid in tree_pids(root)[1:]:
        try:
            parent = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except OSError:
            continue
        if parent == root:
            warm += cpu_seconds(pid)
        else:
            games[pid] = cpu_seconds(pid)
    return server, warm, games


def tree_memory(root: int) -> tuple[int, int, int]:
    """(processes, RSS sum, PSS sum) in bytes for ``root`` and all its descendants (Linux /proc)."""
    pids = tree_pids(root)
    rss = pss = 0
    for pid in pids:
        try:
            rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
        except OSError:
            continue
        rss += int(re.search(r"^Rss:\s+(\d+) kB", rollup, re.M).group(1)) * 1024  # type: ignore[union-attr]
        pss += int(re.search(r"^Pss:\s+(\d+) kB", rollup, re.M).group(1)) * 1024  # type: ignore[union-attr]
    return len(pids), rss, pss


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def local_caps(sessions: int) -> list[str]:
    """The options that let ``sessions`` clients of one address (127.0.0.1) all play and none idle out:
    every cap a bench's own clients would otherwise meet (tests/test_bench.py checks them against the CLI)."""
    n = str(sessions)
    return ["--max-sessions", n, "--max-per-ip", n, "--max-per-network", n, "--idle-timeout", "3600"]


async def start_server(
    data_dir: str, sessions: int, *options: str
) -> tuple[asyncio.subprocess.Process, int, int | None]:
    """``wom-tui serve`` on a free port of 127.0.0.1 for ``sessions`` clients (all from one address
    allowed), with more ``options``; the process, its port and its metrics port (None without ``--metrics``)."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "wom_tui", "serve", "--port", "0", "--data-dir", data_dir, *local_caps(sessions), *options,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stderr is not None
    while True:
        line = (await process.stderr.readline()).decode()
        if not line:
            raise RuntimeError("server did not start")
        if match := re.search(r"listening on 127\.0\.0\.1:(\d+)", line):
            break
    metrics_port = None
    if "--metrics" in options:
        while True:
            line = (await process.stderr.readline()).decode()
            if not line:
                raise RuntimeError("server did not serve its metrics")
            if found := re.search(r"metrics, /livez and /readyz on http://127\.0\.0\.1:(\d+)/", line):
                metrics_port = int(found.group(1))
                break

    async def drain(stream: asyncio.StreamReader) -> None:
        while await stream.readline():
            pass

    asyncio.ensure_future(drain(process.stderr))
    return process, int(match.group(1)), metrics_port


def scrape(port: int) -> str:
    """One Prometheus scrape of ``/metrics``."""
    import urllib.request

    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=TIMEOUT) as answer:
        return str(answer.read().decode())


async def scrape_every_second(port: int, scrapes: list[str]) -> None:
    """Scrape as Prometheus would (here once a second) until cancelled; keep the last answer."""
    while True:
        scrapes.append(await asyncio.to_thread(scrape, port))
        del scrapes[:-1]
        await asyncio.sleep(1.0)


def sessions_counted(text: str) -> float:
    """``wom_sessions_total`` summed over its labels, as the last scrape said."""
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith("wom_sessions_total{"))


async def connect_guest(port: int, number: int, conns: list[asyncssh.SSHClientConnection]) -> Terminal:
    """The ``number``-th guest's SSH session on an 80×24 pty (its connection added to ``conns``)."""
    conn = await asyncssh.connect(
        "127.0.0.1", port, known_hosts=None, client_keys=None, password="", agent_path=None,
        username="bench",  # a guest: no key, keyboard-interactive without prompts
        # From several loopback addresses: the server lets at most 32 connections from one
        # address sign in at once (dropping the oldest), as it would a flood.
        local_addr=(f"127.0.0.{2 + number % 8}", 0),
    )
    conns.append(conn)
    _chan, terminal = await conn.create_session(Terminal, term_type="xterm-256color", term_size=(80, 24), encoding=None)
    return terminal


async def one_round(n: int, metrics: bool = False) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="wom-ssh-load-") as data_dir:
        server, port, metrics_port = await start_server(data_dir, n, *(["--metrics", "127.0.0.1:0"] if metrics else []))
        conns: list[asyncssh.SSHClientConnection] = []
        scrapes: list[str] = []
        scraper = asyncio.ensure_future(scrape_every_second(metrics_port, scrapes)) if metrics_port else None
        try:
            async def arrive(number: int) -> tuple[Terminal, float]:
                started = time.perf_counter()
                terminal = await connect_guest(port, number, conns)
                await terminal.wait_for(MENU_TEXT)
                return terminal, time.perf_counter() - started

            cpu_before = tree_cpu(server.pid)
            bench_before = time.process_time()
            arrivals = await asyncio.wait_for(asyncio.gather(*(arrive(number) for number in range(n))), TIMEOUT)
            terminals = [terminal for terminal, _ in arrivals]
            to_menu = [seconds for _, seconds in arrivals]
            cpu_menu = tree_cpu(server.pid)
            bench_menu = time.process_time()

            async def open_register(terminal: Terminal) -> None:
                assert terminal.chan is not None
                terminal.chan.write(b"r")
                await terminal.wait_for(REGISTER_TEXT)

            await asyncio.wait_for(asyncio.gather(*(open_register(t) for t in terminals)), TIMEOUT)

            async def type_name(terminal: Terminal) -> list[float]:
                assert terminal.chan is not None
                terminal.chan.write(PREFIX.encode())
                await terminal.wait_for(PREFIX)
                latencies = []
                for count in range(1, len(KEYS) + 1):
                    started = time.perf_counter()
                    terminal.chan.write(KEYS[count - 1].encode())
                    await terminal.wait_for(PREFIX + KEYS[:count])
                    latencies.append(time.perf_counter() - started)
                return latencies

            cpu_typing = tree_cpu(server.pid)
            bench_typing = time.process_time()
            typed = await asyncio.wait_for(asyncio.gather(*(type_name(t) for t in terminals)), TIMEOUT)
            latencies = [seconds for per_terminal in typed for seconds in per_terminal]
            cpu_typed = tree_cpu(server.pid)
            bench_typed = time.process_time()
            processes, rss, pss = tree_memory(server.pid)
            if metrics_port is not None:
                scrapes.append(await asyncio.to_thread(scrape, metrics_port))
        finally:
            if scraper is not None:
                scraper.cancel()
            for conn in conns:
                conn.close()
            server.terminate()
            await asyncio.wait_for(server.wait(), TIMEOUT)
    games_at_menu = cpu_menu[2]
    keys_typed = n * len(PREFIX + KEYS)
    games_typing = sum(cpu_typed[2][pid] - cpu_typing[2].get(pid, 0.0) for pid in cpu_typed[2])
    return {
        "n": n,
        "metrics": metrics,
        "sessions_counted": sessions_counted(scrapes[-1]) if scrapes else float("nan"),
        # CPU seconds (load-independent): each game's own to its menu (from its fork), the server's
        # (SSH handshakes, relaying) per session to the menus, this client's own, and a game's per key.
        "game_cpu_to_menu": statistics.median(games_at_menu.values()) if games_at_menu else float("nan"),
        "server_cpu_to_menu": (cpu_menu[0] - cpu_before[0]) / n,
        "warm_cpu_to_menu": (cpu_menu[1] - cpu_before[1]) / n,
        "bench_cpu_to_menu": (bench_menu - bench_before) / n,
        # The same split while everyone types: what the server side (SSH server, warm parent, games)
        # and this client (its SSH and terminal emulation: a player's own machine, not the server's)
        # spend per key typed, all on the same cores.
        "server_side_cpu_per_key": (cpu_typed[0] - cpu_typing[0] + cpu_typed[1] - cpu_typing[1] + games_typing)
        / keys_typed,
        "game_cpu_per_key_mean": games_typing / keys_typed,
        "server_cpu_per_key": (cpu_typed[0] - cpu_typing[0]) / keys_typed,
        "bench_cpu_per_key": (bench_typed - bench_typing) / keys_typed,
        "server_side_cpu_to_menu": (
            cpu_menu[0] - cpu_before[0] + cpu_menu[1] - cpu_before[1] + sum(games_at_menu.values())
        ) / n,
        "game_cpu_per_key": statistics.median(
            cpu_typed[2][pid] - cpu_typing[2][pid] for pid in cpu_typed[2] if pid in cpu_typing[2]
        ) / len(PREFIX + KEYS),
        "menu_median": statistics.median(to_menu),
        "menu_max": max(to_menu),
        "key_median": statistics.median(latencies) * 1000,
        "key_p95": percentile(latencies, 0.95) * 1000,
        "processes": processes,
        "rss": rss / 2**20,
        "pss": pss / 2**20,
    }


async def main(sizes: list[int], as_json: bool = False, metrics: str = "both") -> None:
    settings = {"off": [False], "on": [True], "both": [False, True]}[metrics]
    if not as_json:
        print(f"wom-tui serve under load: Python {sys.version.split()[0]}, {os.cpu_count()} CPU(s)")
        header = (
            f"{'sessions':>8} | {'metrics':>7} | {'to menu median':>14} | {'to menu max':>11} | {'key median':>10} | "
            f"{'key p95':>8} | {'procs':>5} | {'RSS sum':>9} | {'PSS sum':>9} | {'PSS/session':>11}"
        )
        print(header)
        print("-" * len(header))
    for n in sizes:
        rows = []
        for on in settings:
            row = await one_round(n, on)
            rows.append(row)
            if as_json:
                print(json.dumps({
                    "sessions": n,
                    "metrics": "on" if on else "off",
                    "menu_median_s": round(row["menu_median"], 3),
                    "menu_max_s": round(row["menu_max"], 3),
                    "pss_per_session_mib": round(row["pss"] / n, 2),
                    "pss_total_mib": round(row["pss"], 1),
                    "key_median_ms": round(row["key_median"], 1),
                    "key_p95_ms": round(row["key_p95"], 1),
                    "processes": row["processes"],
                    "game_cpu_to_menu_s": round(row["game_cpu_to_menu"], 3),
                    "server_cpu_per_session_s": round(row["server_cpu_to_menu"], 3),
                    "warm_cpu_per_session_s": round(row["warm_cpu_to_menu"], 3),
                    "bench_cpu_per_session_s": round(row["bench_cpu_to_menu"], 3),
                    "game_cpu_per_key_ms": round(row["game_cpu_per_key"] * 1000, 1),
                    "game_cpu_per_key_mean_ms": round(row["game_cpu_per_key_mean"] * 1000, 2),
                    "server_side_cpu_per_session_s": round(row["server_side_cpu_to_menu"], 3),
                    "server_cpu_per_key_ms": round(row["server_cpu_per_key"] * 1000, 2),
                    "server_side_cpu_per_key_ms": round(row["server_side_cpu_per_key"] * 1000, 2),
                    "bench_cpu_per_key_ms": round(row["bench_cpu_per_key"] * 1000, 2),
                    **({"sessions_counted": row["sessions_counted"]} if on else {}),
                }), flush=True)
            else:
                print(
                    f"{row['n']:>8} | {'on' if on else 'off':>7} | {row['menu_median']:>12.2f} s | "
                    f"{row['menu_max']:>9.2f} s | {row['key_median']:>7.1f} ms | {row['key_p95']:>5.1f} ms | "
                    f"{row['processes']:>5} | {row['rss']:>5.0f} MiB | {row['pss']:>5.0f} MiB | {row['pss'] / n:>7.1f} MiB",
                    flush=True,
                )
        if len(rows) == 2 and not as_json:
            off, on_row = rows
            print(
                f"{'':>8}   metrics on - off: to menu median {on_row['menu_median'] - off['menu_median']:+.2f} s, "
                f"key p95 {on_row['key_p95'] - off['key_p95']:+.1f} ms, server CPU per session "
                f"{(on_row['server_cpu_to_menu'] - off['server_cpu_to_menu']) * 1000:+.1f} ms, per key "
                f"{(on_row['server_cpu_per_key'] - off['server_cpu_per_key']) * 1000:+.2f} ms "
                f"(sessions counted: {on_row['sessions_counted']:g} of {n})",
                flush=True,
            )


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line: the session counts to measure, and the output's form."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sessions", nargs="*", type=int, default=[10, 25, 50], metavar="N",
                        help="players connecting at once, one fresh server for each N (default: 10 25 50)")
    parser.add_argument("--json", action="store_true", help="one JSON object per N instead of the table")
    parser.add_argument("--metrics", choices=("off", "on", "both"), default="both",
                        help="measure without --metrics, with it (scraped every second), or both (the default)")
    return parser.parse_args(argv)


if __name__ == "__main__":
    args = parse_args()
    asyncio.run(main(args.sessions, args.json, args.metrics))
