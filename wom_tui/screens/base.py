"""The base of every screen: Esc goes back; a game in progress asks first."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from textual import events
from textual._styles_cache import StylesCache
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen

from .confirm import ConfirmScreen

if TYPE_CHECKING:
    from ..app import WomApp


ResultT = TypeVar("ResultT")


class OpenedOnce(Screen[ResultT]):
    """A screen styled and laid out once as it opens (the main menu and every :class:`WomScreen`).

    Textual styles a new screen's widgets as they mount, then styles the whole screen again at its first
    resume, and lays it all out again at its first Resize, which only repeats the size it was just laid
    out at: both are skipped here.
    """

    def __init__(self, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._wom_first_resume_seen = False
        self._wom_first_resize_seen = False
        self._preset_breakpoints()

    def _preset_breakpoints(self) -> None:
        """Give the screen its width and height classes (``HORIZONTAL_BREAKPOINTS``) for the terminal's
        size now, before it is styled: Textual sets them at the screen's first resize, and a change of
        classes then styles the whole screen again (a sixth of opening a setup screen's CPU time).
        """
        try:
            width, height = self.app.size
        except Exception:  # noqa: BLE001  (no running app: Textual sets them at the first resize)
            return
        classes: dict[str, bool] = {}
        for breakpoints, size in (
            (self.HORIZONTAL_BREAKPOINTS if self.HORIZONTAL_BREAKPOINTS is not None
             else self.app.HORIZONTAL_BREAKPOINTS, width),
            (self.VERTICAL_BREAKPOINTS if self.VERTICAL_BREAKPOINTS is not None
             else self.app.VERTICAL_BREAKPOINTS, height),
        ):
            if breakpoints:
                classes.update({name: False for _, name in breakpoints})
                classes.update({name: True for name in self._get_breakpoint_classes(size, breakpoints)})
        if classes:
            self.update_classes(classes, update=False)

    async def _on_message(self, message: Message) -> None:
        if isinstance(message, events.ScreenResume) and not self._wom_first_resume_seen:
            # Its first resume follows its mount at once: every widget was styled as it mounted, so
            # Textual's styling of the whole screen again here (a sixth of opening a screen) is skipped.
            self._wom_first_resume_seen = True
            message.refresh_styles = False
        elif isinstance(message, events.Resize) and not self._wom_first_resize_seen:
            # Its first Resize only repeats the size it was just laid out at as it opened: laying it
            # all out again for that was another seventh of a first paint. Later ones are real.
            self._wom_first_resize_seen = True
            if message.size == self.size == self.app.size:
                message.stop()
                return
        await super()._on_message(message)


class WomScreen(OpenedOnce[Any]):
    """A screen of the app: Esc runs :meth:`action_back` (back one screen).

    A game screen says when leaving would lose a game (:meth:`leaving_loses_progress`) and asks
    first with :meth:`ask_to_leave` ("Leave this game?"; a second Esc or *Leave* confirms).
    """

    BINDINGS = [Binding("escape", "back", "Back")]

    leave_question: str = "Leave this game?"
    leave_detail: str = "Progress is lost."

    async def _on_message(self, message: Message) -> None:
        if isinstance(message, (events.Mount, events.ScreenResume)) and (
            self.app._exit or self not in self.app.screen_stack
        ):
            # Left before it was built, or opened by a key typed just before the quit key (issue 9's
            # random run): its widgets are gone or going, so its mount and resume handlers would fail.
            return
        await super()._on_message(message)

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
