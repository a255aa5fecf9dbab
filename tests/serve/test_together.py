"""Playing together over real SSH (pyte terminals): three clients and HAL9000 play a full table; one
client drops mid-game and comes back to the same board; a guest watches; the points are filed once."""

from __future__ import annotations

import asyncio
import contextlib

from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.domain.table import SeatHolder

from .sshterm import MENU_TEXT, ServerFactory, Terminal, connect, new_key, open_terminal


async def until_changed(live, condition) -> None:
    """Wait until ``condition()`` holds, looking again after each change the store's feed reports."""
    stop, ready = asyncio.Event(), asyncio.Event()
    changes = live.feed().changes(stop, ready)
    step = asyncio.ensure_future(anext(changes))  # subscribes
    try:
        await ready.wait()  # from here on no change is missed
        while not condition():
            await step
            step = asyncio.ensure_future(anext(changes))
    finally:
        stop.set()
        step.cancel()
        with contextlib.suppress(asyncio.CancelledError, StopAsyncIteration):
            await step
        await changes.aclose()


def _row(terminal: Terminal, name: str) -> str:
    """The progress panel's row of ``name`` (the seats list shows "N. name ...")."""
    for line in terminal.lines:
        if f". {name}" in line:
            return line
    return ""


async def _lobby(terminal: Terminal) -> None:
    await terminal.wait_for_text(MENU_TEXT)
    terminal.type("l")
    await terminal.wait_for_text("Lobby: play together")


async def test_three_ssh_clients_and_hal_play_a_table_one_drops_and_comes_back_a_guest_watches(
    start_server: ServerFactory,
) -> None:
    server = await start_server(seat_grace=60.0, max_per_ip=8)
    store = Store(server.settings.data_dir)
    keys = {name: new_key() for name in ("Ann", "Ben", "Cat")}
    for name, key in keys.items():
        store.register(name, key=key.get_fingerprint())
    # Ann opened the table on an earlier session (now gone): she gets her seat back from the lobby.
    live = store.live
    table = live.create_table(SeatHolder("Ann", "earlier-session", True), seats=4, attempts=10,
                              seed=11, pace=(0.0, 0.05))
    live.update_table(table.table_id, lambda t: t.seat_computer(t.creator, 3, "HAL9000"))

    conns = {name: await connect(server, name.lower(), keys[name]) for name in keys}
    terms = {name: await open_terminal(conn) for name, conn in conns.items()}
    ann, ben, cat = terms["Ann"], terms["Ben"], terms["Cat"]
    for terminal in terms.values():
        await _lobby(terminal)
    await ann.wait_for_text("still have a seat")
    ann.type("\r")
    await ann.wait_for_text("Wait for players")
    for name, terminal in (("Ben", ben), ("Cat", cat)):
        await terminal.wait_for_text("Ann's table")
        terminal.type("\r")
        await terminal.wait_for_text("press s to sit")
        terminal.type("s")
        try:
            await ann.wait_until(lambda t, n=name: n in _row(t, n))
        except AssertionError:
            raise AssertionError(f"{name} could not sit:\n{terminal.text}") from None
    await ann.wait_for_text("press g to start")
    ann.type("g")
    codes = {"Ann": "RGBY", "Ben": "WWKK", "Cat": "RRGG"}
    for name, terminal in terms.items():
        await terminal.wait_for_text("Set the code")
        await terminal.wait_for_text("Your code")
        terminal.type(codes[name] + "\r")
    for terminal in terms.values():
        await terminal.wait_for_text("Break the code")
    ben.type("RRRR\r")
    await ann.wait_until(lambda t: "1/10" in _row(t, "Ben"))
    assert "RRRR" not in ann.text and "R   R   R   R" not in ann.text  # never another's guess

    # A guest watches the running table.
    guest_conn = await connect(server, "visitor")
    guest = await open_terminal(guest_conn)
    await _lobby(guest)
    await guest.wait_for_text("playing")
    guest.type("\r")
    await guest.wait_for_text("You are watching")
    await guest.wait_until(lambda t: "1/10" in _row(t, "Ben"))

    # Ben's connection drops mid-game; his seat waits; he comes back to the same board.
    conns["Ben"].close()
    await ann.wait_until(lambda t: "(away)" in _row(t, "Ben"))
    conns["Ben"] = await connect(server, "ben", keys["Ben"])
    ben = terms["Ben"] = await open_terminal(conns["Ben"])
    await _lobby(ben)
    await ben.wait_for_text("still have a seat")
    ben.type("\r")
    await ben.wait_for_text("9 attempts left")
    await ann.wait_until(lambda t: "(away)" not in _row(t, "Ben"))

    # Everybody breaks their code: Ann breaks HAL9000's, Ben Ann's, Cat Ben's; HAL9000 Cat's by itself.
    hal_code = live.table(table.table_id).to_json()["seats"][3]["code"]
    await ann.wait_for_text("Your guess")
    ann.type(hal_code + "\r")
    await ben.wait_for_text("Your guess")
    ben.type("RGBY\r")
    await cat.wait_for_text("Your guess")
    cat.type("WWKK\r")
    for terminal in (ann, ben, cat, guest):
        await terminal.wait_for_text("finished")
        await terminal.wait_until(lambda t: "points" in t.text or "broke" in t.text)

    await asyncio.wait_for(until_changed(live, lambda: live.table(table.table_id).recorded), 30)
    (game,) = Store(server.settings.data_dir).games()
    assert {p.name for p in game.players if p.is_user} == {"Ann", "Ben", "Cat"}
    for name in ("Ann", "Ben", "Cat"):
        assert Store(server.settings.data_dir).user(name).games == 1
    for conn in (*conns.values(), guest_conn):
        conn.close()
