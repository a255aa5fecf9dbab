"""`wom-tui users revoke` ends a stolen cookie's access (issue 34, item 3): its open tabs on every server, and
every code made with it."""

from __future__ import annotations

import aiohttp

from serve.sshterm import MENU_TEXT, ServerFactory
from wom_tui.domain.browser import hash_session_token, new_session_token
from wom_tui.domain.store import open_store
from wom_tui.serve.web import CLOSE_GAME_OVER
from wom_tui.serve.web_auth import COOKIE

from .conftest import open_socket_tab


async def test_revoking_ends_the_open_tabs_of_the_name_on_every_server(start_server: ServerFactory) -> None:
    first = await start_server(web="127.0.0.1:0", signin_recheck=0.2)
    second = await start_server(web="127.0.0.1:0", signin_recheck=0.2)  # another server on the same store
    store = open_store(first.settings.data_dir)
    store.register("Alan")
    stolen = new_session_token()
    store.redeem_browser_code(store.issue_browser_code("Alan"), hash_session_token(stolen), "203.0.113.66")
    async with aiohttp.ClientSession() as http:
        tabs = [await open_socket_tab(http, server, headers={"Cookie": f"{COOKIE}={stolen}"})
                for server in (first, second)]
        for tab in tabs:
            await tab.wait_for_text(MENU_TEXT)
            await tab.wait_for_text("Alan")
        thief_code = store.issue_browser_code("Alan")  # made with `b` in the stolen tab
        store.revoke_browser_sessions("Alan")  # what `wom-tui users revoke Alan --all` does
        for tab in tabs:
            assert await tab.wait_closed() == CLOSE_GAME_OVER
            assert "no longer signed in as Alan" in tab.text
        assert first.sessions == [] and second.sessions == []
    assert store.browser_sessions("Alan") == []
    try:
        store.redeem_browser_code(thief_code, hash_session_token(new_session_token()), "203.0.113.66")
    except Exception as refused:  # noqa: BLE001
        assert "wrong, used or expired" in str(refused)
    else:
        raise AssertionError("a code made in the revoked browser still signed in")
