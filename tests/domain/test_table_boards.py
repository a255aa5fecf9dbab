"""Quad, Devious and Liar at a live table (domain/table.py, domain/table_boards.py): transcripts of whole games,
the computers playing each, and hypothesis over random guesses and seeds (docs/play.md, *Variants*)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from wom_tui.domain.codes import Feedback, feedback
from wom_tui.domain.strategies.counting import count_consistent
from wom_tui.domain.table import FINISHED, GUESSING, SeatHolder, Table
from wom_tui.domain.table_boards import VariantBoard
from wom_tui.domain.variants import Variant

from wom_tui.domain.scoring import breakdown

from .test_table import ALAN, BEA, refused, running, strings_in, table
from .test_table_properties import PEOPLE, RULES, apply, holder
from .test_table_properties import action as ACTION

CODES = {"Alan": "RGBY", "Bea": "RRGG"}


def board(t: Table, seat: int) -> VariantBoard:
    b = t._boards[seat]
    assert isinstance(b, VariantBoard)
    return b


def again(t: Table) -> Table:
    """The table read back from its JSON: the same table, every answer replayed from the seed."""
    data = json.loads(json.dumps(t.to_json()))
    back = Table.from_json(data)
    assert back.to_json() == data
    return back


def test_quad_each_board_has_the_makers_code_and_three_drawn_every_guess_goes_to_all_four():
    t = running(BEA, variant=Variant.QUAD, codes=CODES)
    assert t.attempts == 9
    assert t.log[0].startswith("Quad at a table: each board has 4 codes")
    codes = board(t, 0).codes
    assert codes[0] == "RRGG" and len(codes) == 4  # Bea's code, for Alan, is the first of his four
    t.guess(ALAN, "RRGG", 1.0)
    own = t.view_for(ALAN).own
    assert own is not None and own.rows[0] == ("RRGG", tuple(feedback(c, "RRGG") for c in codes))
    for code in codes[1:]:
        if not t.seat_done(0):
            t = again(t)
            t.guess(ALAN, code, 2.0)
    used = board(t, 0).attempts_used
    assert t.seat_done(0) and t.log[-1] == f"Alan broke all four codes in {used} attempts!"
    rows = t.view_for(ALAN).own.rows  # a code broken before shows no answer after it
    assert rows[-1][1][0] is None and rows[0][1][0] == Feedback(4, 0)
    assert refused(lambda: t.guess(ALAN, "RGBY", 3.0)) == "Your board is finished; wait for the others."
    t.leave(BEA, 4.0)
    assert t.phase == FINISHED
    alan, bea = t.final_rows()
    assert alan.code == " ".join(codes) and alan.broke and alan.breaking == 9 - used + 1
    assert not bea.broke and alan.making == 9  # Bea left: her board counts as not broken


def test_devious_sets_no_code_answers_consistently_and_reveals_a_code_that_fitted():
    t = table(variant=Variant.DEVIOUS, attempts=5)
    t.sit(BEA, 1)
    t.start(ALAN, 0.0)
    assert t.phase == GUESSING and t.names == ("Alan", "Bea")  # straight to guessing: nobody sets a code
    assert refused(lambda: t.set_code(ALAN, "RGBY", 0.0)) == "The game has already started."
    assert t.view_for(ALAN).own.breaking_code_of == "Devious"
    for guess in ("RRGG", "BBYY", "RGBY", "GRYB", "YBGR"):
        if not t.seat_done(0):
            t.guess(ALAN, guess, 1.0)
            t = again(t)
    history = [(a.guess, a.feedback) for a in t._boards[0].history]
    assert count_consistent(t.ruleset, history)[0] >= 1  # always some code fits: Devious never lies
    assert all(a.feedback != Feedback(4, 0) for a in t._boards[0].history)  # five guesses never corner it
    t.leave(BEA, 2.0)
    (line,) = [ln for ln in t.view_for(None).reveal if "Alan" in ln]
    fitted = line.split("; ")[1].split(" ")[0]
    assert line == f"Devious held no code against Alan; {fitted} fitted every answer."
    assert all(feedback(fitted, g) == fb for g, fb in history)
    alan, _bea = t.final_rows()
    assert alan.code == fitted and alan.making == 0 and alan.points == 0  # nobody earns for making at Devious


def test_liar_lies_once_among_the_first_three_answers_and_the_end_says_where():
    t = running(BEA, variant=Variant.LIAR, codes=CODES)
    assert t.attempts == 12 and "one of the first 3 answers is a lie" in t.log[0]
    lie_at = board(t, 0).lie_at
    for guess in ("BBYY", "GGBB", "YYRR", "RRGG"):
        t.guess(ALAN, guess, 1.0)
    told = [a.feedback for a in t._boards[0].history]
    truth = [feedback("RRGG", g) for g in ("BBYY", "GGBB", "YYRR", "RRGG")]
    assert [i for i in range(4) if told[i] != truth[i]] == [lie_at]
    assert told[3] == Feedback(4, 0)  # a breaking guess is always told so
    t = again(t)
    t.leave(BEA, 2.0)
    t2 = again(t)
    (line,) = [ln for ln in t2.view_for(BEA).reveal if ln.startswith("Alan")]
    assert line == (f"Alan's board lied at guess #{lie_at + 1}: it said {told[lie_at].black} black, "
                    f"{told[lie_at].white} white; the truth was {truth[lie_at].black} black, {truth[lie_at].white} white.")
    assert line in t2.log
    assert t2.view_for(ALAN).own.lied_row == lie_at and t.view_for(BEA).own.lied_row is None  # Bea never guessed
    assert running(BEA, variant=Variant.LIAR, codes=CODES).view_for(ALAN).own.lied_row is None


def test_a_liar_guess_that_breaks_the_code_is_never_the_lie():
    for seed in range(12):
        t = Table("t1", ALAN, seats=2, seed=seed, pace=(2.0, 2.0), variant=Variant.LIAR)
        t.sit(BEA, 1)
        t.start(ALAN, 0.0)
        t.set_code(ALAN, "RGBY", 0.0)
        t.set_code(BEA, "RRGG", 0.0)
        lie_at = board(t, 0).lie_at
        for _ in range(lie_at):
            t.guess(ALAN, "BBYY", 1.0)
        assert t.guess(ALAN, "RRGG", 1.0) == Feedback(4, 0)
        t.leave(BEA, 2.0)
        assert f"Alan broke the code with guess #{lie_at + 1}, the one that was to lie." in t.log


def play_out(t: Table) -> Table:
    now = 0.0
    while t.phase == GUESSING and now < 400:
        now += 2.0
        t.tick(now)
    return t


def test_hal9000_and_viki_play_each_variant_at_a_table_to_the_end():
    for variant in (Variant.QUAD, Variant.DEVIOUS, Variant.LIAR):
        t = Table("t1", ALAN, seats=3, attempts=8, seed=3, pace=(2.0, 2.0), variant=variant)
        t.seat_computer(ALAN, 1, "HAL9000")
        t.seat_computer(ALAN, 2, "VIKI")
        t.start(ALAN, 0.0)
        if t.makes_codes:
            t.set_code(ALAN, "RGBY", 0.0)
        t.leave(ALAN, 0.0)  # Alan stands up: the two computers play on
        play_out(t)
        assert t.phase == FINISHED, variant
        hal, viki = board(t, 1), board(t, 2)
        assert hal.solved, variant  # HAL9000 breaks every board of these rules on 4 × 6
        if variant is Variant.DEVIOUS:
            assert hal.attempts_used <= 5  # its 5-guess book corners Devious
        assert viki.attempts_used >= 1
        again(t)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(variant=st.sampled_from([Variant.QUAD, Variant.DEVIOUS, Variant.LIAR]), seed=st.integers(0, 10**6),
       guesses=st.lists(st.sampled_from(["RRGG", "RGBY", "BBYY", "GRYB", "WWKK", "YBGR", "RGBW", "KKRR"]),
                        min_size=1, max_size=12))
def test_every_answer_follows_the_variants_rules_and_the_table_reads_back_the_same(variant, seed, guesses):
    t = Table("t1", ALAN, seats=2, attempts=6, seed=seed, pace=(2.0, 2.0), variant=variant)
    t.sit(BEA, 1)
    t.start(ALAN, 0.0)
    if t.makes_codes:
        t.set_code(ALAN, "RGBY", 0.0)
        t.set_code(BEA, "RRGG", 0.0)
    for guess in guesses:
        if t.seat_done(0):
            break
        t.guess(ALAN, guess, 1.0)
    b = board(t, 0)
    again(t)
    if variant is Variant.QUAD:  # every answer true, on every code not broken before it
        for guess, answers in b.rows:
            assert all(a is None or a == feedback(c, guess) for a, c in zip(answers, b.codes))
    elif variant is Variant.DEVIOUS:  # some code fits every answer; a win only when nothing else is left
        history = [(a.guess, a.feedback) for a in b.history]
        assert count_consistent(t.ruleset, history)[0] >= 1
        if b.solved:
            assert count_consistent(t.ruleset, history[:-1])[0] == 1
    else:  # at most one lie, among the first three answers, never about a win
        wrong = [i for i, a in enumerate(b.history) if a.feedback != feedback("RRGG", a.guess)]
        assert wrong in ([], [b.lie_at])
        assert all(a.feedback == Feedback(4, 0) for a in b.history if a.guess == "RRGG")
    t.leave(BEA, 2.0)
    if t.phase == FINISHED:
        assert len(t.view_for(None).reveal) == 2  # one line a board: the four codes, the fitted code, the lie


def test_a_stranger_sees_no_code_and_no_guess_of_a_quad_board():
    t = running(BEA, variant=Variant.QUAD, codes=CODES)
    t.guess(ALAN, "RRGG", 1.0)
    view = t.view_for(SeatHolder("Cy", "s-cy", True))
    text = json.dumps([str(view)])
    assert view.own is None and all(code not in text for code in board(t, 0).codes[1:])
    assert table(variant=Variant.QUAD).view_for(None).variant is Variant.QUAD


@settings(max_examples=60, deadline=None, derandomize=True)
@given(variant=st.sampled_from([Variant.QUAD, Variant.DEVIOUS, Variant.LIAR]), seats=st.integers(2, 3),
       steps=st.lists(ACTION, max_size=30))
def test_any_order_of_moves_at_a_variant_table_keeps_its_secrets_reads_back_and_ends(variant, seats, steps):
    """Random seating, guesses, leaving, dropping, coming back and time (test_table_properties.py's moves) at a
    Quad, Devious or Liar table: JSON round trips at every step, no code or other's guess shows before the end,
    the points follow the rules (no making points at Devious), and the table ends once everybody walks away."""
    live = {p.session + "-0" for p in PEOPLE}
    sessions = {0: 0, 1: 0, 2: 0}
    t = Table("t", holder(None, 0, sessions), seats=seats, attempts=5, ruleset=RULES, seed=7, grace=60.0,
              pace=(1.0, 3.0), variant=variant)
    now = 0.0
    for step in [("fill", True), ("codes", "RGG"), *steps]:
        now = apply(t, step, now, live, sessions)
        again(t)
        if t.phase != FINISHED and t._boards:
            secrets = {code for b in t._boards for code in b.codes} | {s.code for s in t._seats if s.code}
            for viewer in [None, *range(t.seat_count)]:
                view = t.view_for(viewer)
                own = set(t._seats[viewer].guesses) if viewer is not None else set()
                others = {g for i, s in enumerate(t._seats) if i != viewer for g in s.guesses}
                assert strings_in(view) & (secrets | others) <= own
    t.mark_presence(set(), now)
    t.tick(now + 60.0)
    t.tick(now + 60.0 + 3.0 * 12 * 4 + 1)
    assert t.phase == FINISHED or t.phase == "closed"
    if t.phase == FINISHED:
        for index, row in enumerate(t.results().players):
            if row.points is not None:
                breaker = t.results().players[(index + 1) % t.seat_count]
                expected = breakdown(row.player.name, t.attempts, row.attempts_used, row.broke,
                                     breaker.attempts_used, breaker.broke)
                assert row.points.breaking == expected.breaking
                assert row.points.making == (0 if variant is Variant.DEVIOUS else expected.making)
        assert len(t.view_for(None).reveal) == seats
        again(t)


def test_hal9000_corners_a_devious_table_within_five_guesses_whatever_the_tables_seed():
    for seed in range(12):
        t = Table("t1", ALAN, seats=2, attempts=6, seed=seed, pace=(2.0, 2.0), variant=Variant.DEVIOUS)
        t.seat_computer(ALAN, 1, "HAL9000")
        t.start(ALAN, 0.0)
        t.leave(ALAN, 0.0)
        play_out(t)
        assert board(t, 1).solved and board(t, 1).attempts_used <= 5, seed


def test_a_rematch_of_a_quad_table_is_a_quad_table_of_nine_guesses():
    t = running(BEA, variant=Variant.QUAD, codes=CODES)
    t.leave(BEA, 1.0)
    t.leave(ALAN, 1.0)  # both walk away: the game is over
    assert t.phase == FINISHED
    again_table = t.rematch(ALAN, "t2", seed=9, now=2.0)
    assert again_table.variant is Variant.QUAD and again_table.attempts == 9
    assert Table.from_json(again_table.to_json()).variant is Variant.QUAD
