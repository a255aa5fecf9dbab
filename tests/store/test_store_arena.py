"""Code Arena and Rush bests as store roles, on the data folder and on PostgreSQL: an arena started once,
joined, paired into live tables that are played and scored, the pairing step claimed once; Rush bests kept."""

from __future__ import annotations

import pytest

from wom_tui.domain.arena import ArenaRefused, ArenaRules, standings
from wom_tui.domain.moves import Guess, SetCode
from wom_tui.domain.rush import RushScore
from wom_tui.domain.store import open_store
from wom_tui.domain.table import FINISHED, MAKING, SeatHolder

from .test_live import Clock

NAMES = ("Alan", "Bea", "Cy", "Dee")


def holder(name: str) -> SeatHolder:
    return SeatHolder(name, f"s-{name}", True)


@pytest.fixture(params=["json", "postgresql"])
def store(request, tmp_path):
    if request.param == "json":
        location = str(tmp_path / "data")
    else:
        location = request.getfixturevalue("postgres_server").emptied_database("arena")
    opened = open_store(location)
    opened.test_location = location
    for name in NAMES:
        opened.register(name)
    yield opened
    opened.close()


def test_an_arena_is_started_joined_paired_played_and_scored(store) -> None:
    live = store.live
    clock = live.clock = Clock()
    for name in NAMES:
        live.join(name, True, f"s-{name}")
    arena = live.start_arena("arena-1", 30, ArenaRules(8, 30.0))
    with pytest.raises(ArenaRefused, match="already on"):
        live.start_arena("arena-2", 30, ArenaRules())
    for name in NAMES:
        live.join_arena(holder(name))
    live.arena_berserk(holder("Alan"), True)
    clock.now += 3
    tables = live.arena_wave(seed=5)
    assert sorted(sorted(t.names) for t in tables) == [["Alan", "Bea"], ["Cy", "Dee"]]
    assert live.arena_wave(seed=5) == []  # nothing due: nobody paired twice
    kept = {t.table_id: live.table(t.table_id) for t in tables}
    assert all(t is not None and t.phase == MAKING and t.guess_clock == 30.0 for t in kept.values())
    alan_table = next(t for t in tables if "Alan" in t.names)
    assert kept[alan_table.table_id].berserk == frozenset({alan_table.names.index("Alan")})
    # Alan and Bea play: Alan breaks Bea's code in one guess, Bea lets her clock run out.
    live.play(alan_table.table_id, SetCode(holder("Alan"), "RGBY"))
    live.play(alan_table.table_id, SetCode(holder("Bea"), "WWKK"))
    live.play(alan_table.table_id, Guess(holder("Alan"), "WWKK"))
    clock.now += 31
    live.arena_wave(seed=6)  # the clock ran out: the table is brought up to date and the game scored
    assert live.table(alan_table.table_id).phase == FINISHED
    arena = live.arena()
    rows = standings(arena)
    assert (rows[0].name, rows[0].score, rows[0].berserk_wins) == ("Alan", 2, 0)  # one guess: no berserk point
    assert [e.holder.name for e in arena.entrants if e.waiting] == ["Alan", "Bea"]
    # The game is recorded (and so rated) as any live table's.
    assert any(record.table_id == alan_table.table_id for record in store.games())
    # Alan and Bea wait; they just played each other and others are present: not paired again.
    clock.now += 3
    assert live.arena_wave(seed=7) == []
    # A player whose session is gone is paused rather than paired.
    live.part("s-Bea")
    clock.now += 3
    live.arena_wave(seed=8)
    assert live.arena().entrant(holder("Bea")).paused
    # Another process reads the same arena.
    other = open_store(store.test_location)
    try:
        assert other.live.arena() == live.arena()
    finally:
        other.close()


def test_joining_without_an_arena_or_after_it_is_refused(store) -> None:
    live = store.live
    clock = live.clock = Clock()
    with pytest.raises(ArenaRefused, match="no arena"):
        live.join_arena(holder("Alan"))
    live.start_arena("arena-1", 5, ArenaRules())
    clock.now += 5 * 60 + 1
    with pytest.raises(ArenaRefused, match="over"):
        live.join_arena(holder("Alan"))
    live.start_arena("arena-2", 5, ArenaRules())  # the last one is over: a new one may start
    assert [a.arena_id for a in live.arenas()] == ["arena-1", "arena-2"]


def test_rush_bests_are_kept_per_identity_and_only_beaten(store) -> None:
    assert store.rush_best("local") is None
    assert store.submit_rush("local", RushScore(4, 30, 3))
    assert not store.submit_rush("local", RushScore(4, 31, 4))  # same codes, more guesses: not better
    assert store.submit_rush("local", RushScore(4, 29, 1))
    assert store.submit_rush("SHA256:abc", RushScore(1, 5, 1))
    assert store.rush_best("local") == RushScore(4, 29, 1)
    assert store.rush_bests() == {"local": RushScore(4, 29, 1), "SHA256:abc": RushScore(1, 5, 1)}
