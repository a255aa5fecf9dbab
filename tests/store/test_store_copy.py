"""``wom-tui store copy``: an arcade moves into PostgreSQL and back with every byte of it."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from datetime import datetime, timedelta, timezone
from random import Random

import pytest

from wom_tui.domain.store import shown_location
from wom_tui import __main__ as cli
from wom_tui.domain.browser import BrowserSession
from wom_tui.domain.codes import DIGITS8, RAINBOW, SOLO_RULESET, WOM, Feedback, Ruleset
from wom_tui.domain.halloffame import HallEntry, HallOfFame
from wom_tui.domain.store.postgres.store import PostgresStore
from wom_tui.domain.records import GameRecord, PlayerRecord
from wom_tui.domain.store import documents as files
from wom_tui.domain.daily import DailyAttempt
from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.domain.users import User, UserRegistry
from wom_tui.domain.arena import Arena, ArenaRules, arena_table
from wom_tui.domain.rush import RushScore
from wom_tui.domain.table import SeatHolder
from wom_tui.domain.variants import Variant

from .helpers import RULESET5, snapshot


def make_arcade(folder: Path, users: int, games: int, rng: Random) -> None:
    """A data folder written straight through the store's encoders (no playing): quick for thousands."""
    names = [f"Player {n:05d}" if n % 3 else f"p.{n}_x" for n in range(users)]
    # Every seventh user holds one or two SSH keys (unique across users, as bound over `serve`).
    registry = UserRegistry(
        User(name, rng.randrange(10**6), rng.randrange(500),
             [f"SHA256:{n:011d}{k}{'A' * 31}" for k in range(1 + n % 2)] if n % 7 == 0 else [])
        for n, name in enumerate(names))
    (folder / "games").mkdir(parents=True)
    (folder / "users.json").write_bytes(files.encode_users(registry))
    hall = HallOfFame([
        HallEntry(SOLO_RULESET, 3, names[0]),
        HallEntry(Ruleset(5, RAINBOW, False, 12), 7, "Bo", guest=True, date="2026-01-02T03:04:05+00:00"),
        HallEntry(Ruleset(3, DIGITS8, True, 10), 1, names[-1]),
    ])
    (folder / "halloffame.json").write_bytes(files.encode_hall(hall))
    # Themes chosen on this machine and over SSH (by key), the daily code's secret and its attempts.
    themes = {"local": "nord", **{f"SHA256:{n:011d}0{'A' * 31}": "wom-colourblind" for n in range(0, users, 70)}}
    (folder / "preferences.json").write_bytes(files.encode_prefs(themes))
    (folder / "daily_secret.json").write_bytes(files.encode_secret(rng.randbytes(32)))
    attempts = [DailyAttempt(f"2026-11-{1 + n % 20:02d}", ("classic", "digits")[n % 2], names[n % users],
                             f"2026-11-{1 + n % 20:02d}T08:00:00+00:00",
                             *((f"2026-11-{1 + n % 20:02d}T08:05:00+00:00", 1 + n % 10, n % 3 > 0, None)
                               if n % 5 else ()))
                for n in range(min(users, 40))]
    (folder / "daily.json").write_bytes(files.encode_attempts(attempts))
    # Browser sessions (their tokens' hashes), one every 50 users, signed in a minute apart.
    start = datetime(2026, 11, 1, tzinfo=timezone.utc)
    sessions = [BrowserSession(f"{n:012x}", names[n], f"{n:064x}", start + timedelta(minutes=n),
                               start + timedelta(days=1, minutes=n), start + timedelta(days=30, minutes=n),
                               "192.0.2.1" if n % 2 else "2001:db8::1") for n in range(0, users, 50)]
    (folder / "browser.json").write_bytes(files.encode_browser([], sessions))
    for n in range(games):
        kind = ("wom", "solo", "flip")[n % 3]
        seated = rng.sample(names, 1 if kind != "wom" else rng.randint(1, 3))
        players = [PlayerRecord(name, True, rng.random() < 0.5, 2,
                                (("RGBY", Feedback(1, 2)), ("KWRG", Feedback(rng.randint(0, 4), 0))),
                                rng.randrange(6), rng.randrange(6),
                                secret="KWRG" if kind == "wom" and n % 2 else None) for name in seated]
        if kind != "solo":
            players.append(PlayerRecord("HAL9000", False, False, 1, (("RRRR", Feedback(0, 0)),), 0, 0))
        ruleset = RULESET5 if kind == "wom" else Ruleset(4, WOM, True, 10)
        record = GameRecord(kind, ruleset, tuple(players), f"2026-11-{1 + n % 28:02d}T10:00:{n % 60:02d}+00:00")
        if n in (0, 3):  # a Quad table's game (its four codes) and a Liar table's (its lying row) cross too
            quad = n == 0
            record = replace(record, players=tuple(
                replace(p, codes=("RGBY", "KWRG", "RRRR", "GGBB") if quad and p.is_user else (),
                        lied=None if quad else 0) for p in record.players),
                variant=Variant.QUAD if quad else Variant.LIAR, hot_seat=False, table_id=f"t-{n}")
        game_id = f"20261120T{n:012d}Z-{rng.getrandbits(48):012x}"
        (folder / "games" / f"{game_id}.json").write_bytes(files.encode_game(game_id, record))
    # Two Code Arenas (one with games) and Rush bests.
    arena = Arena("arena-1", 1_000.0, 30, ArenaRules(6, 60.0))
    for name in names[:4]:
        arena = arena.join(SeatHolder(name, f"s{len(arena.entrants)}", True), 1_000.0)
    arena, tables = arena.pair(1_001.0, lambda a, b: arena_table(f"t-{a.holder.session}", a, b, arena.rules,
                                                               seed=1, now=1_001.0, grace=30.0))
    arena = arena.finish_game(tables[0].table_id, [(True, 2), (False, 6)], [2, 6], 1_100.0)
    (folder / "arenas").mkdir()
    (folder / "arenas" / "arena-1.json").write_bytes(files.encode_document({"arena": arena.as_json()}))
    (folder / "arena.json").write_bytes(files.encode_document({"arena": Arena("arena-2", 90_000.0, 10).as_json()}))
    (folder / "rush.json").write_bytes(files.encode_rush({"local": RushScore(7, 40, 5), names[1]: RushScore(3, 30, 2)}))


def totals(out: str) -> dict[str, tuple[str, str]]:
    """The copy's table of counts: label → (from, to)."""
    rows = [re.split(r"\s{2,}", line.strip()) for line in out.splitlines()]
    return {row[0]: (row[1], row[2]) for row in rows if len(row) == 3}


def test_a_big_arcade_goes_into_postgresql_and_back_exactly(postgres_server, tmp_path, capsys):
    # 5,000 files written twice: in memory (tests/memory_tmp.py), not seconds of waiting on a shared disk.
    source, back = tmp_path / "arcade", tmp_path / "back"
    make_arcade(source, 1000, 5000, Random(14))
    url = postgres_server.new_database()

    assert cli.main(["store", "copy", "--from", str(source), "--to", url]) == 0
    out = capsys.readouterr().out
    counts = totals(out)
    assert counts["users"] == ("1,000", "1,000")
    assert counts["game records"] == ("5,000", "5,000")
    assert counts["hall of fame records"] == ("3", "3")
    assert counts["SSH keys"] == ("214", "214")
    assert counts["theme choices"] == ("16", "16")
    assert counts["daily attempts"] == ("40", "40")
    assert counts["daily secrets"] == ("1", "1")
    assert counts["browser sessions"] == ("20", "20")
    assert (counts["arenas"], counts["arena games"], counts["Rush bests"]) == (("2", "2"), ("2", "2"), ("2", "2"))
    points = f"{sum(u.score for u in Store(source).users()):,}"
    assert counts["points"] == (points, points)
    assert out.rstrip().endswith("everything matches.")
    assert postgres_server.password not in out

    # The way back comes out of the database alone, so equal bytes mean the database held it all.
    assert cli.main(["store", "copy", "--from", url, "--to", str(back)]) == 0
    assert "everything matches." in capsys.readouterr().out
    assert snapshot(back) == snapshot(source)  # every file, byte for byte


def test_copy_refuses_a_target_that_holds_anything_and_leaves_it_alone(postgres_server, tmp_path, capsys):
    source = tmp_path / "arcade"
    make_arcade(source, 3, 4, Random(1))
    url = postgres_server.new_database()
    with PostgresStore(url) as database:
        database.register("Zed")
    assert cli.main(["store", "copy", "--from", str(source), "--to", url]) == 1
    err = capsys.readouterr().err
    assert "already holds an arcade; a copy only goes into an empty one" in err
    assert f"{shown_location(url)}: the target already holds" in err  # the URL as given, both slashes kept
    assert shown_location(url).startswith("postgresql://wom@127.0.0.1:") and url.split("@")[0] not in err
    with PostgresStore(url) as database:
        assert [u.name for u in database.users()] == ["Zed"]

    folder = tmp_path / "busy"
    Store(folder).register("Amy")
    before = snapshot(folder)
    assert cli.main(["store", "copy", "--from", url, "--to", str(folder)]) == 1
    assert "already holds an arcade" in capsys.readouterr().err
    assert snapshot(folder) == before


def test_copy_from_a_damaged_folder_writes_nothing(postgres_server, tmp_path, capsys):
    source = tmp_path / "arcade"
    make_arcade(source, 3, 4, Random(2))
    (source / "halloffame.json").write_bytes(b'{"schema": 1, "records": [')
    url = postgres_server.new_database()
    assert cli.main(["store", "copy", "--from", str(source), "--to", url]) == 1
    assert "halloffame.json: the file is not valid JSON" in capsys.readouterr().err
    with PostgresStore(url) as database:
        assert database.is_empty()


@pytest.mark.parametrize("missing", ["folder", "database"])
def test_copy_from_nowhere_says_so(tmp_path, capsys, missing):
    source = str(tmp_path / "nothing") if missing == "folder" else "postgresql://wom:pw@127.0.0.1:1/none"
    assert cli.main(["store", "copy", "--from", source, "--to", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert ("no such data folder" if missing == "folder" else "cannot use the database") in err
    assert "Traceback" not in err and ":pw@" not in err


def test_a_copy_into_a_folder_cut_off_by_a_full_disk_leaves_no_arcade_behind(tmp_path, monkeypatch, capsys):
    """The disk fills after the games were written: the target is not there (nor a half copy that would
    open as an empty arcade), no temporary folder is left, and the person copying is told why."""
    import errno

    from wom_tui.domain.store.folder import store as folder_store

    source = tmp_path / "arcade"
    make_arcade(source, 3, 4, Random(3))
    folder_store.FolderStore(source).daily_attempts()  # the source's first daily read moves daily.json into day files
    written = []

    def disk_full(path, data, **kwargs):
        written.append(path)
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(folder_store, "atomic_write", disk_full)  # the hall of fame, after every game file
    target = tmp_path / "copies" / "arcade"
    assert cli.main(["store", "copy", "--from", str(source), "--to", str(target)]) == 1
    assert "No space left on device" in capsys.readouterr().err
    assert written, "the failure was injected mid-copy"
    assert not target.exists()
    assert list((tmp_path / "copies").iterdir()) == []
    monkeypatch.undo()
    assert cli.main(["store", "copy", "--from", str(source), "--to", str(target)]) == 0  # a second try goes through
    assert "everything matches" in capsys.readouterr().out


def test_a_copy_into_an_existing_empty_folder_keeps_what_else_it_holds(tmp_path, capsys):
    source = tmp_path / "arcade"
    make_arcade(source, 3, 4, Random(4))
    target = tmp_path / "served"
    Store(target).check()  # opened once: an empty arcade
    (target / "ssh_host_ed25519_key").write_text("the server's host key")
    assert cli.main(["store", "copy", "--from", str(source), "--to", str(target)]) == 0
    assert (target / "ssh_host_ed25519_key").read_text() == "the server's host key"
    assert len(Store(target).users()) == len(Store(source).users())
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".wom-copy-")]


def test_a_database_url_is_shown_as_given_without_its_password():
    assert shown_location("postgresql://wom:hunter2@db.example:6543/arcade?sslmode=require&password=x") == \
        "postgresql://wom@db.example:6543/arcade?sslmode=require"
    assert shown_location("postgresql://wom@127.0.0.1:5432/wom") == "postgresql://wom@127.0.0.1:5432/wom"
    assert shown_location("postgresql:///arcade") == "postgresql:///arcade"
    assert shown_location("arcade/data") == "arcade/data"
