"""The terminal's cursor sits on the focused widget, so that a braille display or a screen reader (which
follow the hardware cursor) follow the focus (issue 36; docs/play.md, *Playing without seeing the screen*).

In a test app the cursor's place is Textual's own state, ``app.cursor_position``, which the app sets as it
writes each frame; one test reads a real terminal's bytes instead (the cursor shown and moved there).
"""

from __future__ import annotations

import os
import re
import select
import sys
import time

from textual.geometry import Offset
from textual.widgets import Input, OptionList

from wom_tui.screens.menu import MenuScreen
from wom_tui.screens.register import RegisterScreen
from wom_tui.widgets.peg_input import PegInput

from .conftest import wait_for
from .test_solo import open_setup, start_game


async def placed(pilot, expected: Offset | None = None) -> Offset:
    """Where the cursor is once the next frame is written (a test app draws only a screen's first frame
    unless told: tests/conftest.py; none while keys typed together are still landing); with ``expected``,
    once it is there (or after the wait's guard, where it is then: the assertion then says where)."""
    app = pilot.app
    await wait_for(pilot, lambda: not app._batch_count)
    app._test_frame_drawn = None
    app.screen.refresh()
    await pilot.pause()
    await pilot.pause()
    if expected is not None:
        deadline = time.monotonic() + 10
        while app.cursor_position != expected and time.monotonic() < deadline:
            app._test_frame_drawn = None
            app.screen.refresh()
            await pilot.pause()
    return app.cursor_position


async def test_the_cursor_follows_the_focus(app) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen) and app.focused is not None)
        menu = app.screen.query_one("#menu-options", OptionList)
        first = await placed(pilot, menu.content_region.offset)
        assert first == menu.content_region.offset, "on the menu's first line, where its words begin"
        await pilot.press("down", "down")
        assert await placed(pilot, first + (0, 2)) == first + (0, 2), "two lines down with the highlight"
        await pilot.press("end")
        assert await placed(pilot, first + (0, menu.option_count - 1)) == first + (0, menu.option_count - 1)

        await pilot.press("home", "r")  # Register: a text field, the cursor at its caret
        await wait_for(pilot, lambda: isinstance(app.screen, RegisterScreen) and isinstance(app.focused, Input))
        field = app.focused
        await pilot.press(*"Alan")
        assert await placed(pilot, field.content_region.offset + (4, 0)) == field.content_region.offset + (4, 0), "after the four letters typed"
        await pilot.press("left", "left")
        assert await placed(pilot, field.content_region.offset + (2, 0)) == field.content_region.offset + (2, 0)

        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        await open_setup(pilot)
        screen = await start_game(pilot)
        entry = screen.query_one(PegInput)
        await wait_for(pilot, lambda: app.focused is entry)
        slots = entry._slot_widgets
        assert await placed(pilot, slots[0].region.offset) == slots[0].region.offset, "on the code's first slot"
        await pilot.press("r", "g")
        assert await placed(pilot, slots[2].region.offset) == slots[2].region.offset, "on the slot the next symbol goes to"
        await pilot.press("home")
        assert await placed(pilot, slots[0].region.offset) == slots[0].region.offset


async def test_the_cursor_can_be_hidden_and_that_is_remembered(make_app, store) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen) and app.focused is not None)
        assert not app.cursor_hidden()
        await pilot.press("ctrl+p", *"Terminal cursor")
        await wait_for(pilot, lambda: "Terminal cursor" in str(app.screen.query("CommandList").first().get_option_at_index(0).prompt)
                       if app.screen.query("CommandList") and app.screen.query("CommandList").first().option_count else False)
        await pilot.press("enter")
        await wait_for(pilot, app.cursor_hidden)
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen) and app.focused is app.screen.query_one("#menu-options"))
        assert await placed(pilot, app.screen.query_one("#menu-options").content_region.offset) == app.screen.query_one("#menu-options").content_region.offset, \
            "hidden, it is still placed on the focus (a screen reader reads the place)"
        assert store.choices("local", "display") == {"cursor": "hidden"}
    again = make_app()
    async with again.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, again.cursor_hidden, message="the next session remembers it")


def test_a_terminal_sees_the_cursor_shown_on_the_focus(tmp_path) -> None:
    """``wom-tui`` on a real terminal (a pty): the cursor is shown (``ESC [?25h``) and moved to the menu's
    highlighted line; ``o`` opens the solo setup and it moves to its first field.
    """
    data = tmp_path / "data"
    pid, fd = os.forkpty()
    if pid == 0:  # the child: the game, as a player starts it
        os.environ["TERM"] = "xterm-256color"
        os.environ["COLUMNS"], os.environ["LINES"] = "80", "24"
        os.execv(sys.executable, [sys.executable, "-m", "wom_tui", "--data-dir", str(data), "--seed", "1"])
    import fcntl
    import struct
    import termios

    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    seen = bytearray()

    def read_until(found, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while not found(bytes(seen)):
            assert time.monotonic() < deadline, f"not seen: {bytes(seen)[-400:]!r}"
            ready, _, _ = select.select([fd], [], [], 0.5)
            if ready:
                seen.extend(os.read(fd, 65536))

    def moves(data: bytes) -> list[tuple[int, int]]:
        return [(int(row), int(column)) for row, column in re.findall(rb"\x1b\[(\d+);(\d+)H", data)]

    try:
        read_until(lambda data: b"\x1b[?25h" in data and b"Register" in data)
        shown_at = bytes(seen).rindex(b"\x1b[?25h")
        assert moves(bytes(seen)[:shown_at])[-1] == (9, 23), "the menu's first line, where its words begin"
        menu_end = len(seen)
        os.write(fd, b"o")
        # The solo setup's first choice (a failure prints the bytes seen).
        read_until(lambda data: moves(data[menu_end:])[-1:] == [(7, 15)])
        assert b"\x1b[?25l" not in bytes(seen)[shown_at:], "still shown"
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        os.close(fd)
