"""The corner badge a served session shows on every screen: who is signed in (or Guest)."""

from __future__ import annotations

from rich.text import Text
from textual.screen import ModalScreen
from textual.widgets import Static

MARGIN = 3
"""Cells between the badge and the right end of the box whose top border it sits on (clear of its corner ╮)."""


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

    def on_mount(self) -> None:
        if isinstance(self.screen, ModalScreen):
            self.screen.screen_layout_refresh_signal.subscribe(self, lambda _screen: self.fit())

    def fit(self) -> None:
        """Sit on the top border of a form's box, clear of its corner, where the box reaches the terminal's top
        row (a form narrower than the terminal, on a short one): at the terminal's edge the badge would hide
        the corner. Elsewhere (a full-width screen, or a form below the top row) the edge's margin. Done after
        each layout of a form's screen (a resize moves the box).
        """
        screen = self.screen if self.is_attached else None
        if not isinstance(screen, ModalScreen):
            return
        margin = MARGIN
        box = next((child for child in screen.children if child is not self and child.display), None)
        if box is not None and box.region.height and box.region.y <= 0:
            margin += max(0, screen.size.width - box.region.right)
        if self.styles.margin.right != margin:
            self.styles.margin = (0, margin, 0, 0)
