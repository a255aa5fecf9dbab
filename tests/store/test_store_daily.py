"""The daily attempts on both stores: one per name and per SSH key, kept a day at a time, old files and rows carried over."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from wom_tui.domain.daily import DailyAttempt, DailyRefused
from wom_tui.domain.store.documents import encode_attempts

FP_A = "SHA256:" + "A" * 43
FP_B = "SHA256:" + "B" * 43
DAY = "2026-11-23"
AT = "2026-11-23T08:00:00+00:00"


def attempt(player: str, key: str | None = None, *, day: str = DAY, puzzle: str = "classic") -> DailyAttempt:
    return DailyAttempt(day, puzzle, player, f"{day}T08:00:00+00:00", key=key)


def test_one_attempt_per_key_and_day_as_well_as_per_name(store_factory):
    store = store_factory()
    store.start_daily(attempt("Main", FP_A))
    before = store_factory.state()
    with pytest.raises(DailyRefused, match="This key already played today's .* as Main"):
        store.start_daily(attempt("Throwaway", FP_A))
    with pytest.raises(DailyRefused, match="already started"):
        store_factory().start_daily(attempt("MAIN", FP_B))  # another key, the same name
    assert store_factory.state() == before
    store.start_daily(attempt("Throwaway", FP_A, puzzle="digits"))  # the other puzzle is another attempt
    store.start_daily(attempt("Throwaway", FP_A, day="2026-11-24"))  # and so is the next day
    store.start_daily(attempt("Other", FP_B))
    store.start_daily(attempt("Local"))  # on one machine: no key, the name alone
    store.start_daily(attempt("Local2"))
    kept = store_factory().daily_attempts_on(DAY)
    assert [(a.player, a.puzzle, a.key) for a in kept] == [
        ("Main", "classic", FP_A), ("Throwaway", "digits", FP_A), ("Other", "classic", FP_B),
        ("Local", "classic", None), ("Local2", "classic", None)]
    assert [a.player for a in store.daily_attempts_on("2026-11-24")] == ["Throwaway"]
    assert len(store.daily_attempts()) == 6


def test_an_attempt_starts_only_on_its_own_day_and_takes_no_finish_once_the_day_is_over_everywhere(store_factory):
    store = store_factory()
    late = DailyAttempt(DAY, "classic", "Alan", "2026-11-24T00:00:01+00:00")
    with pytest.raises(DailyRefused, match="can no longer be started"):
        store.start_daily(late)
    store.start_daily(attempt("Alan"))
    with pytest.raises(DailyRefused, match="over everywhere"):
        store.finish_daily(DAY, "classic", "Alan", finished_at="2026-11-24T12:00:00+00:00", guesses=3, broke=True,
                           game_id=None)
    store.finish_daily(DAY, "classic", "alan", finished_at="2026-11-24T11:59:59+00:00", guesses=3, broke=True,
                       game_id=None)  # after midnight UTC, before the day ends at UTC−12
    (kept,) = store_factory().daily_attempts_on(DAY)
    assert (kept.guesses, kept.broke, kept.finished_at) == (3, True, "2026-11-24T11:59:59+00:00")


def test_an_old_daily_json_is_moved_into_one_file_per_day_without_losing_an_attempt(tmp_path):
    from wom_tui.domain.store import open_store

    folder = tmp_path / "data"
    folder.mkdir()
    old = [attempt(f"P{n}", day=f"2026-11-{20 + n % 3:02d}") for n in range(9)]
    (folder / "daily.json").write_bytes(encode_attempts(old))
    store = open_store(str(folder))
    assert store.daily_attempts_on("2026-11-21") == [a for a in old if a.day == "2026-11-21"]
    assert not (folder / "daily.json").exists()
    assert sorted(p.name for p in (folder / "daily").iterdir()) == ["2026-11-20.json", "2026-11-21.json",
                                                                    "2026-11-22.json"]
    assert sorted(store.daily_attempts(), key=lambda a: a.player) == sorted(old, key=lambda a: a.player)
    with pytest.raises(DailyRefused):
        store.start_daily(attempt("P1", day="2026-11-21"))


def test_a_move_cut_short_is_done_again_and_merged(tmp_path):
    """Killed after writing some day files and before removing daily.json: the next use finishes it."""
    from wom_tui.domain.store import open_store
    from wom_tui.domain.store.documents import encode_daily_day

    folder = tmp_path / "data"
    (folder / "daily").mkdir(parents=True)
    old = [attempt("Ada", day="2026-11-20"), attempt("Bob", day="2026-11-21")]
    (folder / "daily.json").write_bytes(encode_attempts(old))
    (folder / "daily" / "2026-11-20.json").write_bytes(encode_daily_day("2026-11-20", old[:1]))
    store = open_store(str(folder))
    store.start_daily(attempt("Cy", day="2026-11-21"))
    assert [a.player for a in store.daily_attempts()] == ["Ada", "Bob", "Cy"]
    assert not (folder / "daily.json").exists()


def test_a_damaged_old_daily_json_is_named_and_left_as_it_is(tmp_path):
    from wom_tui.domain.store import StoreError, open_store

    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "daily.json").write_text(json.dumps({"schema": 1, "attempts": [{"day": "x"}]}))
    before = (folder / "daily.json").read_bytes()
    store = open_store(str(folder))
    with pytest.raises(StoreError, match="daily.json"):
        store.daily_attempts_on(DAY)
    with pytest.raises(StoreError, match="daily.json"):
        store.start_daily(attempt("Alan"))
    assert (folder / "daily.json").read_bytes() == before
    assert not (folder / "daily").exists()


def test_the_database_moves_the_one_row_of_attempts_into_a_row_each(postgres_server, monkeypatch):
    from wom_tui.domain.store.postgres import migrations
    from wom_tui.domain.store.postgres.store import PostgresStore

    url = postgres_server.new_database()
    monkeypatch.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:5])
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", 5)
    old = [attempt("Ada"), attempt("Bob", day="2026-11-24"), attempt("Ada", puzzle="digits")]
    import psycopg
    from psycopg.types.json import Jsonb

    PostgresStore(url).close()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("INSERT INTO wom_daily (attempts) VALUES (%s)", (Jsonb([a.as_json() for a in old]),))
    monkeypatch.undo()
    store = PostgresStore(url)
    try:
        assert [m.version for m in store.applied][:2] == [6, 7]  # browser sessions, then the daily rows
        assert store.daily_attempts_on(DAY) == [old[0], old[2]]
        assert store.daily_attempts() == [old[0], old[2], old[1]]
        with pytest.raises(DailyRefused, match="already started"):
            store.start_daily(attempt("ada"))
        assert store.totals()["daily attempts"] == 3
    finally:
        store.close()


def today_attempt(player: str, key: str | None) -> DailyAttempt:
    now = datetime.now(timezone.utc)
    return DailyAttempt(now.date().isoformat(), "classic", player, now.isoformat(), key=key)


def test_two_sessions_of_one_key_racing_get_one_attempt(store_factory):
    """Two names of one key starting at once from two processes' stores: exactly one is recorded."""
    from concurrent.futures import ThreadPoolExecutor

    stores = [store_factory() for _ in range(8)]
    outcomes: list[str] = []

    def start(index: int) -> str:
        try:
            stores[index].start_daily(today_attempt(f"Name{index}", FP_A))
            return "started"
        except DailyRefused:
            return "refused"

    with ThreadPoolExecutor(8) as pool:
        outcomes = list(pool.map(start, range(8)))
    assert sorted(outcomes) == ["refused"] * 7 + ["started"]
    assert len(store_factory().daily_attempts_on(datetime.now(timezone.utc).date().isoformat())) == 1




def test_each_variants_daily_code_is_an_attempt_of_its_own_and_liars_12_guesses_are_kept(store_factory):
    """docs/play.md, *Variants*: the daily screen's variant puzzles on both stores (no new column, no migration)."""
    store = store_factory()
    store.start_daily(attempt("Alan", FP_A))
    for puzzle in ("quad", "devious", "strict", "liar"):
        store.start_daily(attempt("Alan", FP_A, puzzle=puzzle))
    with pytest.raises(DailyRefused, match="Liar, 4 × Classic"):
        store.start_daily(attempt("Alan", FP_A, puzzle="liar"))
    store.finish_daily(DAY, "liar", "Alan", finished_at=AT, guesses=12, broke=False, game_id=None)
    kept = {a.puzzle: a for a in store_factory().daily_attempts_on(DAY)}
    assert set(kept) == {"classic", "quad", "devious", "strict", "liar"}
    assert (kept["liar"].guesses, kept["liar"].broke) == (12, False)
