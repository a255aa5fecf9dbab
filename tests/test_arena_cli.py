"""`wom-tui arena start` and `wom-tui arena`: the operator starts a Code Arena and reads its standings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wom_tui import cli
from wom_tui.domain.arena import ArenaRules
from wom_tui.domain.store import open_store
from wom_tui.domain.table import SeatHolder

from tests.store.helpers import snapshot


def arena(folder: Path, *argv: str) -> int:
    return cli.main(["arena", *argv, "--data-dir", str(folder)])


def test_start_an_arena_then_read_its_standings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "data"
    assert arena(folder) == 0 and "No arena yet" in capsys.readouterr().out
    assert not folder.exists()  # looking creates nothing
    assert cli.main(["arena", "start", "--minutes", "20", "--rules", "clock=60,attempts=6",
                     "--data-dir", str(folder)]) == 0
    assert "starts now (20 min, 6 attempts, 60 s a guess)" in capsys.readouterr().out
    store = open_store(folder)
    kept = store.live.arena()
    assert kept is not None and (kept.minutes, kept.rules) == (20, ArenaRules(6, 60.0))
    store.live.join_arena(SeatHolder("Alan", "s1", True))
    store.close()
    assert arena(folder, "--json") == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["phase"] == "running" and [row["name"] for row in shown["standings"]] == ["Alan"]
    assert arena(folder) == 0
    out = capsys.readouterr().out
    assert "left · 6 attempts, 60 s a guess" in out and "Alan" in out


@pytest.mark.parametrize("argv, message", [
    (["--rules", "attempts=11"], "5 to 10 attempts"),
    (["--rules", "colour=red"], "attempts=N and clock=SECONDS"),
])
def test_bad_rules_are_refused_and_write_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 argv: list[str], message: str) -> None:
    assert cli.main(["arena", "start", *argv, "--data-dir", str(tmp_path)]) == 2
    assert message in capsys.readouterr().err
    assert snapshot(tmp_path) == {}


def test_a_second_arena_is_refused_while_one_is_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert arena(tmp_path, "start") == 0
    before = snapshot(tmp_path)
    assert arena(tmp_path, "start", "--minutes", "10") == 2
    assert "already on" in capsys.readouterr().err
    assert snapshot(tmp_path) == before


def test_minutes_out_of_range_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        arena(tmp_path, "start", "--minutes", "1")
    assert exit_.value.code == 2 and "5 to 180 minutes" in capsys.readouterr().err
