"""The base of every screen: Esc goes back, the footer shows the keys."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from textual.binding import Binding
from textual.screen import Screen

if TYPE_CHECKING:
    from ..app import WomApp


class WomScreen(Screen[Any]):
    """A screen of the app: Esc runs :meth:`action_back` (pop the screen; game screens ask first)."""

    BINDINGS = [Binding("escape", "back", "Back")]

    @property
    def wom(self) -> WomApp:
        """The app, typed: ``self.wom.store``, ``.rng``, ``.options``."""
        return cast("WomApp", self.app)

    def action_back(self) -> None:
        """Go back to the previous screen (override to ask first in a game)."""
        if len(self.app.screen_stack) > 1:
            self.dismiss()
