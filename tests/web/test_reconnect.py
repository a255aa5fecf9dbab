"""A blink is not the end: a dropped websocket comes back to the same game, exactly where it was."""

from __future__ import annotations

from playwright.async_api import Browser

from serve.conftest import until
from serve.sshterm import MENU_TEXT, ServerFactory

from .conftest import open_tab
from .test_page import GAME_TEXT, page_url


async def test_a_dropped_websocket_reconnects_to_the_same_game(start_server: ServerFactory, browser: Browser) -> None:
    server = await start_server(web="127.0.0.1:0", seat_grace=60.0)
    assert server.web is not None
    tab = await open_tab(browser, page_url(server))
    await tab.wait_for_text(MENU_TEXT)
    await tab.type("o")
    await tab.wait_for_text("Solo game")
    await tab.type("p")
    await tab.wait_for_text(GAME_TEXT)
    await tab.type("1212")
    await tab.press("Enter")
    await tab.wait_until(lambda t: "1   2   1   2" in t.text or "1  2  1  2" in t.text)
    (session,) = server.web.sessions
    pid = session.pid

    await tab.page.evaluate("window.womSocket.close()")  # the connection blinks
    await until(lambda: not session.connected or len(tab.sockets) > 1)
    await tab.wait_until(lambda t: len(t.sockets) == 2 and GAME_TEXT in t.text)  # page.js reconnected
    await until(lambda: session.connected)
    await tab.wait_until(lambda t: "1   2   1   2" in t.text or "1  2  1  2" in t.text)  # the same board
    assert server.web.sessions == [session] and session.pid == pid and session.running
    assert len(server.sessions) == 1

    # A reload of the same tab, too, finds the same game.
    await tab.page.reload()
    await tab.wait_until(lambda t: len(t.sockets) == 3 and GAME_TEXT in t.text and ("1   2   1   2" in t.text or "1  2  1  2" in t.text))
    assert server.web.sessions == [session] and session.pid == pid
    # And the keyboard works at once after the reload, with no click (the page focused the terminal).
    await tab.type("3434")
    await tab.press("Enter")
    await tab.wait_until(lambda t: "3   4   3   4" in t.text or "3  4  3  4" in t.text)


async def test_a_tab_that_does_not_come_back_loses_its_game_after_the_seat_grace(
    start_server: ServerFactory, browser: Browser
) -> None:
    server = await start_server(web="127.0.0.1:0", seat_grace=0.5)
    assert server.web is not None
    tab = await open_tab(browser, page_url(server))
    await tab.wait_for_text(MENU_TEXT)
    await tab.type("?")  # played: the game is worth waiting for (a tab that never played ends at once)
    (session,) = server.web.sessions
    await until(lambda: session._pressed)
    await tab.page.close()
    await until(lambda: not session.running)
    assert server.sessions == [] and server.web.sessions == []
