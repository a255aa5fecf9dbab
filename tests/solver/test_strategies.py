"""Every strategy on every kind of ruleset: valid, consistent where promised, winning, reproducible."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wom_tui.domain.codes import feedback
from wom_tui.domain.strategies import STRATEGIES, is_consistent, make_strategy

from .helpers import play, ruleset, slow_but


def small_rulesets():
    """Rulesets small enough to play many games of: up to 4 symbols, any palette, repeats or not."""
    return st.builds(
        lambda length, colours, repeats: ruleset(length, colours, repeats),
        st.integers(1, 4),
        st.sampled_from([6, 8, 10]),
        st.booleans(),
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=small_rulesets(), seed=st.integers(0, 2**32))
def test_consistent_only_plays_codes_that_fit_and_wins(rules, seed):
    rng = random.Random(seed)
    secret = rules.random_code(rng)
    history = play(make_strategy("consistent"), rules, secret, rng)
    for i, (guess, _) in enumerate(history):
        assert is_consistent(guess, history[:i])
        if not rules.repeats:
            assert len(set(guess)) == len(guess)
    assert history[-1][0] == secret
    assert len(history) <= (len(rules.palette) if rules.length == 1 else 12)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=small_rulesets(), seed=st.integers(0, 2**32))
def test_expert_asked_to_stay_consistent_does_so_and_wins(rules, seed):
    rng = random.Random(seed)
    secret = rules.random_code(rng)
    history = play(make_strategy("expert", consistent_only=True), rules, secret, rng)
    assert all(is_consistent(guess, history[:i]) for i, (guess, _) in enumerate(history))
    assert history[-1][0] == secret
    assert len(history) <= (len(rules.palette) if rules.length == 1 else 12)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=small_rulesets(), seed=st.integers(0, 2**32))
def test_expert_wins_within_seven(rules, seed):
    rng = random.Random(seed)
    secret = rules.random_code(rng)
    history = play(make_strategy("expert"), rules, secret, rng)
    assert history[-1][0] == secret
    # One symbol: each guess can only rule out itself.
    assert len(history) <= (len(rules.palette) if rules.length == 1 else 7)


@settings(max_examples=20, deadline=None)
@given(length=st.integers(1, 2), colours=st.sampled_from([6, 8, 10]), repeats=st.booleans(), seed=st.integers(0, 2**32))
def test_random_never_repeats_a_guess_so_it_always_wins_in_the_end(length, colours, repeats, seed):
    rules = ruleset(length, colours, repeats)
    rng = random.Random(seed)
    secret = rules.random_code(rng)
    history = play(make_strategy("random"), rules, secret, rng, limit=rules.size)
    guesses = [g for g, _ in history]
    assert len(set(guesses)) == len(guesses)
    assert guesses[-1] == secret


@pytest.mark.parametrize(
    ("length", "colours", "repeats"),
    slow_but([(5, 8, True), (6, 10, False), (8, 10, True), (8, 10, False), (7, 6, True), (8, 8, False)],
             fast=[(8, 10, True)]),
)
def test_big_rulesets_are_won_within_ten_consistently(length, colours, repeats):
    rules = ruleset(length, colours, repeats)
    rng = random.Random(length * 100 + colours)
    secret = rules.random_code(rng)
    for name, fitting in (("consistent", True), ("expert", False), ("expert", True)):
        history = play(make_strategy(name, consistent_only=fitting), rules, secret, rng)
        assert history[-1][0] == secret
        assert len(history) <= 10
        if fitting:
            assert all(is_consistent(g, history[:i]) for i, (g, _) in enumerate(history))


EVERY_RULESET = [
    (length, colours, repeats)
    for length in range(1, 9)
    for colours in (6, 8, 10)
    for repeats in (True, False)
    if repeats or length <= colours
]


@pytest.mark.parametrize(("length", "colours", "repeats"),
                         slow_but(EVERY_RULESET, fast=[(1, 6, True), (4, 6, True), (5, 8, False), (8, 10, True)]))
@pytest.mark.parametrize("name", STRATEGIES)
def test_every_strategy_answers_every_ruleset(length, colours, repeats, name):
    rules = ruleset(length, colours, repeats)
    rng = random.Random(7)
    secret = rules.random_code(rng)
    strategy = make_strategy(name)
    history = []
    for _ in range(2):
        guess = strategy.next_guess(rules, history, rng)
        assert rules.parse(guess) == guess
        history.append((guess, feedback(secret, guess)))


@pytest.mark.parametrize("name", STRATEGIES)
@pytest.mark.parametrize(("length", "colours", "repeats"),
                         slow_but([(4, 6, True), (5, 8, True), (8, 10, True), (6, 10, False)], fast=[(5, 8, True)]))
def test_same_seed_same_game(name, length, colours, repeats):
    rules = ruleset(length, colours, repeats)
    secret = rules.random_code(random.Random(1))
    games = [play(make_strategy(name), rules, secret, random.Random(42), limit=6) for _ in range(2)]
    assert games[0] == games[1]


def test_the_benchmark_prints_one_json_object_for_other_tools():
    script = Path(__file__).resolve().parents[2] / "bench" / "solver.py"
    out = subprocess.run(
        [sys.executable, str(script), "--pegs", "4", "--colours", "6", "--strategy", "expert", "--games", "5", "--json"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    result = json.loads(out)
    assert set(result) == {"games", "total", "average", "worst", "won_share", "median_ms", "max_ms", "max_cpu_ms", "peak_mb"}
    assert result["games"] == 5 and result["worst"] <= 5


def test_the_benchmark_compares_two_runs_game_by_game(tmp_path):
    bench = Path(__file__).resolve().parents[2] / "bench"
    base = [sys.executable, str(bench / "solver.py"), "--pegs", "4", "--colours", "6", "--games", "6", "--json"]
    runs = []
    for name, extra in (("a.json", ["--jobs", "2"]), ("b.json", ["--play-seed", "7"])):
        args = [*base, *extra, "--lengths", str(tmp_path / name)]
        out = subprocess.run(args, capture_output=True, text=True, check=True)
        runs.append((json.loads(out.stdout), json.loads((tmp_path / name).read_text())))
    for result, saved in runs:
        assert sorted(saved["lengths"], key=int) == [str(i) for i in range(6)]
        assert sum(saved["lengths"].values()) == result["total"]
    out = subprocess.run(
        [sys.executable, str(bench / "paired.py"), str(tmp_path / "a.json"), str(tmp_path / "b.json")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "6 games" in out and "difference" in out


class _SlowClock:
    """A clock on which every reading is ten seconds after the last: a machine as loaded as can be."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        self.now += 10.0
        return self.now


@pytest.mark.parametrize("name", ["expert", "consistent"])
def test_a_seeded_game_is_the_same_however_slow_the_machine(name, monkeypatch):
    """The search is bounded by counts, not by the clock: under any load, a seed replays the game."""
    from wom_tui.domain.strategies import expert, simple, space

    rules = ruleset(8, 10, True)
    secret = rules.random_code(random.Random(3))
    calm = play(make_strategy(name), rules, secret, random.Random(11), limit=4)
    for module in (expert, simple, space):
        monkeypatch.setattr(module, "time", _SlowClock())
    loaded = play(make_strategy(name), rules, secret, random.Random(11), limit=4)
    assert loaded == calm
