"""Consistency: which codes fit the answers so far (and a solo player's lifeline clues), how many, and
which answer is likely wrong.
"""

from __future__ import annotations

import itertools

from collections.abc import Iterable

from ..clues import Clue, all_hold
from ..codes import Ruleset, feedback
from .common import History
from .space import Candidates, Shape, candidates, clue_key, history_key


def is_consistent(code: str, history: History, clues: Iterable[Clue] = ()) -> bool:
    """True if ``code`` would have given every feedback in ``history`` and agrees with every clue."""
    return all(feedback(code, guess) == fb for guess, fb in history) and all_hold(code, clues)


def all_codes(ruleset: Ruleset):
    """Every secret the ruleset allows, in palette order (a generator: mind the size)."""
    symbols = ruleset.palette.symbols
    if ruleset.repeats:
        return ("".join(c) for c in itertools.product(symbols, repeat=ruleset.length))
    return ("".join(c) for c in itertools.permutations(symbols, ruleset.length))


def fitting(ruleset: Ruleset, history: History, clues: Iterable[Clue] = ()) -> Candidates:
    """The codes that fit ``history`` and ``clues`` under ``ruleset`` (exact, or a uniform sampler on huge
    spaces).
    """
    symbols = ruleset.palette.symbols
    return candidates(Shape.of(ruleset), history_key(history, symbols), clue_key(clues, symbols))


def count_consistent(ruleset: Ruleset, history: History, clues: Iterable[Clue] = ()) -> tuple[int, bool]:
    """How many codes fit the history and the lifeline clues, and whether that count is exact (else an
    estimate).

    Exact on spaces up to a quarter of a million codes and whenever the answers narrow a larger
    space enough to list; otherwise estimated from a sample (``exact`` is False).
    """
    return fitting(ruleset, history, clues).count()


def suspects(ruleset: Ruleset, history: History) -> tuple[int, ...]:
    """The answers most likely wrong, in order; empty if some code fits every answer.

    The answer most likely wrong is the one whose removal leaves the most codes possible: a
    wrong answer rules out the secret, and the more codes the others leave, the likelier the
    secret is among them. When several leave the same number, all are named. When no single
    removal leaves any code, the first answer after which nothing fits is named.
    """
    if fitting(ruleset, history).any():
        return ()
    left = [count_consistent(ruleset, [*history[:i], *history[i + 1 :]])[0] for i in range(len(history))]
    most = max(left, default=0)
    if most > 0:
        return tuple(i for i, n in enumerate(left) if n == most)
    for i in range(len(history)):
        if not fitting(ruleset, history[: i + 1]).any():
            return (i,)
    return (len(history) - 1,)


def find_inconsistency(ruleset: Ruleset, history: History) -> int | None:
    """None if some code fits every answer; else the index of the answer most likely wrong.

    See :func:`suspects`; when several are equally likely, the latest of them.
    """
    named = suspects(ruleset, history)
    return named[-1] if named else None
