"""The terminal's own cursor on the focused widget, so that a braille display or a screen reader, which
follow the hardware cursor, follow the focus (docs/play.md, *Playing without seeing the screen*).

Textual 8 hides the terminal cursor as it starts (``LinuxDriver.start_application_mode`` and the web
driver write ``ESC [?25l``) and never shows it again. It does move it after every frame, to
``App.cursor_position`` (``App._display``: ``Control.move_to`` after the frame's segments), but only its
``Input`` and ``TextArea`` set that position, on focus and when their caret moves; focus on a button, a
list or a table leaves the cursor wherever the last input left it, and a layout or a scroll that moves
the focused input leaves it behind; and at the end of an input's text it is one cell past the caret drawn
(``Input.cursor_screen_offset``). ``bench/upstream/focus_cursor.py`` shows these in a bare Textual app.

:class:`FocusCursor` (a mixin of the app, like the key queue) sets ``cursor_position`` to the focused
widget's place just before each frame is written: the caret of an input, the start of the highlighted
option of a list, the cursor's cell (or row) of a table, the highlighted button of a radio set, a widget's own ``screen_cursor`` where it has one
(the peg entry's current slot), and otherwise the top left corner of the widget's content. It then shows
the cursor (``ESC [?25h``) once, and again after anything hid it (a resumed app), unless the app says it
should stay hidden (:meth:`FocusCursor.cursor_hidden`): it is still placed, so a screen reader that reads
the position without the shape still follows.
"""

from __future__ import annotations

from typing import Any, TypeVar

from textual._compositor import CompositorUpdate
from textual.app import App
from textual.geometry import Offset, Region
from textual.widget import Widget
from textual.widgets import DataTable, Input, OptionList, RadioSet

from .versions import MEASURED, measured

MEASURED_ON = MEASURED
"""The Textual releases this was measured on."""

SHOW = "\x1b[?25h"
HIDE = "\x1b[?25l"

ReturnT = TypeVar("ReturnT")


def _inside(offset: Offset, region: Region) -> Offset | None:
    return offset if region.contains_point(offset) else None


def _input_cursor(widget: Input) -> Offset | None:
    # Not Input.cursor_screen_offset: at the end of the text it is one cell past the caret drawn (its
    # _cursor_offset adds the cell kept free for the caret to the caret itself).
    content = widget.content_region
    cell = widget._position_to_cell(widget.cursor_position)  # Textual's own cell count
    return _inside(Offset(content.x + cell - int(widget.scroll_x), content.y), content)


def _list_cursor(widget: OptionList) -> Offset | None:
    highlighted = widget.highlighted
    if highlighted is None:
        return None
    line = widget._index_to_line.get(highlighted)  # Textual's own line map of the options
    if line is None:
        return None
    content = widget.content_region
    return _inside(Offset(content.x, content.y + line - int(widget.scroll_y)), content)


def _table_cursor(widget: DataTable[Any]) -> Offset | None:
    if not widget.show_cursor or widget.row_count == 0:
        return None
    if widget.cursor_type == "row":
        x, y = 0, widget._get_row_region(widget.cursor_row).y
    elif widget.cursor_type == "column":
        x, y = widget._get_column_region(widget.cursor_column).x, 0
    elif widget.cursor_type == "cell":
        x, y, _width, _height = widget._get_cell_region(widget.cursor_coordinate)
    else:
        return None
    content = widget.content_region
    scroll_x = int(widget.scroll_x) if x else 0
    scroll_y = int(widget.scroll_y) if y else 0
    return _inside(Offset(content.x + x - scroll_x, content.y + y - scroll_y), content)


def _radio_cursor(widget: RadioSet) -> Offset | None:
    index = widget._selected  # the button the keyboard is on (Textual's own highlight)
    buttons = widget._nodes
    if index is None or not 0 <= index < len(buttons):
        return None
    region = buttons[index].region
    return region.offset if region.area else None


def focus_cursor(widget: Widget) -> Offset | None:
    """Where the terminal cursor belongs for ``widget`` (focused), in screen space; None if it is not shown."""
    region = widget.region
    if not region.area:
        return None
    own = getattr(widget, "screen_cursor", None)
    place: Offset | None = None
    if callable(own):
        place = own()
    elif isinstance(widget, Input):
        place = _input_cursor(widget)
    elif isinstance(widget, OptionList):
        place = _list_cursor(widget)
    elif isinstance(widget, DataTable):
        place = _table_cursor(widget)
    elif isinstance(widget, RadioSet):
        place = _radio_cursor(widget)
    if place is None:
        content = widget.content_region
        place = content.offset if content.area else region.offset
    return place


class FocusCursor(App[ReturnT]):
    """An App whose terminal cursor sits on the focused widget (a mixin: the app's class derives from it)."""

    _cursor_told: bool | None = None
    """What the terminal was last told (True: shown), None: not known (a new or resumed driver)."""

    _cursor_measured: bool | None = None
    """Whether the running Textual is one this was measured on (else the app's cursor is Textual's own)."""

    def _display(self, screen: Any, renderable: Any) -> None:
        focused = None
        if FocusCursor._cursor_measured is None:
            FocusCursor._cursor_measured = measured("patches.cursor", MEASURED_ON)
        if not FocusCursor._cursor_measured:
            super()._display(screen, renderable)
            return
        if isinstance(renderable, CompositorUpdate):
            focused = self.focused
            if focused is not None:
                place = focus_cursor(focused)
                if place is not None:
                    self.cursor_position = place
                else:
                    focused = None
        super()._display(screen, renderable)  # writes the frame, then moves the cursor to cursor_position
        driver = self._driver
        if driver is None or self.is_headless or not isinstance(renderable, CompositorUpdate):
            return
        show = focused is not None and not self.cursor_hidden()
        if show != self._cursor_told:
            self._cursor_told = show
            driver.write(SHOW if show else HIDE)
            driver.flush()

    def cursor_hidden(self) -> bool:
        """True: the cursor is placed but not shown (the app says when: the player's choice, the theme's)."""
        return False

    def cursor_reset(self) -> None:
        """The terminal was started again (resumed): it hid the cursor, so say again whether to show it."""
        self._cursor_told = None

    def refresh_cursor(self) -> None:
        """Show or hide the cursor at once (after what :meth:`cursor_hidden` says changed)."""
        self._cursor_told = None
        self.screen.refresh()


__all__ = ["FocusCursor", "focus_cursor"]
