"""Each door's words fit it (issue 35): a browser guest is pointed at /signin, an SSH guest at a key; guests
are not told they may only play solo; a server without a web page offers no browser sign-in."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from wom_tui.app import WomApp
from wom_tui.domain.identity import Identity
from wom_tui.domain.store.folder.store import FolderStore as Store

from .conftest import at_both_sizes, make_options, wait_for
from .screen_text import screen_text

FP_A = "SHA256:" + "A" * 43


def served_app(data_dir: Path, identity: Identity, **overrides: object) -> WomApp:
    options = make_options(data_dir, served=True, **overrides)
    return WomApp(Store(data_dir), random.Random(options.seed), options, identity)


def flat(app: WomApp) -> str:
    return " ".join(screen_text(app).replace("│", " ").split())


@pytest.mark.parametrize("transport", ["ssh", "web"])
async def test_a_guest_is_told_the_way_to_a_name_of_their_own_door(data_dir: Path, transport: str) -> None:
    app = served_app(data_dir, Identity.guest(), transport=transport, web="127.0.0.1:8080")
    async with app.run_test(size=(80, 24)) as pilot:
        async def on_the_menu(size) -> None:
            await wait_for(pilot, lambda: "Playing as a guest" in flat(app), message=f"the menu at {size}")
            menu = flat(app)
            assert "solo games and watching" not in menu
            assert "x Quit Quit" not in menu and any(line.strip(" │").startswith("x   Quit")
                                                     for line in screen_text(app).splitlines())
            if transport == "web":
                assert "/signin" in menu and "SSH key" not in menu
            else:
                assert "SSH key" in menu and "/signin" not in menu

        async def on_the_register_screen(size) -> None:
            await wait_for(pilot, lambda: "Guests play without a name" in flat(app), message=f"at {size}")
            register = flat(app)
            if transport == "web":
                assert "/signin" in register and "ssh-keygen" not in register
            else:
                assert "ssh-keygen -t ed25519 makes one" in register

        async def on_the_setup(size) -> None:
            await wait_for(pilot, lambda: "Guests watch HAL9000" in flat(app), message=f"at {size}")
            setup = flat(app)
            assert "quick match" in setup and ("/signin" in setup) == (transport == "web")

        await at_both_sizes(pilot, on_the_menu)
        await pilot.press("r")
        await at_both_sizes(pilot, on_the_register_screen)
        await pilot.press("escape")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "MenuScreen")
        await pilot.press("p")  # World of Mastermind's setup: guests may still quick match or sit at a table
        await at_both_sizes(pilot, on_the_setup)


async def test_a_server_without_a_web_page_offers_no_browser_sign_in(data_dir: Path, store: Store) -> None:
    store.register("Alan", key=FP_A)
    app = served_app(data_dir, Identity.key(FP_A, "Alan"), transport="ssh")
    async with app.run_test(size=(80, 24)) as pilot:
        async def not_offered(size) -> None:
            await wait_for(pilot, lambda: "Alan" in flat(app), message=f"the menu at {size}")
            assert "Sign in a browser" not in flat(app)

        await at_both_sizes(pilot, not_offered)
        assert "Sign in a browser" not in [command.title for command in app.get_system_commands(app.screen)]
        await pilot.press("b")  # the key anyway: a word, and no code
        await wait_for(pilot, lambda: any("no web page" in str(n.message) for n in app._notifications))
        assert type(app.screen).__name__ == "MenuScreen"
    assert not (data_dir / "browser.json").exists()
