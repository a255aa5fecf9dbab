"""Sign in a browser (docs/play.md): a signed-in SSH player gets a one-time code for the web page."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from textual.widgets import Static

from wom_tui.app import WomApp
from wom_tui.domain.browser import hash_session_token, new_session_token
from wom_tui.domain.identity import Identity
from wom_tui.domain.store.folder.store import FolderStore as Store

from .burst import send_burst
from .conftest import make_options, wait_for
from .screen_text import screen_text

FP_A = "SHA256:" + "A" * 43
CODE = re.compile(r"[A-Z2-9]{4}-[A-Z2-9]{4}")


def served_app(data_dir: Path, identity: Identity) -> WomApp:
    options = make_options(data_dir, served=True, web="127.0.0.1:8080")
    return WomApp(Store(data_dir), random.Random(options.seed), options, identity)


def shown_code(app: WomApp) -> str:
    return str(app.screen.query_one("#browser-code", Static).render())


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_a_signed_in_player_gets_a_code_that_signs_a_browser_in(data_dir: Path, store: Store, size) -> None:
    store.register("Alan", key=FP_A)
    app = served_app(data_dir, Identity.key(FP_A, "Alan"))
    async with app.run_test(size=size) as pilot:
        assert "Sign in a browser" in screen_text(app)  # the menu offers it
        await pilot.press("b")
        await wait_for(pilot, lambda: CODE.fullmatch(shown_code(app)))
        text = " ".join(screen_text(app).replace("│", " ").split())
        for words in ("Sign in a browser", "type this code", "works once, for 10 minutes", "for 30 days", "For Alan"):
            assert words in text, (words, text)
        first = shown_code(app)
        assert first not in (data_dir / "browser.json").read_text()  # only its hash is kept

        send_burst(app, "n", "n", "n")  # keys in a burst: three new codes, every one of them works
        await wait_for(pilot, lambda: len(store._load_browser()[0]) == 4)
        await wait_for(pilot, lambda: shown_code(app) != first)
        last = shown_code(app)
        session = store.redeem_browser_code(first, hash_session_token(new_session_token()), "192.0.2.1")
        assert session.name == "Alan"
        assert store.redeem_browser_code(last, hash_session_token(new_session_token()), "::1").name == "Alan"

        send_burst(app, "escape", "escape")  # one Esc too many: back at the menu, which stays
        await wait_for(pilot, lambda: type(app.screen).__name__ == "MenuScreen")
        await pilot.press("b")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "BrowserCodeScreen"
                       and CODE.fullmatch(shown_code(app)) and shown_code(app) != last)


async def test_the_menu_entry_can_be_clicked_and_the_palette_offers_it(data_dir: Path, store: Store) -> None:
    store.register("Alan", key=FP_A)
    app = served_app(data_dir, Identity.key(FP_A, "Alan"))
    async with app.run_test(size=(80, 24)) as pilot:
        options = app.screen.query_one("#menu-options")
        index = next(i for i, option in enumerate(options._options) if option.id == "browser_code")  # type: ignore[attr-defined]
        options.highlighted = index  # type: ignore[attr-defined]
        await pilot.press("enter")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "BrowserCodeScreen" and CODE.fullmatch(shown_code(app)))
        await pilot.press("escape")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "MenuScreen")
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "Sign in a browser" in titles


@pytest.mark.parametrize("identity", [Identity.guest(), Identity.key(FP_A)])
async def test_guests_and_new_keys_get_no_code(data_dir: Path, store: Store, identity: Identity) -> None:
    app = served_app(data_dir, identity)
    async with app.run_test(size=(80, 24)) as pilot:
        assert "Sign in a browser" not in screen_text(app)
        assert "Sign in a browser" not in [command.title for command in app.get_system_commands(app.screen)]
        await pilot.press("b")
        await wait_for(pilot, lambda: any("registered name first" in str(n.message) for n in app._notifications))
        assert type(app.screen).__name__ == "MenuScreen"
    assert not (data_dir / "browser.json").exists()


async def test_playing_locally_b_points_to_the_command(data_dir: Path, store: Store) -> None:
    options = make_options(data_dir)
    app = WomApp(store, random.Random(options.seed), options, Identity.local())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("b")
        await wait_for(pilot, lambda: any("users link-browser" in str(n.message) for n in app._notifications))
        assert type(app.screen).__name__ == "MenuScreen"
    assert not (data_dir / "browser.json").exists()
