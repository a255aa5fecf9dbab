"""The text a screen shows, line by line (for layout tests and debugging)."""

from __future__ import annotations

from textual.app import App


def screen_lines(app: App[object]) -> list[str]:
    """Each row of the current screen as plain text, trailing spaces removed."""
    return [strip.text.rstrip() for strip in app.screen._compositor.render_strips()]


def screen_text(app: App[object]) -> str:
    """The current screen as one string."""
    return "\n".join(screen_lines(app))
