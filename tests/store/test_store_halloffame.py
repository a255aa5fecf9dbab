"""The hall of fame's rules: fewest guesses wins, a tie keeps the earlier holder, guests give 1–7 chars."""

from __future__ import annotations

import pytest

from wom_tui.domain.codes import DIGITS8, DIGITS10, RAINBOW, SOLO_RULESET, WOM, Ruleset
from wom_tui.domain.halloffame import HallEntry, HallOfFame
from wom_tui.domain.users import NameRejected


def test_an_empty_hall_lets_any_win_set_the_record():
    hall = HallOfFame()
    assert hall.best(SOLO_RULESET) is None
    assert hall.would_set_record(SOLO_RULESET, 10)


def test_fewer_guesses_take_the_record_and_a_tie_keeps_the_earlier_holder():
    hall = HallOfFame()
    assert hall.consider(HallEntry(SOLO_RULESET, 6, "Alan"))
    assert not hall.would_set_record(SOLO_RULESET, 6)
    assert not hall.consider(HallEntry(SOLO_RULESET, 6, "Bea"))
    assert hall.would_set_record(SOLO_RULESET, 5)
    assert hall.consider(HallEntry(SOLO_RULESET, 5, "Cy", guest=True))
    assert hall.best(SOLO_RULESET).name == "Cy"


def test_each_ruleset_has_its_own_record():
    hall = HallOfFame()
    hall.consider(HallEntry(SOLO_RULESET, 6, "Alan"))
    hall.consider(HallEntry(SOLO_RULESET.with_guesses(12), 9, "Bea"))
    assert hall.best(SOLO_RULESET).name == "Alan"
    assert hall.best(SOLO_RULESET.with_guesses(12)).name == "Bea"


def test_entries_are_sorted_by_length_palette_repeats_and_guesses():
    rulesets = [Ruleset(5, WOM, True, 10), Ruleset(4, DIGITS10, True, 10), Ruleset(4, WOM, True, 10),
                Ruleset(4, RAINBOW, True, 12), Ruleset(4, RAINBOW, True, 10), Ruleset(4, RAINBOW, False, 10),
                Ruleset(4, DIGITS8, True, 10)]
    hall = HallOfFame(HallEntry(r, 3, "Alan") for r in rulesets)
    assert [e.ruleset.key for e in hall.entries()] == [
        "4-wom-repeats-10", "4-rainbow-unique-10", "4-rainbow-repeats-10", "4-rainbow-repeats-12",
        "4-digits8-repeats-10", "4-digits10-repeats-10", "5-wom-repeats-10",
    ]


@pytest.mark.parametrize(("name", "guest"), [("Annabel", True), ("A", True), ("Alexandra Smith", False)])
def test_names_that_fit(name, guest):
    assert HallEntry(SOLO_RULESET, 4, name, guest).name == name


@pytest.mark.parametrize(("name", "guest", "reason"), [
    ("Annabell", True, "at most 7"), ("", True, "Please type a name."), ("[/]", True, "may use only"),
    ("hal9000", False, "HAL9000 is a computer player's name."), ("x" * 17, False, "at most 16"),
])
def test_names_that_do_not(name, guest, reason):
    with pytest.raises(NameRejected) as caught:
        HallEntry(SOLO_RULESET, 4, name, guest)
    assert reason in caught.value.reason


@pytest.mark.parametrize("guesses", [0, 11, 4.0, True])
def test_guesses_must_fit_the_ruleset(guesses):
    with pytest.raises(ValueError):
        HallEntry(SOLO_RULESET, guesses, "Alan")


def test_entry_json_round_trip_and_date():
    entry = HallEntry(SOLO_RULESET, 4, "Bob", True, "2026-11-20T10:00:00+00:00")
    assert HallEntry.from_json(entry.as_json()) == entry
    assert entry.day == "2026-11-20"
    with pytest.raises(ValueError):
        HallEntry(SOLO_RULESET, 4, "Bob", True, "soon")
