"""HAL9000's books for 4 pegs × 6 colours with repeats, written by the exact search.

A book is a whole decision tree: for every history HAL9000 can meet, the guess to play. Both are
optimal, found and proven so by :class:`.search.Search` (depth-first, lower bounds, symmetry):

- ``book_4x6.json``: any code may be played, at most 5 guesses: 5,626 guesses over the 1,296
  secrets (4.3410 each), the proven optimum under a 5-guess cap (Koyama & Lai, 1993).
- ``book_4x6_consistent.json``: only codes that fit every answer (the flip mode): 5,660
  (4.3673), the optimum for consistent play, never more than 6 guesses.

Regenerate with ``python -m wom_tui.domain.strategies.book`` (about 15 seconds; a test checks the
consistent book matches the search, and plays both books against every secret).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..codes import Feedback
from .search import Search
from .space import Shape

BOOK_SHAPE = Shape(4, 6, True)


@dataclass(frozen=True)
class BookSpec:
    """How one book is searched for, and where it is kept."""

    file: str
    consistent_only: bool
    max_guesses: int


BOOKS = {
    False: BookSpec("book_4x6.json", consistent_only=False, max_guesses=5),
    True: BookSpec("book_4x6_consistent.json", consistent_only=True, max_guesses=6),
}
"""The books by ``consistent_only``."""


def _path_key(steps: Sequence[tuple[str, int, int]]) -> str:
    """The book's key for a history of (guess as digits, black, white)."""
    return "|".join(f"{g}:{b}{w}" for g, b, w in steps)


def build_book(consistent_only: bool = False, progress=None) -> tuple[dict[str, str], int]:
    """Search the book from scratch: (history key → guess as palette-index digits, total guesses)."""
    spec = BOOKS[consistent_only]
    search = Search(BOOK_SHAPE, depth=spec.max_guesses, consistent_only=consistent_only, progress=progress)
    total = search.solve()
    length = BOOK_SHAPE.length
    book: dict[str, str] = {}
    for path, guess in search.tree().items():
        steps = []
        for g, key in path:
            black = key // (length + 1)
            steps.append(("".join(str(int(d)) for d in search.codes[g]), black, key % (length + 1) - black))
        book[_path_key(steps)] = "".join(str(int(d)) for d in search.codes[guess])
    return book, total


@lru_cache(maxsize=2)
def load_book(consistent_only: bool = False) -> dict[str, str]:
    """The shipped book (empty if the data file is missing)."""
    try:
        path = Path(__file__).with_name(BOOKS[consistent_only].file)
        return json.loads(path.read_text(encoding="utf-8"))["book"]
    except FileNotFoundError:
        return {}


def lookup(
    shape: Shape,
    history: Sequence[tuple[str, Feedback]],
    symbols: str,
    *,
    consistent_only: bool = False,
    guesses: int = 10,
) -> str | None:
    """The book's guess for this history, as palette symbols; None off the book.

    A book is only used when the game allows at least as many guesses as the book may need.
    """
    spec = BOOKS[consistent_only]
    if shape != BOOK_SHAPE or guesses < spec.max_guesses:
        return None
    index = {s: str(i) for i, s in enumerate(symbols)}
    steps = [("".join(index[ch] for ch in guess), fb.black, fb.white) for guess, fb in history]
    digits = load_book(consistent_only).get(_path_key(steps))
    if digits is None:
        return None
    return "".join(symbols[int(d)] for d in digits)


def write_books(progress=print) -> list[Path]:
    """Search both books and write them beside this module."""
    written = []
    for consistent_only, spec in BOOKS.items():
        book, total = build_book(consistent_only, progress)
        progress(f"{spec.file}: {total} guesses over all codes, {len(book)} positions")
        payload = {
            "shape": [BOOK_SHAPE.length, BOOK_SHAPE.colours, BOOK_SHAPE.repeats],
            "consistent_only": consistent_only,
            "max_guesses": spec.max_guesses,
            "total": total,
            "book": dict(sorted(book.items())),
        }
        path = Path(__file__).with_name(spec.file)
        path.write_text(json.dumps(payload, indent=0) + "\n", encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for written_path in write_books():
        print(written_path)
