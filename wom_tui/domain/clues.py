"""What a solo lifeline told the player: a symbol the code contains, or a symbol at a position.

docs/play.md, *Solo: break the computer's code*. A clue is part of what the player knows, as much as
an answer to a guess: the coach's count and a replay's count use both (see
:func:`wom_tui.domain.strategies.count_consistent`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Clue:
    """``symbol`` is in the code; at ``position`` (0-based) when a position was revealed."""

    symbol: str
    position: int | None = None

    def holds(self, code: str) -> bool:
        """True if ``code`` agrees with this clue."""
        if self.position is None:
            return self.symbol in code
        return 0 <= self.position < len(code) and code[self.position] == self.symbol

    @property
    def message(self) -> str:
        """``"The code contains 3."`` / ``"The code has 3 at position 2."`` (positions counted from 1)."""
        if self.position is None:
            return f"The code contains {self.symbol}."
        return f"The code has {self.symbol} at position {self.position + 1}."

    @property
    def short(self) -> str:
        """``"contains 3"`` / ``"3 at position 2"``, for a table cell."""
        if self.position is None:
            return f"contains {self.symbol}"
        return f"{self.symbol} at position {self.position + 1}"

    @property
    def tiny(self) -> str:
        """``"has 3"`` / ``"3 at #2"``: the clue in a history's guess column, as narrow as a code."""
        if self.position is None:
            return f"has {self.symbol}"
        return f"{self.symbol} at #{self.position + 1}"

    def as_json(self) -> list[Any]:
        """``[symbol, position]`` (position ``null`` for "contains"); read back in a record's shape (records.py)."""
        return [self.symbol, self.position]


Clues = tuple[Clue, ...]
"""Every clue a player was given, in the order given."""


def all_hold(code: str, clues: Iterable[Clue]) -> bool:
    """True if ``code`` agrees with every clue."""
    return all(clue.holds(code) for clue in clues)


def lifeline_text(clue: Clue | None) -> str:
    """A lifeline's row in a history: ``"LIFELINE: contains 3"``, ``"LIFELINE: 3 at position 2"``, or
    ``"LIFELINE (cont.)"`` on the second row a lifeline cost (the live game and the replay say the same).
    """
    return f"LIFELINE: {clue.short}" if clue is not None else "LIFELINE (cont.)"


def lifeline_cell(clue: Clue | None, *, narrow: bool = False) -> str:
    """A lifeline's row in a live game's guess column: ``"lifeline: has 3"``, ``"lifeline: 3 at #2"``,
    ``"(lifeline)"`` on its second row; ``narrow`` (a 60-column terminal): ``"⚑ has 3"``.
    """
    if clue is None:
        return "(lifeline)"
    return f"⚑ {clue.tiny}" if narrow else f"lifeline: {clue.tiny}"


__all__ = ["Clue", "Clues", "all_hold", "lifeline_cell", "lifeline_text"]
