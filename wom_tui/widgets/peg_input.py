"""PegInput: enter a guess or a secret code by typing, with the arrow keys, or by clicking pegs."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from ..domain.codes import Ruleset
from .pegs import EMPTY, MASK, peg


class PegSlot(Static):
    """One hole of the code being entered; click it to make it the current slot."""

    class Selected(Message):
        """A slot was clicked."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, index: int) -> None:
        super().__init__(classes="peg-slot -empty")
        self.index = index

    def show(self, symbol: str | None, ruleset: Ruleset, *, masked: bool, current: bool) -> None:
        """Draw the slot's peg; the stylesheet underlines the current slot (class ``-current``)."""
        self.set_class(symbol is None, "-empty")
        self.set_class(current, "-current")
        if symbol is None:
            self.update(peg(EMPTY, None))
        elif masked:
            self.update(peg(MASK, None))
        else:
            self.update(peg(symbol, ruleset.palette))

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Selected(self.index))


class PalettePeg(Static):
    """A peg of the palette row; click it to put its symbol in the current slot."""

    class Picked(Message):
        """A palette peg was clicked."""

        def __init__(self, symbol: str) -> None:
            super().__init__()
            self.symbol = symbol

    def __init__(self, symbol: str, ruleset: Ruleset) -> None:
        super().__init__(classes="palette-peg", name=symbol)
        self.symbol = symbol
        self.ruleset = ruleset
        self.tooltip = ruleset.palette.name_of(symbol)

    def repaint(self) -> None:
        """Redraw with the current peg colours (after a theme change)."""
        self.update(peg(self.symbol, self.ruleset.palette))

    def on_mount(self) -> None:
        self.repaint()

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Picked(self.symbol))


class _EntryMessage(Message):
    """A message from a :class:`PegInput` carrying the entered ``text``."""

    def __init__(self, peg_input: PegInput, text: str) -> None:
        super().__init__()
        self.peg_input = peg_input
        self.text = text

    @property
    def control(self) -> PegInput:
        """The PegInput that sent the message."""
        return self.peg_input


class PegInput(Widget, can_focus=True):
    """Slots for a code of ``ruleset.length`` symbols above a clickable palette row.

    Type symbols (any case), ←/→ pick a slot, ↑/↓ change its symbol, Backspace/Delete clear,
    click a slot to select it or a palette peg to place it, Enter posts :class:`Submitted`.
    With ``masked=True`` symbols show as ``•`` until ctrl+r (Peek) is pressed.
    The widget never judges a code: the screen parses :attr:`Submitted.text` with the ruleset.
    """

    BINDINGS = [
        Binding("left", "cursor(-1)", "Slot ←", show=False),
        Binding("right", "cursor(1)", "Slot →", show=False),
        Binding("up", "cycle(1)", "Change ↑", show=False),
        Binding("down", "cycle(-1)", "Change ↓", show=False),
        Binding("home", "cursor_to(0)", "First slot", show=False),
        Binding("end", "cursor_to(-1)", "Last slot", show=False),
        Binding("backspace", "backspace", "Erase", show=False),
        Binding("delete", "delete", "Clear slot", show=False),
        Binding("enter", "submit", "Submit"),
        Binding("ctrl+r", "peek", "Peek"),
    ]

    class Submitted(_EntryMessage):
        """Enter was pressed; ``text`` is what was entered (filled slots, in order)."""

    class Changed(_EntryMessage):
        """The entered code changed."""

    cursor: reactive[int] = reactive(0, init=False)
    """Index of the current slot."""
    revealed: reactive[bool] = reactive(False, init=False)
    """In masked mode, whether the symbols are shown (peek)."""

    def __init__(
        self,
        ruleset: Ruleset,
        *,
        masked: bool = False,
        label: str | None = None,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self._ruleset = ruleset
        self._masked = masked
        self._label = label
        self._slots: list[str | None] = [None] * ruleset.length
        self.set_class(masked, "-masked")

    @property
    def ruleset(self) -> Ruleset:
        """The ruleset whose length and palette the input offers."""
        return self._ruleset

    @property
    def masked(self) -> bool:
        """True when symbols are hidden behind ``•`` (a secret code)."""
        return self._masked

    @property
    def value(self) -> str:
        """The filled slots in order (empty slots are skipped, so a gap reads as too short)."""
        return "".join(symbol for symbol in self._slots if symbol is not None)

    @value.setter
    def value(self, text: str) -> None:
        symbols = [ch.upper() for ch in text if not ch.isspace()][: self._ruleset.length]
        self._slots = [*symbols, *([None] * (self._ruleset.length - len(symbols)))]
        self.cursor = min(len(symbols), self._ruleset.length - 1)
        self._changed()

    @property
    def slots(self) -> tuple[str | None, ...]:
        """Each slot's symbol, ``None`` where empty."""
        return tuple(self._slots)

    def clear(self) -> None:
        """Empty every slot, go back to the first, and hide a peeked code."""
        self._slots = [None] * self._ruleset.length
        self.revealed = False
        self.cursor = 0
        self._changed()

    def compose(self) -> ComposeResult:
        with Horizontal(classes="peg-input--slots"):
            for index in range(self._ruleset.length):
                yield PegSlot(index)
        with Horizontal(classes="peg-input--palette"):
            for symbol in self._ruleset.palette.symbols:
                yield PalettePeg(symbol, self._ruleset)

    def on_mount(self) -> None:
        self.border_title = self._label
        self._draw()
        self.app.theme_changed_signal.subscribe(self, self._on_theme_changed)

    def _on_theme_changed(self, _theme: object) -> None:
        for palette_peg in self.query(PalettePeg):
            palette_peg.repaint()
        self._draw()

    def _draw(self) -> None:
        masked = self._masked and not self.revealed
        for slot in self.query(PegSlot):
            slot.show(self._slots[slot.index], self._ruleset, masked=masked, current=slot.index == self.cursor)

    def _changed(self) -> None:
        self._draw()
        self.post_message(self.Changed(self, self.value))

    def watch_cursor(self) -> None:
        self._draw()

    def watch_revealed(self, revealed: bool) -> None:
        self.set_class(revealed, "-revealed")
        self._draw()

    def validate_cursor(self, cursor: int) -> int:
        return max(0, min(cursor, self._ruleset.length - 1))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "peek" and not self._masked:
            return False
        return True

    def place(self, symbol: str) -> None:
        """Put ``symbol`` in the current slot and move to the next one."""
        self._slots[self.cursor] = symbol.upper()
        if self.cursor < self._ruleset.length - 1:
            self.cursor += 1
        self._changed()

    def action_cursor(self, step: int) -> None:
        """Move the current slot by ``step``, wrapping around."""
        self.cursor = (self.cursor + step) % self._ruleset.length

    def action_cursor_to(self, index: int) -> None:
        """Go to slot ``index`` (-1 for the last)."""
        self.cursor = index % self._ruleset.length

    def action_cycle(self, step: int) -> None:
        """Change the current slot's symbol to the next (or previous) one of the palette."""
        symbols = self._ruleset.palette.symbols
        current = self._slots[self.cursor]
        if current is not None and current in symbols:
            new = symbols[(symbols.index(current) + step) % len(symbols)]
        else:
            new = symbols[0] if step > 0 else symbols[-1]
        self._slots[self.cursor] = new
        self._changed()

    def action_backspace(self) -> None:
        """Clear the current slot if filled, else step back and clear the one before."""
        if self._slots[self.cursor] is None and self.cursor > 0:
            self.cursor -= 1
        self._slots[self.cursor] = None
        self._changed()

    def action_delete(self) -> None:
        """Clear the current slot."""
        self._slots[self.cursor] = None
        self._changed()

    def action_submit(self) -> None:
        """Post :class:`Submitted` with the entered text."""
        self.post_message(self.Submitted(self, self.value))

    def action_peek(self) -> None:
        """Show or hide a masked code."""
        self.revealed = not self.revealed

    async def _on_key(self, event: events.Key) -> None:
        # Letters and digits go into the slots, palette symbol or not: a typo is shown and the
        # domain explains it on Enter, as in the seeds. Other keys fall through to bindings.
        character = event.character
        if character is not None and len(character) == 1 and character.isascii() and character.isalnum():
            event.stop()
            event.prevent_default()
            self.place(character)

    def _on_paste(self, event: events.Paste) -> None:
        event.stop()
        for character in event.text:
            if character.isascii() and character.isalnum():
                self.place(character)

    def on_peg_slot_selected(self, message: PegSlot.Selected) -> None:
        message.stop()
        self.focus()
        self.cursor = message.index

    def on_palette_peg_picked(self, message: PalettePeg.Picked) -> None:
        message.stop()
        self.focus()
        self.place(message.symbol)
