"""The player's notes: per slot a symbol ruled out or certain, kept with a solo game, never read by it."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wom_tui.domain.codes import DIGITS10, WOM, Ruleset
from wom_tui.domain.notes import Note, Notes
from wom_tui.domain.solo import LifelinePolicy, SoloGame, check_solo_json

RULESET = Ruleset(4, WOM, True, 10)


def test_a_cell_cycles_nothing_out_sure_nothing():
    notes = Notes.empty(RULESET)
    assert not notes
    once = notes.cycled(2, "G")
    assert once.note(2, "G") is Note.OUT and notes.note(2, "G") is None  # notes are values
    assert once.cycled(2, "G").note(2, "G") is Note.SURE
    assert not once.cycled(2, "G").cycled(2, "G")
    for slot, symbol in ((4, "R"), (-1, "R"), (0, "Z"), (0, "RG")):
        with pytest.raises(ValueError):
            notes.cycled(slot, symbol)


CELLS = st.tuples(st.integers(0, 4), st.sampled_from("0123456789"))


@given(presses=st.lists(CELLS, max_size=60))
def test_notes_come_back_as_they_were(presses):
    ruleset = Ruleset(5, DIGITS10, True, 10)
    notes = Notes.empty(ruleset)
    for slot, symbol in presses:
        notes = notes.cycled(slot, symbol)
    assert Notes.from_json(notes.as_json(), ruleset) == notes


@pytest.mark.parametrize("data", [None, [], {"out": "RG"}, {"out": [5, "RZ", "G", "B", "W", "K"]}, {"sure": [{}]}])
def test_notes_that_do_not_fit_are_left_out(data):
    notes = Notes.from_json(data, RULESET)
    assert all(symbol in "RGBYWK" and 0 <= slot < 4 for slot, symbol in notes.marks)


def test_a_solo_game_keeps_its_notes_and_plays_the_same_with_or_without_them():
    def played(with_notes: bool) -> SoloGame:
        game = SoloGame(RULESET, "RGBY", random.Random(1), LifelinePolicy.NONE)
        if with_notes:
            game.notes = game.notes.cycled(0, "K").cycled(1, "G").cycled(1, "G")
        game.guess("RRGG")
        return game

    noted, plain = played(True), played(False)
    assert [row.feedback for row in noted.history] == [row.feedback for row in plain.history]
    back = SoloGame.from_json(check_solo_json(noted.as_json()), random.Random(2))
    assert (back.notes.note(0, "K"), back.notes.note(1, "G")) == (Note.OUT, Note.SURE)
    older = plain.as_json()
    del older["notes"]  # a game kept before notes were
    assert not SoloGame.from_json(older, random.Random(2)).notes
    damaged = noted.as_json() | {"notes": {"out": 7}}
    assert not SoloGame.from_json(damaged, random.Random(2)).notes  # the game is kept, the notes dropped
