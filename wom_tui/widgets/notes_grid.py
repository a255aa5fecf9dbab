"""The notes grid: the player's scratch paper for a code being broken (docs/play.md, *Notes*).

One row per slot of the code, one column per symbol. Each cell is nothing (``·``), ruled out (``×``)
or certain (``✓``): shapes, so they read the same without colour. ↑/↓/←/→ move the cursor, typing a
symbol jumps to its column, Space, Enter or ``x`` moves the cell on (nothing → ruled out → certain →
nothing), a click does the same to the cell clicked; Esc or Tab leaves. The grid only shows and edits
:class:`~wom_tui.domain.notes.Notes`: the game never reads them.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from ..domain.codes import Palette
from ..domain.notes import Note, Notes
from .pegs import current_scheme

CELL = {None: "·", Note.OUT: "×", Note.SURE: "✓"}
"""How a cell is drawn: a shape per note."""
LABEL_WIDTH = 3
"""The slot numbers' column (``" 1 "``)."""


class NotesGrid(Widget, can_focus=True):
    """Notes per slot and symbol, edited by keys and by mouse; says :class:`Changed` after each edit."""

    BINDINGS = [
        Binding("up", "move(0, -1)", "Up", show=False),
        Binding("down", "move(0, 1)", "Down", show=False),
        Binding("left", "move(-1, 0)", "Left", show=False),
        Binding("right", "move(1, 0)", "Right", show=False),
        Binding("space,enter,x", "mark", "Mark", key_display="Space"),
        Binding("escape", "leave", "Guess"),
    ]
    DEFAULT_CSS = """
    NotesGrid {
        width: auto;
        height: auto;
        padding: 0 1;
        border: round $panel-lighten-2;
        border-title-color: $text-muted;
    }
    NotesGrid:focus {
        border: round $accent;
    }
    """

    notes: reactive[Notes] = reactive(Notes(4, "RGBYWK"), layout=True)
    cursor: reactive[tuple[int, int]] = reactive((0, 0))

    class Changed(Message):
        """The player changed a note; ``notes`` is the whole grid now."""

        def __init__(self, grid: NotesGrid, notes: Notes) -> None:
            super().__init__()
            self.grid = grid
            self.notes = notes

    class Leave(Message):
        """The player is done with the notes for now (Esc)."""

    def __init__(self, notes: Notes, palette: Palette, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.palette = palette
        self.set_reactive(NotesGrid.notes, notes)
        self.border_title = "Notes"
        self.border_subtitle = "× out · ✓ sure"

    def render(self) -> Text:
        notes = self.notes
        slot_at, symbol_at = self.cursor
        scheme = current_scheme()
        text = Text(" " * LABEL_WIDTH, end="")
        for column, symbol in enumerate(notes.symbols):
            text.append(" " if column else "")
            text.append(symbol, style=scheme.style_for(symbol, self.palette))
        for slot in range(notes.length):
            text.append(f"\n{slot + 1:>2} ", style=Style(dim=True))
            for column, symbol in enumerate(notes.symbols):
                text.append(" " if column else "")
                note = notes.note(slot, symbol)
                style = Style(dim=note is None, bold=note is not None,
                              color={Note.OUT: "red", Note.SURE: "green"}.get(note))  # type: ignore[arg-type]
                if self.has_focus and (slot, column) == (slot_at, symbol_at):
                    style += Style(reverse=True)
                text.append(CELL[note], style=style)
        return text

    def get_content_width(self, container: object, viewport: object) -> int:
        return LABEL_WIDTH + 2 * len(self.notes.symbols) - 1

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return 1 + self.notes.length

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def action_move(self, columns: int, rows: int) -> None:
        """Move the cursor (it stops at the edges)."""
        slot, column = self.cursor
        self.cursor = (min(max(slot + rows, 0), self.notes.length - 1),
                       min(max(column + columns, 0), len(self.notes.symbols) - 1))
        self.refresh()

    def action_mark(self) -> None:
        """Move the cell under the cursor on: nothing → ruled out → certain → nothing."""
        slot, column = self.cursor
        self._mark(slot, column)

    def action_leave(self) -> None:
        """Back to the guess."""
        self.post_message(self.Leave())

    def _mark(self, slot: int, column: int) -> None:
        self.notes = self.notes.cycled(slot, self.notes.symbols[column])
        self.post_message(self.Changed(self, self.notes))
        self.refresh()

    def on_key(self, event: events.Key) -> None:
        """Typing a symbol jumps to its column."""
        character = (event.character or "").upper()
        if len(character) == 1 and character in self.notes.symbols:
            event.stop()
            event.prevent_default()
            self.cursor = (self.cursor[0], self.notes.symbols.index(character))
            self.refresh()

    def on_click(self, event: events.Click) -> None:
        """A click on a cell marks it (and moves the cursor there)."""
        offset = event.get_content_offset(self)
        if offset is None:
            return
        slot, column = offset.y - 1, (offset.x - LABEL_WIDTH) // 2
        if offset.x < LABEL_WIDTH or not 0 <= slot < self.notes.length or not 0 <= column < len(self.notes.symbols):
            return
        event.stop()
        self.cursor = (slot, column)
        self._mark(slot, column)


__all__ = ["CELL", "NotesGrid"]
