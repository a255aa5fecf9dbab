"""Minimal reproduction for a report to Textual: styling that is done and then thrown away.

A bare Textual app (nothing of wom-tui) opens a screen of radio sets, as a setup form is, N times and
counts how often Textual applies the stylesheet to a widget, and how many of those applications were
to a widget not yet in the app (styled without its parents, so wrongly, then styled again as it
mounts). With Textual 8.2:

- ``DOMNode.update_node_styles`` runs for a widget whose classes change while it is being built in a
  ``compose`` (a RadioButton made pressed, a Select given a value, a FooterKey told it is compact);
- a new screen is styled whole as it mounts, again at its first resume (``ScreenResume``'s
  ``refresh_styles``), and again when its first resize sets its breakpoint classes.

``--fixed`` runs the same with wom-tui's workarounds (``wom_tui/patches/styling.py`` and what
``WomScreen`` does at its first resume and resize) to show what they save.

    .venv/bin/python bench/upstream/textual_styling.py [--opens 20] [--fixed]
"""

from __future__ import annotations

import argparse
import asyncio
import time
from typing import Any

import textual
from textual.app import App, ComposeResult
from textual.css.stylesheet import Stylesheet
from textual.screen import Screen
from textual.widgets import Label, RadioButton, RadioSet

COUNTS = {"applied": 0, "detached": 0}


def count_applications() -> None:
    """Count every application of the stylesheet, and those to a widget not in the app."""
    original = Stylesheet.apply

    def apply(self: Stylesheet, node: Any, *args: Any, **kwargs: Any) -> Any:
        COUNTS["applied"] += 1
        if not node.is_attached:
            COUNTS["detached"] += 1
        return original(self, node, *args, **kwargs)

    Stylesheet.apply = apply  # type: ignore[method-assign]


class Form(Screen[None]):
    """Seven rows of radio buttons, one pressed in each, with breakpoints as a responsive form has."""

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (80, "-wide")]

    def compose(self) -> ComposeResult:
        for row in range(7):
            yield Label(f"Row {row}")
            with RadioSet():
                for choice in range(4):
                    yield RadioButton(f"choice {choice}", value=choice == 0)


class FixedForm(Form):
    """The same form, with what wom-tui's ``WomScreen`` does: breakpoints set before it is styled,
    and no second styling at its first resume."""

    def __init__(self) -> None:
        super().__init__()
        width = self.app.size.width
        self.update_classes({"-narrow": width < 80, "-wide": width >= 80}, update=False)
        self._resumed = False

    async def _on_message(self, message: Any) -> None:
        from textual import events

        if isinstance(message, events.ScreenResume) and not self._resumed:
            self._resumed = True
            message.refresh_styles = False
        await super()._on_message(message)


class Bench(App[None]):
    def __init__(self, opens: int, fixed: bool) -> None:
        super().__init__()
        self.opens = opens
        self.fixed = fixed
        self.cpu = 0.0

    async def on_mount(self) -> None:
        self.run_worker(self.open_and_close())

    async def open_and_close(self) -> None:
        start = time.process_time()
        for _ in range(self.opens):
            screen = FixedForm() if self.fixed else Form()
            await self.push_screen(screen)
            while not screen.is_attached or screen._compositor.size != self.size:
                await asyncio.sleep(0.001)
            await asyncio.sleep(0.02)
            await self.pop_screen()
        self.cpu = time.process_time() - start
        self.exit()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--opens", type=int, default=20)
    parser.add_argument("--fixed", action="store_true", help="with wom-tui's workarounds")
    args = parser.parse_args()
    if args.fixed:
        from wom_tui.patches import styling

        styling.install()
    count_applications()
    app = Bench(args.opens, args.fixed)
    app.run(headless=True, size=(80, 24))
    print(f"Textual {textual.__version__}: {args.opens} opens of a form of 7 radio sets"
          f"{' (with the workarounds)' if args.fixed else ''}")
    print(f"  stylesheet applied {COUNTS['applied'] / args.opens:.0f} times per open, "
          f"{COUNTS['detached'] / args.opens:.0f} of them to widgets not yet in the app")
    print(f"  CPU {app.cpu / args.opens * 1000:.1f} ms per open and close")


if __name__ == "__main__":
    main()
