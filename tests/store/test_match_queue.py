"""The quick-match queue as a store role, on the data folder and on PostgreSQL: tickets, waves claimed by
one process, dropped players, the change feed, and processes pairing through it.
"""

from __future__ import annotations

import pytest

from wom_tui.domain.matchmaking import STRAGGLER_HOLD, WAVE_INTERVAL
from wom_tui.domain.store import open_store
from wom_tui.domain.table import GUESSING, MAKING, SeatHolder

from .match_workers import CTX, TIMEOUT, wait_for_match
from .test_live import Clock, Subscriber

NAMES = ("Alan", "Bea", "Cy", "Dee", "Eve", "Fay")


def holder(name: str) -> SeatHolder:
    return SeatHolder(name, f"s-{name}", True)


def unrated(name: str) -> float | None:
    return None


@pytest.fixture(params=["json", "postgresql"])
def where(request, tmp_path):
    if request.param == "json":
        location = str(tmp_path / "data")
    else:
        location = request.getfixturevalue("postgres_server").emptied_database("match")
    store = open_store(location)
    for name in NAMES:
        store.register(name)
    yield location
    store.close()


@pytest.fixture
def live_at():
    stores = []

    def opener(location, clock=None):
        stores.append(open_store(location))
        live = stores[-1].live
        if clock is not None:
            live.clock = clock
        return live
    yield opener
    for store in stores:
        store.close()


def online(live, *names):
    for name in names:
        live.join(name, True, f"s-{name}")


def test_a_ticket_is_kept_replaced_and_removed(where, live_at):
    clock = Clock()
    live = live_at(where, clock)
    assert live.match_queue().tickets == ()
    first = live.enqueue(holder("Alan"), attempts=8, fill_after=12.0)
    assert first.since == clock.now and first.attempts == 8
    other = live_at(where)  # another process sees it
    assert other.match_queue().ticket("s-Alan") == first
    clock.now += 5
    again = live.enqueue(SeatHolder("alan", "s-new", True))
    assert [t.session for t in other.match_queue().tickets] == ["s-new"]
    assert other.fill_now("s-new").fill_after == 0.0
    other.leave_queue(again.session)
    assert live.match_queue().tickets == ()


def test_four_waiting_are_seated_at_once_at_one_started_table(where, live_at):
    clock = Clock()
    live = live_at(where, clock)
    online(live, *NAMES)
    live.enqueue(holder("Alan"))
    assert live.match_wave(unrated, seed=1) == []  # a wave of one: it starts the next 10 s
    for name in NAMES[1:3]:
        live.enqueue(holder(name))
    clock.now += 1
    assert live.match_wave(unrated, seed=1) == []  # not due: three wait, the last wave is a second old
    live.enqueue(holder("Dee"))
    [table] = live.match_wave(unrated, seed=1)
    assert table.phase == MAKING and sorted(table.names) == sorted(NAMES[:4])
    kept = live_at(where).table(table.table_id)
    assert kept is not None and kept.phase == MAKING
    queue = live.match_queue()
    assert {t.table_id for t in queue.tickets} == {table.table_id} and not queue.waiting


def test_alone_after_the_fill_time_a_computer_takes_the_other_seat(where, live_at):
    clock = Clock()
    live = live_at(where, clock)
    online(live, "Alan")
    live.enqueue(holder("Alan"), fill_after=30.0)
    assert live.match_wave(unrated, seed=1) == []
    clock.now += 29
    assert live.match_wave(unrated, seed=1) == []
    clock.now += 1
    from wom_tui.domain.matchmaking import RATING_MIDDLE

    ratings = {"HAL9000": RATING_MIDDLE - 200, "VIKI": RATING_MIDDLE + 100}
    [table] = live.match_wave(ratings.get, seed=1)
    assert table.names == ("Alan", "VIKI")  # an unrated player is the scale's middle: VIKI is nearer


def test_a_dropped_player_leaves_the_queue(where, live_at):
    clock = Clock()
    live = live_at(where, clock)
    online(live, "Alan")
    live.enqueue(holder("Alan"))
    live.enqueue(holder("Bea"))  # Bea's session never joined (dropped)
    clock.now += WAVE_INTERVAL
    assert live.match_wave(unrated, seed=1) == []
    assert [t.holder.name for t in live.match_queue().tickets] == ["Alan"]


def test_a_player_who_leaves_before_seeing_the_table_a_wave_gave_them_leaves_it_and_the_other_plays_on(
        where, live_at):
    # Alan presses Esc on the waiting screen as Bea's process runs the wave that seats them both: Alan is back
    # at the menu (still online) and never sees the table, so his leave takes the seat too, and Bea is told
    # at once instead of waiting for a code that never comes.
    clock = Clock()
    live = live_at(where, clock)
    online(live, "Alan", "Bea")
    live.enqueue(holder("Alan"))
    live.enqueue(holder("Bea"))
    clock.now += WAVE_INTERVAL
    live.match_wave(unrated, seed=1)
    clock.now += STRAGGLER_HOLD
    [table] = live.match_wave(unrated, seed=1)
    assert sorted(table.names) == ["Alan", "Bea"] and table.phase == MAKING
    alans = live_at(where, clock)  # Alan's own process
    left = alans.leave_queue("s-Alan", unseen=True)
    assert left is not None and left.table_id == table.table_id
    kept = live_at(where).table(table.table_id)
    assert kept is not None and kept.phase in (MAKING, GUESSING)
    seen_by_bea = kept.view_for(holder("Bea"))
    assert [seat.gone for seat in seen_by_bea.seats if seat.name == "Alan"] == [True]
    assert any("Alan left the game" in line for line in seen_by_bea.log)
    assert alans.match_queue().ticket("s-Alan") is None
    assert alans.leave_queue("s-Alan", unseen=True) is None  # a second Esc: nothing more to leave
    # Bea opened the table: forgetting her seated ticket keeps her seat.
    assert live.leave_queue("s-Bea") is None
    seats = live.table(table.table_id).view_for(holder("Bea")).seats
    assert {seat.name: seat.gone for seat in seats} == {"Alan": True, "Bea": False}
    assert live.match_queue().tickets == ()


def test_a_repeat_pairing_is_remembered_by_the_store_and_one_networks_game_is_recorded_unrated(where, live_at):
    from wom_tui.domain.moves import Guess, Leave, SetCode

    clock = Clock()
    live = live_at(where, clock)
    online(live, "Alan", "Bea", "Cy")
    net = "198.51.100.0/24"
    live.enqueue(holder("Alan"), network=net)
    live.enqueue(holder("Bea"), network=net)
    clock.now += WAVE_INTERVAL
    live.match_wave(unrated, seed=1)
    clock.now += STRAGGLER_HOLD
    [table] = live.match_wave(unrated, seed=1)  # nobody else waited: together, unrated
    assert sorted(table.names) == ["Alan", "Bea"] and not table.rated
    # Another process reads what the wave remembered: Alan and Bea, with Cy waiting too, are kept apart.
    other = live_at(where, clock)
    assert [key for key, _ in other.match_queue().paired] == ["alan bea"]
    for name in ("Alan", "Bea", "Cy"):
        other.enqueue(holder(name))
    clock.now += WAVE_INTERVAL
    other.match_wave(unrated, seed=2)
    clock.now += STRAGGLER_HOLD
    made = other.match_wave(unrated, seed=2)
    assert [sorted(t.names) for t in made] == [["Alan", "Cy"]] and made[0].rated
    # The unrated table's game: recorded unrated on this backend too, and no rating moves.
    alan, bea = holder("Alan"), holder("Bea")
    live.play(table.table_id, SetCode(alan, "RGBY"))
    live.play(table.table_id, SetCode(bea, "WWKK"))
    live.play(table.table_id, Guess(alan, "WWKK"))
    live.play(table.table_id, Leave(bea))
    store = open_store(where)
    try:
        [game] = [g for g in store.games() if g.table_id == table.table_id]
        assert not game.rated
        assert store.rating_book().rating("Alan") is None
        summaries, _ = store.game_summaries()
        assert [s.rated for s in summaries] == [False]
    finally:
        store.close()
    again = open_store(where)  # read from the folder's index (or the database's summary column) this time
    try:
        assert [s.rated for s in again.game_summaries()[0]] == [False]
        assert again.rebuild_ratings().rating("Alan") is None
    finally:
        again.close()


def test_a_wave_run_by_two_processes_at_once_seats_everyone_once(where, live_at):
    clock = Clock()
    one, two = live_at(where, clock), live_at(where, clock)
    online(one, *NAMES)
    for name in NAMES:
        one.enqueue(holder(name))
    made = one.match_wave(unrated, seed=1) + two.match_wave(unrated, seed=2)
    assert [t.seat_count for t in made] == [4]  # four at once; the other two are held for a straggler
    clock.now += STRAGGLER_HOLD
    made += one.match_wave(unrated, seed=1) + two.match_wave(unrated, seed=2)
    seated = [n for t in made for n in t.names]
    assert sorted(seated) == sorted(NAMES) and len(made) == 2


def test_a_straggler_after_a_wave_joins_the_held_table_in_another_process(where, live_at):
    clock = Clock()
    one, two = live_at(where, clock), live_at(where, clock)
    online(one, "Alan", "Bea", "Cy")
    one.enqueue(holder("Alan"))
    one.enqueue(holder("Bea"))
    clock.now += WAVE_INTERVAL
    assert one.match_wave(unrated, seed=1) == []  # Alan and Bea: held a moment for one more
    assert [len(m) for m in two.match_queue().held.values()] == [2]
    clock.now += 1
    two.enqueue(holder("Cy"))  # the straggler, on another process (or server)
    assert two.match_wave(unrated, seed=2) == []  # due at once: Cy joins them
    assert [len(m) for m in one.match_queue().held.values()] == [3]
    clock.now += STRAGGLER_HOLD
    [table] = one.match_wave(unrated, seed=1) + two.match_wave(unrated, seed=2)
    assert table.names == ("Alan", "Bea", "Cy") and table.phase == MAKING
    assert not one.match_queue().waiting


async def test_a_queue_change_reaches_a_subscriber(where, live_at):
    live = live_at(where)
    other = live_at(where)
    async with Subscriber(live.feed()) as seen:
        other.enqueue(holder("Alan"))
        await seen.until(lambda changes: any(c.queue for c in changes))


def test_two_processes_pair_through_quick_match(where):
    go, results = CTX.Event(), CTX.Queue()
    players = [CTX.Process(target=wait_for_match, args=(where, name, go, results), name=name)
               for name in ("Alan", "Bea")]
    for player in players:
        player.start()
    go.set()
    outcome = [results.get(timeout=TIMEOUT) for _ in players]
    for player in players:
        player.join(TIMEOUT)
        assert player.exitcode == 0
    tables = {table_id for _, table_id, _ in outcome}
    assert len(tables) == 1, outcome
    assert all(sorted(names) == ["Alan", "Bea"] for _, _, names in outcome)


def test_six_processes_racing_each_sit_at_exactly_one_table(where):
    go, results = CTX.Event(), CTX.Queue()
    # A player who comes in just after a wave seated the others waits alone for the computers (3 s here):
    # seated too, once, whatever the timing.
    players = [CTX.Process(target=wait_for_match, args=(where, name, go, results, 0.3, 3.0), name=name)
               for name in NAMES]
    for player in players:
        player.start()
    go.set()
    outcome = [results.get(timeout=TIMEOUT) for _ in players]
    for player in players:
        player.join(TIMEOUT)
        assert player.exitcode == 0
    seated: dict[str, str] = {}
    for name, table_id, names in outcome:
        assert name in names
        seated[name] = table_id
    store = open_store(where)
    try:
        for name, table_id in seated.items():
            tables_with_name = [t for t in store.live.tables().tables if name in t.names]
            assert [t.table_id for t in tables_with_name] == [table_id], [(t.table_id, t.names, t.phase) for t in store.live.tables().tables]
    finally:
        store.close()


def test_an_invitation_is_seen_by_another_process_and_accepting_starts_the_table(where, live_at):
    live, other = live_at(where), live_at(where)
    table = live.invite(holder("Alan"), "Bea", seed=3)
    seen = other.table(table.table_id)
    assert seen.is_invited(holder("Bea")) and seen.view_for(None).invited == ("Bea",)
    other.act(table.table_id, lambda t, now: t.accept(holder("Bea"), now))
    assert live.table(table.table_id).phase == MAKING


def test_two_players_asking_again_at_once_get_one_rematch(where, live_at):
    live, other = live_at(where), live_at(where)
    table = live.create_table(holder("Alan"), seats=2, seed=3, pace=(0.0, 0.0))
    live.update_table(table.table_id, lambda t: t.sit(holder("Bea"), 1))
    live.act(table.table_id, lambda t, now: t.start(holder("Alan"), now))
    for name in ("Alan", "Bea"):
        live.act(table.table_id, lambda t, now, n=name: t.leave(holder(n), now))
    assert live.table(table.table_id).phase == "finished"
    first = live.rematch(table.table_id, holder("Bea"), seed=1)
    second = other.rematch(table.table_id, holder("Alan"), seed=2)
    assert first == second
    again = other.table(first)
    assert again.names == ("Bea", None) and again.invited == ["Alan"]
    other.act(first, lambda t, now: t.accept(holder("Alan"), now))
    assert live.table(first).phase == MAKING
