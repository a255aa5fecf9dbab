"""Minimal reproductions for reports to Textual: keys that reach a widget while it closes or before it is laid out.

A bare Textual app (nothing of wom-tui) and the keys sent in one burst, as a terminal (or one SSH
packet) delivers them: every event is queued before the first is handled. Each case prints whether
the app crashed and with what. wom-tui works around all three (``patches/palette.py``,
``patches/select.py``, ``patches/screens.py``); they were found by the random run (bench/fuzz.py).

1. Command palette, ``ctrl+p`` then two Enters after typing a command's name: the second Enter selects
   again before the first selection is handled, the palette dismisses itself twice, and the second
   ``dismiss`` pops the screen under it (``ScreenStackError`` when that was the last one).
2. Command palette, ``ctrl+p`` then Page Down: ``OptionList._move_page`` runs before the list has been
   laid out and raises ``KeyError: 0`` (timing-dependent: most runs on the 2-core machine; always with a
   terminal too short to show a line of the list).
3. A screen holding a ``Select`` popped right after it is pushed: the Select's mount handler runs
   after its overlay has been removed and raises ``NoMatches`` for ``SelectOverlay``.
4. Keys queued behind the quit key (``q`` then ``v`` then Down in one burst): Textual goes on handling
   them while it closes the screens; ``v`` opens a screen on the closing app and Down reaches a Select
   whose parts are gone (``NoMatches``), or a key finds no screen at all (``ScreenStackError``).

    .venv/bin/python bench/upstream/textual_races.py [--case NAME ...]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import unicodedata

import textual
from textual import events
from textual.app import App, ComposeResult
from textual.keys import _character_to_key, _get_unicode_name_from_key
from textual.screen import Screen
from textual.widgets import Label, Select


def burst(app: App[None], *keys: str) -> None:
    """Queue every key at once, without letting the app run in between."""
    assert app._driver is not None
    for key in keys:
        name = _character_to_key(key) if len(key) == 1 and not key.isalnum() else key
        try:
            character: str | None = unicodedata.lookup(_get_unicode_name_from_key(name))
        except KeyError:
            character = key if len(key) == 1 else None
        event = events.Key(name, character)
        event.set_sender(app)
        app._driver.send_message(event)


class WithSelect(Screen[None]):
    AUTO_FOCUS = "Select"

    def compose(self) -> ComposeResult:
        yield Select([("one", 1), ("two", 2)], value=1)
        yield Label("chosen: one", id="chosen")

    def on_mount(self) -> None:
        self.query_one("#chosen", Label)  # what a screen's mount handler typically does


class Bare(App[None]):
    BINDINGS = [("q", "quit", "Quit"), ("v", "open", "Open")]

    def action_open(self) -> None:
        self.push_screen(WithSelect())

    def compose(self) -> ComposeResult:
        yield Label("main")


async def run(case: str) -> str:
    app = Bare()
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            if case == "palette-enter-enter":
                burst(app, "ctrl+p", *"keys", "enter", "enter")
            elif case == "palette-pagedown":
                burst(app, "ctrl+p", "pagedown")
            elif case == "keys-behind-quit":
                burst(app, "q", "v", "down")
            else:
                for ticks in range(12):
                    app.push_screen(WithSelect())
                    for _ in range(ticks):
                        await asyncio.sleep(0)
                    app.pop_screen()
                    await pilot.pause()
            for _ in range(10):
                await pilot.pause()
            stack = [type(screen).__name__ for screen in app.screen_stack]
    except Exception as error:  # noqa: BLE001 - the crash is what is reported
        return f"crash: {type(error).__name__}: {error}"
    return f"no crash (screens: {stack})"


CASES = ("palette-enter-enter", "palette-pagedown", "select-left-mid-mount", "keys-behind-quit")


async def main(cases: list[str]) -> None:
    """Run each case in a fresh bare app and print what happened."""
    print(f"Textual {textual.__version__}, Python {sys.version.split()[0]}")
    for case in cases:
        print(f"{case}: {await run(case)}", flush=True)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line: which cases to run (all by default)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--case", action="append", choices=CASES, dest="cases",
                        help="run only this case (repeat for more; default: all four)")
    return parser.parse_args(argv)


if __name__ == "__main__":
    asyncio.run(main(parse_args().cases or list(CASES)))
