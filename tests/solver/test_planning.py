"""The end-game search HAL9000 plays on big rulesets."""

from __future__ import annotations

import numpy as np

from wom_tui.domain.strategies.planning import Planner
from wom_tui.domain.strategies.space import Shape, feedback_keys

SHAPE = Shape(8, 10, True)


def test_the_end_game_plan_totals_what_following_it_costs():
    gen = np.random.default_rng(3)
    base = gen.integers(0, 10, size=8, dtype=np.uint8)
    codes = np.repeat(base[None], 200, axis=0)
    change = gen.random(codes.shape) < 0.3
    codes[change] = gen.integers(0, 10, size=int(change.sum()), dtype=np.uint8)
    codes = np.unique(codes, axis=0)[:40]
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
