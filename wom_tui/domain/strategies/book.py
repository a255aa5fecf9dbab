"""HAL9000's opening book for 4 pegs × 6 colours with repeats, and the code that computes it.

The book is a whole decision tree: for every history HAL9000 can meet, the guess to play. It is
built by a bounded lookahead: at each position the best few guesses by "most parts" (Kooi) are
each played out to the end greedily, and the one with the fewest total guesses wins, refusing
any that would need a sixth guess. Over all 1296 secrets it averages 4.35 guesses, worst 5.

Regenerate with ``python -m wom_tui.domain.strategies.book`` (a test checks it matches).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..codes import Feedback
from .space import Shape, enumerate_codes, feedback_keys, partition_counts

BOOK_FILE = Path(__file__).with_name("book_4x6.json")
BOOK_SHAPE = Shape(4, 6, True)
MAX_GUESSES = 5
TOP = 12
LOOKAHEAD = 2


def _path_key(steps: Sequence[tuple[str, int, int]]) -> str:
    """The book's key for a history of (guess as digits, black, white)."""
    return "|".join(f"{g}:{b}{w}" for g, b, w in steps)


class _Builder:
    """Builds the book over the 1296 codes with one precomputed feedback table."""

    def __init__(self) -> None:
        shape = BOOK_SHAPE
        self.codes = enumerate_codes(shape.length, shape.colours, shape.repeats)
        self.table = feedback_keys(self.codes, self.codes, shape.colours)
        self.outcomes = shape.outcomes
        self.win = shape.win_key
        self.memo: dict[bytes, tuple[int, int]] = {}
        self.looked: dict[tuple[bytes, int, int], tuple[int, int]] = {}

    def counts(self, subset: np.ndarray) -> np.ndarray:
        """Partition sizes of ``subset`` under every guess: (1296, outcomes)."""
        return partition_counts(self.table[:, subset], self.outcomes)

    def ranked(self, subset: np.ndarray, top: int) -> list[int]:
        """The ``top`` guesses with most parts, fitting codes first on ties, then palette order."""
        parts = (self.counts(subset) > 0).sum(axis=1).astype(np.float64)
        parts[subset] += 0.5
        order = np.argsort(-parts, kind="stable")
        return [int(g) for g in order[:top]]

    def split(self, guess: int, subset: np.ndarray) -> dict[int, np.ndarray]:
        """The parts of ``subset`` by the answer each code gives to ``guess``."""
        keys = self.table[guess, subset]
        return {int(k): subset[keys == k] for k in np.unique(keys)}

    def greedy(self, subset: np.ndarray) -> tuple[int, int]:
        """(total guesses over ``subset``, worst) when playing most-parts to the end."""
        n = len(subset)
        if n == 1:
            return 1, 1
        if n == 2:
            return 3, 2
        memo_key = subset.tobytes()
        if memo_key in self.memo:
            return self.memo[memo_key]
        result = self.play(self.ranked(subset, 1)[0], subset, self.greedy)
        self.memo[memo_key] = result
        return result

    def play(self, guess: int, subset: np.ndarray, rest) -> tuple[int, int]:
        """(total, worst) of playing ``guess`` then ``rest`` on each part."""
        total, worst = len(subset), 1
        for key, part in self.split(guess, subset).items():
            if key == self.win:
                continue
            t, w = rest(part)
            total += t
            worst = max(worst, 1 + w)
        return total, worst

    def value(self, subset: np.ndarray, cap: int, level: int) -> tuple[int, int]:
        """(total, worst) over ``subset`` looking ``level`` choices ahead, then greedily."""
        if level == 0 or len(subset) <= 2:
            return self.greedy(subset)
        memo_key = (subset.tobytes(), cap, level)
        if memo_key not in self.looked:
            guess = self.choose(subset, cap, self.ranked(subset, TOP), level)
            self.looked[memo_key] = self.play(guess, subset, lambda part: self.value(part, cap - 1, level - 1))
        return self.looked[memo_key]

    def choose(self, subset: np.ndarray, cap: int, options: list[int], level: int = LOOKAHEAD) -> int:
        """Among ``options``, the guess with the fewest total guesses played out, within ``cap``."""
        best = None
        for guess in options:
            total, worst = self.play(guess, subset, lambda part: self.value(part, cap - 1, level - 1))
            rank = (max(0, worst - cap), total)
            if best is None or rank < best[0]:
                best = (rank, guess)
        return best[1]

    def build(self) -> dict[str, str]:
        """The whole book: history key → guess (as palette-index digits)."""
        book: dict[str, str] = {}
        everything = np.arange(len(self.codes))
        # The first guess, up to symmetry: one code for each colour pattern.
        patterns = [int(np.flatnonzero((self.codes == np.array(p)).all(axis=1))[0]) for p in _PATTERNS]
        self._grow(book, everything, MAX_GUESSES, [], patterns)
        return book

    def _grow(self, book, subset, cap, path, options=None) -> None:
        if len(subset) <= 2:
            guess = int(subset[0])
        else:
            guess = self.choose(subset, cap, options or self.ranked(subset, TOP))
        digits = "".join(str(int(d)) for d in self.codes[guess])
        book[_path_key(path)] = digits
        for key, part in self.split(guess, subset).items():
            if key == self.win:
                continue
            black = key // (BOOK_SHAPE.length + 1)
            white = key % (BOOK_SHAPE.length + 1) - black
            self._grow(book, part, cap - 1, [*path, (digits, black, white)])


_PATTERNS = [(0, 0, 0, 0), (0, 0, 0, 1), (0, 0, 1, 1), (0, 0, 1, 2), (0, 1, 2, 3)]


def build_book() -> dict[str, str]:
    """Compute the book from scratch (a few seconds)."""
    return _Builder().build()


@lru_cache(maxsize=1)
def load_book() -> dict[str, str]:
    """The shipped book (empty if the data file is missing)."""
    try:
        return json.loads(BOOK_FILE.read_text(encoding="utf-8"))["book"]
    except FileNotFoundError:
        return {}


def lookup(shape: Shape, history: Sequence[tuple[str, Feedback]], symbols: str) -> str | None:
    """The book's guess for this history, as palette symbols; None off the book."""
    if shape != BOOK_SHAPE:
        return None
    index = {s: str(i) for i, s in enumerate(symbols)}
    steps = [("".join(index[ch] for ch in guess), fb.black, fb.white) for guess, fb in history]
    digits = load_book().get(_path_key(steps))
    if digits is None:
        return None
    return "".join(symbols[int(d)] for d in digits)


def write_book() -> Path:
    """Compute the book and write it beside this module."""
    book = build_book()
    payload = {"shape": [4, 6, True], "max_guesses": MAX_GUESSES, "book": dict(sorted(book.items()))}
    BOOK_FILE.write_text(json.dumps(payload, indent=0, sort_keys=False) + "\n", encoding="utf-8")
    return BOOK_FILE


if __name__ == "__main__":
    print(write_book())
