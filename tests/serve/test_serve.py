"""`wom-tui serve` seen from an SSH client: the real game over a pty, and nothing but the game."""

from __future__ import annotations

import asyncio
import logging
import os
import stat
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import asyncssh
import pytest
import pytest_asyncio

from wom_tui.domain.store import open_store
from wom_tui.serve.server import GameServer, ServeError
from wom_tui.settings import Settings

from .conftest import NO_GAME, session_ended, until
from .sshterm import (
    MENU_TEXT,
    REGISTER_TEXT,
    WAIT,
    ServerFactory,
    Terminal,
    connect,
    new_key,
    newest_session,
    open_terminal,
    registered_names,
)

__all__ = ["until"]  # test_abuse imports it from here

shared = pytest.mark.asyncio(loop_scope="module")
"""For the tests that play on the module's one server (``shared_server``): each keeps to its own
sessions, names and keys, and closes its connections."""


def menu_centred(columns: int) -> Callable[[Terminal], bool]:
    """The main menu's box sits in the middle of a screen ``columns`` wide."""

    def check(terminal: Terminal) -> bool:
        if terminal.screen.columns != columns or MENU_TEXT not in terminal.text:
            return False
        for line in terminal.lines:
            if "╭" in line and "╮" in line:
                left = line.index("╭")
                right = columns - 1 - line.rindex("╮")
                return abs(left - right) <= 1
        return False

    return check


@shared
async def test_play_over_ssh_register_resize_and_quit(shared_server: GameServer) -> None:
    server = shared_server
    before = set(server.sessions)
    conn = await connect(server, username="alan", key=new_key())
    terminal = await open_terminal(conn, 80, 24)
    await terminal.wait_for_text(MENU_TEXT)
    (session,) = set(server.sessions) - before

    await terminal.register("Alan")
    await terminal.wait_for_text("Welcome, Alan!")
    assert "Alan" in registered_names(server.settings.data_dir)

    terminal.type("\x1b")
    await terminal.wait_for_text(MENU_TEXT)
    await terminal.wait_until(menu_centred(80))
    terminal.resize(100, 30)
    await terminal.wait_until(menu_centred(100))

    terminal.type("x")
    await terminal.wait_closed()
    assert terminal.chan is not None and terminal.chan.get_exit_status() == 0
    await session_ended(server, session)
    conn.close()


@shared
async def test_a_dropped_client_takes_its_game_with_it(shared_server: GameServer, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="wom_tui.serve")
    server = shared_server
    conn = await connect(server)
    terminal = await open_terminal(conn)
    await terminal.wait_for_text(MENU_TEXT)
    session = newest_session(server)
    store = open_store(server.settings.data_dir)
    try:  # online: the game has painted its menu and hears its hang-up as a served game does
        await until(lambda: session.presence_id in {presence.session for presence in store.live.sessions()})
    finally:
        store.close()
    conn.abort()
    await session_ended(server, session)
    # The game ended as a hang-up, and the operator's log says so (the status a shell gives one), not as a quit.
    ended = [record.getMessage() for record in caplog.records if "session ended" in record.getMessage()]
    assert any(session.label in line and "(client left)" in line and line.endswith("game exit status 129")
               for line in ended), ended


@shared
async def test_nothing_but_the_game(
    shared_server: GameServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="asyncssh")
    server = shared_server
    before = set(server.sessions)
    # A key and an agent path, so that every asyncssh this project allows asks to forward the agent
    # (before 2.15 a client with no key of its own never does).
    key = asyncssh.generate_private_key("ssh-ed25519")
    conn = await connect(server, key=key, agent_forwarding=True, agent_path=str(tmp_path / "agent.sock"))

    with pytest.raises(asyncssh.ChannelOpenError):
        await conn.create_process("cat /etc/passwd")
    with pytest.raises(asyncssh.ChannelOpenError):
        await conn.start_sftp_client()
    with pytest.raises(asyncssh.ChannelOpenError):
        await conn.open_connection("127.0.0.1", server.port)
    caplog.set_level(logging.INFO, logger="wom_tui.serve")
    with pytest.raises(asyncssh.ChannelOpenError):
        await conn.open_connection("evil\n2026 INFO wom_tui.serve: FORGED\x1b[2J", 80)
    (line,) = [r.getMessage() for r in caplog.records if r.name == "wom_tui.serve" and "FORGED" in r.getMessage()]
    assert "evil\\n2026 INFO wom_tui.serve: FORGED\\x1b[2J" in line and "\n" not in line
    with pytest.raises(asyncssh.ChannelListenError):
        await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", server.port)
    with pytest.raises(asyncssh.ChannelOpenError, match="X11"):
        await conn.create_session(
            Terminal, term_type="xterm", x11_forwarding=True, x11_display="127.0.0.1:57", x11_auth_path=os.devnull
        )

    _chan, no_pty = await conn.create_session(Terminal, encoding=None)
    await no_pty.wait_closed()
    assert "use ssh -t" in no_pty.raw.decode()
    assert no_pty.raw.decode().count("\n") == 1
    assert no_pty.chan is not None and no_pty.chan.get_exit_status() == 1
    assert set(server.sessions) == before
    # The client asked for agent forwarding with each session; the server said no.
    await until(lambda: "Agent forwarding request denied" in caplog.text)
    conn.close()


@shared
async def test_twenty_players_register_at_once(shared_server: GameServer) -> None:
    server = shared_server
    names = [f"Player{number:02}" for number in range(1, 21)]

    async def play(name: str) -> None:
        conn = await connect(server, username=name.lower(), key=new_key())
        terminal = await open_terminal(conn)
        await terminal.wait_for_text(MENU_TEXT, timeout=90)
        await terminal.register(name)
        await terminal.wait_for_text(f"Welcome, {name}!")
        conn.close()

    await asyncio.gather(*(play(name) for name in names))
    registered = registered_names(server.settings.data_dir)
    assert {name for name in registered if name.startswith("Player")} == set(names)


@shared
async def test_two_players_racing_for_one_name(shared_server: GameServer) -> None:
    server = shared_server
    terminals, conns = [], []
    for _ in range(2):
        conns.append(await connect(server, key=new_key()))
        terminal = await open_terminal(conns[-1])
        await terminal.wait_for_text(MENU_TEXT)
        terminal.type("r")
        await terminal.wait_for_text(REGISTER_TEXT)
        terminal.type("Zoe")
        await terminal.wait_until(lambda t: any("Zoe" in line for line in t.lines))
        terminals.append(terminal)

    for terminal in terminals:
        terminal.type("\r")
    answers = ("Welcome, Zoe!", "Sorry, the name is already taken.")
    for terminal in terminals:
        await terminal.wait_until(lambda t: any(answer in t.text for answer in answers))
    welcomed = [terminal for terminal in terminals if "Welcome, Zoe!" in terminal.text]
    assert len(welcomed) == 1
    assert {name for name in registered_names(server.settings.data_dir) if "zoe" in name.lower()} == {"Zoe"}
    for conn in conns:
        conn.close()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def impatient_server(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[GameServer]:
    """One server for the module's idle tests: it closes what stays idle for 1 s."""
    server = GameServer(Settings(data_dir=tmp_path_factory.mktemp("idle") / "data", seed=1, port=0, idle_timeout=1))
    await server.start()
    yield server
    await asyncio.wait_for(server.close(), WAIT)


@shared
async def test_an_idle_session_is_closed_with_a_message(impatient_server: GameServer) -> None:
    server = impatient_server
    terminal = await open_terminal(await connect(server))
    await until(lambda: len(server.sessions) == 1)  # seated (the menu may come after the 1 s, under load)
    (session,) = server.sessions
    await terminal.wait_closed()
    assert "closed this session after 1 second without a key press" in terminal.text
    await session_ended(server, session)


@shared
async def test_a_connection_without_a_game_is_closed_when_idle(impatient_server: GameServer) -> None:
    conn = await connect(impatient_server)  # like ssh -N: signed in, but never asks for a session
    await asyncio.wait_for(conn.wait_closed(), WAIT)


async def test_the_session_cap_holds(start_server: ServerFactory) -> None:
    server = await start_server(max_sessions=2)
    seated = []
    for _ in range(2):
        terminal = await open_terminal(await connect(server))
        await terminal.wait_for_text(MENU_TEXT)
        seated.append(terminal)

    turned_away = await open_terminal(await connect(server))
    await turned_away.wait_closed()
    assert "all 2 seats of World of Mastermind are taken" in turned_away.text
    assert len(server.sessions) == 2

    first = next(session for session in server.sessions if session.label.startswith("session #1."))
    seated[0].type("x")
    await seated[0].wait_closed()
    await session_ended(server, first)
    assert len(server.sessions) == 1
    newcomer = await open_terminal(await connect(server))
    await newcomer.wait_for_text(MENU_TEXT)


async def test_host_key_is_private_and_kept_across_restarts(start_server: ServerFactory, tmp_path: Path) -> None:
    server = await start_server(warm_command=NO_GAME)  # signing in only: no game is opened
    key_file = server.settings.host_key_path
    assert key_file == server.settings.data_dir / "ssh_host_ed25519_key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    conn = await connect(server)
    first = conn.get_server_host_key()
    conn.close()
    await server.close()

    again = await start_server(warm_command=NO_GAME)
    conn = await connect(again)
    second = conn.get_server_host_key()
    conn.close()
    assert first is not None and second is not None
    assert second.get_fingerprint() == first.get_fingerprint() == again.fingerprint
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600


async def test_a_damaged_host_key_is_reported_and_kept(start_server: ServerFactory, tmp_path: Path) -> None:
    key_file = tmp_path / "damaged_key"
    key_file.write_bytes(b"not a key\n")
    with pytest.raises(ServeError, match="damaged_key"):
        await start_server(host_key=key_file)
    assert key_file.read_bytes() == b"not a key\n"


async def test_authorized_keys_restrict_who_may_play(start_server: ServerFactory, tmp_path: Path) -> None:
    allowed = asyncssh.generate_private_key("ssh-ed25519")
    stranger = asyncssh.generate_private_key("ssh-ed25519")
    keys_file = tmp_path / "authorized_keys"
    keys_file.write_bytes(allowed.export_public_key())
    server = await start_server(authorized_keys=keys_file)

    with pytest.raises(asyncssh.PermissionDenied):
        await connect(server)
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(server, client_keys=[stranger])
    conn = await connect(server, client_keys=[allowed])
    terminal = await open_terminal(conn)
    await terminal.wait_for_text(MENU_TEXT)
    conn.close()


def test_the_ssh_server_loads_the_web_server_and_line_modes_engine_only_when_asked() -> None:
    """`wom-tui serve` without `--web` starts without aiohttp, and without line mode's engine (and the rules'
    solvers, numpy) until a line session starts: a third of a CPU-second less at every start. (A fresh
    interpreter: this one has imported them all.)"""
    import subprocess
    import sys

    code = ("import sys; from wom_tui.serve import server; "
            "loaded = [m for m in ('aiohttp', 'wom_tui.line.engine', 'numpy') if m in sys.modules]; "
            "sys.exit(', '.join(loaded) or None)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, f"loaded at the server's import: {result.stderr}"
