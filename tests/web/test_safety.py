"""The browser door on the open web: Origin, headers, routes, the caps and the throttle of SSH sessions."""

from __future__ import annotations

from pathlib import Path

import aiohttp
import pytest
from playwright.async_api import Browser

from serve.conftest import until
from serve.sshterm import MENU_TEXT, ServerFactory, connect, new_key, open_terminal
from wom_tui.serve.web import CLOSE_REFUSED, CONTENT_SECURITY_POLICY

from .conftest import open_socket_tab
from .test_page import page_url


async def test_a_page_from_another_origin_cannot_open_the_websocket(start_server: ServerFactory, browser: Browser) -> None:
    server = await start_server(web="127.0.0.1:0")
    assert server.web is not None
    target = f"ws://127.0.0.1:{server.web.port}/ws/{'x' * 32}?width=80&height=24"
    page = await (await browser.new_context()).new_page()
    # Another site's page (served by the test, never fetched) tries to open a game with the visitor's browser.
    evil = (
        "<!DOCTYPE html><html><body><script>"
        f"const s = new WebSocket({target!r});"
        "s.onopen = () => { document.title = 'opened'; };"
        "s.onclose = (e) => { document.title = 'closed ' + e.code; };"
        "</script></body></html>"
    )
    await page.route("http://elsewhere.example/", lambda route: route.fulfill(body=evil, content_type="text/html"))
    await page.goto("http://elsewhere.example/")
    await page.wait_for_function("document.title.startsWith('closed')")
    assert await page.title() == "closed 1006"  # refused at the handshake (403)
    assert server.sessions == [] and server.web.sessions == []


async def test_a_websocket_with_a_wrong_origin_is_refused_and_a_configured_one_is_let_in(start_server: ServerFactory) -> None:
    server = await start_server(web="127.0.0.1:0", web_origin=("https://play.example.org",))
    async with aiohttp.ClientSession() as http:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await open_socket_tab(http, server, origin="http://elsewhere.example")
        assert refused.value.status == 403
        tab = await open_socket_tab(http, server, origin="https://play.example.org")
        await tab.wait_for_text(MENU_TEXT)
        await tab.socket.close()


async def test_the_page_has_security_headers_and_there_is_no_other_route(start_server: ServerFactory) -> None:
    server = await start_server(web="127.0.0.1:0", warm_command=None)
    base = page_url(server)
    async with aiohttp.ClientSession() as http:
        async with http.get(base) as page:
            assert page.status == 200
            assert page.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
            assert "script-src 'self'" in CONTENT_SECURITY_POLICY and "frame-ancestors 'none'" in CONTENT_SECURITY_POLICY
            assert page.headers["X-Frame-Options"] == "DENY"
            assert page.headers["X-Content-Type-Options"] == "nosniff"
            text = await page.text()
            assert "<script>" not in text and "googleapis" not in text
        async with http.get(base + "livez") as live:
            assert live.status == 200
        for path in ("static/", "static/js/", "static/wom/", "admin", "static/../pyproject.toml", "download/x",
                     "static/%2e%2e/app_service.py", "ws/short"):
            async with http.get(base + path) as response:
                assert response.status in (403, 404), path
                assert response.headers["X-Frame-Options"] == "DENY", path
        async with http.get(base + "static/js/textual.js") as script:
            assert script.status == 200


async def test_tabs_count_in_the_same_seats_as_ssh_sessions(start_server: ServerFactory) -> None:
    server = await start_server(web="127.0.0.1:0", max_sessions=2, max_per_ip=8)
    async with aiohttp.ClientSession() as http:
        terminal = await open_terminal(await connect(server))
        await terminal.wait_for_text(MENU_TEXT)
        tab = await open_socket_tab(http, server)
        await tab.wait_for_text(MENU_TEXT)
        assert len(server.sessions) == 2
        full = await open_socket_tab(http, server)
        assert await full.wait_closed() == CLOSE_REFUSED
        assert "all 2 seats of World of Mastermind are taken" in full.text
        late = await open_terminal(await connect(server))
        await late.wait_closed()
        assert "all 2 seats" in late.text
        terminal.type("x")  # the SSH player leaves: a seat for the next tab
        await until(lambda: len(server.sessions) == 1)
        again = await open_socket_tab(http, server)
        await again.wait_for_text(MENU_TEXT)


async def test_tabs_from_one_address_are_capped_and_their_typing_throttled(start_server: ServerFactory) -> None:
    server = await start_server(web="127.0.0.1:0", max_per_ip=1)
    assert server.web is not None
    async with aiohttp.ClientSession() as http:
        tab = await open_socket_tab(http, server)
        await tab.wait_for_text(MENU_TEXT)
        second = await open_socket_tab(http, server)
        assert await second.wait_closed() == CLOSE_REFUSED
        assert "at most 1 game of World of Mastermind at once from one address" in second.text
        (session,) = server.web.sessions
        await tab.type("?" * 5000)  # faster than any person types
        await until(lambda: session.input_dropped > 0)
        assert session.input_dropped >= 5000 - 600 - 10
        for width in range(300):  # a resize storm: each would make the game lay its screen out again
            await tab.socket.send_json(["resize", {"width": 40 + width % 2, "height": 20}])
        await until(lambda: session._other_messages.dropped >= 300 - 60 - 10)


async def test_forwarded_addresses_count_only_from_a_trusted_proxy(start_server: ServerFactory) -> None:
    untrusted = await start_server(web="127.0.0.1:0", max_per_ip=1)
    async with aiohttp.ClientSession() as http:
        one = await open_socket_tab(http, untrusted, headers={"X-Forwarded-For": "203.0.113.1"})
        await one.wait_for_text(MENU_TEXT)
        two = await open_socket_tab(http, untrusted, headers={"X-Forwarded-For": "203.0.113.2"})
        assert await two.wait_closed() == CLOSE_REFUSED  # the header is anybody's to send: ignored
    proxied = await start_server(web="127.0.0.1:0", max_per_ip=1, trusted_proxy=("127.0.0.0/8",))
    assert proxied.web is not None
    async with aiohttp.ClientSession() as http:
        tabs = [await open_socket_tab(http, proxied, headers={"X-Forwarded-For": f"198.51.100.7, 203.0.113.{n}"})
                for n in (1, 2)]
        for tab in tabs:
            await tab.wait_for_text(MENU_TEXT)
        assert sorted(session.host for session in proxied.web.sessions) == ["203.0.113.1", "203.0.113.2"]
        third = await open_socket_tab(http, proxied, headers={"X-Forwarded-For": "203.0.113.2"})
        assert await third.wait_closed() == CLOSE_REFUSED


@pytest.mark.parametrize("closed", ["no_guests", "authorized_keys"])
async def test_a_server_without_guests_turns_away_a_tab_that_is_not_signed_in(
    start_server: ServerFactory, tmp_path: Path, closed: str
) -> None:
    keys = tmp_path / "authorized_keys"
    keys.write_text(new_key().export_public_key().decode())
    option: dict[str, object] = {"no_guests": True} if closed == "no_guests" else {"authorized_keys": keys}
    server = await start_server(web="127.0.0.1:0", warm_command=None, **option)
    async with aiohttp.ClientSession() as http:
        tab = await open_socket_tab(http, server)
        assert await tab.wait_closed() == CLOSE_REFUSED
        assert "only lets in signed-in players" in tab.raw.decode()
    assert server.sessions == []
