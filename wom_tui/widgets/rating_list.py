"""The rating board's rows: place, name, rating, games, last played, drawn line by line.

A ``DataTable`` measures every cell of every row before it first paints (seconds for 10,000 players);
this list draws only the lines on screen, so the board with 10,000 rated players paints at once
(``bench/arcade.py``, ``rating_board_paint_ms``). Names are drawn as plain text, never markup.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.segment import Segment
from textual.binding import Binding
from textual.events import Click
from textual.geometry import Offset, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ..domain.ratings import Rating

PLACE, RATING, GAMES, LAST = 5, 7, 6, 13
"""Widths of the fixed columns (the name takes the rest)."""


def row_text(place: int, rating: Rating, name_width: int) -> str:
    """One row as text: right-aligned place, the name, rating (``1012?`` while provisional) and games, the day
    last played.
    """
    name = rating.name if len(rating.name) <= name_width else rating.name[: max(0, name_width - 1)] + "…"
    shown = rating.label if rating.provisional else f"{rating.label} "  # the numbers line up past the mark
    return (f"{place:>{PLACE - 1}} {name:<{name_width}}{shown:>{RATING}}{rating.games:>{GAMES}}"
            f"  {rating.last_played[:10]:<{LAST - 2}}")


def header_text(name_width: int) -> str:
    """The column titles, aligned with :func:`row_text`."""
    return f"{'#':>{PLACE - 1}} {'Name':<{name_width}}{'Rating ':>{RATING}}{'Games':>{GAMES}}  {'Last played':<{LAST - 2}}"


class RatingList(ScrollView, can_focus=True):
    """Rated players best first, one line each, with a cursor row; only the visible lines are drawn."""

    DEFAULT_CSS = """
    RatingList {
        height: 1fr;
        background: $surface;
    }
    RatingList > .rating-list--header {
        text-style: bold;
        color: $text-accent;
    }
    RatingList > .rating-list--cursor {
        background: $block-cursor-background;
        color: $block-cursor-foreground;
        text-style: bold;
    }
    RatingList > .rating-list--stripe {
        background: $surface-lighten-1;
    }
    """
    COMPONENT_CLASSES = {"rating-list--header", "rating-list--cursor", "rating-list--stripe"}
    BINDINGS = [
        Binding("up", "move(-1)", "Up", show=False),
        Binding("down", "move(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home", "move(-1000000000)", "First", show=False),
        Binding("end", "move(1000000000)", "Last", show=False),
    ]

    cursor = reactive(0, always_update=True)
    """The highlighted row."""

    class Highlighted(Message):
        """The cursor moved to ``rating``."""

        def __init__(self, rating: Rating) -> None:
            super().__init__()
            self.rating = rating

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.ratings: Sequence[Rating] = ()

    def show(self, ratings: Sequence[Rating]) -> None:
        """Show these players (best first), the cursor on the first."""
        self.ratings = ratings
        self.virtual_size = Size(0, len(ratings) + 1)
        self.cursor = 0
        self.scroll_home(animate=False)
        self.refresh()

    @property
    def highlighted(self) -> Rating | None:
        """The player under the cursor, or None on an empty list."""
        return self.ratings[self.cursor] if self.ratings else None

    def screen_cursor(self) -> Offset | None:
        """Where the terminal cursor goes while the list has the focus: the start of the highlighted row
        (:mod:`wom_tui.patches.cursor`).
        """
        content = self.content_region
        place = Offset(content.x, content.y + 1 + self.cursor - self.scroll_offset.y)
        return place if self.ratings and content.contains_point(place) else None

    def _name_width(self) -> int:
        return max(4, self.scrollable_content_region.width - PLACE - RATING - GAMES - LAST)

    def render_line(self, y: int) -> Strip:
        """Line ``y`` of the view: the header stays on the first line, rows scroll below it."""
        width = self.scrollable_content_region.width
        name_width = self._name_width()
        if y == 0:
            style = self.get_component_rich_style("rating-list--header")
            return Strip([Segment(header_text(name_width).ljust(width)[:width], style)], width)
        index = y - 1 + self.scroll_offset.y
        if index >= len(self.ratings):
            return Strip.blank(width, self.rich_style)
        text = row_text(index + 1, self.ratings[index], name_width).ljust(width)[:width]
        if index == self.cursor and self.has_focus:
            style = self.get_component_rich_style("rating-list--cursor")
        elif index % 2:
            style = self.rich_style + self.get_component_rich_style("rating-list--stripe")
        else:
            style = self.rich_style
        return Strip([Segment(text, style)], width)

    def watch_cursor(self, cursor: int) -> None:
        if not self.ratings:
            return
        # Keep the cursor in view below the fixed header line.
        rows = max(1, self.scrollable_content_region.height - 1)
        top = self.scroll_offset.y
        if cursor < top:
            self.scroll_to(y=cursor, animate=False)
        elif cursor >= top + rows:
            self.scroll_to(y=cursor - rows + 1, animate=False)
        self.refresh()
        self.post_message(self.Highlighted(self.ratings[cursor]))

    def _on_focus(self, event: object) -> None:
        self.refresh()

    def _on_blur(self, event: object) -> None:
        self.refresh()

    def action_move(self, rows: int) -> None:
        """Move the cursor by ``rows`` (clamped to the list)."""
        if self.ratings:
            self.cursor = min(max(0, self.cursor + rows), len(self.ratings) - 1)

    def action_page(self, pages: int) -> None:
        """Move the cursor by a screenful."""
        self.action_move(pages * max(1, self.scrollable_content_region.height - 1))

    def on_click(self, event: Click) -> None:
        """A click on a row puts the cursor there."""
        index = event.y - 1 + self.scroll_offset.y
        if event.y >= 1 and 0 <= index < len(self.ratings):
            self.cursor = index


__all__ = ["RatingList", "header_text", "row_text"]
