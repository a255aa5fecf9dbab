"""What every strategy shares: the interface, the history it reads, and its one source of chance."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

import numpy as np

from ..codes import Feedback, Ruleset
from .space import Shape

History = Sequence[tuple[str, Feedback]]

TIME_BUDGET = 1.0
"""Seconds a strategy may scan for a fitting code when millions of random draws found none (a safety net)."""


class Strategy(Protocol):
    """Chooses the next guess from the ruleset and the (guess, feedback) history so far."""

    name: str

    def next_guess(self, ruleset: Ruleset, history: History, rng: random.Random) -> str:
        """The next guess to play; deterministic for a given ``rng`` state."""
        ...


def generator(rng: random.Random) -> np.random.Generator:
    """A numpy generator fed from the one ``random.Random`` (keeps ``--seed`` reproducible)."""
    return np.random.default_rng(rng.getrandbits(64))


def random_codes(shape: Shape, n: int, gen: np.random.Generator) -> np.ndarray:
    """``n`` uniformly random codes of the shape (with replacement)."""
    if shape.repeats:
        return gen.integers(0, shape.colours, size=(n, shape.length), dtype=np.uint8)
    keys = gen.random((n, shape.colours))
    return np.argsort(keys, axis=1)[:, : shape.length].astype(np.uint8)
