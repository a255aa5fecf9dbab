"""A damaged or unknown file is never overwritten or dropped: a clear StoreError, and the file unchanged."""

from __future__ import annotations

import json

import pytest

from wom_tui.domain.codes import SOLO_RULESET
from wom_tui.domain.halloffame import HallEntry
from wom_tui.domain.store import StoreError
from wom_tui.domain.store.documents import encode_game
from wom_tui.domain.store.folder.store import FolderStore as Store

from .helpers import snapshot, wom_game

GOOD_USER = '{"name": "Alan", "score": 9, "games": 1}'


def users_doc(*users: str, schema: str = "1") -> bytes:
    return ('{"schema": %s, "users": [%s]}' % (schema, ", ".join(users))).encode()


DAMAGED_USERS = {
    "empty": (b"", "the file is empty"),
    "blank": (b"  \n", "the file is empty"),
    "truncated": (users_doc(GOOD_USER)[:25], "not valid JSON"),
    "bad utf-8": (users_doc('{"name": "Al\xff", "score": 0, "games": 0}'.replace("\xff", "?"))
                  .replace(b"Al?", b"Al\xff"), "not valid UTF-8"),
    "NaN": (users_doc('{"name": "Alan", "score": NaN, "games": 0}'), "NaN is not allowed"),
    "Infinity": (users_doc('{"name": "Alan", "score": Infinity, "games": 0}'), "Infinity is not allowed"),
    "score as text": (users_doc('{"name": "Alan", "score": "9", "games": 1}'), "user #1"),
    "score as float": (users_doc('{"name": "Alan", "score": 9.0, "games": 1}'), "user #1"),
    "score as bool": (users_doc('{"name": "Alan", "score": true, "games": 1}'), "user #1"),
    "negative score": (users_doc('{"name": "Alan", "score": -3, "games": 1}'), "user #1"),
    "missing field": (users_doc('{"name": "Alan", "score": 3}'), "user #1"),
    "users not a list": (b'{"schema": 1, "users": {"Alan": 9}}', "'users' must be a list"),
    "top level a list": (b"[1, 2]", "must hold a JSON object"),
    "deep nesting": (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    "nesting past the limit": (users_doc("[" * 20 + "]" * 20), "nested too deeply"),
    "unknown schema": (users_doc(GOOD_USER, schema="3"), "unknown schema version 3"),
    "schema true": (users_doc(GOOD_USER, schema="true"), "unknown schema version True"),
    "no schema": (b'{"users": []}', "no schema version"),
    "duplicate names ignoring case": (users_doc(GOOD_USER, GOOD_USER.replace("Alan", "ALAN")), "unique ignoring case"),
    "duplicate key": (b'{"schema": 1, "users": [], "users": []}', "appears twice"),
    "unexpected field": (b'{"schema": 1, "users": [], "extra": 1}', "unexpected field 'extra'"),
    "markup name": (users_doc('{"name": "[/]", "score": 0, "games": 0}'), "invalid name '[/]'"),
    "control character": (users_doc('{"name": "Al\\u0000an", "score": 0, "games": 0}'), "invalid name"),
    "escape sequence": (users_doc('{"name": "\\u001b[31mAl", "score": 0, "games": 0}'), "invalid name"),
    "zero-width space": (users_doc('{"name": "Al\\u200ban", "score": 0, "games": 0}'), "invalid name"),
    "non-ASCII look-alike": (users_doc('{"name": "\\u0391lan", "score": 0, "games": 0}'), "invalid name"),
    "computer's name": (users_doc('{"name": "viki", "score": 0, "games": 0}'), "VIKI is a computer player's name."),
    "leading space": (users_doc('{"name": " Alan", "score": 0, "games": 0}'), "cannot start or end with a space"),
    "name too long": (users_doc('{"name": "%s", "score": 0, "games": 0}' % ("x" * 17)), "at most 16"),
    "huge number": (users_doc('{"name": "Alan", "score": %s, "games": 0}' % ("9" * 5000)), "limit"),
    "bad recent games": (b'{"schema": 1, "users": [], "recent_games": ["../../etc"]}', "not a game id"),
}


def assert_refused(call, path, reason):
    with pytest.raises(StoreError) as caught:
        call()
    assert caught.value.path == path
    assert reason in caught.value.reason
    assert str(caught.value) == f"{path}: {caught.value.reason}"


@pytest.mark.parametrize("kind", list(DAMAGED_USERS))
def test_damaged_users_file_is_reported_and_kept(tmp_path, kind):
    raw, reason = DAMAGED_USERS[kind]
    (tmp_path / "users.json").write_bytes(raw)
    before = snapshot(tmp_path)
    store = Store(tmp_path)
    path = store.users_path
    for call in (store.check, store.users, store.scoreboard, lambda: store.user("Alan"),
                 lambda: store.register("Zed"), lambda: store.record_game(wom_game("Alan"))):
        assert_refused(call, path, reason)
    Store(tmp_path)
    assert snapshot(tmp_path) == before
    assert store.games() == []


HALL = SOLO_RULESET.as_json()


def hall_doc(*records: dict, schema: int = 1) -> bytes:
    return json.dumps({"schema": schema, "records": list(records)}).encode()


def record(**changes) -> dict:
    entry = {"ruleset": HALL, "guesses": 5, "name": "Alan", "guest": False, "date": "2026-11-20T10:00:00+00:00"}
    entry.update(changes)
    return entry


DAMAGED_HALL = {
    "empty": (b"", "the file is empty"),
    "NaN": (b'{"schema": 1, "records": [{"guesses": NaN}]}', "NaN is not allowed"),
    "unknown schema": (hall_doc(record(), schema=7), "unknown schema version 7"),
    "guest name too long": (hall_doc(record(name="Annabel", guest=True), record(
        name="Annabell", guest=True, ruleset={**HALL, "length": 5})), "at most 7"),
    "markup name": (hall_doc(record(name="[b]x")), "invalid name"),
    "two records for one ruleset": (hall_doc(record(), record(name="Bob")), "two records"),
    "no guesses": (hall_doc(record(guesses=0)), "guesses used"),
    "more guesses than allowed": (hall_doc(record(guesses=11)), "guesses used"),
    "guesses as float": (hall_doc(record(guesses=5.0)), "guesses used"),
    "bad date": (hall_doc(record(date="yesterday")), "not an ISO-8601 date"),
    "unknown palette": (hall_doc(record(ruleset={**HALL, "palette": "emoji"})), "unknown palette"),
    "guest as text": (hall_doc(record(guest="no")), "true or false"),
    "records not a list": (b'{"schema": 1, "records": {}}', "must be a list"),
}


@pytest.mark.parametrize("kind", list(DAMAGED_HALL))
def test_damaged_hall_of_fame_is_reported_and_kept(tmp_path, kind):
    raw, reason = DAMAGED_HALL[kind]
    (tmp_path / "halloffame.json").write_bytes(raw)
    before = snapshot(tmp_path)
    store = Store(tmp_path)
    for call in (store.check, store.hall_of_fame,
                 lambda: store.submit_hall_entry(HallEntry(SOLO_RULESET, 1, "Zed", guest=True))):
        assert_refused(call, store.hall_path, reason)
    assert snapshot(tmp_path) == before


GAME_ID = "20261120T120000000000Z-0123456789ab"


def game_doc(change) -> bytes:
    data = json.loads(encode_game(GAME_ID, wom_game("Alan")))
    change(data)
    return json.dumps(data).encode()


def _set_feedback(value):
    def change(data):
        data["game"]["players"][0]["guesses"][0][1] = value
    return change


DAMAGED_GAMES = {
    "empty": (b"", "the file is empty"),
    "truncated": (encode_game(GAME_ID, wom_game("Alan"))[:-40], "not valid JSON"),
    "feedback as float": (game_doc(_set_feedback(1.0)), "[code, black, white]"),
    "feedback as text": (game_doc(_set_feedback("1")), "[code, black, white]"),
    "too many pegs": (game_doc(_set_feedback(5)), "[code, black, white]"),
    "foreign symbols": (game_doc(lambda d: d["game"]["players"][0]["guesses"][0].__setitem__(0, "RGBQ")),
                        "not a code of this ruleset"),
    "unknown kind": (game_doc(lambda d: d["game"].__setitem__("kind", "chess")), "unknown kind"),
    "bad player name": (game_doc(lambda d: d["game"]["players"][0].__setitem__("name", "[@click=quit]")),
                        "invalid name"),
    "id does not match": (game_doc(lambda d: d.__setitem__("id", "20261120T120000000000Z-ffffffffffff")),
                          "holds game"),
    "unknown schema": (game_doc(lambda d: d.__setitem__("schema", 2)), "unknown schema version 2"),
}


@pytest.mark.parametrize("kind", list(DAMAGED_GAMES))
def test_damaged_game_file_is_reported_and_kept(tmp_path, kind):
    raw, reason = DAMAGED_GAMES[kind]
    store = Store(tmp_path)
    store.register("Alan")
    path = tmp_path / "games" / f"{GAME_ID}.json"
    path.write_bytes(raw)
    store.check()  # a finished game's file is not needed to play: it is reported when games are read
    assert_refused(store.games, path, reason)
    # Recording another game does not touch the damaged one.
    store.record_game(wom_game("Alan"))
    assert path.read_bytes() == raw
    assert store.user("Alan").score == 1


@pytest.mark.parametrize("kind", ["empty", "truncated", "feedback as float", "unknown schema"])
def test_damaged_pending_game_blocks_recording_and_is_kept(tmp_path, kind):
    raw, reason = DAMAGED_GAMES[kind]
    store = Store(tmp_path)
    store.register("Alan")
    path = tmp_path / "games" / f"{GAME_ID}.pending.json"
    path.write_bytes(raw)
    before = snapshot(tmp_path)
    store = Store(tmp_path)  # opening must not fail: the app shows check()'s error instead
    for call in (store.check, lambda: store.record_game(wom_game("Alan"))):
        assert_refused(call, path, reason)
    assert snapshot(tmp_path) == before
    assert store.user("Alan").score == 0
