"""Line mode in a browser (``/line`` on ``--web``; issue 36): a plain HTML page, a form and an ARIA live
region, for screen readers and braille displays. axe-core (vendored, ``tests/web/vendor``) finds nothing
wrong with it; a guest plays a solo game by keyboard alone, the live region announcing each result; and
the web door's limits hold for it.

Its servers start no warm parent (``NO_GAME``): a line tab's session runs in the server's own process.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
from pathlib import Path

import aiohttp
from playwright.async_api import Browser, Page

from serve.conftest import NO_GAME, until
from serve.sshterm import WAIT, ServerFactory
from wom_tui.domain.codes import feedback
from wom_tui.domain.store.folder.store import FolderStore
from wom_tui.serve.server import GameServer

AXE = Path(__file__).parent / "vendor" / "axe.min.js"


def line_url(server: GameServer) -> str:
    assert server.web is not None
    return f"http://127.0.0.1:{server.web.port}/line"


async def said(page: Page) -> list[str]:
    """The lines in the live region, oldest first (the game's: not the echo of what was typed)."""
    return await page.eval_on_selector_all("#line-log p:not(.typed)", "items => items.map(item => item.textContent)")


async def wait_said(page: Page, pattern: str, after: int = 0) -> re.Match[str]:
    """Wait until a line of the live region (from line ``after`` on) matches ``pattern``; that match."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while True:
        for line in (await said(page))[after:]:
            found = re.search(pattern, line)
            if found:
                return found
        if loop.time() > deadline:
            raise AssertionError(f"no line matching {pattern!r}; the live region:\n" + "\n".join(await said(page)))
        await page.wait_for_timeout(20)  # Playwright's poll: the page's DOM has no event to await here


async def axe_violations(page: Page) -> list[dict[str, object]]:
    """axe-core's violations on the page (the vendored script, given to the page by Playwright)."""
    if not await page.evaluate("typeof window.axe !== 'undefined'"):
        await page.evaluate(AXE.read_text(encoding="utf-8"))
    result = await page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.html)}))")
    return list(result)


def consistent(symbols: str, length: int, history: list[tuple[str, tuple[int, int]]]) -> str:
    """The first code that fits every answer so far (a player who reasons as the coach does)."""
    for code in itertools.product(symbols, repeat=length):
        guess = "".join(code)
        if all(tuple(feedback(old, guess))[:2] == answer for old, answer in history):
            return guess
    raise AssertionError(f"no code fits {history}")


async def test_a_guest_plays_solo_on_the_line_page_by_keyboard_alone(start_server: ServerFactory,
                                                                      browser: Browser, tmp_path: Path) -> None:
    server = await start_server(web="127.0.0.1:0", warm_command=NO_GAME)
    store = FolderStore(server.settings.data_dir)
    context = await browser.new_context(viewport={"width": 900, "height": 700})
    page = await context.new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    await page.goto(line_url(server))
    await wait_said(page, r"line mode\. You are a guest")
    # The page gives its field the keyboard itself: nobody clicks or focuses it.
    assert await page.evaluate("document.activeElement.id") == "line-input"
    log = page.locator("#line-log")
    assert await log.get_attribute("role") == "log" and await log.get_attribute("aria-live") == "polite"
    assert await page.locator("label[for=line-input]").inner_text() == "Your guess or command"
    assert await page.locator("canvas, .xterm").count() == 0

    assert await axe_violations(page) == [], "axe-core: nothing wrong on the page as it opens"

    await page.keyboard.type("solo classic")
    await page.keyboard.press("Enter")
    rules = await wait_said(page, r"Solo game: (\d+) pegs of ([A-Z0-9 ]+), repeats allowed, (\d+) guesses")
    length, symbols, allowed = int(rules.group(1)), rules.group(2).replace(" ", ""), int(rules.group(3))
    history: list[tuple[str, tuple[int, int]]] = []
    for number in range(1, allowed + 1):
        before = len(await said(page))
        guess = consistent(symbols, length, history)
        await page.keyboard.type(guess.lower() if number % 2 else guess)  # either case is the same guess
        await page.keyboard.press("Enter")
        line = await wait_said(page, rf"^Guess {number}: ([A-Z0-9 ]+) — (.*)$", after=before)
        assert line.group(1).replace(" ", "") == guess, "the live region says the guess as typed, in words"
        words = line.group(2)
        if words.startswith(f"all {length} right place"):
            break
        black = 0 if words.startswith("nothing") else int(re.search(r"(\d+) right place", words).group(1))
        white = 0 if words.startswith("nothing") else int(re.search(r"(\d+) right colour", words).group(1))
        history.append((guess, (black, white)))
        assert await page.evaluate("document.activeElement.id") == "line-input", "the field keeps the keyboard"
    await wait_said(page, r"Type share for the share line")
    await until(lambda: len(store.games()) == 1)
    (record,) = store.games()
    assert [guess for guess, _ in record.players[0].guesses][: len(history)] == [guess for guess, _ in history]

    before = len(await said(page))
    await page.keyboard.type("share")
    await page.keyboard.press("Enter")
    share = await wait_said(page, r"^Mastermind solo · .*Right place and right colour per guess: ", after=before)
    assert "R" not in share.string.split("per guess:")[1], "the share line gives counts, never a code"

    await page.screenshot(path=str(tmp_path / "line_page.png"))  # to look at: pytest --basetemp=DIR
    assert await axe_violations(page) == [], "axe-core: nothing wrong after a whole game"
    await page.evaluate("document.querySelectorAll('link[rel=stylesheet]').forEach(link => link.remove())")
    assert await axe_violations(page) == [], "nor without the stylesheet"
    own = f"http://127.0.0.1:{server.web.port}/"
    assert [url for url in requests if not url.startswith(own)] == [], "no outside request"
    await context.close()


async def test_the_line_socket_keeps_the_web_doors_limits(start_server: ServerFactory) -> None:
    """The same caps as a terminal tab (one game per address here), the same throttle, a message too big
    closes the socket, the Origin must be the page's, and a typed escape code never comes back."""
    server = await start_server(web="127.0.0.1:0", warm_command=NO_GAME, max_per_ip=1)
    base = f"ws://127.0.0.1:{server.web.port}/line/ws/"
    origin = {"Origin": f"http://127.0.0.1:{server.web.port}"}
    async with aiohttp.ClientSession() as http:
        async with http.get(line_url(server)) as response:
            page = await response.text()
        assert 'role="log"' in page and "Content-Security-Policy" in response.headers
        async with http.get(line_url(server).removesuffix("line")) as response:
            assert '<a class="wom-line-link" href="/line">' in await response.text(), \
                "the terminal's page leads a screen reader to line mode first"
        try:
            await http.ws_connect(base + "A" * 32, headers={"Origin": "http://evil.example"})
        except aiohttp.WSServerHandshakeError as refused:
            assert refused.status == 403, "another site's page cannot open it"
        else:
            raise AssertionError("a socket from another site's page was let in")
        first = await http.ws_connect(base + "B" * 32, headers=origin)
        greeting = json.loads((await first.receive()).data)
        assert greeting[0] == "line" and "line mode" in greeting[1]
        second = await http.ws_connect(base + "C" * 32, headers=origin)
        turned_away = [json.loads(message.data) async for message in second if message.type == aiohttp.WSMsgType.TEXT]
        assert "at most 1 game of World of Mastermind at once from one address" in turned_away[0][1]
        assert turned_away[-1][0] == "goodbye" and second.close_code == 4000
        await first.send_json(["line", "<b>solo</b>\x1b[2J"])
        answer = json.loads((await first.receive()).data)[1]
        assert "\x1b" not in answer
        for _ in range(6):  # a paste machine: 1,200 keys' worth of lines at once, past a terminal tab's burst
            await first.send_json(["line", "x" * 199])
        while "faster than anyone types" not in json.loads((await first.receive()).data)[1]:
            pass
        await first.send_str(json.dumps(["line", "x" * 5000]))
        async for _message in first:  # what was said before, then the close
            pass
        assert first.close_code == aiohttp.WSCloseCode.MESSAGE_TOO_BIG
        await first.close()
    # The socket went, not the session: it waits the seat grace for the tab to come back, as a terminal tab's.
    (kept,) = server.web.line_sessions
    await until(lambda: not kept.connected)
    assert kept.running


async def test_a_signed_in_browser_plays_line_mode_as_its_name(start_server: ServerFactory) -> None:
    """The identity is the browser's session cookie, looked up by the server (as the terminal page's)."""
    from wom_tui.serve.web_auth import COOKIE

    from .test_signin import TOKEN, FakeSignIn

    server = await start_server(web="127.0.0.1:0", warm_command=NO_GAME)
    FolderStore(server.settings.data_dir).register("Ann")
    assert server.web is not None
    server.web.sign_in = FakeSignIn()  # type: ignore[assignment]
    own = {"Origin": f"http://127.0.0.1:{server.web.port}", "Cookie": f"{COOKIE}={TOKEN}"}
    async with aiohttp.ClientSession() as http:
        async with http.get(line_url(server), headers=own) as response:
            assert "Signed in as Ann." in await response.text()
        socket = await http.ws_connect(f"ws://127.0.0.1:{server.web.port}/line/ws/" + "D" * 32, headers=own)
        greeting = json.loads((await socket.receive()).data)[1]
        assert "You are Ann." in greeting
        (tab,) = server.web.line_sessions
        assert tab.name == "Ann" and tab.session is not None and tab.session.identity.name == "Ann"
        await socket.send_json(["line", "quit"])
        async for _message in socket:
            pass
        assert socket.close_code == 4002, "quit ends the session: the page says the game has ended"
    await until(lambda: not server.web.line_sessions and not server.sessions)


async def test_a_blink_of_the_line_socket_finds_the_same_game(start_server: ServerFactory) -> None:
    """The socket drops mid-game (a blink, a reload): the tab's token finds its session, and its game, again."""
    server = await start_server(web="127.0.0.1:0", warm_command=NO_GAME)
    assert server.web is not None
    url = f"ws://127.0.0.1:{server.web.port}/line/ws/" + "E" * 32
    own = {"Origin": f"http://127.0.0.1:{server.web.port}"}

    async def next_line(socket: aiohttp.ClientWebSocketResponse, pattern: str) -> str:
        while True:
            line = json.loads((await socket.receive()).data)[1]
            if re.search(pattern, line):
                return line

    async with aiohttp.ClientSession() as http:
        socket = await http.ws_connect(url, headers=own)
        await next_line(socket, "line mode")
        await socket.send_json(["line", "solo classic"])
        await next_line(socket, "Solo game")
        await socket.send_json(["line", "RRGG"])
        await next_line(socket, "^Guess 1: R R G G")
        await socket.close()
        (tab,) = server.web.line_sessions
        await until(lambda: not tab.connected)
        again = await http.ws_connect(url, headers=own)
        await again.send_json(["line", "board"])
        assert (await next_line(again, "^Guess 1")).startswith("Guess 1: R R G G"), "the same game, where it was"
        assert server.web.line_sessions == [tab]
        await again.close()
