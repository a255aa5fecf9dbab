"""The seeds' command words typed as a guess: say what works instead, cost nothing."""

from __future__ import annotations

import random

import pytest

from wom_tui.domain.codes import SOLO_RULESET, WOM_RULESET, InvalidCode
from wom_tui.domain.commands import (
    HELP_HINT,
    LEAVE_HINT,
    LIFELINE_HINT,
    NEW_GAME_HINT,
    NO_LIFELINES_HINT,
    command_hint,
)
from wom_tui.domain.solo import LifelinePolicy, SoloSetup


def solo(lifelines: LifelinePolicy = LifelinePolicy.ONE_PER_GAME):
    return SoloSetup(length=4, lifelines=lifelines).new_game(random.Random(1))


@pytest.mark.parametrize(
    ("typed", "hint"),
    [
        ("reset", NEW_GAME_HINT),
        ("RESET", NEW_GAME_HINT),
        ("quit", LEAVE_HINT),
        ("Quit", LEAVE_HINT),
        ("exit", LEAVE_HINT),
        ("lifeline#3", LIFELINE_HINT),
        ("lifeline", LIFELINE_HINT),
        ("lifeline 3", LIFELINE_HINT),
        ("help", HELP_HINT),
    ],
)
def test_a_command_word_in_a_solo_game_says_what_works_and_costs_nothing(typed, hint):
    game = solo()
    with pytest.raises(InvalidCode) as refusal:
        game.submit(typed)
    assert refusal.value.reason == hint
    assert game.guesses_used == 0 and game.history == ()


def test_the_hints_name_the_keys_that_work():
    assert "ctrl+n" in NEW_GAME_HINT
    assert "Esc" in LEAVE_HINT
    assert "F2" in LIFELINE_HINT and "F3" in LIFELINE_HINT and "lifeline#1" in LIFELINE_HINT


def test_without_lifelines_lifeline3_says_there_are_none():
    game = solo(LifelinePolicy.NONE)
    with pytest.raises(InvalidCode, match=NO_LIFELINES_HINT):
        game.submit("lifeline#3")


def test_real_lifelines_and_guesses_are_not_hinted():
    game = solo()
    assert game.submit("lifeline#1").ok
    assert game.submit("1234") is not None


def test_a_guess_with_other_symbols_still_gets_the_palette_message():
    with pytest.raises(InvalidCode, match="Only 0"):
        solo().submit("12ab")


def test_any_code_entry_hints_leave_words_but_not_the_new_game_it_may_not_have():
    with pytest.raises(InvalidCode, match="press Esc"):
        WOM_RULESET.parse("quit")
    with pytest.raises(InvalidCode, match="Only R, G, B, Y, W and K are allowed."):
        WOM_RULESET.parse("reset")
    assert command_hint("reset") is None
    assert command_hint("lifeline#3") is None


def test_no_code_of_any_palette_is_taken_for_a_command():
    assert command_hint("1234") is None
    assert command_hint("RGBY", new_game=True, lifelines=True) is None
    assert command_hint(SOLO_RULESET.palette.symbols[:4], new_game=True, lifelines=True) is None
