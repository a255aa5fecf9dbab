"""The end-game search HAL9000 plays on big rulesets."""

from __future__ import annotations

import numpy as np
import pytest

from wom_tui.domain.strategies.expert import _two_step
from wom_tui.domain.strategies.planning import Planner, entropy
from wom_tui.domain.strategies.space import Shape, feedback_keys, partition_counts

SHAPE = Shape(8, 10, True)


def codes_near_one(gen: np.random.Generator, *, drawn: int, change: float, kept: int) -> np.ndarray:
    """Up to ``kept`` distinct 8 × 10 codes, each a random code with each peg changed at rate ``change``:
    alike, as the codes left late in a game are."""
    base = gen.integers(0, 10, size=8, dtype=np.uint8)
    codes = np.repeat(base[None], drawn, axis=0)
    changed = gen.random(codes.shape) < change
    codes[changed] = gen.integers(0, 10, size=int(changed.sum()), dtype=np.uint8)
    return np.unique(codes, axis=0)[:kept]


def test_the_end_game_plan_totals_what_following_it_costs():
    gen = np.random.default_rng(3)
    codes = codes_near_one(gen, drawn=200, change=0.3, kept=40)
    helpers = gen.integers(0, 10, size=(20, 8), dtype=np.uint8)

    def planner():
        return Planner(SHAPE, helpers, branch=3, nodes=10_000)

    (over, total), guess = planner().plan(codes, 6)
    assert over == 0
    # The first guess, then the plan for each answer it may get: the totals add up.
    row = feedback_keys(guess[None], codes, SHAPE.colours)[0]
    parts = [codes[row == k] for k in np.unique(row) if k != SHAPE.win_key]
    assert max(len(p) for p in parts) < len(codes)
    assert total == len(codes) + sum(planner().plan(p, 5)[0][1] for p in parts)


def test_the_two_step_look_picks_the_guess_whose_answers_the_next_guess_splits_best():
    gen = np.random.default_rng(1)
    codes = codes_near_one(gen, drawn=600, change=0.5, kept=300)
    pool = np.concatenate([codes[:20], gen.integers(0, 10, size=(30, 8), dtype=np.uint8)])
    keys = feedback_keys(pool, codes, SHAPE.colours)
    score = entropy(partition_counts(keys, SHAPE.outcomes))
    order = np.argsort(-score, kind="stable")
    top, nexts = 12, 25

    def worth(t):
        """Its own entropy, plus the best next guess's entropy on each answer's codes, weighted by their share."""
        total = score[t]
        for key in np.unique(keys[t]):
            if key != SHAPE.win_key:
                part = codes[keys[t] == key]
                after_keys = feedback_keys(pool[order[:nexts]], part, SHAPE.colours)
                after = entropy(partition_counts(after_keys, SHAPE.outcomes))
                total += len(part) / len(codes) * after.max()
        return total

    picked = _two_step(keys, score, SHAPE, top, nexts)
    assert picked in order[:top]
    assert worth(picked) == pytest.approx(max(worth(t) for t in order[:top]))
    # The look changes the choice here: the best split now is not the best over two guesses.
    assert worth(picked) > worth(order[0]) + 1e-6
