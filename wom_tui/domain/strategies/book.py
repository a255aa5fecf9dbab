"""HAL9000's books for 4 pegs × 6 colours with repeats, written by the exact search.

A book is a whole decision tree: for every history HAL9000 can meet, the guess to play. All three are
optimal, found and proven so by :class:`.search.Search` (depth-first, lower bounds, symmetry):

- ``book_4x6_optimal.json`` (played by default): any code may be played: 5,625 guesses over the
  1,296 secrets (4.3403 each), only one of them found on the 6th guess, the unconstrained optimum
  (Koyama & Lai, 1993). The search with a 6-guess cap finds it (a first tree breaks two codes on the 6th
  guess; playing every set within fewer guesses where that costs nothing more leaves one); with a 7-guess
  cap it finds the same total.
- ``book_4x6.json``: any code may be played, at most 5 guesses: 5,626 guesses over the 1,296
  secrets (4.3410 each), the proven optimum under a 5-guess cap (Koyama & Lai, 1993); played with
  ``within_five`` (the worst-case-minded setting, and always against a Devious codemaker, whose
  answers aim at the longest game: docs/play.md, *Variants*).
- ``book_4x6_consistent.json``: only codes that fit every answer (the flip mode): 5,660
  (4.3673), the optimum for consistent play, never more than 6 guesses.

Regenerate with ``python -m wom_tui.domain.strategies.book [optimal|within_five|consistent ...]`` (about 45 seconds on one core; tests check
that the search gives the shipped consistent and optimal books again, and play every book against every
secret).
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
    shallow: bool = False
    """Play a set of codes within fewer guesses wherever that costs nothing more (:meth:`.search.Search.tree`)."""


OPTIMAL, WITHIN_FIVE, CONSISTENT = "optimal", "within_five", "consistent"
"""The books' names."""

BOOKS = {
    OPTIMAL: BookSpec("book_4x6_optimal.json", consistent_only=False, max_guesses=6, shallow=True),
    WITHIN_FIVE: BookSpec("book_4x6.json", consistent_only=False, max_guesses=5),
    CONSISTENT: BookSpec("book_4x6_consistent.json", consistent_only=True, max_guesses=6),
}
"""The books by name."""


def book_name(consistent_only: bool = False, within_five: bool = False) -> str:
    """The book HAL9000 plays: the consistent one, else the 5-guess one when asked, else the optimum."""
    if consistent_only:
        return CONSISTENT
    return WITHIN_FIVE if within_five else OPTIMAL


def _path_key(steps: Sequence[tuple[str, int, int]]) -> str:
    """The book's key for a history of (guess as digits, black, white)."""
    return "|".join(f"{g}:{b}{w}" for g, b, w in steps)


def build_book(name: str = OPTIMAL, progress=None, *, depth: int | None = None) -> tuple[dict[str, str], int]:
    """Search the book ``name`` from scratch: (history key → guess as palette-index digits, total guesses).

    ``depth`` caps the guesses instead of the book's own cap (a proof that a longer cap gains nothing).
    """
    spec = BOOKS[name]
    search = Search(BOOK_SHAPE, depth=depth or spec.max_guesses, consistent_only=spec.consistent_only,
                    progress=progress)
    total = search.solve()
    length = BOOK_SHAPE.length
    book: dict[str, str] = {}
    for path, guess in search.tree(shallow=spec.shallow).items():
        steps = []
        for g, key in path:
            black = key // (length + 1)
            steps.append(("".join(str(int(d)) for d in search.codes[g]), black, key % (length + 1) - black))
        book[_path_key(steps)] = "".join(str(int(d)) for d in search.codes[guess])
    return book, total


@lru_cache(maxsize=3)
def load_book(name: str = OPTIMAL) -> dict[str, str]:
    """The shipped book ``name`` (empty if the data file is missing)."""
    try:
        path = Path(__file__).with_name(BOOKS[name].file)
        return json.loads(path.read_text(encoding="utf-8"))["book"]
    except FileNotFoundError:
        return {}


def lookup(
    shape: Shape,
    history: Sequence[tuple[str, Feedback]],
    symbols: str,
    *,
    consistent_only: bool = False,
    within_five: bool = False,
    guesses: int = 10,
) -> str | None:
    """The book's guess for this history, as palette symbols; None off the book.

    A book is only used when the game allows at least as many guesses as the book may need (a game
    of 5 guesses is played from the 5-guess book).
    """
    name = book_name(consistent_only, within_five or guesses == BOOKS[WITHIN_FIVE].max_guesses)
    spec = BOOKS[name]
    if shape != BOOK_SHAPE or guesses < spec.max_guesses:
        return None
    index = {s: str(i) for i, s in enumerate(symbols)}
    steps = [("".join(index[ch] for ch in guess), fb.black, fb.white) for guess, fb in history]
    digits = load_book(name).get(_path_key(steps))
    if digits is None:
        return None
    return "".join(symbols[int(d)] for d in digits)


def write_books(progress=print, names: Sequence[str] = tuple(BOOKS)) -> list[Path]:
    """Search the books ``names`` (every book) and write them beside this module."""
    written = []
    for name in names:
        spec = BOOKS[name]
        book, total = build_book(name, progress)
        progress(f"{spec.file}: {total} guesses over all codes, {len(book)} positions")
        payload = {
            "shape": [BOOK_SHAPE.length, BOOK_SHAPE.colours, BOOK_SHAPE.repeats],
            "consistent_only": spec.consistent_only,
            "max_guesses": spec.max_guesses,
            "total": total,
            "book": dict(sorted(book.items())),
        }
        path = Path(__file__).with_name(spec.file)
        path.write_text(json.dumps(payload, indent=0) + "\n", encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    import sys

    for written_path in write_books(names=sys.argv[1:] or tuple(BOOKS)):
        print(written_path)
