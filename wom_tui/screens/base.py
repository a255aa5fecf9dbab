"""The base of every screen: Esc goes back; a game in progress asks first."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from textual.binding import Binding
from textual.notifications import Notification, Notify, SeverityLevel
from textual.widgets import Select

from ..patches.screens import LeftSafely, OpenedOnce
from ..widgets.choice import Choice
from .confirm import ConfirmScreen
from .host import WomHost

__all__ = ["NARROW_BELOW", "NARROW_NOTICE_SECONDS", "OpenedOnce", "WomScreen"]

NARROW_BELOW = 80
"""A screen narrower than this many columns is narrow: a toast there covers part of a game's board."""
NARROW_NOTICE_SECONDS = 3.0
"""How long an information toast stays on a narrow screen."""


class WomScreen(LeftSafely[Any]):
    """A screen of the app: Esc runs :meth:`action_back` (back one screen).

    A game screen says when leaving would lose a game (:meth:`leaving_loses_progress`) and asks
    first with :meth:`ask_to_leave` ("Leave this game?"; a second Esc or *Leave* confirms).
    """

    BINDINGS = [Binding("escape", "back", "Back")]

    _toasts: list[Notification]

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """A toast that belongs to this screen: it goes when the screen goes (or another covers it),
        so that "The results stay until you choose" does not linger into the next game.
        """
        self.notice(message, title=title, severity=severity, timeout=timeout, markup=markup)

    def notice(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> Notification:
        """:meth:`notify`, giving the toast, for :meth:`withdraw` once what it says is no longer true.

        Under 80 columns a toast covers part of the board: information goes after
        :data:`NARROW_NOTICE_SECONDS` (a warning or an error keeps its time).
        """
        seconds = self.app.NOTIFICATION_TIMEOUT if timeout is None else timeout
        if severity == "information" and self.app.size.width < NARROW_BELOW:
            seconds = min(seconds, NARROW_NOTICE_SECONDS)
        notification = Notification(message, title, severity, seconds, markup=markup)
        self.__dict__.setdefault("_toasts", []).append(notification)
        self.app.post_message(Notify(notification))
        return notification

    def withdraw(self, notification: Notification) -> None:
        """Take a toast of this screen down before its time (what it said is no longer true)."""
        app = self.app
        if notification in app._notifications:
            app._unnotify(notification)
        toasts = self.__dict__.get("_toasts")
        if toasts and notification in toasts:
            toasts.remove(notification)

    def _clear_toasts(self) -> None:
        toasts = self.__dict__.get("_toasts")
        if not toasts:
            return
        app = self.app
        for toast in toasts:
            if toast in app._notifications:
                app._unnotify(toast, refresh=False)
        toasts.clear()
        app._refresh_notifications()

    def on_screen_suspend(self) -> None:
        self._clear_toasts()
        self._close_lists()

    def _close_lists(self) -> None:
        """Close any drop-down list left open as another screen covers this one (ctrl+s starts a game
        with a seat's list open), without choosing, the focus back on its row: coming back, the player
        finds the form as its rows show it, no list hanging over it and the keys reaching the form.
        """
        for widget in self.query(".-expanded"):
            if isinstance(widget, (Choice, Select)) and widget.expanded:
                had_focus = widget.has_focus_within
                widget.expanded = False
                if had_focus:
                    widget.focus(scroll_visible=False)

    def on_unmount(self) -> None:
        self._clear_toasts()

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
