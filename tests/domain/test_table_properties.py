"""Hypothesis over random orders of seating, leaving, dropping, coming back, codes, guesses and time."""

from __future__ import annotations

from dataclasses import replace

import json

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from wom_tui.domain.codes import WOM, Ruleset
from wom_tui.domain.scoring import breakdown
from wom_tui.domain.table import CLOSED, FINISHED, GUESSING, MAKING, OPEN, Refused, SeatHolder, Table, TableDataError

from .test_table import strings_in

PEOPLE = [SeatHolder("Alan", "a1", True), SeatHolder("Bea", "b1", True), SeatHolder("guest 7", "g1", False)]
ORDER = {OPEN: 0, MAKING: 1, GUESSING: 2, FINISHED: 3, CLOSED: 3}
RULES = Ruleset(3, WOM, True, 10)

person = st.integers(0, 2)
code = st.sampled_from(["RRR", "RRG", "RGR", "GRR", "GGR", "GRG", "RGG", "GGG", "RG", "RGX", "rgr"])
action = st.one_of(
    st.tuples(st.just("sit"), person, st.integers(0, 3)),
    st.tuples(st.just("stand"), person),
    st.tuples(st.just("computer"), st.integers(0, 3), st.sampled_from(["HAL9000", "VIKI"])),
    st.tuples(st.just("uncomputer"), st.integers(0, 3)),
    st.tuples(st.just("start"), person),
    st.tuples(st.just("close"), person),
    st.tuples(st.just("code"), person, code),
    st.tuples(st.just("guess"), person, code),
    st.tuples(st.just("leave"), person),
    st.tuples(st.just("drop"), person),
    st.tuples(st.just("back"), person),
    st.tuples(st.just("time"), st.floats(0, 200)),
    st.tuples(st.just("fill"), st.booleans()),
    st.tuples(st.just("solve"), person),
    st.tuples(st.just("codes"), code),
)


def holder(table: Table | None, index: int, sessions: dict[int, int]) -> SeatHolder:
    base = PEOPLE[index]
    return SeatHolder(base.name, f"{base.session}-{sessions[index]}", base.registered)


def apply(table: Table, step, now: float, live: set[str], sessions: dict[int, int]) -> float:
    kind = step[0]
    who = holder(table, step[1], sessions) if kind in ("sit", "stand", "start", "close", "code", "guess",
                                                       "leave", "drop", "back", "solve") else None
    try:
        if kind == "sit":
            table.sit(who, step[2] % table.seat_count)
        elif kind == "stand":
            table.stand(who)
        elif kind == "computer":
            table.seat_computer(PEOPLE[0], step[1] % table.seat_count, step[2])
        elif kind == "uncomputer":
            table.unseat_computer(PEOPLE[0], step[1] % table.seat_count)
        elif kind == "start":
            table.start(who, now)
        elif kind == "close":
            table.close(who)
        elif kind == "code":
            table.set_code(who, step[2], now)
        elif kind == "guess":
            table.guess(who, step[2], now)
        elif kind == "leave":
            table.leave(who, now)
        elif kind == "drop":
            live.discard(who.session)
        elif kind == "back":
            sessions[step[1]] += 1
            again = holder(table, step[1], sessions)
            live.add(again.session)
            table.resume(again, now)
        elif kind == "time":
            now += step[1]
        elif kind == "fill":  # everyone free sits down (or computers), then Alan starts
            computers = ["HAL9000", "VIKI"]
            for index in range(table.seat_count):
                if table.names[index] is None:
                    waiting = [i for i in (1, 2) if table.seat_of(PEOPLE[i]) is None]
                    if waiting and (step[1] or not computers):
                        table.sit(holder(table, waiting[0], sessions), index)
                    elif computers:
                        name = computers.pop()
                        if name not in table.names:
                            table.seat_computer(PEOPLE[0], index, name)
            table.start(holder(table, 0, sessions), now)
        elif kind == "codes":  # every seated person who can still set a code sets one
            for index in range(3):
                if table.phase == MAKING and table.seat_of(PEOPLE[index]) is not None:
                    try:
                        table.set_code(holder(table, index, sessions), step[1], now)
                    except Refused:
                        pass
        elif kind == "solve":  # the right guess, as if the person worked it out
            index = table.seat_of(who)
            if index is not None and table.phase == GUESSING:
                table.guess(who, table.to_json()["seats"][index - 1]["code"], now)
    except Refused as exc:
        assert exc.reason and isinstance(exc.reason, str)
    table.mark_presence(live, now)
    table.tick(now)
    return now


def check(table: Table) -> None:
    data = table.to_json()
    # Serialisable at every step, and the same table again.
    assert Table.from_json(json.loads(json.dumps(data))).to_json() == data
    # No seat twice: nobody holds two seats, no name appears twice.
    names = [n.casefold() for n in table.names if n is not None]
    assert len(names) == len(set(names))
    # Nobody sees another's guesses or any code before the end; then every code is revealed to everyone
    # (the results table), and still nobody's guesses.
    codes = {seat["code"] for seat in data["seats"] if seat["code"]}
    guesses = [set(seat["guesses"]) for seat in data["seats"]]
    for viewer in [None, *range(table.seat_count)]:
        view = table.view_for(viewer)
        own = guesses[viewer] if viewer is not None else set()
        revealed = {row.code for row in view.final or ()}
        assert revealed == (codes if table.phase == FINISHED else set())
        assert strings_in(replace(view, final=None)) & (codes | set().union(*guesses)) <= own
        if viewer is not None and view.own is not None:
            assert [a.guess for a in view.own.history] == data["seats"][viewer]["guesses"]
    if table.phase == FINISHED:
        results = table.results()
        for index, row in enumerate(results.players):
            seat = data["seats"][index]
            if row.points is not None:
                breaker = results.players[(index + 1) % table.seat_count]
                assert row.points == breakdown(
                    row.player.name, table.attempts, row.attempts_used, row.broke,
                    breaker.attempts_used, breaker.broke,
                )
            assert row.attempts_used == len(seat["guesses"]) and (seat["guesses"] or not row.broke)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.integers(2, 4), quick=st.sampled_from([None, True, False]), steps=st.lists(action, max_size=50))
def test_any_order_keeps_the_invariants_and_the_game_always_ends(seats, quick, steps):
    if quick is not None:  # most random orders never start a game: let two thirds of them start at once
        steps = [("fill", quick), ("codes", "RGG"), *steps]
    live = {p.session + "-0" for p in PEOPLE}
    sessions = {0: 0, 1: 0, 2: 0}
    table = Table("t", holder(None, 0, sessions), seats=seats, attempts=5, ruleset=RULES, seed=5,
                  grace=60.0, pace=(1.0, 3.0))
    now, phase, finished_once = 0.0, OPEN, 0
    for step in steps:
        now = apply(table, step, now, live, sessions)
        check(table)
        assert ORDER[table.phase] >= ORDER[phase], f"{phase} went back to {table.phase}"
        finished_once += phase != FINISHED and table.phase == FINISHED
        phase = table.phase
    event(f"reached {phase}")
    # Everybody walks away: the table never waits forever.
    table.mark_presence(set(), now)
    table.tick(now + 60.0)
    table.tick(now + 60.0 + 3.0 * 5 * 4 + 1)
    check(table)
    assert table.phase in (FINISHED, CLOSED)
    finished_once += phase != FINISHED and table.phase == FINISHED
    assert finished_once == (table.phase == FINISHED)
    event(f"ended {table.phase}")
    if table.phase == FINISHED:
        assert all(table.seat_done(i) for i in range(table.seat_count))
        record = table.record()
        assert len(record.players) == seats


json_value = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 50) | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["", "RGBY", "Alan", "open", "guessing", "HAL9000", "s-1", "RRRR"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["name", "x", "code"]), inner, max_size=2),
    max_leaves=6,
)


def _paths(data, prefix=()):
    yield prefix
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _paths(value, (*prefix, index))


def _running_table_json():
    table = Table("t", PEOPLE[0], seats=3, attempts=5, ruleset=RULES, seed=1, pace=(1.0, 1.0))
    table.sit(PEOPLE[1], 1)
    table.seat_computer(PEOPLE[0], 2, "VIKI")
    table.start(PEOPLE[0], 0)
    table.set_code(PEOPLE[0], "RGR", 0)
    table.set_code(PEOPLE[1], "GGR", 0)
    table.guess(PEOPLE[1], "RRR", 1)
    table.mark_presence({"a1"}, 2)
    return table.to_json()


RUNNING = _running_table_json()
PATHS = [p for p in _paths(RUNNING) if p]


@settings(max_examples=300, deadline=None)
@given(where=st.sampled_from(PATHS), value=json_value)
def test_from_json_takes_a_valid_table_or_refuses_with_a_reason(where, value):
    data = json.loads(json.dumps(RUNNING))
    target = data
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = value
    try:
        table = Table.from_json(data)
    except TableDataError as exc:
        assert exc.reason
    else:
        assert Table.from_json(table.to_json()).to_json() == table.to_json()
        for viewer in (None, 0, 1, 2):
            table.view_for(viewer)
