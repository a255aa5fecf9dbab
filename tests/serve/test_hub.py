"""The hub (docs/arcade.md, *The hub*): one process per server owns the store for every session.

In one process: a table played through the hub with moves as values, the others' screens given the table as
written (no read of their own); a game sending garbage, an unknown method or a flood is cut off alone while
another plays on. Over real SSH: the hub killed mid-game (the player reads it in words, a newcomer is turned
away with a line, the server starts the hub again and the game goes on, the acknowledged code kept); and the
local game opens its store in its own process, no server anywhere.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
from pathlib import Path

import pytest

from wom_tui.domain.moves import Guess, SetCode, Sit, Start
from wom_tui.domain.store import open_store
from wom_tui.domain.store.remote import HubStore, read_message
from wom_tui.domain.store.wire import HEADER, Call, Change, Hello, Subscribe, frame
from wom_tui.domain.table import FINISHED, GUESSING, Refused, SeatHolder, Table
from wom_tui.serve.hub import CALL_BURST, CONNECTIONS_PER_GAME, Hub
from wom_tui.serve.session import HUB_DOWN
from wom_tui.settings import Settings
from wom_tui.settings import open_store as open_settings_store

from .conftest import until
from .fleet import sit_down_together, to_lobby
from .sshterm import ServerFactory, Terminal, connect, new_key, open_terminal

ANN = SeatHolder("Ann", "ann-session", True)
BEN = SeatHolder("Ben", "ben-session", True)


@pytest.fixture
async def hub(tmp_path: Path):
    store = open_store(tmp_path / "data")
    store.register("Ann")
    store.register("Ben")
    hub = Hub(store, pool=2)
    await hub.start(str(tmp_path / "hub.sock"))
    yield hub, str(tmp_path / "hub.sock")
    await hub.close()


def _raw(path: str) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(10)
    sock.connect(path)
    assert isinstance(read_message(sock), Hello)
    return sock


def _closed(sock: socket.socket) -> bool:
    """True once the hub has closed ``sock`` (whatever it sent before is read and dropped)."""
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                return True
    except ConnectionResetError:
        return True


class Listening:
    """A game's subscription to the hub's changes, as its screens keep one while they show a table."""

    def __init__(self, game: HubStore) -> None:
        self.game = game
        self.stop, self.ready = asyncio.Event(), asyncio.Event()

    async def __aenter__(self) -> Listening:
        self.changes = self.game.live.feed().changes(self.stop, self.ready)
        self.step = asyncio.ensure_future(anext(self.changes))
        await self.ready.wait()
        return self

    async def pushed(self, table_id: str, version: int) -> Table:
        """The table as the hub pushed it to this game, once it has pushed ``version``."""
        while True:
            await self.step
            seen = self.game.live.pushed.get(table_id)
            if seen is not None and seen.version == version:
                return seen
            self.step = asyncio.ensure_future(anext(self.changes))

    async def __aexit__(self, *exc: object) -> None:
        self.stop.set()
        self.step.cancel()
        await self.changes.aclose()


async def test_a_table_played_through_the_hub_reaches_the_other_player_as_the_table_written(hub) -> None:
    hub_, path = hub
    ann, ben = await asyncio.to_thread(HubStore, path), await asyncio.to_thread(HubStore, path)
    table = await asyncio.to_thread(ann.live.create_table, ANN, seats=2, seed=5)
    # Ben's screen listens (the feed) and shows the table: from here each change brings the table with it.
    async with Listening(ben) as bens:
        assert (await asyncio.to_thread(ben.live.table, table.table_id)).version == table.version
        await asyncio.to_thread(ben.live.play, table.table_id, Sit(BEN, 1))
        await asyncio.to_thread(ann.live.play, table.table_id, Start(ANN))
        await asyncio.to_thread(ann.live.play, table.table_id, SetCode(ANN, "RGBY"))
        await asyncio.to_thread(ben.live.play, table.table_id, SetCode(BEN, "WWKK"))
        written = await asyncio.to_thread(ann.live.play, table.table_id, Guess(ANN, "RRGG"))
        assert written.phase == GUESSING
        await bens.pushed(table.table_id, written.version)
        calls = ben.calls
        shown = await asyncio.to_thread(ben.live.table, table.table_id)
        assert shown.version == written.version and ben.calls == calls  # Ben's screen asked the hub nothing
        # A refusal crosses as itself, with the rules' reason, and nothing is written.
        with pytest.raises(Refused, match="already"):
            await asyncio.to_thread(ben.live.play, table.table_id, Sit(BEN, 0))
        # Ben breaks Ann's code: the game ends and is recorded once, as in one process.
        await asyncio.to_thread(ben.live.play, table.table_id, Guess(BEN, "RGBY"))
        for code in ("KKKK", "WWKK"):
            last = await asyncio.to_thread(ann.live.play, table.table_id, Guess(ANN, code))
        assert last.phase == FINISHED
        await until(lambda: len(hub_.store.games()) == 1)


async def test_leaving_the_queue_unseen_through_the_hub_takes_the_seat_and_the_other_is_sent_the_table(hub) -> None:
    # Ann's Esc on the waiting screen crosses a wave that seated her with Ben: her leave, a call of its own
    # through the hub, leaves the table too, and Ben's screen is sent the table as written (no read of its own).
    hub_, path = hub
    ann, ben = await asyncio.to_thread(HubStore, path), await asyncio.to_thread(HubStore, path)
    for store, person in ((ann, ANN), (ben, BEN)):
        await asyncio.to_thread(store.live.join, person.name, True, person.session)
        await asyncio.to_thread(store.live.enqueue, person)
    tables: list = []
    for _ in range(10):  # (a group of two waits for a straggler: the wave after seats it)
        tables = tables or await asyncio.to_thread(ben.live.match_wave, None, 1, interval=0.0, hold=0.0)
    [table] = tables
    assert sorted(table.names) == ["Ann", "Ben"]
    async with Listening(ben) as bens:
        await asyncio.to_thread(ben.live.table, table.table_id)
        left = await asyncio.to_thread(ann.live.leave_queue, ANN.session, unseen=True)
        assert left is not None and left.table_id == table.table_id
        seen = await bens.pushed(table.table_id, left.version)
    assert {seat.name: seat.gone for seat in seen.view_for(BEN).seats} == {"Ann": True, "Ben": False}
    assert (await asyncio.to_thread(ann.live.match_queue)).ticket(ANN.session) is None


async def test_a_connected_game_late_to_beat_stays_online_and_goes_once_its_connection_closes(tmp_path: Path,
                                                                                              monkeypatch) -> None:
    # Hundreds of games on a few cores: a game waiting for a core misses its heartbeats while its player is there.
    # The hub beats for a game whose connection is open; a game that is gone stops being beaten for.
    # (The intervals shortened: a presence is stale after 1.5 s here, the hub looks every 0.5 s.)
    import wom_tui.domain.store.folder.live as folder_live
    import wom_tui.serve.hub as hub_module

    monkeypatch.setattr(folder_live, "PRESENCE_STALE", 1.5)
    monkeypatch.setattr(hub_module, "HEARTBEAT_INTERVAL", 0.5)
    store = open_store(tmp_path / "data")
    store.register("Ann")
    hub = Hub(store, pool=2)
    path = str(tmp_path / "hub.sock")
    await hub.start(path)
    ann, ben = await asyncio.to_thread(HubStore, path), await asyncio.to_thread(HubStore, path)
    try:
        await asyncio.to_thread(ann.live.join, "Ann", True, ANN.session)  # and never beats again

        async def online() -> set[str]:
            return {presence.name for presence in await asyncio.to_thread(ben.live.sessions)}

        assert await online() == {"Ann"}
        await until(lambda: hub.held_beats >= 5)  # 2.5 s without a beat of Ann's game: stale but for the hub
        assert await online() == {"Ann"}
        await asyncio.to_thread(ann.close)  # her game ends: its connection closes
        folder = open_store(tmp_path / "data")  # (read beside the hub: a call to it would wait on this loop)
        await until(lambda: not folder.live.sessions(), timeout=30)
        assert await online() == set()
    finally:
        ben.close()
        await hub.close()


async def test_garbage_from_one_game_cuts_off_that_game_alone(hub) -> None:
    hub_, path = hub
    other = await asyncio.to_thread(HubStore, path)
    for garbage in (HEADER.pack(5) + b"\xc1\xc1\xc1\xc1\xc1",  # not MessagePack
                    frame(Call(1, "close")),  # not a method a game may call
                    frame(Call(1, "live.update_table", ["x", None])),  # a function cannot be sent
                    frame(Call(1, "register", [{"$": "Table", "v": {}}])),  # a name must be text
                    HEADER.pack(1 << 30)):  # a gigabyte announced
        sock = await asyncio.to_thread(_raw, path)
        sock.sendall(garbage)
        assert await asyncio.to_thread(_closed, sock)
        sock.close()
        assert [user.name for user in await asyncio.to_thread(other.users)] == ["Ann", "Ben"]
    assert hub_.cut_off == 5
    assert not hub_.store.live.tables().tables  # nothing was written


async def test_a_game_flooding_the_hub_is_cut_off_and_another_game_plays_on(hub) -> None:
    hub_, path = hub
    other = await asyncio.to_thread(HubStore, path)
    flood = await asyncio.to_thread(_raw, path)
    batch = frame(Call(1, "live.sessions")) * 200
    sent = 0

    def send_flood() -> None:
        nonlocal sent
        try:
            while sent < 20 * CALL_BURST:
                flood.sendall(batch)
                sent += 200
        except OSError:
            pass

    sender = asyncio.ensure_future(asyncio.to_thread(send_flood))
    table = await asyncio.to_thread(other.live.create_table, ANN, seats=2)
    assert await asyncio.to_thread(_closed, flood)
    await sender
    assert hub_.cut_off == 1
    assert (await asyncio.to_thread(other.live.play, table.table_id, Sit(BEN, 1))).names == ("Ann", "Ben")


async def test_one_game_holding_too_many_connections_has_the_extra_one_cut_off(hub) -> None:
    hub_, path = hub
    held = [await asyncio.to_thread(_raw, path) for _ in range(CONNECTIONS_PER_GAME)]
    extra = await asyncio.to_thread(_raw, path)  # (the hub's Hello comes first, then the cut)
    assert await asyncio.to_thread(_closed, extra)
    assert hub_.cut_off == 1
    held[0].sendall(frame(Call(1, "live.sessions")))
    assert (await asyncio.to_thread(read_message, held[0])).value == []
    for sock in held:
        sock.close()


async def test_a_subscription_that_sends_anything_is_cut_off(hub) -> None:
    hub_, path = hub
    sock = await asyncio.to_thread(_raw, path)
    sock.sendall(frame(Subscribe(1)))
    await asyncio.to_thread(read_message, sock)  # Ready
    sock.sendall(b"x")
    assert await asyncio.to_thread(_closed, sock)
    assert hub_.cut_off == 1


async def test_a_slow_subscriber_gets_every_change_merged_never_dropped(hub) -> None:
    hub_, path = hub
    sock = await asyncio.to_thread(_raw, path)
    sock.sendall(frame(Subscribe(1)))
    await asyncio.to_thread(read_message, sock)  # Ready
    writer = await asyncio.to_thread(HubStore, path)
    ids = set()
    for _ in range(30):  # while the subscriber reads nothing
        table = await asyncio.to_thread(writer.live.create_table, SeatHolder(f"Guest {len(ids) + 1}", f"s{len(ids)}", False))
        ids.add(table.table_id)
    seen: set[str] = set()
    while not ids <= seen:
        message = await asyncio.to_thread(read_message, sock)
        assert isinstance(message, Change)
        seen |= set(message.tables)
    sock.close()


async def test_the_hub_killed_mid_game_the_player_reads_it_a_newcomer_is_turned_away_and_play_goes_on(
    start_server: ServerFactory,
) -> None:
    server = await start_server(max_per_ip=8)
    assert server.hub is not None and server.hub.up
    store = open_store(server.settings.data_dir)
    keys = {name: new_key() for name in ("Ann", "Ben")}
    for name, key in keys.items():
        store.register(name, key=key.get_fingerprint())
    terms: dict[str, Terminal] = {}
    for name, key in keys.items():
        terms[name] = await open_terminal(await connect(server, name.lower(), key))
        await to_lobby(terms[name])
    ann, ben = terms["Ann"], terms["Ben"]
    await sit_down_together(ann, "Ann", ben, "Ben")
    await ann.wait_for_text("Your code")
    # The hub dies; the server holds its restart until the test lets it go.
    gate = asyncio.Event()
    start_again = server.hub.start_again

    async def held() -> None:
        await gate.wait()
        await start_again()

    server.hub.start_again = held  # type: ignore[method-assign]
    assert server.hub.process is not None
    os.kill(server.hub.process.pid, signal.SIGKILL)
    await until(lambda: not server.hub.up)
    ann.type("RGBY\r")
    await ann.wait_until(lambda t: "restarting" in t.text)  # "…the arcade's hub is not answering (it may be restarting)…"
    newcomer = await open_terminal(await connect(server, "guest", None))
    await newcomer.wait_until(lambda t: HUB_DOWN.strip()[:40] in t.text)
    await newcomer.wait_closed()
    gate.set()
    await until(lambda: server.hub.up)
    # The same code again (typed afresh), now acknowledged: it is kept.
    ann.type("\x7f" * 4)
    await ann.settle(0.3)
    ann.type("RGBY\r")
    table_id = store.live.tables().tables[0].table_id
    await until(lambda: store.live.table(table_id).view_for(0).seats[0].code_set)
    ben.type("WWKK\r")
    await ann.wait_for_text("Your guess")


def test_the_local_game_opens_its_own_store_no_server_no_hub(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", seed=1)
    assert settings.hub_socket is None
    store = open_settings_store(settings)
    assert not isinstance(store, HubStore)
    store.register("Solo")
    assert [user.name for user in store.users()] == ["Solo"]


async def test_a_read_that_began_before_the_hubs_own_write_never_sends_the_older_table(hub) -> None:
    """The hub reads a table the feed named (here: changed by hand in the folder) while a move through the hub
    writes it: the move's table goes out at once, and the read, which began before that write and returns
    after it, must not follow it with the older table. A screen kept it until the table's next change."""
    import threading

    hub_, path = hub
    ann, ben = await asyncio.to_thread(HubStore, path), await asyncio.to_thread(HubStore, path)
    table = await asyncio.to_thread(ann.live.create_table, ANN, seats=2, seed=5)
    table_id = table.table_id
    stop, ready = asyncio.Event(), asyncio.Event()
    seen: list[int] = []  # the version of the table Ben's screen would show after each change it hears

    async def listen() -> None:
        async for _change in ben.live.feed().changes(stop, ready):
            pushed = ben.live.pushed.get(table_id)
            if pushed is not None:
                seen.append(pushed.version)

    listening = asyncio.ensure_future(listen())
    await ready.wait()
    await asyncio.to_thread(ben.live.table, table_id)  # Ben's screen shows the table: its changes come with it
    real_read, began, release = hub_.live.table, threading.Event(), threading.Event()

    def slow_read(wanted: str):
        found = real_read(wanted)  # the file as it is when the read begins
        if threading.current_thread().name.startswith("hub-feed"):  # (the feed's read; not the move's own)
            began.set()
            release.wait(10)
        return found

    hub_.live.table = slow_read
    await asyncio.to_thread(hub_.store.live.update_table, table_id, lambda t: t.sit(BEN, 1))  # by hand: the feed
    assert await asyncio.to_thread(began.wait, 10), "the hub read the table the feed named"
    started = await asyncio.to_thread(ann.live.play, table_id, Start(ANN))  # the hub's own write, meanwhile
    await until(lambda: started.version in seen)
    release.set()
    hub_.live.table = real_read
    code_set = await asyncio.to_thread(ann.live.play, table_id, SetCode(ANN, "RGBY"))  # a later change, after it
    await until(lambda: code_set.version in seen)
    assert seen == sorted(seen), f"the table went back to an older version on Ben's screen: {seen}"
    assert (await asyncio.to_thread(ben.live.table, table_id)).version == code_set.version
    stop.set()
    listening.cancel()
