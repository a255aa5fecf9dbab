"""The page as a person finds it, on a phone (390x844, touch) and a desktop (1280x800): the keyboard works at
once, every refusal and goodbye is readable on the page with what to do next, a character is readable, and a
game can be played with the on-screen keys alone. Screenshots go to $WOM_WEB_SHOTS when it is set (to look at).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import aiohttp
import pytest
from playwright.async_api import Browser, BrowserContext, Page

from serve.sshterm import MENU_TEXT, WAIT, ServerFactory
from wom_tui.screens.menu import MENU

from .conftest import Tab, open_socket_tab
from .test_page import page_url

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 1, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}


async def shot(page: Page, name: str) -> None:
    """A screenshot to look at (in $WOM_WEB_SHOTS, if set)."""
    folder = os.environ.get("WOM_WEB_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(Path(folder) / f"{name}.png"))


async def new_tab(context: BrowserContext, url: str) -> Tab:
    page = await context.new_page()
    tab = Tab(page)
    await page.goto(url)
    await page.wait_for_selector("body.-first-byte", timeout=WAIT * 1000)
    return tab


def highlighted(tab: Tab, entry: str) -> bool:
    """Whether the menu's ``entry`` is the highlighted one (its background differs from Quit's)."""
    rows: dict[str, tuple[int, int]] = {}
    for y, line in enumerate(tab.screen.display):  # the menu's Quit, not the footer's
        for text in (entry, "Quit"):
            if text in line and text not in rows:
                rows[text] = (y, line.index(text))
    if len(rows) < 2:
        return False
    (y, x), (qy, qx) = rows[entry], rows["Quit"]
    return bool(tab.screen.buffer[y][x].bg != tab.screen.buffer[qy][qx].bg)


@pytest.mark.parametrize("device", [PHONE, DESKTOP], ids=["phone", "desktop"])
async def test_a_refused_tab_says_why_and_what_to_do_on_the_page(
    start_server: ServerFactory, browser: Browser, device: dict
) -> None:
    server = await start_server(web="127.0.0.1:0", max_per_ip=1)
    async with aiohttp.ClientSession() as http:
        first = await open_socket_tab(http, server)  # this address's one game
        await first.wait_for_text(MENU_TEXT)
        context = await browser.new_context(**device)
        tab = await new_tab(context, page_url(server))
        await tab.page.wait_for_selector("body.-closed", timeout=WAIT * 1000)
        dialog = tab.page.locator(".closed-dialog")
        await dialog.get_by_text("at most 1 game of World of Mastermind at once from one address").wait_for()
        assert await dialog.get_by_text("End a game in another tab or terminal, then press Restart.").is_visible()
        assert await dialog.get_by_role("button", name="Restart").is_visible()
        box = await dialog.locator(".intro").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= device["viewport"]["width"]
        await shot(tab.page, f"refused-{'phone' if device is PHONE else 'desktop'}")
        await first.socket.close()
        await context.close()


async def test_the_goodbye_after_quitting_is_on_the_page(start_server: ServerFactory, browser: Browser) -> None:
    server = await start_server(web="127.0.0.1:0")
    context = await browser.new_context(**DESKTOP)
    tab = await new_tab(context, page_url(server))
    await tab.wait_for_text(MENU_TEXT)
    await tab.type("x")  # no click first: the page gave the terminal the keyboard
    await tab.page.wait_for_selector("body.-closed", timeout=WAIT * 1000)
    dialog = tab.page.locator(".closed-dialog")
    await dialog.get_by_text("Thank you for playing the World of Mastermind!").wait_for()
    assert await dialog.get_by_text("Press Restart to play again.").is_visible()
    await shot(tab.page, "goodbye-desktop")
    await context.close()


async def test_a_phone_gets_readable_characters_and_plays_by_touch_alone(
    start_server: ServerFactory, browser: Browser
) -> None:
    server = await start_server(web="127.0.0.1:0")
    assert server.web is not None
    context = await browser.new_context(**PHONE)
    tab = await new_tab(context, page_url(server))
    await tab.wait_for_text(MENU_TEXT)
    columns, rows = tab.screen.columns, tab.screen.lines
    width = await tab.page.evaluate("document.querySelector('.xterm-screen').getBoundingClientRect().width")
    assert columns >= 60 and rows >= 20, (columns, rows)
    assert width / columns >= 8, f"{width / columns:.1f} px a character"
    assert await tab.page.get_by_text("Turn your phone sideways").is_visible()
    await shot(tab.page, "menu-phone")

    async def tap(name: str, times: int = 1) -> None:
        for _ in range(times):
            await tab.page.get_by_role("button", name=name, exact=True).tap()

    # The menu by arrows and Enter, the setup's Play, then guesses from the digit keys: no keyboard at all.
    solo = [label for _key, _action, label, _footer in MENU].index("Solo game")
    await tap("Down", solo)
    await tab.wait_until(lambda t: highlighted(t, "Solo game"))  # the arrows reach the menu, no click first
    await shot(tab.page, "menu-solo-phone")
    await tap("Enter")
    await tab.wait_for_text("p Play")
    await tap("p")
    await tab.wait_for_text("Guess #1")
    for digit in "1122":
        await tap(digit)
    await tap("Enter")
    await tab.wait_until(lambda t: re.search(r"1\s+1\s+2\s+2", t.text) is not None)
    await tab.wait_for_text("Guess #2")
    await tap("Esc")
    await shot(tab.page, "solo-phone")
    assert await tab.page.evaluate("document.activeElement.className") == "xterm-helper-textarea"
    await context.close()


async def test_signing_in_from_the_tab_you_play_in_lands_in_the_signed_in_game_at_once(
    start_server: ServerFactory, browser: Browser
) -> None:
    from wom_tui.domain.store.folder.store import FolderStore

    server = await start_server(web="127.0.0.1:0", seat_grace=120.0)
    assert server.web is not None
    store = FolderStore(server.settings.data_dir)
    store.register("Ada")
    context = await browser.new_context(**DESKTOP)
    tab = await new_tab(context, page_url(server))
    await tab.wait_for_text("Playing as a guest")
    assert "/signin" in tab.text and "SSH key" not in tab.text  # the browser's own way to a name
    (guest,) = server.web.sessions

    # In the same tab: the sign-in page, the code typed (its field has the focus), Enter.
    await tab.page.goto(page_url(server) + "signin")
    await tab.page.wait_for_selector("input[name=code]:focus")  # as a person sees the caret there (autofocus)
    await tab.page.keyboard.type(store.issue_browser_code("Ada"))
    await shot(tab.page, "signin-desktop")
    async with tab.page.expect_navigation(url=page_url(server)):
        await tab.page.keyboard.press("Enter")
    await tab.page.wait_for_selector("body.-first-byte", timeout=WAIT * 1000)
    await tab.wait_for_text("Ada")
    assert "guest" not in tab.text.lower()
    assert not await tab.page.locator("body.-closed").count()
    assert not guest.running  # the guest game was ended, its seat freed
    (ada,) = server.web.sessions
    assert ada.name == "Ada"
    await shot(tab.page, "signed-in-desktop")

    # The sign-in page's "Back to the game" comes back to a game as Ada (the one at the menu ended when the
    # page went: only a seat at a table waits for its tab).
    await tab.page.goto(page_url(server) + "signin")
    assert "Signed in as Ada." in await tab.page.inner_text("main")
    await tab.page.get_by_role("link", name="Back to the game").click()
    await tab.page.wait_for_selector("body.-first-byte", timeout=WAIT * 1000)
    await tab.wait_for_text("Ada")
    assert not ada.running
    (again,) = server.web.sessions
    assert again.name == "Ada" and again.running
    await tab.type("x")
    await tab.page.wait_for_selector("body.-closed", timeout=WAIT * 1000)
    await context.close()


async def test_a_wide_window_gives_the_live_tables_board_the_room_first(
    start_server: ServerFactory, browser: Browser
) -> None:
    server = await start_server(web="127.0.0.1:0")
    context = await browser.new_context(**DESKTOP)
    tab = await new_tab(context, page_url(server))
    await tab.wait_for_text(MENU_TEXT)
    await tab.type("l")  # the lobby, a new table (its dialog opens on "Open table"), opened: the table's screen
    await tab.wait_for_text("New table")
    await tab.type("n")
    await tab.wait_for_text("Open a table")
    await tab.press("Enter")
    await tab.wait_for_text("free seat")
    await tab.type("h")  # HAL9000 sits down, the game begins: codes to make
    await tab.wait_until(lambda t: re.search(r"2\.\s+HAL9000", t.text) is not None)
    await tab.type("g")
    await tab.wait_until(lambda t: message_panel_left(t) is not None)
    await tab.wait_until(lambda t: "waiting for players" not in t.text and "Every seat is filled" not in t.text)
    await tab.wait_for_text("Your code")
    await tab.type("rgby")
    await tab.press("Enter")  # the code set; HAL9000's is set: guessing, and the board shows
    await tab.wait_for_text("Your guess")
    await tab.type("rrgg")
    await tab.press("Enter")
    await tab.wait_until(lambda t: re.search(r"R\s+R\s+G\s+G", t.text) is not None)
    columns = tab.screen.columns
    left = message_panel_left(tab)
    assert columns >= 110 and left is not None
    assert left >= columns * 0.55, f"the board and seats get {left} of {columns} columns"
    await shot(tab.page, "table-desktop")
    await context.close()


def message_panel_left(tab: Tab) -> int | None:
    """The column where the table's message panel (its rounded border, right of the board) begins."""
    for line in tab.screen.display:
        found = line.find("╭", 20)
        if found > 0:
            return found
    return None


async def test_a_phone_turned_sideways_gets_the_whole_width_and_low_keys(
    start_server: ServerFactory, browser: Browser
) -> None:
    server = await start_server(web="127.0.0.1:0")
    context = await browser.new_context(viewport={"width": 844, "height": 390}, is_mobile=True, has_touch=True)
    tab = await new_tab(context, page_url(server))
    await tab.wait_for_text("Quit")
    width = await tab.page.evaluate("document.querySelector('.xterm-screen').getBoundingClientRect().width")
    assert tab.screen.columns >= 100 and tab.screen.lines >= 16, (tab.screen.columns, tab.screen.lines)
    assert width / tab.screen.columns >= 8
    assert not await tab.page.get_by_text("Turn your phone sideways").count()
    assert await tab.page.get_by_role("button", name="Enter", exact=True).is_visible()
    await shot(tab.page, "menu-phone-sideways")
    await context.close()
