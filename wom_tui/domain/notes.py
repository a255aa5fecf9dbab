"""A player's own notes on a code being broken: per slot, a symbol ruled out or certain (docs/play.md, *Notes*).

Notes are the player's scratch paper. The game never reads them to decide anything (no count, no
hint, no score); they are kept only so that a resumed game shows them again. Reading notes back is
lenient: a note that does not fit the rules any more is dropped, never the game it belongs to.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from .codes import Ruleset


class Note(enum.Enum):
    """What the player noted about one symbol in one slot."""

    OUT = "out"
    """Ruled out: this symbol is not in this slot."""
    SURE = "sure"
    """Certain: this symbol is in this slot."""


CYCLE = {None: Note.OUT, Note.OUT: Note.SURE, Note.SURE: None}
"""One press on a cell: nothing → ruled out → certain → nothing."""


@dataclass(frozen=True)
class Notes:
    """Notes on a code of ``length`` slots over ``symbols``; ``marks`` maps (slot, symbol) to a note."""

    length: int
    symbols: str
    marks: dict[tuple[int, str], Note] = field(default_factory=dict)

    @classmethod
    def empty(cls, ruleset: Ruleset) -> Notes:
        """No notes yet, for a code of ``ruleset``."""
        return cls(ruleset.length, ruleset.palette.symbols)

    def note(self, slot: int, symbol: str) -> Note | None:
        """What is noted for ``symbol`` in ``slot`` (None: nothing)."""
        return self.marks.get((slot, symbol))

    def cycled(self, slot: int, symbol: str) -> Notes:
        """These notes with one cell moved on (:data:`CYCLE`); ``ValueError`` for a cell outside the code."""
        if not 0 <= slot < self.length or symbol not in self.symbols or len(symbol) != 1:
            raise ValueError(f"there is no cell {symbol!r} in slot {slot + 1}")
        marks = dict(self.marks)
        after = CYCLE[marks.pop((slot, symbol), None)]
        if after is not None:
            marks[(slot, symbol)] = after
        return Notes(self.length, self.symbols, marks)

    def as_json(self) -> dict[str, list[str]]:
        """``{"out": ["RG", "", …], "sure": ["", "Y", …]}``: per slot, the symbols noted so."""
        return {note.value: ["".join(s for s in self.symbols if self.marks.get((slot, s)) is note)
                             for slot in range(self.length)] for note in Note}

    @classmethod
    def from_json(cls, data: Any, ruleset: Ruleset) -> Notes:
        """Notes read back for a code of ``ruleset``; whatever does not fit is left out (never an error)."""
        notes = cls.empty(ruleset)
        if not isinstance(data, dict):
            return notes
        marks: dict[tuple[int, str], Note] = {}
        for note in Note:
            slots = data.get(note.value)
            if not isinstance(slots, list):
                continue
            for slot, symbols in enumerate(slots[: notes.length]):
                if isinstance(symbols, str):
                    for symbol in symbols:
                        if symbol in notes.symbols:
                            marks.setdefault((slot, symbol), note)
        return cls(notes.length, notes.symbols, marks)

    def __bool__(self) -> bool:
        return bool(self.marks)


__all__ = ["CYCLE", "Note", "Notes"]
