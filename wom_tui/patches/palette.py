"""The command palette, hardened against keys that reach it while it closes or before it is laid out.

Three races in Textual's own ``CommandPalette`` (8.2), each found by the random run (bench/fuzz.py)
and each ending the app (``bench/palette_race.py`` reproduces two in a bare Textual app), and a leak:

- Closed mid-search (a key typed, then Esc, in one burst or on a slow link): the search worker can
  still finish and set the palette's list flags (or look for its list) after its widgets are gone,
  and fail with ``NoMatches`` (seed 9, events 1188 and 3449). The list watchers do nothing once the
  widgets are gone, and a search that finds the palette gone just stops.
- Two Enters in one burst (seed 10, event 158): each Enter selects the highlighted command before
  the first selection is handled, so the palette dismisses itself twice. The second ``dismiss`` pops
  the screen *under* the palette (or raises ``ScreenStackError`` when that was the last one) and the
  command runs twice. Once the palette has been dismissed, it ignores further selections and
  dismissals.
- Memory: each palette opened left its widgets' style caches (and their drawn lines) alive in
  ``StylesCache.get_inner_outer``'s ``functools.lru_cache`` on the instance method (1,024 entries), about
  31 MiB over 400 opens before it levelled off (``bench/screen_memory.py --screens palette``). The palette
  clears it as it closes, as our screens do (``patches/screens.py``, ``LeftSafely``).
- Page Down/Up before the command list has been laid out (``ctrl+p`` then Page Down in one burst,
  or a list too short to show a line; seed 9, event 3563): ``OptionList._move_page`` looks up the
  line of an option whose lines were never computed (``KeyError: 0``). Until the list has a height,
  Page Down/Up move by one command.
"""

from __future__ import annotations

from textual import events, work
from textual._styles_cache import StylesCache
from textual.await_complete import AwaitComplete
from textual.command import CommandList, CommandPalette
from textual.css.query import NoMatches
from textual.message import Message
from textual.widgets import Button, Input, OptionList

from .versions import MEASURED

MEASURED_ON = MEASURED
"""The Textual releases these races were reproduced on was measured on."""

_SELECTIONS = (Input.Submitted, Button.Pressed, OptionList.OptionSelected, events.Click)
"""Messages that select a command or close the palette: ignored once it has been dismissed."""


class WomCommandPalette(CommandPalette):
    """A CommandPalette that closes once and whose list survives keys that arrive early or late."""

    _dismissed = False

    def on_unmount(self) -> None:
        """Let go of the style caches of the palette's widgets (see the module's docstring)."""
        StylesCache.get_inner_outer.cache_clear()

    def _widgets_gone(self) -> bool:
        return not self.is_attached or not self.query(CommandList) or not self.query("#--input")

    def dismiss(self, result: None = None) -> AwaitComplete:
        """Close the palette; a second call (a second Enter or Esc already queued) does nothing."""
        if self._dismissed or self not in self.app.screen_stack or self.app.screen is not self:
            return AwaitComplete.nothing()
        self._dismissed = True
        return super().dismiss(result)

    async def _on_message(self, message: Message) -> None:
        if self._dismissed and isinstance(message, _SELECTIONS):
            return  # queued before the palette closed: the first selection already ran
        await super()._on_message(message)

    def _select_or_command(self, event: Input.Submitted | Button.Pressed | None = None) -> None:
        if self._dismissed:
            return
        super()._select_or_command(event)

    def _action_command_list(self, action: str) -> None:
        if action in ("page_up", "page_down"):
            commands = self.query(CommandList)
            if commands and not commands.first().scrollable_content_region:
                action = "cursor_up" if action == "page_up" else "cursor_down"  # no page height yet
        super()._action_command_list(action)

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
