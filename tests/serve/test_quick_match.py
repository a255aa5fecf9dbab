"""Quick match over real SSH: two clients press w on the menu and meet at one started table; the bell and,
when the server's players opted in, the desktop notification (OSC 9 and OSC 777, wrapped for tmux when
the client's terminal is tmux) reach each client's terminal as raw bytes."""

from __future__ import annotations

import asyncio
import re

from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.domain.table import MAKING

from .conftest import session_ended, until
from .sshterm import MENU_TEXT, ServerFactory, connect, new_key, open_terminal


def without_osc(raw: bytes) -> bytes:
    """``raw`` without its OSC sequences (ESC ] … BEL), whose terminator is a BEL too."""
    return re.sub(rb"\x1b\][^\x07\x1b]*\x07", b"", raw)


async def _pair(server, terms_by_name: dict[str, str]):
    store = Store(server.settings.data_dir)
    keys = {name: new_key() for name in terms_by_name}
    for name, key in keys.items():
        store.register(name, key=key.get_fingerprint())
    terminals = {}
    for name, term in terms_by_name.items():
        conn = await connect(server, name.lower(), keys[name])
        terminals[name] = await open_terminal(conn, term=term)
    for terminal in terminals.values():
        await terminal.wait_for_text(MENU_TEXT)
    marks = {name: len(t.raw) for name, t in terminals.items()}
    for terminal in terminals.values():
        terminal.type("q")
    for terminal in terminals.values():
        await terminal.wait_for_text("Quick match found")
    tables = [t for t in store.live.tables().tables]
    assert len(tables) == 1 and tables[0].phase == MAKING and sorted(tables[0].names) == sorted(terms_by_name)
    return {name: bytes(t.raw[marks[name]:]) for name, t in terminals.items()}


async def test_two_ssh_clients_pair_and_each_terminal_hears_the_bell(start_server: ServerFactory) -> None:
    server = await start_server(max_per_ip=8)
    after = await _pair(server, {"Ann": "xterm-256color", "Ben": "xterm-256color"})
    for raw in after.values():
        assert b"\x07" in without_osc(raw)  # the bell (not an OSC's terminator: Textual's pointer shapes end so)
        assert b"\x1b]9;" not in raw and b"\x1b]777;" not in raw  # no desktop notification unless opted in


async def test_opted_in_the_desktop_notification_reaches_the_client_wrapped_for_its_tmux(
    start_server: ServerFactory,
) -> None:
    server = await start_server(max_per_ip=8, desktop_notify=True, bell=False)
    after = await _pair(server, {"Ann": "xterm-256color", "Ben": "tmux-256color"})
    plain, wrapped = after["Ann"], after["Ben"]
    assert b"\x1b]9;World of Mastermind: Quick match found: you play Ben." in plain
    assert b"\x1b]777;notify;World of Mastermind;Quick match found: you play Ben." in plain
    assert b"\x1bPtmux;\x1b\x1b]9;World of Mastermind: Quick match found: you play Ann." in wrapped
    assert b"\x1bPtmux;\x1b\x1b]777;notify;World of Mastermind;Quick match found" in wrapped
    assert b"\x1bPtmux;" not in plain
    assert b"\x07" not in without_osc(plain)  # the bell was turned off


async def test_arrow_keys_at_a_table_do_not_keep_the_session_open(start_server: ServerFactory) -> None:
    # A server of its own: a 3 s idle timeout (room to reach a table by keys) and the computers at once.
    server = await start_server(idle_timeout=3.0, fill_after=0.0)
    terminal = await open_terminal(await connect(server))
    await terminal.wait_for_text(MENU_TEXT)
    terminal.type("q")
    await terminal.wait_for_text("Your code")
    (session,) = server.sessions
    await until(lambda: session.at_table)  # the game told the server it holds a seat at a table
    # The table waits for this player's code; they press arrow keys, well inside the idle timeout, for up
    # to 20 s: a key that makes no move at the table does not keep the session open.
    for _ in range(80):
        if terminal.closed.is_set():
            break
        terminal.type("\x1b[A")
        await asyncio.sleep(0.25)  # a person's pace, not a wait for a result
    await terminal.wait_closed()
    assert "Your table waited 3 seconds for your move, so this session was closed." in terminal.text
    await session_ended(server, session)


async def test_over_ssh_a_wait_kept_from_the_menu_hears_its_match_on_the_replays_and_a_dropped_one_leaves(
    start_server: ServerFactory,
) -> None:
    # A server of its own: the computers fill after 3 s (the default is a minute) — Cy's match is found
    # while she looks at her replays (issue 35 item 8); Dee's wait, kept from the menu, ends with her connection.
    server = await start_server(max_per_ip=8, fill_after=3.0)
    store = Store(server.settings.data_dir)
    keys = {name: new_key() for name in ("Cy", "Dee")}
    for name, key in keys.items():
        store.register(name, key=key.get_fingerprint())
    conns = {name: await connect(server, name.lower(), key) for name, key in keys.items()}
    terms = {name: await open_terminal(conn) for name, conn in conns.items()}
    for terminal in terms.values():
        await terminal.wait_for_text(MENU_TEXT)
    dee = terms["Dee"]
    dee.type("q")
    await dee.wait_for_text("m: wait from the menu")
    dee.type("m")
    await dee.wait_for_text("Dee · in the queue")
    conns["Dee"].close()
    await until(lambda: [t.holder.name for t in store.live.match_queue().tickets] == [])
    cy = terms["Cy"]
    cy.type("q")
    await cy.wait_for_text("m: wait from the menu")
    cy.type("m")
    await cy.wait_for_text("Cy · in the queue")
    mark = len(cy.raw)
    cy.type("v")
    await cy.wait_for_text("Replays")
    await cy.wait_for_text("Your quick match is ready")
    assert b"\x07" in without_osc(bytes(cy.raw[mark:]))  # the bell
    cy.type("\r")
    await cy.wait_for_text("Set the code")
    tables = store.live.tables().tables
    assert len(tables) == 1 and "Cy" in tables[0].names and tables[0].phase == MAKING
