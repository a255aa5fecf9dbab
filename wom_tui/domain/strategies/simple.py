"""The strategies that do not plan: ``random`` (the older line-mode game's player) and VIKI's ``consistent``."""

from __future__ import annotations

import random
import time

from ..codes import Ruleset
from .common import TIME_BUDGET, History, generator
from .counting import fitting
from .space import to_string


class RandomStrategy:
    """Any valid code at random, never one already tried (the older line-mode game's computer player)."""

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
    """VIKI, a sound human: a uniformly random code consistent with every feedback so far."""

    name = "consistent"

    def next_guess(self, ruleset: Ruleset, history: History, rng: random.Random) -> str:
        """A uniformly random fitting code, or a random code if none fits."""
        if not history:
            return ruleset.random_code(rng)
        cands = fitting(ruleset, history)
        gen = generator(rng)
        if cands.exact:
            if len(cands.all_codes) == 0:
                return ruleset.random_code(rng)
            row = cands.all_codes[int(gen.integers(len(cands.all_codes)))]
        else:
            rows = cands.drawn.draw(1, gen, deadline=time.monotonic() + TIME_BUDGET)
            if len(rows) == 0:
                return ruleset.random_code(rng)
            row = rows[0]
        return to_string(row, ruleset.palette.symbols)
