"""Abuse limits of `wom-tui serve`: seats per address, guests turned away, floods of input,
clients that never read, connections that never sign in, and a log nobody can forge."""

from __future__ import annotations

import asyncio
import logging
import os
import resource
import socket
import sys
from pathlib import Path

import pytest

from wom_tui.serve.server import GameServer

from .sshterm import (
    MENU_TEXT,
    WAIT,
    ServerFactory,
    Terminal,
    connect,
    new_key,
    newest_session,
    open_terminal,
)
from .conftest import NO_GAME, session_ended, until

HELP_TEXT = "How to play"

shared = pytest.mark.asyncio(loop_scope="module")
"""For the tests that play on the module's one server (``shared_server``): each keeps to its own
session and ends it."""


async def press_until_shown(terminal: Terminal, key: str, text: str, tries: int = 20) -> None:
    """Press ``key`` until ``text`` shows, as a person would after a flood made the game drop keys."""
    for _ in range(tries):
        terminal.type(key)
        try:
            await terminal.wait_for_text(text, timeout=1.0)
            return
        except AssertionError:
            continue
    raise AssertionError(f"{text!r} never showed; screen:\n{terminal.text}")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def test_seats_per_address_and_no_guests(start_server: ServerFactory) -> None:
    server = await start_server(max_per_ip=2, no_guests=True)

    guest = await open_terminal(await connect(server))
    await guest.wait_closed()
    assert "only lets in players with an SSH key" in guest.text
    assert guest.raw.decode().count("\n") == 1
    assert guest.chan is not None and guest.chan.get_exit_status() == 1

    for _ in range(2):
        seated = await open_terminal(await connect(server, key=new_key()))
        await seated.wait_for_text(MENU_TEXT)
    third = await open_terminal(await connect(server, key=new_key()))
    await third.wait_closed()
    assert "at most 2 games of World of Mastermind at once from one address" in third.text
    assert third.chan is not None and third.chan.get_exit_status() == 1
    assert len(server.sessions) == 2


async def test_a_connection_that_does_not_sign_in_in_time_is_closed(start_server: ServerFactory) -> None:
    server = await start_server(login_timeout=1, warm_command=NO_GAME)  # it never signs in
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    try:
        assert (await asyncio.wait_for(reader.readline(), WAIT)).startswith(b"SSH-2.0-")
        await asyncio.wait_for(reader.read(), WAIT)  # returns at EOF: the server hung up on us
        assert reader.at_eof()
        await until(lambda: server.signing_in == 0)
    finally:
        writer.close()


@shared
async def test_typing_faster_than_a_person_is_cut_down_and_a_big_paste_is_cut_at_its_bound(shared_server: GameServer) -> None:
    server = shared_server
    conn = await connect(server, key=new_key())
    terminal = await open_terminal(conn)
    await terminal.wait_for_text(MENU_TEXT)
    session = newest_session(server)
    assert session.pid is not None
    before = cpu_seconds(session.pid)

    terminal.type(b"z" * 256 * 1024)  # 256 KiB of a key the menu ignores, at once: 67 s of the game's CPU before the throttle
    await press_until_shown(terminal, "?", HELP_TEXT)  # still answering (once the flood has passed)
    used = cpu_seconds(session.pid) - before
    assert session.input_dropped > 250_000
    assert used < 10, f"the flood cost the game {used:.1f} s of CPU"

    terminal.type("\x1b")
    await terminal.wait_for_text(MENU_TEXT)
    dropped = session.input_dropped
    terminal.type(b"\x1b[200~" + b"y" * 1024 * 1024 + b"\x1b[201~")  # a 1 MiB bracketed paste: cut at max_paste
    # The game goes on: a key after the paste arrives. The paste paid for itself from the same bucket of
    # keystrokes as typing, so a key right after it may find the bucket dry and be dropped, as a person's
    # would: pressed again, it gets through.
    await press_until_shown(terminal, "?", HELP_TEXT)
    assert session._throttle.pastes_cut == 1
    assert session.input_dropped >= dropped + 1  # the cut paste (and any "?" the dry bucket dropped)
    conn.close()
    await session_ended(server, session)


@shared
async def test_a_client_that_never_reads_cannot_grow_the_servers_buffers(shared_server: GameServer) -> None:
    server = shared_server
    # A small receive buffer, so the kernel does not hide megabytes of what the client leaves unread.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", server.port))
    conn = await connect(server, key=new_key(), sock=sock)
    # A client may grant any window (here 2 GiB) and then stop reading its socket.
    _chan, terminal = await conn.create_session(
        lambda: Terminal(400, 150), term_type="xterm-256color", term_size=(400, 150), encoding=None, window=2**31 - 1
    )
    await terminal.wait_for_text(MENU_TEXT)
    session = newest_session(server)
    transport = conn._transport  # stopping the socket's reads is the point
    assert transport is not None
    transport.pause_reading()

    async def keep_resizing() -> None:
        for step in range(10_000):  # each resize makes the game redraw its whole 400×150 screen
            assert terminal.chan is not None
            terminal.chan.change_terminal_size(400 - step % 2, 150)
            await asyncio.sleep(0.01)  # pacing the producer, not waiting for a result

    resizer = asyncio.ensure_future(keep_resizing())
    try:
        await until(lambda: session.transport_paused)
        buffered = session.buffered_output()
        assert buffered <= 256 * 1024, f"{buffered} bytes buffered for a client that does not read"
    finally:
        resizer.cancel()
    terminal.muted = True  # what piled up is megabytes of redraws: read it, skip drawing it
    transport.resume_reading()
    await until(lambda: not session.transport_paused and session.reading_output)  # the game goes on
    assert session.running
    conn.close()
    await session_ended(server, session)


async def test_silent_connections_cannot_lock_players_out_and_the_log_cannot_be_forged(tmp_path: Path) -> None:
    def limit_descriptors() -> None:
        hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, min(1024, hard) if hard != resource.RLIM_INFINITY else 1024))

    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "wom_tui", "serve", "--port", "0", "--data-dir", str(tmp_path / "data"),
        stderr=asyncio.subprocess.PIPE, preexec_fn=limit_descriptors,
    )
    assert process.stderr is not None
    log = bytearray()
    port_found = asyncio.Event()

    async def read_log() -> None:
        assert process.stderr is not None
        while line := await process.stderr.readline():
            log.extend(line)
            if b"listening on" in line:
                port_found.set()

    reader = asyncio.ensure_future(read_log())
    silent: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
    try:
        await asyncio.wait_for(port_found.wait(), WAIT)
        port = int(log.split(b"listening on 127.0.0.1:")[1].split(b",")[0])

        async def open_silent() -> None:
            try:
                silent.append(await asyncio.open_connection("127.0.0.1", port))
            except OSError:
                return  # refused or reset while the server makes room: still a connection that tried

        await asyncio.wait_for(asyncio.gather(*(open_silent() for _ in range(1100))), 60)
        assert len(silent) > 1024 // 2

        forged = "xterm\n2026-01-01 00:00:00,000 INFO wom_tui.serve: FORGED\x1b[2J\x1b]0;owned\x07"
        # A real player still gets in, from an address of their own: the server may still be taking the flood
        # from its listen queue, each one it takes dropping the oldest of the flood's address beyond its cap,
        # and a player connecting from that same address meanwhile was dropped as one of them (twice, in two
        # runs of the suite at once).
        conn = await connect(_Port(port), key=new_key(), local_addr=("127.0.0.2", 0))
        terminal = await open_terminal(conn, term=forged)
        await terminal.wait_for_text(MENU_TEXT)
        await until(lambda: b"game started" in log)
        conn.close()
    finally:
        for _reader, writer in silent:
            writer.close()
        process.terminate()
        await asyncio.wait_for(process.wait(), WAIT)
        await asyncio.wait_for(reader, WAIT)

    text = log.decode("utf-8", "replace")
    assert len(log) < 64 * 1024, f"{len(log)} bytes of log"
    assert "Traceback" not in text
    assert b"\x1b" not in log and b"\x07" not in log
    assert 1 <= text.count("dropped") <= 3  # once per interval, not once per connection
    forged_lines = [line for line in text.splitlines() if "FORGED" in line]
    assert len(forged_lines) == 1 and "game started" in forged_lines[0]
    assert "xterm\\n2026-01-01" in forged_lines[0] and "\\x1b[2J" in forged_lines[0]


class _Port:
    """Just enough of a GameServer for connect(): a port on 127.0.0.1."""

    def __init__(self, port: int) -> None:
        self.port = port



CRASHING_GAME = (
    sys.executable, "-c",
    "import sys, wom_tui.app as app; app.WomApp.on_mount = lambda self: 1 / 0; "
    "from wom_tui.serve.forkserver import main; sys.exit(main(sys.argv[1:]))",
)
"""A warm parent whose games are the real game, made to fail as it starts."""


async def test_a_failing_game_shows_an_apology_and_logs_the_details(
    start_server: ServerFactory, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="wom_tui.serve")
    server = await start_server(warm_command=CRASHING_GAME)
    terminal = await open_terminal(await connect(server, key=new_key()))
    await terminal.wait_closed()
    shown = " ".join(terminal.raw.decode("utf-8", "replace").split())
    assert "Sorry, something went wrong in the game and it had to stop." in shown
    assert "Traceback" not in shown and "ZeroDivisionError" not in shown and "wom_tui" not in shown
    await until(lambda: "ZeroDivisionError" in caplog.text)
    assert "game: Traceback" in caplog.text


async def test_seats_per_network_many_addresses_of_one_slash_24_do_not_take_every_seat(start_server: ServerFactory) -> None:
    """One client with several loopback addresses (127.0.0.2, .3, …: one /24) holds at most
    ``max_per_network`` seats; another /24 (127.0.1.x) still gets in."""
    server = await start_server(max_per_ip=1, max_per_network=3)
    for last in (2, 3, 4):
        seated = await open_terminal(await connect(server, local_addr=(f"127.0.0.{last}", 0)))
        await seated.wait_for_text(MENU_TEXT)
    fourth = await open_terminal(await connect(server, local_addr=("127.0.0.5", 0)))
    await fourth.wait_closed()
    assert "at most 3 games of World of Mastermind at once from one network" in fourth.text
    assert fourth.chan is not None and fourth.chan.get_exit_status() == 1
    elsewhere = await open_terminal(await connect(server, local_addr=("127.0.1.2", 0)))
    await elsewhere.wait_for_text(MENU_TEXT)
    assert sorted(session.host for session in server.sessions) == ["127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.1.2"]


def test_the_network_of_an_address() -> None:
    from wom_tui.serve.server import network_of

    assert network_of("203.0.113.77") == "203.0.113.0/24"
    assert network_of("::ffff:203.0.113.77") == "203.0.113.0/24"
    assert network_of("2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::/64"
    assert network_of("fe80::1%eth0") == "fe80::/64"
    assert network_of("?") == "?"


async def test_a_resize_storm_reaches_the_game_as_a_few_resizes_ending_on_the_last(
        start_server: ServerFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    from wom_tui.serve import session as session_module

    server = await start_server()
    terminal = await open_terminal(await connect(server))
    await terminal.wait_for_text(MENU_TEXT)
    told: list[tuple[int, int]] = []
    real = session_module.set_window_size

    def counting(fd: int, columns: int, rows: int, *pixels: int) -> None:
        told.append((columns, rows))
        real(fd, columns, rows, *pixels)

    monkeypatch.setattr(session_module, "set_window_size", counting)
    for step in range(50):  # a window dragged: 50 sizes in one go
        terminal.resize(60 + step, 20)
    await until(lambda: told[-1:] == [(109, 20)])
    assert len(told) <= 3, told
    terminal.type("x")
    await terminal.wait_closed()
