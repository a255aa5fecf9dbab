"""A live table's variant (domain/table.py): Strict refuses a guess that does not fit, the variant is kept in
the table's JSON and carried to a rematch; Quad, Devious and Liar at a table in test_table_boards.py."""

from __future__ import annotations

import json

from wom_tui.domain.codes import DIGITS8, Feedback, Ruleset
from wom_tui.domain.strategies import is_consistent
from wom_tui.domain.table import FINISHED, Table
from wom_tui.domain.variants import Variant

from .test_table import ALAN, BEA, refused, running, table, unchanged


def test_a_strict_table_refuses_a_guess_that_does_not_fit_and_changes_nothing():
    t = running(BEA, variant=Variant.STRICT, codes={"Alan": "RGBY", "Bea": "RRGG"})
    assert t.guess(ALAN, "RRBB", 1.0) == Feedback(2, 0)  # Bea's code RRGG was set for Alan to break
    reason = unchanged(t, lambda: t.guess(ALAN, "WWKK", 2.0))
    assert reason.startswith("Strict: WWKK does not fit guess #1 (RRBB got 2 black, 0 white;")
    assert t.guess(ALAN, "RRGG", 3.0) == Feedback(4, 0)


def test_the_variant_is_kept_in_the_tables_json_and_an_older_table_reads_as_classic():
    t = running(BEA, variant=Variant.STRICT)
    data = json.loads(json.dumps(t.to_json()))
    assert data["variant"] == "strict"
    assert Table.from_json(data).variant is Variant.STRICT
    classic = running(BEA).to_json()
    assert "variant" not in classic and Table.from_json(classic).variant is Variant.CLASSIC


def test_a_computer_at_a_strict_table_plays_only_guesses_that_fit():
    for computer in ("HAL9000", "VIKI"):
        t = running(computer, attempts=10, variant=Variant.STRICT)
        now = 0.0
        while not t.seat_done(1) and now < 100:  # the computer breaks Alan's code, RGBY
            now += 2.0
            t.tick(now)
        history = [(a.guess, a.feedback) for a in t._boards[1].history]
        assert history[-1] == ("RGBY", Feedback(4, 0))
        assert all(is_consistent(g, history[:i]) for i, (g, _) in enumerate(history))


def test_devious_and_liar_refuse_a_ruleset_too_big_to_count_and_quad_and_liar_set_their_own_guesses():
    big = Ruleset(8, DIGITS8, True, 10)
    assert refused(lambda: table(variant=Variant.DEVIOUS, ruleset=big)).startswith("Devious needs a ruleset of at most")
    assert table(variant=Variant.QUAD, attempts=5).attempts == 9
    assert table(variant=Variant.LIAR, attempts=10).attempts == 12
    assert table(variant=Variant.DEVIOUS, attempts=7).attempts == 7


def test_a_rematch_plays_the_same_variant():
    t = Table("t1", ALAN, seats=2, seed=2, now=0.0, pace=(0.0, 0.0), variant=Variant.STRICT)
    t.seat_computer(ALAN, 1, "VIKI")
    t.start(ALAN, 0.0)
    t.set_code(ALAN, "RGBY", 0.0)
    t.tick(1000.0)  # VIKI breaks Alan's code
    t.guess(ALAN, "RRGG", 1000.0)
    while t.phase != FINISHED:
        t.leave(ALAN, 1001.0)
        t.tick(2000.0)
    assert t.rematch(ALAN, "t2", seed=5, now=3000.0).variant is Variant.STRICT
