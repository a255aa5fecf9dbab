"""Test doubles shared by the domain tests: computer players that follow a script."""

from __future__ import annotations

import random
from collections.abc import Iterable

from wom_tui.domain.codes import Ruleset
from wom_tui.domain.players import ComputerPlayer


class ScriptedStrategy:
    """Plays the given guesses in order (a stand-in for a real strategy)."""

    name = "scripted"

    def __init__(self, guesses: Iterable[str]) -> None:
        self._guesses = iter(guesses)

    def next_guess(self, ruleset: Ruleset, history, rng: random.Random) -> str:
        """The next scripted guess."""
        return next(self._guesses)


class ScriptedComputer(ComputerPlayer):
    """A computer player whose code and guesses are fixed in advance."""

    def __init__(self, name: str, code: str, guesses: Iterable[str] = ()) -> None:
        super().__init__(name, ScriptedStrategy(guesses))
        self._code = code

    def make_code(self, ruleset: Ruleset, rng: random.Random, typed: str | None = None) -> str:
        """The scripted code."""
        return self._code
