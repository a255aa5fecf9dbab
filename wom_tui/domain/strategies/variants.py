"""The variants' rules that count codes, and how HAL9000 and VIKI play each variant (docs/play.md, *Variants*).

- **Devious**: :func:`devious_answer`, the answer that leaves the most codes (ties drawn from the seed,
  the win only when nothing else is left), so every answer sequence fits at least one code.
- **Liar**: :func:`liar_mask`, the codes that fit every answer but at most one of the first
  :data:`~wom_tui.domain.variants.LIE_WITHIN` (exactly one once the lie must have come), never a code
  that was guessed without winning (a win is never hidden).
- The coach's count and the contradiction check per variant: :func:`codes_left` and :func:`inconsistency`.
- The computer players: :func:`variant_guess` — HAL9000 plays Devious from the 5-guess book (every answer
  sequence Devious can give is some code's, so never more than 5 guesses on 4 × 6), Strict from the
  consistent book (every guess fits), Quad by the best split over all four boards at once, Liar by the
  best split of what fits with one lie; VIKI always a random code that could still be the one.

Devious and Liar list every code of the ruleset: at most :data:`~wom_tui.domain.variants.VARIANT_SPACE_UP_TO`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from ..codes import Feedback, Ruleset
from ..variants import LIE_WITHIN, Variant
from .common import History, generator
from .counting import count_consistent, find_inconsistency, fitting
from .expert import ExpertStrategy, opening
from .planning import entropy
from .simple import ConsistentStrategy
from .space import (
    Shape,
    colour_counts,
    enumerate_codes,
    feedback_keys,
    keys_against,
    partition_counts,
    to_array,
    to_string,
)

EVAL_SAMPLE = 1_500
"""Codes per board a guess is scored against (all of them when there are fewer)."""
POOL_SAMPLE = 600
"""Codes per board offered as guesses, besides the whole space when it is small."""
WHOLE_POOL_UP_TO = 1_296
"""Spaces up to this many codes offer every code as a guess (4 × 6)."""


def _unpack(key: int, length: int) -> Feedback:
    black, common = divmod(int(key), length + 1)
    return Feedback(black, common - black)


# ---------------------------------------------------------------- Devious


def devious_tally(ruleset: Ruleset, history: History, guess: str) -> dict[Feedback, int]:
    """How many codes fitting ``history`` each answer to ``guess`` would leave (answers leaving none left out)."""
    shape = Shape.of(ruleset)
    symbols = ruleset.palette.symbols
    fit = fitting(ruleset, history)
    codes = fit.all_codes if fit.exact else fit.sample(20_000, np.random.default_rng(0))
    keys = keys_against(to_array([guess], symbols)[0], codes, colour_counts(codes, shape.colours))
    tally = np.bincount(keys, minlength=shape.outcomes)
    return {_unpack(int(k), ruleset.length): int(tally[k]) for k in np.flatnonzero(tally)}


def devious_answer(ruleset: Ruleset, history: History, guess: str, seed: int) -> Feedback:
    """Devious's answer to ``guess``: the one leaving the most codes; among equals one drawn from ``seed``
    (and the guess's number); the win only when no other answer leaves a code.
    """
    tally = devious_tally(ruleset, history, guess)
    win = Feedback(ruleset.length, 0)
    others = {fb: n for fb, n in tally.items() if fb != win}
    if not others:
        return win
    most = max(others.values())
    ties = sorted(fb for fb, n in others.items() if n == most)
    return random.Random(f"devious:{seed}:{len(history)}").choice(ties)


def devious_stand_in(ruleset: Ruleset, history: History, seed: int) -> str:
    """A code fitting every answer Devious gave, drawn from its seed: what a lost game reveals."""
    fit = fitting(ruleset, history)
    codes = fit.sample(1, np.random.default_rng(seed))
    return to_string(codes[0], ruleset.palette.symbols)


# ---------------------------------------------------------------- Liar


def liar_mask(ruleset: Ruleset, history: History, lie_within: int = LIE_WITHIN) -> np.ndarray:
    """Over every code of the ruleset (:func:`enumerate_codes` order), whether it could be a Liar game's code.

    Such a code fits every answer from the ``lie_within``-th on, misses at most one before (exactly one once that
    many answers were given: the lie came), and is no guess that was answered with anything but a win.
    """
    shape = Shape.of(ruleset)
    codes = enumerate_codes(shape.length, shape.colours, shape.repeats)
    if not history:
        return np.ones(len(codes), dtype=bool)
    guesses = to_array([g for g, _ in history], ruleset.palette.symbols)
    keys = feedback_keys(guesses, codes, shape.colours)
    answers = np.array([shape.pack(fb) for _, fb in history], dtype=np.uint8)
    missed = keys != answers[:, None]
    early = missed[:lie_within].sum(axis=0)
    mask = ~missed[lie_within:].any(axis=0)
    mask &= (early == 1) if len(history) >= lie_within else (early <= 1)
    mask &= ~((keys == shape.win_key) & (answers != shape.win_key)[:, None]).any(axis=0)
    return mask


def liar_codes(ruleset: Ruleset, history: History, lie_within: int = LIE_WITHIN) -> np.ndarray:
    """The codes a Liar game could still have (rows of symbol indices)."""
    shape = Shape.of(ruleset)
    return enumerate_codes(shape.length, shape.colours, shape.repeats)[liar_mask(ruleset, history, lie_within)]


def liar_suspects(ruleset: Ruleset, history: History, lie_within: int = LIE_WITHIN) -> tuple[int, ...]:
    """The answers (0-based) that could be the lie, given everything answered: the ones some possible code misses."""
    shape = Shape.of(ruleset)
    codes = liar_codes(ruleset, history, lie_within)
    if not len(codes) or not history:
        return ()
    guesses = to_array([g for g, _ in history[:lie_within]], ruleset.palette.symbols)
    keys = feedback_keys(guesses, codes, shape.colours)
    answers = np.array([shape.pack(fb) for _, fb in history[:lie_within]], dtype=np.uint8)
    return tuple(int(i) for i in np.flatnonzero((keys != answers[:, None]).any(axis=1)))


# ---------------------------------------------------------------- the coach and the contradiction check


def codes_left(variant: Variant, ruleset: Ruleset, history: History) -> tuple[int, bool]:
    """How many codes remain possible under the variant's rules (and whether the count is exact): in a Liar
    game, those that fit with one lie; otherwise those that fit every answer.
    """
    if variant is Variant.LIAR:
        return int(liar_mask(ruleset, history).sum()), True
    return count_consistent(ruleset, history)


def could_be(variant: Variant, ruleset: Ruleset, guess: str, history: History) -> bool:
    """Whether ``guess`` could have been the code, given ``history`` and the variant's rules (the coach's verdict)."""
    shape = Shape.of(ruleset)
    if variant is Variant.LIAR:
        row = to_array([guess], ruleset.palette.symbols)[0]
        codes = enumerate_codes(shape.length, shape.colours, shape.repeats)
        index = int(np.ravel_multi_index(tuple(row), (shape.colours,) * shape.length)) if shape.repeats else None
        mask = liar_mask(ruleset, history)
        if index is not None:
            return bool(mask[index])
        return bool((codes[mask] == row).all(axis=1).any())
    from .counting import is_consistent

    return is_consistent(guess, history)


def inconsistency(variant: Variant, ruleset: Ruleset, history: History) -> int | None:
    """None if some code fits the answers under the variant's rules; else the answer (0-based) after which
    nothing does: a Liar game allows one lie among its first answers, every other variant none.
    """
    if variant is not Variant.LIAR:
        return find_inconsistency(ruleset, history)
    if liar_mask(ruleset, history).any():
        return None
    for i in range(len(history)):
        if not liar_mask(ruleset, history[: i + 1]).any():
            return i
    return len(history) - 1  # pragma: no cover - the whole history leaves none, so some prefix does


# ---------------------------------------------------------------- the computer players


def _best_split(shape: Shape, boards: Sequence[np.ndarray], gen: np.random.Generator) -> np.ndarray:
    """The guess whose answers split every board's codes best (entropy summed over the boards), a code
    that may break a board counting for that board's chance of it.
    """
    evals = [b if len(b) <= EVAL_SAMPLE else b[np.sort(gen.choice(len(b), EVAL_SAMPLE, replace=False))] for b in boards]
    parts = [b if len(b) <= POOL_SAMPLE else b[np.sort(gen.choice(len(b), POOL_SAMPLE, replace=False))] for b in boards]
    if shape.size <= WHOLE_POOL_UP_TO:
        parts.append(enumerate_codes(shape.length, shape.colours, shape.repeats))
    pool = np.unique(np.concatenate(parts, axis=0), axis=0)
    score = np.zeros(len(pool))
    for codes, sample in zip(boards, evals):
        keys = feedback_keys(pool, sample, shape.colours)
        counts = partition_counts(keys, shape.outcomes)
        score += entropy(counts)
        member = (keys == shape.win_key).any(axis=1)
        score[member] += max(1.0, float(np.log2(len(codes)))) / len(codes)
    return pool[int(np.argmax(score))]


def quad_guess(strategy: str, ruleset: Ruleset, boards: Sequence[History], rng: random.Random) -> str:
    """The next guess in a Quad game, given the histories of the boards not yet broken.

    A board with one code left is broken first. HAL9000 (``"expert"``) then plays the guess splitting all
    the boards best; VIKI (``"consistent"``) a random code that could be the board with the fewest left.
    """
    shape = Shape.of(ruleset)
    symbols = ruleset.palette.symbols
    gen = generator(rng)
    if strategy == "expert" and all(not h for h in boards):
        return to_string(opening(shape), symbols)
    sets = []
    for history in boards:
        fit = fitting(ruleset, history)
        sets.append(fit.all_codes if fit.exact else fit.sample(EVAL_SAMPLE, gen))
    sets = [s for s in sets if len(s)] or [enumerate_codes(shape.length, shape.colours, shape.repeats)[:1]]
    for codes in sets:
        if len(codes) == 1:
            return to_string(codes[0], symbols)
    if strategy != "expert":
        fewest = min(sets, key=len)
        return to_string(fewest[int(gen.integers(len(fewest)))], symbols)
    return to_string(_best_split(shape, sets, gen), symbols)


def liar_guess(strategy: str, ruleset: Ruleset, history: History, rng: random.Random) -> str:
    """The next guess in a Liar game: HAL9000 the best split of the codes that fit with one lie, VIKI one of them."""
    shape = Shape.of(ruleset)
    symbols = ruleset.palette.symbols
    if strategy == "expert" and not history:
        return to_string(opening(shape), symbols)
    codes = liar_codes(ruleset, history)
    gen = generator(rng)
    if not len(codes):
        return ruleset.random_code(rng)
    if len(codes) <= 2 or strategy != "expert":
        return to_string(codes[int(gen.integers(len(codes)))] if strategy != "expert" else codes[0], symbols)
    return to_string(_best_split(shape, [codes], gen), symbols)


def variant_guess(
    strategy: str, variant: Variant, ruleset: Ruleset, boards: Sequence[History], rng: random.Random,
) -> str:
    """The next guess of ``strategy`` (``"expert"``: HAL9000, ``"consistent"``: VIKI) in a game of
    ``variant``; ``boards`` are the histories of the boards still to break (one but in Quad).
    """
    if variant is Variant.QUAD:
        return quad_guess(strategy, ruleset, boards, rng)
    history = boards[0]
    if variant is Variant.LIAR:
        return liar_guess(strategy, ruleset, history, rng)
    if strategy != "expert":
        return ConsistentStrategy().next_guess(ruleset, history, rng)
    player = ExpertStrategy(consistent_only=variant is Variant.STRICT, within_five=variant is Variant.DEVIOUS)
    return player.next_guess(ruleset, history, rng)


__all__ = [
    "codes_left",
    "could_be",
    "devious_answer",
    "devious_stand_in",
    "devious_tally",
    "inconsistency",
    "liar_codes",
    "liar_guess",
    "liar_mask",
    "liar_suspects",
    "quad_guess",
    "variant_guess",
]
