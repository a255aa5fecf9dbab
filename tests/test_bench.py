"""Every bench answers --help and runs once at a tiny size, so none can break unseen (nor the README's
screenshot script, docs/make_screenshots.py).

The figures of such a run mean nothing (a handful of sessions, games or writes); what counts is that
the bench still imports, starts what it needs (servers over SSH on loopback, a throwaway PostgreSQL)
and gets to its last line. The full runs and their figures are in docs/perf/.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"

HELPERS = {"livefeed.py", "pages.py"}
"""Modules the benches share, not benches themselves."""

TINY: dict[str, list[str]] = {
    "ban_reach.py": ["--rounds", "1", "--json"],
    "documents.py": ["--tiny", "--json"],
    "arcade_match.py": ["--players", "4", "--within", "0.5", "--json"],
    "arena.py": ["--players", "4", "--minutes", "5", "--join-within", "10", "--step", "1", "--json"],
    "arcade.py": ["--games", "200", "--players", "30", "--crowd", "4", "--within", "0.5", "--json"],
    "fork_copy.py": ["--json"],
    "fuzz.py": ["--events", "20", "--seed", "7"],
    "line_load.py": ["1", "--json"],
    "live.py": ["--tiny"],
    "notices.py": ["--tiny", "--json"],
    "lobby_rows.py": ["--tiny", "--json"],
    "pglive.py": ["--tiny"],
    "screen_memory.py": ["--opens", "1", "--warm-up", "1", "--screens", "help"],
    "scale.py": ["--tiny", "--json"],
    "serve_abuse.py": ["--tiny"],
    "solver.py": ["--pegs", "4", "--colours", "6", "--strategy", "expert", "--games", "2", "--json"],
    "ssh_load.py": ["1", "--json"],
    "web_load.py": ["1", "--json", "--no-ssh"],  # the SSH side is ssh_load.py's own tiny run
    "web_abuse.py": ["--tiny"],
    "ssh_memory.py": ["1", "--wait", "0"],
    "startup.py": ["--runs", "1"],
    "stats.py": ["--games", "12", "--runs", "1"],
    "store.py": ["--tiny"],
    "together.py": ["--tables", "1", "--players", "2", "--guesses", "2", "--lobbies", "2", "--idle", "2",
                    "--idle-seconds", "0.3", "--guess-in", "one-process", "--json"],
    "two_servers.py": ["--guesses", "1", "--json"],
    "upstream/focus_cursor.py": [],
    "upstream/footer_leak.py": ["--opens", "2"],
    "upstream/textual_dispatch.py": ["--opens", "2", "--fixed"],
    "upstream/select_click.py": ["--fixed"],
    "upstream/textual_races.py": ["--case", "keys-behind-quit"],
    "upstream/textual_styling.py": ["--opens", "2", "--fixed"],
}
"""The arguments of each bench's tiny run (paired.py is run on solver.py's output, below)."""

KEYS: dict[str, set[str]] = {
    "arcade.py": {"quick_match_p95_s", "left_alone", "rating_rebuild_100k_s", "rating_board_paint_ms"},
    "arcade_match.py": {"quick_match_p95_s", "left_alone", "tables"},
    "arena.py": {"arena_wait_median_s", "arena_wait_p95_s", "left_alone", "repeat_pairings", "standings_match"},
    "ban_reach.py": {"kick_reach_p95_s", "ban_to_every_session_p95_ms"},
    "documents.py": {"users_decode_ms", "games_decode_ms", "games_ms", "tables_ms", "solo_ms"},
    # (page frame numbers are root's to read: without them the bench says what it can)
    "fork_copy.py": ({"copied_mib", "new_mib", "copied_by_type_mib", "idle_copied_mib"} if os.geteuid() == 0
                     else {"private_mib", "idle_private_mib"}),
    "line_load.py": {"sessions", "tui_pss_per_session_mib", "line_pss_per_session_mib", "tui_cpu_per_session_s",
                     "line_cpu_per_session_s", "tui_cpu_per_guess_ms", "line_cpu_per_guess_ms", "tui_guess_p95_ms",
                     "line_guess_p95_ms"},
    "lobby_rows.py": {"cpu_ms_per_change", "small_cpu_ms_per_change", "cpu_ms_per_move"},
    "notices.py": {"notices", "sessions", "idle_cpu_ms_per_session_s", "busy_cpu_ms_per_session_s",
                   "pss_per_session_mib"},
    "scale.py": {"sessions", "db_connections_max", "guess_to_others_p95_ms", "table_reads_per_guess",
                 "pss_per_session_mib"},
    "solver.py": {"average", "worst", "won_share"},
    "ssh_load.py": {"sessions", "menu_median_s", "key_p95_ms", "pss_per_session_mib"},
    "together.py": {"one_process_guess_to_panel_p95_ms", "idle_cpu_percent", "lobby_update_max_ms"},
    "two_servers.py": {"guess_to_other_screen_p95_ms"},
    "web_load.py": {"sessions", "first_frame_median_s", "key_p95_ms", "pss_per_session_mib"},
}
"""The figures each ``--json`` bench must print (docs/perf/ quotes them): a tiny run proves they are still there."""

TIMEOUT = 120


def json_objects(out: str) -> list[dict[str, object]]:
    """The JSON objects a bench printed, one a line or one for the whole output."""
    found = []
    for line in out.splitlines():
        if line.startswith("{"):
            try:
                found.append(json.loads(line))
            except ValueError:
                pass
    if not found:
        try:
            found.append(json.loads(out))
        except ValueError:
            pass
    return [item for item in found if isinstance(item, dict)]


def benches() -> list[str]:
    """Every bench script, as a path under bench/."""
    return sorted(str(path.relative_to(BENCH)) for path in BENCH.rglob("*.py") if path.name not in HELPERS)


def run(bench: str, *args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """``bench`` run with ``args`` by this Python from the repository's root; its output kept."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": os.environ.get("PYTHONDONTWRITEBYTECODE", "")}
    # In a session of its own, so that a bench that hangs is stopped with the servers it started (killing
    # the bench alone left them running).
    with subprocess.Popen([sys.executable, str(BENCH / bench), *args], cwd=cwd, env=env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True) as process:
        try:
            out, err = process.communicate(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            out, err = process.communicate()
            raise AssertionError(f"{bench} {' '.join(args)} hung for {TIMEOUT} s:\n{out}\n{err[-6000:]}") from None
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def test_every_bench_has_a_tiny_run() -> None:
    assert set(benches()) == set(TINY) | {"paired.py"}
    assert {bench for bench, args in TINY.items() if "--json" in args} == set(KEYS)


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
    if "--json" in args:
        printed = json_objects(result.stdout)
        assert printed, f"{bench} printed no JSON object:\n{result.stdout}"
        missing = KEYS[bench] - set().union(*printed)
        assert not missing, f"{bench} no longer prints {sorted(missing)}:\n{result.stdout}"
    if bench == "solver.py":
        paired = run("paired.py", str(tmp_path / "a.json"), str(tmp_path / "a.json"))
        assert paired.returncode == 0, paired.stderr
        assert "difference +0.0000" in paired.stdout
        variant = run(bench, "--variant", "liar", "--strategy", "expert", "--games", "1", "--json")
        assert variant.returncode == 0, variant.stderr
        assert KEYS[bench] <= set(json_objects(variant.stdout)[0])


def test_readme_screenshot_is_drawn(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, str(ROOT / "docs" / "make_screenshots.py"), "--out", str(tmp_path)],
                            cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr
    svg = (tmp_path / "solo.svg").read_text(encoding="utf-8")
    assert svg.startswith("<svg") and "Guess #3 of 10" in svg.replace("&#160;", " ")


@pytest.mark.parametrize("sessions", [1, 50, 200])
def test_a_benchs_own_clients_fit_every_cap_of_its_server(sessions: int) -> None:
    """The caps a load bench gives its server admit all of its clients, which come from one address:
    `web_load.py --json 50` once refused its own tabs at the per-network cap, which a tiny run (one
    tab) never meets."""
    sys.path.insert(0, str(BENCH))
    try:
        from ssh_load import local_caps
    finally:
        sys.path.remove(str(BENCH))
    from wom_tui.cli.parser import build_parser, settings_from_args

    settings = settings_from_args(build_parser().parse_args(["serve", *local_caps(sessions)]))
    assert min(settings.max_sessions, settings.max_per_ip) >= sessions
    assert settings.max_per_network == 0 or settings.max_per_network >= sessions
    assert settings.idle_timeout >= 600


def test_every_load_bench_starts_its_server_with_those_caps() -> None:
    # serve_abuse.py and web_abuse.py are the exceptions: the caps themselves are what they measure.
    starting = [path for path in BENCH.glob("*.py") if '"wom_tui", "serve"' in path.read_text(encoding="utf-8")
                and path.name not in ("serve_abuse.py", "web_abuse.py")]
    assert starting
    for path in starting:
        assert "*local_caps(" in path.read_text(encoding="utf-8"), f"{path.name} starts a server without local_caps"
