"""A workaround for a Textual 8.2 race in every OptionList (a Select's drop-down list included).

``OptionList._move_page`` looks up the line of the highlighted option, which the list computes only
when it is laid out; Page Up/Down that arrive before that (a key burst on a slow link, or a list
opened and paged in one packet) fail with ``KeyError: 0`` and end the app (the random run,
``bench/fuzz.py``: seed 9, event 3563 in the command palette, and again on the daily code's drop-down
list).
``bench/textual_races.py`` reproduces it in a bare Textual app. Until the lines exist, Page Up/Down
move by one option, as the command palette already does.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import OptionList

from .versions import MEASURED

MEASURED_ON = MEASURED
"""The Textual releases this patch was measured on (:func:`wom_tui.patches.install` skips it on others)."""

_original_move_page = OptionList._move_page


def _move_page(self: OptionList, direction: Any) -> None:
    if self._options and (self.highlighted or 0) not in self._index_to_line:
        if direction < 0:
            self.action_cursor_up()
        else:
            self.action_cursor_down()
        return
    _original_move_page(self, direction)


def install() -> None:
    """Replace ``OptionList._move_page`` with the guarded one (idempotent)."""
    OptionList._move_page = _move_page  # type: ignore[method-assign]
