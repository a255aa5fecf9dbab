"""Games forked by the warm parent: independent of each other and of the server, and cleaned up."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import signal
import struct
from pathlib import Path

import asyncssh
import pytest

from wom_tui.serve.server import GameServer

from .conftest import process_gone, serve_process, session_ended, socket_inodes, until
from .sshterm import (
    MENU_TEXT, REGISTER_TEXT, WAIT, ServerFactory, Terminal, connect, new_key, newest_session, open_terminal,
    registered_names,
)

GAME_TEXT = "Guess #1"


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


shared = pytest.mark.asyncio(loop_scope="module")


@shared
async def test_a_game_is_offered_to_the_kernels_page_merging(shared_server: GameServer) -> None:
    """Each game inherits the warm parent's offer of its memory to KSM (the host decides whether it runs):
    the kernel says so for the game's process; the SSH server itself is not offered. The game runs at a lower
    priority than the server."""
    terminal = await open_terminal(await connect(shared_server))
    await terminal.wait_for_text(MENU_TEXT)
    game = newest_session(shared_server)
    assert game.pid is not None
    assert "ksm_merge_any: yes" in Path(f"/proc/{game.pid}/ksm_stat").read_text()
    assert "ksm_merge_any: no" in Path(f"/proc/{os.getpid()}/ksm_stat").read_text()
    # And it runs behind the server (and the hub), which serve every player: game_niceness() steps nicer (1 in
    # the tests: tests/conftest.py).
    from wom_tui.serve.forkserver import game_niceness

    server_nice = os.getpriority(os.PRIO_PROCESS, 0)
    assert game_niceness() > 0
    assert os.getpriority(os.PRIO_PROCESS, game.pid) == min(19, server_nice + game_niceness())
    terminal.type("x")
    await terminal.wait_closed()


@shared
async def test_one_crashing_game_leaves_the_others_playing(shared_server: GameServer) -> None:
    server = shared_server
    crashing = await open_terminal(await connect(server))
    await crashing.wait_for_text(MENU_TEXT)
    victim = newest_session(server)
    playing = await open_terminal(await connect(server))
    await playing.wait_for_text(MENU_TEXT)
    assert victim.pid is not None
    os.kill(victim.pid, signal.SIGSEGV)

    await crashing.wait_closed()
    assert crashing.chan is not None and crashing.chan.get_exit_status() != 0
    await session_ended(server, victim)
    playing.type("r")
    await playing.wait_for_text(REGISTER_TEXT)
    playing.type("\x1b")
    await playing.wait_for_text(MENU_TEXT)
    playing.type("x")
    await playing.wait_closed()


@shared
async def test_the_warm_parent_comes_back_and_its_games_play_on_and_are_reaped(shared_server: GameServer) -> None:
    server = shared_server
    earlier = await open_terminal(await connect(server))
    await earlier.wait_for_text(MENU_TEXT)
    first = newest_session(server)
    mid_game_conn = await connect(server)
    mid_game = await open_terminal(mid_game_conn)
    await mid_game.wait_for_text(MENU_TEXT)
    second = newest_session(server)
    mid_game.type("o")
    await mid_game.wait_for_text("Solo game")
    mid_game.type("p")
    await mid_game.wait_for_text(GAME_TEXT)
    warm_pid = server.warm.pid
    assert warm_pid is not None
    os.kill(warm_pid, signal.SIGKILL)
    await until(lambda: process_gone(warm_pid) and server.warm.pid != warm_pid)
    await server.warm.ready()

    later = await open_terminal(await connect(server))
    await later.wait_for_text(MENU_TEXT)
    earlier.type("r")
    await earlier.wait_for_text(REGISTER_TEXT)
    # The games outlived their parent; their ends are still noticed, their seats freed and their
    # processes reaped by the server, which adopted them (so it knows how they ended), whether the
    # game quits, dies mid-game or its player drops.
    earlier.type("\x1b")
    await earlier.wait_for_text(MENU_TEXT)
    earlier.type("x")
    await earlier.wait_closed()
    await session_ended(server, first)
    assert earlier.chan is not None and earlier.chan.get_exit_status() == 0
    assert second.pid is not None
    os.kill(second.pid, signal.SIGKILL)
    await mid_game.wait_closed()
    await session_ended(server, second)
    assert mid_game.chan is not None and mid_game.chan.get_exit_status() == 128 + signal.SIGKILL
    mid_game_conn.close()
    later.type("x")
    await later.wait_closed()


def parent_of(pid: int) -> int:
    """The parent of process ``pid``, from /proc."""
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


async def register(server: GameServer, name: str) -> Terminal:
    """A newcomer registers ``name`` (through the server's hub); the terminal, welcomed."""
    terminal = await open_terminal(await connect(server, key=new_key()))
    await terminal.wait_for_text(MENU_TEXT)
    terminal.type("r")
    await terminal.wait_for_text(REGISTER_TEXT)
    terminal.type(f"{name}\r")
    await terminal.wait_for_text(f"Welcome, {name}!")
    return terminal


async def test_the_hub_is_forked_by_the_warm_parent_outlives_it_and_is_forked_again_when_it_dies(
    start_server: ServerFactory,
) -> None:
    # A server of its own: its warm parent and its hub are killed.
    server = await start_server()
    hub, warm = server.hub, server.warm
    assert hub is not None and warm is not None and hub.process is not None
    first = hub.process.pid
    assert parent_of(first) == warm.pid
    assert Path(f"/proc/{first}/comm").read_text().strip() == "wom-tui hub"  # (its command line is the warm parent's)
    assert os.getpriority(os.PRIO_PROCESS, first) == os.getpriority(os.PRIO_PROCESS, 0)  # the server's, not a game's
    # The warm parent dies: the hub serves on, and a newcomer's game (from the new warm parent) registers through it.
    old_warm = warm.pid
    assert old_warm is not None
    os.kill(old_warm, signal.SIGKILL)
    await until(lambda: process_gone(old_warm) and warm.pid != old_warm)
    await warm.ready()
    await register(server, "Zed")
    assert hub.up and hub.process.pid == first and parent_of(first) == os.getpid()  # adopted by the server
    assert "Zed" in registered_names(server.settings.data_dir)
    # The hub dies: it is forked again, by the new warm parent, and the next registration goes through it.
    os.kill(first, signal.SIGKILL)
    await until(lambda: hub.up and hub.process is not None and hub.process.pid != first)
    assert parent_of(hub.process.pid) == warm.pid and process_gone(first)
    await register(server, "Amy")
    assert {"Zed", "Amy"} <= registered_names(server.settings.data_dir)


async def test_a_hub_the_warm_parent_cannot_fork_is_started_on_its_own(
    start_server: ServerFactory, monkeypatch: pytest.MonkeyPatch,
) -> None:
    from wom_tui.serve.warmparent import WarmParent

    async def refused(*args: object, **kwargs: object) -> None:
        raise OSError("no fork today")

    monkeypatch.setattr(WarmParent, "spawn_hub", refused)
    server = await start_server()
    assert server.hub is not None and server.hub.process is not None
    hub = server.hub.process.pid
    assert parent_of(hub) == os.getpid()  # the server's own child: a fresh interpreter running the hub
    assert "wom_tui.serve.hub" in Path(f"/proc/{hub}/cmdline").read_bytes().decode().split("\0")
    await register(server, "Ivy")
    assert "Ivy" in registered_names(server.settings.data_dir)


async def test_sigterm_says_goodbye_to_every_game_and_leaves_no_process(tmp_path: Path) -> None:
    async with serve_process(tmp_path / "data") as served:
        warm = await served.number(r"warm parent ready, pid (\d+)")
        port = await served.number(r"listening on 127\.0\.0\.1:(\d+)")
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
            games.append(await served.number(r"game started, pid (\d+)"))

        served.process.send_signal(signal.SIGTERM)
        for terminal in terminals:
            await terminal.wait_closed()
            assert "server is shutting down" in terminal.text
        assert await asyncio.wait_for(served.process.wait(), WAIT) == 0
        # The server waited for every game (reaped by the warm parent) and for the warm parent itself.
        for pid in (warm, *games):
            assert process_gone(pid)


# -- the start queue: games start a core's worth at a time, in order of arrival ---------------------


class _Forks:
    """Stands in for the fork itself: each request gets the next pid, in the order it was forked."""

    def __init__(self) -> None:
        self.forked: list[str] = []

    def __call__(self, _sock: object, request: dict[str, str], fds: list[int], _started: object) -> int:
        self.forked.append(request["who"])
        return 1000 + len(self.forked)


def test_arrivals_start_in_order_a_few_at_a_time_and_a_slow_start_does_not_block_the_rest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from wom_tui.serve import forkserver as warm

    forks = _Forks()
    monkeypatch.setattr(warm, "_spawn", forks)
    monkeypatch.setattr(warm, "STARTING_AT_ONCE", 2)
    queue = warm._StartQueue(None)  # type: ignore[arg-type]
    for who in "abcde":
        queue.add({"who": who}, [])
    assert forks.forked == ["a", "b"]  # the others wait their turn
    os.write(queue.write_end, struct.pack("=i", 1002))  # b's menu is on screen
    queue.started()
    queue.fork_what_may_start()
    assert forks.forked == ["a", "b", "c"]
    assert queue.timeout() is not None  # the next waits for a or c, but not for ever
    monkeypatch.setattr(warm.time, "monotonic", lambda: float("inf"))  # a and c took too long
    queue.fork_what_may_start()
    assert forks.forked == ["a", "b", "c", "d", "e"]
    os.close(queue.read_end)
    os.close(queue.write_end)


async def test_a_stopped_warm_parent_is_replaced_and_the_waiting_player_still_gets_the_menu(
    start_server: ServerFactory, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="wom_tui.serve")
    server = await start_server()
    assert server.warm is not None and server.warm.pid is not None
    playing = await open_terminal(await connect(server))
    await playing.wait_for_text(MENU_TEXT)
    stopped = server.warm.pid
    os.kill(stopped, signal.SIGSTOP)
    try:
        arriving = await open_terminal(await connect(server))
        await arriving.wait_for_text(MENU_TEXT)  # from the new warm parent
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(stopped, signal.SIGCONT)
    assert server.warm.pid != stopped
    await until(lambda: process_gone(stopped))
    replaced = [r.getMessage() for r in caplog.records if "replacing it" in r.getMessage()]
    assert replaced == [f"warm parent pid {stopped} left 1 game start(s) unanswered for 5 s (stopped or hung); replacing it"]
    playing.type("o")  # the game already playing was never held up
    await playing.wait_for_text("Solo game")
    playing.type("p")
    await playing.wait_for_text(GAME_TEXT)


async def test_a_closed_servers_warm_parent_serves_the_next_server_of_the_process_but_a_dead_one_is_not_kept(
    start_server: ServerFactory,
) -> None:
    # (Servers of their own: the test closes one and watches which warm parent the next one gets.)
    first = await start_server()
    terminal = await open_terminal(await connect(first))
    await terminal.wait_for_text(MENU_TEXT)
    kept = first.warm.pid
    terminal.type("x")
    await terminal.wait_closed()
    await first.close()
    assert not process_gone(kept)  # handed on, not ended (tests/conftest.py keeps warm parents)

    second = await start_server(data_dir=first.settings.data_dir.parent / "second")
    assert second.warm.pid == kept
    player = await open_terminal(await connect(second))
    await player.wait_for_text(MENU_TEXT)  # a game of the new server, with the new server's settings
    assert newest_session(second) is not None
    # A warm parent that dies is replaced, and its successor is what is kept. It dies here the moment the
    # game's menu is drawn, before the game has told it so: the game must not die of that (it did, of SIGPIPE).
    os.kill(kept, signal.SIGKILL)
    await until(lambda: second.warm.pid != kept)
    await second.warm.ready()
    replacement = second.warm.pid
    player.type("x")
    await player.wait_closed()
    await second.close()

    third = await start_server(data_dir=first.settings.data_dir.parent / "third")
    assert third.warm.pid == replacement != kept
    os.kill(replacement, signal.SIGKILL)
    await until(lambda: process_gone(replacement) and third.warm.pid != replacement)
    await third.close()
    await until(lambda: process_gone(replacement))


def test_games_run_ten_steps_nicer_unless_the_server_is_told_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    from wom_tui.serve.forkserver import NICENESS_ENV, game_niceness

    monkeypatch.delenv(NICENESS_ENV, raising=False)
    assert game_niceness() == 10
    for value, niceness in (("0", 0), ("3", 3), ("40", 19), ("-5", 0), ("ten", 10), ("", 10)):
        monkeypatch.setenv(NICENESS_ENV, value)
        assert game_niceness() == niceness, value
