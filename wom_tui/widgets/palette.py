"""The command palette, hardened against being closed while it still gathers commands.

Textual's palette searches in a worker; when the palette is dismissed while a search is in
flight (a key typed, then Esc, in one burst or on a slow link), the worker can still finish and
set the palette's list flags after its widgets are gone: the watchers then fail with
``NoMatches`` and the worker error ends the app. Found by the random run of issue 9
(bench/fuzz.py, seed 9, event 1188). This subclass skips those watchers once the widgets are gone.
"""

from __future__ import annotations

from textual.command import CommandList, CommandPalette


class WomCommandPalette(CommandPalette):
    """A CommandPalette whose list watchers do nothing once its widgets are gone."""

    def _widgets_gone(self) -> bool:
        return not self.is_attached or not self.query(CommandList) or not self.query("#--input")

    def _watch__list_visible(self) -> None:
        if self._widgets_gone():
            return
        super()._watch__list_visible()

    async def _watch__show_busy(self) -> None:
        if self._widgets_gone() or not self.query("LoadingIndicator"):
            return
        await super()._watch__show_busy()
