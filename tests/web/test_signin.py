"""The sign-in form's HTTP side, through a fake BrowserSignIn: the cookie it sets, and the next visit signed in."""

from __future__ import annotations

import aiohttp
from playwright.async_api import Browser

from serve.conftest import until
from serve.sshterm import ServerFactory
from wom_tui.domain.game import Refusal
from wom_tui.serve.web_auth import COOKIE, COOKIE_MAX_AGE

from .test_page import page_url

TOKEN = "t0ken-" + "a" * 40


class FakeSignIn:
    """Code 424242 signs in as Ann, once; every other code is refused with a reason."""

    def __init__(self) -> None:
        self.redeemed: list[tuple[str, str, str]] = []

    def redeem(self, code: str, *, tab: str, address: str) -> str:
        self.redeemed.append((code, tab, address))
        if code != "424242":
            raise Refusal("That code is wrong, used or expired.")
        return TOKEN

    def who(self, token: str | None) -> str | None:
        return "Ann" if token == TOKEN else None


async def test_the_form_sets_the_cookie_and_the_next_visit_is_signed_in(start_server: ServerFactory, browser: Browser) -> None:
    server = await start_server(web="127.0.0.1:0", warm_command=None)
    assert server.web is not None
    fake = FakeSignIn()
    server.web.sign_in = fake  # type: ignore[assignment]
    context = await browser.new_context()
    page = await context.new_page()
    await page.goto(page_url(server) + "signin")
    assert "You play as a guest." in await page.inner_text("main")

    await page.fill("input[name=code]", "111111")
    await page.click("button[type=submit]")
    assert "That code is wrong, used or expired." in await page.inner_text(".refusal")
    assert await context.cookies() == []

    await page.fill("input[name=code]", "424242")
    async with page.expect_navigation(url=page_url(server)):
        await page.click("button[type=submit]")
    (cookie,) = await context.cookies()
    assert cookie["name"] == COOKIE and cookie["value"] == TOKEN
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict" and not cookie["secure"]  # plain http here
    assert [address for _code, _tab, address in fake.redeemed] == ["127.0.0.1", "127.0.0.1"]
    assert fake.redeemed[0][1] != "" and len(fake.redeemed[0][1]) >= 22  # the form's own tab token

    again = await context.new_page()
    await again.goto(page_url(server) + "signin")
    assert "Signed in as Ann." in await again.inner_text("main")


async def test_the_cookie_is_secure_behind_https_and_lasts_thirty_days(start_server: ServerFactory) -> None:
    server = await start_server(web="127.0.0.1:0", warm_command=None, trusted_proxy=("127.0.0.1",))
    assert server.web is not None
    server.web.sign_in = FakeSignIn()  # type: ignore[assignment]
    async with aiohttp.ClientSession() as http:
        form = {"code": "424242", "tab": "x" * 24}
        headers = {"X-Forwarded-Proto": "https", "Origin": f"https://127.0.0.1:{server.web.port}"}
        async with http.post(page_url(server) + "signin", data=form, headers=headers, allow_redirects=False) as answer:
            assert answer.status == 303 and answer.headers["Location"] == "/"
            cookie = answer.cookies[COOKIE]
            assert cookie["secure"] and cookie["httponly"] and cookie["samesite"] == "Strict"
            assert int(cookie["max-age"]) == COOKIE_MAX_AGE == 30 * 24 * 3600
        # A form posted from another site's page (login CSRF) is refused before any code is tried.
        headers["Origin"] = "https://elsewhere.example"
        async with http.post(page_url(server) + "signin", data=form, headers=headers, allow_redirects=False) as answer:
            assert answer.status == 403


async def test_a_tab_with_the_cookie_starts_its_game_as_the_name(start_server: ServerFactory) -> None:
    server = await start_server(web="127.0.0.1:0")
    assert server.web is not None
    server.web.sign_in = FakeSignIn()  # type: ignore[assignment]
    from .conftest import open_socket_tab

    async with aiohttp.ClientSession() as http:
        tab = await open_socket_tab(http, server, headers={"Cookie": f"{COOKIE}={TOKEN}"})
        await until(lambda: bool(server.web and server.web.sessions))
        (session,) = server.web.sessions
        assert session.name == "Ann"  # what the game is told (from the server's lookup, not the page)
        # Signed out (another cookie), the same tab's token does not reach Ann's game: it gets a guest game
        # of its own, and Ann's goes on in her tab.
        other = await open_socket_tab(http, server, tab=session.tab)
        await other.wait_for_text("Playing as a guest")
        assert sorted((web.name or "") for web in server.web.sessions) == ["", "Ann"]
        assert session.running and session.connected and session.tab != other_tab_token(server, "")
        await tab.socket.close()
        await other.socket.close()


def other_tab_token(server, name: str) -> str:
    (session,) = [web for web in server.web.sessions if (web.name or "") == name]
    return str(session.tab)


class _Waiting:
    """A stand-in for a tab's session (only what the door looks at)."""

    def __init__(self, tab: str, name: str | None, connected: bool, started_at: float) -> None:
        self.tab, self.name, self.connected, self.started_at = tab, name, connected, started_at
        self.running, self.ending = True, False
        self.label = f"web session #{tab[:3]}"


async def test_the_cookie_brings_a_signed_in_players_waiting_game_to_a_new_tab(start_server: ServerFactory) -> None:
    server = await start_server(web="127.0.0.1:0", warm_command=None)
    assert server.web is not None
    door = server.web
    older, newer = _Waiting("a" * 24, "Ann", False, 1.0), _Waiting("b" * 24, "Ann", False, 2.0)
    open_elsewhere, guest = _Waiting("c" * 24, "Bob", True, 3.0), _Waiting("d" * 24, None, False, 4.0)
    for session in (older, newer, open_elsewhere, guest):
        door._sessions[session.tab] = session  # type: ignore[assignment]
    assert door.reclaim("e" * 24, "Ann") is newer and newer.tab == "e" * 24  # the latest of Ann's waiting games
    assert door._sessions["e" * 24] is newer and "b" * 24 not in door._sessions
    assert door.reclaim("f" * 24, "Bob") is None  # Bob's game is open in another tab: it stays there
    assert door.reclaim("g" * 24, None) is None  # a guest has only its tab's token
    door._sessions.clear()


async def test_a_code_made_on_the_server_signs_a_browser_in_and_its_game_plays_as_the_name(
    start_server: ServerFactory,
) -> None:
    """The real sign-in end to end: a code the store issued, typed into the form, then a tab with the cookie
    that the game greets by name (the server looked the name up; the page only carried the cookie)."""
    from wom_tui.domain.store.folder.store import FolderStore

    from .conftest import open_socket_tab

    server = await start_server(web="127.0.0.1:0")
    assert server.web is not None
    store = FolderStore(server.settings.data_dir)
    store.register("Ada")
    code = store.issue_browser_code("Ada")
    base = page_url(server)
    async with aiohttp.ClientSession() as http:
        own = {"Origin": base.rstrip("/")}
        form = {"code": code, "tab": "t" * 24}
        async with http.post(base + "signin", data=form, headers=own, allow_redirects=False) as answer:
            assert answer.status == 303
            token = answer.cookies[COOKIE].value
        async with http.post(base + "signin", data=form, headers=own, allow_redirects=False) as again:
            assert again.status == 400  # a code works once
        assert [session.name for session in store.browser_sessions("Ada")] == ["Ada"]

        tab = await open_socket_tab(http, server, headers={"Cookie": f"{COOKIE}={token}"})
        await tab.wait_for_text("Ada")
        assert "guest" not in tab.text.lower()
        (session,) = server.web.sessions
        assert session.name == "Ada"
        await tab.socket.close()


async def test_a_banned_or_retired_name_cannot_play_in_a_browser_either(start_server: ServerFactory) -> None:
    """Moderation holds at the browser door too: a tab signed in as a banned name is turned away with the
    ban's line, and one open when its name is retired is ended with the retirement's line."""
    from wom_tui import cli
    from wom_tui.domain.store.folder.store import FolderStore

    from .conftest import open_socket_tab

    server = await start_server(web="127.0.0.1:0")
    assert server.web is not None
    data = str(server.settings.data_dir)
    store = FolderStore(server.settings.data_dir)
    for name in ("Ada", "Bob"):
        store.register(name)
    tokens = {}
    async with aiohttp.ClientSession() as http:
        base = page_url(server)
        for name in ("Ada", "Bob"):
            form = {"code": store.issue_browser_code(name), "tab": "t" * 24}
            async with http.post(base + "signin", data=form, headers={"Origin": base.rstrip("/")},
                                 allow_redirects=False) as answer:
                tokens[name] = answer.cookies[COOKIE].value
        bob = await open_socket_tab(http, server, headers={"Cookie": f"{COOKIE}={tokens['Bob']}"})
        await bob.wait_for_text("Bob")

        assert cli.main(["users", "ban", "Ada", "--reason", "rude", "--data-dir", data]) == 0
        assert cli.main(["users", "retire", "Bob", "--reason", "asked to leave", "--data-dir", data]) == 0
        await bob.wait_for_text("asked to leave")  # the open tab is ended with the line
        assert await bob.wait_closed() != 1000

        await until(lambda: server.moderation.refusal(None, "127.0.0.1", "Ada") is not None)
        ada = await open_socket_tab(http, server, headers={"Cookie": f"{COOKIE}={tokens['Ada']}"})
        await ada.wait_for_text("rude")
        await ada.wait_closed()
        assert all(session.name != "Ada" for session in server.web.sessions)
