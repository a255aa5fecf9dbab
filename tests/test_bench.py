"""Every bench answers --help and runs once at a tiny size, so none can break unseen (nor the README's
screenshot script, docs/make_screenshots.py).

The figures of such a run mean nothing (a handful of sessions, games or writes); what counts is that
the bench still imports, starts what it needs (servers over SSH on loopback, a throwaway PostgreSQL)
and gets to its last line. The full runs and their figures are in docs/perf/.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"

HELPERS = {"livefeed.py"}
"""Modules the benches share, not benches themselves."""

TINY: dict[str, list[str]] = {
    "ban_reach.py": ["--rounds", "1", "--json"],
    "arcade_match.py": ["--players", "4", "--within", "0.5", "--json"],
    "arcade.py": ["--games", "200", "--players", "30", "--crowd", "4", "--within", "0.5", "--json"],
    "fuzz.py": ["--events", "20", "--seed", "7"],
    "live.py": ["--tiny"],
    "lobby_rows.py": ["--tiny", "--json"],
    "pglive.py": ["--tiny"],
    "screen_memory.py": ["--opens", "1", "--warm-up", "1", "--screens", "help"],
    "scale.py": ["--tiny", "--json"],
    "serve_abuse.py": ["--tiny"],
    "solver.py": ["--pegs", "4", "--colours", "6", "--strategy", "expert", "--games", "2", "--json"],
    "ssh_load.py": ["1", "--json"],
    "web_load.py": ["1", "--json"],
    "ssh_memory.py": ["1", "--wait", "0"],
    "startup.py": ["--runs", "1"],
    "stats.py": ["--games", "12", "--runs", "1"],
    "store.py": ["--tiny"],
    "together.py": ["--tables", "1", "--players", "2", "--guesses", "2", "--lobbies", "2", "--idle", "2",
                    "--idle-seconds", "0.3", "--guess-in", "one-process", "--json"],
    "two_servers.py": ["--guesses", "1", "--json"],
    "upstream/footer_leak.py": ["--opens", "2"],
    "upstream/select_click.py": ["--fixed"],
    "upstream/textual_races.py": ["--case", "keys-behind-quit"],
    "upstream/textual_styling.py": ["--opens", "2", "--fixed"],
}
"""The arguments of each bench's tiny run (paired.py is run on solver.py's output, below)."""

TIMEOUT = 120


def benches() -> list[str]:
    """Every bench script, as a path under bench/."""
    return sorted(str(path.relative_to(BENCH)) for path in BENCH.rglob("*.py") if path.name not in HELPERS)


def run(bench: str, *args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """``bench`` run with ``args`` by this Python from the repository's root; its output kept."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": os.environ.get("PYTHONDONTWRITEBYTECODE", "")}
    return subprocess.run([sys.executable, str(BENCH / bench), *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=TIMEOUT)


def test_every_bench_has_a_tiny_run() -> None:
    assert set(benches()) == set(TINY) | {"paired.py"}


HELP_ALL = """
import contextlib, io, json, runpy, sys
answers = {}
for path in sys.argv[1:]:
    sys.argv, saved = [path, "--help"], list(sys.path)
    sys.path.insert(0, path.rsplit("/", 1)[0])
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            runpy.run_path(path, run_name="__main__")
        code = "no exit"
    except SystemExit as exit:
        code = exit.code
    sys.path[:] = saved
    answers[path] = [code, out.getvalue()]
print(json.dumps(answers))
"""
"""Every bench's ``--help`` in one interpreter, so that Textual and the game are imported once, not 18 times."""


def test_every_bench_answers_help() -> None:
    paths = [str(BENCH / bench) for bench in benches()]
    result = subprocess.run([sys.executable, "-c", HELP_ALL, *paths], cwd=ROOT, capture_output=True, text=True,
                            timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr
    answers = json.loads(result.stdout.splitlines()[-1])
    for path in paths:
        code, text = answers[path]
        assert code in (0, None) and text.startswith("usage:"), f"{path}: exit {code}\n{text}"


@pytest.mark.parametrize("bench", sorted(TINY))
def test_tiny_run(bench: str, tmp_path: Path) -> None:
    args = TINY[bench]
    if bench == "solver.py":
        args = [*args, "--lengths", str(tmp_path / "a.json")]
    result = run(bench, *args)
    assert result.returncode == 0, f"{bench} {' '.join(args)}\n{result.stdout}\n{result.stderr}"
    assert result.stdout.strip()
    if bench == "solver.py":
        paired = run("paired.py", str(tmp_path / "a.json"), str(tmp_path / "a.json"))
        assert paired.returncode == 0, paired.stderr
        assert "difference +0.0000" in paired.stdout


def test_readme_screenshot_is_drawn(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, str(ROOT / "docs" / "make_screenshots.py"), "--out", str(tmp_path)],
                            cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr
    svg = (tmp_path / "solo.svg").read_text(encoding="utf-8")
    assert svg.startswith("<svg") and "Guess #3 of 10" in svg.replace("&#160;", " ")
