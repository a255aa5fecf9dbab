"""Code Arena's rules (wom_tui/domain/arena.py): transcripts of an event, lichess scoring, berserk, pairing,
and hypothesis properties over random arenas."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wom_tui.domain.arena import (
    DRAW, LOSS, OVER, RUNNING, UPCOMING, WIN, Arena, ArenaRefused, ArenaRules, arena_table, arena_title, counted_games,
    game_points, parse_rules, podium, results_line, results_of, score_sheet, standings, table_outcome,
)
from wom_tui.domain.records import GameRecord
from wom_tui.domain.table import FINISHED, SeatHolder, Table, TableDataError

ALAN, BEA, CAL, DOT = (SeatHolder(n, f"s{i}", True) for i, n in enumerate(["Alan", "Bea", "Cal", "Dot"]))
GUEST = SeatHolder("Guest 3", "g3", False)


def arena(**kwargs: object) -> Arena:
    return Arena("a1", 100.0, **{"minutes": 30, **kwargs})  # type: ignore[arg-type]


def paired(a: Arena, now: float) -> tuple[Arena, list[Table]]:
    counter = iter(range(10_000))
    return a.pair(now, lambda x, y: arena_table(f"t{now:g}-{next(counter)}", x, y, a.rules, seed=1, now=now,
                                                grace=30.0, arena_id=a.arena_id))


def play_out(a: Arena, table_id: str, winner: int | None, now: float) -> Arena:
    """Finish ``table_id``: ``winner`` broke in 2 and the other failed (None: both broke in 3)."""
    if winner is None:
        return a.finish_game(table_id, [(True, 3), (True, 3)], [3, 3], now)
    most = a.rules.attempts
    boards = [(True, 2), (False, most)] if winner == 0 else [(False, most), (True, 2)]
    return a.finish_game(table_id, boards, [b[1] for b in boards], now)


def test_scoring_is_lichess_win_two_draw_one_and_double_after_two_wins() -> None:
    assert score_sheet([(WIN, False), (WIN, False), (WIN, False), (DRAW, False), (WIN, False)]) == [2, 2, 4, 1, 2]
    assert score_sheet([(WIN, False), (WIN, False), (WIN, False), (WIN, False), (LOSS, False)]) == [2, 2, 4, 4, 0]
    # The berserk point is added, never doubled; a loss ends the fire.
    assert score_sheet([(WIN, True), (WIN, True), (WIN, True), (LOSS, False), (WIN, True)]) == [3, 3, 5, 0, 3]


def test_an_arena_in_full_joining_pairing_scoring_and_podium() -> None:
    a = arena()
    assert a.phase(50.0) == UPCOMING and a.countdown(50.0) == "Code Arena starts in 0:50"
    for person in (ALAN, BEA, CAL, DOT):
        a = a.join(person, 100.0)
    assert a.countdown(160.0) == "Code Arena: 29:00 left" and a.phase(160.0) == RUNNING
    assert a.pairing_due(101.0)
    a, tables = paired(a, 101.0)
    assert [t.names for t in tables] == [("Alan", "Bea"), ("Cal", "Dot")]
    assert all(t.guess_clock == 30.0 and t.attempts == 8 for t in tables)
    assert not a.pairing_due(102.0)  # nobody waits
    a = play_out(a, tables[0].table_id, 0, 130.0)   # Alan beats Bea
    a = play_out(a, tables[1].table_id, None, 140.0)  # Cal and Dot draw
    rows = standings(a)
    assert [(r.name, r.score) for r in rows] == [("Alan", 2), ("Cal", 1), ("Dot", 1), ("Bea", 0)]
    # Next: by rank, never the last opponent: Alan–Cal, then Dot–Bea.
    a, tables = paired(a, 141.0)
    assert [t.names for t in tables] == [("Alan", "Cal"), ("Dot", "Bea")]
    a = play_out(a, tables[0].table_id, 0, 170.0)
    a = play_out(a, tables[1].table_id, 1, 175.0)
    a, tables = paired(a, 176.0)
    assert [t.names for t in tables] == [("Alan", "Bea"), ("Cal", "Dot")]
    a = play_out(a, tables[0].table_id, 0, 200.0)
    rows = standings(a)
    assert rows[0].name == "Alan" and rows[0].sheet == (2, 2, 4) and rows[0].fire
    # A game finished after the end does not count; the podium is the first three who played.
    late = play_out(a, tables[1].table_id, 0, a.ends_at + 5)
    assert late.phase(a.ends_at + 5) == OVER and len(counted_games(late)) == 5
    assert [(r.name, r.score) for r in podium(late)] == [("Alan", 8), ("Bea", 2), ("Cal", 1)]
    assert late.entrant(CAL).waiting_since is None  # nobody waits once it is over
    with pytest.raises(ArenaRefused, match="over"):
        late.join(GUEST, a.ends_at + 6)


def test_a_duel_when_only_two_are_present_and_no_rematch_in_a_row_otherwise() -> None:
    a = arena().join(ALAN, 100.0).join(BEA, 100.0)
    for now in (101.0, 140.0, 180.0):
        a, tables = paired(a, now)
        assert [set(t.names) for t in tables] == [{"Alan", "Bea"}]
        a = play_out(a, tables[0].table_id, 1, now + 20)
    a = a.join(CAL, 200.0)
    a, tables = paired(a, 202.0)  # three present: Bea and Alan are not paired again, Cal is
    assert len(tables) == 1 and "Cal" in tables[0].names
    left = [e.holder.name for e in a.entrants if e.waiting]
    assert len(left) == 1


def test_paused_players_are_not_paired_and_join_again() -> None:
    a = arena().join(ALAN, 100.0).join(BEA, 100.0).join(CAL, 100.0).pause(BEA)
    a, tables = paired(a, 101.0)
    assert [t.names for t in tables] == [("Alan", "Cal")]
    a = a.join(BEA, 110.0)
    assert a.entrant(BEA).waiting_since == 110.0
    with pytest.raises(ArenaRefused, match="not joined"):
        a.pause(DOT)


def test_berserk_halves_the_clock_and_earns_a_point_for_a_win_of_three_guesses() -> None:
    a = arena().join(ALAN, 100.0).join(BEA, 100.0).set_berserk(ALAN, True)
    a, (table,) = paired(a, 101.0)
    assert table.berserk == frozenset({0})
    table.set_code(ALAN, "RGBY", 102.0)
    table.set_code(BEA, "RRGG", 102.0)
    views = table.view_for(ALAN).seats
    assert views[0].deadline == 102.0 + 15.0 and views[1].deadline == 102.0 + 30.0 and views[0].berserk
    assert Table.from_json(json.loads(json.dumps(table.to_json()))).berserk == frozenset({0})
    with pytest.raises(ArenaRefused, match="started"):
        a.set_berserk(ALAN, False)
    for guess in ("RGBB", "RGBW", "RRGG"):
        table.guess(ALAN, guess, 103.0)
    table.leave(BEA, 104.0)
    assert table.phase == FINISHED
    # The table, kept and read back, names its arena, and so does its game's record; a table or record
    # without one reads as before.
    assert Table.from_json(json.loads(json.dumps(table.to_json()))).arena == "a1"
    record = table.record()
    assert record.arena == "a1" and record.as_json()["arena"] == "a1"
    assert GameRecord.from_json(json.loads(json.dumps(record.as_json()))) == record
    plain = {key: value for key, value in record.as_json().items() if key != "arena"}
    assert GameRecord.from_json(plain).arena is None
    assert "arena" not in Table.from_json({k: v for k, v in table.to_json().items() if k != "arena"}).to_json()
    with pytest.raises(ValueError, match="arena"):
        GameRecord.from_json({**plain, "hot_seat": True, "table_id": None, "arena": "a1"})
    boards, guesses = table_outcome(table)
    a = a.finish_game(table.table_id, boards, guesses, 105.0)
    (alan, bea) = standings(a)
    assert (alan.name, alan.score, alan.berserk_wins) == ("Alan", 3, 1) and bea.score == 0
    assert a.entrant(ALAN).berserk is False  # chosen for one game at a time


def test_a_berserk_win_in_fewer_than_three_guesses_earns_no_bonus() -> None:
    a = arena().join(ALAN, 100.0).join(BEA, 100.0).set_berserk(ALAN, True)
    a, (table,) = paired(a, 101.0)
    a = a.finish_game(table.table_id, [(True, 2), (False, 8)], [2, 8], 120.0)
    assert standings(a)[0].score == 2


def test_points_decide_the_duel() -> None:
    assert game_points(8, [(True, 2), (False, 8)]) == (7 + 8, 0 + 1)
    assert game_points(8, [(True, 3), (True, 3)]) == (6 + 2, 6 + 2)


@pytest.mark.parametrize("text, rules", [
    ("", ArenaRules()), ("attempts=6", ArenaRules(6, 30.0)), ("clock=60, attempts=10", ArenaRules(10, 60.0)),
])
def test_rules_are_read_from_the_command_line(text: str, rules: ArenaRules) -> None:
    assert parse_rules(text) == rules


@pytest.mark.parametrize("text, reason", [
    ("attempts=4", "5 to 10"), ("clock=7", "clock per guess"), ("speed=3", "attempts=N"),
    ("attempts=6,attempts=7", "twice"), ("[red]x", "attempts=N"),
])
def test_bad_rules_are_refused_with_the_reason(text: str, reason: str) -> None:
    with pytest.raises(ArenaRefused, match=reason):
        parse_rules(text)


def test_json_round_trips_and_is_strict() -> None:
    a = arena(rules=ArenaRules(6, 60.0)).join(ALAN, 100.0).join(GUEST, 100.0)
    a, (table,) = paired(a, 101.0)
    a = play_out(a, table.table_id, 1, 140.0)
    again = Arena.from_json(json.loads(json.dumps(a.as_json())))
    assert again == a
    broken = a.as_json()
    broken["games"][0]["points"] = None
    with pytest.raises(TableDataError, match="over"):
        Arena.from_json(broken)
    with pytest.raises(TableDataError):
        Arena.from_json({**a.as_json(), "minutes": 2})


PEOPLE = [SeatHolder(f"P{i}", f"p{i}", True) for i in range(6)]
step = st.one_of(
    st.tuples(st.just("join"), st.integers(0, 5)),
    st.tuples(st.just("pause"), st.integers(0, 5)),
    st.tuples(st.just("berserk"), st.integers(0, 5)),
    st.tuples(st.just("pair"), st.just(0)),
    st.tuples(st.just("finish"), st.integers(0, 2)),
    st.tuples(st.just("time"), st.integers(1, 400)),
)


@settings(max_examples=150)
@given(st.lists(step, max_size=60))
def test_properties_of_any_arena(steps: list[tuple[str, int]]) -> None:
    a, now = arena(minutes=10), 100.0
    for kind, arg in steps:
        if kind == "time":
            now += arg
        elif kind == "join" and a.phase(now) != OVER:
            a = a.join(PEOPLE[arg], now)
        elif kind == "pause" and a.entrant(PEOPLE[arg]) is not None:
            a = a.pause(PEOPLE[arg])
        elif kind == "berserk" and (e := a.entrant(PEOPLE[arg])) is not None and e.table_id is None:
            a = a.set_berserk(PEOPLE[arg], True)
        elif kind == "pair":
            before = a
            a, tables = paired(a, now)
            present = [e for e in before.entrants if not e.paused]
            for table in tables:
                one, two = (name.lower() for name in table.names)
                keys = (f"user:{one}", f"user:{two}")
                # Never the last opponent again, unless they are the only two present (a duel).
                assert before.last_opponent(keys[0]) != keys[1] or len(present) == 2
                assert all(before.entrant(k).waiting and not before.entrant(k).paused for k in keys)
            seated = [n for t in tables for n in t.names]
            assert len(seated) == len(set(seated))  # nobody in two games
            # Nobody left waiting who could have been paired with another waiting player who is not their
            # last opponent.
            waiting = [e for e in a.entrants if e.waiting and not e.paused]
            if a.phase(now) == RUNNING:
                for i, x in enumerate(waiting):
                    for y in waiting[i + 1:]:
                        assert a.last_opponent(x.key) == y.key or a.last_opponent(y.key) == x.key
        elif kind == "finish" and a.under_way:
            game = a.under_way[0]
            a = play_out(a, game.table_id, arg if arg < 2 else None, now)
        # Everyone is in at most one game, and a player in a game is not waiting.
        for e in a.entrants:
            assert not (e.waiting and e.table_id is not None)
            assert sum(1 for g in a.under_way if e.key in g.players) == (e.table_id is not None)
    rows = standings(a)
    assert [r.rank for r in rows] == list(range(1, len(rows) + 1))
    assert [r.score for r in rows] == sorted((r.score for r in rows), reverse=True)
    assert sum(r.wins for r in rows) == sum(r.losses for r in rows)
    assert sum(r.games for r in rows) == 2 * len(counted_games(a))
    for r in rows:
        assert r.score == sum(r.sheet) and 2 * r.wins + r.draws <= r.score <= 5 * r.wins + r.draws
    assert Arena.from_json(json.loads(json.dumps(a.as_json()))) == a


def test_my_results_over_the_arenas_played() -> None:
    a = arena().join(ALAN, 100.0).join(BEA, 100.0).join(CAL, 100.0)
    a, tables = paired(a, 101.0)
    a = play_out(a, tables[0].table_id, 1, 130.0)  # the second of the pair wins
    winner = tables[0].names[1]
    assert results_of([a], winner, a.ends_at - 1) == []  # not over yet
    ((_, row, players),) = results_of([a], winner.upper(), a.ends_at)
    assert (row.rank, row.score, players) == (1, 2, 2)  # Cal, who never played, is not counted
    assert results_line(results_of([a, a], winner, a.ends_at)) == (
        "Code Arena: 2 played · best 1st · 2 on the podium · last 1st of 2, 2 points")
    assert results_line([]) is None
    # With the player's recorded arena games counted (My stats), and when no arena is kept any more.
    assert results_line(results_of([a], winner, a.ends_at), 3).startswith("Code Arena: 1 played, 3 games · best 1st")
    assert results_line([], 1) == "Code Arena: 1 game"
    assert arena_title("arena-20261129T070000") == "Code Arena of 2026-11-29 07:00"
    assert arena_title("arena-1") == "Code Arena arena-1"
