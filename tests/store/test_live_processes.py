"""Live state shared by real processes: seats, a whole table, the feed (on a data folder and on one
PostgreSQL database, as servers on two machines would share it); kills (on a data folder)."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import signal
import time
from pathlib import Path

import pytest

from wom_tui.domain.presence import PRESENCE_STALE
from wom_tui.domain.store import open_store
from wom_tui.domain.store.folder.live import FolderLive as LiveState
from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.domain.table import CLOSED, FINISHED, SEAT_GRACE, SeatHolder

from .live_workers import CTX, TIMEOUT, create_table, play_forever, play_one_killed_at, play_seat, take_seat
from .test_live import Subscriber
from .workers import leftovers, start_all, wait_until

ALAN = SeatHolder("Alan", "s-Alan", True)


@pytest.fixture
def folder(tmp_path) -> Path:
    folder = tmp_path / "data"
    store = Store(folder)
    for name in ("Alan", "Bea", "Cy", "Dee"):
        store.register(name)
    return folder


@pytest.fixture(params=["json", "postgresql"])
def where(request, tmp_path) -> str:
    """A store shared by the processes: a data folder, or a PostgreSQL schema (servers on other machines)."""
    if request.param == "json":
        location = str(tmp_path / "data")
    else:
        location = request.getfixturevalue("postgres_server").emptied_database("live")
    store = open_store(location)
    for name in ("Alan", "Bea", "Cy", "Dee"):
        store.register(name)
    store.close()  # (no store of the test process's open while it forks: see ``workers.start_all``)
    return location


class Opener:
    """Opens a store's live state in the test process; ``close()`` closes every store it opened (before a
    fork: their connection pools run threads, see ``workers.start_all``)."""

    def __init__(self) -> None:
        self.stores: list = []

    def __call__(self, location):
        self.stores.append(open_store(location))
        return self.stores[-1].live

    def close(self) -> None:
        for store in self.stores:
            store.close()
        self.stores.clear()


@pytest.fixture
def live_at():
    """Opens a store's live state in the test process, closing the stores afterwards."""
    opener = Opener()
    yield opener
    opener.close()


def finish(processes) -> None:
    for process in processes:
        process.join(TIMEOUT)
        assert process.exitcode == 0, f"{process.name} ended with {process.exitcode}"


def test_two_processes_racing_for_the_last_seat_exactly_one_gets_it(where, live_at):
    folder = where
    for n in range(8):
        opener = SeatHolder(f"Opener {n}", f"s-opener-{n}", False)  # (one unstarted table per person)
        table = live_at(where).create_table(opener, seats=2)
        live_at.close()
        go, results = CTX.Event(), CTX.Queue()
        racers = [CTX.Process(target=take_seat, args=(str(folder), table.table_id, name, go, results))
                  for name in ("Bea", "Cy")]
        start_all(racers)
        go.set()
        outcome = dict(results.get(timeout=TIMEOUT) for _ in racers)
        finish(racers)
        winners = [name for name, said in outcome.items() if said == "ok"]
        assert len(winners) == 1, outcome
        [loser] = set(outcome) - set(winners)
        assert outcome[loser] == f"Seat 2 was just taken by {winners[0]}."
        assert live_at(where).table(table.table_id).names == (opener.name, winners[0])
        live_at.close()


def test_three_processes_and_hal9000_play_a_table_to_the_results_recorded_once(where, live_at):
    folder = where
    live = live_at(where)
    table = live.create_table(ALAN, seats=4, attempts=8, pace=(0.05, 0.2))
    live.update_table(table.table_id, lambda t: t.seat_computer(ALAN, 3, "HAL9000"))
    live_at.close()
    results = CTX.Queue()
    players = [
        CTX.Process(target=play_seat, args=(str(folder), table.table_id, name, seat, code, results), name=name)
        for seat, (name, code) in enumerate((("Alan", "RGBY"), ("Bea", "KKWW"), ("Cy", "YYBB")))
    ]
    start_all(players)
    seen = [results.get(timeout=TIMEOUT) for _ in players]
    finish(players)
    live = live_at(where)
    done = live.table(table.table_id)
    assert done.phase == FINISHED and done.recorded
    # Every seat saw the same results, from the table as written once, and the same scoreboard.
    assert len({messages for _, _, messages, _, _ in seen}) == 1
    assert len({tuple(board) for *_, board in seen}) == 1
    [record] = live.store.games()
    assert [p.name for p in record.players] == ["Alan", "Bea", "Cy", "HAL9000"]
    assert {u.name: (u.score, u.games) for u in live.store.users() if u.games} == {
        p.name: (p.points, 1) for p in record.players if p.is_user
    }
    assert seen[0][4] == [(u.name, u.score, u.games) for u in live.store.scoreboard()]
    for name, _, _, attempts, _ in seen:
        assert next(p.attempts for p in record.players if p.name == name) == attempts
    assert live.sessions() == []  # each process parted cleanly


def recover_and_check(folder: Path) -> None:
    """What later sessions do after a killed one: its heartbeat goes stale, a sweep notices the seat
    away, and once the grace has run out the game goes on and ends. Then nothing is stuck."""
    presence = folder / "presence" / "s-alan.json"
    old = time.time() - PRESENCE_STALE - 1
    if presence.exists():
        os.utime(presence, (old, old))
    clock = [time.time()]
    later = LiveState(Store(folder), clock=lambda: clock[0])
    later.sweep()
    clock[0] += SEAT_GRACE + 1
    listing = later.sweep()
    assert listing.problems == ()
    for table in listing.tables:
        assert (table.phase == FINISHED and table.recorded) or table.phase == CLOSED, table


def check_points_once(folder: Path) -> int:
    """Alan's games and points are exactly those of the games on file, each table's game filed once."""
    store = Store(folder)
    records = [r for r in store.games() if r.kind == "wom"]
    alan = store.user("Alan")
    assert alan.games == len(records)
    assert alan.score == sum(r.points().get("Alan", 0) for r in records)
    ids = [t.game_id for t in LiveState(store).tables().tables if t.game_id]
    assert len(ids) == len(set(ids)) == len(records)
    assert leftovers(folder) == (0, 0)
    return len(records)


def test_a_process_killed_before_any_of_its_writes_leaves_no_table_stuck_and_no_points_twice(folder):
    step, killed = 1, 0
    while True:
        worker = CTX.Process(target=play_one_killed_at, args=(str(folder), step))
        worker.start()
        worker.join(TIMEOUT)
        if worker.exitcode == 0:
            break  # past the last write: the game went through untouched
        assert worker.exitcode == -signal.SIGKILL
        killed += 1
        recover_and_check(folder)
        step += 1
    assert killed >= 12  # presence, table, HAL9000, start, code, guesses, then the recording's writes
    # Killed before one of the first four writes (presence, table, HAL9000, start), the table never
    # started and was closed; every other table ended and was recorded, exactly once.
    assert check_points_once(folder) == killed + 1 - 4


def test_a_process_killed_at_any_moment_leaves_no_table_stuck_and_no_points_twice(folder):
    rng = random.Random(2026)
    for _ in range(10):
        games = CTX.Value("i", 0)
        worker = CTX.Process(target=play_forever, args=(str(folder), games))
        worker.start()
        wait_until(lambda: games.value >= 1, "a first game")
        assert worker.is_alive(), f"the player died on its own (exit code {worker.exitcode})"
        # A random spin, so the kill lands anywhere in the life of the next table, writes included.
        until = time.perf_counter() + rng.uniform(0, 0.03)
        while time.perf_counter() < until:
            pass
        os.kill(worker.pid, signal.SIGKILL)
        worker.join(TIMEOUT)
        recover_and_check(folder)
    check_points_once(folder)


async def test_a_change_written_by_another_process_reaches_a_subscriber(where, live_at):
    folder = where
    live = live_at(where)
    async with Subscriber(live.feed()) as sub:
        # Spawned, not forked: this process listens (the feed's threads run) while the writer starts.
        spawn = multiprocessing.get_context("spawn")
        results = spawn.Queue()
        writer = spawn.Process(target=create_table, args=(str(folder), "Bea", results))
        writer.start()
        table_id = await asyncio.to_thread(results.get, True, TIMEOUT)
        await asyncio.to_thread(writer.join, TIMEOUT)
        await sub.until(lambda seen: any(table_id in c.tables for c in seen))
    assert live.table(table_id).names == ("Bea", None)


def test_a_server_killed_at_any_moment_on_postgresql_leaves_no_table_stuck_and_no_points_twice(postgres_server, live_at):
    """As the folder's kill test: a process playing on the database is killed anywhere (mid-transaction
    included); a later session's sweeps finish every table, and each game's points count once."""
    url = postgres_server.new_database()
    live_at(url).store.register("Alan")
    rng = random.Random(2027)
    for _ in range(6):
        live_at.close()
        games = CTX.Value("i", 0)
        worker = CTX.Process(target=play_forever, args=(url, games))
        start_all([worker])
        wait_until(lambda: games.value >= 1, "a first game", process=worker)
        assert worker.is_alive(), f"the player died on its own (exit code {worker.exitcode})"
        until = time.perf_counter() + rng.uniform(0, 0.03)
        while time.perf_counter() < until:
            pass
        os.kill(worker.pid, signal.SIGKILL)
        worker.join(TIMEOUT)
        live = live_at(url)
        live.store._transaction(lambda conn, _: conn.execute(
            "UPDATE wom_presence SET seen = now() - make_interval(secs => %s)", (PRESENCE_STALE + 1,)))
        clock = [time.time()]
        later = live_at(url)
        later.clock = lambda: clock[0]
        later.sweep()
        clock[0] += SEAT_GRACE + 1
        listing = later.sweep()
        assert listing.problems == ()
        for table in listing.tables:
            assert (table.phase == FINISHED and table.recorded) or table.phase == CLOSED, table
    records = [r for r in live.store.games() if r.kind == "wom"]
    alan = live.store.user("Alan")
    assert alan.games == len(records) >= 6
    assert alan.score == sum(r.points().get("Alan", 0) for r in records)
    ids = [t.game_id for t in live.tables().tables if t.game_id]
    assert len(ids) == len(set(ids)) == len(records)
