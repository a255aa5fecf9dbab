"""The page in a real browser: it loads with no outside request, and a guest plays a solo game to its end."""

from __future__ import annotations

import asyncio
import re

from playwright.async_api import Browser

from serve.conftest import until
from wom_tui.domain.daily import solo_share
from wom_tui.domain.store.folder.store import FolderStore
from serve.sshterm import MENU_TEXT, WAIT, ServerFactory
from wom_tui.serve.server import GameServer

from .conftest import open_tab

GAME_TEXT = "Your guess"


def page_url(server: GameServer) -> str:
    assert server.web is not None
    return f"http://127.0.0.1:{server.web.port}/"


async def test_the_page_loads_with_no_outside_request(start_server: ServerFactory, browser: Browser) -> None:
    server = await start_server(web="127.0.0.1:0")
    tab = await open_tab(browser, page_url(server))
    await tab.wait_for_text(MENU_TEXT)
    own = page_url(server)
    assert tab.requests, "no request seen"
    assert [url for url in tab.requests if not url.startswith(own) and not url.startswith(own.replace("http", "ws", 1))] == []
    assert any(url.endswith(".ttf") for url in tab.requests)  # the font, from us


async def test_a_guest_plays_a_solo_game_to_the_end_by_typing(start_server: ServerFactory, browser: Browser) -> None:
    server = await start_server(web="127.0.0.1:0")
    store = FolderStore(server.settings.data_dir)
    tab = await open_tab(browser, page_url(server), permissions=["clipboard-read", "clipboard-write"])
    await tab.wait_for_text("Playing as a guest")
    await tab.type("o")
    await tab.wait_for_text("Solo game")
    await tab.type("p")
    await tab.wait_until(lambda t: re.search(r"the hidden code is (\d+) symbols long", t.text) is not None)
    length = re.search(r"the hidden code is (\d+) symbols long", tab.text)
    assert length is not None, tab.text
    guesses = [str(digit) * int(length.group(1)) for digit in range(10)]
    for number, guess in enumerate(guesses, 1):
        await tab.type(guess)
        await tab.press("Enter")
        await tab.wait_until(lambda t, n=number: re.search(rf"^\W*{n}\s", t.text, re.MULTILINE) is not None
                             or bool(store.games()))
        if store.games():
            break
    await until(lambda: len(store.games()) == 1)
    (record,) = store.games()
    played = record.players[0].guesses
    assert [guess for guess, _feedback in played] == guesses[: len(played)]
    assert not record.players[0].is_user  # a guest's game: no points
    await tab.wait_until(lambda t: any(guess in t.text.replace(" ", "") for guess in guesses[len(played) - 1 : len(played)]))

    # The share grid goes to the browser's clipboard (Textual's OSC 52, textual.js's clipboard add-on).
    await tab.type("c")
    read_when_there = """async () => {
        for (;;) {
            const text = await navigator.clipboard.readText();
            if (text) return text;
            await new Promise(resolve => requestAnimationFrame(resolve));
        }
    }"""
    shared = await asyncio.wait_for(tab.page.evaluate(read_when_there), WAIT)
    assert shared == solo_share(record.ruleset, played, record.players[0].broke)
