"""Textual's Footer, minus a leak: it forgets the FooterKeys it has thrown away.

Textual 8's Footer recomposes its FooterKeys whenever the active bindings change (every screen
opened or closed). Each FooterKey data-binds ``compact`` to the Footer, which puts a watcher in the
Footer's own watcher list; Textual drops watchers of closed widgets only when ``compact`` changes,
which it never does here. So a long-lived Footer (the main menu's) kept every FooterKey it ever
made, with its styles and render caches: about a third of a megabyte per screen opened. Upstream
reproduction: ``bench/footer_leak.py``. Use this Footer in every screen until Textual fixes it.
"""

from __future__ import annotations

from textual.widgets import Footer as TextualFooter


class Footer(TextualFooter):
    """Textual's Footer that drops the watchers of its removed keys after each recompose."""

    async def recompose(self) -> None:
        """Recompose as Textual does, then forget the closed FooterKeys' watchers."""
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
