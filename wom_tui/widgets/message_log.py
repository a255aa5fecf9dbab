"""MessageLog: the running commentary of a game, in plain text only."""

from __future__ import annotations

from typing import Literal

from rich.style import Style
from rich.text import Text
from textual.widgets import RichLog

from .themes import rich_colour

Kind = Literal["info", "success", "warning", "error", "computer"]


class MessageLog(RichLog):
    """A scrolling log of messages; every message is plain text, so a name can never inject markup.

    ``say(text, kind)`` adds a line; ``kind`` (info, success, warning, error, computer) only picks
    its colour from the theme. Lines are also kept in :attr:`lines_said` for tests and screens.
    """

    DEFAULT_CSS = """
    MessageLog {
        height: 1fr;
        min-height: 3;
        border: round $panel-lighten-2;
        border-title-color: $text-muted;
        background: $surface;
        padding: 0 1;
        scrollbar-size-vertical: 1;
    }
    """

    def __init__(
        self,
        *,
        max_lines: int | None = 500,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(
            max_lines=max_lines,
            wrap=True,
            markup=False,
            highlight=False,
            auto_scroll=True,
            min_width=12,  # wraps to the panel, however narrow (60×20: a 20-column side panel)
            name=name,
            id=id,
            classes=classes,
        )
        self.lines_said: list[str] = []
        self.can_focus = False

    def _style(self, kind: Kind) -> Style:
        theme = self.app.current_theme
        colour = {
            "info": None,
            "success": theme.success,
            "warning": theme.warning,
            "error": theme.error,
            "computer": theme.secondary,
        }.get(kind)
        if self.app.no_color or colour is None:
            return Style(bold=kind in ("error", "success"))
        return Style(color=rich_colour(colour), bold=kind in ("error", "success"))

    def say(self, text: str, kind: Kind = "info") -> None:
        """Add one message as plain text, coloured by ``kind``."""
        self.lines_said.append(text)
        # What follows an arrow (key pegs "K K W", or "1 black, 2 white") is never split across lines:
        # a line too long for the log starts it on a line of its own.
        head, arrow, tail = text.partition(" → ")
        width = self.scrollable_content_region.width
        shown = text
        if arrow and width and len(text) > width and len(tail) + 2 <= width:
            shown = head + "\n" + arrow.lstrip() + tail
        self.write(Text(shown, style=self._style(kind), end=""))

    def write(self, content, *args, **kwargs):  # type: ignore[no-untyped-def, override]
        """Write like RichLog, except that a ``str`` is always plain text, never markup."""
        if isinstance(content, str):
            content = Text(content, end="")
        return super().write(content, *args, **kwargs)
