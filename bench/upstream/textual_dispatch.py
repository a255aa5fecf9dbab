"""Minimal reproduction for a report to Textual: two costs paid on every message and every styling.

A bare Textual app (nothing of wom-tui) opens a form of buttons and inputs N times and moves the focus
through it, and counts the CPU time of two of Textual 8.2's lookups:

- ``MessagePump._get_dispatch_methods``: for each message delivered to each widget on its way up the
  DOM, a walk over the receiver's class hierarchy and the message's, by string lookups, though which
  handlers a class has never changes;
- ``RuleSet.__hash__`` (``return id(self)``, a Python method): ``Stylesheet.apply`` filters the whole
  stylesheet through a set for every widget it styles, one Python call per rule.

``--fixed`` runs the same with wom-tui's workarounds (``wom_tui/patches/dispatch.py``, the walk done once
per class and kept; ``wom_tui/patches/rule_sets.py``, rule sets hashed by ``object.__hash__``).

    .venv/bin/python bench/upstream/textual_dispatch.py [--opens 20] [--fixed]
"""

from __future__ import annotations

import argparse
import asyncio
import time

import textual
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.css.model import RuleSet
from textual.message_pump import MessagePump
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label

SPENT = {"dispatch": 0.0, "dispatch_calls": 0, "hash_calls": 0}


def count_lookups() -> None:
    """Time the handler lookups (the walk, to its last handler) and count the rule-set hashes."""
    original = MessagePump._get_dispatch_methods

    def _get_dispatch_methods(self, method_name, message):  # type: ignore[no-untyped-def]
        start = time.process_time()
        handlers = list(original(self, method_name, message))
        SPENT["dispatch"] += time.process_time() - start
        SPENT["dispatch_calls"] += 1
        yield from handlers

    MessagePump._get_dispatch_methods = _get_dispatch_methods  # type: ignore[method-assign]
    hash_of = RuleSet.__hash__
    if hash_of is not object.__hash__:

        def counted(self: RuleSet) -> int:
            SPENT["hash_calls"] += 1
            return hash_of(self)

        RuleSet.__hash__ = counted  # type: ignore[method-assign,assignment]


class Form(Screen[None]):
    """Rows of labelled inputs and buttons, nested as a setup form is."""

    def compose(self) -> ComposeResult:
        with Vertical():
            for row in range(6):
                with Horizontal():
                    yield Label(f"Row {row}")
                    yield Input(placeholder=f"value {row}")
                    yield Button(f"Choose {row}")
        yield Footer()


class Bench(App[None]):
    def __init__(self, opens: int) -> None:
        super().__init__()
        self.opens = opens
        self.cpu = 0.0

    async def on_mount(self) -> None:
        self.run_worker(self.open_and_close())

    async def open_and_close(self) -> None:
        start = time.process_time()
        for _ in range(self.opens):
            screen = Form()
            await self.push_screen(screen)
            while not screen.is_attached or screen._compositor.size != self.size:
                await asyncio.sleep(0.001)
            for _ in range(12):
                screen.focus_next()
                await asyncio.sleep(0.002)
            await self.pop_screen()
        self.cpu = time.process_time() - start
        self.exit()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--opens", type=int, default=20)
    parser.add_argument("--fixed", action="store_true", help="with wom-tui's workarounds")
    args = parser.parse_args()
    if args.fixed:
        from wom_tui.patches import dispatch, rule_sets

        dispatch.install()
        rule_sets.install()
    count_lookups()
    app = Bench(args.opens)
    app.run(headless=True, size=(80, 24))
    opens = args.opens
    print(f"Textual {textual.__version__}: {opens} opens of a form of 18 widgets, the focus moved 12 times in each"
          f"{' (with the workarounds)' if args.fixed else ''}")
    print(f"  CPU {app.cpu / opens * 1000:.1f} ms per open, of which finding handlers "
          f"{SPENT['dispatch'] / opens * 1000:.1f} ms ({SPENT['dispatch_calls'] / opens:.0f} lookups)")
    print(f"  rule sets hashed in Python: {SPENT['hash_calls'] / opens:.0f} per open")


if __name__ == "__main__":
    main()
