"""HAL9000, the expert: the book where one applies, else the guess that splits the fitting codes best.

On 4 × 6 with repeats HAL9000 plays from the books the exact search wrote (see :mod:`.book`),
on 5 × 8 with repeats from a whole decision tree written offline (see :mod:`.wide`).
Elsewhere it scores candidate guesses by the entropy of the answers they would get over a sample
of the fitting codes, and searches the end-game once few codes remain (:class:`.planning.Planner`).
On spaces too big to offer every code as a guess (8 × 10) it looks two guesses ahead among its best
few (:data:`LOOKAHEAD_TOP`): a split whose parts the next guess splits well beats a slightly better
split into parts that are hard to tell apart.
"""

from __future__ import annotations

import random
import time
from functools import lru_cache

import numpy as np

from ..codes import Ruleset
from . import book as _book
from . import wide as _wide
from .common import TIME_BUDGET, History, generator, random_codes
from .counting import fitting
from .planning import (
    PLAN_BRANCH,
    PLAN_HELPERS,
    PLAN_NODES,
    PLAN_UP_TO,
    WIDE_PLAN,
    WIN_BONUS,
    Planner,
    entropy,
)
from .space import (
    Candidates,
    Shape,
    enumerate_codes,
    feedback_keys,
    guess_features,
    partition_counts,
    space_guess_features,
    to_string,
)

EVAL_SAMPLE = 2_000
"""Fitting codes a guess is scored against (all of them when there are fewer)."""

POOL_FITTING = 600
"""Fitting codes considered as guesses."""

POOL_OTHER = 200
"""Random codes also considered as guesses."""

POOL_MUTANTS = 600
"""Variations of fitting codes also considered as guesses (they may split better)."""

SCREEN_MUTANTS = 6_000
"""Extra variations screened on a small sample (spaces too big to offer whole); the best few join the pool."""

SCREEN_SAMPLE = 400
"""Fitting codes the extra variations are screened against."""

SCREEN_KEEP = 100
"""Screened variations that join the guess pool."""

FULL_POOL_SIZE = 50_000
"""Spaces up to this size may offer every code as a guess (their features are cached)."""

FULL_POOL_WORK = 4_000_000
"""When (space size × fitting codes) is at most this, every code is considered as a guess."""

LOOKAHEAD_TOP = 8
"""On spaces too big to offer whole (8 × 10), the best this many guesses by entropy are looked at two
steps deep (0 or 1: off): each scores its own entropy plus, for every answer it may get, the best entropy
a next guess would get on the codes left. On 8 × 10, 1,000 games (seed 2026): 7.720 against 7.759
without; the best 12, scored on 8,000 codes: 7.698 but up to 1.4 s CPU a move (the gap is within noise)."""

LOOKAHEAD_NEXT = 200
"""Next guesses tried in the two-step look (the best of the pool by entropy)."""


def _partitions(total: int, most: int, parts: int) -> list[tuple[int, ...]]:
    """Integer partitions of ``total`` into at most ``parts`` parts, each ≤ ``most``, largest first."""
    if total == 0:
        return [()]
    if parts == 0:
        return []
    out: list[tuple[int, ...]] = []
    for first in range(min(total, most), 0, -1):
        out.extend((first, *rest) for rest in _partitions(total - first, first, parts - 1))
    return out


@lru_cache(maxsize=32)
def opening(shape: Shape) -> np.ndarray:
    """The best first guess by answer entropy among the colour patterns (``AABC``-like), cached."""
    patterns = _partitions(shape.length, shape.length, shape.colours)
    guesses = np.array(
        [[c for c, k in enumerate(p) for _ in range(k)] for p in patterns],
        dtype=np.uint8,
    )
    if shape.size <= 20_000:
        secrets = enumerate_codes(shape.length, shape.colours, shape.repeats)
    else:
        # A fixed seed: the opening is part of the strategy, not of the game's randomness.
        secrets = random_codes(shape, 20_000, np.random.default_rng(0))
    counts = partition_counts(feedback_keys(guesses, secrets, shape.colours), shape.outcomes)
    return guesses[int(np.argmax(entropy(counts)))]


def _mutants(shape: Shape, base: np.ndarray, n: int, gen: np.random.Generator) -> np.ndarray:
    """``n`` codes made from random rows of ``base`` by recolouring a few positions each."""
    rows = base[gen.integers(len(base), size=n)].copy()
    share = gen.integers(1, max(2, shape.length // 2) + 1, size=n) / shape.length
    change = gen.random(rows.shape) < share[:, None]
    rows[change] = gen.integers(0, shape.colours, size=int(change.sum()), dtype=np.uint8)
    return rows


def best_guess(
    shape: Shape,
    cands: Candidates,
    gen: np.random.Generator,
    deadline: float,
    *,
    fitting_only: bool = False,
    left: int = 10,
) -> np.ndarray | None:
    """The guess that splits the fitting codes best (by entropy, fitting codes preferred), or None.

    Guesses considered: a sample of fitting codes, and codes that cannot be the secret but may
    split it better — the whole space when that is cheap, else variations of fitting codes.
    """
    if cands.exact:
        fit = cands.all_codes
        if len(fit) <= 2:
            return fit[0] if len(fit) else None
        evals = cands.sample(EVAL_SAMPLE, gen)
    else:
        evals = cands.drawn.draw(EVAL_SAMPLE, gen, deadline=deadline)
        if len(evals) <= 2:
            return evals[0] if len(evals) else None
    n = len(evals)
    order = gen.permutation(n)[:POOL_FITTING]
    own = evals[np.sort(order)]
    parts = [own]
    features = None
    if not fitting_only and shape.size <= FULL_POOL_SIZE and shape.size * n <= FULL_POOL_WORK:
        space = enumerate_codes(shape.length, shape.colours, shape.repeats)
        parts.append(space)
        features = np.concatenate(
            [guess_features(own, shape.colours), space_guess_features(shape.length, shape.colours, shape.repeats)]
        )
    elif not fitting_only:
        parts.append(_mutants(shape, evals, POOL_MUTANTS, gen))
        parts.append(random_codes(shape, POOL_OTHER, gen))
        if SCREEN_MUTANTS and shape.size > FULL_POOL_SIZE:
            # Two stages: many variations scored roughly on a few codes, the best scored fully.
            extra = _mutants(shape, evals, SCREEN_MUTANTS, gen)
            rough_keys = feedback_keys(extra, evals[:SCREEN_SAMPLE], shape.colours)
            rough = entropy(partition_counts(rough_keys, shape.outcomes))
            parts.append(extra[np.argsort(-rough, kind="stable")[:SCREEN_KEEP]])
    pool = np.concatenate(parts, axis=0)
    keys = feedback_keys(pool, evals, shape.colours, features)
    counts = partition_counts(keys, shape.outcomes)
    score = entropy(counts)
    # A fitting code may win outright, saving a whole guess (worth about one guess's bits) 1 time in n.
    score[: len(own)] += WIN_BONUS * score.max() / n
    if cands.exact and n == len(cands.all_codes) and 3 <= n <= PLAN_UP_TO:
        branch, nodes, n_helpers = (
            WIDE_PLAN if shape.size > FULL_POOL_SIZE else (PLAN_BRANCH, PLAN_NODES, PLAN_HELPERS)
        )
        helpers = pool[np.argsort(-score, kind="stable")[:n_helpers]] if not fitting_only else evals[:0]
        return Planner(shape, helpers, branch=branch, nodes=nodes).plan(evals, left)[1]
    if LOOKAHEAD_TOP > 1 and not fitting_only and shape.size > FULL_POOL_SIZE:
        return pool[_two_step(keys, score, shape, LOOKAHEAD_TOP, LOOKAHEAD_NEXT)]
    return pool[int(np.argmax(score))]


def _two_step(keys: np.ndarray, score: np.ndarray, shape: Shape, top: int, nexts: int) -> int:
    """The pool row among the ``top`` best by ``score`` whose answers leave codes the next guess splits best.

    ``keys`` are the answers of every pool row (rows) on the scored codes (columns). A row's worth is
    its own score plus the entropy the best of the ``nexts`` best rows would get on each answer's codes,
    weighted by how many codes give that answer.
    """
    n = keys.shape[1]
    order = np.argsort(-score, kind="stable")
    second = keys[order[:nexts]].astype(np.int32)
    outcomes, win = shape.outcomes, shape.win_key
    sizes_log = np.arange(n + 1, dtype=np.float64)
    clog = sizes_log * np.log2(np.maximum(sizes_log, 1.0))
    best_row, best_worth = int(order[0]), -np.inf
    for t in order[:top]:
        row = keys[t].astype(np.int32)
        joint = partition_counts(second + row[None, :] * outcomes, outcomes * outcomes)
        joint = joint.reshape(len(second), outcomes, outcomes)
        per_class = np.bincount(row, minlength=outcomes).astype(np.float64)
        # n_i·H_i = n_i·log2(n_i) − Σ_j c_ij·log2(c_ij), for every next guess and every answer i.
        spread = clog[per_class.astype(np.int64)][None, :] - clog[joint].sum(axis=2)
        spread[:, win] = 0.0
        worth = score[t] + spread.max(axis=0).sum() / n
        if worth > best_worth:
            best_row, best_worth = int(t), worth
    return best_row


class ExpertStrategy:
    """HAL9000: the opening book where it applies, else the best split of the fitting codes.

    With ``consistent_only`` every guess could be the secret (the computer breaking a person's code,
    docs/play.md, *Solo: the computer breaks your code*): the consistent book, and only fitting codes
    are considered off it. With ``within_five`` it plays the 5-guess book on 4 × 6 (5,626 guesses in
    all, never more than 5) instead of the optimum (5,625, one code on the 6th guess).
    """

    name = "expert"

    def __init__(self, consistent_only: bool = False, within_five: bool = False) -> None:
        self.consistent_only = consistent_only
        self.within_five = within_five

    def next_guess(self, ruleset: Ruleset, history: History, rng: random.Random) -> str:
        """The next guess: from the book, the opening pattern, or the best split."""
        symbols = ruleset.palette.symbols
        shape = Shape.of(ruleset)
        booked = _book.lookup(
            shape, history, symbols, consistent_only=self.consistent_only, within_five=self.within_five,
            guesses=ruleset.guesses,
        )
        if booked is None and not self.consistent_only:
            booked = _wide.lookup(shape, history, symbols, guesses=ruleset.guesses)
        if booked is not None:
            return booked
        if not history:
            return to_string(opening(shape), symbols)
        deadline = time.monotonic() + TIME_BUDGET
        cands = fitting(ruleset, history)
        left = max(1, ruleset.guesses - len(history))
        row = best_guess(shape, cands, generator(rng), deadline, fitting_only=self.consistent_only, left=left)
        if row is None:
            return ruleset.random_code(rng)
        return to_string(row, symbols)
