"""The decoding board: a hidden code behind a shield, guesses and their key pegs.

The rules: docs/play.md, *Codes and feedback*.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .codes import Feedback, Ruleset, feedback
from .game import GameStateError, require_keys

LIFELINE = "LIFELINE"
"""The guess of a row a solo player paid to a lifeline (its feedback is 0 black, 0 white)."""


class Attempt(NamedTuple):
    """One row of a game, for every mode and for records: the guess played and the feedback it earned.

    A row paid to a solo lifeline has the guess :data:`LIFELINE` and feedback (0, 0).
    """

    guess: str
    feedback: Feedback

    @property
    def is_lifeline(self) -> bool:
        """True for a row paid to a lifeline."""
        return self.guess == LIFELINE

    def as_json(self) -> list[Any]:
        """``[guess, black, white]``."""
        return [self.guess, self.feedback.black, self.feedback.white]

    @classmethod
    def from_json(cls, data: Any) -> Attempt:
        """Rebuild from ``[guess, black, white]``; ValueError otherwise."""
        if not (
            isinstance(data, list) and len(data) == 3 and isinstance(data[0], str)
            and all(type(n) is int and n >= 0 for n in data[1:])
        ):
            raise ValueError("a row must be [guess, black, white]")
        return cls(data[0], Feedback(data[1], data[2]))


class DecodingBoard:
    """One player's board: the code can be set once and is never readable until the board is finished."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.__ruleset = ruleset
        self.__secret: str | None = None
        self.__history: list[Attempt] = []

    def copy(self) -> DecodingBoard:
        """An independent board in the same state (its code, behind the shield, and its guesses)."""
        other = DecodingBoard(self.__ruleset)
        other.__secret = self.__secret
        other.__history = list(self.__history)
        return other

    @property
    def ruleset(self) -> Ruleset:
        """The rules this board is played by; ``ruleset.guesses`` is the attempts allowed."""
        return self.__ruleset

    @property
    def is_set(self) -> bool:
        """True once the code is behind the shield."""
        return self.__secret is not None

    def set_secret(self, code: str) -> None:
        """Put ``code`` behind the shield; allowed once. Raises InvalidCode for a code the rules forbid."""
        if self.__secret is not None:
            raise GameStateError("The code on this board is already set.")
        self.__secret = self.__ruleset.parse(code, what="Code", secret=True)

    def guess(self, code: str) -> Feedback:
        """Play a guess and return its feedback; InvalidCode (costing nothing) if it cannot be played."""
        if self.__secret is None:
            raise GameStateError("No code has been set on this board yet.")
        if self.finished:
            raise GameStateError("This board is finished; no more guesses.")
        guess = self.__ruleset.parse(code)
        result = feedback(self.__secret, guess)
        self.__history.append(Attempt(guess, result))
        return result

    @property
    def history(self) -> tuple[Attempt, ...]:
        """Every (guess, feedback) so far, oldest first."""
        return tuple(self.__history)

    @property
    def attempts_allowed(self) -> int:
        """How many guesses the board allows."""
        return self.__ruleset.guesses

    @property
    def attempts_used(self) -> int:
        """Guesses played so far."""
        return len(self.__history)

    @property
    def attempts_left(self) -> int:
        """Guesses still allowed."""
        return self.__ruleset.guesses - len(self.__history)

    @property
    def solved(self) -> bool:
        """True when the last guess matched the code."""
        return bool(self.__history) and self.__history[-1].feedback.solves(self.__ruleset.length)

    @property
    def out_of_attempts(self) -> bool:
        """True when every attempt is used without breaking the code."""
        return not self.solved and self.attempts_left == 0

    @property
    def finished(self) -> bool:
        """True when the code is broken or no attempt is left."""
        return self.solved or self.attempts_left == 0

    def reveal(self) -> str:
        """Lift the shield: the code, only once the board is finished."""
        if self.__secret is None or not self.finished:
            raise GameStateError("The code is revealed only when the board is finished.")
        return self.__secret

    def code_for_record(self) -> str | None:
        """The code for the record of a game that is over, finished board or not (its breaker left, or its
        clock ran out): a replay shows it; None if it was never set.
        """
        return self.__secret

    def as_json(self) -> dict[str, Any]:
        """The board as plain JSON data (the code included: it is the game's, not a screen's)."""
        return {"secret": self.__secret, "history": [a.as_json() for a in self.__history]}

    @classmethod
    def from_json(cls, ruleset: Ruleset, data: Any) -> DecodingBoard:
        """Rebuild a board of ``ruleset`` from :meth:`as_json` data; ValueError if it is not one."""
        data = require_keys(data, "board", {"secret", "history"})
        board = cls(ruleset)
        if data["secret"] is not None:
            board.set_secret(data["secret"])
        if not isinstance(data["history"], list) or (data["history"] and data["secret"] is None):
            raise ValueError("not a board: guesses without a code")
        for row in data["history"]:
            attempt = Attempt.from_json(row)
            if board.guess(attempt.guess) != attempt.feedback:
                raise ValueError("not a board: a feedback does not match the code")
        return board

    def __repr__(self) -> str:
        return f"DecodingBoard({self.__ruleset.key}, attempts_used={self.attempts_used})"
