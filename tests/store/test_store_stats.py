"""The store's part in stats, replays and the daily code: summaries, one game, the secret, attempts."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wom_tui.domain.codes import WOM_RULESET, Feedback
from wom_tui.domain.daily import DailyAttempt, DailyRefused
from wom_tui.domain.records import GameRecord, PlayerRecord
from wom_tui.domain.stats import GameSummary, player_stats
from wom_tui.domain.store import StoreError
from wom_tui.domain.store.folder.files import DAILY_FILE, DAILY_SECRET_FILE, INDEX_FILE
from wom_tui.domain.store.folder.store import FolderStore as Store

from .helpers import snapshot, wom_game


def solo(name: str, broke: bool, attempts: int, *, is_user: bool = True) -> GameRecord:
    guesses = (("RRRR", Feedback(0, 0)),) * (attempts - 1) + (("RGBY", Feedback(4 if broke else 0, 0)),)
    return GameRecord("solo", WOM_RULESET, (PlayerRecord(name, is_user, broke, attempts, guesses),))


def test_summaries_cover_every_game_and_survive_a_damaged_file(tmp_path: Path):
    store = Store(tmp_path)
    store.register("Alan")
    ids = [store.record_game(wom_game("Alan")), store.record_game(solo("Alan", True, 3))]
    bad = tmp_path / "games" / "20200101T000000000000Z-000000000000.json"
    bad.write_bytes(b'{"schema": 1, "id": "20200101T000000000000Z-000000000000", "game": {"kind": "solo"')
    before = snapshot(tmp_path)
    summaries, left_out = store.game_summaries()
    assert [s.game_id for s in summaries] == ids
    assert [error.path for error in left_out] == [bad]
    assert "not valid JSON" in left_out[0].reason
    assert bad.read_bytes() == before[str(bad.relative_to(tmp_path))]  # the damaged file is left as it was
    # Asked again, it is still named (it never enters the cache).
    assert [error.path for error in store.game_summaries()[1]] == [bad]


def test_the_cache_is_used_and_follows_new_and_removed_games(tmp_path: Path):
    store = Store(tmp_path)
    first = store.record_game(solo("Guest", True, 2, is_user=False))
    assert [s.game_id for s in store.game_summaries()[0]] == [first]
    assert (tmp_path / INDEX_FILE).exists()
    second = store.record_game(solo("Guest", False, 10, is_user=False))
    assert [s.game_id for s in store.game_summaries()[0]] == [first, second]
    (tmp_path / "games" / f"{first}.json").unlink()
    assert [s.game_id for s in store.game_summaries()[0]] == [second]


def test_a_new_session_takes_the_summaries_from_the_index_not_the_game_files(tmp_path: Path):
    store = Store(tmp_path)
    game_id = store.record_game(solo("Guest", True, 2, is_user=False))
    summaries = store.game_summaries()[0]
    path = tmp_path / "games" / f"{game_id}.json"
    info = path.stat()
    # Same size, same time, other bytes: only a store that trusts the index still sees the game.
    path.write_bytes(b" " * info.st_size)
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert Store(tmp_path).game_summaries() == (summaries, [])


def test_a_changed_game_file_is_read_again(tmp_path: Path):
    store = Store(tmp_path)
    game_id = store.record_game(solo("Guest", True, 2, is_user=False))
    store.game_summaries()
    path = tmp_path / "games" / f"{game_id}.json"
    path.write_text(path.read_text().replace('"finished_at"', '"finished_at" ').replace("true", "nope", 1))
    summaries, left_out = store.game_summaries()
    assert summaries == [] and [e.path for e in left_out] == [path]


def test_a_damaged_cache_is_rebuilt_from_the_game_files(tmp_path: Path):
    store = Store(tmp_path)
    game_id = store.record_game(solo("Guest", True, 2, is_user=False))
    store.game_summaries()
    (tmp_path / INDEX_FILE).write_text('{"schema": 1, "rulesets": [], "games": [["x", 1, 2, "solo", 7, "t"]]}')
    assert [s.game_id for s in store.game_summaries()[0]] == [game_id]
    json.loads((tmp_path / INDEX_FILE).read_text())  # rewritten whole
    assert Store(tmp_path).game_summaries()[0][0].game_id == game_id


def test_an_index_written_before_games_said_where_they_were_played_is_rebuilt_once(tmp_path: Path):
    # An index without the hot_seat and tables lists (an older wom-tui wrote it) could not tell a hot-seat
    # game from an older record: it is read again from the game files, and written with the lists.
    from dataclasses import replace

    store = Store(tmp_path)
    store.register("Alan")
    game_id = store.record_game(replace(wom_game("Alan"), hot_seat=True))
    store.game_summaries()
    index = json.loads((tmp_path / INDEX_FILE).read_text())
    assert index["hot_seat"] == [game_id] and index["tables"] == []
    del index["hot_seat"], index["tables"]
    (tmp_path / INDEX_FILE).write_text(json.dumps(index))
    assert [s.hot_seat for s in Store(tmp_path).game_summaries()[0]] == [True]
    assert json.loads((tmp_path / INDEX_FILE).read_text())["hot_seat"] == [game_id]


def test_an_index_of_more_games_than_the_common_file_limit_allows_is_still_read(tmp_path: Path):
    # 90,000 games make an index over 16 MiB: it was refused on every read, so every look at the
    # statistics or the ratings read every game file again (tens of seconds at 100,000 games).
    from wom_tui.domain.store.documents import MAX_FILE_BYTES, encode_index

    summary = GameSummary.of("g", wom_game("Alan", "Betty", "Cara"))
    entries = {f"2026{n:08d}": (1234, 1764265063123456789, summary._replace(game_id=f"2026{n:08d}"))
               for n in range(90_000)}
    raw = encode_index(entries)
    assert len(raw) > MAX_FILE_BYTES
    (tmp_path / INDEX_FILE).write_bytes(raw)
    assert len(Store(tmp_path)._read_index()) == 90_000


def test_one_game_is_read_in_full_or_refused_clearly(store_factory):
    store = store_factory()
    store.register("Alan")
    game_id = store.record_game(wom_game("Alan"))
    assert store.game(game_id) == store.games()[0]
    with pytest.raises(StoreError, match="no such game"):
        store.game("20200101T000000000000Z-000000000000")
    with pytest.raises(StoreError, match="not a game id"):
        store.game("../users")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(["Alan", "Ada", "Guest"]), st.booleans(), st.integers(1, 10)), max_size=12))
def test_stats_from_the_store_equal_stats_from_its_full_records(tmp_path_factory, games):
    folder = tmp_path_factory.mktemp("data")
    store = Store(folder)
    store.register("Alan")
    store.register("Ada")
    for name, broke, attempts in games:
        store.record_game(solo(name, broke, attempts if broke else 10, is_user=name != "Guest"))
    summaries, left_out = store.game_summaries()
    assert left_out == []
    full = [GameSummary.of(gid, record) for gid, record in zip(sorted(p.stem for p in (folder / "games").iterdir()), store.games())]
    for who in ("Alan", "Ada", "Guest"):
        assert player_stats(summaries, who) == player_stats(full, who)
    assert player_stats(summaries, "Guest").games == 0


def test_the_daily_secret_is_made_once_private_and_kept(tmp_path: Path):
    store = Store(tmp_path)
    secret = store.daily_secret()
    assert len(secret) == 32
    path = tmp_path / DAILY_SECRET_FILE
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert Store(tmp_path).daily_secret() == secret
    assert Store(tmp_path / "other").daily_secret() != secret


def test_a_damaged_secret_is_reported_not_replaced(tmp_path: Path):
    store = Store(tmp_path)
    (tmp_path / DAILY_SECRET_FILE).write_text('{"schema": 1, "secret": "zz"}')
    with pytest.raises(StoreError, match="hex"):
        store.daily_secret()
    assert (tmp_path / DAILY_SECRET_FILE).read_text() == '{"schema": 1, "secret": "zz"}'


def test_daily_attempts_are_one_per_identity_across_stores(store_factory):
    one, two = store_factory(), store_factory()
    attempt = DailyAttempt("2026-11-23", "classic", "Alan", "2026-11-23T08:00:00+00:00")
    one.start_daily(attempt)
    with pytest.raises(DailyRefused):
        two.start_daily(DailyAttempt("2026-11-23", "classic", "alan", "2026-11-23T08:00:01+00:00"))
    two.finish_daily("2026-11-23", "classic", "Alan", finished_at="2026-11-23T08:03:00+00:00",
                     guesses=4, broke=True, game_id=None)
    (saved,) = one.daily_attempts()
    assert (saved.player, saved.guesses, saved.broke) == ("Alan", 4, True)
    with pytest.raises(DailyRefused):
        one.start_daily(attempt)


def test_a_damaged_attempts_file_refuses_and_stays(tmp_path: Path):
    store = Store(tmp_path)
    path = tmp_path / DAILY_FILE
    row = DailyAttempt("2026-11-23", "classic", "Alan", "2026-11-23T08:00:00+00:00").as_json()
    path.write_text(json.dumps({"schema": 1, "attempts": [row, {**row, "player": "ALAN"}]}))
    before = path.read_bytes()
    with pytest.raises(StoreError, match="two attempts"):
        store.daily_attempts()
    with pytest.raises(StoreError):
        store.start_daily(DailyAttempt("2026-11-23", "classic", "Ada", "2026-11-23T08:00:00+00:00"))
    assert path.read_bytes() == before
