"""Consistency: which codes fit the answers so far (and a solo player's lifeline clues), how many, and
which answer is likely wrong.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from collections.abc import Iterable

from ..clues import Clue, all_hold
from ..codes import Feedback, Ruleset, feedback
from .common import History
from .space import Candidates, Shape, candidates, clue_key, colour_counts, history_key, keys_against, to_array


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


CORRECTION_SAMPLE = 20_000
"""Codes drawn to share out an estimated count among the corrections, on spaces too big to list."""


@dataclass(frozen=True)
class Correction:
    """Changing answer ``index`` (0-based) from ``was`` to ``feedback`` makes every answer fit ``codes`` codes."""

    index: int
    was: Feedback
    feedback: Feedback
    codes: tuple[int, bool]

    @property
    def slip(self) -> int:
        """Pegs the person would have got wrong: added, taken away or mistaken for the other colour."""
        black = self.feedback.black - self.was.black
        white = self.feedback.white - self.was.white
        return max(abs(black), abs(white), abs(black + white))


def corrections(ruleset: Ruleset, history: History) -> tuple[Correction, ...]:
    """Every change of one answer that makes some code fit all of them, the likeliest first.

    Empty when some code already fits (nothing to correct) and when no single change helps. A
    person slips by a peg far more often than by several, so the smaller slip comes first; among
    equal slips, the correction that leaves more codes (more secrets it could be) comes first, then
    the later answer. Which one was really wrong only the person can say: a caller offers them all.
    """
    history = tuple(history)
    if fitting(ruleset, history).any():
        return ()
    shape = Shape.of(ruleset)
    symbols = ruleset.palette.symbols
    found: list[Correction] = []
    for index, (guess, was) in enumerate(history):
        others = fitting(ruleset, (*history[:index], *history[index + 1:]))
        if others.exact:
            codes, scale, exact = others.codes, 1.0, True
        else:
            total = others.count()[0]
            codes = others.sample(CORRECTION_SAMPLE, np.random.default_rng(index), distinct=False)
            scale, exact = (total / len(codes) if len(codes) else 0.0), False
        if codes is None or not len(codes):
            continue
        keys = keys_against(to_array([guess], symbols)[0], codes, colour_counts(codes, shape.colours))
        tally = np.bincount(keys, minlength=shape.outcomes)
        for key in np.nonzero(tally)[0]:
            black, common = divmod(int(key), ruleset.length + 1)
            result = Feedback(black, common - black)
            if result == was:
                continue
            n = int(tally[key]) if exact else max(1, round(int(tally[key]) * scale))
            found.append(Correction(index, was, result, (n, exact)))
    found.sort(key=lambda c: (c.slip, -c.codes[0], -c.index))
    return tuple(found)
