"""The web door's limits against one client (issue 34): slow and unfinished requests, the descriptors kept for
SSH, malformed requests in the log, deep JSON on the websocket, and Host names (DNS rebinding)."""

from __future__ import annotations

import asyncio
import logging
import resource

import aiohttp
import pytest

from serve.conftest import until
from serve.sshterm import MENU_TEXT, ServerFactory, connect, open_terminal
from wom_tui.serve.web import CLOSE_BAD_MESSAGE, CLOSE_GAME_OVER

from .conftest import open_socket_tab
from .test_reports import lose_a_solo_game

SLOW_START = b"GET / HTTP/1.1\r\nHost: x\r\n"
"""A request whose headers never end (one more line every 30 s is how an attacker keeps it open)."""


async def _slow(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(SLOW_START)
    await writer.drain()
    return reader, writer


async def _closed(reader: asyncio.StreamReader) -> bool:
    """Wait until the server closes the connection (True), reading whatever it says first."""
    try:
        while await reader.read(4096):
            pass
    except ConnectionError:
        pass
    return True


async def test_unfinished_requests_are_capped_per_address_and_time_out(start_server: ServerFactory) -> None:
    server = await start_server(web="127.0.0.1:0", warm_command=None, web_header_timeout=1.0,
                                web_max_unfinished_per_ip=4)
    assert server.web is not None
    port = server.web.port
    slow = [await _slow(port) for _ in range(10)]
    # The six oldest were dropped to make room: one address holds at most four unfinished requests.
    for reader, _writer in slow[:6]:
        assert await asyncio.wait_for(_closed(reader), 5)
    await until(lambda: server.web is not None and server.web.guard.unfinished == 4)
    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}/") as page:
        assert page.status == 200  # a whole request still gets the page
    # The rest never finished their headers: closed after the header timeout.
    for reader, _writer in slow[6:]:
        assert await asyncio.wait_for(_closed(reader), 5)
    for _reader, writer in slow:
        writer.close()


async def test_web_connections_leave_descriptors_for_the_ssh_door(start_server: ServerFactory) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == hard and hard > 1024:
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, hard))
    server = await start_server(web="127.0.0.1:0", web_max_unfinished=1000, web_max_unfinished_per_ip=1000,
                                fd_reserve=10**9)  # every descriptor reserved: the web door may hold 16
    assert server.web is not None
    # The server raised its soft descriptor limit to the hard one at start.
    assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] == hard
    assert server.web.guard.max_open == 16
    held = [await _slow(server.web.port) for _ in range(16)]
    await until(lambda: server.web is not None and server.web.guard.open == 16)
    reader, writer = await _slow(server.web.port)
    assert await asyncio.wait_for(_closed(reader), 5)  # the 17th is closed at once
    terminal = await open_terminal(await connect(server))
    await terminal.wait_for_text(MENU_TEXT)  # SSH still gets in
    terminal.type("x")
    await terminal.wait_closed()
    for _reader, other in [*held, (reader, writer)]:
        other.close()


async def test_malformed_requests_log_one_line_each_kind_and_address(
        start_server: ServerFactory, caplog: pytest.LogCaptureFixture) -> None:
    server = await start_server(web="127.0.0.1:0", warm_command=None)
    assert server.web is not None
    caplog.set_level(logging.DEBUG)
    for _ in range(200):
        reader, writer = await asyncio.open_connection("127.0.0.1", server.web.port)
        writer.write(b"GET / HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n")
        await writer.drain()
        reply = await reader.read(4096)
        assert reply.startswith(b"HTTP/1.0 400")
        writer.close()
    lines = [record for record in caplog.records if "refused" in record.getMessage() or record.exc_info]
    assert len(lines) == 1, [record.getMessage() for record in lines]
    (line,) = lines
    assert line.exc_info is None and "127.0.0.1" in line.getMessage() and "bad request" in line.getMessage()
    assert server.web.refusals.total == 200


async def test_a_deep_or_malformed_websocket_message_closes_the_socket_with_one_line(
        start_server: ServerFactory, caplog: pytest.LogCaptureFixture) -> None:
    server = await start_server(web="127.0.0.1:0", max_per_ip=4)
    async with aiohttp.ClientSession() as http:
        tab = await open_socket_tab(http, server)
        await tab.wait_for_text(MENU_TEXT)
        await tab.socket.send_str("[" * 60_000)
        assert await tab.wait_closed() == CLOSE_BAD_MESSAGE
        other = await open_socket_tab(http, server)
        await other.wait_for_text(MENU_TEXT)
        await other.socket.send_str('["stdin", "unterminated')
        assert await other.wait_closed() == CLOSE_BAD_MESSAGE
    assert not any(record.exc_info for record in caplog.records)
    assert not any("RecursionError" in record.getMessage() for record in caplog.records)
    refused = [record for record in caplog.records if "websocket message" in record.getMessage()]
    assert len(refused) == 1  # one kind, one address, one minute


async def test_only_the_configured_host_names_are_answered(start_server: ServerFactory) -> None:
    server = await start_server(web="127.0.0.1:0", warm_command=None, web_origin=("https://play.example.org",))
    assert server.web is not None
    port = server.web.port
    base = f"http://127.0.0.1:{port}/"
    async with aiohttp.ClientSession() as http:
        for host, status in ((f"rebind.example:{port}", 421), ("rebind.example", 421), (f"127.0.0.1:{port}", 200),
                             (f"localhost:{port}", 200), ("play.example.org", 200), ("PLAY.example.org.:443", 200)):
            async with http.get(base, headers={"Host": host}) as page:
                assert page.status == status, host
                assert page.headers["X-Frame-Options"] == "DENY"
        async with http.get(base + "signin", headers={"Host": f"rebind.example:{port}"}) as form:
            assert form.status == 421
        # A page on rebind.example whose name now points at the server: its websocket names rebind.example.
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(f"ws://127.0.0.1:{port}/ws/{'x' * 32}?width=80&height=24",
                                  headers={"Host": f"rebind.example:{port}", "Origin": f"http://rebind.example:{port}"})
        assert refused.value.status == 421
    assert server.web.sessions == []


async def test_tabs_without_a_seat_at_a_table_free_their_seats_at_once(start_server: ServerFactory) -> None:
    server = await start_server(web="127.0.0.1:0", max_per_ip=4, seat_grace=120.0)
    assert server.web is not None
    async with aiohttp.ClientSession() as http:
        tabs = [await open_socket_tab(http, server) for _ in range(4)]
        await until(lambda: server.web is not None and len(server.web.sessions) == 4)
        for tab in tabs:
            await tab.socket.close()
        # Nothing to resume (no key pressed): no game waits out the seat grace, and the address is not kept out.
        await until(lambda: server.sessions == [])
        # A tab that played a solo game and is back at the menu has no seat at a table either: its game ends
        # with its socket (the solo game was the store's to keep).
        again = await open_socket_tab(http, server)
        await again.wait_for_text(MENU_TEXT)
        await lose_a_solo_game(again)
        await again.type("\x1b")
        await again.wait_for_text("p Play")
        await again.type("\x1b")
        await again.wait_for_text(MENU_TEXT)
        (session,) = server.web.sessions
        assert not session.at_table
        await again.socket.close()
        await until(lambda: server.sessions == [])  # no seat held: the address's four are free again
        assert not session.running


async def test_arrow_keys_at_a_table_do_not_keep_a_tab_open(start_server: ServerFactory) -> None:
    # A server of its own: a 3 s idle timeout and the computers at once (as the SSH door's test).
    server = await start_server(web="127.0.0.1:0", idle_timeout=3.0, fill_after=0.0)
    assert server.web is not None
    async with aiohttp.ClientSession() as http:
        tab = await open_socket_tab(http, server)
        await tab.wait_for_text(MENU_TEXT)
        await tab.type("q")
        await tab.wait_for_text("Your code")
        (session,) = server.web.sessions
        await until(lambda: session.at_table)
        for _ in range(80):  # up to 20 s of arrow keys, 4 a second, while the table waits for this code
            if tab.close_code is not None:
                break
            await tab.type("\x1b[A")
            await asyncio.sleep(0.25)  # a person's pace, not a wait for a result
        assert await tab.wait_closed() == CLOSE_GAME_OVER
        assert "Your table waited 3 seconds for your move" in " ".join(tab.text.split())


async def test_an_endless_paste_is_cut_and_does_not_keep_the_game_awake(start_server: ServerFactory) -> None:
    server = await start_server(web="127.0.0.1:0", idle_timeout=3.0)
    assert server.web is not None
    async with aiohttp.ClientSession() as http:
        tab = await open_socket_tab(http, server)
        await tab.wait_for_text(MENU_TEXT)
        (session,) = server.web.sessions
        await tab.type("\x1b[200~")  # a paste that never ends
        chunk = "x" * 32 * 1024
        sent = 0
        while tab.close_code is None and sent < 400:  # at most 12.5 MiB, a chunk every 50 ms (~20 s)
            await tab.type(chunk)
            sent += 1
            await asyncio.sleep(0.05)  # pacing the client that pastes, not waiting for a result
        # The paste was cut at max_paste, and what was dropped did not count as a key press: the idle
        # timeout ended the game while the client still "typed".
        assert await tab.wait_closed() > 0
        assert session._throttle.pastes_cut == 1
        assert sent < 400
        assert "without a key press" in tab.text


async def test_a_resize_storm_reaches_the_game_as_a_few_resizes_ending_on_the_last(start_server: ServerFactory) -> None:
    server = await start_server(web="127.0.0.1:0")
    assert server.web is not None
    async with aiohttp.ClientSession() as http:
        tab = await open_socket_tab(http, server)
        await tab.wait_for_text(MENU_TEXT)
        (session,) = server.web.sessions
        told: list[tuple[int, int]] = []
        meta = session._meta

        async def counting(data: dict[str, object]) -> None:
            if data.get("type") == "resize":
                told.append((int(data["width"]), int(data["height"])))  # type: ignore[call-overload]
            await meta(data)

        session._meta = counting  # type: ignore[method-assign]
        for step in range(50):  # a window dragged: 50 sizes at once (within the message throttle's burst)
            await tab.socket.send_json(["resize", {"width": 60 + step, "height": 20}])
        await until(lambda: session._size == (109, 20))
        assert told[-1] == (109, 20)  # the last size wins
        assert len(told) <= 3, told  # the game laid its screen out a few times, not fifty
