"""`wom-tui users link-browser|sessions|revoke`: the operator signs browsers in and out (docs/serve.md)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from wom_tui import cli
from wom_tui.domain.browser import hash_session_token, new_session_token
from wom_tui.domain.store.folder.store import FolderStore as Store

from tests.store.helpers import snapshot
from tests.test_users_cli import arcade  # noqa: F401  (the fixture: a data folder or a database)


def users(folder: Path, *argv: str) -> int:
    return cli.main(["users", *argv, "--data-dir", str(folder)])


def test_link_browser_prints_a_code_that_signs_a_browser_in(arcade, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    where, opened = arcade
    opened().register("Alan")
    assert cli.main(["users", "link-browser", "alan", *where]) == 0
    out = capsys.readouterr().out
    code = out.splitlines()[0]
    assert re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}", code)
    assert "sign in as Alan" in out and "once, for 10 minutes" in out
    token = new_session_token()
    opened().redeem_browser_code(code, hash_session_token(token), "192.0.2.1")

    assert cli.main(["users", "sessions", "Alan", *where]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["Session", "Signed", "in", "Last", "used", "Expires", "From"]
    [session] = opened().browser_sessions("Alan")
    assert lines[1].startswith(session.id) and lines[1].endswith("192.0.2.1") and len(lines) == 2
    assert token not in "\n".join(lines) and session.token_hash not in "\n".join(lines)

    assert cli.main(["users", "revoke", "Alan", session.id, *where]) == 0
    assert f"Browser session {session.id} of Alan is signed out." in capsys.readouterr().out
    assert opened().use_browser_session(hash_session_token(token)) is None
    assert cli.main(["users", "sessions", "Alan", *where]) == 0
    assert capsys.readouterr().out == "Alan has no browser signed in.\n"


def test_revoke_all(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = Store(tmp_path)
    store.register("Alan")
    for _ in range(2):
        store.redeem_browser_code(store.issue_browser_code("Alan"), hash_session_token(new_session_token()), "::1")
    assert users(tmp_path, "revoke", "Alan", "--all") == 0
    assert capsys.readouterr().out.startswith("2 browser sessions of Alan signed out.\nTheir open tabs end")
    assert store.browser_sessions("Alan") == []


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["link-browser", "Zed"], "there is no user called 'Zed'"),
        (["sessions", "Zed"], "there is no user called 'Zed'"),
        (["revoke", "Zed", "--all"], "there is no user called 'Zed'"),
        (["revoke", "Alan", "nope"], "A browser session id is 12 hex digits"),
        (["revoke", "Alan", "0123456789ab"], "Alan has no browser session 0123456789ab."),
    ],
)
def test_bad_input_says_why_exits_2_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    Store(tmp_path).register("Alan")
    before = snapshot(tmp_path)
    assert users(tmp_path, *argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("argv", [["revoke", "Alan"], ["revoke", "Alan", "0123456789ab", "--all"]])
def test_revoke_needs_one_session_or_all(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        users(tmp_path, *argv)
    assert exited.value.code == 2
    assert "SESSION-ID" in capsys.readouterr().err


def test_on_a_fresh_folder_nothing_is_created(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert users(tmp_path / "data", "link-browser", "Alan") == 2
    assert "there is no user called 'Alan'" in capsys.readouterr().err
    assert not (tmp_path / "data").exists()
