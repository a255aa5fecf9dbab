"""Players: people type, computers compute; the same two methods, overridden (seed 004)."""

from __future__ import annotations

import random

import pytest

from wom_tui.domain.codes import WOM_RULESET, Feedback, InvalidCode
from wom_tui.domain.players import ComputerPlayer, HumanPlayer, Player, computer_player, hal9000, viki
from wom_tui.domain.strategies import is_consistent, make_strategy


def test_a_player_is_abstract():
    with pytest.raises(TypeError):
        Player("Nobody")  # type: ignore[abstract]


def test_subclasses_override_the_same_methods_without_repeating_the_base():
    for cls in (HumanPlayer, ComputerPlayer):
        assert "make_code" in vars(cls) and "make_guess" in vars(cls)
        assert "name" not in vars(cls)
    assert "is_computer" in vars(ComputerPlayer)


def test_names_are_read_only():
    alan = HumanPlayer("Alan")
    with pytest.raises(AttributeError):
        alan.name = "Bob"  # type: ignore[misc]
    assert repr(alan) == "HumanPlayer('Alan')"


def test_a_person_plays_what_they_typed():
    alan, rng = HumanPlayer("Alan"), random.Random(0)
    assert not alan.is_computer
    assert alan.make_code(WOM_RULESET, rng, " by wr ") == "BYWR"
    assert alan.make_guess(WOM_RULESET, (), rng, "bgyy") == "BGYY"


def test_a_person_typing_a_bad_code_gets_the_reason():
    alan, rng = HumanPlayer("Alan"), random.Random(0)
    with pytest.raises(InvalidCode, match="^Code too long"):
        alan.make_code(WOM_RULESET, rng, "BRWRY")
    with pytest.raises(InvalidCode, match="^Guess too short"):
        alan.make_guess(WOM_RULESET, (), rng, "BGY")
    with pytest.raises(InvalidCode, match="^Code too short"):
        alan.make_code(WOM_RULESET, rng, None)


def test_a_computer_ignores_typing_and_makes_a_random_valid_code():
    hal, rng = ComputerPlayer("HAL9000", make_strategy("random")), random.Random(3)
    codes = {hal.make_code(WOM_RULESET, rng, "RRRR") for _ in range(30)}
    assert len(codes) > 1
    assert all(WOM_RULESET.parse(c, secret=True) == c for c in codes)


def test_a_computer_guesses_with_its_strategy():
    vik, rng = viki(), random.Random(5)
    history = [("RRGG", Feedback(1, 1)), ("BBYY", Feedback(0, 2))]
    for _ in range(5):
        guess = vik.make_guess(WOM_RULESET, history, rng, typed="KKKK")
        assert is_consistent(guess, history)


def test_the_same_seed_gives_the_same_play():
    a = [hal9000().make_code(WOM_RULESET, random.Random(11)) for _ in range(2)]
    assert a[0] == a[1]


def test_computer_players_by_name_in_any_case():
    assert computer_player("hal9000").name == "HAL9000"
    assert computer_player(" Viki ").name == "VIKI"
    assert hal9000().is_computer and viki().is_computer
    assert hal9000().strategy.next_guess and viki().strategy is not None
    with pytest.raises(ValueError):
        computer_player("Alan")
