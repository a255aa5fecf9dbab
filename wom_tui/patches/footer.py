"""Textual's Footer, minus a leak and minus needless rebuilds.

It forgets the FooterKeys it has thrown away, and it rebuilds its keys only when what it shows
has changed. It also closes up its keys (Textual's ``compact`` style) on a terminal too narrow for them
at the usual spacing, so that the last keys and the palette's are not cut off; on one too narrow even
then, the palette's key goes without its word and the keys that still do not fit whole are left out.

Textual 8's Footer recomposes its FooterKeys whenever the active bindings change (every screen
opened or closed). Each FooterKey data-binds ``compact`` to the Footer, which puts a watcher in the
Footer's own watcher list; Textual drops watchers of closed widgets only when ``compact`` changes,
which it never does here. So a long-lived Footer (the main menu's) kept every FooterKey it ever
made, with its styles and render caches: about a third of a megabyte per screen opened. Upstream
reproduction: ``bench/footer_leak.py``. Use this Footer in every screen until Textual fixes it.
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.widgets import Footer as TextualFooter
from textual.widgets._footer import FooterKey

from .versions import MEASURED

MEASURED_ON = MEASURED
"""The Textual releases this Footer was measured on."""


class Footer(TextualFooter):
    """Textual's Footer that rebuilds only on a change and drops the watchers of its removed keys.

    Textual recomposes the Footer whenever the screen's bindings are refreshed, which happens after
    every key press and focus change even when the footer would show exactly the same keys; each
    rebuild makes and styles a dozen new FooterKeys (a fifth of a game's CPU time per key was spent
    there). This Footer remembers what it showed and skips a rebuild that would show the same.
    """

    _shown: Any = None
    _fitted: tuple[bool, bool, int | None] = (False, False, None)
    """Whether the keys were closed up, and the palette's word left out, at the last compose; and then how many
    keys fitted beside it."""

    def compose(self) -> ComposeResult:
        """Textual's keys, each made with the Footer's ``compact`` already set.

        A FooterKey starts compact (its reactive's default) and is data-bound to the Footer, which
        is not: so each key was restyled twice as it mounted (made compact, then not), a quarter of
        the Footer's cost and about a tenth of opening a screen. Set before mounting, both
        changes are no-ops; the data binding still follows later changes of ``compact``.
        """
        bare_palette = False
        fit: int | None = None
        if self._bindings_ready and self.is_attached:
            width = self.app.size.width
            self.set_reactive(TextualFooter.compact, self._too_narrow(width))
            self.set_class(self.compact, "-compact", update=False)
            # Closed up and still too wide: the palette's key goes without its word (F1 Help names it), and
            # the keys that would run on beneath it are left out (each stays in F1 Help and on its screen).
            bare_palette = self._too_narrow(width, compact=True)
            fit = self._keys_that_fit(width) if bare_palette else None
            self._fitted = (self.compact, bare_palette, fit)
        compact = self.compact
        keys = 0
        if not self._bindings_ready and self.is_attached and getattr(self.screen, "FOOTER_AT_ONCE", False):
            # Textual's Footer composes empty and fills in only once its screen says its bindings are
            # ready, after the screen's first paint: the screen is laid out and drawn a second time just
            # for its footer. That makes the first paint sooner (by about 25 ms of CPU at the main menu)
            # but costs more in all; a screen that says ``FOOTER_AT_ONCE`` (a served game's menu) gets its
            # keys in its first layout (its bindings are known as soon as the Footer is mounted in it).
            self.set_reactive(TextualFooter._bindings_ready, True)
        self._shown = self._what_it_shows()
        for widget in super().compose():
            # Only the keys bound to the Footer's compact (not the palette key, which stays compact).
            if isinstance(widget, FooterKey) and "compact" in (widget._reactive_connect or {}):
                widget.set_reactive(FooterKey.compact, compact)
                widget.set_class(compact, "-compact", update=False)
                if fit is not None and keys >= fit:
                    widget.display = False
                keys += 1
            elif bare_palette and isinstance(widget, FooterKey) and widget.has_class("-command-palette"):
                widget.description = ""
            yield widget

    def _what_it_shows(self) -> Any:
        """Everything ``compose`` reads: the shown bindings with their state, and the palette key.

        Bindings not shown are left out: focus moving to a widget with hidden bindings only (the menu's
        list as it first takes focus, after the first paint) changes nothing on show.
        """
        if not self._bindings_ready or not self.is_attached:
            return None
        app = self.app
        palette = app.COMMAND_PALETTE_BINDING
        return (
            self.show_command_palette,
            self.compact,
            tuple(
                (key, binding.key, binding.action, binding.description, binding.show, id(binding.group),
                 enabled, tooltip, binding.tooltip, app.get_key_display(binding))
                for key, (_node, binding, enabled, tooltip) in self.screen.active_bindings.items()
                if binding.show or key == palette
            ),
        )

    def _too_narrow(self, width: int, *, compact: bool = False) -> bool:
        """Whether the shown keys, at Textual's usual spacing (or ``compact``), need more than ``width`` cells.

        A key takes its key, a space and its description, and two cells more (its padding, or when
        compact one cell of margin); the palette's key (docked right) takes its border too.
        """
        app = self.app
        palette = app.COMMAND_PALETTE_BINDING
        needed = 0
        actions: set[str] = set()
        for key, (_node, binding, _enabled, _tooltip) in self.screen.active_bindings.items():
            shown = app.get_key_display(binding)
            if key == palette and self.show_command_palette and app.ENABLE_COMMAND_PALETTE:
                needed += 1 + cell_len(shown) + 1 + cell_len(binding.description) + (0 if compact else 1)
            elif binding.show and binding.action not in actions:
                actions.add(binding.action)
                needed += cell_len(shown) + 1 + cell_len(binding.description) + (1 if compact else 2)
        return needed > width

    def _keys_that_fit(self, width: int) -> int:
        """How many of the shown keys, closed up, fit whole in ``width`` cells beside the palette's bare key
        (its border, its key and the one cell of margin it keeps at the edge). Those after them ran on beneath
        the palette's key and showed as a stray letter or two on either side of it.
        """
        app = self.app
        palette = app.COMMAND_PALETTE_BINDING
        room = width
        widths: list[int] = []
        actions: set[str] = set()
        for key, (_node, binding, _enabled, _tooltip) in self.screen.active_bindings.items():
            shown = app.get_key_display(binding)
            if key == palette and self.show_command_palette and app.ENABLE_COMMAND_PALETTE:
                room -= 1 + cell_len(shown) + 1
            elif binding.show and binding.action not in actions:
                actions.add(binding.action)
                widths.append(cell_len(shown) + 1 + cell_len(binding.description))
        fit, end = 0, 0
        for needed in widths:
            if end + needed > room:
                break
            fit, end = fit + 1, end + needed + 1  # (one cell of margin between two keys)
        return fit

    def on_resize(self, event: events.Resize) -> None:
        """Close up the keys when the terminal became too narrow for them, open them out when it is wide again."""
        if self._bindings_ready and self.is_attached:
            width = event.size.width
            bare = self._too_narrow(width, compact=True)
            if (self._too_narrow(width), bare, self._keys_that_fit(width) if bare else None) != self._fitted:
                self._shown = None  # (compose again, whatever the bindings)
                self.call_after_refresh(self.recompose)

    async def recompose(self) -> None:
        """Recompose as Textual does when what it shows has changed; then forget the closed keys' watchers."""
        shown = self._what_it_shows()
        if shown is not None and shown == self._shown and self.children:
            return
        self._shown = shown
        await super().recompose()
        self.forget_closed_watchers()

    def forget_closed_watchers(self) -> None:
        """Drop watchers (data bindings) whose widget has been removed; they only hold memory."""
        watchers: dict[str, list[tuple[object, object]]] = getattr(self, "__watchers", {})
        for name, entries in watchers.items():
            entries[:] = [
                (node, callback)
                for node, callback in entries
                if not (getattr(node, "_closing", False) or getattr(node, "_closed", False))
            ]
