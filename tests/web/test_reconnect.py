"""A blink is not the end for a seat at a table: a dropped websocket comes back to the same game, exactly where
it was. Anything else (the menu, a solo game) has nothing to wait for: its game ends with the socket."""

from __future__ import annotations

import secrets

import aiohttp
import pytest
from playwright.async_api import Browser

from serve.conftest import until
from serve.sshterm import MENU_TEXT, ServerFactory
from wom_tui.domain.browser import hash_session_token, new_session_token
from wom_tui.domain.store.folder.store import FolderStore
from wom_tui.serve.web_auth import COOKIE

from .conftest import open_socket_tab, open_tab
from .test_page import page_url


async def _seated_tab(server, browser: Browser):
    """A guest's tab quick matched with a computer (at once: ``fill_after`` 0), its code set, breaking HAL's."""
    tab = await open_tab(browser, page_url(server))
    await tab.wait_for_text(MENU_TEXT)
    await tab.type("q")
    await tab.wait_for_text("Your code")
    await tab.type("RGBY")
    await tab.press("Enter")
    await tab.wait_for_text("Break the code")
    assert server.web is not None
    (session,) = server.web.sessions
    await until(lambda: session.at_table)  # the game told the server it holds a seat at a table
    return tab, session


async def test_a_dropped_websocket_at_a_table_reconnects_to_the_same_game(
    start_server: ServerFactory, browser: Browser
) -> None:
    server = await start_server(web="127.0.0.1:0", seat_grace=60.0, fill_after=0.0)
    assert server.web is not None
    tab, session = await _seated_tab(server, browser)
    await tab.type("RRGG")
    await tab.press("Enter")
    await tab.wait_for_text("Guest 1 (guest)  1/10")
    pid = session.pid

    await tab.page.evaluate("window.womSocket.close()")  # the connection blinks
    await until(lambda: not session.connected or len(tab.sockets) > 1)
    await tab.wait_until(lambda t: len(t.sockets) == 2 and "Break the code" in t.text)  # page.js reconnected
    await until(lambda: session.connected)
    await tab.wait_for_text("Guest 1 (guest)  1/10")  # the same table, the same guesses
    assert server.web.sessions == [session] and session.pid == pid and session.running
    assert len(server.sessions) == 1

    # A reload of the same tab, too, finds the same game.
    await tab.page.reload()
    await tab.wait_until(lambda t: len(t.sockets) == 3 and "Guest 1 (guest)  1/10" in t.text)
    assert server.web.sessions == [session] and session.pid == pid
    # And the keyboard works at once after the reload, with no click (the page focused the terminal).
    await tab.type("BBYY")
    await tab.press("Enter")
    await tab.wait_for_text("Guest 1 (guest)  2/10")


async def test_a_tab_at_a_table_that_does_not_come_back_loses_its_game_after_the_seat_grace(
    start_server: ServerFactory, browser: Browser
) -> None:
    server = await start_server(web="127.0.0.1:0", seat_grace=0.5, fill_after=0.0)
    assert server.web is not None
    tab, session = await _seated_tab(server, browser)
    await tab.page.close()
    await until(lambda: not session.connected)
    assert session.running  # waiting the seat grace for the tab
    await until(lambda: not session.running)
    assert server.sessions == [] and server.web.sessions == []


@pytest.mark.parametrize("same_tab", [False, True], ids=["another-tab", "same-tab"])
async def test_a_signed_in_tab_opened_as_the_last_one_ends_its_game_gets_a_game_of_its_own(
    start_server: ServerFactory, monkeypatch: pytest.MonkeyPatch, same_tab: bool,
) -> None:
    """The sign-in page leads to the game's page, and the player closes it and opens another tab, or goes to the
    sign-in page and back in the same tab: the game left at the menu (nothing to wait for) is ending, and the
    tab must not take that dying game over (it read nothing then: the game's goodbye, without a frame). The
    dying game's hang-up is held back to make the moment as long as a loaded machine makes it."""
    server = await start_server(web="127.0.0.1:0")
    store = FolderStore(server.settings.data_dir)
    store.register("Ada")
    token = new_session_token()
    store.redeem_browser_code(store.issue_browser_code("Ada"), hash_session_token(token), "127.0.0.1")
    cookie = {"Cookie": f"{COOKIE}={token}"}
    assert server.web is not None
    async with aiohttp.ClientSession() as http:
        tab = secrets.token_urlsafe(24)
        first = await open_socket_tab(http, server, tab=tab, headers=cookie)
        await first.wait_for_text(MENU_TEXT)
        (dying,) = server.web.sessions
        hang_up = dying._hang_up
        monkeypatch.setattr(dying, "_hang_up", lambda: None)  # told to end; its game not stopped yet
        try:
            await first.socket.close()
            await until(lambda: dying.ending)
            second = await open_socket_tab(http, server, tab=tab if same_tab else None, headers=cookie)
            await second.wait_for_text(MENU_TEXT)
            await second.wait_for_text("Ada")
            assert dying.running and not dying.connected  # still ending, and not this tab's game
        finally:
            hang_up()
        await until(lambda: not dying.running)
        (playing,) = server.web.sessions
        assert playing is not dying and playing.running
        await second.type("x")
        await second.wait_closed()
