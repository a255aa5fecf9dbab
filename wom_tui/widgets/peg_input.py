"""PegInput: enter a guess or a secret code by typing, with the arrow keys, or by clicking pegs."""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.color import Color, ColorParseError
from textual.containers import Horizontal
from textual.geometry import Offset
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget, _RenderCache
from textual.widgets import Static

from ..domain.codes import Ruleset
from .pegs import EMPTY, MASK, peg

MARK = "━━━"
"""Drawn under the current slot (as a heavy bottom border would be)."""


class PegSlot(Static):
    """One hole of the code being entered; click it to make it the current slot."""

    DEFAULT_CSS = """
    PegSlot {
        width: 3;
        height: 2;
        margin-right: 1;
    }
    """

    class Selected(Message):
        """A slot was clicked."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, index: int) -> None:
        super().__init__(classes="peg-slot")
        self.index = index
        self._drawn: tuple[str, str, str] | None = None
        self._looks: dict[tuple[Any, ...], list[Strip]] = {}
        """The lines of each look this slot has drawn (its peg or none, marked or not: a few dozen)."""

    def _render_content(self) -> None:
        """Widget's, with the lines of a look drawn before taken back: a slot shows one of a few looks
        over and over (a guess typed, then cleared), and drawing them afresh through Textual's content
        pipeline was the biggest part of drawing a guess typed at a live table (docs/perf/). What the
        lines depend on besides the peg and mark is in the key (size, style) or clears the looks (a
        change of the slot's styles, e.g. a new theme).
        """
        drawn = self._drawn
        if drawn is None:
            super()._render_content()
            return
        key = (drawn, self.size, self.visual_style)
        found = self._looks.get(key)
        if found is None:
            super()._render_content()
            if len(self._looks) > 64:
                self._looks.clear()
            self._looks[key] = self._render_cache.lines
            return
        self._render_cache = _RenderCache(self.size, found)
        self._dirty_regions.clear()

    def notify_style_update(self) -> None:
        self._looks.clear()
        super().notify_style_update()

    def show(self, symbol: str | None, ruleset: Ruleset, *, masked: bool, mark: Style | None) -> None:
        """Draw the slot's peg, and under it the current slot's mark (``mark``: its style; None: not current).

        A slot has a fixed size, so a new peg repaints the slot alone (no new layout of the screen),
        and the same peg again repaints nothing. The mark is drawn, not styled: as a CSS class (a
        border) it restyled two slots at every key, a fifth of a key's CPU time in a game.
        """
        if symbol is None:
            text = peg(EMPTY, None)
        elif masked:
            text = peg(MASK, None)
        else:
            text = peg(symbol, ruleset.palette)
        drawn = (text.plain, str(text.style), str(mark))  # the colours follow the theme
        if drawn != self._drawn:
            self._drawn = drawn
            shown = Text(end="")
            shown.append_text(text)  # the peg's own style stays on the peg
            shown.append("\n")
            shown.append(MARK if mark is not None else " " * len(MARK), style=mark or "")
            self.update(shown, layout=False)

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Selected(self.index))


class PalettePeg(Static):
    """A peg of the palette row; click it to put its symbol in the current slot."""

    DEFAULT_CSS = """
    PalettePeg {
        width: 3;
        height: 1;
        margin-right: 1;
    }
    PalettePeg:hover {
        text-style: underline;
    }
    """

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
        self._clears = peg_input.clears

    @property
    def control(self) -> PegInput:
        """The PegInput that sent the message."""
        return self.peg_input

    @property
    def stale(self) -> bool:
        """True when the input has been cleared since: the entry was played (a second Enter in the same
        burst as the first would otherwise play the same guess again).
        """
        return self._clears != self.peg_input.clears


class PegInput(Widget, can_focus=True):
    """Slots for a code of ``ruleset.length`` symbols above a clickable palette row.

    Type symbols (any case), ←/→ pick a slot, ↑/↓ change its symbol, Backspace/Delete clear,
    click a slot to select it or a palette peg to place it, Enter posts :class:`Submitted` (not when
    nothing is entered).
    With ``masked=True`` symbols show as ``•`` until ctrl+r (Peek) is pressed.
    The widget never judges a code: the screen parses :attr:`Submitted.text` with the ruleset.

    Nothing typed is dropped: a symbol typed after the last slot is filled is kept as an *extra*
    (shown after the slots, "1 symbol too many"), so the submitted text is too long and the domain
    refuses it ("Guess too long; …") at no cost; Backspace removes extras first. The widget's own
    keys are handled as they arrive, in order with typed symbols, so a burst of keys (one SSH
    packet) gives the same result as the same keys typed slowly.
    """

    DEFAULT_CSS = """
    PegInput {
        height: auto;
        width: auto;
        min-width: 24;
        padding: 0 1;
        border: round $panel-lighten-2;
        background: $surface;
        border-title-color: $text-muted;
    }
    PegInput:focus {
        border: round $accent;
        border-title-color: $accent;
    }
    PegInput .peg-input--slots {
        height: 2;
        width: auto;
    }
    PegInput .peg-input--palette {
        height: 1;
        width: auto;
    }
    PegInput .peg-input--extra {
        width: auto;
        height: 1;
        color: $warning;
    }
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

    # Neither repaints the input itself (its frame and background do not change): the slots it draws
    # repaint themselves. A repaint of the whole input redrew and sent its five lines, palette and
    # frame included, for every key (about 2 KB over SSH).
    cursor: reactive[int] = reactive(0, init=False, repaint=False)
    """Index of the current slot."""
    revealed: reactive[bool] = reactive(False, init=False, repaint=False)
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
        self._extra: list[str] = []
        """Symbols typed after every slot was filled: kept, so the code reads as too long."""
        self._past_end = False
        """True once the last slot was filled by typing: the next symbol is an extra."""
        self._slot_widgets: list[PegSlot] = []
        self._extra_widgets: list[Static] = []
        self._drawing = False
        """True while a change is being made: the slots are drawn once, when it is done."""
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
        """The filled slots in order, then any extra symbols (empty slots are skipped, so a gap
        reads as too short; extras make it too long).
        """
        return "".join(symbol for symbol in self._slots if symbol is not None) + "".join(self._extra)

    @value.setter
    def value(self, text: str) -> None:
        symbols = [ch.upper() for ch in text if not ch.isspace()]
        length = self._ruleset.length
        self._slots = [*symbols[:length], *([None] * (length - len(symbols[:length])))]
        self._extra = symbols[length:]
        self._past_end = len(symbols) >= length
        self._change()
        self.cursor = min(len(symbols), length - 1)
        self._changed()

    @property
    def extra(self) -> str:
        """Symbols typed beyond the code's length ("" when none)."""
        return "".join(self._extra)

    @property
    def slots(self) -> tuple[str | None, ...]:
        """Each slot's symbol, ``None`` where empty."""
        return tuple(self._slots)

    clears = 0
    """How many times the input has been cleared (an entry sent before a clear is :attr:`stale`)."""

    def clear(self) -> None:
        """Empty every slot, go back to the first, and hide a peeked code."""
        self.clears += 1
        self._slots = [None] * self._ruleset.length
        self._extra = []
        self._past_end = False
        self._change()
        self.revealed = False
        self.cursor = 0
        self._changed()

    def compose(self) -> ComposeResult:
        with Horizontal(classes="peg-input--slots"):
            for index in range(self._ruleset.length):
                yield PegSlot(index)
            yield Static("", classes="peg-input--extra")
        with Horizontal(classes="peg-input--palette"):
            for symbol in self._ruleset.palette.symbols:
                yield PalettePeg(symbol, self._ruleset)

    def on_mount(self) -> None:
        self.border_title = self._label
        self._slot_widgets = list(self.query(PegSlot))
        self._extra_widgets = list(self.query(".peg-input--extra").results(Static))
        self._draw()
        self.app.theme_changed_signal.subscribe(self, self._on_theme_changed)

    def _mark_style(self) -> Style:
        """The current slot's mark: the theme's accent while the input has focus, a quiet grey otherwise."""
        variables = self.app.theme_variables
        colour = variables.get("accent" if self.has_focus else "panel-lighten-3")
        try:
            return Style(color=Color.parse(colour).rich_color) if colour else Style()
        except ColorParseError:
            return Style()

    def screen_cursor(self) -> Offset | None:
        """Where the terminal cursor goes while this input has the focus: the current slot (a braille
        display follows it; :mod:`wom_tui.patches.cursor`).
        """
        if not self._slot_widgets:
            return None
        region = self._slot_widgets[min(self.cursor, len(self._slot_widgets) - 1)].region
        return region.offset if region.area else None

    def watch_has_focus(self, has_focus: bool) -> None:
        super().watch_has_focus(has_focus)
        self._draw()  # the mark's colour follows the focus

    def _on_theme_changed(self, _theme: object) -> None:
        for palette_peg in self.query(PalettePeg):
            palette_peg.repaint()
        self._draw()

    def _draw(self) -> None:
        if self._drawing:
            return  # drawn once the change is made
        masked = self._masked and not self.revealed
        mark = self._mark_style()
        for slot in self._slot_widgets:
            current = slot.index == self.cursor
            slot.show(self._slots[slot.index], self._ruleset, masked=masked, mark=mark if current else None)
        text = self._extra_text(masked)
        for extra in self._extra_widgets:
            extra.display = bool(self._extra)
            if (text.plain, text.spans) != getattr(extra, "_wom_drawn", None):  # unchanged: no new layout
                extra._wom_drawn = (text.plain, text.spans)  # type: ignore[attr-defined]
                extra.update(text)

    def _extra_text(self, masked: bool) -> Text:
        if not self._extra:
            return Text("")
        count = len(self._extra)
        text = Text("+", style=Style(bold=True))
        text.append(MASK * count if masked else "".join(self._extra), style=Style(bold=True))
        text.append(f" {count} too many", style=Style(italic=True))
        return text

    def _changed(self) -> None:
        self._drawing = False
        self._draw()
        self.post_message(self.Changed(self, self.value))

    def _change(self) -> None:
        """A change begins: moving the cursor does not draw until :meth:`_changed` (one draw a key)."""
        self._drawing = True

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
        """Put ``symbol`` in the current slot and move to the next one.

        Once the last slot was filled by typing, a further symbol goes to the first empty slot,
        or, when every slot is full, is kept as an extra (the code is then too long).
        """
        symbol = symbol.upper()
        self._change()
        if self._past_end or self._extra:
            empty = [index for index, slot in enumerate(self._slots) if slot is None]
            if not empty:
                self._extra.append(symbol)
                self._changed()
                return
            self.cursor = empty[0]
        self._slots[self.cursor] = symbol
        if self.cursor < self._ruleset.length - 1:
            self._past_end = False
            self.cursor += 1
        else:
            self._past_end = True
        self._changed()

    def _moved(self) -> None:
        self._past_end = False

    def action_cursor(self, step: int) -> None:
        """Move the current slot by ``step``, wrapping around."""
        self._moved()
        self.cursor = (self.cursor + step) % self._ruleset.length

    def action_cursor_to(self, index: int) -> None:
        """Go to slot ``index`` (-1 for the last)."""
        self._moved()
        self.cursor = index % self._ruleset.length

    def action_cycle(self, step: int) -> None:
        """Change the current slot's symbol to the next (or previous) one of the palette."""
        self._moved()
        symbols = self._ruleset.palette.symbols
        current = self._slots[self.cursor]
        if current is not None and current in symbols:
            new = symbols[(symbols.index(current) + step) % len(symbols)]
        else:
            new = symbols[0] if step > 0 else symbols[-1]
        self._slots[self.cursor] = new
        self._changed()

    def action_backspace(self) -> None:
        """Remove the last extra symbol if any; else clear the current slot if filled, else step
        back and clear the one before.
        """
        if self._extra:
            self._extra.pop()
            self._changed()
            return
        self._moved()
        self._change()
        if self._slots[self.cursor] is None and self.cursor > 0:
            self.cursor -= 1
        self._slots[self.cursor] = None
        self._changed()

    def action_delete(self) -> None:
        """Remove the last extra symbol if any, else clear the current slot."""
        if self._extra:
            self._extra.pop()
        else:
            self._moved()
            self._slots[self.cursor] = None
        self._changed()

    def action_submit(self) -> None:
        """Post :class:`Submitted` with the entered text; Enter on an empty entry does nothing.

        Nothing typed is nothing to refuse: a second Enter (a double tap, or ``RGBY⏎⏎`` in one SSH
        packet, whose first Enter played and cleared the entry) leaves the game and its messages alone.
        """
        if not self.value:
            return
        self.post_message(self.Submitted(self, self.value))

    def action_peek(self) -> None:
        """Show or hide a masked code."""
        self.revealed = not self.revealed

    async def _on_key(self, event: events.Key) -> None:
        # Letters and digits go into the slots, palette symbol or not: a typo is shown and the
        # domain explains it on Enter, as in the seeds.
        character = event.character
        if character is not None and len(character) == 1 and character.isascii() and character.isalnum():
            event.stop()
            event.prevent_default()
            self.place(character)
            return
        # The widget's own keys run here, in the order they came. Left to Textual, a binding runs
        # only once the key has bubbled up to the app, so a symbol queued behind it (a burst of
        # keys, one SSH packet) would be placed first: Backspace+5 would give 12·· instead of 15··.
        await self._run_own_binding(event)

    async def _run_own_binding(self, event: events.Key) -> None:
        for key in event.aliases:
            for binding in self._bindings.key_to_bindings.get(key, ()):
                action = binding.action
                name = action.split("(", 1)[0]
                if self.check_action(name, ()) is False:
                    continue
                event.stop()
                event.prevent_default()
                await self.run_action(action)
                return

    def _on_paste(self, event: events.Paste) -> None:
        # A paste is typed text: every symbol goes in (spaces are ignored, docs/play.md), typos and
        # extras included, so the domain can say what is wrong with it instead of it being trimmed.
        event.stop()
        for character in event.text:
            if character.isspace():
                continue
            self.place(character if character.isprintable() else "?")

    def on_peg_slot_selected(self, message: PegSlot.Selected) -> None:
        message.stop()
        self.focus()
        self._moved()
        self.cursor = message.index

    def on_palette_peg_picked(self, message: PalettePeg.Picked) -> None:
        message.stop()
        self.focus()
        self.place(message.symbol)
