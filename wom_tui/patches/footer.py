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
            closed_up, bare_palette, fit = self._fitted = self._fit(self.app.size.width)
            self.set_reactive(TextualFooter.compact, closed_up)
            self.set_class(self.compact, "-compact", update=False)
            # Closed up and still too wide: the palette's key goes without its word (F1 Help names it), and
            # the keys that would run on beneath it are left out (each stays in F1 Help and on its screen).
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

    def _fit(self, width: int) -> tuple[bool, bool, int | None]:
        """How the shown keys fit in ``width`` cells: whether they are closed up (Textual's ``compact``), whether
        the palette's key goes bare even so, and then how many keys fit whole beside it (else None).

        A key takes its key, a space and its description, and two cells more (its padding, or when closed up
        one cell of margin); the palette's key (docked right) takes its border too, and bare, one cell of margin
        at the edge. The keys after those that fit whole beside it ran on beneath it and showed as a stray
        letter or two on either side of it.
        """
        app = self.app
        palette = app.COMMAND_PALETTE_BINDING
        palette_key: tuple[int, int] | None = None  # (its key's cells, its word's)
        keys: list[int] = []
        actions: set[str] = set()
        for key, (_node, binding, _enabled, _tooltip) in self.screen.active_bindings.items():
            shown = cell_len(app.get_key_display(binding))
            if key == palette and self.show_command_palette and app.ENABLE_COMMAND_PALETTE:
                palette_key = (shown, cell_len(binding.description))
            elif binding.show and binding.action not in actions:
                actions.add(binding.action)
                keys.append(shown + 1 + cell_len(binding.description))

        def needed(compact: bool) -> int:
            cells = sum(keys) + len(keys) * (1 if compact else 2)
            if palette_key is not None:
                cells += 1 + palette_key[0] + 1 + palette_key[1] + (0 if compact else 1)
            return cells

        if needed(compact=True) <= width:
            return needed(compact=False) > width, False, None
        room = width - (0 if palette_key is None else 1 + palette_key[0] + 1)
        fit, end = 0, 0
        for cells in keys:
            if end + cells > room:
                break
            fit, end = fit + 1, end + cells + 1  # (one cell of margin between two keys)
        return True, True, fit

    def on_resize(self, event: events.Resize) -> None:
        """Close up the keys when the terminal became too narrow for them, open them out when it is wide again."""
        if self._bindings_ready and self.is_attached:
            if self._fit(event.size.width) != self._fitted:
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
