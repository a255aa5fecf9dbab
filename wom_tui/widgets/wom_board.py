"""Pieces of the World of Mastermind screens: a player's history table and the table of players."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.style import Style
from rich.text import Text
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import DataTable, Static

from ..domain.board import DecodingBoard
from ..domain.codes import Feedback, Ruleset
from ..domain.wom import PlayerStanding
from .pegs import code_pegs, feedback_grid
from .themes import rich_colour

WIDE_CODE = 6
"""From this code length on, pegs sit without gaps and the feedback text loses its spaces, to fit 80 columns."""


def guess_cell(guess: str, ruleset: Ruleset) -> Text:
    """A guess as coloured pegs, each showing its letter."""
    return code_pegs(guess, ruleset.palette, gap="" if ruleset.length >= WIDE_CODE else " ")


def feedback_words(result: Feedback, ruleset: Ruleset) -> Text:
    """The seed's ``K K W`` (``KKW`` for long codes, so the table still fits)."""
    text = result.text
    if ruleset.length >= WIDE_CODE:
        text = text.replace(" ", "")
    return Text(text, end="")


class HistoryTable(DataTable[Text]):
    """One board's attempts: #, the guess as pegs, key pegs in a small grid, and ``K K W``."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        self._cells_drawn: dict[tuple[Any, ...], Any] = {}
        self._lines_drawn: dict[tuple[Any, ...], Strip] = {}
        super().__init__(
            id=id, classes=classes, cursor_type="none", zebra_stripes=True, show_cursor=False
        )
        self.can_focus = False
        self._shown: tuple[int, int] | None = None

    def clear(self, columns: bool = False) -> HistoryTable:
        self._cells_drawn.clear()
        self._lines_drawn.clear()
        return super().clear(columns)

    def notify_style_update(self) -> None:
        """A new theme or style: every cell and line is drawn again."""
        self._cells_drawn.clear()
        self._lines_drawn.clear()
        super().notify_style_update()

    def _clear_caches(self) -> None:
        self._cells_drawn.clear()
        self._lines_drawn.clear()
        super()._clear_caches()

    def _render_cell(self, row_index: int, column_index: int, base_style: Style, width: int,
                     cursor: bool = False, hover: bool = False) -> Any:
        """DataTable's, kept across new rows: DataTable forgets every cell's drawing when a row is
        added (its caches are keyed by a count of changes), and drew the whole board again for each
        attempt. A row here never changes once added (and :meth:`clear` forgets them all), so a cell
        drawn once with the same style and width is drawn the same.
        """
        key = (row_index, column_index, base_style, width, cursor, hover, self._show_hover_cursor,
               self._pseudo_class_state, self.cursor_type, self.show_cursor)
        found = self._cells_drawn.get(key)
        if found is None:
            if len(self._cells_drawn) > 2000:
                self._cells_drawn.clear()
            found = self._cells_drawn[key] = super()._render_cell(row_index, column_index, base_style, width,
                                                                  cursor, hover)
        return found

    def _column_widths(self) -> list[int]:
        return [column.get_render_width(self) for column in self.ordered_columns]

    def _keep_drawn_lines(self, update_count: int, end: int) -> None:
        """Rows were only added below, the columns kept their widths: every line drawn so far, above
        ``end`` (the old bottom), is still right. DataTable counts each new row as a change of
        everything (its caches are keyed by that count) and drew every visible line again; here the
        count goes back, and only what depends on the rows' number is forgotten: the rows' offsets,
        and the lines from ``end`` down (blank until now).
        """
        self._update_count = update_count
        self._offset_cache.clear()
        self._ordered_row_cache.clear()
        lines = self._line_cache
        for key in [key for key in lines.keys() if key[0] >= end]:
            lines.discard(key)
        drawn = self._lines_drawn
        for key in [key for key in drawn if key[0] >= end]:
            del drawn[key]

    _quiet_size = False
    """While set, a change of the virtual size repaints the table without a new layout (see show_board)."""

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False) -> HistoryTable:
        if self._quiet_size:
            layout = False
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    _frame: tuple[Any, ...] | None = None
    """While the table draws its lines: what every line of it shares (see render_lines)."""

    def render_lines(self, crop: Region) -> list[Strip]:
        """DataTable's, with what every line shares worked out once, not at each line: the table's
        style (which walks every ancestor), its size, scroll and header. A new attempt scrolls the
        board, so every line on show is drawn again; DataTable spent more than half of that in
        working out its own style once per line.
        """
        self._pseudo_class_state = self.get_pseudo_class_state()
        header = self.header_height if self.show_header else 0
        self._frame = (self.size.width, self.scroll_offset, self.rich_style, header, self._pseudo_class_state)
        try:
            return Widget.render_lines(self, crop)
        finally:
            self._frame = None

    def render_line(self, y: int) -> Strip:
        frame = self._frame
        if frame is None or self.fixed_rows:
            return super().render_line(y)
        width, (scroll_x, scroll_y), base_style, header, pseudo = frame
        if y >= header:
            y += scroll_y
        key = (y, scroll_x, width, base_style, self._update_count, pseudo, self.hover_coordinate)
        found = self._lines_drawn.get(key)
        if found is None:
            if len(self._lines_drawn) > 500:
                self._lines_drawn.clear()
            found = self._lines_drawn[key] = self._render_line(y, scroll_x, scroll_x + width, base_style)
        return found

    def on_mount(self) -> None:
        """Add the columns; keep the newest attempt in view as the board grows or shrinks (until the player
        scrolls up; scrolled back down, or a new attempt, it follows again).
        """
        self.anchor()
        self.add_column(Text("#"), key="number")
        self.add_column(Text("Guess"), key="guess")
        self.add_column(Text("Keys"), key="keys")
        self.add_column(Text("Feedback"), key="text")

    def show_board(self, board: DecodingBoard, *, owner: int) -> None:
        """Show ``board`` (``owner`` tells boards apart); only new attempts are added when it is the same board."""
        history = board.history
        shown = self._shown
        appended = not (shown is None or shown[0] != owner or shown[1] > len(history))
        if shown is None or not appended:
            self.clear()
            start = 0
        else:
            start = shown[1]
        drawn = (self._update_count, self.virtual_size.height, self._column_widths())
        ruleset = board.ruleset
        for number, (guess, result) in enumerate(history[start:], start=start + 1):
            self.add_row(
                Text(str(number), justify="right"),
                guess_cell(guess, ruleset),
                feedback_grid(result, ruleset.length),
                feedback_words(result, ruleset),
                height=2,
                key=str(number),
            )
        self._shown = (owner, len(history))
        if self.size.height and self._require_update_dimensions:
            # DataTable measures new rows when idle, and scroll_end waits for the next frame: a new
            # attempt drew the board twice (the row, then the scroll). Measured now, the board scrolls
            # at once and is drawn once (a quarter of a live game's drawing; docs/perf/).
            self._require_update_dimensions = False
            new_rows = self._new_rows.copy()
            self._new_rows.clear()
            # The new virtual size asks for a new layout of the whole screen (half of what a live
            # game's guess cost to draw): needed only when a scroll bar comes or goes, which
            # _scroll_update sees (and then lays the screen out); else the table and its bar repaint.
            self._quiet_size = True
            try:
                self._update_dimensions(new_rows)
            finally:
                self._quiet_size = False
            if appended and drawn[2] == self._column_widths():
                self._keep_drawn_lines(drawn[0], drawn[1])
            self._scroll_update(self.virtual_size)
            self.scroll_end(animate=False, immediate=True)
        else:
            self.scroll_end(animate=False)


    def mark_row(self, number: int, note: str) -> None:
        """Add ``note`` to row ``number``'s feedback (a Liar board's lie, revealed at the end)."""
        key = str(number)
        if key not in self.rows:
            return
        text = self.get_cell(key, "text")
        if note in text.plain:
            return
        self._cells_drawn.clear()
        self._lines_drawn.clear()
        self.update_cell(key, "text", Text(f"{text.plain}  {note}", end="", style="bold"), update_width=True)


_MARKS: dict[str, tuple[str, str]] = {
    "waiting": ("·", "setting"),
    "set": ("✓", "code set"),
    "playing": ("…", "guessing"),
    "broke": ("✓", "broke"),
    "failed": ("✗", "failed"),
}


class PlayersPanel(Static):
    """Every player of the game, whose turn it is, and how each is doing.

    Wide enough, a row reads ``▶ Alan     2/10  … guessing``; when narrow, the words go and the
    name moves last so a long name is cut rather than the state: ``▶ … 2/10 Alan``.
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._rows: Sequence[PlayerStanding] = ()

    def show(self, rows: Sequence[PlayerStanding]) -> None:
        """One row per player (the domain's standings: who moves, attempts ``2/10``, standing); names stay plain text."""
        self._rows = tuple(rows)
        self._draw()

    def on_resize(self) -> None:
        """Choose the wide or compact form for the new width."""
        self._draw()

    def _draw(self) -> None:
        rows = self._rows
        if not rows:
            return
        theme = self.app.current_theme
        colours = {"broke": theme.success, "failed": theme.error, "set": theme.success}
        name_width = max(len(player.name) for player, *_ in rows)
        attempts_width = max(len(attempts) for _, _, attempts, _ in rows)
        available = self.content_region.width
        full = 2 + name_width + (attempts_width + 1 if attempts_width else 0) + 2 + 10
        text = Text(end="", no_wrap=True, overflow="ellipsis")
        for index, (player, current, attempts, status) in enumerate(rows):
            if index:
                text.append("\n")
            icon, word = _MARKS[status]
            colour = None if self.app.no_color else rich_colour(colours.get(status))
            state_style = Style(color=colour, dim=status in ("waiting", "playing"))
            text.append("▶ " if current else "  ", style=Style(bold=True, color=rich_colour(theme.accent)))
            if available == 0 or full <= available:
                text.append(player.name.ljust(name_width), style=Style(bold=current))
                if attempts_width:
                    text.append(" " + attempts.rjust(attempts_width), style=Style(dim=not current))
                text.append(f"  {icon} {word}", style=state_style)
            else:
                text.append(icon, style=state_style)
                if attempts_width:
                    text.append(" " + attempts.rjust(attempts_width), style=Style(dim=not current))
                text.append(" " + player.name, style=Style(bold=current))
        self.update(text)
