"""The base of every screen: Esc goes back; a game in progress asks first."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from textual.binding import Binding

from ..patches.screens import LeftSafely, OpenedOnce
from .confirm import ConfirmScreen
from .host import WomHost

__all__ = ["OpenedOnce", "WomScreen"]


class WomScreen(LeftSafely[Any]):
    """A screen of the app: Esc runs :meth:`action_back` (back one screen).

    A game screen says when leaving would lose a game (:meth:`leaving_loses_progress`) and asks
    first with :meth:`ask_to_leave` ("Leave this game?"; a second Esc or *Leave* confirms).
    """

    BINDINGS = [Binding("escape", "back", "Back")]

    leave_question: str = "Leave this game?"
    leave_detail: str = "Progress is lost."

    @property
    def wom(self) -> WomHost:
        """The app, typed as what a screen needs of it: ``self.wom.store``, ``.rng``, ``.options``."""
        return cast("WomHost", self.app)

    def action_back(self) -> None:
        """Go back one screen."""
        if len(self.app.screen_stack) > 1:
            self.dismiss()

    def ask_to_leave(self, then: Callable[[], None]) -> None:
        """Ask "Leave this game?"; on yes run ``then``."""

        def answered(leave: bool | None) -> None:
            if leave:
                then()

        self.app.push_screen(ConfirmScreen(self.leave_question, self.leave_detail), answered)

    def leaving_loses_progress(self) -> bool:
        """True while leaving this screen would lose a game in progress (so leaving asks first)."""
        return False
