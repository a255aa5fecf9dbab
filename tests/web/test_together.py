"""A browser tab and an SSH client at one live table: the SSH player plays, the tab (a guest) watches,
and both see the result."""

from __future__ import annotations

from playwright.async_api import Browser

from serve.conftest import until
from serve.sshterm import MENU_TEXT, ServerFactory, connect, new_key, open_terminal
from wom_tui.domain.store.folder.store import FolderStore
from wom_tui.domain.table import SeatHolder

from .conftest import open_tab
from .test_page import page_url


async def test_a_browser_tab_and_an_ssh_client_at_one_live_table_both_see_the_result(
    start_server: ServerFactory, browser: Browser
) -> None:
    server = await start_server(web="127.0.0.1:0", seat_grace=60.0, max_per_ip=8)
    store = FolderStore(server.settings.data_dir)
    key = new_key()
    store.register("Ann", key=key.get_fingerprint())
    live = store.live
    table = live.create_table(SeatHolder("Ann", "earlier-session", True), seats=2, attempts=10, seed=11, pace=(0.0, 0.05))
    live.update_table(table.table_id, lambda t: t.seat_computer(t.creator, 1, "HAL9000"))

    ann = await open_terminal(await connect(server, "ann", key))
    await ann.wait_for_text(MENU_TEXT)
    ann.type("l")
    await ann.wait_for_text("still have a seat")
    ann.type("\r")
    await ann.wait_for_text("press g to start")
    ann.type("g")
    await ann.wait_for_text("Your code")
    ann.type("RGBY\r")
    await ann.wait_for_text("Break the code")

    tab = await open_tab(browser, page_url(server))
    await tab.wait_for_text(MENU_TEXT)
    await tab.type("l")
    await tab.wait_for_text("Lobby: play together")
    await tab.wait_for_text("playing")
    await tab.press("Enter")
    await tab.wait_for_text("You are watching")

    hal_code = live.table(table.table_id).to_json()["seats"][1]["code"]
    await ann.wait_for_text("Your guess")
    ann.type(hal_code + "\r")
    await ann.wait_for_text("finished")
    await tab.wait_for_text("finished")
    await until(lambda: live.table(table.table_id).recorded, timeout=30)
    (game,) = store.games()
    assert [p.name for p in game.players if p.is_user] == ["Ann"]
