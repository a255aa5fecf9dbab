"""Moderation over real SSH (docs/serve.md, *Moderating the arcade*): a banned client is turned away at sign-in
with one line (the reason, and until when), a banned player already connected is ended with the same line, on
every server sharing the store; an address range turns guests away; a retired name's keys stop signing in."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from wom_tui import cli
from wom_tui.domain.store import open_store

from .conftest import until
from .sshterm import MENU_TEXT, WAIT, connect, new_key, open_terminal


def _users(options: list[str], *argv: str) -> int:
    return cli.main(["users", *argv, *options])


@pytest.fixture(params=["folder", "postgresql"])
def arcade(request, tmp_path: Path):
    """(server settings for each of the servers, the CLI's store options, the store's location)."""
    if request.param == "folder":
        data = tmp_path / "data"
        return [{"data_dir": data}], ["--data-dir", str(data)], str(data)
    url = request.getfixturevalue("postgres_server").new_database()
    # Two servers on one database, each with a data folder of its own (only its host key is kept there).
    return ([{"data_dir": tmp_path / "host1", "store": url}, {"data_dir": tmp_path / "host2", "store": url}],
            ["--store", url], url)


async def _menu(server, key=None):
    conn = await connect(server, "alan", key)
    terminal = await open_terminal(conn)
    await terminal.wait_for_text(MENU_TEXT)
    return conn, terminal


async def test_a_ban_ends_every_open_session_of_that_key_and_turns_it_away_at_sign_in(start_server, arcade) -> None:
    settings, options, location = arcade
    key = new_key()
    store = open_store(location)
    store.register("Alan", key=key.get_fingerprint())
    store.close()
    servers = [await start_server(**each) for each in settings]
    opened = [await _menu(server, key) for server in servers]
    guest_conn, guest = await _menu(servers[0])  # someone else, untouched by the ban

    assert await asyncio.to_thread(_users, options, "ban", "alan", "--for", "2h", "--reason", "rude words") == 0
    for conn, terminal in opened:
        await terminal.wait_until(lambda t: t.closed.is_set() and "rude words" in t.text)
        assert "You are banned from this arcade until" in terminal.text
        conn.close()
    for server in servers:
        await until(lambda: len(server.sessions) == 1 if server is servers[0] else not server.sessions)
    assert not guest.closed.is_set() and MENU_TEXT in guest.text

    for server in servers:  # and a new sign-in of that key is refused with the same line, no game started
        conn = await connect(server, "alan", key)
        terminal = await open_terminal(conn)
        await asyncio.wait_for(terminal.closed.wait(), WAIT)
        assert "You are banned from this arcade until" in terminal.text and "rude words" in terminal.text
        assert MENU_TEXT not in terminal.text
        conn.close()

    assert await asyncio.to_thread(_users, options, "unban", "Alan") == 0
    await until(lambda: servers[-1].moderation.refusal(key.get_fingerprint(), "127.0.0.1") is None)
    conn, terminal = await _menu(servers[-1], key)  # lifted: in again
    conn.close()
    guest_conn.close()


async def test_an_address_range_turns_guests_away_and_a_retired_name_stops_signing_in(start_server, arcade) -> None:
    settings, options, location = arcade
    key = new_key()
    store = open_store(location)
    store.register("Grace", key=key.get_fingerprint())
    store.close()
    server = await start_server(**settings[0])
    guest_conn, guest = await _menu(server)

    assert await asyncio.to_thread(_users, options, "ban", "127.0.0.0/8", "--reason", "closed to this network") == 0
    await guest.wait_until(lambda t: t.closed.is_set() and "closed to this network" in t.text)
    assert "for good" in guest.text
    guest_conn.close()
    assert await asyncio.to_thread(_users, options, "unban", "127.0.0.1/8") == 0

    assert await asyncio.to_thread(_users, options, "retire", "grace", "--reason", "asked to leave") == 0
    # (Until the server has read both the unban and the retirement: the range's ban line came first.)
    await until(lambda: "retired" in (server.moderation.refusal(key.get_fingerprint(), "127.0.0.1") or ""))
    conn = await connect(server, "grace", key)
    terminal = await open_terminal(conn)
    await asyncio.wait_for(terminal.closed.wait(), WAIT)
    assert "The name Grace is retired: asked to leave" in terminal.text
    conn.close()
    conn, terminal = await _menu(server)  # the range was lifted: guests come in again
    conn.close()
