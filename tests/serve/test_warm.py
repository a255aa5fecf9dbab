"""Games forked by the warm parent: independent of each other and of the server, and cleaned up."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from pathlib import Path

import asyncssh

from wom_tui.serve.server import GameServer

from .sshterm import MENU_TEXT, REGISTER_TEXT, WAIT, ServerFactory, Terminal, connect, open_terminal
from .test_serve import process_gone, until

GAME_TEXT = "Guess #1"


def socket_inodes(pid: int | str) -> set[str]:
    """The sockets a process has open (``socket:[inode]``), from /proc."""
    folder = Path(f"/proc/{pid}/fd")
    found = set()
    for entry in folder.iterdir():
        try:
            target = os.readlink(entry)
        except OSError:
            continue
        if target.startswith("socket:"):
            found.add(target)
    return found


def game_ended(pid: int) -> bool:
    """True once ``pid`` has exited: reaped, or a zombie waiting for whoever adopted it (init)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


async def solo_game_with_a_lifeline(server: GameServer) -> tuple[Terminal, str]:
    """Start a solo game with the default rules (random length) and reveal a symbol: the screen."""
    terminal = await open_terminal(await connect(server))
    await terminal.wait_for_text(MENU_TEXT)
    terminal.type("o")
    await terminal.wait_for_text("Solo game")
    terminal.type("p")
    await terminal.wait_for_text(GAME_TEXT)
    terminal.type("\x1bOQ")  # F2: a symbol of the code
    await terminal.wait_for_text("The code contains")
    await terminal.settle()  # the whole frame drawn
    # What the seed decided: the code's length (its hint mask) and the symbol revealed. (The rest of the
    # screen depends on timing, such as how far the message log has scrolled.)
    status = re.search(r"Code((?:\s+[*\w])+?)\s+Contains\s+(\S+)", terminal.text)
    assert status is not None, terminal.text
    return terminal, f"{''.join(status.group(1).split())} {status.group(2)}"


async def test_sessions_of_one_server_seed_get_their_own_codes_and_replay(start_server: ServerFactory) -> None:
    first = await start_server(seed=1234)
    one, screen_one = await solo_game_with_a_lifeline(first)
    two, screen_two = await solo_game_with_a_lifeline(first)
    assert screen_one != screen_two
    for pid in (session.pid for session in first.sessions):
        assert pid is not None
        # Nothing of the server reached the game: no socket is shared with the server's process.
        assert not socket_inodes(pid) & socket_inodes("self")
    await first.close()

    again = await start_server(seed=1234)
    _replayed, screen_replayed = await solo_game_with_a_lifeline(again)
    assert screen_replayed == screen_one


async def test_one_crashing_game_leaves_the_others_playing(start_server: ServerFactory) -> None:
    server = await start_server()
    crashing = await open_terminal(await connect(server))
    playing = await open_terminal(await connect(server))
    for terminal in (crashing, playing):
        await terminal.wait_for_text(MENU_TEXT)
    victim = next(session for session in server.sessions if session.label.startswith("session #1."))
    assert victim.pid is not None
    os.kill(victim.pid, signal.SIGSEGV)

    await crashing.wait_closed()
    assert crashing.chan is not None and crashing.chan.get_exit_status() != 0
    await until(lambda: len(server.sessions) == 1)
    playing.type("r")
    await playing.wait_for_text(REGISTER_TEXT)


async def test_the_warm_parent_comes_back_and_its_games_play_on(start_server: ServerFactory) -> None:
    server = await start_server()
    earlier = await open_terminal(await connect(server))
    await earlier.wait_for_text(MENU_TEXT)
    (session,) = server.sessions
    warm_pid = server.warm.pid
    assert warm_pid is not None
    os.kill(warm_pid, signal.SIGKILL)
    await until(lambda: process_gone(warm_pid) and server.warm.pid != warm_pid)

    later = await open_terminal(await connect(server))
    await later.wait_for_text(MENU_TEXT)
    earlier.type("r")
    await earlier.wait_for_text(REGISTER_TEXT)
    # The first game outlived its parent; its end is still noticed and its seat freed.
    earlier.type("\x1b")
    await earlier.wait_for_text(MENU_TEXT)
    earlier.type("q")
    await earlier.wait_closed()
    await until(lambda: len(server.sessions) == 1)
    assert session.pid is not None and game_ended(session.pid)


async def test_sigterm_says_goodbye_to_every_game_and_leaves_no_process(tmp_path: Path) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "wom_tui", "serve", "--port", "0", "--data-dir", str(tmp_path / "data"),
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stderr is not None
    log: list[str] = []

    async def read_until(pattern: str) -> re.Match[str]:
        while True:
            line = (await process.stderr.readline()).decode()
            assert line, "server exited early:\n" + "".join(log)
            log.append(line)
            if match := re.search(pattern, line):
                return match

    try:
        warm = int((await asyncio.wait_for(read_until(r"warm parent ready, pid (\d+)"), WAIT)).group(1))
        port = int((await asyncio.wait_for(read_until(r"listening on 127\.0\.0\.1:(\d+)"), WAIT)).group(1))
        terminals, games = [], []
        for _ in range(2):
            conn = await asyncio.wait_for(
                asyncssh.connect(
                    "127.0.0.1", port, known_hosts=None, client_keys=None, agent_path=None, password=""
                ),
                WAIT,
            )
            terminal = await open_terminal(conn)
            await terminal.wait_for_text(MENU_TEXT)
            terminals.append(terminal)
            games.append(int((await asyncio.wait_for(read_until(r"game started, pid (\d+)"), WAIT)).group(1)))

        process.send_signal(signal.SIGTERM)
        for terminal in terminals:
            await terminal.wait_closed()
            assert "server is shutting down" in terminal.text
        assert await asyncio.wait_for(process.wait(), WAIT) == 0
        for pid in (warm, *games):
            await until(lambda pid=pid: process_gone(pid))
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
