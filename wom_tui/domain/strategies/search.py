"""The exact search that writes HAL9000's books: depth-first, with lower bounds and symmetry.

``cost(S, d)`` is the fewest guesses in total that find every code of ``S`` (the codes that fit
the answers so far) when each must be found within ``d`` more guesses. A guess ``g`` costs
``|S|`` now plus ``cost(P, d - 1)`` for every part ``P`` of ``S`` by the answer ``g`` gets.

- **Lower bounds.** Whatever happens later, a part of ``m`` codes costs at least ``F[d][m]``:
  one code found by its first guess, the rest spread as evenly as the answers allow
  (13 non-winning answers on 4 pegs), and so on down. So ``|S| + Σ F[d-1][|P|]`` bounds each guess
  from below; guesses are tried in that order and the search stops at the first whose bound
  is no better than the best found (branch and bound, with the bound passed down to the parts).
- **Symmetry.** Permuting colours and positions maps the game onto itself. Only one guess of
  each class under the permutations that fix every guess played so far is tried (5 first guesses
  on 4 × 6 instead of 1,296; after ``AABC`` one in 24).
- **Memory.** Results are kept per (set of codes, guesses left), exact or as a lower bound.

On 4 × 6 with ``depth=5`` it finds 5,626 (the 5-guess book), with ``depth=6`` the unconstrained optimum
5,625 (15 s on one core), and with ``depth=7`` the same 5,625 (35 s). Run
``python -m wom_tui.domain.strategies.book`` to search and write the books (see there).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable

import numpy as np

from .space import Shape, enumerate_codes, feedback_keys, guess_features, partition_counts

INF = 1 << 40
"""A cost no strategy reaches: the set cannot be solved in the guesses left."""

TABLE_UP_TO = 5_000
"""Spaces up to this many codes keep the whole feedback table and use symmetry (4 × 6: 1,296)."""


class Exhausted(Exception):
    """The search used up its :attr:`Search.limit` of positions (what it learnt so far is kept)."""


def ideal_bounds(n: int, answers: int, depth: int) -> np.ndarray:
    """``F[d][m]``: the least total a set of ``m`` codes could cost with ``d`` guesses left.

    Assumes the best imaginable splits: every guess is one of the codes and splits the rest as
    evenly as the ``answers`` non-winning answers allow.
    """
    f = np.full((depth + 1, n + 1), INF, dtype=np.int64)
    f[:, 0] = 0
    for d in range(1, depth + 1):
        f[d, 1] = 1
        for m in range(2, n + 1):
            q, r = divmod(m - 1, answers)
            rest = r * f[d - 1, q + 1] + (answers - r) * f[d - 1, q]
            f[d, m] = min(INF, m + rest)
    return f


def symmetries(shape: Shape) -> np.ndarray:
    """Every colour × position permutation as a permutation of code indices: ``(G, N)``."""
    codes = enumerate_codes(shape.length, shape.colours, shape.repeats).astype(np.int64)
    weights = shape.colours ** np.arange(shape.length - 1, -1, -1)
    rows = []
    for colours in itertools.permutations(range(shape.colours)):
        recoloured = np.asarray(colours)[codes]
        for positions in itertools.permutations(range(shape.length)):
            rows.append(recoloured[:, positions] @ weights)
    return np.asarray(rows, dtype=np.int16)


class Search:
    """The exact search over one shape.

    ``consistent_only`` plays only codes that fit every answer (the flip mode); ``depth`` caps
    the guesses per game. ``progress`` is called with a line of text now and then. Small spaces
    (4 × 6) are searched whole, with the feedback table and symmetry; on larger ones (5 × 8) the
    search solves the small sets of codes that remain late in a game (see :mod:`.wide`).
    """

    def __init__(
        self,
        shape: Shape,
        *,
        depth: int,
        consistent_only: bool = False,
        progress: Callable[[str], None] | None = None,
    ) -> None:
        if not shape.repeats:
            raise ValueError("the search indexes codes with repeats")
        self.shape = shape
        self.depth = depth
        self.consistent_only = consistent_only
        self.codes = enumerate_codes(shape.length, shape.colours, shape.repeats)
        self.n = len(self.codes)
        self.win = shape.win_key
        self.outcomes = shape.outcomes
        small = self.n <= TABLE_UP_TO
        self.features = guess_features(self.codes, shape.colours)
        self.table = feedback_keys(self.codes, self.codes, shape.colours) if small else None
        self.perms = symmetries(shape) if small else None
        # Answers other than the win: (black, white) with black + white ≤ length, but not (length - 1, 1).
        answers = (shape.length + 1) * (shape.length + 2) // 2 - 2
        self.bounds = ideal_bounds(self.n, answers, depth)
        self.memo: dict[tuple[bytes, int], tuple[int, int, int]] = {}
        self.progress = progress
        self.nodes = 0
        self.limit: int | None = None
        self.started = time.monotonic()

    # The search -----------------------------------------------------------------------------

    def cost(self, subset: np.ndarray, depth: int, beta: int, stab: np.ndarray | None) -> int:
        """The least total for ``subset`` within ``depth`` guesses if below ``beta``; else ≥ ``beta``.

        ``stab`` lists the symmetries (rows of :attr:`perms`) that fix every guess so far;
        ``subset`` must be exactly the codes fitting those guesses' answers.
        """
        n = len(subset)
        if n == 1:
            return 1
        if depth <= 1:
            return INF
        if n == 2:
            return 3
        key = (subset.tobytes(), depth)
        known = self.memo.get(key)
        if known is not None:
            low, exact, _ = known
            if exact >= 0 or low >= beta:
                return exact if exact >= 0 else low
        self.nodes += 1
        if self.limit is not None and self.nodes > self.limit:
            raise Exhausted
        if self.progress and self.nodes % 20_000 == 0:
            self.progress(f"{self.nodes} nodes, {len(self.memo)} kept, {time.monotonic() - self.started:.0f} s")
        if self.table is None and not self.consistent_only:
            # Large spaces: first see whether one of the codes splits the set as well as any set of
            # its size can be split; then nothing beats it and the other guesses need not be scored.
            ideal = int(self.bounds[depth][n])
            if ideal < beta:
                found = self._ideal_member(subset, depth, ideal)
                if found >= 0:
                    self._keep(key, ideal, ideal, found)
                    return ideal
        guesses = subset if self.consistent_only else np.arange(self.n)
        if stab is not None and len(stab) > 1 and self.perms is not None:
            canon = self.perms[np.ix_(stab, guesses)].min(axis=0)
            guesses = np.unique(canon).astype(np.int64) if not self.consistent_only else guesses[canon == guesses]
        keys = self.keys(guesses, subset)
        counts = partition_counts(keys, self.outcomes)
        member = np.isin(guesses, subset)
        counts[:, self.win] = 0
        useful = member | (counts.max(axis=1) < n)
        if depth == 2:
            # Every part must be one code: the guess itself, or each told apart by the answer.
            ok = useful & (counts.max(axis=1) <= 1)
            if not ok.any():
                result = INF
                self._keep(key, result, result, -1)
                return result
            pick = np.flatnonzero(ok)
            best = pick[np.argmax(member[pick])]
            result = 2 * n - int(member[best])
            self._keep(key, result, result, int(guesses[best]))
            return result
        low = n + self.bounds[depth - 1][counts].sum(axis=1)
        low[~useful] = INF
        order = np.argsort(low, kind="stable")
        best_total, best_guess = beta, -1
        for i in order:
            if low[i] >= best_total:
                break
            g = int(guesses[i])
            row = keys[i]
            parts = [subset[row == k] for k in np.unique(row) if k != self.win]
            parts.sort(key=len, reverse=True)
            child_stab = None
            if stab is not None and len(stab) > 1 and self.perms is not None:
                child_stab = stab[self.perms[stab, g] == g]
            total = n
            rest = int(low[i]) - n
            for part in parts:
                rest -= int(self.bounds[depth - 1][len(part)])
                total += self.cost(part, depth - 1, best_total - total - rest, child_stab)
                if total + rest >= best_total:
                    break
            else:
                best_total, best_guess = total, g
        if best_guess >= 0:
            self._keep(key, best_total, best_total, best_guess)
            return best_total
        self._keep(key, beta, -1, -1)
        return beta

    def _ideal_member(self, subset: np.ndarray, depth: int, ideal: int) -> int:
        """A code of ``subset`` that finds all of it in ``ideal`` guesses in total, or -1."""
        n = len(subset)
        keys = self.keys(subset, subset)
        counts = partition_counts(keys, self.outcomes)
        counts[:, self.win] = 0
        low = n + self.bounds[depth - 1][counts].sum(axis=1)
        for i in np.flatnonzero(low == ideal)[:8]:
            row = keys[i]
            total = n
            for k in np.unique(row):
                if k != self.win:
                    total += self.cost(subset[row == k], depth - 1, INF, None)
                    if total > ideal:
                        break
            if total == ideal:
                return int(subset[i])
        return -1

    def keys(self, guesses: np.ndarray, subset: np.ndarray) -> np.ndarray:
        """Packed answers of every guess (rows) for every code of ``subset`` (columns)."""
        if self.table is not None:
            return self.table[np.ix_(guesses, subset)]
        return feedback_keys(self.codes[guesses], self.codes[subset], self.shape.colours, self.features[guesses])

    def _keep(self, key: tuple[bytes, int], low: int, exact: int, guess: int) -> None:
        old = self.memo.get(key)
        if old is not None and old[1] >= 0:
            return
        self.memo[key] = (max(low, old[0]) if old else low, exact, guess)

    def solve(self, beta: int = INF) -> int:
        """The optimum over every code (``INF`` when none is below ``beta``)."""
        everything = np.arange(self.n)
        return self.cost(everything, self.depth, beta, None if self.perms is None else np.arange(len(self.perms)))

    def guess_for(self, subset: np.ndarray, depth: int) -> int:
        """The best guess the search found for ``subset`` (after :meth:`solve`)."""
        if len(subset) <= 2:
            return int(subset[0])
        return self.memo[(subset.tobytes(), depth)][2]

    def tree(self, shallow: bool = False) -> dict[tuple[tuple[int, int], ...], int]:
        """The whole strategy: (guess, answer key) path → guess index, after :meth:`solve`.

        ``shallow``: wherever a set of codes costs no more with one guess fewer allowed, it is played that
        way, so that few codes need the last guess the cap allows (the same total: on 4 × 6 with a 6-guess
        cap, one code found on the 6th guess instead of two).
        """
        out: dict[tuple[tuple[int, int], ...], int] = {}
        stab = np.arange(len(self.perms)) if shallow and self.perms is not None else None
        self.grow(np.arange(self.n), self.depth, (), out, stab, shallow)
        return out

    def grow(
        self,
        subset: np.ndarray,
        depth: int,
        path: tuple[tuple[int, int], ...],
        out: dict,
        stab: np.ndarray | None = None,
        shallow: bool = False,
    ) -> None:
        """Write the strategy found for ``subset`` into ``out`` (path → guess), below ``path``; ``stab`` and
        ``shallow`` as in :meth:`cost` and :meth:`tree`.
        """
        if shallow and len(subset) > 2:
            exact = self.cost(subset, depth, INF, stab)
            while depth > 2 and self.cost(subset, depth - 1, exact + 1, stab) == exact:
                depth -= 1
        g = self.guess_for(subset, depth)
        out[path] = g
        row = self.keys(np.array([g]), subset)[0]
        child_stab = None
        if stab is not None and self.perms is not None:
            child_stab = stab[self.perms[stab, g] == g]
        for k in np.unique(row):
            if k != self.win:
                self.grow(subset[row == k], depth - 1, (*path, (g, int(k))), out, child_stab, shallow)
