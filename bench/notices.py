"""What the notices watcher costs a served session: its own subscription to the change feed, through the hub.

    .venv/bin/python bench/notices.py [--sessions 20] [--seconds 20] [--rate 5] [--tiny] [--json]

Every session keeps one watcher for the notices that reach a player on any screen (wom_tui/screens/notices.py:
invitations, a started table's code to set, a full table). Served, its subscription goes through the
server's hub, which sends each change on to every subscribed game; a change naming tables wakes each
watcher, which reads the tables it names. Measured twice, on a fresh ``wom-tui serve`` (temp data folder)
each time: with the watcher ("on") and without it ("off": ``WOM_BENCH_NO_NOTICES`` set in the server's
environment, which its games inherit; they then start no watcher, and nothing else differs). For each,
``--sessions`` SSH guests (80×24) wait at the main menu, and then:

- ``idle_cpu_percent``: the server's whole process tree (SSH server, hub, warm parent, games) over
  ``--seconds`` with nothing happening, as percent of one core; ``idle_cpu_ms_per_session_s`` is the same
  per session, in CPU milliseconds per second;
- ``busy_cpu_percent`` (and ``busy_cpu_ms_per_session_s``): the same while this process changes one table
  ``--rate`` times a second (HAL9000 sits down, stands up: another table than any of theirs, as someone
  else's game would); ``busy_cpu_ms_per_change`` divides the tree's CPU by the changes made,
  ``busy_games_cpu_ms_per_change`` the games' part of it (the rest is the SSH server, the hub, the warm parent);
- ``pss_per_session_mib``: the tree's PSS divided by the sessions, after the busy phase.

With ``--json`` one object per run (``notices`` says which); else one line each. ``--only on`` (or ``off``)
measures one of them. ``--tiny`` is a smoke run (1 session, 0.3 s each phase, no settling, the watcher on
only; its figures mean nothing).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import asyncssh

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from livefeed import CREATOR, toggle_hal
from ssh_load import MENU_TEXT, connect_guest, cpu_seconds, start_server, tree_memory, tree_pids

from wom_tui.domain.store import open_store
from wom_tui.settings import NO_NOTICES_ENV

SETTLE = 3.0
"""Seconds after everyone reached the menu before measuring (arrival's presence changes die down)."""


def tree_cpu_seconds(root: int) -> tuple[float, float]:
    """CPU seconds used so far by ``root`` and every process under it, and of those by the games (the
    processes below the server's children: the SSH server, its hub and warm parent are the rest)."""
    pids = tree_pids(root)
    children = {pid for pid in pids if pid != root and _parent(pid) == root}
    games = sum(cpu_seconds(pid) for pid in pids if pid != root and pid not in children)
    return sum(cpu_seconds(pid) for pid in pids), games


def _parent(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except OSError:
        return 0


async def one_run(notices: bool, sessions: int, seconds: float, rate: float, settle: float = SETTLE) -> dict[str, object]:
    if notices:
        os.environ.pop(NO_NOTICES_ENV, None)
    else:
        os.environ[NO_NOTICES_ENV] = "1"
    with tempfile.TemporaryDirectory(prefix="wom-notices-") as data_dir:
        store = open_store(data_dir)
        table_id = store.live.create_table(CREATOR, seats=2).table_id
        server, port, _metrics = await start_server(data_dir, sessions)
        conns: list[asyncssh.SSHClientConnection] = []
        try:
            terminals = [await connect_guest(port, number, conns) for number in range(sessions)]
            await asyncio.gather(*(terminal.wait_for(MENU_TEXT) for terminal in terminals))
            await asyncio.sleep(settle)

            before, _ = tree_cpu_seconds(server.pid)
            await asyncio.sleep(seconds)
            idle = tree_cpu_seconds(server.pid)[0] - before

            changes = max(1, round(seconds * rate))
            (before, games_before), start = tree_cpu_seconds(server.pid), time.monotonic()
            for i in range(changes):
                await asyncio.to_thread(toggle_hal, store.live, table_id, i)
                await asyncio.sleep(max(0.0, start + (i + 1) / rate - time.monotonic()))
            await asyncio.sleep(0.5)  # the last changes' fan-out
            busy_seconds = time.monotonic() - start
            after, games_after = tree_cpu_seconds(server.pid)
            busy, games = after - before, games_after - games_before
            _processes, _rss, pss = tree_memory(server.pid)
        finally:
            for conn in conns:
                conn.close()
            server.terminate()
            await server.wait()
            store.close()
    os.environ.pop(NO_NOTICES_ENV, None)
    return {
        "notices": "on" if notices else "off",
        "sessions": sessions,
        "idle_cpu_percent": round(100 * idle / seconds, 2),
        "idle_cpu_ms_per_session_s": round(1000 * idle / seconds / sessions, 3),
        "busy_cpu_percent": round(100 * busy / busy_seconds, 2),
        "busy_cpu_ms_per_session_s": round(1000 * busy / busy_seconds / sessions, 3),
        "busy_cpu_ms_per_change": round(1000 * busy / changes, 2),
        "busy_games_cpu_ms_per_change": round(1000 * games / changes, 2),
        "changes_per_second": rate,
        "pss_per_session_mib": round(pss / sessions / 2**20, 2),
    }


async def main(arguments: argparse.Namespace) -> None:
    for notices in [only == "on" for only in (["on", "off"] if arguments.only is None else [arguments.only])]:
        figures = await one_run(notices, arguments.sessions, arguments.seconds, arguments.rate,
                                0.0 if arguments.tiny else SETTLE)
        if arguments.json:
            print(json.dumps(figures))
        else:
            print("  ".join(f"{key}={value}" for key, value in figures.items()))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20.0, help="each phase's length (default 20)")
    parser.add_argument("--rate", type=float, default=5.0, help="table changes a second in the busy phase (default 5)")
    parser.add_argument("--only", choices=["on", "off"], help="measure with the watcher (on) or without (off) only")
    parser.add_argument("--tiny", action="store_true", help="a smoke run (figures meaningless)")
    parser.add_argument("--json", action="store_true")
    arguments = parser.parse_args()
    if arguments.tiny:
        arguments.sessions, arguments.seconds, arguments.only = 1, 0.3, "on"
    asyncio.run(main(arguments))
