"""A Select that tolerates its screen being left before it has mounted."""

from __future__ import annotations

from typing import TypeVar

from textual import events
from textual.dom import NoScreen
from textual.widgets import Select as TextualSelect

T = TypeVar("T")


class Select(TextualSelect[T]):
    """Textual's Select, safe to leave while it is still being built.

    Leaving a screen while it is still mounting (keys typed ahead: a mode key then Esc in one burst)
    removes the Select's overlay before the Select's own mount handler runs, which then fails with
    ``NoMatches`` and ends the app. A Select whose screen is gone, or whose overlay is gone, skips that
    handler. (Textual 8.2; found by the random run of issue 9 and by typing ahead in the setups.)
    """

    def _on_mount(self, event: events.Mount) -> None:
        try:
            gone = self.screen not in self.app.screen_stack or not self.query("SelectOverlay")
        except NoScreen:
            gone = True
        if gone:
            event.prevent_default()  # Select's own handler would look for its removed parts
