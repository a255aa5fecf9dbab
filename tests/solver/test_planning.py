"""The end-game search HAL9000 plays on big rulesets."""

from __future__ import annotations

import numpy as np
import pytest

from wom_tui.domain.strategies.expert import _climb, _two_step, _two_step_cost
from wom_tui.domain.strategies.planning import Planner, entropy, expected_guesses, guesses_left
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


def test_expected_guesses_count_one_more_guess_per_code_a_split_leaves_alone_and_none_for_the_win():
    win = SHAPE.win_key
    others = [k for k in range(SHAPE.outcomes) if k != win]
    # Ten codes told apart, one of them the guess itself: it wins 1 time in 10, else one guess more.
    apart = np.zeros((2, SHAPE.outcomes), dtype=np.int64)
    apart[0, [win, *others[:9]]] = 1
    apart[1, others[:10]] = 1  # the same split by a guess that cannot be the secret
    assert expected_guesses(apart, 1.0, win) == pytest.approx([0.9, 1.0])
    # Two classes of five cost what five codes cost, each; bigger classes cost more guesses.
    halves = np.zeros((1, SHAPE.outcomes), dtype=np.int64)
    halves[0, others[:2]] = 5
    assert expected_guesses(halves, 1.0, win)[0] == pytest.approx(float(guesses_left(np.array([5.0]))[0]))
    assert guesses_left(np.array([1.0, 2.0])) == pytest.approx([1.0, 1.5])
    assert np.all(np.diff(guesses_left(np.array([1.0, 2.0, 10.0, 1e3, 1e6, 1e8]))) > 0)
    # On a sample each scored code stands for ``scale`` codes, and the win is no longer special.
    assert expected_guesses(apart, 50.0, win) == pytest.approx([float(guesses_left(np.array([50.0]))[0])] * 2)


def test_the_two_step_look_by_expected_guesses_picks_the_guess_that_leaves_fewest_guesses_over_two_steps():
    gen = np.random.default_rng(5)
    codes = codes_near_one(gen, drawn=1200, change=0.5, kept=500)
    pool = np.concatenate([codes[:20], gen.integers(0, 10, size=(30, 8), dtype=np.uint8)])
    keys = feedback_keys(pool, codes, SHAPE.colours)
    score = -expected_guesses(partition_counts(keys, SHAPE.outcomes), 1.0, SHAPE.win_key)
    order = np.argsort(-score, kind="stable")
    top, nexts = 12, 25

    def cost(t):
        """One guess more for every code it does not win, then the best next guess's expected guesses there."""
        total = 0.0
        for key in np.unique(keys[t]):
            if key == SHAPE.win_key:
                continue
            part = codes[keys[t] == key]
            after_keys = feedback_keys(pool[order[:nexts]], part, SHAPE.colours)
            after = expected_guesses(partition_counts(after_keys, SHAPE.outcomes), 1.0, SHAPE.win_key).min()
            if len(part) <= 2:
                after = min(after, len(part) - 1)  # guess them in turn
            total += len(part) / len(codes) * (1 + after)
        return total

    picked = _two_step_cost(keys, score, SHAPE, top, nexts, 1.0)
    assert picked in order[:top]
    assert cost(picked) == pytest.approx(min(cost(t) for t in order[:top]))
    # The look changes the choice here: the fewest guesses expected after one step is not the fewest after two.
    assert cost(picked) < cost(order[0]) - 1e-6


def test_climbing_moves_one_peg_at_a_time_to_guesses_that_split_better():
    gen = np.random.default_rng(4)
    codes = codes_near_one(gen, drawn=2000, change=0.6, kept=800)
    pool = gen.integers(0, 10, size=(10, 8), dtype=np.uint8)

    def by_entropy(rows):
        rows_keys = feedback_keys(rows, codes, SHAPE.colours)
        return rows_keys, entropy(partition_counts(rows_keys, SHAPE.outcomes))

    keys, score = by_entropy(pool)
    grown, grown_keys, grown_score = _climb(SHAPE, pool, keys, score, by_entropy)
    assert np.array_equal(grown[: len(pool)], pool)
    found = grown[len(pool) :]
    assert len(found) > 0
    # What was found scores as its keys say, better than every guess it started from.
    assert np.array_equal(grown_keys, feedback_keys(grown, codes, SHAPE.colours))
    assert grown_score[len(pool) :].max() > score.max()
    # Each step changes one peg of a guess it started from or reached before (climbs are chains of one-peg steps).
    for i, row in enumerate(found):
        before = grown[: len(pool) + i]
        assert ((before != row[None, :]).sum(axis=1) == 1).any()
