"""LineInput: a text field whose typing repaints its line of text alone.

Textual's Input repaints the whole widget for each key (its ``value``, ``selection`` and cursor are
repainting reactives), and re-lays the screen too (the text's width goes to ``virtual_size``, a layout
reactive). A field is three lines high with its border, so a key re-rendered and sent three lines
(about 800 bytes over SSH) where one changed, and each player's key cost the server that much more
CPU. Here a key re-renders and sends the line of text only (about a third of the bytes). Styles still
repaint the whole field (focus, ``-invalid``): those go through Textual's own refresh.
"""

from __future__ import annotations

from textual.geometry import Region, Size
from textual.reactive import reactive
from textual.widgets import Input
from textual.widgets._input import Selection


class LineInput(Input):
    """An Input that repaints only its text line as it is typed in (and never re-lays the screen)."""

    # The same reactives as Input's, without the repaint of the whole widget: their watchers below
    # repaint the text line.
    value: reactive[str] = reactive("", init=False, repaint=False)
    selection: reactive[Selection] = reactive(Selection.cursor(0), repaint=False)
    _suggestion: reactive[str] = reactive("", repaint=False)
    _cursor_visible: reactive[bool] = reactive(True, repaint=False)

    def _repaint_text(self) -> None:
        width, height = self.content_size
        self.refresh(Region(0, 0, width, max(1, height)))

    def _watch_value(self, value: str) -> None:
        # Input stores the text's width in ``virtual_size``, a layout reactive; the field's size never
        # depends on its text, so set it quietly (Input's own watcher then finds it unchanged).
        self.set_reactive(Input.virtual_size, Size(self.content_width, 1))
        self._repaint_text()
        super()._watch_value(value)

    def _watch_selection(self, selection: Selection) -> None:
        self._repaint_text()
        super()._watch_selection(selection)

    def _watch__suggestion(self, suggestion: str) -> None:
        self._repaint_text()

    def _watch__cursor_visible(self, visible: bool) -> None:
        self._repaint_text()
