"""The server's side of operators (docs/serve.md, *The Operator screen*): which verified keys are an operator's
(``--operator-key``, ``from="…"`` honoured), a missing or bad operator key file stopping the server before it
starts, and the games' operator reports counted only from a session the server signed in with such a key."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import asyncssh
import pytest

from wom_tui import cli
from wom_tui.serve.events import Events, Who
from wom_tui.serve.metrics import Metrics
from wom_tui.serve.server import ServeError, is_operator_key, read_operator_keys

from .conftest import NO_GAME
from .sshterm import ServerFactory


def new_key():
    """A player's key as the server sees it once verified: the public half."""
    return asyncssh.import_public_key(asyncssh.generate_private_key("ssh-ed25519").export_public_key())

KICK = json.dumps({"event": "operator", "action": "kick", "target": "4f3a", "reason": "spam"})


def _public(key) -> str:
    return key.export_public_key().decode()


def test_a_key_in_the_file_is_an_operator_s_and_another_is_not(tmp_path: Path) -> None:
    op_key, other = new_key(), new_key()
    path = tmp_path / "operators"
    path.write_text("# the arcade's operators\n" + _public(op_key))
    operators = read_operator_keys((path,))
    assert is_operator_key(operators, op_key, "198.51.100.7")
    assert not is_operator_key(operators, other, "198.51.100.7")
    assert not is_operator_key(None, op_key, "198.51.100.7")  # no --operator-key: nobody
    assert read_operator_keys(()) is None


def test_from_options_limit_an_operator_key_to_its_addresses(tmp_path: Path) -> None:
    near, anywhere = new_key(), new_key()
    path = tmp_path / "operators"
    path.write_text(f'from="192.0.2.0/24,!192.0.2.66" {_public(near)}' + _public(anywhere))
    operators = read_operator_keys((path,))
    assert is_operator_key(operators, near, "192.0.2.5")
    assert not is_operator_key(operators, near, "192.0.2.66")
    assert not is_operator_key(operators, near, "203.0.113.9")
    assert is_operator_key(operators, anywhere, "203.0.113.9")


def test_several_files_each_count(tmp_path: Path) -> None:
    first, second = new_key(), new_key()
    (tmp_path / "a").write_text(_public(first))
    (tmp_path / "b").write_text(_public(second))
    operators = read_operator_keys((tmp_path / "a", tmp_path / "b"))
    assert is_operator_key(operators, first, "192.0.2.1") and is_operator_key(operators, second, "192.0.2.1")


@pytest.mark.parametrize("content", [None, "", "not a key at all\n", "# only a comment\n"])
def test_a_missing_or_bad_operator_key_file_is_named(tmp_path: Path, content: str | None) -> None:
    path = tmp_path / "operators"
    if content is not None:
        path.write_text(content)
    with pytest.raises(ServeError, match=r"cannot read the operator keys .*operators: ") as raised:
        read_operator_keys((path,))
    assert ("No such file" in str(raised.value)) == (content is None)


async def test_a_server_with_a_bad_operator_key_file_does_not_start(start_server: ServerFactory, tmp_path) -> None:
    path = tmp_path / "operators"
    path.write_text("ssh-ed25519 AAAAnot-base64\n")
    with pytest.raises(ServeError, match="operators"):
        await start_server(operator_keys=(path,), warm_command=NO_GAME)


def test_wom_tui_serve_stops_at_once_with_the_reason(tmp_path: Path, capsys, caplog) -> None:
    missing = tmp_path / "no-such-operators"
    with caplog.at_level(logging.ERROR):
        status = cli.main(["serve", "--port", "0", "--data-dir", str(tmp_path / "data"), "--operator-key", str(missing)])
    assert status == 1
    said = capsys.readouterr().err + caplog.text
    assert f"cannot read the operator keys {missing}: No such file or directory" in said
    assert "play with" not in said  # it never listened


def _counted(metrics: Metrics, action: str) -> float:
    return metrics.registry.get_sample_value("wom_operator_actions_total", {"action": action}) or 0.0


def test_an_operator_report_counts_only_from_an_operator_s_session(caplog) -> None:
    metrics = Metrics()
    events = Events(metrics)
    player = Who("3.1", "198.51.100.7", "SHA256:" + "p" * 43)
    with caplog.at_level(logging.INFO, logger="wom_tui.serve"):
        for _ in range(3):
            events.game_report(player, KICK, 1.0)
    ignored = [record for record in caplog.records if "ignored an operator's report" in record.getMessage()]
    assert len(ignored) == 1 and "session #3.1" in ignored[0].getMessage()  # said once, not once per report
    assert not any("operator kick" in record.getMessage() for record in caplog.records)
    assert _counted(metrics, "kick") == 0

    caplog.clear()
    operator = Who("4.1", "192.0.2.1", "SHA256:" + "o" * 43, operator=True)
    with caplog.at_level(logging.INFO, logger="wom_tui.serve"):
        events.game_report(operator, KICK, 1.0)
        events.game_report(operator, json.dumps({"event": "operator", "action": "shutdown"}), 1.0)  # not an act
    acts = [record for record in caplog.records if "operator kick" in record.getMessage()]
    assert len(acts) == 1 and "spam" in acts[0].getMessage()
    assert _counted(metrics, "kick") == 1 and _counted(metrics, "shutdown") == 0
