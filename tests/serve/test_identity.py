"""Who you are over SSH: every name belongs to a key, guests play without one.

All tests here share one server (and its data folder); each uses its own keys and names.
"""

from __future__ import annotations

import re

import asyncssh
import pytest

from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.serve.server import GameServer

from .sshterm import (
    MENU_TEXT,
    REGISTER_TEXT,
    Impostor,
    Terminal,
    connect,
    game_fingerprint,
    new_key,
    newest_session,
    open_terminal,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

CODE = re.compile(r"\b([A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4})\b")


async def menu(server: GameServer, key: asyncssh.SSHKey | None = None, **options: object) -> Terminal:
    terminal = await open_terminal(await connect(server, key=key, **options))
    await terminal.wait_for_text(MENU_TEXT)
    return terminal


def badge(terminal: Terminal) -> str:
    """The name in the top-right corner (after whatever frame the screen draws on that row)."""
    return re.split(r"[─╭╮│]", terminal.lines[0])[-1].strip()


def users_json(server: GameServer) -> bytes:
    return (server.settings.data_dir / "users.json").read_bytes()


async def register_as(server: GameServer, key: asyncssh.SSHKey, name: str) -> None:
    terminal = await menu(server, key)
    await terminal.register(name)
    await terminal.wait_for_text(f"Welcome, {name}! This key now signs in as {name}.")
    assert terminal.chan is not None
    terminal.chan.get_extra_info("connection").close()


async def test_a_name_registered_with_a_key_signs_in_with_that_key_only(shared_server: GameServer) -> None:
    server = shared_server
    alan_key, other_key = new_key(), new_key()
    await register_as(server, alan_key, "Alan")
    assert Store(server.settings.data_dir).user("Alan").keys == (alan_key.get_fingerprint(),)  # type: ignore[union-attr]

    again = await menu(server, alan_key, username="whoever")
    await again.wait_for_text("Welcome back, Alan!")
    assert badge(again) == "Alan"
    again.type("o")  # the name stays in the corner on every screen
    await again.wait_for_text("Solo game")
    assert badge(again) == "Alan"

    stranger = await menu(server, other_key, username="Alan")  # the SSH user name means nothing
    await stranger.wait_for_text("New here? Register a name (r)")
    assert "Alan" not in stranger.text
    stranger.type("p")
    await stranger.wait_for_text("Over SSH you play as yourself")
    assert "Alan" not in stranger.text
    stranger.type("\x1b")
    await stranger.wait_for_text(MENU_TEXT)
    await stranger.register("aLAN")
    await stranger.wait_for_text("Sorry, the name is already taken.")
    assert [user.name for user in Store(server.settings.data_dir).users()].count("Alan") == 1


async def test_offering_someone_elses_key_unsigned_then_signing_with_your_own_is_you(shared_server: GameServer) -> None:
    server = shared_server
    victim, attacker = new_key(), new_key()
    Store(server.settings.data_dir).register("Vera", key=victim.get_fingerprint())

    terminal = await menu(server, key=None, client_keys=[Impostor(victim), attacker])
    await terminal.wait_for_text("New here? Register a name (r)")
    assert "Vera" not in terminal.text and badge(terminal) == "New player"
    told = game_fingerprint(newest_session(server))
    assert told == attacker.get_fingerprint() and told != victim.get_fingerprint()


async def test_a_failed_key_then_keyboard_interactive_is_a_guest(shared_server: GameServer) -> None:
    server = shared_server
    victim, attacker = new_key(), new_key()
    Store(server.settings.data_dir).register("Wanda", key=victim.get_fingerprint())

    for impostor in (Impostor(victim), Impostor(victim, signer=attacker)):
        terminal = await menu(server, key=None, client_keys=[impostor], password="")
        await terminal.wait_for_text("Playing as a guest")
        assert "Wanda" not in terminal.text and badge(terminal) == "Guest"
        session = newest_session(server)
        assert session.fingerprint is None and game_fingerprint(session) is None


async def test_linking_a_second_key_with_a_one_time_code(shared_server: GameServer) -> None:
    server = shared_server
    first, second, third = new_key(), new_key(), new_key()
    shower = await menu(server, first)
    await shower.register("Lin")
    await shower.wait_for_text("This key now signs in as Lin.")
    shower.type("\x1b")
    await shower.wait_for_text(MENU_TEXT)
    shower.type("k")
    await shower.wait_until(lambda t: CODE.search(t.text) is not None)
    code = CODE.search(shower.text).group(1)  # type: ignore[union-attr]

    typer = await menu(server, second)
    typer.type("k")
    await typer.wait_for_text("Type the one-time code")
    before = users_json(server)
    typer.type("ABCD-EFGH\r")
    await typer.wait_for_text("That code is wrong, used or expired.")
    assert users_json(server) == before
    typer.type("\x1b")
    await typer.wait_for_text(MENU_TEXT)
    typer.type("k")
    await typer.wait_until(lambda t: "Type the one-time code" in t.text and "wrong" not in t.text)
    typer.type(code.lower() + "\r")  # case does not matter
    await typer.wait_for_text("Done: this key now signs in as Lin.")
    assert badge(typer) == "Lin"
    lin = Store(server.settings.data_dir).user("Lin")
    assert lin is not None and lin.keys == (first.get_fingerprint(), second.get_fingerprint())

    reuser = await menu(server, third)
    reuser.type("k")
    await reuser.wait_for_text("Type the one-time code")
    before = users_json(server)
    reuser.type(code + "\r")
    await reuser.wait_for_text("That code is wrong, used or expired.")
    assert users_json(server) == before


async def test_a_guest_plays_solo_but_cannot_register(shared_server: GameServer) -> None:
    server = shared_server
    terminal = await menu(server)
    await terminal.wait_for_text("Playing as a guest")
    names_before = {user.name for user in Store(server.settings.data_dir).users()}
    terminal.type("r")
    await terminal.wait_for_text(REGISTER_TEXT)
    await terminal.wait_for_text("Guests play without a name")
    terminal.type("Gus\r")
    await terminal.wait_until(lambda t: t.text.count("Guests play without a name") == 1 and "Welcome" not in t.text)
    assert {user.name for user in Store(server.settings.data_dir).users()} == names_before
    terminal.type("\x1b")
    await terminal.wait_for_text(MENU_TEXT)
    terminal.type("o")
    await terminal.wait_for_text("Solo game")
    terminal.type("p")
    await terminal.wait_until(lambda t: "Guess" in t.text and "Solo game" not in t.lines[1])


async def test_the_name_field_on_the_players_screen_shows_each_edit(shared_server: GameServer) -> None:
    """Typing repaints the field's line of text alone (not its frame): every edit, mid-name ones too,
    must still reach the player's screen as it is, cursor and all, and the frame must stay drawn."""
    terminal = await menu(shared_server, new_key())
    terminal.type("r")
    await terminal.wait_for_text(REGISTER_TEXT)

    def field_row(t: Terminal) -> int | None:
        return next((y for y, line in enumerate(t.lines) if "▊  " in line), None)

    await terminal.wait_until(lambda t: field_row(t) is not None)
    row = field_row(terminal)
    assert row is not None
    start = terminal.lines[row].index("▊") + 3  # the text starts after the field's edge and padding

    def shows(t: Terminal, text: str, cursor: int) -> bool:
        """The field reads ``text``, with the cursor (the one cell drawn in another colour) at ``cursor``."""
        field = t.lines[row][start:].split("▎", 1)[0]
        cells = [t.screen.buffer[row][start + x] for x in range(len(field))]
        colours = [(cell.fg, cell.bg, cell.reverse) for cell in cells]
        odd = [x for x, colour in enumerate(colours) if colours.count(colour) == 1]
        return field.strip() == text and odd == [cursor]

    frame = [line for line in terminal.lines if "▔" in line or "▁" in line]
    # One edit at a time (each waited for): a key bound to an action and a character typed on its
    # heels can reach the field in the wrong order (Textual; not what this test is about).
    for keys, text, cursor in (
        ("Aln", "Aln", 3),
        ("\x1b[D", "Aln", 2),  # Left: the cursor moves, the text stays
        ("a", "Alan", 3),
        ("\x05", "Alan", 4),  # Ctrl+E: to the end
        ("!", "Alan!", 5),  # a character a name cannot hold is still shown as typed
        ("\x7f\x7f", "Ala", 3),
    ):
        terminal.type(keys)
        await terminal.wait_until(lambda t, text=text, cursor=cursor: shows(t, text, cursor))
    assert [line for line in terminal.lines if "▔" in line or "▁" in line] == frame


async def test_a_guess_typed_on_the_players_screen_shows_each_peg_and_the_current_slot(shared_server: GameServer) -> None:
    """A typed peg repaints its slots alone (not the whole guess box): each peg, and the underline of
    the current slot, must still reach the player's screen."""
    terminal = await menu(shared_server)
    terminal.type("o")
    await terminal.wait_for_text("Solo game")
    terminal.type("p")
    await terminal.wait_for_text("Guess #1")
    await terminal.wait_until(lambda t: any("Your guess" in line for line in t.lines))
    top = next(y for y, line in enumerate(terminal.lines) if "Your guess" in line)

    def guess(t: Terminal) -> tuple[list[str], int | None]:
        """The slots' symbols, and which slot is underlined."""
        slots, underline = t.lines[top + 1], t.lines[top + 2]
        symbols = [(x, char) for x, char in enumerate(slots) if x > 1 and char not in " │"][:4]
        mark = underline.find("━")
        current = next((i for i, (x, _) in enumerate(symbols) if x - 1 <= mark <= x + 1), None)
        return [char for _, char in symbols], current

    for keys, shown in (
        ("12", (["1", "2", "·", "·"], 2)),
        ("\x1b[D", (["1", "2", "·", "·"], 1)),  # Left: only the underline moves
        ("9", (["1", "9", "·", "·"], 2)),
    ):
        terminal.type(keys)
        await terminal.wait_until(lambda t, shown=shown: guess(t) == shown)
