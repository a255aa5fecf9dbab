"""The store's everyday behaviour: registering, recording games, the hall of fame, the files it writes.

Tests taking ``store_factory`` are the store contract: they run on the data folder and on PostgreSQL.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import threading

import pytest

from wom_tui.domain.codes import DIGITS10, SOLO_RULESET, WOM_RULESET, Feedback, Ruleset
from wom_tui.domain.halloffame import HallEntry
from wom_tui.domain.records import GameRecord, PlayerRecord
from wom_tui.domain.store import StoreError
from wom_tui.domain.store.documents import encode_game, encode_users
from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.domain.users import NameRejected, User, UserRegistry

from .helpers import seed_transcript_game, wom_game


def test_empty_folder_means_empty_state(store_factory):
    store = store_factory()
    store.check()
    assert store.scoreboard() == []
    assert store.user("Alan") is None
    assert len(store.hall_of_fame()) == 0
    assert store.games() == []


def test_register_keeps_case_and_refuses_the_same_name_in_any_case(store_factory):
    store = store_factory()
    assert store.register("Alan") == User("Alan")
    with pytest.raises(NameRejected, match="Sorry, the name is already taken."):
        store_factory().register("alan")
    assert store.user("ALAN").name == "Alan"
    assert [u.name for u in store.scoreboard()] == ["Alan"]


@pytest.mark.parametrize(("name", "reason"), [
    ("hal9000", "HAL9000 is a computer player's name."),
    ("[/]", "may use only"),
    ("", "Please type a name."),
    ("x" * 17, "at most 16"),
])
def test_register_refuses_bad_names_and_writes_nothing(store_factory, name, reason):
    store = store_factory()
    before = store_factory.state()
    with pytest.raises(NameRejected, match=reason if reason[0] != "[" else None) as caught:
        store.register(name)
    assert reason in caught.value.reason
    assert store_factory.state() == before
    assert store.users().scoreboard() == []


def test_files_are_pretty_printed_with_a_schema_version(tmp_path):
    store = Store(tmp_path)
    store.register("Alan")
    store.record_game(seed_transcript_game())
    store.submit_hall_entry(HallEntry(SOLO_RULESET, 4, "Alan"))
    files = [store.users_path, store.hall_path, *store.games_dir.iterdir()]
    assert len(files) == 3
    for path in files:
        text = path.read_text("utf-8")
        schema = 2 if path == store.users_path else 1  # users.json is schema 2: users carry key fingerprints
        assert text.startswith(f'{{\n  "schema": {schema},\n')
        assert json.loads(text)["schema"] == schema


def test_seed_game_gives_alan_nine_points_and_one_game_and_is_kept(store_factory):
    store = store_factory()
    store.register("Alan")
    expected = seed_transcript_game()  # (it is stamped with the time now: build it once)
    game_id = store.record_game(expected)
    alan = store_factory().user("Alan")
    assert (alan.score, alan.games, alan.average) == (9, 1, 9.0)
    (game,) = store_factory().games()
    assert store.games_with_ids() == [(game_id, game)]
    assert game == expected
    assert game.players[0].guesses[1] == ("RGYB", Feedback(4, 0))


def test_record_game_updates_every_user_together(store_factory):
    store = store_factory()
    for name in ("Alan", "Bea", "Cy"):
        store.register(name)
    store.record_game(wom_game("Alan", "Bea", "Cy", points=3))
    assert [(u.name, u.score, u.games) for u in store.scoreboard()] == [("Alan", 3, 1), ("Bea", 3, 1), ("Cy", 3, 1)]


@pytest.mark.parametrize("players", [("Alan", "Zed"), ("Zed", "Alan")])
def test_record_game_for_an_unknown_user_writes_nothing(store_factory, players):
    store = store_factory()
    store.register("Alan")
    before = store_factory.state()
    with pytest.raises(ValueError, match="'Zed' is not a registered user"):
        store.record_game(wom_game(*players))
    assert store_factory.state() == before
    assert (store.user("Alan").score, store.games()) == (0, [])


def test_record_game_refuses_an_invalid_record(store_factory):
    store = store_factory()
    store.register("Alan")
    bad = GameRecord("wom", WOM_RULESET, (PlayerRecord("Alan", True, True, 1, (("RGBX", Feedback(4, 0)),), 1, 0),))
    with pytest.raises(ValueError, match="not a code of this ruleset"):
        store.record_game(bad)
    assert store.games() == []


def test_a_wom_game_keeps_every_players_secret_and_a_bad_one_is_refused(store_factory):
    # The code HAL9000 never broke comes back for the replay (issue 35 item 17).
    store = store_factory()
    store.register("Alan")
    alan = PlayerRecord("Alan", True, True, 1, (("RGBY", Feedback(4, 0)),), 1, 0, secret="RGBY")
    hal = PlayerRecord("HAL9000", False, False, 5, (("RRRR", Feedback(0, 0)),) * 5, secret="KWKW")
    game = GameRecord("wom", WOM_RULESET.with_guesses(5), (alan, hal))
    game_id = store.record_game(game)
    assert [p.secret for p in store_factory().game(game_id).players] == ["RGBY", "KWKW"]
    before = store_factory.state()
    bad = GameRecord("wom", WOM_RULESET, (PlayerRecord("Alan", True, False, 0, secret="RGBX"),))
    with pytest.raises(ValueError, match="the secret 'RGBX' is not a code of this ruleset"):
        store.record_game(bad)
    assert store_factory.state() == before


def test_solo_games_are_kept_without_touching_the_scoreboard(store_factory):
    store = store_factory()
    store.register("Alan")
    solo = GameRecord("solo", SOLO_RULESET, (
        PlayerRecord("Alan", True, True, 3, (("1234", Feedback(0, 1)), ("LIFELINE", Feedback(0, 0)),
                                             ("5678", Feedback(4, 0)))),
    ))
    store.record_game(solo)
    assert store.user("Alan") == User("Alan")
    assert store.games() == [solo]


def test_games_come_back_oldest_first(store_factory):
    store = store_factory()
    store.register("Alan")
    games = [wom_game("Alan", points=n) for n in range(5)]
    for game in games:
        store.record_game(game)
    assert [g.players[0].points for g in store.games()] == [0, 1, 2, 3, 4]
    assert store.user("Alan").score == 10


def test_hall_of_fame_keeps_the_fewest_guesses_and_the_earlier_holder_on_a_tie(store_factory):
    store = store_factory()
    assert store.submit_hall_entry(HallEntry(SOLO_RULESET, 6, "Bob", guest=True))
    assert store.submit_hall_entry(HallEntry(SOLO_RULESET, 5, "Alan"))
    assert not store.submit_hall_entry(HallEntry(SOLO_RULESET, 5, "Cy", guest=True))
    assert not store.submit_hall_entry(HallEntry(SOLO_RULESET, 7, "Dee", guest=True))
    other = Ruleset(5, DIGITS10, False, 10)
    assert store.submit_hall_entry(HallEntry(other, 8, "Eve", guest=True))
    hall = store_factory().hall_of_fame()
    assert hall.best(SOLO_RULESET).name == "Alan"
    assert [e.name for e in hall.entries()] == ["Alan", "Eve"]


def test_stale_temp_files_are_removed_when_a_store_opens(tmp_path):
    store = Store(tmp_path)
    store.register("Alan")
    stale = [tmp_path / ".users.json.k2j3.wom-tmp", tmp_path / "games" / ".x.json.9a.wom-tmp"]
    for path in stale:
        path.write_bytes(b'{"schema": 1, "us')
    keep = tmp_path / "notes.txt"
    keep.write_text("mine")
    Store(tmp_path)
    assert not any(p.exists() for p in stale)
    assert keep.read_text() == "mine"
    assert Store(tmp_path).user("Alan") == User("Alan")


def test_a_game_left_pending_before_the_points_is_applied_once(tmp_path):
    """Killed after writing the pending game, before users.json: the next store applies the points."""
    store = Store(tmp_path)
    store.register("Alan")
    store.register("Bea")
    game_id = "20261120T120000000000Z-0123456789ab"
    (tmp_path / "games" / f"{game_id}.pending.json").write_bytes(encode_game(game_id, wom_game("Alan", "Bea", points=2)))
    reopened = Store(tmp_path)
    assert [(u.score, u.games) for u in reopened.scoreboard()] == [(2, 1), (2, 1)]
    assert sorted(p.name for p in (tmp_path / "games").iterdir()) == [f"{game_id}.json"]
    Store(tmp_path)
    assert [(u.score, u.games) for u in Store(tmp_path).scoreboard()] == [(2, 1), (2, 1)]


def test_a_game_left_pending_after_the_points_is_only_filed(tmp_path):
    """Killed after users.json was written, before the rename: the points are not applied again."""
    game_id = "20261120T120000000000Z-0123456789ab"
    registry = UserRegistry([User("Alan", 2, 1)])
    (tmp_path / "users.json").write_bytes(encode_users(registry, [game_id]))
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / f"{game_id}.pending.json").write_bytes(encode_game(game_id, wom_game("Alan", points=2)))
    store = Store(tmp_path)
    assert (store.user("Alan").score, store.user("Alan").games) == (2, 1)
    assert len(store.games()) == 1
    store.record_game(wom_game("Alan", points=1))
    assert (store.user("Alan").score, store.user("Alan").games) == (3, 2)


def _hold_lock(folder, held, release):
    from filelock import FileLock

    with FileLock(os.path.join(folder, ".lock")):
        held.set()
        release.wait(30)


def test_a_lock_held_too_long_gives_a_clear_error_instead_of_hanging(tmp_path):
    store = Store(tmp_path, lock_timeout=0.2)
    ctx = multiprocessing.get_context("fork")
    held, release = ctx.Event(), ctx.Event()
    holder = ctx.Process(target=_hold_lock, args=(str(tmp_path), held, release))
    holder.start()
    try:
        assert held.wait(10)
        assert store.scoreboard() == []  # reading never waits for a writer
        with pytest.raises(StoreError, match="held the data folder's lock") as caught:
            store.register("Alan")
        assert caught.value.path == tmp_path / ".lock"
    finally:
        release.set()
        holder.join(10)
    assert store.register("Alan") == User("Alan")


def test_an_unwritable_place_gives_a_store_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(StoreError) as caught:
        Store(blocker / "data")
    assert "cannot create the data folder" in str(caught.value)


def test_threads_sharing_stores_in_one_process_lose_nothing(store_factory):
    stores = [store_factory(), store_factory()]
    failures = []

    def register_many(store, prefix):
        try:
            for n in range(30):
                store.register(f"{prefix}{n}")
        except Exception as exc:  # noqa: BLE001 - reported below
            failures.append(exc)

    threads = [threading.Thread(target=register_many, args=(stores[i % 2], f"t{i}x")) for i in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert failures == []
    assert len(store_factory().users()) == 90
