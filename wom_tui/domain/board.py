"""The decoding board: a hidden code behind a shield, guesses and their key pegs (seed 004)."""

from __future__ import annotations

from typing import NamedTuple

from .codes import Feedback, Ruleset, feedback


class GameStateError(RuntimeError):
    """An action the game's current state does not allow (a programming error, not a player's)."""


class Attempt(NamedTuple):
    """One row of a board: the guess played and the feedback it earned."""

    guess: str
    feedback: Feedback


class DecodingBoard:
    """One player's board: the code can be set once and is never readable until the board is finished."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.__ruleset = ruleset
        self.__secret: str | None = None
        self.__history: list[Attempt] = []

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

    def __repr__(self) -> str:
        return f"DecodingBoard({self.__ruleset.key}, attempts_used={self.attempts_used})"
