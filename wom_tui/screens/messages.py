"""Messages (F8 on any screen): every notice this session showed, as plain lines, oldest first and the
newest highlighted (docs/play.md, *Messages*). A toast goes after a few seconds; here a player who missed
it, or a screen reader that never reached it, reads it again. The terminal cursor sits on the highlighted
line, so a braille display shows it; ↑/↓ go through the lines.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..patches.footer import Footer
from ..widgets.messages import MessageHistory, Said
from .base import WomScreen

EMPTY = "No messages yet: every notice this session shows is kept here."


class MessagesScreen(WomScreen):
    """The session's messages (the app's :class:`~wom_tui.widgets.messages.MessageHistory`); Esc goes back."""

    def __init__(self, history: MessageHistory) -> None:
        super().__init__()
        self.history = history

    def compose(self) -> ComposeResult:
        with Vertical(id="messages-box", classes="panel"):
            yield Static(Text("Messages"), classes="panel-title")
            lines = OptionList(*(self._option(said) for said in self.history), id="messages-list")
            lines.display = bool(len(self.history))
            yield lines
            empty = Static(Text(EMPTY), id="messages-empty", classes="empty-state")
            empty.display = not len(self.history)
            yield empty
        yield Footer()

    @staticmethod
    def _option(said: Said) -> Option:
        return Option(Text(said.line(), style={"warning": "bold", "error": "bold"}.get(said.kind, "")))

    def on_mount(self) -> None:
        lines = self.query_one("#messages-list", OptionList)
        if lines.option_count:
            lines.highlighted = lines.option_count - 1
            lines.focus()

    def added(self, said: Said) -> None:
        """A notice came while the screen is open: its line goes at the end (highlighted if the newest was)."""
        lines = self.query_one("#messages-list", OptionList)
        followed = lines.highlighted is None or lines.highlighted == lines.option_count - 1
        lines.add_option(self._option(said))
        if len(self.history) < lines.option_count:
            lines.remove_option_at_index(0)  # the history dropped its oldest
        if not lines.display:
            lines.display = True
            self.query_one("#messages-empty").display = False
            lines.focus()
        if followed:
            lines.highlighted = lines.option_count - 1

    def lines_shown(self) -> list[str]:
        """The lines on the screen's list, oldest first (for the tests)."""
        lines = self.query_one("#messages-list", OptionList)
        return [str(getattr(lines.get_option_at_index(i).prompt, "plain", "")) for i in range(lines.option_count)]


def open_messages(app: Any, history: MessageHistory) -> None:
    """Open the messages over the current screen (once: F8 on it again does nothing)."""
    if not isinstance(app.screen, MessagesScreen):
        app.push_screen(MessagesScreen(history))


__all__ = ["EMPTY", "MessagesScreen", "open_messages"]
