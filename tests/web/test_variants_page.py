"""Each variant in a row in one browser tab (docs/play.md, *Variants*): a player signed in with a one-time code
plays Quad, Devious, Strict and Liar from the solo setup by keys, as over SSH (tests/serve/variant_walk.py)."""

from __future__ import annotations

from playwright.async_api import Browser

from serve.sshterm import MENU_TEXT, ServerFactory
from serve.variant_walk import play_each_variant
from wom_tui.domain.store.folder.store import FolderStore

from .conftest import open_tab
from .test_page import page_url

PRESS = {"TAB": "Tab", "RIGHT": "ArrowRight", "ENTER": "Enter", "ESC": "Escape", "BACKSPACE": "Backspace"}


async def test_one_tab_plays_each_variant_in_a_row(start_server: ServerFactory, browser: Browser) -> None:
    server = await start_server(web="127.0.0.1:0")  # a server with the web door (the shared one has none)
    store = FolderStore(server.settings.data_dir)
    store.register("Ada")
    store.set_choices("user:ada", "solo", {"palette": "wom"})  # 4 × Classic, as she chose last time
    context = await browser.new_context(viewport={"width": 1000, "height": 640})
    signin = await context.new_page()
    await signin.goto(page_url(server) + "signin")
    await signin.fill("input[name=code]", store.issue_browser_code("Ada"))
    async with signin.expect_navigation(url=page_url(server)):
        await signin.click("button[type=submit]")
    await signin.close()
    tab = await open_tab(browser, page_url(server), context=context)
    await tab.wait_for_text(MENU_TEXT)
    await tab.wait_for_text("Ada")

    async def send(*keys: str) -> None:
        for key in keys:
            if key in PRESS:
                await tab.press(PRESS[key])
            else:
                await tab.type(key)

    await play_each_variant(tab, send, lambda: store.solo_in_progress("user:ada"))
    await context.close()
