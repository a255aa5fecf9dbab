"""A tab's session ends as an SSH one does: idle timeout, the goodbye on shutdown, the log lines, the seeds."""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path

import aiohttp
import pytest

from serve.conftest import ServeProcess, process_gone, until
from serve.sshterm import MENU_TEXT, WAIT, ServerFactory
from wom_tui.serve.server import ServeError
from wom_tui.serve.web import CLOSE_GAME_OVER

from .conftest import open_socket_tab


async def test_an_idle_tab_is_closed_with_the_idle_goodbye(start_server: ServerFactory, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="wom_tui.serve")
    server = await start_server(web="127.0.0.1:0", idle_timeout=3.0)  # room for the menu to be drawn on a busy machine
    assert server.web is not None
    async with aiohttp.ClientSession() as http:
        tab = await open_socket_tab(http, server)
        await tab.wait_for_text(MENU_TEXT)
        (session,) = server.web.sessions
        assert await tab.wait_closed() == CLOSE_GAME_OVER
        assert "closed this session after 3 seconds without a key press" in tab.raw.decode()
    await until(lambda: session.pid is not None and process_gone(session.pid))
    assert server.sessions == []
    lines = [record.getMessage() for record in caplog.records]
    assert any(line.startswith("web session #1: game started, pid") and "browser, seed" in line and line.endswith("guest")
               for line in lines)
    assert any(line.startswith("web session #1: session ended (idle)") for line in lines)


async def test_shutdown_says_goodbye_to_every_tab(start_server: ServerFactory) -> None:
    server = await start_server(web="127.0.0.1:0", seed=77)
    assert server.web is not None
    async with aiohttp.ClientSession() as http:
        tabs = [await open_socket_tab(http, server) for _ in range(2)]
        for tab in tabs:
            await tab.wait_for_text(MENU_TEXT)
        seeds = [session.game_settings.seed for session in server.web.sessions if session.game_settings]
        first = await start_server(web="127.0.0.1:0", seed=77, warm_command=None)
        assert seeds == [first.next_seed(), first.next_seed()]  # the server's seed decides each tab's, in order
        await server.close()
        for tab in tabs:
            assert await tab.wait_closed() == CLOSE_GAME_OVER
            assert "The World of Mastermind server is shutting down. Thanks for playing!" in tab.raw.decode()


async def test_wom_tui_serve_web_serves_the_page_and_stops_cleanly(tmp_path: Path) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "wom_tui", "serve", "--port", "0", "--web", "127.0.0.1:0", "--data-dir", str(tmp_path),
        stderr=asyncio.subprocess.PIPE,
    )
    served = ServeProcess(process)
    try:
        port = await served.number(r"web: listening on http://127\.0\.0\.1:(\d+)")
        await served.read_until(rf"or play in a browser at  http://127\.0\.0\.1:{port}/")
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{port}/") as page:
                assert page.status == 200 and "textual.js" in await page.text()
        process.terminate()
        assert await asyncio.wait_for(process.wait(), WAIT) == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def test_serve_refuses_to_start_when_the_web_address_is_taken(start_server: ServerFactory) -> None:
    first = await start_server(web="127.0.0.1:0", warm_command=None)
    assert first.web is not None
    with pytest.raises(ServeError, match="cannot listen for browsers on 127.0.0.1:"):
        await start_server(web=f"127.0.0.1:{first.web.port}", warm_command=None)
