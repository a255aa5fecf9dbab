"""A Select that tolerates its screen being left before the Select has mounted, and a drop-down list
that lets a click on another drop-down through.

Leaving a screen while it is still being built (keys typed ahead, or a quick Esc on a slow link)
removes the Select's overlay and label before the Select's own mount handler runs, which then
fails with ``NoMatches`` for ``SelectOverlay`` and ends the app: first seen leaving the WoM setup,
then on Replays, My stats, Daily code and the solo setup (the random run, seed 9,
event 56), or when the app quits while the screen is being built. ``bench/textual_races.py``
reproduces it in a bare Textual app. A Select whose screen (or app) is going skips that handler.

A drop-down's list (``SelectOverlay``) closes when it loses the focus and then drops the click of that
press (``suppress_click``), so that a click on its own row closes the list instead of closing and opening
it again (https://github.com/Textualize/textual/issues/4489). It drops any click though: with one list
open, a click on another drop-down's value or ▼ closed the list and opened nothing, so a form's
drop-downs seemed to open only now and then (measured on Textual 8.2.8, in a terminal: Textual's pilot
makes its own Click and never shows it). :class:`DropDownList` drops only a click on its own drop-down.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TypeVar

from textual import events
from textual.dom import NoScreen
from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Select as TextualSelect
from textual.widgets._select import SelectCurrent, SelectOverlay

from .versions import MEASURED, textual_version

MEASURED_ON = MEASURED
"""The Textual releases this race was reproduced on was measured on."""

T = TypeVar("T", bound=Hashable)


class DropDownList(SelectOverlay):
    """A drop-down's list that, closing as it loses the focus, drops the click only when that click is
    on its own drop-down (its row: the click would open it again), not on another one.
    """

    def suppress_click(self) -> None:
        """Drop the press's click only if it is on this list's own drop-down (Textual's list calls this as
        it loses the focus, whatever the click is on).
        """
        if textual_version() not in MEASURED_ON:
            super().suppress_click()
            return
        pressed = self.app._mouse_down_widget
        owner = self.parent
        if pressed is not None and owner is not None and _within(pressed, owner):
            super().suppress_click()


def _within(widget: Widget, ancestor: object) -> bool:
    node: object = widget
    while node is not None:
        if node is ancestor:
            return True
        node = getattr(node, "parent", None)
    return False


class SafeSelect(TextualSelect[T]):
    """A Select that skips its mount handler when its screen is already gone, with a :class:`DropDownList`."""

    def compose(self) -> ComposeResult:
        """Textual's Select's parts, with the list that lets a click on another drop-down through."""
        yield SelectCurrent(self.prompt)
        yield DropDownList(type_to_search=self._type_to_search).data_bind(compact=TextualSelect.compact)

    def _on_mount(self, event: events.Mount) -> None:
        try:
            gone = self.app._exit or self.screen not in self.app.screen_stack or not self.query("SelectOverlay")
        except NoScreen:
            gone = True
        if gone:
            event.prevent_default()  # Select's own handler would look for its removed parts

Select = SafeSelect
"""The name screens import: every Select in the app is a SafeSelect."""
