"""The Operator screen: only a session the server signed in with an operator key reaches it (menu key, palette,
a burst of keys); it lists who is online, kicks, bans and sends a line every session shows, as typed."""

from __future__ import annotations

import contextlib
import random
import threading

import pytest
from textual.widgets import DataTable, Input

from wom_tui.app import WomApp
from wom_tui.domain.identity import Identity
from wom_tui.domain.presence import Whereabouts
from wom_tui.domain.store import open_store
from wom_tui.screens.confirm import ConfirmScreen
from wom_tui.screens.menu import MenuScreen
from wom_tui.screens.operator import OperatorScreen, ReasonForm
from wom_tui.widgets.broadcast import BroadcastLine

from .conftest import at_both_sizes, make_options, wait_for
from .screen_text import screen_lines

FP = "SHA256:" + "O" * 43
PLAYER_FP = "SHA256:" + "P" * 43
LINE = "[bold]restart[/] in 5 minutes [@click=app.quit]ok[/]"


def served_app(data_dir, *, operator: bool, name: str = "Root") -> WomApp:
    store = open_store(data_dir)
    if store.user(name) is None:
        store.register(name, key=FP)
    options = make_options(data_dir, served=True, operator=operator, session_id="op-session",
                           client_address="192.0.2.1", transport="ssh")
    return WomApp(store, random.Random(1), options, Identity.key(FP).signed_in_as(name))


@contextlib.contextmanager
def other_sessions(data_dir):
    """Alan (over SSH) and a guest (in a browser) online, their heartbeats kept by a thread as their games would."""
    store = open_store(data_dir)
    if store.user("Alan") is None:
        store.register("Alan", key=PLAYER_FP)
    online = [store.live.join("Alan", True, "alan-session", Whereabouts("198.51.100.7", PLAYER_FP, "ssh", "SoloGame")),
              store.live.join_guest("guest-session", Whereabouts("2001:db8::5", None, "web", "Lobby"))]
    stop = threading.Event()

    def beat() -> None:
        while not stop.wait(1.0):  # a game's heartbeat pace (PRESENCE_STALE is 6 s)
            for presence in online:
                store.live.heartbeat(presence)

    thread = threading.Thread(target=beat, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(10)


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_an_operator_sees_who_is_online_and_kicks_with_a_reason(data_dir, size) -> None:
    app = served_app(data_dir, operator=True)
    with other_sessions(data_dir):
        async with app.run_test(size=size) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
            await pilot.press("a")
            await wait_for(pilot, lambda: isinstance(app.screen, OperatorScreen))
            await wait_for(pilot, lambda: len(app.screen.online) >= 1 and app.screen.query_one(DataTable).row_count)
            await wait_for(pilot, lambda: any("Alan" in line for line in screen_lines(app)))
            lines = "\n".join(screen_lines(app))
            assert "198.51.100.7" in lines and "Solo game" in lines
            table = app.screen.query_one(DataTable)
            row = next(i for i, p in enumerate(app.screen.online) if p.name == "Alan")
            table.move_cursor(row=row)
            await pilot.press("k")
            await wait_for(pilot, lambda: isinstance(app.screen, ReasonForm))
            await pilot.press(*"spam", "enter")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            await pilot.press("escape")  # Esc stays: nothing kept
            await wait_for(pilot, lambda: isinstance(app.screen, OperatorScreen))
            assert app.store.kicks() == []
            await pilot.press("k")
            await wait_for(pilot, lambda: isinstance(app.screen, ReasonForm))
            await pilot.press(*"spam", "enter")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            await pilot.press("y")
            await wait_for(pilot, lambda: app.store.kicks())
            assert [(k.session, k.reason) for k in app.store.kicks()] == [("alan-session", "spam")]


async def test_a_ban_from_the_screen_is_the_cli_s_ban_and_bad_input_changes_nothing(data_dir) -> None:
    app = served_app(data_dir, operator=True)
    with other_sessions(data_dir):
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
            await pilot.press("a")
            await wait_for(pilot, lambda: isinstance(app.screen, OperatorScreen) and app.screen.online)
            row = next(i for i, p in enumerate(app.screen.online) if p.name == "Alan")
            app.screen.query_one(DataTable).move_cursor(row=row)
            await pilot.press("b")
            await wait_for(pilot, lambda: isinstance(app.screen, ReasonForm))
            await pilot.press("enter")  # the first target: the name
            await pilot.press(*"forever-ish", "enter", *"rude", "enter")
            await wait_for(pilot, lambda: "not a duration" in "\n".join(screen_lines(app)))
            assert app.store.bans() == []
            duration = app.screen.query_one("#operator-duration", Input)
            duration.value = "2h"
            app.screen.query_one("#operator-reason", Input).focus()
            await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            await pilot.press("y")
            await wait_for(pilot, lambda: app.store.bans())
            ban = app.store.bans()[0]
            assert (ban.kind, ban.target, ban.reason) == ("name", "Alan", "rude") and ban.until is not None


async def test_the_broadcast_line_is_data_on_every_screen(data_dir) -> None:
    app = served_app(data_dir, operator=True)
    async with app.run_test(size=(60, 20)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, OperatorScreen))
        await pilot.press("m", *LINE, "enter")
        await wait_for(pilot, lambda: app.store.broadcast() is not None)
        assert app.store.broadcast().text == LINE
        app.read_broadcast()  # as the server's signal makes it
        await wait_for(pilot, lambda: app.screen.query(BroadcastLine))
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen) and app.screen.query(BroadcastLine))
        await wait_for(pilot, lambda: any("Operator: [bold]restart[/] in 5" in line for line in screen_lines(app)))
        await pilot.click(BroadcastLine)  # clicking it runs no markup; it hides the line
        assert app.is_running
        await wait_for(pilot, lambda: not app.screen.query(BroadcastLine))


@pytest.mark.parametrize("how", ["key", "palette", "burst"])
async def test_a_non_operator_cannot_reach_the_screen(data_dir, how) -> None:
    app = served_app(data_dir, operator=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        assert not any("Operator" in line for line in screen_lines(app))
        if how == "key":
            await pilot.press("a")
        elif how == "palette":
            await pilot.press("ctrl+p", *"operator", "enter")
        else:
            await pilot.press(*"aaaa", "a", "enter")
        app.action_operator()  # even called directly
        await pilot.pause()
        assert not any(isinstance(screen, OperatorScreen) for screen in app.screen_stack)
        assert not any(c.title == "Operator" for c in app.get_system_commands(app.screen))


def _open_operator(seeded: bool):
    async def run_before(pilot) -> None:
        app = pilot.app
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, OperatorScreen) and app.screen.query_one(DataTable).row_count)
        for field in app.screen.query(Input):
            field.cursor_blink = False
        # Its own session too (it joins after the first paint, then says it shows the Operator screen).
        await wait_for(pilot, lambda: any(p.where.screen == "Operator" for p in app.screen.online))
        await wait_for(pilot, lambda: any("Solo game" in line for line in screen_lines(app)))
        app.screen.query_one(DataTable).move_cursor(row=0)
        await pilot.pause()
    return run_before


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
def test_operator_screen_snapshot(snap_compare, data_dir, size) -> None:
    with other_sessions(data_dir):
        assert snap_compare(served_app(data_dir, operator=True), terminal_size=size, run_before=_open_operator(True))


async def test_an_operator_cannot_kick_ban_or_retire_their_own_session(data_dir) -> None:
    app = served_app(data_dir, operator=True)
    with other_sessions(data_dir):
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
            await pilot.press("a")
            await wait_for(pilot, lambda: isinstance(app.screen, OperatorScreen)
                           and any(p.session == "op-session" for p in app.screen.online))
            screen = app.screen
            own = next(i for i, p in enumerate(screen.online) if p.session == "op-session")
            screen.query_one(DataTable).move_cursor(row=own)
            for key, act in (("k", "kick"), ("b", "ban"), ("r", "retire"), ("k", "kick")):
                await pilot.press(key)
                await wait_for(pilot, lambda act=act: f"you cannot {act} it" in "\n".join(screen_lines(app)))
                assert app.screen is screen  # no form, no question
            assert app.store.kicks() == [] and app.store.bans() == [] and app.store.retired() == []


async def test_at_60_columns_the_screen_says_how_to_clear_the_line(data_dir) -> None:
    app = served_app(data_dir, operator=True)
    async with app.run_test(size=(60, 20)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, OperatorScreen))
        await wait_for(pilot, lambda: any("m writes one" in line for line in screen_lines(app)))
        await pilot.press("m", *"back soon", "enter")
        await wait_for(pilot, lambda: any("(c clears): back soon" in line for line in screen_lines(app)))
        await pilot.press("c")
        await wait_for(pilot, lambda: app.store.broadcast() is None)
        await wait_for(pilot, lambda: any("m writes one" in line for line in screen_lines(app)))


async def test_the_operators_menu_entry_reads_on_one_line(data_dir) -> None:
    # It wrapped at 80×24 ("Arcade operator: who is online," then "kick, ban" under the keys).
    app = served_app(data_dir, operator=True)
    async with app.run_test(size=(80, 24)) as pilot:
        async def one_line(size) -> None:
            await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen)
                           and any("Operator: who is online" in line for line in screen_lines(app)),
                           message=f"the operator's entry on the menu at {size}")
            (line,) = [line for line in screen_lines(app) if "Operator: who is online" in line]
            assert " a " in line and line.rstrip(" │").endswith("Operator: who is online")

        await at_both_sizes(pilot, one_line)


async def test_an_operator_cannot_ban_or_kick_what_would_lock_operators_out(data_dir, tmp_path) -> None:
    other_operator = "SHA256:" + "Q" * 43
    app = served_app(data_dir, operator=True)
    store = open_store(data_dir)
    if store.user("Olga") is None:
        store.register("Olga", key=other_operator)
    # The operator's own second session (same key, from home), a guest at the operator's address, another
    # operator, and Alan: only Alan may be banned or kicked.
    extra = [store.live.join("Root", True, "root-second", Whereabouts("203.0.113.9", FP, "ssh", "Lobby")),
             store.live.join_guest("guest-same-address", Whereabouts("192.0.2.1", None, "web", "Lobby")),
             store.live.join("Olga", True, "olga-session", Whereabouts("198.51.100.50", other_operator, "ssh", "Lobby"))]
    with other_sessions(data_dir):
        async with app.run_test(size=(80, 24)) as pilot:
            for presence in extra:
                store.live.heartbeat(presence)
            await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
            await pilot.press("a")
            await wait_for(pilot, lambda: isinstance(app.screen, OperatorScreen)
                           and {"root-second", "guest-same-address", "alan-session"} <= {p.session for p in app.screen.online})
            screen = app.screen
            screen._operator_keys = {other_operator}  # as read from --operator-key files

            def highlight(session: str) -> None:
                screen.query_one(DataTable).move_cursor(row=next(i for i, p in enumerate(screen.online)
                                                                 if p.session == session))

            highlight("root-second")  # the operator's own key, through their second session
            await pilot.press("k")
            await wait_for(pilot, lambda: "signed in as an operator" in "\n".join(screen_lines(app)))
            assert app.screen is screen
            await pilot.press("b")
            await wait_for(pilot, lambda: isinstance(app.screen, ReasonForm))
            await pilot.press("down", "enter", "enter", *"oops", "enter")  # the key, for good
            await wait_for(pilot, lambda: "an operator's key" in "\n".join(screen_lines(app)))
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.screen is screen)
            highlight("guest-same-address")  # shares the operator's address: banning it would turn them away
            await pilot.press("b")
            await wait_for(pilot, lambda: isinstance(app.screen, ReasonForm))
            await pilot.press("enter", *"spam", "enter")  # its only target: the address
            await wait_for(pilot, lambda: "the address 192.0.2.1" in "\n".join(screen_lines(app)))
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.screen is screen)
            highlight("olga-session")  # another operator's key
            await pilot.press("k")
            await wait_for(pilot, lambda: "Olga signed in as an operator" in "\n".join(screen_lines(app)))
            assert app.store.kicks() == [] and app.store.bans() == []
            highlight("alan-session")  # anyone else: as before
            await pilot.press("b")
            await wait_for(pilot, lambda: isinstance(app.screen, ReasonForm))
            await pilot.press("enter", "enter", *"rude", "enter")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            await pilot.press("y")
            await wait_for(pilot, lambda: app.store.bans())
