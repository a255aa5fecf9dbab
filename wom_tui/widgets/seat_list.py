"""SeatList: the seats of a live table, an OptionList whose rows are replaced one at a time."""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Region
from textual.widgets import OptionList


class SeatList(OptionList):
    """An :class:`OptionList` of one-line rows (the seats panel of a live table).

    :meth:`replace_row` repaints the one row that changed. Textual's ``replace_option_prompt_at_index``
    drops every row's rendering and the line map and repaints the whole list: at a table of three
    where everybody guesses at once, each guess repainted every seat on the other players' screens.
    """

    def action_cursor_down(self) -> None:
        """The next seat; at the last one the highlight stays (no wrap: ↓↓ at a table of three went
        back to seat 1, and ``h`` then acted on a seat the player never meant).
        """
        if self.highlighted is None or self.highlighted < self.option_count - 1:
            super().action_cursor_down()

    def action_cursor_up(self) -> None:
        """The seat before; at the first one the highlight stays."""
        if self.highlighted is None or self.highlighted > 0:
            super().action_cursor_up()

    def replace_row(self, index: int, prompt: Text) -> None:
        """Show ``prompt`` (one line, ``no_wrap``) as row ``index``, repainting only that row."""
        option = self.get_option_at_index(index)
        line = self._index_to_line.get(index)
        lines = self._lines
        if line is None or line >= len(lines) or lines[line] != (index, 0) \
                or (line + 1 < len(lines) and lines[line + 1][0] == index):
            self.replace_option_prompt_at_index(index, prompt)  # not laid out yet, or a row of more lines
            return
        option._set_prompt(prompt)
        cache = self._option_render_cache
        for key in [key for key in cache.keys() if key[0] is option]:
            cache.discard(key)
        y = line - round(self.scroll_offset.y)
        width = self.scrollable_content_region.width
        if 0 <= y < self.scrollable_content_region.height and width:
            self.refresh(Region(0, y, width, 1))


__all__ = ["SeatList"]
