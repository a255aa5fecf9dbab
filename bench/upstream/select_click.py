"""Minimal reproduction for a report to Textual: with one Select's list open, a click on another Select
opens nothing.

A bare Textual app (nothing of wom-tui) with two Selects. The first is opened; then a terminal's press and
release on the second Select's value (or its ▼) arrive a few milliseconds apart, through the app's own
mouse handling as a driver delivers them. The first list closes as it loses the focus, and
``SelectOverlay._on_blur`` calls ``suppress_click()``, which drops that press's Click whatever it lands
on: the second Select stays closed and a second click is needed. (The suppression is meant for a click
on the open Select's own row, https://github.com/Textualize/textual/issues/4489.) ``Pilot.click`` makes
its own Click and does not show it. wom-tui's workaround: ``patches/select.py`` (``DropDownList``).

    .venv/bin/python bench/upstream/select_click.py [--fixed]
"""

from __future__ import annotations

import argparse
import asyncio
import sys

import textual
from textual import events
from textual.app import App, ComposeResult
from textual.widgets import Select


class TwoSelects(App[None]):
    """Two Selects side by side (a list drops over nothing of the other Select)."""

    CSS = "Screen { layout: horizontal; } Select { width: 1fr; }"

    def __init__(self, fixed: bool) -> None:
        super().__init__()
        self.fixed = fixed

    def compose(self) -> ComposeResult:
        if self.fixed:
            from wom_tui.patches.select import SafeSelect as Chosen
        else:
            Chosen = Select
        yield Chosen([("one", 1), ("two", 2)], value=1, allow_blank=False, id="first")
        yield Chosen([("three", 3), ("four", 4)], value=3, allow_blank=False, id="second")


async def press_and_release(app: App[None], pilot: object, x: int, y: int) -> None:
    """A terminal's click: a press, the app runs, a release."""
    assert app._driver is not None
    for kind in (events.MouseDown, events.MouseUp):
        event = kind(None, x, y, 0, 0, 1, False, False, False, screen_x=x, screen_y=y)
        event.set_sender(app)
        app._driver.send_message(event)
        for _ in range(3):
            await pilot.pause()  # type: ignore[attr-defined]


async def run(fixed: bool) -> str:
    """Open the first list, click the second Select's value; say which lists are open."""
    app = TwoSelects(fixed)
    async with app.run_test(size=(40, 20)) as pilot:
        first, second = app.query_one("#first", Select), app.query_one("#second", Select)
        first.focus()
        await pilot.press("enter")
        await pilot.pause()
        label = second.query_one("#label")
        await press_and_release(app, pilot, label.region.x + 1, label.region.y)
        for _ in range(5):
            await pilot.pause()
        return f"first open: {first.expanded}, second open: {second.expanded} (expected: False, True)"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fixed", action="store_true", help="with wom-tui's DropDownList in the Selects")
    return parser.parse_args(argv)


if __name__ == "__main__":
    arguments = parse_args()
    print(f"Textual {textual.__version__}, Python {sys.version.split()[0]}")
    print(asyncio.run(run(arguments.fixed)))
