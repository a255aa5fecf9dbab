"""HAL9000's book for 5 pegs × 8 colours with repeats: the whole decision tree, written offline.

The 32,768 codes are too many for the exact search from the first guess, so the tree is grown
top-down from ``AABCD``: while many codes remain, the guess (any code) whose answers have the
highest entropy over the remaining codes, a code that could win preferred a little; for the
second guess the three best that split differently are each played out to the end and the best
kept (:data:`ROLLOUT`); once at most :data:`EXACT_UP_TO` codes remain, the exact search
(:class:`.search.Search`) finds the best play for them within the guesses left (7 in all).
Result: 179,524 guesses over all 32,768 codes (5.4786 each), never more than 7 (without the
second-guess play-outs 179,634; with ``ABCDE`` first 180,911).

Every answer HAL9000 can get is in the book, so a move is a look-up; the book is only left when
a history it does not hold is given (answers no code could give).

Regenerate with ``python -m wom_tui.domain.strategies.wide`` (about 25 minutes on a shared 2-core
machine; it overwrites ``book_5x8.npz``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..codes import Feedback
from .planning import WIN_BONUS, entropy
from .search import INF, Exhausted, Search
from .space import Shape, feedback_keys, partition_counts

WIDE_SHAPE = Shape(5, 8, True)
MAX_GUESSES = 7
EXACT_UP_TO = 40
"""Sets of at most this many codes are solved exactly..."""

EXACT_LIMIT = 300
"""...unless that takes more than this many positions of the search (then they are split by entropy)."""

ROLLOUT = {1: 3}
"""Guesses tried, by how many were played before: each is played out and the best kept."""

CHUNK = 1_024
"""Codes scored against every guess at once (keeps the big first splits within memory)."""

BOOK_FILE = Path(__file__).with_name("book_5x8.npz")

FIRST_GUESS = (0, 0, 1, 2, 3)
"""``AABCD``: the colour pattern whose answers have the most entropy over the 32,768 codes."""


class WideBuilder:
    """Grows the tree: entropy while many codes remain, the exact search for the last few."""

    def __init__(self, shape: Shape = WIDE_SHAPE, *, depth: int = MAX_GUESSES, exact_up_to: int = EXACT_UP_TO,
                 limit: int = EXACT_LIMIT, rollout: dict[int, int] | None = None, progress=None) -> None:
        self.shape = shape
        self.depth = depth
        self.exact_up_to = exact_up_to
        self.limit = limit
        self.rollout = ROLLOUT if rollout is None else rollout
        self.search = Search(shape, depth=depth)
        self.progress = progress
        self.started = time.monotonic()
        self.done = 0

    def counts(self, subset: np.ndarray) -> np.ndarray:
        """Partition sizes of ``subset`` under every code as a guess: ``(N, outcomes)``."""
        search = self.search
        total = np.zeros((search.n, self.shape.outcomes), dtype=np.int64)
        for lo in range(0, len(subset), CHUNK):
            part = subset[lo : lo + CHUNK]
            keys = feedback_keys(search.codes, search.codes[part], self.shape.colours, search.features)
            total += partition_counts(keys, self.shape.outcomes)
        return total

    def ranked(self, subset: np.ndarray, top: int) -> list[int]:
        """The ``top`` guesses with the most informative answers; a code that may win gets a small bonus."""
        counts = self.counts(subset)
        score = entropy(counts)
        score[subset] += WIN_BONUS * score.max() / len(subset)
        order = np.argsort(-score, kind="stable")
        if top == 1:
            return [int(order[0])]
        # Guesses that split alike (mirror images under the symmetries, mostly) are tried once.
        picked, seen = [], set()
        for g in order[: 50 * top]:
            split = (bool(np.isin(g, subset)), *sorted(counts[g][counts[g] > 0]))
            if split not in seen:
                seen.add(split)
                picked.append(int(g))
                if len(picked) == top:
                    break
        return picked

    def grow(self, subset: np.ndarray, depth: int, path: tuple, out: dict, guess: int | None = None) -> int:
        """Grow the tree below ``path`` into ``out``; the total guesses to find every code of ``subset``."""
        n = len(subset)
        if n <= self.exact_up_to and guess is None:
            self.search.nodes, self.search.limit = 0, self.limit
            try:
                total = self.search.cost(subset, depth, INF, None)
            except Exhausted:
                total = INF  # too hard to solve exactly: split it by entropy and solve the parts
            finally:
                self.search.limit = None
            if total < INF:
                self.search.grow(subset, depth, path, out)
                self.done += n
                if len(self.search.memo) > 300_000:
                    self.search.memo.clear()
                return total
        if guess is not None:
            g = guess
        else:
            options = self.ranked(subset, self.rollout.get(len(path), 1))
            if len(options) > 1:
                # Play each option out (the same way below) and keep the one with the fewest guesses.
                tried = []
                for option in options:
                    trial: dict = {}
                    done = self.done
                    tried.append((self.grow(subset, depth, path, trial, option), option, trial))
                    self.done = done
                total, g, trial = min(tried, key=lambda t: t[0])
                if self.progress:
                    self.progress(f"{len(path)} deep, {n} codes: options {[t[0] for t in tried]}")
                out.update(trial)
                self.done += n
                return total
            g = options[0]
        out[path] = g
        row = self.search.keys(np.array([g]), subset)[0]
        total = n
        for k in np.unique(row):
            if k != self.shape.win_key:
                total += self.grow(subset[row == k], depth - 1, (*path, (g, int(k))), out)
            else:
                self.done += 1
        if self.progress and n > 500:
            self.progress(
                f"{len(path)} deep, {n} codes: {total} guesses; {self.done} codes placed, "
                f"{time.monotonic() - self.started:.0f} s"
            )
        return total

    def build(self, first: Sequence[int]) -> tuple[dict, int]:
        """The whole tree from the first guess ``first`` (palette indices), and its total."""
        weights = self.shape.colours ** np.arange(self.shape.length - 1, -1, -1)
        out: dict = {}
        total = self.grow(np.arange(self.search.n), self.depth, (), out, int(np.dot(first, weights)))
        return out, total


def write_book(first: Sequence[int] = FIRST_GUESS, progress=print) -> Path:
    """Build the book and write it beside this module."""
    builder = WideBuilder(progress=progress)
    tree, total = builder.build(first)
    path = save_tree(tree, total)
    progress(f"{path.name}: {total} guesses over all {builder.search.n} codes, {len(tree)} positions")
    return path


def save_tree(tree: dict, total: int, path: Path = BOOK_FILE) -> Path:
    """Write a tree (path of (guess, answer key) → guess, as code indices) as node arrays.

    ``guesses[i]`` is the code played at node ``i`` (node 0 first); the answers it may get are
    ``keys[starts[i]:starts[i + 1]]`` (packed, ascending), leading to the nodes in ``targets``.
    """
    ids = {p: i for i, p in enumerate(sorted(tree, key=lambda p: (len(p), p)))}
    guesses = np.zeros(len(ids), dtype=np.uint16)
    edges: list[list[tuple[int, int]]] = [[] for _ in ids]
    for p, i in ids.items():
        guesses[i] = tree[p]
        if p:
            edges[ids[p[:-1]]].append((p[-1][1], i))
    for out in edges:
        out.sort()
    starts = np.cumsum([0] + [len(out) for out in edges]).astype(np.int32)
    keys = np.array([k for out in edges for k, _ in out], dtype=np.uint8)
    targets = np.array([t for out in edges for _, t in out], dtype=np.int32)
    np.savez_compressed(path, guesses=guesses, starts=starts, keys=keys, targets=targets, total=np.int64(total))
    return path


@lru_cache(maxsize=1)
def load_book() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """The shipped 5 × 8 book as (guesses, starts, keys, targets) node arrays (None if missing)."""
    try:
        with np.load(BOOK_FILE) as data:
            return data["guesses"], data["starts"], data["keys"], data["targets"]
    except FileNotFoundError:
        return None


def lookup(shape: Shape, history: Sequence[tuple[str, Feedback]], symbols: str, *, guesses: int = 10) -> str | None:
    """The book's guess for this history, as palette symbols; None off the book."""
    if shape != WIDE_SHAPE or guesses < MAX_GUESSES:
        return None
    book = load_book()
    if book is None:
        return None
    played, starts, keys, targets = book
    index = {s: i for i, s in enumerate(symbols)}
    node = 0
    for guess, fb in history:
        code = 0
        for ch in guess:
            code = code * shape.colours + index[ch]
        if code != played[node]:
            return None
        lo, hi = int(starts[node]), int(starts[node + 1])
        at = lo + int(np.searchsorted(keys[lo:hi], shape.pack(fb)))
        if at >= hi or keys[at] != shape.pack(fb):
            return None
        node = int(targets[at])
    code = int(played[node])
    digits = []
    for _ in range(shape.length):
        code, d = divmod(code, shape.colours)
        digits.append(symbols[d])
    return "".join(reversed(digits))


if __name__ == "__main__":
    print(write_book())
