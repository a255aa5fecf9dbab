"""MessageLog: the running commentary of a game, in plain text only."""

from __future__ import annotations

from collections import deque
from typing import Literal

from rich.style import Style
from rich.text import Text
from textual.events import Resize
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
        self._shown: deque[tuple[str, Kind]] = deque(maxlen=max_lines)
        """The messages on show with their kinds, to wrap them again when the width changes."""
        self._wrapped_at: int | None = None
        self._rewrap = False
        """A message came while the log was hidden (the notes grid in its place): wrap all again when shown."""
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

    def say(self, text: str, kind: Kind = "info", *, hidden: bool = False) -> None:
        """Add one message as plain text, coloured by ``kind``; ``hidden``: kept in :attr:`lines_said` but not
        shown (a hot-seat message for another player's eyes: :meth:`show_only` shows it in their turn).
        """
        self.lines_said.append(text)
        if hidden:
            return
        self._shown.append((text, kind))
        self._write_message(text, kind)

    def show_only(self, messages: list[tuple[str, Kind]]) -> None:
        """Show these messages instead of those on show (whose turn it is changed at one keyboard)."""
        if list(self._shown) == messages:
            return
        self.clear()
        self._shown.clear()
        for text, kind in messages:
            self._shown.append((text, kind))
            self._write_message(text, kind)

    def on_resize(self, _event: Resize) -> None:
        """Wrap every message again when the log's width changes: RichLog wraps a line once, as it
        is written, so a terminal made narrower mid-game cut the messages off at the old width.
        """
        width = self.scrollable_content_region.width
        if not width:
            return
        if self._size_known and (self._rewrap or (self._wrapped_at is not None and width != self._wrapped_at)):
            self._rewrap = False
            self.clear()
            for text, kind in self._shown:
                self._write_message(text, kind)
        self._wrapped_at = width

    def _write_message(self, text: str, kind: Kind) -> None:
        if self._size_known and not self.region:
            # Hidden: RichLog would wrap it to its minimum width for good. It is written when shown.
            self._rewrap = True
            return
        # What follows an arrow (key pegs "K K W", or "1 black, 2 white") is never split across lines:
        # a line too long for the log starts it on a line of its own.
        head, arrow, tail = text.partition(" → ")
        width = self.scrollable_content_region.width
        shown = text
        if arrow and width and len(text) > width and len(tail) + 2 <= width:
            shown = head + "\n" + arrow.lstrip() + tail
        self.write(Text(shown, style=self._style(kind), end=""))

    def write(self, content, *args, **kwargs):
        """Write like RichLog, except that a ``str`` is always plain text, never markup."""
        if isinstance(content, str):
            content = Text(content, end="")
        return super().write(content, *args, **kwargs)
