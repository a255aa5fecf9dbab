"""One name per palette and one way to write a ruleset and a count, for every screen and share line.

The names: docs/play.md, *Palettes*.
"""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wom_tui.domain.codes import DIGITS8, DIGITS10, MAX_GUESSES, MAX_LENGTH, MIN_GUESSES, PALETTES, RAINBOW, WOM, Ruleset
from wom_tui.domain.daily import PUZZLES, SOLO_TITLE, daily_share, solo_share
from wom_tui.domain.codes import Feedback, InvalidCode
from wom_tui.domain.records import GameRecord, PlayerRecord
from wom_tui.domain.replay import Replay
from wom_tui.domain.scoring import Breakdown
from wom_tui.domain.words import counted, plural


def test_each_palette_has_one_name_that_says_the_symbols_a_player_types():
    assert [p.title for p in (WOM, RAINBOW, DIGITS8, DIGITS10)] == [
        "Classic", "Rainbow", "Digits 1–8", "Digits 0–9",
    ]
    assert len({p.title for p in PALETTES.values()}) == len(PALETTES)  # no two palettes share a name


@st.composite
def rulesets(draw: st.DrawFn) -> Ruleset:
    palette = draw(st.sampled_from(list(PALETTES.values())))
    repeats = draw(st.booleans())
    length = draw(st.integers(1, MAX_LENGTH if repeats else min(MAX_LENGTH, len(palette))))
    return Ruleset(length, palette, repeats, draw(st.integers(MIN_GUESSES, MAX_GUESSES)))


@given(rulesets())
def test_a_ruleset_is_written_one_way_whatever_the_form(ruleset: Ruleset):
    title, described = ruleset.title, ruleset.describe()
    assert title.startswith(f"{ruleset.length} × {ruleset.palette.title}")
    # The long form is the name and the guesses allowed, nothing said another way.
    assert described == f"{title}, {counted(ruleset.guesses, 'guess')}"
    assert title.endswith(", no repeats") != ruleset.repeats
    for text in (title, described):
        assert "nr" not in text.split() and "WoM" not in text and "World of Mastermind" not in text
        assert ruleset.palette.symbols not in text


def test_rulesets_by_example():
    assert Ruleset(4, WOM, True, 10).describe() == "4 × Classic, 10 guesses"
    assert Ruleset(6, DIGITS10, False, 1).describe() == "6 × Digits 0–9, no repeats, 1 guess"
    assert Ruleset(6, DIGITS10, False, 12).title == "6 × Digits 0–9, no repeats"
    assert Ruleset(5, RAINBOW, True, 10).title == "5 × Rainbow"


def test_a_count_agrees_with_its_noun():
    assert [counted(n, "game") for n in (0, 1, 2)] == ["0 games", "1 game", "2 games"]
    assert counted(1, "guess") == "1 guess" and counted(3, "guess") == "3 guesses"
    assert counted(1_204, "code") == "1,204 codes"
    assert plural(2, "person", "people") == "people" and plural(1, "person", "people") == "person"
    assert counted(1, "rated game") == "1 rated game"


@given(st.integers(0, 10**6), st.sampled_from(["game", "attempt", "code", "guess", "round", "symbol", "point", "day"]))
def test_only_one_takes_the_singular(n: int, noun: str):
    text = counted(n, noun)
    assert text.startswith(f"{n:,} {noun}")
    assert (text == f"{n:,} {noun}") == (n == 1)


def test_every_share_line_names_its_puzzle_the_same_way():
    heads = [daily_share(date(2026, 11, 27), puzzle, [Feedback(puzzle.ruleset.length, 0)], True).splitlines()[0]
             for puzzle in PUZZLES.values()]
    assert heads == [
        "Mastermind daily 2026-11-27 · 4 × Classic · 1/10",
        "Mastermind daily 2026-11-27 · 5 × Digits 1–8 · 1/10",
    ]
    for puzzle in PUZZLES.values():
        assert puzzle.title == puzzle.ruleset.title
    solo = solo_share(Ruleset(4, DIGITS10, False, 12), [("0123", Feedback(4, 0))], True)
    assert solo.splitlines()[0] == f"{SOLO_TITLE} · 4 × Digits 0–9, no repeats · 1/12"


def test_counts_of_one_read_as_one_everywhere_the_domain_writes_them():
    # A solo game broken at once replays over "1 round", never "1 rounds".
    record = GameRecord("solo", Ruleset(4, WOM, True, 10),
                        (PlayerRecord("Alan", True, True, 1, (("RGBY", Feedback(4, 0)),), 0, 0),),
                        "2026-11-23T10:00:00+00:00")
    assert Replay(record).title() == "Before the first guess · 1 round"
    # A one-symbol code: "exactly 1 symbol"; one guess allowed: "1 guess".
    with pytest.raises(InvalidCode, match=r"exactly 1 symbol\.$"):
        Ruleset(1, WOM, True, 1).parse("RG")
    assert Ruleset(1, WOM, True, 1).describe() == "1 × Classic, 1 guess"
    assert Breakdown("Alan", 1, 0).message == "Alan receives 1 + 0 = 1 point."
