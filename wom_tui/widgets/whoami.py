"""The corner badge a served session shows on every screen: who is signed in (or Guest)."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static


class WhoAmI(Static):
    """``Alan`` / ``Guest`` / ``New player`` at the top right, on its own layer so it moves nothing."""

    DEFAULT_CSS = """
    WhoAmI {
        layer: whoami;
        dock: right;
        width: auto;
        height: 1;
        padding: 0 1;
        margin-right: 3;  /* on the top border of a box, clear of its corner (╮) */
        background: $primary-darken-2;
        color: $text;
    }
    """

    def show(self, label: str) -> None:
        """Show ``label`` (a name is data, never markup)."""
        self.update(Text(label))
