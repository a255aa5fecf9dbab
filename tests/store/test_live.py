"""Live state in one process: tables, recording, presence, damage, the feed.

Tests taking the ``store``/``live`` fixtures are the live contract and run on the data folder
(domain/store/folder/live.py) and on PostgreSQL (domain/store/postgres/live.py); the ones taking ``folder_store`` are about
files.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time

import psycopg
import pytest

from wom_tui.domain.presence import PRESENCE_STALE
from wom_tui.domain.store import StoreError, open_store
from wom_tui.domain.store.folder.feed import FolderFeed
from wom_tui.domain.store.folder.live import FolderLive as LiveState
from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.domain.table import CLOSED, FINISHED, GUESSING, Refused, SeatHolder

from .helpers import snapshot

ALAN = SeatHolder("Alan", "s-alan", True)
BEA = SeatHolder("Bea", "s-bea", True)


class Clock:
    """A clock the test moves by hand (the tables' time; presence uses the files' times)."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture(params=["json", "postgresql"])
def where(request, tmp_path):
    """Where the store is: a data folder, or an emptied schema of the session's PostgreSQL server."""
    if request.param == "json":
        return str(tmp_path / "data")
    return request.getfixturevalue("postgres_server").emptied_database("live")


@pytest.fixture
def opened():
    stores = []

    def opener(location):
        stores.append(open_store(location))
        return stores[-1]
    yield opener
    for store in stores:
        store.close()


@pytest.fixture
def store(where, opened):
    store = opened(where)
    store.register("Alan")
    store.register("Bea")
    return store


@pytest.fixture
def folder_store(tmp_path):
    store = Store(tmp_path / "data")
    store.register("Alan")
    store.register("Bea")
    return store


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def live(store, clock):
    store.live.clock = clock
    return store.live


@pytest.fixture
def folder_live(folder_store, clock):
    return LiveState(folder_store, clock=clock)


def kept(store) -> object:
    """Everything the store keeps, raw: each file's bytes, or each row of every table."""
    if isinstance(store, Store):
        return snapshot(store.data_dir)
    with psycopg.connect(store.url) as conn:
        names = [n for (n,) in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
                                            "ORDER BY 1")]
        return {n: conn.execute(f"SELECT * FROM {n} ORDER BY 1").fetchall() for n in names}


def presence_kept(live, session: str) -> bool:
    """Whether a session's presence record is still kept (fresh or stale)."""
    if isinstance(live, LiveState):
        return (live.presence_dir / f"{session}.json").exists()
    return bool(live.store._read("SELECT 1 FROM wom_presence WHERE session = %s", (session,)))


def age_table(live, table_id: str, seconds: float) -> None:
    """Make a table look last written ``seconds`` ago."""
    if isinstance(live, LiveState):
        old = time.time() - seconds
        os.utime(live.table_path(table_id), (old, old))
    else:
        live.store._transaction(lambda conn, _: conn.execute(
            "UPDATE wom_tables SET updated_at = now() - make_interval(secs => %s) WHERE id = %s",
            (seconds, table_id)))


def online(live: LiveState, *people: SeatHolder) -> None:
    for person in people:
        live.join(person.name, person.registered, person.session)


def backdate(live, session: str) -> None:
    """Make a session's heartbeat look older than the staleness limit (as if it was killed)."""
    if not isinstance(live, LiveState):
        live.store._transaction(lambda conn, _: conn.execute(
            "UPDATE wom_presence SET seen = now() - make_interval(secs => %s) WHERE session = %s",
            (PRESENCE_STALE + 1, session)))
        return
    path = live.presence_dir / f"{session}.json"
    old = time.time() - PRESENCE_STALE - 1
    os.utime(path, (old, old))


def play_to_the_end(live: LiveState, table_id: str) -> None:
    """Alan (seat 1) and Bea (seat 2) set codes; Bea breaks at once, Alan fails five times."""
    live.act(table_id, lambda t, now: t.start(ALAN, now))
    live.act(table_id, lambda t, now: t.set_code(ALAN, "RGBY", now))
    live.act(table_id, lambda t, now: t.set_code(BEA, "KKWW", now))
    live.act(table_id, lambda t, now: t.guess(BEA, "RGBY", now))
    for _ in range(5):
        live.act(table_id, lambda t, now: t.guess(ALAN, "RRRR", now))


def test_the_store_offers_the_live_state_of_its_folder(folder_store):
    store = folder_store
    assert store.live is store.live and store.live.tables_dir == store.data_dir / "tables"


def test_a_table_is_kept_in_the_store_and_another_store_sees_every_change(store, live, where, opened):
    online(live, ALAN, BEA)
    table = live.create_table(ALAN, seats=2, attempts=5)
    other = opened(where).live
    other.update_table(table.table_id, lambda t: t.sit(BEA, 1))
    assert live.table(table.table_id).names == ("Alan", "Bea")
    assert [t.table_id for t in live.tables().tables] == [table.table_id]


def test_a_refused_change_writes_nothing(store, live):
    table = live.create_table(ALAN, seats=2)
    live.update_table(table.table_id, lambda t: t.sit(BEA, 1))
    before = kept(store)
    with pytest.raises(Refused) as info:
        live.update_table(table.table_id, lambda t: t.sit(SeatHolder("Cy", "s-cy", False), 1))
    assert info.value.reason == "Seat 2 was just taken by Bea."
    assert kept(store) == before


def test_a_finished_game_is_recorded_once_with_everyones_points(store, live):
    online(live, ALAN, BEA)
    table = live.create_table(ALAN, seats=2, attempts=5)
    live.update_table(table.table_id, lambda t: t.sit(BEA, 1))
    play_to_the_end(live, table.table_id)
    done = live.table(table.table_id)
    assert done.phase == FINISHED and done.recorded and done.game_id
    scores = {u.name: (u.score, u.games) for u in store.users()}
    # Bea broke on 1 (5) + Alan failed her code (5); Alan 0 + Bea broke his on 1 (0).
    assert scores == {"Alan": (0, 1), "Bea": (10, 1)}
    live.sweep()
    live.tick(table.table_id)
    assert {u.name: (u.score, u.games) for u in store.users()} == scores
    assert len(store.games()) == 1


@pytest.mark.parametrize("crash", ["after taking the game id", "after recording the game"])
def test_a_recording_cut_short_is_finished_by_the_next_sweep_without_counting_twice(folder_store, folder_live, crash, monkeypatch):
    store, live = folder_store, folder_live
    online(live, ALAN, BEA)
    table = live.create_table(ALAN, seats=2, attempts=5)
    live.update_table(table.table_id, lambda t: t.sit(BEA, 1))

    class Killed(BaseException):
        pass

    real_record_game = store.record_game

    def dying_record_game(record, *, game_id=None):
        if crash == "after recording the game":
            real_record_game(record, game_id=game_id)
        raise Killed

    monkeypatch.setattr(store, "record_game", dying_record_game)
    with pytest.raises(Killed):
        play_to_the_end(live, table.table_id)
    monkeypatch.setattr(store, "record_game", real_record_game)
    half = live.table(table.table_id)
    assert half.phase == FINISHED and half.game_id and not half.recorded
    live.sweep()
    assert live.table(table.table_id).recorded
    assert {u.name: (u.score, u.games) for u in store.users()} == {"Alan": (0, 1), "Bea": (10, 1)}
    assert len(store.games()) == 1


def test_a_damaged_table_file_is_named_that_table_closed_and_nothing_else_touched(folder_store, folder_live):
    store, live = folder_store, folder_live
    good = live.create_table(ALAN, seats=2)
    bad = live.create_table(BEA, seats=3)
    path = live.table_path(bad.table_id)
    path.write_bytes(b'{"schema": 1, "table": {"id": 5}}')
    users_before = (store.data_dir / "users.json").read_bytes()
    with pytest.raises(StoreError) as info:
        live.table(bad.table_id)
    assert str(path) in str(info.value)
    listing = live.tables()
    assert [t.table_id for t in listing.tables] == [good.table_id]
    [problem] = listing.problems
    assert problem.path == path and "The table is closed" in problem.reason
    assert not path.exists()
    assert (live.damaged_dir / path.name).read_bytes() == b'{"schema": 1, "table": {"id": 5}}'
    assert (store.data_dir / "users.json").read_bytes() == users_before
    live.update_table(good.table_id, lambda t: t.sit(BEA, 1))  # the other table plays on


def test_a_table_damaged_under_a_player_closes_with_a_message_naming_it(folder_store, folder_live):
    live = folder_live
    table = live.create_table(ALAN, seats=2)
    path = live.table_path(table.table_id)
    path.write_text('{"schema": 1, "table": [')
    with pytest.raises(StoreError) as info:
        live.update_table(table.table_id, lambda t: t.sit(BEA, 1))
    assert info.value.path == path and "not valid JSON" in info.value.reason
    with pytest.raises(LookupError):
        live.update_table(table.table_id, lambda t: t.sit(BEA, 1))


def test_guests_arriving_at_the_same_instant_get_different_numbers(where, store, opened):
    """Six guest sessions, each its own store (as six processes), join at once: Guest 1 to Guest 6,
    each number once; a registered name beside them takes none."""
    import threading

    lives = [opened(where).live for _ in range(6)]
    store.live.join("Alan", True, "s-alan")
    gate, labels = threading.Barrier(len(lives)), []
    # As on a busy machine: each guest, having looked at who is online, goes on only once every other
    # has looked too, waits for the folder's lock, or is done. Numbers chosen before any was written
    # would all be Guest 1.
    state = threading.Condition()
    looked: set[int] = set()
    waiting: set[int] = set()
    done: set[int] = set()

    def others_moved_on(index: int) -> bool:
        return all(other in looked | waiting | done for other in range(len(lives)) if other != index)

    for index, live in enumerate(lives):
        def look(index=index, sessions=live.sessions):
            found = sessions()
            with state:
                looked.add(index)
                state.notify_all()
                state.wait_for(lambda: others_moved_on(index), timeout=30)
            return found
        live.sessions = look
        if isinstance(live, LiveState):  # (a database's guests take an advisory lock instead)
            def acquire(index=index, take=live.store._lock.acquire):
                with state:
                    waiting.add(index)
                    state.notify_all()
                try:
                    take()
                finally:
                    with state:
                        waiting.discard(index)

            live.store._lock.acquire = acquire

    def arrive(index: int) -> None:
        gate.wait()
        try:
            labels.append(lives[index].join_guest(f"s-guest{index}").name)
        finally:
            with state:
                done.add(index)
                state.notify_all()

    threads = [threading.Thread(target=arrive, args=(i,)) for i in range(len(lives))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(labels) == [f"Guest {n}" for n in range(1, 7)]
    assert sorted(p.name for p in store.live.sessions()) == ["Alan"] + [f"Guest {n}" for n in range(1, 7)]


def test_presence_lists_live_sessions_and_a_killed_one_disappears(live):
    alan = live.join("Alan", True, "s-alan")
    live.join("guest 2", False, "s-guest")
    assert [(p.name, p.registered) for p in live.sessions()] == [("Alan", True), ("guest 2", False)]
    backdate(live, "s-guest")
    assert [p.name for p in live.sessions()] == ["Alan"]
    assert presence_kept(live, "s-guest")
    live.sweep()
    assert not presence_kept(live, "s-guest")
    backdate(live, "s-alan")
    live.heartbeat(alan)
    assert [p.name for p in live.sessions()] == ["Alan"]
    live.part("s-alan")
    assert live.sessions() == []
    live.heartbeat(alan)  # a heartbeat after its record was collected brings it back
    assert [p.name for p in live.sessions()] == ["Alan"]


def test_a_killed_session_keeps_its_seat_for_the_grace_then_the_game_goes_on(store, live, clock):
    online(live, ALAN, BEA)
    table = live.create_table(ALAN, seats=2, attempts=5, grace=120.0)
    live.update_table(table.table_id, lambda t: t.sit(BEA, 1))
    live.act(table.table_id, lambda t, now: t.start(ALAN, now))
    live.act(table.table_id, lambda t, now: t.set_code(ALAN, "RGBY", now))
    live.act(table.table_id, lambda t, now: t.set_code(BEA, "KKWW", now))
    live.act(table.table_id, lambda t, now: t.guess(BEA, "RGYB", now))
    backdate(live, BEA.session)  # Bea's process was killed
    [t] = live.sweep().tables
    assert t.view_for(None).seats[1].away and not t.view_for(None).seats[1].gone
    clock.now += 119
    back = SeatHolder("Bea", "s-bea-2", True)
    online(live, back)
    seat = live.act(table.table_id, lambda t, now: t.resume(back, now))
    view = live.table(table.table_id).view_for(back)
    assert seat == 1 and not view.seats[1].away and [a.guess for a in view.own.history] == ["RGYB"]
    backdate(live, back.session)
    live.sweep()
    clock.now += 121
    [t] = live.sweep().tables
    assert t.view_for(None).seats[1].gone and t.phase == GUESSING
    live.act(table.table_id, lambda t, now: t.guess(ALAN, "KKWW", now))
    assert {u.name: u.score for u in store.users()} == {"Alan": 10, "Bea": 0}


def test_an_abandoned_open_table_closes_and_ended_tables_are_cleared_later(live, clock):
    online(live, ALAN)
    table = live.create_table(ALAN, seats=2, grace=10.0)
    backdate(live, ALAN.session)
    live.sweep()
    clock.now += 10
    [t] = live.sweep().tables
    assert t.phase == CLOSED
    clock.now += 3600
    assert [x.table_id for x in live.sweep().tables] == [table.table_id]  # kept a while for its results to be read
    age_table(live, table.table_id, 3600)
    assert live.sweep().tables == ()


class Subscriber:
    """Collects a feed's changes in the background; ``until`` waits (bounded) for a condition on them."""

    def __init__(self, feed) -> None:
        self.feed, self.seen = feed, []
        self.stop, self.ready, self.arrived = asyncio.Event(), asyncio.Event(), asyncio.Event()

    async def __aenter__(self):
        self.task = asyncio.create_task(self._run())
        await asyncio.wait_for(self.ready.wait(), 10)
        return self

    async def _run(self):
        async for change in self.feed.changes(self.stop, self.ready):
            self.seen.append(change)
            self.arrived.set()

    async def until(self, condition, timeout: float = 10.0):
        deadline = time.monotonic() + timeout
        while not condition(self.seen):
            self.arrived.clear()
            remaining = deadline - time.monotonic()
            assert remaining > 0, f"the change never came; seen: {self.seen}"
            try:
                await asyncio.wait_for(self.arrived.wait(), remaining)
            except asyncio.TimeoutError:
                pass

    async def __aexit__(self, *exc):
        self.stop.set()
        await asyncio.wait_for(self.task, 10)


class Used:
    """A folder feed that checks, once it is done, that it ran on the watcher asked for."""

    def __init__(self, feed: FolderFeed, expected: str) -> None:
        self.feed, self.expected = feed, expected

    async def changes(self, stop, ready):
        async for change in self.feed.changes(stop, ready):
            yield change
        assert self.feed.used == self.expected, f"asked for {self.expected}, ran on {self.feed.used}"


def feeds(live) -> list:
    """Every change feed a store offers: the folder's inotify (Linux), watchfiles and polling; the
    database's LISTEN."""
    if isinstance(live, LiveState):
        watchers = (["inotify"] if sys.platform == "linux" else []) + ["watchfiles", "polling"]
        return [Used(FolderFeed(live.store.data_dir, watcher=watcher, poll_interval=0.05), watcher)
                for watcher in watchers]
    return [live.feed()]


async def test_the_feed_reports_table_and_presence_changes_but_not_heartbeats(live):
    for number, feed in enumerate(feeds(live)):
        session = f"s-alan-{number}"
        async with Subscriber(feed) as sub:
            alan = await asyncio.to_thread(live.join, "Alan", True, session)
            opener = SeatHolder(f"Guest {number + 1}", f"s-guest-{number}", False)  # one unstarted table each
            table = await asyncio.to_thread(live.create_table, opener)
            await sub.until(lambda seen: any(c.presence for c in seen) and any(table.table_id in c.tables for c in seen))
            count = len(sub.seen)
            await asyncio.to_thread(live.heartbeat, alan)
            await asyncio.to_thread(live.update_table, table.table_id, lambda t: t.sit(BEA, 1))
            await sub.until(lambda seen: any(table.table_id in c.tables for c in seen[count:]))
            assert not any(c.presence for c in sub.seen[count:])
            count = len(sub.seen)
            await asyncio.to_thread(live.store.register, f"Cy{number}")
            await sub.until(lambda seen: any(c.scores for c in seen[count:]))


async def test_the_feed_reports_a_session_parting_and_one_collected_after_it_was_killed(live):
    for number, feed in enumerate(feeds(live)):
        gone, killed = f"s-gone-{number}", f"s-killed-{number}"
        await asyncio.to_thread(live.join, "Alan", True, gone)
        await asyncio.to_thread(live.join, "Bea", True, killed)
        async with Subscriber(feed) as sub:
            await asyncio.to_thread(live.part, gone)
            await sub.until(lambda seen: any(c.presence for c in seen))
            count = len(sub.seen)
            await asyncio.to_thread(backdate, live, killed)
            await asyncio.to_thread(live.sweep)
            await sub.until(lambda seen: any(c.presence for c in seen[count:]))
        assert not presence_kept(live, killed)


async def test_a_folder_that_cannot_be_watched_with_inotify_falls_back_and_still_reports(folder_live, monkeypatch):
    """Past the system's inotify limits (or without the library): ``watchfiles``, else polling."""
    import errno

    if sys.platform == "linux":  # a dependency there (pyproject.toml): never skipped
        import inotify_simple

        def no_more_watches(self, path, mask):
            raise OSError(errno.ENOSPC, "inotify watch limit reached")
        monkeypatch.setattr(inotify_simple.INotify, "add_watch", no_more_watches)
    folder = folder_live.store.data_dir
    for number, (feed, expected) in enumerate(((FolderFeed(folder), "watchfiles"),
                                               (FolderFeed(folder, watcher="inotify", poll_interval=0.05), "polling"))):
        if sys.platform != "linux" and feed.watcher == "inotify":
            continue
        async with Subscriber(Used(feed, expected)) as sub:
            opener = SeatHolder(f"Guest {number + 1}", f"s-guest-{number}", False)  # one unstarted table each
            table = await asyncio.to_thread(folder_live.create_table, opener)
            await sub.until(lambda seen: any(table.table_id in c.tables for c in seen))


async def test_the_folder_feed_sees_tables_in_a_tables_folder_made_after_it_started(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    async with Subscriber(FolderFeed(data)) as sub:
        live = await asyncio.to_thread(lambda: LiveState(Store(data)))
        table = await asyncio.to_thread(live.create_table, ALAN)
        await sub.until(lambda seen: any(table.table_id in c.tables for c in seen))


async def test_many_changes_at_once_reach_a_busy_subscriber_merged(folder_live):
    """Eight tables changing while the subscriber is busy: it gets them in a few changes, not one per file event."""
    tables = [await asyncio.to_thread(folder_live.create_table, SeatHolder(f"P{n}", f"s-p{n}", True))
              for n in range(8)]
    feed = FolderFeed(folder_live.store.data_dir)
    stop, ready = asyncio.Event(), asyncio.Event()
    changes = feed.changes(stop, ready)
    first = asyncio.ensure_future(changes.__anext__())
    await asyncio.wait_for(ready.wait(), 10)
    for table in tables:  # the subscriber does not take anything meanwhile
        await asyncio.to_thread(folder_live.update_table, table.table_id, lambda t: t.sit(BEA, 1))
    seen = [await asyncio.wait_for(first, 10)]
    wanted = {t.table_id for t in tables}
    while not wanted <= set().union(*(c.tables for c in seen)):
        seen.append(await asyncio.wait_for(changes.__anext__(), 10))
    assert len(seen) <= 2, seen
    stop.set()
    await changes.aclose()


def test_computers_think_outside_the_lock(folder_store, folder_live, clock, monkeypatch):
    store, live = folder_store, folder_live
    from wom_tui.domain import table as table_module

    thought_locked = []
    real = table_module.computer_player

    class Watched:
        def __init__(self, name):
            self.inner = real(name)

        def make_guess(self, *args):
            thought_locked.append(store._lock.is_locked)
            return self.inner.make_guess(*args)

    online(live, ALAN)
    table = live.create_table(ALAN, seats=2, attempts=5, pace=(1.0, 1.0))
    live.update_table(table.table_id, lambda t: t.seat_computer(ALAN, 1, "HAL9000"))
    live.act(table.table_id, lambda t, now: t.start(ALAN, now))
    live.act(table.table_id, lambda t, now: t.set_code(ALAN, "RGBY", now))
    monkeypatch.setattr(table_module, "computer_player", Watched)
    clock.now += 3
    live.tick(table.table_id)
    clock.now += 10
    live.sweep()
    assert live.table(table.table_id).view_for(None).seats[1].attempts_used >= 2
    assert thought_locked and not any(thought_locked)


def test_a_move_is_on_disk_when_act_returns_and_its_folder_sync_does_not_hold_the_lock(folder_store, folder_live,
                                                                                       monkeypatch):
    """Every table's moves take the folder's one lock in turn: the tables folder's fsync (as long as the
    file's own) comes after the lock is released, and before ``act`` returns."""
    store, live = folder_store, folder_live
    from wom_tui.domain.store.folder import live as live_module

    synced = []
    real = live_module.fsync_folder
    monkeypatch.setattr(live_module, "fsync_folder", lambda folder: (synced.append((folder, store._lock.is_locked)),
                                                                      real(folder)))
    online(live, ALAN, BEA)
    table = live.create_table(ALAN, seats=2, attempts=5)
    live.update_table(table.table_id, lambda t: t.sit(BEA, 1))
    synced.clear()
    live.act(table.table_id, lambda t, now: t.start(ALAN, now))
    assert synced == [(live.tables_dir, False)]
    with pytest.raises(Refused):
        live.act(table.table_id, lambda t, now: t.start(ALAN, now))  # refused: nothing written, nothing synced
    assert synced == [(live.tables_dir, False)]


def test_a_move_raced_by_another_process_is_made_again_on_the_table_as_it_is_then(folder_store, folder_live):
    """A move is worked out and written beside the table without the lock; if another process changed
    the table meanwhile, the move is made again under the lock on the table as it is then: both stand."""
    store, live = folder_store, folder_live
    other = LiveState(Store(store.data_dir), clock=live.clock)
    online(live, ALAN, BEA)
    table = live.create_table(ALAN, seats=2, attempts=5)
    tid = table.table_id
    live.update_table(tid, lambda t: t.sit(BEA, 1))
    live.act(tid, lambda t, now: t.start(ALAN, now))
    live.act(tid, lambda t, now: t.set_code(ALAN, "RGBY", now))
    live.act(tid, lambda t, now: t.set_code(BEA, "KKWW", now))
    runs = []

    def alan_guesses(t, now):
        if not runs:  # while Alan's move is on its way, Bea's guess lands
            other.act(tid, lambda t2, now2: t2.guess(BEA, "RRRR", now2))
        runs.append(t.version)
        return t.guess(ALAN, "GGGG", now)

    live.act(tid, alan_guesses)
    assert len(runs) == 2 and runs[1] > runs[0]
    assert [s.attempts_used for s in live.table(tid).view_for(None).seats] == [1, 1]
    assert not list(live.tables_dir.glob(".*"))  # no new file left beside the tables


def test_a_stray_file_in_the_tables_folder_is_not_a_table(folder_live):
    live = folder_live
    table = live.create_table(ALAN)
    (live.tables_dir / "notes from bob.json").write_text("hello")
    assert [t.table_id for t in live.sweep().tables] == [table.table_id]


def test_a_table_read_again_is_its_own_copy_and_a_change_by_another_process_is_seen(folder_store, folder_live):
    # The live state keeps the tables it read or wrote (parsing and checking the file at
    # every read was a good part of a guess's cost): what it hands out must still be independent
    # copies, and a write by another process (another LiveState on the folder) must be read.
    live = folder_live
    online(live, ALAN, BEA)
    table = live.create_table(ALAN, seats=2, attempts=5)
    live.update_table(table.table_id, lambda t: t.sit(BEA, 1))
    live.act(table.table_id, lambda t, now: t.start(ALAN, now))
    for who in (ALAN, BEA):
        live.act(table.table_id, lambda t, now, who=who: t.set_code(who, "RGBY", now))
    first = live.table(table.table_id)
    first.guess(ALAN, "WWWW", 0.0)  # a screen's own copy, changed: the store's is not
    assert live.table(table.table_id).view_for(ALAN).seats[0].attempts_used == 0
    other = LiveState(Store(folder_store.data_dir))
    other.act(table.table_id, lambda t, now: t.guess(BEA, "WWWW", now))
    seen = live.table(table.table_id).view_for(None).seats
    assert (seen[0].attempts_used, seen[1].attempts_used) == (0, 1)
    live.act(table.table_id, lambda t, now: t.guess(ALAN, "RGBY", now))
    assert other.table(table.table_id).view_for(None).seats[0].broke


def test_of_the_processes_sharing_a_folder_one_sweeps_at_each_beat(folder_store, folder_live):
    # Every process with a live screen open swept every table every couple of seconds (with 24
    # sessions, every table was parsed 12 times a second): the first to claim a beat sweeps it.
    others = [LiveState(Store(folder_store.data_dir)) for _ in range(3)]
    claims = [live.claim_sweep(3600.0) for live in (folder_live, *others)]
    assert claims == [True, False, False, False]
    assert [live.claim_sweep(0.000001) for live in others[:1]] == [True]  # a new beat: swept again
    marks = [p.name for p in folder_live.presence_dir.iterdir() if p.name.startswith(".swept")]
    assert len(marks) == 1  # the old claims are cleared away
    assert folder_live.sessions() == []  # and never taken for a session


def test_record_game_with_a_game_id_records_it_once_however_often_it_is_asked(store):
    from wom_tui.domain.store.documents import new_game_id

    from .helpers import wom_game

    game_id = new_game_id()
    assert store.record_game(wom_game("Alan", points=3), game_id=game_id) == game_id
    assert store.record_game(wom_game("Alan", points=3), game_id=game_id) == game_id
    assert (store.user("Alan").score, store.user("Alan").games) == (3, 1)
    assert len(store.games()) == 1
    with pytest.raises(ValueError):
        store.record_game(wom_game("Alan"), game_id="../../etc/passwd")


def test_a_damaged_presence_record_is_ignored_then_collected_and_bad_names_never_join(folder_live):
    live = folder_live
    live.join("Alan", True, "s-alan")
    (live.presence_dir / "s-bad.json").write_text('{"schema": 1, "session": "s-bad", "name": "\\u001b[31mX"}')
    assert [p.name for p in live.sessions()] == ["Alan"]
    backdate(live, "s-bad")
    live.sweep()
    assert not (live.presence_dir / "s-bad.json").exists()
    with pytest.raises(ValueError):
        live.join("\x1b[31mEvil", False)
    with pytest.raises(ValueError):
        live.join("HAL9000", False)


@pytest.fixture
def pg_live(postgres_server, opened, clock):
    store = opened(postgres_server.new_database())
    store.register("Alan")
    store.register("Bea")
    store.live.clock = clock
    return store.live


def test_a_damaged_table_row_is_named_that_table_closed_and_nothing_else_touched(pg_live):
    live, store = pg_live, pg_live.store
    good = live.create_table(ALAN, seats=2)
    bad = live.create_table(BEA, seats=3)
    store._transaction(lambda conn, _: conn.execute(
        "UPDATE wom_tables SET state = '{\"id\": 5}' WHERE id = %s", (bad.table_id,)))
    users_before = [(u.name, u.score, u.games) for u in store.users()]
    with pytest.raises(StoreError) as info:
        live.table(bad.table_id)
    assert f"table wom_tables, row {bad.table_id!r}" in str(info.value)
    listing = live.tables()
    assert [t.table_id for t in listing.tables] == [good.table_id]
    [problem] = listing.problems
    assert bad.table_id in str(problem) and "The table is closed" in problem.reason
    assert store._read("SELECT id, state FROM wom_damaged_tables") == [(bad.table_id, {"id": 5})]
    assert live.table(bad.table_id) is None
    assert [(u.name, u.score, u.games) for u in store.users()] == users_before
    live.update_table(good.table_id, lambda t: t.sit(BEA, 1))  # the other table plays on


def test_a_recording_that_fails_leaves_the_move_and_the_next_sweep_records_it_once(pg_live, monkeypatch):
    live, store = pg_live, pg_live.store
    online(live, ALAN, BEA)
    table = live.create_table(ALAN, seats=2, attempts=5)
    live.update_table(table.table_id, lambda t: t.sit(BEA, 1))
    real = store._record_in

    def failing(conn, record, game_id):
        real(conn, record, game_id)  # the game and the points are written, then the savepoint fails
        raise ValueError("the database said no")

    monkeypatch.setattr(store, "_record_in", failing)
    play_to_the_end(live, table.table_id)
    half = live.table(table.table_id)
    assert half.phase == FINISHED and not half.recorded
    assert store.games() == [] and {u.name: u.games for u in store.users()} == {"Alan": 0, "Bea": 0}
    monkeypatch.setattr(store, "_record_in", real)
    assert live.sweep().problems == ()
    assert live.table(table.table_id).recorded
    live.sweep()
    assert {u.name: (u.score, u.games) for u in store.users()} == {"Alan": (0, 1), "Bea": (10, 1)}
    assert len(store.games()) == 1


def test_a_stale_heartbeat_is_judged_by_the_database_clock_not_the_tables(pg_live, clock):
    alan = pg_live.join("Alan", True, "s-alan")
    clock.now += 3600  # the tables' clock moves; presence does not care
    assert [p.session for p in pg_live.sessions()] == ["s-alan"]
    backdate(pg_live, "s-alan")
    assert pg_live.sessions() == []
    pg_live.heartbeat(alan)
    assert [p.session for p in pg_live.sessions()] == ["s-alan"]


async def test_two_arcades_in_one_database_do_not_wake_each_other(postgres_server, opened):
    mine, theirs = opened(postgres_server.new_database()), opened(postgres_server.new_database())
    async with Subscriber(mine.live.feed()) as sub:
        await asyncio.to_thread(theirs.live.create_table, ALAN)
        table = await asyncio.to_thread(mine.live.create_table, BEA)
        await sub.until(lambda seen: any(table.table_id in c.tables for c in seen))
        assert all(c.tables <= {table.table_id} for c in sub.seen)


async def test_every_subscriber_in_a_process_shares_one_source_which_stops_after_the_last(live, monkeypatch):
    """Many screens (or many sessions of one process) watching: one watcher or LISTEN connection."""
    from wom_tui.domain.store import feed as live_module

    monkeypatch.setattr(live_module.SharedFeed, "LINGER", 0.01)
    feed = live.feed()
    hub = live_module.shared_feed(feed.key, feed.make_source)
    made = []
    real = hub._make_source
    monkeypatch.setattr(hub, "_make_source", lambda: made.append(1) or real())
    async with Subscriber(live.feed()) as one, Subscriber(live.feed()) as two:
        table = await asyncio.to_thread(live.create_table, ALAN)
        for sub in (one, two):
            await sub.until(lambda seen: any(table.table_id in c.tables for c in seen))
        async with Subscriber(live.feed()) as late:  # joins a running source: ready at once
            await asyncio.to_thread(live.update_table, table.table_id, lambda t: t.sit(BEA, 1))
            await late.until(lambda seen: any(table.table_id in c.tables for c in seen))
    assert made == [1]
    await asyncio.wait_for(hub._task, 10)  # the last one left: the source stops
    async with Subscriber(live.feed()) as again:  # and starts afresh for the next one
        await asyncio.to_thread(live.update_table, table.table_id, lambda t: t.stand(BEA))
        await again.until(lambda seen: any(table.table_id in c.tables for c in seen))
    assert made == [1, 1]


# ---- how many tables one person and one address may hold open (docs/play.md, *Tables*)


def test_a_person_holds_one_table_that_has_not_started(live):
    """A second open by the same person is refused with the reason, and nothing is kept; once the
    first has started or closed, another may be opened."""
    first = live.create_table(ALAN, seats=2)
    before = [t.table_id for t in live.tables().tables]
    with pytest.raises(Refused, match="already have a table"):
        live.create_table(ALAN, seats=3)
    with pytest.raises(Refused, match="already have a table"):  # the same person on another session
        live.create_table(SeatHolder("Alan", "s-alan-2", True), seats=3)
    assert [t.table_id for t in live.tables().tables] == before
    live.create_table(BEA, seats=2)  # someone else may
    live.act(first.table_id, lambda t, now: t.close(ALAN))
    assert live.create_table(ALAN, seats=2).creator == ALAN


def test_an_address_holds_a_few_open_tables(live):
    """Guests on many sessions from one address: the cap of open tables per address holds, with the reason;
    another address, or a table started, makes room."""
    guests = [SeatHolder(f"Guest {n}", f"s-guest-{n}", False) for n in range(1, 6)]
    opened = [live.create_table(g, origin="192.0.2.7", per_address=3) for g in guests[:3]]
    with pytest.raises(Refused, match="at most 3"):
        live.create_table(guests[3], origin="192.0.2.7", per_address=3)
    assert len(live.tables().tables) == 3
    live.create_table(guests[3], origin="198.51.100.1", per_address=3)
    live.act(opened[0].table_id, lambda t, now: t.seat_computer(guests[0], 1, "HAL9000"))
    live.act(opened[0].table_id, lambda t, now: t.start(guests[0], now))
    assert live.create_table(guests[4], origin="192.0.2.7", per_address=3).origin == "192.0.2.7"
    assert live.table(opened[1].table_id).origin == "192.0.2.7"  # kept with the table


def test_tables_opened_at_once_from_one_address_never_pass_the_cap(where, opened):
    """Eight sessions of one address opening tables at the same instant, each on its own connection:
    the count and the insert are one step, so exactly the cap's number get through."""
    import threading

    stores = [opened(where) for _ in range(8)]
    barrier = threading.Barrier(8)
    results: list[object] = []

    def open_one(n: int) -> None:
        barrier.wait()
        try:
            stores[n].live.create_table(SeatHolder(f"Guest {n + 1}", f"s-g{n}", False), origin="192.0.2.9",
                                        per_address=2)
            results.append("opened")
        except Refused as refused:
            results.append(refused.reason)

    threads = [threading.Thread(target=open_one, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert results.count("opened") == 2, results
    assert len(stores[0].live.tables().tables) == 2
