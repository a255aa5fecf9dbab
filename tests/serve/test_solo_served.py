"""A signed-in player's solo game over real SSH: played as them by default, kept, and offered again as a
dialog over the menu when they come back (docs/play.md, *Resume*)."""

from __future__ import annotations

import pytest

from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.serve.server import GameServer

from .conftest import session_ended, until
from .sshterm import MENU_TEXT, connect, new_key, newest_session, open_terminal

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def test_a_signed_in_burst_plays_as_them_and_the_game_is_offered_over_the_menu(shared_server: GameServer) -> None:
    server = shared_server
    key = new_key()
    store = Store(server.settings.data_dir)
    store.register("Solveig", key=key.get_fingerprint())
    conn = await connect(server, key=key)
    terminal = await open_terminal(conn)
    await terminal.wait_for_text(MENU_TEXT)
    terminal.type("op1234\r")  # solo setup, play, a guess: one burst
    await terminal.wait_for_text("Guess #2 of")
    kept = Store(server.settings.data_dir).solo_in_progress("user:solveig")
    assert kept is not None and (kept["player"], kept["is_user"]) == ("Solveig", True)
    assert "Solveig ·" in terminal.text  # the game's info line names the player, not Guest
    session = newest_session(server)
    conn.close()  # the terminal goes away mid-game
    await session_ended(server, session)

    again = await open_terminal(await connect(server, key=key))
    await again.wait_for_text("Resume your game?")
    await again.wait_until(lambda t: "Later" in t.lines[-1] and "W O R L D   O F" in t.text)
    # A dialog in the middle, over the menu (whose text shows around it), with its keys in the footer.
    row = next(i for i, line in enumerate(again.lines) if "Resume your game?" in line)
    line = again.lines[row]
    left = line.index("Resume your game?")
    right = len(line) - left - len("Resume your game?")
    assert 5 < row < 18 and abs(left - right) <= 2, (row, line)
    again.type("\r")
    await again.wait_for_text("Resumed where you left it")
    await until(lambda: "Guess #1: 1234" in again.text)
    assert again.chan is not None
    again.chan.get_extra_info("connection").close()


async def test_over_ssh_the_terminal_cursor_is_shown_on_the_focus(shared_server: GameServer) -> None:
    """A braille display follows the hardware cursor (issue 36): over SSH it is shown, on the menu's
    highlighted line, then on the solo game's code entry as the game opens."""
    conn = await connect(shared_server)
    terminal = await open_terminal(conn)
    await terminal.wait_for_text(MENU_TEXT)

    def at_cursor(t) -> str:
        cursor = t.screen.cursor
        return t.lines[cursor.y][cursor.x:]

    # At the start of the first line, as a whole frame leaves it: read between two chunks of a later frame (a
    # repaint under way), the cursor is wherever that frame is being written.
    await terminal.wait_until(lambda t: not t.screen.cursor.hidden and at_cursor(t).lstrip().startswith("r   Register"))
    terminal.type("op")
    await terminal.wait_for_text("Guess #1 of")
    # On the code's first slot (an empty slot shows " · "), in the entry below the board; a symbol typed, on the next.
    await terminal.wait_until(lambda t: at_cursor(t).startswith(" ·   ·   ·   ·"))
    terminal.type("1")

    def on_the_second_slot(t) -> bool:
        # Judged on the line as it stands, not on the first slot's column read before: the entry may be laid
        # out again (moved) between the two frames, and the cursor must follow it there too.
        cursor = t.screen.cursor
        line = t.lines[cursor.y]
        return cursor.x >= 4 and line[cursor.x:].startswith(" ·   ·   ·") \
            and not line[cursor.x:].startswith(" ·   ·   ·   ·") and line[cursor.x - 4:cursor.x - 1] != " · "

    await terminal.wait_until(lambda t: on_the_second_slot(t) and not t.screen.cursor.hidden)
    conn.close()



async def test_one_connection_plays_each_variant_in_a_row(shared_server: GameServer) -> None:
    """Quad, Devious, Strict and Liar chosen with the keys in the solo setup and played one after the other on
    one SSH connection (docs/play.md, *Variants*; the walk is tests/serve/variant_walk.py)."""
    from .variant_walk import KEYS, play_each_variant

    server = shared_server
    key = new_key()
    store = Store(server.settings.data_dir)
    store.register("Vera", key=key.get_fingerprint())
    store.set_choices("user:vera", "solo", {"palette": "wom"})  # 4 × Classic, as she chose last time
    conn = await connect(server, key=key)
    terminal = await open_terminal(conn)
    await terminal.wait_for_text(MENU_TEXT)

    async def send(*keys: str) -> None:
        terminal.type("".join(KEYS.get(k, k) for k in keys))

    await play_each_variant(terminal, send, lambda: store.solo_in_progress("user:vera"))
    conn.close()
