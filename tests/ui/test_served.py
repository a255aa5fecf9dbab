"""The app in a served session (docs/serve.md): who is signed in, what they may register, seat and link."""

from __future__ import annotations

import json

import random
from pathlib import Path

import pytest
from textual.widgets import Static

from wom_tui.app import SERVED_APOLOGY, WomApp
from wom_tui.domain.identity import Identity
from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.screens.wom_setup import WomSetupScreen
from wom_tui.widgets.choice import Choice
from wom_tui.widgets.player_select import PlayerChoice
from wom_tui.widgets.whoami import WhoAmI

from .conftest import at_both_sizes, make_options, wait_for
from .screen_text import screen_lines

FP_A = "SHA256:" + "A" * 43
FP_B = "SHA256:" + "B" * 43


def served_app(data_dir: Path, identity: Identity, **overrides: object) -> WomApp:
    options = make_options(data_dir, served=True, **overrides)
    return WomApp(Store(data_dir), random.Random(options.seed), options, identity)


def badge(app: WomApp) -> str:
    return str(app.screen.query_one(WhoAmI).render())


def result_text(app: WomApp) -> str:
    return str(app.screen.query_one("#register-result", Static).render())


async def test_a_new_key_registers_its_name_and_is_signed_in_on_every_screen(data_dir: Path, store: Store) -> None:
    app = served_app(data_dir, Identity.key(FP_A))
    async with app.run_test(size=(80, 24)) as pilot:
        assert badge(app) == "New player"
        await pilot.press("r")
        await wait_for(pilot, lambda: app.screen.query("#register-result"))
        await pilot.press(*"Zoe", "enter")
        await wait_for(pilot, lambda: "Welcome, Zoe!" in result_text(app))
        assert store.user("Zoe").keys == (FP_A,)  # type: ignore[union-attr]
        assert app.identity.name == "Zoe" and badge(app) == "Zoe"
        await pilot.press(*"Zed", "enter")
        await wait_for(pilot, lambda: "already signs in as Zoe" in result_text(app))
        assert store.user("Zed") is None
        await pilot.press("escape")
        await wait_for(pilot, lambda: "Signed in as Zoe." in str(app.screen.query_one("#menu-whoami", Static).render()))
        for key, screen in (("s", "ScoreboardScreen"), ("o", "SoloSetupScreen"), ("p", "WomSetupScreen")):
            await pilot.press(key)
            await wait_for(pilot, lambda screen=screen: type(app.screen).__name__ == screen)
            assert badge(app) == "Zoe"
            await pilot.press("escape")
            await wait_for(pilot, lambda: type(app.screen).__name__ == "MenuScreen")


async def test_seats_and_solo_players_are_yourself_the_computers_and_guests(data_dir: Path, store: Store) -> None:
    store.register("Alan", key=FP_A)
    store.register("Bob", key=FP_B)
    # A user named like a guest seat, from a folder written before such names were refused: that seat is
    # not offered (it would play as the user).
    users = data_dir / "users.json"
    document = json.loads(users.read_text())
    document["users"].append({**document["users"][0], "name": "Guest 2", "keys": []})
    users.write_text(json.dumps(document))
    app = served_app(data_dir, Identity.key(FP_A, "Alan"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, WomSetupScreen))
        offered = [value for _, value in app.screen.query_one("#seat-select-1", Choice).options]
        assert [value for value in offered if value is not None] == ["Alan", "HAL9000", "VIKI", "Guest 1", "Guest 3"]
        await pilot.press("escape")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "MenuScreen")
        await pilot.press("o")  # and a solo game is yours or a guest's
        await wait_for(pilot, lambda: app.screen.query("#solo-player"))
        offered = [value for _, value in app.screen.query_one("#solo-player", PlayerChoice).options]
        assert offered == ["", "Alan"]


@pytest.mark.parametrize("identity", [Identity.guest(), Identity.key(FP_A, "Alan")])
async def test_guests_and_named_keys_cannot_register(data_dir: Path, store: Store, identity: Identity) -> None:
    store.register("Alan", key=FP_A)
    app = served_app(data_dir, identity)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await wait_for(pilot, lambda: app.screen.query("#register-result"))
        await pilot.press(*"Newbie", "enter")
        await wait_for(pilot, lambda: "Guests play without a name" in result_text(app) or "already signs in" in result_text(app))
        assert [user.name for user in store.users()] == ["Alan"]


async def test_a_guest_reads_the_whole_reason_they_cannot_register(data_dir: Path) -> None:
    app = served_app(data_dir, Identity.guest())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await wait_for(pilot, lambda: "Guests play without a name" in result_text(app))

        def shown() -> str:
            return " ".join(" ".join(line.strip(" │╭╮╰╯─") for line in screen_lines(app)).split())

        async def whole(size) -> None:
            await wait_for(pilot, lambda: "(ssh-keygen -t ed25519 makes one)." in shown(), message=f"whole at {size}")

        await at_both_sizes(pilot, whole)


async def test_a_signed_in_player_sees_every_menu_entry_at_60x20(data_dir: Path, store: Store) -> None:
    store.register("Alan", key=FP_A)
    app = served_app(data_dir, Identity.key(FP_A, "Alan"), web="127.0.0.1:8080")
    async with app.run_test(size=(60, 20)) as pilot:
        await wait_for(pilot, lambda: app.screen.query("#menu-options"))
        await pilot.pause()
        lines = screen_lines(app)
        assert any("x   Quit" in line for line in lines), "\n".join(lines)
        assert any("Sign in a browser" in line for line in lines)
        top = next(line for line in lines if "╭" in line)
        assert "Alan" in lines[0] and top.rstrip().endswith("╮"), lines[:2]  # the badge leaves the corner


async def test_the_badge_sits_on_a_forms_top_border_clear_of_its_corner_at_both_sizes(data_dir: Path,
                                                                                       store: Store) -> None:
    # A form opened over the lobby (its box as high as a 60×20 terminal) keeps its corner: the badge sits on
    # the box's border as it does on the menu's, not at the terminal's edge over the corner.
    store.register("Alan", key=FP_A)
    app = served_app(data_dir, Identity.key(FP_A, "Alan"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "LobbyScreen")
        await pilot.press("n")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "NewTableScreen")

        async def corner_kept(size) -> None:
            def top() -> str:
                return next((line for line in screen_lines(app) if "╭" in line), "")

            await wait_for(pilot, lambda: "Alan" in "".join(screen_lines(app)[:2]) and top().rstrip().endswith("╮"),
                           message=f"the form's corner kept at {size}: {top()!r}")

        await at_both_sizes(pilot, corner_kept)


async def test_a_served_player_gets_an_apology_not_a_traceback(
    data_dir: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    app = served_app(data_dir, Identity.guest())

    def explode() -> None:
        raise RuntimeError("secret server detail")

    with pytest.raises(RuntimeError):
        async with app.run_test(size=(80, 24)) as pilot:
            app.call_later(explode)
            await pilot.pause()
    captured = capsys.readouterr()
    shown = " ".join((captured.err + captured.out).split())
    assert SERVED_APOLOGY in shown
    assert "Traceback" not in shown and "secret server detail" not in shown
    assert app.return_code == 1
    # The details are for the server's log (the served game's log goes to the server through --log-fd).
    assert "secret server detail" in caplog.text and "the game failed" in caplog.text


async def test_over_ssh_the_daily_attempt_is_the_signed_in_keys_and_no_one_elses(data_dir: Path, store: Store) -> None:
    store.register("Alan", key=FP_A)
    store.register("Bea", key=FP_B)
    app = served_app(data_dir, Identity.key(FP_A, name="Alan"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "DailyScreen")
        screen = app.screen
        assert screen.identity == "Alan"  # type: ignore[attr-defined]
        assert not screen.query_one("#daily-player", PlayerChoice).display  # nobody else can be chosen
    guest = served_app(data_dir, Identity.guest())
    async with guest.run_test(size=(80, 24)) as pilot:
        await pilot.press("d")
        await wait_for(pilot, lambda: type(guest.screen).__name__ == "DailyScreen")
        assert guest.screen.identity is None  # type: ignore[attr-defined]
        assert not guest.screen.query_one("#daily-player", PlayerChoice).display
