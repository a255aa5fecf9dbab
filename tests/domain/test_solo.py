"""Solo games: guesses, lifelines and their refusals, hint mask, reveal.

The rules: docs/play.md, *Solo: break the computer's code*.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wom_tui.domain.commands import LIFELINE_HINT
from wom_tui.domain.codes import DIGITS8, DIGITS10, RAINBOW, WOM, InvalidCode, Ruleset
from wom_tui.domain.game import GameStateError
from wom_tui.domain.solo import (
    LIFELINES_OFF,
    NOTHING_NEW_SYMBOL,
    ONE_USED,
    LifelinePolicy,
    LifelineResult,
    SoloGame,
    SoloSetup,
)
from wom_tui.domain.store.documents import check_game_json
from wom_tui.domain.wom import SetupError

NO_GUESS = "You cannot use this lifeline on this guess since you don't have any guess left."


def game(secret="66843", policy=LifelinePolicy.ONE_PER_GAME, guesses=10, seed=0, palette=DIGITS10, repeats=True):
    return SoloGame(Ruleset(len(secret), palette, repeats, guesses), secret, random.Random(seed), policy)


def miss(g, times):
    for _ in range(times):
        g.guess("0" * g.ruleset.length)


# -- setup -----------------------------------------------------------------------------------


def test_setup_defaults():
    setup = SoloSetup()
    assert (setup.length, setup.palette, setup.repeats, setup.guesses, setup.lifelines) == (
        4, DIGITS10, True, 10, LifelinePolicy.ONE_PER_GAME
    )
    g = setup.new_game(random.Random(0))
    assert g.ruleset == Ruleset(4, DIGITS10, True, 10)
    assert (g.guess_number, g.guesses_used, g.guesses_left, g.hint_mask) == (1, 0, 10, "****")


@pytest.mark.parametrize(
    "kwargs",
    [{"length": 3}, {"length": 9}, {"guesses": 0}, {"guesses": 21},
     {"length": 7, "palette": WOM, "repeats": False}, {"lifelines": "one"}],
)
def test_impossible_setups_are_refused(kwargs):
    with pytest.raises(SetupError):
        SoloSetup(**kwargs)


def test_no_repeats_fits_the_palette():
    assert SoloSetup(length=6, palette=RAINBOW, repeats=False).max_length == 6
    assert SoloSetup(length=8, palette=DIGITS8, repeats=False).max_length == 8


@given(st.integers(0, 2**32 - 1))
def test_random_length_stays_four_to_eight(seed):
    g = SoloSetup(length=None).new_game(random.Random(seed))
    assert 4 <= g.ruleset.length <= 8
    assert len(g.hint_mask) == g.ruleset.length


def test_random_length_reaches_every_length_and_respects_no_repeats():
    lengths = {SoloSetup(length=None).new_game(random.Random(s)).ruleset.length for s in range(200)}
    assert lengths == {4, 5, 6, 7, 8}
    for seed in range(100):
        g = SoloSetup(length=None, palette=WOM, repeats=False, lifelines=LifelinePolicy.NONE).new_game(
            random.Random(seed)
        )
        assert 4 <= g.ruleset.length <= 6
        for _ in range(g.ruleset.guesses):
            g.guess("R" * g.ruleset.length)
            if g.over:
                break
        if g.lost:
            code = g.reveal()
            assert len(set(code)) == len(code)


def test_the_same_seed_gives_the_same_game():
    a, b = (SoloSetup(length=None).new_game(random.Random(42)) for _ in range(2))
    assert a.ruleset == b.ruleset
    assert [a.guess("1234" + "0" * (a.ruleset.length - 4)) for _ in range(3)] == [
        b.guess("1234" + "0" * (b.ruleset.length - 4)) for _ in range(3)
    ]
    assert a.lifeline(2) == b.lifeline(2)


# -- guessing --------------------------------------------------------------------------------


def test_guesses_count_and_show_in_history():
    g = game()
    assert g.guess("12345") == (1, 1)
    assert g.guess(" 6 6 0 0 0 ") == (2, 0)
    assert (g.guess_number, g.guesses_used, g.guesses_left) == (3, 2, 8)
    assert g.history == (("12345", (1, 1)), ("66000", (2, 0)))
    assert not any(r.is_lifeline for r in g.history)


@pytest.mark.parametrize(
    "typed, reason",
    [("1234", "Guess too short; it must be exactly 5 symbols."),
     ("123456", "Guess too long; it must be exactly 5 symbols."),
     ("guess1", "Only 0, 1, 2, 3, 4, 5, 6, 7, 8 and 9 are allowed."),
     ("lifeline#3", LIFELINE_HINT)],  # say what works instead
)
def test_invalid_guesses_cost_nothing(typed, reason):
    g = game()
    with pytest.raises(InvalidCode) as exc:
        g.submit(typed)
    assert exc.value.reason == reason
    assert g.guesses_used == 0 and g.history == ()


def test_winning():
    g = game()
    g.guess("12345")
    assert g.guess("66843") == (5, 0)
    assert g.won and g.over and not g.lost
    assert g.reveal() == "66843"
    with pytest.raises(GameStateError):
        g.guess("66843")
    with pytest.raises(GameStateError):
        g.lifeline(1)
    assert g.lifeline_refusal(1) == g.lifeline_refusal(2) == "The game is over."


def test_losing_reveals_the_code():
    g = game()
    with pytest.raises(GameStateError):
        g.reveal()
    with pytest.raises(GameStateError):
        g.reveal_message
    miss(g, 9)
    assert not g.over
    with pytest.raises(GameStateError):
        g.reveal()
    g.guess("21345")
    assert g.lost and g.over and not g.won
    assert g.reveal_message == "The code was 66843."
    assert g.guess_number == 10


def test_winning_on_the_last_guess_is_a_win():
    g = game()
    miss(g, 9)
    g.guess("66843")
    assert g.won and not g.lost


# -- lifelines -------------------------------------------------------------------------------


def test_lifeline_one_reveals_a_symbol_and_costs_one_guess():
    g = game(secret="66843")
    g.guess("12345")
    result = g.submit("lifeline#1")
    assert result.ok and result.cost == 1
    assert result.message in {f"The code contains {d}." for d in "6843"}
    assert g.revealed_symbols == (result.message[-2],)
    assert (g.guesses_used, g.guess_number) == (2, 3)
    row = g.history[-1]
    assert (len(g.history), row.guess, row.feedback, row.is_lifeline) == (2, "LIFELINE", (0, 0), True)
    assert g.hint_mask == "*****"


def test_lifeline_two_reveals_a_position_fills_the_mask_and_costs_two():
    g = game(secret="66843")
    result = g.submit("  LIFELINE #2 ")
    assert result.ok and result.cost == 2
    position = next(i for i, ch in enumerate(g.hint_mask) if ch != "*")
    digit = "66843"[position]
    assert result.message == f"The code has {digit} at position {position + 1}."
    assert g.hint_mask == "*" * position + digit + "*" * (4 - position)
    assert [r.guess for r in g.history] == ["LIFELINE", "LIFELINE"]
    assert (g.guesses_used, g.guesses_left, g.guess_number) == (2, 8, 3)


def test_seed_002_message_shape():
    for seed in range(50):
        g = game(secret="12385", seed=seed)
        result = g.lifeline(2)
        if result.message == "The code has 8 at position 4.":
            assert g.hint_mask == "***8*"
            break
    else:
        pytest.fail("no seed revealed position 4")


def test_lifeline_one_refused_at_guess_ten():
    g = game(policy=LifelinePolicy.EACH_ONCE)
    miss(g, 9)
    assert g.guess_number == 10
    assert g.lifeline(1) == LifelineResult(False, NO_GUESS)
    assert g.guesses_used == 9 and len(g.history) == 9


@pytest.mark.parametrize("used", [8, 9])
def test_lifeline_two_refused_at_guesses_nine_and_ten(used):
    g = game(policy=LifelinePolicy.EACH_ONCE)
    miss(g, used)
    assert g.guess_number == used + 1
    result = g.submit("lifeline#2")
    assert (result.ok, result.message, result.cost) == (False, NO_GUESS, 0)
    assert g.guesses_used == used and g.hint_mask == "*****"


def test_lifelines_allowed_just_before_the_limit():
    g = game(policy=LifelinePolicy.EACH_ONCE)
    miss(g, 7)
    assert g.lifeline(2).ok  # guess 8: leaves one guess
    assert g.guesses_left == 1
    g2 = game()
    miss(g2, 8)
    assert g2.lifeline(1).ok  # guess 9: leaves one guess
    assert g2.guesses_left == 1 and not g2.over


def test_refused_lifeline_does_not_use_up_the_allowance():
    g = game()
    miss(g, 9)
    assert not g.lifeline(2).ok
    assert g.lifeline_refusal(1) == NO_GUESS


def test_second_lifeline_refused_under_one_per_game():
    g = game()
    assert g.lifeline(1).ok
    for number in (1, 2):
        result = g.lifeline(number)
        assert result == LifelineResult(False, ONE_USED)
        assert result.message == "You already used up your lifeline earlier; you can only use one per game."
    assert g.guesses_used == 1


def test_each_once_allows_both_but_not_again():
    g = game(policy=LifelinePolicy.EACH_ONCE)
    assert g.lifeline(2).ok
    assert g.lifeline(1).ok
    assert g.guesses_used == 3 and [r.is_lifeline for r in g.history] == [True] * 3
    assert g.lifeline(1) == LifelineResult(False, "You already used lifeline #1 in this game.")
    assert g.lifeline(2) == LifelineResult(False, "You already used lifeline #2 in this game.")
    assert g.guesses_used == 3


def test_no_lifelines_when_off():
    g = game(policy=LifelinePolicy.NONE)
    assert g.submit("lifeline#1") == LifelineResult(False, LIFELINES_OFF)
    assert g.lifeline(2).message == "Lifelines are off in this game."
    assert g.guesses_used == 0


def test_nothing_new_to_reveal_costs_nothing_and_keeps_the_lifeline():
    g = game(secret="6666", policy=LifelinePolicy.EACH_ONCE)
    assert g.lifeline(2).ok  # now 6 is known
    result = g.lifeline(1)
    assert (result.ok, result.message, result.cost) == (False, NOTHING_NEW_SYMBOL, 0)
    assert g.guesses_used == 2


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="0123456789", min_size=4, max_size=8), st.integers(0, 2**32 - 1))
def test_a_symbol_reveal_never_repeats_what_a_position_reveal_told(secret, seed):
    g = game(secret=secret, policy=LifelinePolicy.EACH_ONCE, seed=seed)
    shown = g.lifeline(2)
    known = next(ch for ch in g.hint_mask if ch != "*")
    assert shown.ok and shown.message.startswith(f"The code has {known} at position ")
    result = g.lifeline(1)
    if set(secret) == {known}:
        assert not result.ok and result.message == NOTHING_NEW_SYMBOL
    else:
        assert result.ok
        symbol = result.message.removeprefix("The code contains ").removesuffix(".")
        assert symbol in secret and symbol != known


def test_lifeline_numbers_are_one_and_two():
    with pytest.raises(ValueError):
        game().lifeline(3)


def test_submit_reads_lifelines_in_any_case():
    g = game(policy=LifelinePolicy.EACH_ONCE)
    assert isinstance(g.submit("LifeLine#1"), LifelineResult)
    assert isinstance(g.submit("LIFELINE#2"), LifelineResult)
    assert g.guesses_used == 3


# -- records ---------------------------------------------------------------------------------


def test_record_counts_lifeline_costs():
    g = game()
    with pytest.raises(GameStateError):
        g.record("Alan", True)
    g.lifeline(2)
    g.guess("12345")
    g.guess("66843")
    record = g.record("Alan", True)
    assert record.kind == "solo" and record.ruleset == g.ruleset
    (player,) = record.players
    assert (player.name, player.is_user, player.broke, player.attempts) == ("Alan", True, True, 4)
    assert [guess for guess, _ in player.guesses] == ["LIFELINE", "LIFELINE", "12345", "66843"]
    assert player.guesses[0][1] == (0, 0)
    assert record.points() == {"Alan": 0}
    assert check_game_json(record.as_json()) == record
    guest = g.record("Guest", False)
    assert guest.points() == {}


def test_a_win_that_sets_no_record_names_the_holder():
    from wom_tui.domain.halloffame import HallEntry, HallOfFame

    g = game()
    hall = HallOfFame([HallEntry(g.ruleset, 2, "Ada", guest=True)])
    g.guess("12345")
    g.guess("66843")
    assert g.record_message(hall) == "The record is 2 guesses, held by Ada; you tied it."
    slower = game()
    miss(slower, 2)
    slower.guess("66843")
    assert slower.record_message(hall) == "The record is 2 guesses, held by Ada; you needed 1 more."
    quicker = game()
    quicker.guess("66843")
    assert quicker.record_message(hall) is None, "a new record is announced when it is entered"
    assert g.record_message(HallOfFame()) is None
    lost = game(guesses=2)
    miss(lost, 2)
    assert lost.record_message(hall) is None
