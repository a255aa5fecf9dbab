"""A Select that tolerates its screen being left before the Select has mounted.

Leaving a screen while it is still being built (keys typed ahead, or a quick Esc on a slow link)
removes the Select's overlay and label before the Select's own mount handler runs, which then
fails with ``NoMatches`` for ``SelectOverlay`` and ends the app: first seen leaving the WoM setup,
then on Replays, My stats, Daily code and the solo setup (the random run, seed 9,
event 56), or when the app quits while the screen is being built. ``bench/textual_races.py``
reproduces it in a bare Textual app. A Select whose screen (or app) is going skips that handler.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TypeVar

from textual import events
from textual.dom import NoScreen
from textual.widgets import Select as TextualSelect

from .versions import MEASURED

MEASURED_ON = MEASURED
"""The Textual releases this race was reproduced on was measured on."""

T = TypeVar("T", bound=Hashable)


class SafeSelect(TextualSelect[T]):
    """A Select that skips its mount handler when its screen is already gone."""

    def _on_mount(self, event: events.Mount) -> None:
        try:
            gone = self.app._exit or self.screen not in self.app.screen_stack or not self.query("SelectOverlay")
        except NoScreen:
            gone = True
        if gone:
            event.prevent_default()  # Select's own handler would look for its removed parts

Select = SafeSelect
"""The name screens import: every Select in the app is a SafeSelect."""
