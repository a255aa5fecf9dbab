"""The command line: options reach the app and the server wherever they are written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wom_tui import cli
from wom_tui.settings import Settings


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


@pytest.mark.parametrize("argv, option", [
    (["--seed", "3", "users", "list"], "--seed"),
    (["--debug", "users", "list"], "--debug"),
    (["--seat-grace", "30", "users", "bind", "Ann", "--key", "x"], "--seat-grace"),
    (["--seed", "3", "store", "migrate"], "--seed"),
    (["--data-dir", "/tmp/x", "store", "migrate"], "--data-dir"),
    (["--store", "postgresql://a@b/c", "store", "copy", "--from", "a", "--to", "b"], "--store"),
    (["users", "list", "--seed", "3"], "--seed"),
    (["users", "list", "--debug"], "--debug"),
    (["users", "list", "--max-sessions", "3"], "--max-sessions"),
    (["store", "migrate", "--seat-grace", "3"], "--seat-grace"),
    (["store", "copy", "--from", "a", "--to", "b", "--data-dir", "c"], "--data-dir"),
])
def test_users_and_store_refuse_options_that_mean_nothing_to_them(captured, capsys, argv, option):
    with pytest.raises(SystemExit) as stop:
        cli.main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert option in err and ("means nothing" in err or "unrecognized" in err)
    assert "command" not in captured


def test_users_and_store_keep_the_options_they_use(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("WOM_STORE", raising=False)
    assert cli.main(["--data-dir", str(tmp_path / "a"), "users", "list"]) == 0
    assert cli.main(["users", "list", "--data-dir", str(tmp_path / "a")]) == 0
    assert "No users yet" in capsys.readouterr().out
    assert cli.main(["store", "migrate", "--store", str(tmp_path)]) == 2  # a data folder needs no migration
    assert "a data folder needs no migration" in capsys.readouterr().err


@pytest.mark.parametrize("given, kept", [("9464", "127.0.0.1:9464"), ("0.0.0.0:9100", "0.0.0.0:9100"),
                                         ("[::1]:9100", "[::1]:9100")])
def test_metrics_address_and_log_format_reach_the_server(captured, tmp_path, given, kept):
    cli.main(["serve", "--data-dir", str(tmp_path), "--metrics", given, "--log-format", "json"])
    assert (captured["options"].metrics, captured["options"].log_format) == (kept, "json")


@pytest.mark.parametrize("argv", [["serve", "--metrics", "here"], ["serve", "--metrics", "1:99999"],
                                  ["serve", "--log-format", "xml"]])
def test_bad_metrics_address_or_log_format_is_a_usage_error(captured, capsys, argv):
    with pytest.raises(SystemExit) as stop:
        cli.main(argv)
    assert stop.value.code == 2 and argv[1] in capsys.readouterr().err
    assert "command" not in captured


def test_metrics_are_off_and_the_log_is_text_by_default(captured, tmp_path):
    cli.main(["serve", "--data-dir", str(tmp_path)])
    assert (captured["options"].metrics, captured["options"].log_format) == (None, "text")


def test_serve_web_options_reach_the_server(captured, tmp_path):
    cli.main(["serve", "--data-dir", str(tmp_path), "--web", "[::1]:8080", "--web-origin", "https://play.example.org/",
              "--web-origin", "http://localhost:8080", "--trusted-proxy", "127.0.0.1", "--trusted-proxy", "10.0.0.0/8"])
    settings = captured["options"]
    assert settings.web == "[::1]:8080"
    assert settings.web_origin == ("https://play.example.org", "http://localhost:8080")
    assert settings.trusted_proxy == ("127.0.0.1", "10.0.0.0/8")
    served = settings.for_session(3)
    assert Settings.from_json(json.loads(json.dumps(served.as_json()))) == served  # tuples survive the trip


def test_serve_without_web_serves_no_page(captured, tmp_path):
    cli.main(["serve", "--data-dir", str(tmp_path)])
    assert captured["options"].web is None


@pytest.mark.parametrize("option, bad", [
    ("--web", "8080"), ("--web", "localhost:http"), ("--web", "host:70000"), ("--web", ":8080"),
    ("--web-origin", "play.example.org"), ("--web-origin", "https://play.example.org/game"),
    ("--trusted-proxy", "proxy.example.org"),
])
def test_bad_web_options_are_clear_usage_errors(captured, capsys, option, bad):
    with pytest.raises(SystemExit) as stop:
        cli.main(["serve", option, bad])
    assert stop.value.code == 2
    assert option in capsys.readouterr().err
    assert "command" not in captured


def test_serve_motd_from_the_line_or_a_file(captured, tmp_path):
    cli.main(["serve", "--data-dir", str(tmp_path), "--motd", "Restart in 5 minutes"])
    assert captured["options"].motd == "Restart in 5 minutes"
    (tmp_path / "motd.txt").write_text("Tournament tonight at 20:00 UTC\n", encoding="utf-8")
    cli.main(["serve", "--data-dir", str(tmp_path), "--motd", f"@{tmp_path / 'motd.txt'}"])
    assert captured["options"].motd == "Tournament tonight at 20:00 UTC"
    cli.main(["serve", "--data-dir", str(tmp_path)])
    assert captured["options"].motd is None


@pytest.mark.parametrize("motd, says", [("two\nlines", "one line"), ("\x1b[2Jwipe", "printable"), ("x" * 201, "at most 200"),
                                        ("@/nonexistent/motd", "cannot read")])
def test_a_bad_motd_is_a_clear_usage_error(captured, capsys, tmp_path, motd, says):
    with pytest.raises(SystemExit) as exited:
        cli.main(["serve", "--data-dir", str(tmp_path), "--motd", motd])
    assert exited.value.code == 2 and says in capsys.readouterr().err
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


def test_a_quick_match_waits_half_a_minute_for_people_and_the_bell_rings_by_default(captured, tmp_path):
    cli.main(["--data-dir", str(tmp_path)])
    settings = captured["options"]
    assert settings.fill_after == 30 and settings.bell and not settings.desktop_notify


def test_a_negative_fill_time_is_a_clear_usage_error(captured, capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["--fill-after", "-3"])
    assert stop.value.code == 2
    assert "--fill-after" in capsys.readouterr().err
