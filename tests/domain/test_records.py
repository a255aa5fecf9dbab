"""Game records round-trip through JSON, and anything that is not one is refused, not coerced."""

from __future__ import annotations

import pytest

from wom_tui.domain.codes import WOM_RULESET, Feedback
from wom_tui.domain.records import GameRecord, PlayerRecord

ALAN = PlayerRecord("Alan", True, True, 2, (("BGYY", Feedback(1, 0)), ("BKRW", Feedback(4, 0))), 4, 5)
HAL = PlayerRecord("HAL9000", False, False, 5, (("BRWG", Feedback(2, 1)),) * 5)


def test_a_record_survives_json_and_knows_its_points():
    game = GameRecord("wom", WOM_RULESET.with_guesses(5), (ALAN, HAL))
    again = GameRecord.from_json(game.as_json())
    assert again == game
    assert again.points() == {"Alan": 9}


def test_a_wom_record_keeps_each_players_secret_and_an_older_record_reads_without():
    failed = PlayerRecord("HAL9000", False, False, 5, (("BRWG", Feedback(2, 1)),) * 5, secret="BRGW")
    game = GameRecord("wom", WOM_RULESET.with_guesses(5), (ALAN, failed))
    assert game.as_json()["players"][1]["secret"] == "BRGW"
    assert GameRecord.from_json(game.as_json()) == game
    older = game.as_json()
    del older["players"][1]["secret"]
    assert "secret" not in game.as_json()["players"][0]  # none kept: none written
    assert GameRecord.from_json(older).players[1].secret is None


@pytest.mark.parametrize(
    "change",
    [
        {"attempts": "2"},
        {"attempts": -1},
        {"breaking": 4.0},
        {"is_user": 1},
        {"guesses": [["BGYY", "1", 0]]},
        {"guesses": [["BGYY", 1]]},
        {"name": None},
        {"surprise": True},
        {"secret": 4},
        {"secret": ""},
    ],
)
def test_anything_else_is_refused(change):
    with pytest.raises(ValueError):
        PlayerRecord.from_json({**ALAN.as_json(), **change})
