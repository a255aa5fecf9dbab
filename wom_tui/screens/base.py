"""The base of every screen: Esc goes back; a game in progress asks first."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from textual._styles_cache import StylesCache
from textual.binding import Binding
from textual.screen import Screen

from .confirm import ConfirmScreen

if TYPE_CHECKING:
    from ..app import WomApp


class WomScreen(Screen[Any]):
    """A screen of the app: Esc runs :meth:`action_back`.

    Set ``self.confirm_leave = True`` while a game is in progress: Esc then opens a
    :class:`ConfirmScreen` ("Leave this game? Progress is lost."), a second Esc or *Leave*
    confirms and :meth:`leave_confirmed` runs (default: back to the main menu), *Stay* or ``n`` stays.
    Game screens with their own rules override :meth:`leaving_loses_progress` and :meth:`action_back`.
    """

    BINDINGS = [Binding("escape", "back", "Back")]

    confirm_leave: bool = False
    """True while leaving would lose something, so Esc asks first."""
    leave_question: str = "Leave this game?"
    leave_detail: str = "Progress is lost."

    def on_unmount(self) -> None:
        # Textual 8 caches StylesCache.get_inner_outer with functools.lru_cache on the *instance*
        # method, so up to 1,024 widgets' style caches (and their rendered lines) stay alive after
        # their screen has closed. What it caches is two Styles per colour pair, cheap to remake.
        StylesCache.get_inner_outer.cache_clear()

    @property
    def wom(self) -> WomApp:
        """The app, typed: ``self.wom.store``, ``.rng``, ``.options``."""
        return cast("WomApp", self.app)

    def action_back(self) -> None:
        """Go back (asking first when :attr:`confirm_leave` is set)."""
        if self.confirm_leave:
            self.ask_to_leave()
        elif len(self.app.screen_stack) > 1:
            self.dismiss()

    def ask_to_leave(self, then: Callable[[], None] | None = None) -> None:
        """Ask "Leave this game?"; on yes run ``then`` (default :meth:`leave_confirmed`)."""

        def answered(leave: bool | None) -> None:
            if leave:
                (then or self.leave_confirmed)()

        self.app.push_screen(ConfirmScreen(self.leave_question, self.leave_detail), answered)

    def leaving_loses_progress(self) -> bool:
        """True while leaving this screen would lose a game in progress (so leaving asks first)."""
        return self.confirm_leave

    # Not named on_leave: Textual calls that for the mouse's Leave event, which bubbles from
    # every child widget, so merely moving the mouse would have left the game.
    def leave_confirmed(self) -> None:
        """What leaving does once confirmed: back to the main menu (override as needed)."""
        self.wom.return_to_menu()
