"""`wom-tui users ban|unban|bans|retire` on both stores: what the operator reads, and bad input that changes
nothing (one line, status 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from wom_tui import cli

from tests.test_users_cli import arcade  # noqa: F401 - the fixture: a data folder or a database

FP = "SHA256:" + "Q" * 43


def users(options: list[str], *argv: str) -> int:
    return cli.main(["users", *argv, *options])


def test_ban_list_unban_and_retire(arcade, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    options, opener = arcade
    store = opener()
    store.register("Alan", key=FP)
    store.register("Grace")
    assert users(options, "bans") == 0
    assert capsys.readouterr().out == "No bans in force.\n"
    assert users(options, "ban", "alan", "--for", "7d", "--reason", "rude words") == 0
    said = capsys.readouterr().out
    assert said.startswith("Banned name Alan until ") and "wom-tui users unban " in said
    assert users(options, "ban", "2001:db8::1/64") == 0
    assert users(options, "retire", "grace", "--reason", "asked to leave") == 0
    capsys.readouterr()
    assert users(options, "bans") == 0
    listing = capsys.readouterr().out.splitlines()
    assert listing[0].split() == ["Id", "Kind", "Target", "Until", "Reason"]
    assert "name" in listing[1] and "Alan" in listing[1] and "rude words" in listing[1]
    assert "2001:db8::/64" in listing[2] and "for good" in listing[2]
    assert listing[-2:] == ["Retired names:", listing[-1]] and "Grace" in listing[-1] and "asked to leave" in listing[-1]
    ban_id = listing[2].split()[0]
    assert users(options, "unban", ban_id) == 0
    assert capsys.readouterr().out == f"Lifted ban {ban_id} of address 2001:db8::/64.\n"
    assert [ban.target for ban in opener().bans()] == ["Alan"]


@pytest.mark.parametrize("argv, says", [
    (("ban", "Bob"), "no user called 'Bob'"),
    (("ban", "Alan", "--for", "forever"), "is not a duration"),
    (("ban", "Alan", "--for", "0m"), "more than 0 seconds"),
    (("ban", "10.0.0.0/33"), "neither an address"),
    (("ban", "SHA256:nope"), "A key fingerprint looks like"),
    (("ban", "Alan", "--reason", "\x1b[31mred"), "one line of printable text"),
    (("unban", "Alan"), "no ban has the id or target"),
    (("retire", "Bob"), "no user called 'Bob'"),
])
def test_bad_input_says_one_line_and_writes_nothing(arcade, capsys, argv, says) -> None:  # noqa: F811
    options, opener = arcade
    opener().register("Alan")
    before = (opener().bans(), opener().retired())
    assert users(options, *argv) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1 and err.startswith(f"wom-tui users {argv[0]}: ")
    assert (opener().bans(), opener().retired()) == before


def test_nothing_to_ban_in_a_folder_that_does_not_exist(tmp_path: Path, capsys) -> None:
    assert users(["--data-dir", str(tmp_path / "none")], "ban", "Alan") == 2
    assert "no arcade" in capsys.readouterr().err
    assert not (tmp_path / "none").exists()
