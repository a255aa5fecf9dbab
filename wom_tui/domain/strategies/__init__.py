"""Code-breaking strategies for computer players (SPEC §5).

Placeholder implementations: the interface is fixed, the strong solver comes with issue 4.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Protocol

from ..codes import Feedback, Ruleset, feedback

History = Sequence[tuple[str, Feedback]]

STRATEGIES = ("random", "consistent", "expert")


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
    """Every secret the ruleset allows, in palette order."""
    symbols = ruleset.palette.symbols
    if ruleset.repeats:
        return ("".join(c) for c in itertools.product(symbols, repeat=ruleset.length))
    return ("".join(c) for c in itertools.permutations(symbols, ruleset.length))


class RandomStrategy:
    """Any valid code at random, ignoring feedback (seed 004's computer player)."""

    name = "random"

    def next_guess(self, ruleset: Ruleset, history: History, rng: random.Random) -> str:
        """A uniformly random code."""
        return ruleset.random_code(rng)


class ConsistentStrategy:
    """A random code consistent with every feedback so far (placeholder: enumerates)."""

    name = "consistent"

    def next_guess(self, ruleset: Ruleset, history: History, rng: random.Random) -> str:
        """A random consistent code, or a random code if none is consistent."""
        candidates = [c for c in all_codes(ruleset) if is_consistent(c, history)]
        return rng.choice(candidates) if candidates else ruleset.random_code(rng)


def make_strategy(name: str) -> Strategy:
    """The strategy called ``name`` (``"random"``, ``"consistent"`` or ``"expert"``)."""
    if name == "random":
        return RandomStrategy()
    if name in ("consistent", "expert"):
        return ConsistentStrategy()
    raise ValueError(f"unknown strategy {name!r}; choose from {', '.join(STRATEGIES)}")


def count_consistent(ruleset: Ruleset, history: History) -> tuple[int, bool]:
    """How many codes fit the history, and whether that count is exact (else an estimate)."""
    return sum(1 for c in all_codes(ruleset) if is_consistent(c, history)), True
