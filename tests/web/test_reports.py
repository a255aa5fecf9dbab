"""A browser tab is logged and counted as an SSH session is: its sign-in, refusals and end, the web series
in /metrics, the games it finished; and what its game reports is counted, never logged as an error."""

from __future__ import annotations

import logging

import aiohttp
import pytest

from serve.conftest import until
from serve.sshterm import MENU_TEXT, ServerFactory
from serve.test_metrics import scrape, value
from wom_tui.serve.events import FIELDS

from .conftest import SocketTab, open_socket_tab


async def lose_a_solo_game(tab: SocketTab) -> None:
    """From the menu: a solo game of ten wrong guesses, to its end (the game is recorded)."""
    await tab.type("o")
    await tab.wait_for_text("Solo game")
    await tab.type("p")
    await tab.wait_for_text("Guess #1")
    for number in range(2, 11):
        await tab.type("9999\r")
        await tab.wait_for_text(f"Guess #{number}")
    await tab.type("9999\r")
    await tab.wait_for_text("Out of guesses")


async def test_a_tab_is_logged_and_counted_as_an_ssh_session(
    start_server: ServerFactory, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="wom_tui.serve")
    server = await start_server(web="127.0.0.1:0", metrics="127.0.0.1:0", max_per_ip=1)
    assert server.web is not None and server.health is not None
    async with aiohttp.ClientSession() as http:
        tab = await open_socket_tab(http, server)
        await tab.wait_for_text(MENU_TEXT)
        refused = await open_socket_tab(http, server)  # one game per address here: the second tab is turned away
        assert await refused.wait_closed() == 4000
        await lose_a_solo_game(tab)
        await tab.type("\x1b")
        await tab.wait_for_text("p Play")
        await tab.type("\x1b")
        await tab.wait_for_text(MENU_TEXT)
        await tab.type("x")
        await tab.wait_closed()
    await until(lambda: server.sessions == [])
    samples = await scrape(server.health.port)
    assert value(samples, "wom_sign_ins_total", transport="web", outcome="guest") == 2
    assert value(samples, "wom_refusals_total", transport="web", reason="address") == 1
    assert value(samples, "wom_sessions_total", transport="web", kind="guest") == 1
    assert value(samples, "wom_sessions_open", transport="web", kind="guest") == 0
    assert value(samples, "wom_session_to_menu_seconds_count", transport="web") == 1
    assert value(samples, "wom_games_started_total", kind="solo") == 1
    assert value(samples, "wom_games_finished_total", kind="solo") == 1

    fields = [getattr(record, FIELDS, {}) for record in caplog.records]
    events = {(entry.get("event"), entry.get("transport")) for entry in fields}
    assert {("sign_in", "web"), ("refusal", "web"), ("session_end", "web"), ("game_process", "web")} <= events
    end = next(entry for entry in fields if entry.get("event") == "session_end")
    assert end["reason"] == "game quit" and end["session"] == "1" and end["status"] == 0
    refusal = next(entry for entry in fields if entry.get("event") == "refusal")
    assert refusal["reason"] == "address" and "at most 1 game" in refusal["detail"]
    # What the game reported (its menu, the game started and finished, the store's times) is no error.
    errors = [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR]
    assert errors == []
    lines = [record.getMessage() for record in caplog.records]
    assert any(line.startswith("web session #1: session ended (game quit)") for line in lines)
