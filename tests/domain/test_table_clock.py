"""A live table's per-guess clock, as transcripts on the injected time: off by default; each guess
restarts it; out of time, the code being broken counts as not broken and the game goes on."""

from __future__ import annotations

import pytest

from wom_tui.domain.table import FINISHED, GUESSING, Refused, SeatHolder, Table

ANN = SeatHolder("Ann", "s-ann", True)
BOB = SeatHolder("Bob", "s-bob", True)


def started(clock: float | None = 30.0) -> Table:
    table = Table("t1", ANN, seats=2, seed=3, now=0.0, guess_clock=clock)
    table.sit(BOB, 1)
    table.start(ANN, 0.0)
    table.set_code(ANN, "RGBY", 1.0)
    table.set_code(BOB, "WWKK", 2.0)
    assert table.phase == GUESSING
    return table


def test_without_a_clock_nobody_is_ever_due_and_the_json_is_as_before():
    table = started(None)
    assert table.next_due() is None
    table.tick(10_000.0)
    assert table.phase == GUESSING
    assert "guess_clock" not in table.to_json() and "deadline" not in table.to_json()["seats"][0]


def test_each_guess_restarts_the_clock_and_running_out_loses_the_code_as_not_broken():
    table = started(30.0)
    assert table.next_due() == 32.0  # everyone's first guess is due 30 s after the codes are set
    table.guess(ANN, "RRRR", 20.0)
    assert table.view_for(ANN).seats[0].deadline == 50.0
    table.tick(31.9)
    assert table.phase == GUESSING
    table.tick(32.0)  # Bob never guessed
    bob = table.view_for(None).seats[1]
    assert bob.timed_out and bob.done and not bob.broke
    assert "Bob ran out of time: the code they were breaking counts as not broken." in table.log
    with pytest.raises(Refused, match="Your time ran out"):
        table.guess(BOB, "RGBY", 33.0)
    table.guess(ANN, "WWKK", 40.0)  # Ann breaks Bob's code: the game ends
    assert table.phase == FINISHED
    results = table.results()
    assert [r.broke for r in results.players] == [True, False]


def test_a_clock_round_trips_and_a_stray_clock_field_is_refused():
    table = started(60.0)
    table.guess(ANN, "RRRR", 5.0)
    again = Table.from_json(table.to_json())
    assert again.to_json() == table.to_json() and again.next_due() == table.next_due()
    bad = table.to_json()
    del bad["guess_clock"]
    with pytest.raises(ValueError):
        Table.from_json(bad)  # seats with clock fields at a table without one


def test_only_the_offered_clocks_are_allowed():
    with pytest.raises(Refused, match="A clock per guess is 30, 60, 120, 300 seconds, or none."):
        Table("t2", ANN, guess_clock=7.0)


def test_a_person_who_never_sets_a_code_gets_one_drawn_from_the_seed_when_the_code_clock_runs_out():
    from wom_tui.domain.table import MAKING
    from wom_tui.domain.waits import CODE_CLOCK

    def opened() -> Table:
        table = Table("t1", ANN, seats=2, seed=3, now=0.0)  # no per-guess clock: the code clock holds at any table
        table.sit(BOB, 1)
        table.start(ANN, 10.0)
        return table

    table = opened()
    view = table.view_for(BOB)
    assert view.code_deadline == 10.0 + CODE_CLOCK and table.next_due() == 10.0 + CODE_CLOCK
    table.set_code(ANN, "RGBY", 20.0)
    kept = Table.from_json(table.to_json())  # kept and read back (the hub's and a local game's store alike)
    assert kept.code_deadline == 10.0 + CODE_CLOCK
    table.tick(10.0 + CODE_CLOCK - 0.1)
    assert table.phase == MAKING
    table.tick(10.0 + CODE_CLOCK + 500)  # a tick that comes late draws the same code (guessing starts then)
    assert table.phase == GUESSING and table.code_deadline is None and "code_deadline" not in table.to_json()
    assert "Bob did not set a code in time: one was drawn for Ann to break." in table.log
    assert table.view_for(BOB).code_deadline is None
    # Bob plays on (the clock only set his code): he breaks Ann's code; the drawn code is the seed's.
    table.guess(BOB, "RGBY", 200.0)
    kept.tick(10.0 + CODE_CLOCK)
    assert kept.to_json()["seats"][1]["code"] == table.to_json()["seats"][1]["code"]  # every process agrees
    again = opened()
    again.tick(10.0 + CODE_CLOCK)  # nobody set a code: both drawn
    assert again.phase == GUESSING and sum("did not set a code" in line for line in again.log) == 2
    # A table kept before the clock (no deadline) waits as it always did; a deadline outside code making is refused.
    old = opened().to_json()
    del old["code_deadline"]
    before = Table.from_json(old)
    before.tick(10_000.0)
    assert before.phase == MAKING and before.next_due() is None
    from wom_tui.domain.table import TableDataError

    with pytest.raises(TableDataError, match="code_deadline"):
        Table.from_json({**table.to_json(), "code_deadline": 5.0})
