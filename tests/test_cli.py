"""The command line: options reach the app and the server wherever they are written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wom_tui import cli


@pytest.fixture
def captured(monkeypatch):
    """Run main() with the app and server replaced by recorders of the options they receive."""
    seen = {}

    def fake_app(options, rng, identity=None):
        seen.update(command="play", options=options, first=rng.random())
        return 0

    def fake_server(settings):
        seen.update(command="serve", options=settings, args=settings)
        return 0

    import wom_tui.launch
    import wom_tui.serve

    monkeypatch.setattr(wom_tui.launch, "run_app", fake_app)
    monkeypatch.setattr(wom_tui.serve, "run_server", fake_server)
    monkeypatch.delenv("WOM_DATA_DIR", raising=False)
    return seen


def test_play_options(captured, tmp_path):
    assert cli.main(["--data-dir", str(tmp_path), "--seed", "7", "--debug"]) == 0
    options = captured["options"]
    assert (captured["command"], options.data_dir, options.seed, options.debug) == ("play", tmp_path, 7, True)


def test_the_same_seed_gives_the_same_randomness(captured, tmp_path):
    cli.main(["--data-dir", str(tmp_path), "--seed", "7"])
    first = captured["first"]
    cli.main(["--data-dir", str(tmp_path), "--seed", "7"])
    assert captured["first"] == first
    cli.main(["--data-dir", str(tmp_path), "--seed", "8"])
    assert captured["first"] != first


@pytest.mark.parametrize("where", ["before", "after"])
def test_serve_keeps_common_options_on_either_side_of_the_command(captured, tmp_path, where):
    common = ["--data-dir", str(tmp_path), "--seed", "3", "--debug"]
    argv = common + ["serve", "--port", "0"] if where == "before" else ["serve", "--port", "0"] + common
    cli.main(argv)
    options = captured["options"]
    assert (captured["command"], options.data_dir, options.seed, options.debug) == ("serve", tmp_path, 3, True)
    assert captured["args"].port == 0


def test_data_dir_falls_back_to_the_environment(captured, tmp_path, monkeypatch):
    monkeypatch.setenv("WOM_DATA_DIR", str(tmp_path / "env"))
    cli.main([])
    assert captured["options"].data_dir == Path(tmp_path / "env")


def test_bad_seed_is_a_clear_usage_error(captured, capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["--seed", "many"])
    assert stop.value.code == 2
    assert "--seed" in capsys.readouterr().err
    assert "command" not in captured


@pytest.mark.parametrize("argv", [["--seat-grace", "30"], ["--seat-grace", "30", "serve"], ["serve", "--seat-grace", "30"]])
def test_seat_grace_reaches_the_app_and_every_served_session(captured, tmp_path, argv):
    cli.main(["--data-dir", str(tmp_path), *argv])
    assert captured["options"].seat_grace == 30
    if captured["command"] == "serve":
        from wom_tui.serve.server import GameServer

        assert GameServer(captured["options"], warm_command=None).game_settings(1).seat_grace == 30


def test_seat_grace_defaults_to_two_minutes(captured, tmp_path):
    cli.main(["--data-dir", str(tmp_path)])
    assert captured["options"].seat_grace == 120


def test_the_settings_grace_is_the_table_rules_grace():
    from wom_tui.domain.table import SEAT_GRACE
    from wom_tui.settings import Settings

    assert Settings(data_dir=Path(), seed=0).seat_grace == SEAT_GRACE


def test_a_served_games_settings_survive_the_trip_as_data(tmp_path):
    from wom_tui.settings import Settings

    settings = Settings(data_dir=tmp_path, seed=5, debug=True, store="postgresql://wom@db/arcade", seat_grace=30,
                        host_key=tmp_path / "key", max_per_ip=0).for_session(77)
    assert Settings.from_json(json.loads(json.dumps(settings.as_json()))) == settings
    assert (settings.served, settings.seed) == (True, 77)


@pytest.mark.parametrize("bad", ["-1", "soon", "inf"])
def test_a_bad_seat_grace_is_a_clear_usage_error(captured, capsys, bad):
    with pytest.raises(SystemExit) as stop:
        cli.main([f"--seat-grace={bad}"])
    assert stop.value.code == 2
    assert "--seat-grace" in capsys.readouterr().err
    assert "command" not in captured


@pytest.mark.parametrize("argv", [["--fill-after", "12", "--no-bell", "--notify"],
                                  ["serve", "--fill-after", "12", "--no-bell", "--notify"]])
def test_quick_match_and_nudge_options_reach_the_app_and_every_served_session(captured, tmp_path, argv):
    cli.main(["--data-dir", str(tmp_path), *argv])
    options = captured["options"]
    assert (options.fill_after, options.bell, options.desktop_notify) == (12, False, True)
    if captured["command"] == "serve":
        from wom_tui.serve.server import GameServer

        game = GameServer(options, warm_command=None).game_settings(1)
        assert (game.fill_after, game.bell, game.desktop_notify) == (12, False, True)


def test_the_settings_fill_time_is_the_matchmakings_and_the_bell_rings_by_default():
    from wom_tui.domain.matchmaking import FILL_AFTER
    from wom_tui.settings import Settings

    settings = Settings(data_dir=Path(), seed=0)
    assert settings.fill_after == FILL_AFTER and settings.bell and not settings.desktop_notify


def test_a_negative_fill_time_is_a_clear_usage_error(captured, capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["--fill-after", "-3"])
    assert stop.value.code == 2
    assert "--fill-after" in capsys.readouterr().err
