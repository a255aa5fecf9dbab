"""The ratings cache on both stores: kept up to date game by game, equal to rating every record again."""

from __future__ import annotations

import json

from wom_tui.cli import main
from wom_tui.domain.codes import Feedback
from wom_tui.domain.ratings import rate_games
from wom_tui.domain.records import GameRecord, PlayerRecord
from wom_tui.domain.store.api import rating_of

from .helpers import RULESET5, wom_game


def duel(winner: str, loser: str, at: str) -> GameRecord:
    """``winner`` breaks in 1, ``loser`` fails (a computer's line keeps no points, as the game writes it)."""
    def line(name: str, broke: bool) -> PlayerRecord:
        user = name not in ("HAL9000", "VIKI")
        guesses = (("RGBY", Feedback(4, 0)),) if broke else (("RRRR", Feedback(0, 0)),) * 5
        return PlayerRecord(name, user, broke, len(guesses), guesses, (5 if broke else 0) if user else 0, 0)
    return GameRecord("wom", RULESET5, (line(winner, True), line(loser, False)), at)


def test_recording_game_by_game_equals_rebuilding_from_the_records(store_factory):
    store = store_factory()
    for name in ("Alan", "Betty"):
        store.register(name)
    assert store.rating_book().rated == 0  # the cache starts here, empty
    for n in range(8):
        store.record_game(duel("Alan" if n % 3 else "HAL9000", "Betty" if n % 2 else "VIKI",
                               f"2026-11-0{1 + n % 3}T10:00:0{n}+00:00"))  # some finish before earlier ones
    store.record_game(wom_game("Alan", "Betty"))
    incremental = store_factory().rating_book()  # another process, from the cache
    rebuilt = store_factory().rebuild_ratings()
    assert incremental.as_json() == rebuilt.as_json()
    summaries, _ = store.game_summaries()
    assert rebuilt.as_json() == rate_games(summaries).as_json()
    assert rebuilt.rated == 9
    assert {r.name for r in rebuilt.board(everyone=True)} == {"Alan", "Betty", "HAL9000", "VIKI"}
    assert rating_of(store, "alan") == float(rebuilt.players["alan"].value)
    assert rating_of(store, "Nobody") is None


def test_games_recorded_before_ratings_existed_are_rated_on_first_use(store_factory):
    store = store_factory()
    store.register("Alan")
    first = store.record_game(duel("Alan", "HAL9000", "2026-11-01T10:00:00+00:00"))
    # No cache was ever made (nothing looked): a later game leaves it to the first look too.
    store.record_game(duel("VIKI", "Alan", "2026-11-01T11:00:00+00:00"))
    book = store_factory().rating_book()
    assert book.rated == 2 and book.players["alan"].games == 2
    assert book.players["hal9000"].last_game == first


def test_the_command_prints_the_board_best_first_as_json(store_factory, capsys):
    store = store_factory()
    store.register("Alan")
    for n in range(6):
        store.record_game(duel("Alan", "VIKI", f"2026-11-01T10:00:0{n}+00:00"))
    where = ["--store", store_factory.location] if store_factory.kind == "postgresql" else ["--data-dir", store_factory.location]
    assert main(["ratings", *where, "rebuild"]) == 0
    assert "Rated 6 games again" in capsys.readouterr().out
    assert main(["ratings", "--json", *where]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [row["name"] for row in rows] == ["Alan", "VIKI"]
    assert rows[0]["rating"] > rows[1]["rating"] and rows[0]["games"] == 6
    assert {"name", "rating", "provisional", "games"} <= set(rows[0])


def test_only_the_games_the_rules_rate_are_rated_and_rebuilding_gives_the_same_book(store_factory):
    # Hot-seat with one registered user and a computer: not rated; with two registered users: rated; a live
    # table with one registered user and VIKI: rated; a record from before records said where it was
    # played: rated as it always was. The cache, another process's look and a rebuild all agree.
    from dataclasses import replace

    store = store_factory()
    for name in ("Alan", "Betty"):
        store.register(name)
    store.rating_book()  # the cache exists from here: each game below updates it
    practice = replace(duel("Alan", "HAL9000", "2026-11-01T10:00:00+00:00"), hot_seat=True)
    pair = replace(duel("Alan", "Betty", "2026-11-01T10:00:01+00:00"), hot_seat=True)
    table = replace(duel("VIKI", "Alan", "2026-11-01T10:00:02+00:00"), hot_seat=False, table_id="t-1")
    older = duel("Betty", "HAL9000", "2026-11-01T10:00:03+00:00")
    ids = [store.record_game(record) for record in (practice, pair, table, older)]
    again = store_factory()
    assert [again.game(game_id).hot_seat for game_id in ids] == [True, True, False, None]
    assert again.game(ids[2]).table_id == "t-1"
    incremental = again.rating_book()
    rebuilt = store_factory().rebuild_ratings()
    assert incremental.as_json() == rebuilt.as_json()
    assert rebuilt.rated == 3
    assert rebuilt.players["alan"].games == 2 and rebuilt.players["betty"].games == 2
    assert rebuilt.players["hal9000"].last_game == ids[3] and rebuilt.players["viki"].games == 1
    summaries, _ = store_factory().game_summaries()  # read again (the folder: from its index)
    assert [s.hot_seat for s in summaries] == [True, True, False, None]
    assert rate_games(summaries).as_json() == rebuilt.as_json()


def test_an_arena_game_says_so_and_two_in_an_hour_count_in_full(store_factory):
    # The record names its arena (kept by both stores, read back in the summaries: the folder's index,
    # PostgreSQL's generated summary column); the repeat-pairing rule spares it: the second meeting within
    # the hour counts as a full game, as the same two games a day apart would.
    from dataclasses import replace

    store = store_factory()
    for name in ("Alan", "Betty"):
        store.register(name)
    store.rating_book()
    games = [replace(duel("Alan", "Betty", f"2026-11-01T10:0{n}:00+00:00"), hot_seat=False, table_id=f"t-{n}",
                     arena="arena-1") for n in range(2)]
    ids = [store.record_game(record) for record in games]
    assert [store_factory().game(game_id).arena for game_id in ids] == ["arena-1", "arena-1"]
    summaries, _ = store_factory().game_summaries()
    assert [s.arena for s in summaries] == ["arena-1", "arena-1"]
    book = store_factory().rating_book()
    assert book.as_json() == store_factory().rebuild_ratings().as_json()
    apart = [replace(duel("Alan", "Betty", f"2026-11-0{n + 1}T10:00:00+00:00"), hot_seat=False, table_id=f"t-{n}")
             for n in range(2)]
    from wom_tui.domain.stats import GameSummary
    assert book.players["alan"].history == rate_games(
        [GameSummary.of(f"g{n}", record) for n, record in enumerate(apart)]).players["alan"].history
