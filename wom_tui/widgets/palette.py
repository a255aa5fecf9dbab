"""The command palette, hardened against being closed while it still gathers commands.

Textual's palette searches in a worker; when the palette is dismissed while a search is in
flight (a key typed, then Esc, in one burst or on a slow link), the worker can still finish and
set the palette's list flags (or look for its list) after its widgets are gone, fail with
``NoMatches``, and the worker error ends the app. Found by the random run of issue 9
(bench/fuzz.py, seed 9, events 1188 and 3449). This subclass skips those watchers once the
widgets are gone, and a search that finds the palette gone just stops.
"""

from __future__ import annotations

from textual import work
from textual.command import CommandList, CommandPalette
from textual.css.query import NoMatches


class WomCommandPalette(CommandPalette):
    """A CommandPalette whose list watchers do nothing once its widgets are gone."""

    def _widgets_gone(self) -> bool:
        return not self.is_attached or not self.query(CommandList) or not self.query("#--input")

    @work(exclusive=True, group=CommandPalette._GATHER_COMMANDS_GROUP)
    async def _gather_commands(self, search_value: str) -> None:
        gather = CommandPalette._gather_commands.__wrapped__  # type: ignore[attr-defined]
        try:
            await gather(self, search_value)
        except NoMatches:
            if not self._widgets_gone():
                raise

    def _watch__list_visible(self) -> None:
        if self._widgets_gone():
            return
        super()._watch__list_visible()

    async def _watch__show_busy(self) -> None:
        if self._widgets_gone() or not self.query("LoadingIndicator"):
            return
        await super()._watch__show_busy()
