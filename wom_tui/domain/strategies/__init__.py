"""Code-breaking strategies for computer players (SPEC §4 "computer breaks your code", §5).

- ``random``: any valid code not yet tried (seed 004's computer player); the weakest level.
- ``consistent`` (VIKI): a uniformly random code that fits every answer so far.
- ``expert`` (HAL9000): an opening book on 4 × 6 with repeats (average 4.35, never more than
  5 guesses), elsewhere the guess whose answers split a sample of the fitting codes best.

All choices are drawn from the ``random.Random`` passed in. The only dependence on the clock is
a safety net: when fitting codes are so rare that drawing them takes longer than
:data:`TIME_BUDGET` seconds, ``expert`` and ``consistent`` play the first fitting code found
(or, if none is found in time, any code). Ordinary play never gets near it.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Sequence
from functools import lru_cache
from typing import Protocol

import numpy as np

from ..codes import Feedback, Ruleset, feedback
from . import book as _book
from .space import (
    Candidates,
    Shape,
    candidates,
    enumerate_codes,
    feedback_keys,
    guess_features,
    space_guess_features,
    history_key,
    partition_counts,
    to_string,
)

History = Sequence[tuple[str, Feedback]]

STRATEGIES = ("random", "consistent", "expert")

TIME_BUDGET = 1.0
"""Seconds after which a strategy stops looking for a better guess and plays what it has."""

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

WIN_BONUS = 1.0
"""Weight of the chance that a fitting guess wins outright, in guesses' worth of bits."""

PLAN_UP_TO = 300
"""Up to this many fitting codes, the end-game is searched (see :class:`_Planner`)."""

PLAN_BRANCH = 6
"""Guesses tried at each node of the end-game search."""

PLAN_NODES = 400
"""Positions the end-game search may branch at before it plays on greedily."""

PLAN_HELPERS = 30
"""Strong non-fitting guesses offered to the end-game search."""

WIDE_PLAN = (12, 2_000, 60)
"""(branch, nodes, helpers) of the end-game search on spaces too big to offer whole (e.g. 8 × 10):
their games run well inside the time limits, and the wider search saves guesses there."""


class Strategy(Protocol):
    """Chooses the next guess from the ruleset and the (guess, feedback) history so far."""

    name: str

    def next_guess(self, ruleset: Ruleset, history: History, rng: random.Random) -> str:
        """The next guess to play; deterministic for a given ``rng`` state."""
        ...


def is_consistent(code: str, history: History) -> bool:
    """True if ``code`` would have given every feedback in ``history``."""
    return all(feedback(code, guess) == fb for guess, fb in history)


def all_codes(ruleset: Ruleset):
    """Every secret the ruleset allows, in palette order (a generator: mind the size)."""
    symbols = ruleset.palette.symbols
    if ruleset.repeats:
        return ("".join(c) for c in itertools.product(symbols, repeat=ruleset.length))
    return ("".join(c) for c in itertools.permutations(symbols, ruleset.length))


def fitting(ruleset: Ruleset, history: History) -> Candidates:
    """The codes that fit ``history`` under ``ruleset`` (exact, or a uniform sampler on huge spaces)."""
    return candidates(Shape.of(ruleset), history_key(history, ruleset.palette.symbols))


def _generator(rng: random.Random) -> np.random.Generator:
    """A numpy generator fed from the one ``random.Random`` (keeps ``--seed`` reproducible)."""
    return np.random.default_rng(rng.getrandbits(64))


def _random_codes(shape: Shape, n: int, gen: np.random.Generator) -> np.ndarray:
    """``n`` uniformly random codes of the shape (with replacement)."""
    if shape.repeats:
        return gen.integers(0, shape.colours, size=(n, shape.length), dtype=np.uint8)
    keys = gen.random((n, shape.colours))
    return np.argsort(keys, axis=1)[:, : shape.length].astype(np.uint8)


class RandomStrategy:
    """Any valid code at random, never one already tried (seed 004's computer player)."""

    name = "random"

    def next_guess(self, ruleset: Ruleset, history: History, rng: random.Random) -> str:
        """A uniformly random code not guessed before."""
        tried = {guess for guess, _ in history}
        if len(tried) >= ruleset.size:
            return ruleset.random_code(rng)
        while True:
            code = ruleset.random_code(rng)
            if code not in tried:
                return code


class ConsistentStrategy:
    """VIKI: a uniformly random code consistent with every feedback so far."""

    name = "consistent"

    def next_guess(self, ruleset: Ruleset, history: History, rng: random.Random) -> str:
        """A uniformly random fitting code, or a random code if none fits."""
        if not history:
            return ruleset.random_code(rng)
        cands = fitting(ruleset, history)
        gen = _generator(rng)
        if cands.exact:
            if len(cands.codes) == 0:
                return ruleset.random_code(rng)
            row = cands.codes[int(gen.integers(len(cands.codes)))]
        else:
            rows = cands.sampler.draw(1, gen, deadline=time.monotonic() + TIME_BUDGET)
            if len(rows) == 0:
                return ruleset.random_code(rng)
            row = rows[0]
        return to_string(row, ruleset.palette.symbols)


def _partitions(total: int, most: int, parts: int) -> list[tuple[int, ...]]:
    """Integer partitions of ``total`` into at most ``parts`` parts, each ≤ ``most``, largest first."""
    if total == 0:
        return [()]
    if parts == 0:
        return []
    out = []
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
        secrets = _random_codes(shape, 20_000, np.random.default_rng(0))
    counts = partition_counts(feedback_keys(guesses, secrets, shape.colours), shape.outcomes)
    return guesses[int(np.argmax(_entropy(counts)))]


def _entropy(counts: np.ndarray) -> np.ndarray:
    """Shannon entropy of each row of partition counts."""
    total = counts.sum(axis=1, keepdims=True)
    p = counts / np.maximum(total, 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.where(p > 0, np.log2(p), 0.0)
    return -(p * logs).sum(axis=1)


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
        fit = cands.codes
        if len(fit) <= 2:
            return fit[0] if len(fit) else None
        evals = cands.sample(EVAL_SAMPLE, gen)
    else:
        evals = cands.sampler.draw(EVAL_SAMPLE, gen, deadline=deadline)
        if len(evals) <= 2:
            return evals[0] if len(evals) else None
    n = len(evals)
    order = gen.permutation(n)[:POOL_FITTING]
    own = evals[np.sort(order)]
    pool = [own]
    features = None
    if not fitting_only and shape.size <= FULL_POOL_SIZE and shape.size * n <= FULL_POOL_WORK:
        space = enumerate_codes(shape.length, shape.colours, shape.repeats)
        pool.append(space)
        features = np.concatenate(
            [guess_features(own, shape.colours), space_guess_features(shape.length, shape.colours, shape.repeats)]
        )
    elif not fitting_only:
        pool.append(_mutants(shape, evals, POOL_MUTANTS, gen))
        pool.append(_random_codes(shape, POOL_OTHER, gen))
        if SCREEN_MUTANTS and shape.size > FULL_POOL_SIZE:
            # Two stages: many variations scored roughly on a few codes, the best scored fully.
            extra = _mutants(shape, evals, SCREEN_MUTANTS, gen)
            rough_keys = feedback_keys(extra, evals[:SCREEN_SAMPLE], shape.colours)
            rough = _entropy(partition_counts(rough_keys, shape.outcomes))
            pool.append(extra[np.argsort(-rough, kind="stable")[:SCREEN_KEEP]])
    pool = np.concatenate(pool, axis=0)
    keys = feedback_keys(pool, evals, shape.colours, features)
    counts = partition_counts(keys, shape.outcomes)
    score = _entropy(counts)
    # A fitting code may win outright, saving a whole guess (worth about one guess's bits) 1 time in n.
    score[: len(own)] += WIN_BONUS * score.max() / n
    if cands.exact and n == len(cands.codes) and 3 <= n <= PLAN_UP_TO:
        branch, nodes, n_helpers = (
            WIDE_PLAN if shape.size > FULL_POOL_SIZE else (PLAN_BRANCH, PLAN_NODES, PLAN_HELPERS)
        )
        helpers = pool[np.argsort(-score, kind="stable")[:n_helpers]] if not fitting_only else evals[:0]
        return _Planner(shape, helpers, branch=branch, nodes=nodes).plan(evals, left)[1]
    return pool[int(np.argmax(score))]


class _Planner:
    """End-game search: the guess that minimises the total guesses over a few remaining codes.

    Each node tries its best few guesses by entropy (fitting codes and some strong outsiders)
    and plays every answer out the same way, so the plan is exact within that choice. Plans
    that could run past the guesses left are refused when another fits.
    """

    def __init__(
        self, shape: Shape, helpers: np.ndarray, *, branch: int = PLAN_BRANCH, nodes: int = PLAN_NODES
    ) -> None:
        self.shape = shape
        self.helpers = helpers
        self.branch = branch
        self.memo: dict[tuple[bytes, int], tuple[tuple[int, int], np.ndarray]] = {}
        self.budget = nodes

    def plan(self, codes: np.ndarray, left: int) -> tuple[tuple[int, int], np.ndarray]:
        """((guesses over the limit, total guesses) to find every code, the first guess to play).

        ``left`` is how many guesses remain, this one included.
        """
        k = len(codes)
        if k <= 2:
            return (max(0, k - left), 2 * k - 1), codes[0]
        memo_key = (codes.tobytes(), left)
        if memo_key in self.memo:
            return self.memo[memo_key]
        pool = np.concatenate([codes, self.helpers], axis=0)
        keys = feedback_keys(pool, codes, self.shape.colours)
        counts = partition_counts(keys, self.shape.outcomes)
        score = _entropy(counts)
        score[:k] += WIN_BONUS * score.max() / k
        best = None
        # Past the node budget, play the rest greedily: few answers (e.g. long codes without
        # repeats) would otherwise make the search grow without bound.
        self.budget -= 1
        branch = self.branch if self.budget > 0 else 1
        for t in np.argsort(-score, kind="stable")[:branch]:
            if counts[t].max() == k:
                continue  # learns nothing
            over, total = 0, k
            row = keys[t]
            for key in np.unique(row):
                if key != self.shape.win_key:
                    (o, n), _ = self.plan(codes[row == key], left - 1)
                    over, total = over + o, total + n
                if best is not None and (over, total) >= best[0]:
                    break
            if best is None or (over, total) < best[0]:
                best = ((over, total), pool[t])
        self.memo[memo_key] = best
        return best


class ExpertStrategy:
    """HAL9000: the opening book where it applies, else the best split of the fitting codes.

    With ``consistent_only`` every guess could be the secret (SPEC §4's computer breaking a
    person's code): no book, and only fitting codes are considered.
    """

    name = "expert"

    def __init__(self, consistent_only: bool = False) -> None:
        self.consistent_only = consistent_only

    def next_guess(self, ruleset: Ruleset, history: History, rng: random.Random) -> str:
        """The next guess: from the book, the opening pattern, or the best split."""
        symbols = ruleset.palette.symbols
        shape = Shape.of(ruleset)
        booked = None if self.consistent_only else _book.lookup(shape, history, symbols)
        if booked is not None:
            return booked
        if not history:
            return to_string(opening(shape), symbols)
        deadline = time.monotonic() + TIME_BUDGET
        cands = fitting(ruleset, history)
        left = max(1, ruleset.guesses - len(history))
        row = best_guess(shape, cands, _generator(rng), deadline, fitting_only=self.consistent_only, left=left)
        if row is None:
            return ruleset.random_code(rng)
        return to_string(row, symbols)


def make_strategy(name: str, *, consistent_only: bool = False) -> Strategy:
    """The strategy called ``name`` (``"random"``, ``"consistent"`` or ``"expert"``).

    ``consistent_only=True`` makes ``expert`` play only codes that fit every answer so far
    (``consistent`` always does; ``random`` ignores it).
    """
    if name == "random":
        return RandomStrategy()
    if name == "consistent":
        return ConsistentStrategy()
    if name == "expert":
        return ExpertStrategy(consistent_only)
    raise ValueError(f"unknown strategy {name!r}; choose from {', '.join(STRATEGIES)}")


def count_consistent(ruleset: Ruleset, history: History) -> tuple[int, bool]:
    """How many codes fit the history, and whether that count is exact (else an estimate).

    Exact on spaces up to a quarter of a million codes and whenever the answers narrow a larger
    space enough to list; otherwise estimated from a sample (``exact`` is False).
    """
    return fitting(ruleset, history).count()


def find_inconsistency(ruleset: Ruleset, history: History) -> int | None:
    """None if some code fits every answer; else the index of the answer most likely wrong.

    That is the latest answer whose removal leaves a history some code fits; if no single
    removal helps, the first answer after which nothing fits.
    """
    if fitting(ruleset, history).any():
        return None
    for i in range(len(history) - 1, -1, -1):
        if fitting(ruleset, [*history[:i], *history[i + 1 :]]).any():
            return i
    for i in range(len(history)):
        if not fitting(ruleset, history[: i + 1]).any():
            return i
    return len(history) - 1


__all__ = [
    "STRATEGIES",
    "TIME_BUDGET",
    "History",
    "Strategy",
    "all_codes",
    "count_consistent",
    "find_inconsistency",
    "fitting",
    "is_consistent",
    "make_strategy",
]
