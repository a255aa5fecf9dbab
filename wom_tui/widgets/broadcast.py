"""The operator's broadcast line (docs/play.md, *A line from the operator*): on every screen, on the badge's
layer, so it moves nothing; a click hides it until the operator says something else.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.events import Click
from textual.widgets import Static

PREFIX = "Operator: "


class BroadcastLine(Static):
    """``Operator: restart in 5 minutes`` across the top of the screen (wrapped to two lines if it must)."""

    DEFAULT_CSS = """
    BroadcastLine {
        layer: whoami;
        dock: top;
        width: 100%;
        height: auto;
        max-height: 3;
        padding: 0 1;
        background: $warning;
        color: $text;
        text-style: bold;
    }
    """

    def show(self, text: str) -> None:
        """Show the operator's ``text`` (data, never markup)."""
        self.update(Text(PREFIX + text, overflow="fold"))

    def on_click(self, event: Click) -> None:
        """Hide the line for this session."""
        event.stop()
        app: Any = self.app
        app.hide_broadcast()
