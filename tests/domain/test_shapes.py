"""msgspec checks the shapes of what the store reads back; the reason an operator reads is still in our words."""

from __future__ import annotations

import pytest

from wom_tui.domain.codes import WOM_RULESET, Feedback
from wom_tui.domain.records import GameRecord, PlayerRecord
from wom_tui.domain.shapes import shaped
from wom_tui.domain.store.documents import check_choices

ALAN = PlayerRecord("Alan", True, True, 2, (("BGYY", Feedback(1, 0)), ("BKRW", Feedback(4, 0))), 4, 5)
GAME = GameRecord("wom", WOM_RULESET.with_guesses(5), (ALAN,)).as_json()


def damaged(path: tuple, value) -> dict:
    data = {**GAME, "players": [dict(GAME["players"][0])]}
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


@pytest.mark.parametrize("path, value, reason", [
    (("players", 0, "attempts"), -1, "player #1: 'attempts' must be a whole number >= 0"),
    (("players", 0, "breaking"), 4.0, "player #1: 'breaking' must be a whole number"),
    (("players", 0, "is_user"), 1, "player #1: 'is_user' must be true or false"),
    (("players", 0, "making"), KeyError, "player #1: missing field 'making'"),
    (("players", 0, "surprise"), True, "player #1: unexpected field 'surprise'"),
    (("players", 0, "guesses"), [["BGYY", 1]], "player #1: a guess must be [code, black, white]"),
    (("players",), [], "a game has 1 to 4 players"),
    (("kind",), "chess", "unknown kind 'chess'"),
    (("finished_at",), None, "'finished_at' must be a string"),
])
def test_a_damaged_record_is_refused_with_a_reason_a_person_reads(path, value, reason):
    with pytest.raises(ValueError) as info:
        GameRecord.from_json(damaged(path, value))
    assert str(info.value) == reason


def test_the_whole_and_the_items_of_a_list_and_the_keys_of_an_object_are_named():
    with pytest.raises(ValueError, match="^a game must be an object$"):
        GameRecord.from_json([])
    with pytest.raises(ValueError, match="^an item of 'names' must be a string$"):
        shaped(["Alan", 3], list[str], what="'names'")
    with pytest.raises(ValueError, match="^a key of choices must be a string matching"):
        check_choices({"Length": 4})
    with pytest.raises(ValueError, match=r"^a choice must be text \(at most 64 characters\)"):
        check_choices({"length": [4]})
    assert check_choices({"length": 4, "palette": "wom", "repeats": True, "seed": None}) == {
        "length": 4, "palette": "wom", "repeats": True, "seed": None}
