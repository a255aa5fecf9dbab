"""Planning: scoring a guess by how it splits the codes, and the end-game search over a few codes."""

from __future__ import annotations

import numpy as np

from .space import Shape, feedback_keys, partition_counts

WIN_BONUS = 1.0
"""Weight of the chance that a fitting guess wins outright, in guesses' worth of bits."""

PLAN_UP_TO = 300
"""Up to this many fitting codes, the end-game is searched (see :class:`Planner`)."""

PLAN_BRANCH = 6
"""Guesses tried at each node of the end-game search."""

PLAN_NODES = 400
"""Positions the end-game search may branch at before it plays on greedily."""

PLAN_HELPERS = 30
"""Strong non-fitting guesses offered to the end-game search."""

WIDE_PLAN = (12, 2_000, 60)
"""(branch, nodes, helpers) of the end-game search on spaces too big to offer whole (e.g. 8 × 10):
their games run well inside the time limits, and the wider search saves guesses there. Wider still
(24 guesses, 40,000 positions) or 500 helpers saved under 0.005 guesses a game on end-games taken
from real 8 × 10 games: the search has found what its guesses can give."""


def entropy(counts: np.ndarray) -> np.ndarray:
    """Shannon entropy of each row of partition counts."""
    total = counts.sum(axis=1, keepdims=True)
    p = counts / np.maximum(total, 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.where(p > 0, np.log2(p), 0.0)
    return -(p * logs).sum(axis=1)


class Planner:
    """End-game search: the guess that minimises the total guesses over a few remaining codes.

    Each node tries its best few guesses by entropy (fitting codes and some strong outsiders)
    and plays every answer out the same way, so the plan is exact within that choice (one or
    two codes left cost one or three guesses, no search). Plans that could run past the guesses
    left are refused when another fits.
    """

    def __init__(
        self, shape: Shape, helpers: np.ndarray, *, branch: int = PLAN_BRANCH, nodes: int = PLAN_NODES
    ) -> None:
        self.shape = shape
        self.helpers = helpers
        self.branch = branch
        self.memo: dict[tuple[bytes, int], tuple[tuple[int, int], int]] = {}
        self.budget = nodes

    def plan(self, codes: np.ndarray, left: int) -> tuple[tuple[int, int], np.ndarray]:
        """((guesses over the limit, total guesses) to find every code, the first guess to play).

        ``left`` is how many guesses remain, this one included. The answers of every guess
        (``codes`` and the helpers) against every code are worked out once; the search below
        only reads that table.
        """
        k = len(codes)
        if k <= 2:
            return (max(0, k - left), 2 * k - 1), codes[0]
        pool = np.concatenate([codes, self.helpers], axis=0)
        self.table = feedback_keys(pool, codes, self.shape.colours)
        self.helper_rows = np.arange(k, len(pool))
        self.win = self.shape.win_key
        # c·log2(c) for every class size c: the entropy of a row is log2(k) - Σ c·log2(c) / k.
        sizes = np.arange(k + 1, dtype=np.float64)
        self.clog = sizes * np.log2(np.maximum(sizes, 1.0))
        result, row = self._plan(np.arange(k), left)
        return result, pool[row]

    def _plan(self, idx: np.ndarray, left: int) -> tuple[tuple[int, int], int]:
        """Like :meth:`plan` for the codes ``idx`` (rows of the table); the guess as a pool row."""
        k = len(idx)
        memo_key = (idx.tobytes(), left)
        if memo_key in self.memo:
            return self.memo[memo_key]
        rows = np.concatenate([idx, self.helper_rows])
        keys = self.table[rows][:, idx]
        counts = partition_counts(keys, self.shape.outcomes)
        score = np.log2(k) - self.clog[counts].sum(axis=1) / k
        score[:k] += WIN_BONUS * score.max() / k
        best: tuple[tuple[int, int], int] | None = None
        # Past the node budget, play the rest greedily: few answers (e.g. long codes without
        # repeats) would otherwise make the search grow without bound.
        self.budget -= 1
        branch = self.branch if self.budget > 0 else 1
        win = self.win
        for t in np.argsort(-score, kind="stable")[:branch]:
            sizes = counts[t]
            if sizes.max() == k:
                continue  # learns nothing
            over, total = 0, k
            row = keys[t]
            for key in np.flatnonzero(sizes):
                if key == win:
                    continue
                n = int(sizes[key])
                if n <= 2:
                    # One or two codes: play one, then the other if needed.
                    over, total = over + max(0, n - left + 1), total + 2 * n - 1
                else:
                    (o, m), _ = self._plan(idx[row == key], left - 1)
                    over, total = over + o, total + m
                if best is not None and (over, total) >= best[0]:
                    break
            if best is None or (over, total) < best[0]:
                best = ((over, total), int(rows[t]))
        if best is None:  # distinct codes: a guess among them always splits them
            raise ValueError("no guess tells these codes apart")
        self.memo[memo_key] = best
        return best
