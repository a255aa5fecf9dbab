"""Minimal reproduction for a report to Textual: the terminal's cursor does not follow the focus.

Screen readers and braille displays follow the hardware cursor. A bare Textual app (nothing of wom-tui)
with an Input, a Button and an OptionList runs on a pseudo-terminal (80×24); this reads what Textual writes
to the terminal and reports, for each step, where it leaves the cursor and whether it is shown:

1. Textual hides the cursor as it starts (``ESC [?25l``) and never shows it again;
2. with ``abc`` typed in the Input, the cursor is one cell past the caret drawn after the ``c``
   (``Input.cursor_screen_offset`` adds the cell kept free for the caret to the caret);
3. as the app starts, the Input focused, the cursor is at the Input's corner (it set the place on focus,
   before it was laid out);
4. Tab to the Button, and Tab to the OptionList, and ↓ there: the cursor stays where the Input left it
   (only Input and TextArea set ``App.cursor_position``).

wom-tui's workaround is ``wom_tui/patches/cursor.py``.

    .venv/bin/python bench/upstream/focus_cursor.py
"""

from __future__ import annotations

import argparse
import json
import tempfile
import fcntl
import os
import re
import select
import struct
import sys
import termios
import time


def child() -> None:
    from textual.app import App, ComposeResult
    from textual.widgets import Button, Input, OptionList

    class Bare(App[None]):
        CSS = "Input, Button, OptionList { margin: 1 4; }"

        def compose(self) -> ComposeResult:
            yield Input(id="field")
            yield Button("Press me", id="button")
            yield OptionList("first", "second", "third", id="list")

        def on_mount(self) -> None:
            self.query_one(Input).cursor_blink = False
            self.call_after_refresh(self.tell_places)

        def tell_places(self) -> None:
            # Where each widget's content begins (1-based row, column), for the parent to compare.
            places = {widget.id: (widget.content_region.y + 1, widget.content_region.x + 1)
                      for widget in self.query("Input, Button, OptionList")}
            target = os.environ["FOCUS_CURSOR_PLACES"]
            with open(target + ".tmp", "w") as out:
                json.dump(places, out)
            os.replace(target + ".tmp", target)  # whole, or not there yet

    Bare().run()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.child:
        child()
        return
    import textual

    places_file = tempfile.NamedTemporaryFile(suffix=".json", delete=False).name
    pid, fd = os.forkpty()
    if pid == 0:
        os.environ["TERM"] = "xterm-256color"
        os.environ["FOCUS_CURSOR_PLACES"] = places_file
        os.execv(sys.executable, [sys.executable, __file__, "--child"])
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    seen = bytearray()

    def settle(quiet: float = 0.4, limit: float = 20.0) -> bytes:
        """Read until the app writes nothing for ``quiet`` seconds; what came in that time."""
        start = len(seen)
        deadline = time.monotonic() + limit
        last = time.monotonic()
        while time.monotonic() - last < quiet and time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                seen.extend(os.read(fd, 65536))
                last = time.monotonic()
        return bytes(seen[start:])

    def cursor() -> str:
        moves = re.findall(rb"\x1b\[(\d+);(\d+)H", bytes(seen))
        shown = bytes(seen).rfind(b"\x1b[?25h") > bytes(seen).rfind(b"\x1b[?25l")
        row, column = moves[-1] if moves else (b"?", b"?")
        return f"row {int(row)}, column {int(column)} ({'shown' if shown else 'hidden'})"

    print(f"Textual {textual.__version__}, 80x24 pty")
    try:
        deadline = time.monotonic() + 60
        while not os.path.getsize(places_file):  # the app laid out (however slow the machine is)
            assert time.monotonic() < deadline, "the bare app did not start"
            settle(quiet=0.1, limit=0.5)
        settle()
        with open(places_file) as found:
            places = json.load(found)
        row, column = places["field"]
        print(f"started, the Input focused: {cursor()}  (its caret: row {row}, column {column})")
        os.write(fd, b"abc")
        settle()
        print(f"'abc' typed:                {cursor()}  (the caret drawn after 'c': row {row}, column {column + 3})")
        os.write(fd, b"\t")
        settle()
        row, column = places["button"]
        print(f"Tab to the Button:          {cursor()}  (its label's line: row {row})")
        os.write(fd, b"\t")
        settle()
        row, column = places["list"]
        print(f"Tab to the OptionList:      {cursor()}  (its first option: row {row}, column {column})")
        os.write(fd, b"\x1b[B")
        settle()
        print(f"down to its second option:  {cursor()}  (row {row + 1}, column {column})")
    finally:
        os.unlink(places_file)
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        os.close(fd)


if __name__ == "__main__":
    main()
