"""Codes, rulesets and feedback: parsing messages and the arithmetic of key pegs.

The rules: docs/play.md, *Codes and feedback*.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wom_tui.domain.codes import (
    DIGITS8,
    DIGITS10,
    PALETTES,
    RAINBOW,
    SOLO_RULESET,
    WOM,
    WOM_RULESET,
    Feedback,
    InvalidCode,
    Ruleset,
    feedback,
)


@st.composite
def code_pairs(draw):
    """A ruleset's palette and length, and a secret and guess over it."""
    palette = draw(st.sampled_from(list(PALETTES.values())))
    length = draw(st.integers(1, 8))
    code = st.text(alphabet=palette.symbols, min_size=length, max_size=length)
    return draw(code), draw(code)


rulesets = st.builds(
    lambda palette, length, repeats, guesses: Ruleset(
        min(length, len(palette)) if not repeats else length, palette, repeats, guesses
    ),
    st.sampled_from(list(PALETTES.values())),
    st.integers(1, 8),
    st.booleans(),
    st.integers(1, 20),
)


# -- feedback --------------------------------------------------------------------------------


def test_feedback_examples_from_the_seeds():
    assert feedback("VVOG", "GOVG") == (1, 2)
    assert feedback("WWKK", "WWWK") == (3, 0)
    assert feedback("BYWR", "BRWG") == Feedback(2, 1)


def test_feedback_unpacks_and_reads_as_text():
    black, white = feedback("BYWR", "BRWG")
    assert (black, white) == (2, 1)
    assert Feedback(2, 1).text == "K K W"
    assert Feedback(0, 0).text == "-"
    assert Feedback(1, 2).pegs == "●○○"
    assert Feedback(4, 0).solves(4) and not Feedback(3, 1).solves(4)


def test_feedback_refuses_codes_of_different_lengths():
    with pytest.raises(ValueError):
        feedback("RGBY", "RGB")


@given(code_pairs())
def test_black_plus_white_never_exceeds_length(pair):
    secret, guess = pair
    black, white = feedback(secret, guess)
    assert 0 <= black and 0 <= white and black + white <= len(secret)


@given(code_pairs())
def test_feedback_is_symmetric(pair):
    secret, guess = pair
    assert feedback(secret, guess) == feedback(guess, secret)


@given(code_pairs())
def test_feedback_follows_the_sum_of_minimums_rule(pair):
    secret, guess = pair
    black = sum(s == g for s, g in zip(secret, guess))
    common = sum(min(secret.count(c), guess.count(c)) for c in set(secret) | set(guess))
    assert feedback(secret, guess) == (black, common - black)


@given(st.text(alphabet="RGBYWK", min_size=4, max_size=4))
def test_a_code_solves_itself(code):
    assert feedback(code, code) == (4, 0)


# -- parsing ---------------------------------------------------------------------------------


def test_parse_messages_say_which_and_why():
    with pytest.raises(InvalidCode, match=r"^Guess too short; it must be exactly 4 symbols\.$"):
        WOM_RULESET.parse("BGY")
    with pytest.raises(InvalidCode, match=r"^Guess too long; it must be exactly 4 symbols\.$"):
        WOM_RULESET.parse("BGYYR")
    with pytest.raises(InvalidCode) as exc:
        WOM_RULESET.parse("BTWRA")
    assert str(exc.value) == "Only R, G, B, Y, W and K are allowed."
    assert exc.value.reason == str(exc.value)
    assert exc.value.masked_reason == exc.value.reason, "a refusal that names no typed symbol stays as it is"
    with pytest.raises(InvalidCode, match=r"^Code too short"):
        WOM_RULESET.parse("", what="Code", secret=True)


def test_repeats_are_refused_only_in_a_secret_when_the_ruleset_forbids_them():
    unique = Ruleset(4, RAINBOW, False, 10)
    with pytest.raises(InvalidCode, match="may not repeat"):
        unique.parse("RROY", what="Code", secret=True)
    assert unique.parse("RROY") == "RROY"  # a guess may repeat
    with pytest.raises(InvalidCode) as exc:
        unique.parse("ROYO", what="Code", secret=True)
    assert exc.value.reason == "Code may not repeat a symbol; O appears more than once."
    # For a code typed hidden, the refusal that names no symbol:
    assert exc.value.masked_reason == "Code may not repeat a symbol; one appears more than once."
    assert WOM_RULESET.parse("KKKK", what="Code", secret=True) == "KKKK"


@given(rulesets, st.randoms(use_true_random=False))
def test_random_codes_parse_back_to_themselves(ruleset, rng):
    code = ruleset.random_code(rng)
    assert ruleset.parse(code, what="Code", secret=True) == code


@given(rulesets, st.randoms(use_true_random=False), st.lists(st.booleans(), min_size=8, max_size=8), st.data())
def test_parse_ignores_case_and_spaces(ruleset, rng, lower, data):
    code = ruleset.random_code(rng)
    spaced = ""
    for i, symbol in enumerate(code):
        spaced += data.draw(st.sampled_from(["", " ", "  ", "\t"])) + (symbol.lower() if lower[i] else symbol)
    spaced += data.draw(st.sampled_from(["", " "]))
    assert ruleset.parse(spaced) == code


# -- rulesets --------------------------------------------------------------------------------


def test_ruleset_defaults_and_descriptions():
    assert (WOM_RULESET.length, WOM_RULESET.palette, WOM_RULESET.repeats) == (4, WOM, True)
    assert SOLO_RULESET.palette is DIGITS10
    assert WOM_RULESET.with_guesses(5).guesses == 5
    assert WOM_RULESET.key == "4-wom-repeats-10"
    assert WOM_RULESET.size == 1296
    assert Ruleset(4, DIGITS8, False, 10).size == 8 * 7 * 6 * 5
    assert WOM_RULESET.describe() == "4 × Classic, 10 guesses"
    assert WOM.name_of("K") == "blacK"


@pytest.mark.parametrize(
    "args", [(0, WOM, True, 10), (9, WOM, True, 10), (4, WOM, True, 0), (7, WOM, False, 10)]
)
def test_impossible_rulesets_are_refused(args):
    with pytest.raises(ValueError):
        Ruleset(*args)


@given(rulesets)
def test_ruleset_json_round_trip(ruleset):
    assert Ruleset.from_json(ruleset.as_json()) == ruleset


@pytest.mark.parametrize(
    "data",
    [None, [], {"length": 4, "palette": "nope", "repeats": True, "guesses": 10},
     {"length": "4", "palette": "wom", "repeats": True, "guesses": 10},
     {"length": 4, "palette": "wom", "repeats": 1, "guesses": 10}],
)
def test_ruleset_from_bad_json_is_refused(data):
    with pytest.raises(ValueError):
        Ruleset.from_json(data)


def test_random_code_uses_only_the_rng_passed_in():
    a = [WOM_RULESET.random_code(random.Random(7)) for _ in range(3)]
    assert len(set(a)) == 1
    unique = Ruleset(6, RAINBOW, False, 10).random_code(random.Random(1))
    assert Counter(unique).most_common(1)[0][1] == 1
