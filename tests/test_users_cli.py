"""`wom-tui users list|bind|unbind`: the operator binds SSH keys to names."""

from __future__ import annotations

from pathlib import Path

import asyncssh
import pytest

from wom_tui import cli
from wom_tui.domain.store import open_store
from wom_tui.domain.store.folder.store import FolderStore as Store

from tests.store.helpers import snapshot


def users(folder: Path, *argv: str) -> int:
    return cli.main(["users", *argv, "--data-dir", str(folder)])


@pytest.fixture(scope="module")
def key_line() -> str:
    return asyncssh.generate_private_key("ssh-ed25519", comment="alan@home").export_public_key().decode()


def fingerprint(line: str) -> str:
    return asyncssh.import_public_key(line).get_fingerprint()


def test_list_on_a_fresh_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert users(tmp_path / "data", "list") == 0
    assert capsys.readouterr().out == "No users yet.\n"
    assert not (tmp_path / "data").exists()
    assert users(tmp_path, "list") == 0  # an existing empty folder
    assert capsys.readouterr().out == "No users yet.\n"


@pytest.fixture(params=["folder", "postgresql"])
def arcade(request, tmp_path: Path):
    """(the command's store options, a function opening that store): a data folder or a database."""
    if request.param == "folder":
        yield ["--data-dir", str(tmp_path)], lambda: Store(tmp_path)
        return
    url = request.getfixturevalue("postgres_server").new_database()
    opened = []

    def opener():
        opened.append(open_store(url))
        return opened[-1]
    yield ["--store", url], opener
    for store in opened:
        store.close()


def test_bind_list_unbind(arcade, key_line: str, capsys: pytest.CaptureFixture[str]) -> None:
    where, opened = arcade
    store = opened()
    store.register("Alan")
    store.register("Bob")
    assert cli.main(["users", "bind", "alan", "--key", key_line, *where]) == 0
    assert f"{fingerprint(key_line)} now signs in as Alan." in capsys.readouterr().out
    assert opened().user_for_key(fingerprint(key_line)).name == "Alan"  # type: ignore[union-attr]
    assert cli.main(["users", "bind", "Bob", "--key", key_line, *where]) == 2
    assert "This key already belongs to Alan." in capsys.readouterr().err

    assert cli.main(["users", "list", *where]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["Name", "Score", "Games", "Keys"]
    assert lines[1].split() == ["Alan", "0", "0", fingerprint(key_line)]
    assert lines[2].startswith("Bob") and "(none: registered locally" in lines[2]

    assert cli.main(["users", "unbind", "Alan", fingerprint(key_line), *where]) == 0
    assert opened().user_for_key(fingerprint(key_line)) is None


def test_an_unreachable_database_says_so_and_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["users", "list", "--store", "postgresql://nobody@127.0.0.1:1/none"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("wom-tui users list: cannot use the database: postgresql://nobody@127.0.0.1:1/none")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["bind", "Zed", "--key", "KEY"], "there is no user called 'Zed'"),
        (["bind", "Alan", "--key", "ssh-ed25519 not-base64!"], "not an SSH public key"),
        (["bind", "Alan", "--key", ""], "the key is empty"),
        (["bind", "Alan", "--key", "-----BEGIN OPENSSH PRIVATE KEY-----"], "that is a private key"),
        (["bind", "Bob", "--key", "KEY"], "This key already belongs to Alan."),
        (["unbind", "Alan", "SHA256:nope"], "A key fingerprint looks like SHA256:"),
        (["unbind", "Bob", "FINGERPRINT"], "Bob holds no key"),
        (["unbind", "Zed", "FINGERPRINT"], "there is no user called 'Zed'"),
    ],
)
def test_bad_input_says_why_exits_2_and_writes_nothing(
    tmp_path: Path, key_line: str, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    store = Store(tmp_path)
    store.register("Alan", key=fingerprint(key_line))
    store.register("Bob")
    before = snapshot(tmp_path)
    argv = [key_line if arg == "KEY" else fingerprint(key_line) if arg == "FINGERPRINT" else arg for arg in argv]
    assert users(tmp_path, *argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert snapshot(tmp_path) == before


def test_bad_input_on_a_fresh_folder_creates_no_users_file(tmp_path: Path, key_line: str, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "data"
    assert users(folder, "bind", "Alan", "--key", key_line) == 2
    assert "there is no user called 'Alan'" in capsys.readouterr().err
    assert not folder.exists()


def test_a_missing_argument_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        users(tmp_path, "bind", "Alan")
    assert exited.value.code == 2
    assert "--key" in capsys.readouterr().err
