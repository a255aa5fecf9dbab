"""What a client types that is not a key: bytes that are not UTF-8 are data, and whatever fails in a served
game (its input thread included) goes to the server's log under the session's number, while the player
reads only the short apology."""

from __future__ import annotations

import logging
import sys

import pytest

from wom_tui.serve.server import GameServer

from .conftest import until
from .sshterm import MENU_TEXT, ServerFactory, connect, new_key, newest_session, open_terminal

APOLOGY = "Sorry, something went wrong in the game and it had to stop."

shared = pytest.mark.asyncio(loop_scope="module")


@shared
async def test_bytes_that_are_not_utf8_at_the_menu_end_nothing(shared_server: GameServer) -> None:
    conn = await connect(shared_server)
    try:
        terminal = await open_terminal(conn)
        await terminal.wait_for_text(MENU_TEXT)
        for typed in (b"\xff", b"\xc0", b"\xc0\xff\xfe", b"\xe2\x82"):
            terminal.type(typed)
        terminal.type("o")  # the menu still takes keys: the solo game's setup, then its first guess
        await terminal.wait_for_text("Solo game")
        terminal.type("p")
        await terminal.wait_for_text("Guess #1")
        shown = terminal.raw.decode("utf-8", "replace")
        assert "Traceback" not in shown and "wom_tui" not in shown and APOLOGY not in shown
        assert not terminal.closed.is_set()
    finally:
        conn.close()


def _warm(patch: str) -> tuple[str, ...]:
    """A warm parent whose games are the real game with ``patch`` applied first."""
    return (sys.executable, "-c", f"{patch}\nfrom wom_tui.serve.forkserver import main\nsys.exit(main(sys.argv[1:]))")


_FAILING_PARSER = """
import sys
from textual import _xterm_parser

class FailingParser(_xterm_parser.XTermParser):
    def feed(self, data):
        if "\\x07" in data:
            raise RuntimeError("the input thread fails on Ctrl-G")
        return super().feed(data)

{where}.XTermParser = FailingParser
"""

QUIET_DRIVER_FAILS = _warm("import wom_tui.patches.driver\n" + _FAILING_PARSER.format(where="wom_tui.patches.driver"))
"""Games whose input thread (ours) fails on Ctrl-G."""
TEXTUALS_DRIVER_FAILS = _warm(
    "import wom_tui.app, textual.drivers.linux_driver as linux_driver\n"
    "wom_tui.app.WomApp.get_driver_class = lambda self: linux_driver.LinuxDriver\n"
    + _FAILING_PARSER.format(where="linux_driver")
)
"""Games on Textual's own driver (as on a Textual ours was not measured on), whose input thread fails on Ctrl-G."""


@pytest.mark.parametrize("warm_command", [QUIET_DRIVER_FAILS, TEXTUALS_DRIVER_FAILS], ids=["quiet-driver", "textuals-driver"])
async def test_a_failing_input_thread_is_logged_under_the_session_and_the_player_reads_the_apology(
    start_server: ServerFactory, caplog: pytest.LogCaptureFixture, warm_command: tuple[str, ...]
) -> None:
    caplog.set_level(logging.INFO, logger="wom_tui.serve")
    server = await start_server(warm_command=warm_command)
    terminal = await open_terminal(await connect(server, key=new_key()))
    await terminal.wait_for_text(MENU_TEXT)
    label = newest_session(server).label
    terminal.type(b"\x07")
    await terminal.wait_closed()
    shown = " ".join(terminal.raw.decode("utf-8", "replace").split())
    assert APOLOGY in shown
    assert "Traceback" not in shown and "RuntimeError" not in shown and "wom_tui" not in shown and "/" not in shown.split(APOLOGY)[-1]
    await until(lambda: "the input thread fails on Ctrl-G" in caplog.text)
    failure = [r.getMessage() for r in caplog.records if "RuntimeError: the input thread fails" in r.getMessage()]
    assert failure and all(line.startswith(f"{label}: game: ") for line in failure)


A_THREAD_FAILS = _warm(
    "import sys, threading, wom_tui.app as app\n"
    "mount = app.WomApp.on_mount\n"
    "def on_mount(self):\n"
    "    mount(self)\n"
    "    threading.Thread(target=lambda: 1 / 0, name='doomed').start()\n"
    "app.WomApp.on_mount = on_mount\n"
)


async def test_a_failing_thread_is_logged_and_never_drawn_on_the_players_screen(
    start_server: ServerFactory, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="wom_tui.serve")
    server = await start_server(warm_command=A_THREAD_FAILS)
    terminal = await open_terminal(await connect(server))
    await terminal.wait_for_text(MENU_TEXT)
    label = newest_session(server).label
    await until(lambda: "ZeroDivisionError" in caplog.text)
    assert any(r.getMessage().startswith(f"{label}: game: ") and "doomed" in r.getMessage() for r in caplog.records)
    terminal.type("op")  # the game goes on
    await terminal.wait_for_text("Guess #1")
    shown = terminal.raw.decode("utf-8", "replace")
    assert "Traceback" not in shown and "ZeroDivisionError" not in shown
