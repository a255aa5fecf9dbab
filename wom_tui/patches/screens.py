"""Screens that Textual opens with less work, and that a quit or an early Esc does not break.

:class:`OpenedOnce` (the main menu's base): Textual styles a new screen's widgets as they mount, then
styles the whole screen again at its first resume, and lays it all out again at its first Resize,
which only repeats the size it was just laid out at; here both are skipped, and the screen's
breakpoint classes are set before it is styled. :class:`LeftSafely` (the base of every other screen)
adds two more: a screen left before it was built skips its mount and resume handlers, and a closed
screen lets go of Textual's cached styles. ``bench/textual_styling.py`` and ``bench/textual_races.py``
reproduce what they work around in a bare Textual app.
"""

from __future__ import annotations

from typing import TypeVar

from textual import events
from textual._styles_cache import StylesCache
from textual.message import Message
from textual.screen import Screen

from .versions import MEASURED

MEASURED_ON = MEASURED
"""The Textual releases these screens were measured on."""

ResultT = TypeVar("ResultT")


class OpenedOnce(Screen[ResultT]):
    """A screen styled and laid out once as it opens (the main menu and every screen of the app).

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


class LeftSafely(OpenedOnce[ResultT]):
    """An :class:`OpenedOnce` screen that may be left (or the app quit) before it is built, and that
    frees Textual's cached styles when it closes.
    """

    async def _on_message(self, message: Message) -> None:
        if isinstance(message, (events.Mount, events.ScreenResume)) and (
            self.app._exit or self not in self.app.screen_stack
        ):
            # Left before it was built, or opened by a key typed just before the quit key (the random
            # run, bench/fuzz.py): its widgets are gone or going, so its mount and resume handlers would fail.
            return
        await super()._on_message(message)

    def on_unmount(self) -> None:
        """Let go of Textual's style cache of the screen's widgets.

        Textual 8 caches ``StylesCache.get_inner_outer`` with ``functools.lru_cache`` on the *instance*
        method, so up to 1,024 widgets' style caches (and their rendered lines) stay alive after their
        screen has closed. What it caches is two Styles per colour pair, cheap to remake.
        """
        StylesCache.get_inner_outer.cache_clear()
