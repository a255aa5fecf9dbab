"""The rules of "computer breaks your code" (flip the script): the person keeps the secret (SPEC §4)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .board import DecodingBoard, GameStateError
from .codes import Feedback, Ruleset
from .records import GameRecord, PlayerRecord
from .strategies import Strategy, count_consistent, find_inconsistency, make_strategy, suspects

BREAKER = "HAL9000"
"""Who breaks the person's code: HAL9000, playing ``expert`` restricted to codes that fit every answer."""


class InvalidAnswer(ValueError):
    """Black and white that no guess could ever earn; ``reason`` is shown to the person."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def check_answer(ruleset: Ruleset, black: int, white: int) -> Feedback:
    """The feedback ``(black, white)`` if a guess of this ruleset could earn it, else :class:`InvalidAnswer`."""
    n = ruleset.length
    if not 0 <= black <= n:
        raise InvalidAnswer(f"Black must be a number from 0 to {n}.")
    if not 0 <= white <= n:
        raise InvalidAnswer(f"White must be a number from 0 to {n}.")
    if black + white > n:
        raise InvalidAnswer(f"Black and white together can be at most {n}.")
    if black == n - 1 and white == 1:
        raise InvalidAnswer(
            f"{black} black and 1 white cannot happen: when {black} pegs are right, "
            "the last one cannot be a right symbol in the wrong place."
        )
    return Feedback(black, white)


def blame_message(history: Sequence[tuple[str, Feedback]], named: Sequence[int]) -> str:
    """What to tell the person about the answers most likely wrong (indices into ``history``)."""
    if len(named) == 1:
        guess, result = history[named[0]]
        return (
            f"The answer to guess #{named[0] + 1} ({guess}: {result.black} black, {result.white} white) "
            "is likely wrong. Correct it below."
        )
    numbers = [f"#{i + 1}" for i in named]
    listed = ", ".join(numbers[:-1]) + f" and {numbers[-1]}"
    return (
        f"The answers to guesses {listed} are equally likely wrong. "
        f"Correct guess {numbers[-1]} below, or pick another row."
    )


class FlipGame:
    """HAL9000 breaks a person's code: the code is typed in (hidden), or the person scores each guess.

    The computer's thinking (:meth:`think`, :meth:`remaining`, :meth:`conflict`) reads a snapshot of
    the history and changes nothing, so a screen may run it in a thread; every change of state
    (:meth:`offer`, :meth:`answer`, :meth:`correct`) happens in one place, in order.
    """

    def __init__(self, ruleset: Ruleset, secret: str | None = None, strategy: Strategy | None = None) -> None:
        self.ruleset = ruleset
        # SPEC §4: every guess is consistent with all feedback so far, so the opening book and the
        # end-game search (which may play a code no answer allows) are off here.
        self.strategy = strategy or make_strategy("expert", consistent_only=True)
        self._board: DecodingBoard | None = None
        if secret is not None:
            board = DecodingBoard(ruleset)
            board.set_secret(secret)  # InvalidCode with the reason when the rules forbid it
            self._board = board
        self._history: list[tuple[str, Feedback]] = []
        self.pending: str | None = None
        """The guess waiting for the person's answer (by hand only)."""

    @property
    def by_hand(self) -> bool:
        """True when the person scores every guess."""
        return self._board is None

    @property
    def history(self) -> tuple[tuple[str, Feedback], ...]:
        """Every answered guess so far, oldest first."""
        return tuple(self._history)

    @property
    def guesses_used(self) -> int:
        """Guesses answered so far."""
        return len(self._history)

    @property
    def broke(self) -> bool:
        """True when the last answer was all black."""
        return bool(self._history) and self._history[-1][1].solves(self.ruleset.length)

    @property
    def out_of_guesses(self) -> bool:
        """True when every allowed guess is answered without breaking the code."""
        return not self.broke and len(self._history) >= self.ruleset.guesses

    @property
    def over(self) -> bool:
        """True once the code is broken or the guesses are used up (and the answers fit some code)."""
        return (self.broke or self.out_of_guesses) and self.conflict() is None

    # -- thinking (read-only; safe in a worker thread) ----------------------------------------

    def think(self, history: Sequence[tuple[str, Feedback]], rng: random.Random) -> str:
        """HAL9000's next guess for ``history`` (a snapshot taken by the caller)."""
        return self.strategy.next_guess(self.ruleset, tuple(history), rng)

    def remaining(self, history: Sequence[tuple[str, Feedback]] | None = None) -> tuple[int, bool]:
        """How many codes fit the answers (``(n, exact)``; an estimate on huge spaces)."""
        return count_consistent(self.ruleset, tuple(self._history if history is None else history))

    def conflict(self, history: Sequence[tuple[str, Feedback]] | None = None) -> int | None:
        """None while some code fits every answer; else the index of the answer most likely wrong."""
        if not self.by_hand:
            return None
        return find_inconsistency(self.ruleset, tuple(self._history if history is None else history))

    def blame(self, history: Sequence[tuple[str, Feedback]] | None = None) -> tuple[int, str] | None:
        """None while some code fits every answer; else (the answer to correct, what to tell the person).

        Names the answer whose removal leaves the most codes, or every answer tied for that.
        """
        if not self.by_hand:
            return None
        history = tuple(self._history if history is None else history)
        named = suspects(self.ruleset, history)
        if not named:
            return None
        return named[-1], blame_message(history, named)

    # -- changing state ------------------------------------------------------------------------

    def offer(self, guess: str) -> Feedback | None:
        """HAL9000 plays ``guess``: scored at once against a typed code, else it waits for :meth:`answer`."""
        if self.pending is not None or self.broke or self.out_of_guesses:
            raise GameStateError("HAL9000 cannot guess now.")
        guess = self.ruleset.parse(guess)
        if self._board is not None:
            result = self._board.guess(guess)
            self._history.append((guess, result))
            return result
        self.pending = guess
        return None

    def answer(self, black: int, white: int) -> Feedback:
        """The person's answer to the pending guess; :class:`InvalidAnswer` leaves everything as it was."""
        if self.pending is None:
            raise GameStateError("There is no guess to answer.")
        result = check_answer(self.ruleset, black, white)
        self._history.append((self.pending, result))
        self.pending = None
        return result

    def correct(self, index: int, black: int, white: int) -> Feedback:
        """Change the answer to guess ``index`` (0-based); :class:`InvalidAnswer` leaves it as it was."""
        if not self.by_hand:
            raise GameStateError("Only answers given by hand can be corrected.")
        guess, _ = self._history[index]
        result = check_answer(self.ruleset, black, white)
        self._history[index] = (guess, result)
        return result

    def reveal(self) -> str | None:
        """The typed code once the game is over (None when scored by hand)."""
        if self._board is None or not (self.broke or self.out_of_guesses):
            return None
        return self._board.reveal()

    def record(self, maker: str, is_user: bool) -> GameRecord:
        """The finished game for the store: HAL9000's guesses, and ``maker`` as the code's owner."""
        if not self.over:
            raise GameStateError("The game is not over yet.")
        breaker = PlayerRecord(BREAKER, False, self.broke, self.guesses_used, self.history)
        return GameRecord("flip", self.ruleset, (breaker, PlayerRecord(maker, is_user, False, 0)))

    def result_message(self) -> str:
        """``"HAL9000 broke your code in 5 guesses."`` or the failure, once over."""
        n = self.guesses_used
        if self.broke:
            return f"{BREAKER} broke your code in {n} {'guess' if n == 1 else 'guesses'}."
        return f"{BREAKER} failed to break your code in {n} {'guess' if n == 1 else 'guesses'}."
