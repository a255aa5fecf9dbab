"""The operator's broadcast line (docs/play.md, *A line from the operator*): on every screen, on a line of its
own above the screen (which moves down, the badge with it); a click hides it until the operator says something
else.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.events import Click, Resize
from textual.widgets import Static

from .whoami import WhoAmI

PREFIX = "Operator: "


class BroadcastLine(Static):
    """``Operator: restart in 5 minutes`` across the top of the screen (wrapped to two lines if it must).

    Split off the top of the screen's own layer, it takes its lines from the screen's content rather than
    covering its first line.
    """

    DEFAULT_CSS = """
    BroadcastLine {
        split: top;
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

    def on_resize(self, event: Resize) -> None:
        """Keep the who-am-I badge (its own layer, at the top) on the screen's first line, under this one."""
        for badge in self.screen.query(WhoAmI):
            badge.styles.offset = (0, event.size.height)

    def on_click(self, event: Click) -> None:
        """Hide the line for this session."""
        event.stop()
        app: Any = self.app
        app.hide_broadcast()
