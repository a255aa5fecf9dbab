"""RowList: a long list of rows of one height (the lobby's tables) that change, come and go one at a time.

Textual's ``OptionList`` drops every row's drawing and measures every row again after any change
(``_clear_caches``): with 2,000 tables in the lobby, each arrival or departure measured 2,000 rows again
on every open lobby. Here a changed row is measured and repainted alone (while its height stays), a
removed row moves the rows after it up without measuring any, and rows added at the end are measured
alone (``add_options`` already does that). Measured on Textual 8.2; ``bench/lobby_rows.py`` shows the cost.
"""

from __future__ import annotations

from typing import cast

from textual.css.styles import RulesMap
from textual.geometry import Region
from textual.visual import VisualType

from .seat_list import SeatList


class RowList(SeatList):
    """An :class:`OptionList` whose rows are replaced, removed and appended one at a time."""

    def replace_row(self, index: int, prompt: VisualType) -> None:
        """Show ``prompt`` as row ``index``, measuring and repainting only that row (if its height stays)."""
        option = self.get_option_at_index(index)
        cache = self._line_cache
        line, height = cache.index_to_line.get(index), cache.heights.get(index)
        region = self.scrollable_content_region
        if line is None or height is None or not region:
            self.replace_option_prompt_at_index(index, prompt)  # not laid out yet: Textual's way
            return
        option._set_prompt(prompt)
        padding = self.get_component_styles("option-list--option").padding
        width = region.width - self._get_left_gutter_width()
        if self._get_visual(option).get_height(cast(RulesMap, self.styles), width - padding.width) + option._divider != height:
            self._clear_caches()  # a row of another height moves every row after it
            return
        renders = self._option_render_cache
        for key in [key for key in renders.keys() if key[0] is option]:
            renders.discard(key)
        y = line - round(self.scroll_offset.y)
        if y + height > 0 and y < region.height:
            self.refresh(Region(0, y, region.width, height))

    def remove_row(self, index: int) -> None:
        """Remove row ``index``; the rows after it move up without being measured again."""
        cache = self._line_cache
        count = self.option_count
        height = cache.heights.get(index)
        if height is None or len(cache.lines) != count * height or set(cache.heights.values()) != {height}:
            self.remove_option_at_index(index)  # not laid out yet, or rows of several heights: Textual's way
            return
        option = self._options[index]
        self._mouse_hovering_over = None
        self._pre_remove_option(option, index)
        del self._options[index]
        del self._option_to_index[option]
        for later in self._options[index:]:
            self._option_to_index[later] -= 1
        if option.id is not None:
            del self._id_to_option[option.id]
        # Every row has the same height: the line map loses its last row's lines, and only the rows from
        # ``index`` on are drawn again (their cached drawing carries their old position, for clicks).
        del cache.lines[-height:]
        cache.heights.pop(count - 1, None)
        cache.index_to_line.pop(count - 1, None)
        renders = self._option_render_cache
        for key in [key for key in renders.keys() if key[0] is option or self._option_to_index.get(key[0], -1) >= index]:
            renders.discard(key)
        highlighted = self.highlighted
        if highlighted is not None and highlighted > index:
            self.highlighted = highlighted - 1
        elif highlighted is not None:
            self.highlighted = min(highlighted, count - 2) if count > 1 else None
        self._update_lines()  # (the list's height: one row less)
        self.refresh()


__all__ = ["RowList"]
