"""The computer breaks your code: the person keeps the secret, HAL9000 guesses.

docs/play.md, *Solo: the computer breaks your code*.

:class:`ComputerBreaksGame` is a UI-free state machine. ``awaiting`` says what comes next: the
person's code (:attr:`Move.CODE`), HAL9000's move (:attr:`Move.GUESS`, ``computer=True``), the person's
answer to a guess scored by hand (:attr:`Move.ANSWER`) or, when the answers contradict each other, a
correction (:attr:`Move.CORRECTION`): every change of one answer that resolves the contradiction is
offered (:attr:`ComputerBreaksGame.offered`, the likeliest first), and the person picks. HAL9000's move is worked out
by :meth:`ComputerBreaksGame.think` (read-only, may be slow: run it in a worker) and applied by
:meth:`ComputerBreaksGame.apply`. :meth:`as_json` / :meth:`from_json` write and read the game at any point.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .board import Attempt, DecodingBoard
from .codes import Feedback, Ruleset
from .game import (
    Awaiting,
    GameKind,
    GameStateError,
    Move,
    Refusal,
    Status,
    require_keys,
)
from .records import GameRecord, PlayerRecord
from .solo import GUEST
from .strategies import Correction, Strategy, corrections, count_consistent, find_inconsistency, make_strategy, suspects
from .words import counted, plural

BREAKER = "HAL9000"
"""Who breaks the person's code: HAL9000, playing ``expert`` restricted to codes that fit every answer."""


class InvalidAnswer(Refusal):
    """Black and white that no guess could ever earn; ``reason`` is shown to the person."""


Count = tuple[int, bool]
"""How many codes fit the answers, and whether that is exact (else an estimate)."""


@dataclass(frozen=True)
class Analysis:
    """What HAL9000 found about the answers from ``start`` on: a contradiction, or the codes that remain."""

    start: int
    conflict: int | None
    """The answer (0-based) most likely wrong, when no code fits them all."""
    counts: tuple[Count, ...]
    """Codes remaining after each answer from ``start`` on (empty on a conflict)."""
    suspects: tuple[int, ...] = ()
    """On a conflict that no single change resolves, the answers most likely wrong."""
    corrections: tuple[Correction, ...] = ()
    """On a conflict, every change of one answer that resolves it, the likeliest first."""

    def blame(self, history: Sequence[tuple[str, Feedback]]) -> str:
        """What to tell the person about the answers that may be wrong ("" without a conflict)."""
        if self.corrections:
            return correction_message(history, self.corrections)
        return blame_message(history, self.suspects) if self.suspects else ""


@dataclass(frozen=True)
class Played:
    """HAL9000 played ``guess`` (its ``number``, 1-based); ``feedback`` is None until answered by hand."""

    number: int
    guess: str
    feedback: Feedback | None


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


def answer_words(result: Feedback) -> str:
    """``"1 black, 0 white"``."""
    return f"{result.black} black, {result.white} white"


def correction_label(history: Sequence[tuple[str, Feedback]], fix: Correction) -> str:
    """One line per offered correction: ``"#1 RRGG: 0 black, 1 white (was 1 black, 0 white) · 12 codes"``."""
    guess = history[fix.index][0]
    n, exact = fix.codes
    codes = f"{n:,}" if exact else f"about {n:,}"
    noun = plural(n if exact else 2, "code")
    return f"#{fix.index + 1} {guess}: {answer_words(fix.feedback)} (was {answer_words(fix.was)}) · {codes} {noun}"


def correction_message(history: Sequence[tuple[str, Feedback]], fixes: Sequence[Correction]) -> str:
    """What to tell the person when changing one answer would resolve a contradiction."""
    answers = sorted({fix.index for fix in fixes})
    named = [f"#{i + 1}" for i in answers]
    numbers = named[0] if len(named) == 1 else ", ".join(named[:-1]) + f" and {named[-1]}"
    first = fixes[0]
    which = f"the answer to guess {numbers}" if len(answers) == 1 else f"one of the answers to guesses {numbers}"
    return (
        f"Correcting {which} makes them fit again; only you know which is wrong. "
        f"The likeliest: guess #{first.index + 1} scores {answer_words(first.feedback)}. Pick one from the list."
    )


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


class ComputerBreaksGame:
    """HAL9000 breaks a person's code: the code is typed in (hidden), or the person scores each guess.

    ``ComputerBreaksGame(ruleset)`` is scored by hand; ``ComputerBreaksGame(ruleset, secret)`` has the
    code typed in already; ``by_hand=False`` without a secret waits for the code (:meth:`set_secret`).
    """

    def __init__(
        self,
        ruleset: Ruleset,
        secret: str | None = None,
        strategy: Strategy | None = None,
        *,
        by_hand: bool | None = None,
        player: str = GUEST,
        is_user: bool = False,
    ) -> None:
        self.ruleset = ruleset
        # docs/play.md, *The computer players*: every guess is consistent with all feedback so far, so the
        # opening book and the end-game search (which may play a code no answer allows) are off here.
        self.strategy = strategy or make_strategy("expert", consistent_only=True)
        self._by_hand = secret is None if by_hand is None else by_hand
        self._board: DecodingBoard | None = None
        if secret is not None:
            self.set_secret(secret)
        self._history: list[Attempt] = []
        self.pending: str | None = None
        """The guess waiting for the person's answer (by hand only)."""
        self.counts: list[Count] = []
        """Codes remaining after each answer analysed so far."""
        self.fixing: int | None = None
        """The answer the person is asked to correct (by hand, after a contradiction)."""
        self.analyse_from: int | None = None
        """The first answer not analysed yet, or None when HAL9000 may guess."""
        self.offered: tuple[Correction, ...] = ()
        """While a correction is awaited: every change of one answer that resolves it, the likeliest first."""
        self.abandoned = False
        self.player = player
        """Who keeps the code (a registered user's name, or ``"Guest"``)."""
        self.is_user = is_user

    @property
    def by_hand(self) -> bool:
        """True when the person scores every guess."""
        return self._by_hand

    @property
    def history(self) -> tuple[Attempt, ...]:
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
        return (self.broke or self.out_of_guesses) and self.fixing is None and self.conflict() is None

    @property
    def status(self) -> Status:
        """``MAKING`` until the code is set, ``GUESSING``, then ``FINISHED`` once over and analysed."""
        if self.abandoned:
            return Status.ABANDONED
        if not self._by_hand and self._board is None:
            return Status.MAKING
        if (self.broke or self.out_of_guesses) and self.analyse_from is None and self.fixing is None:
            return Status.FINISHED
        return Status.GUESSING

    @property
    def awaiting(self) -> Awaiting | None:
        """The person's code, answer or correction, or HAL9000's move; None once finished."""
        status = self.status
        if status == Status.MAKING:
            return Awaiting(Move.CODE, self.player)
        if status != Status.GUESSING:
            return None
        if self.fixing is not None:
            return Awaiting(Move.CORRECTION, self.player, index=self.fixing)
        if self.pending is not None:
            return Awaiting(Move.ANSWER, self.player)
        return Awaiting(Move.GUESS, BREAKER, computer=True)

    @property
    def thinking(self) -> bool:
        """True while HAL9000 has work to do: check the answers, or find its next guess."""
        awaiting = self.awaiting
        return awaiting is not None and awaiting.computer

    @property
    def turn_number(self) -> int:
        """The guess HAL9000 is on, as in "guess 3 of 10" (the answer being corrected doesn't count)."""
        return min(self.guesses_used + (0 if self.fixing is not None else 1), self.ruleset.guesses)

    @property
    def remaining_count(self) -> Count | None:
        """Codes remaining after the last answer analysed (None before any)."""
        return self.counts[-1] if self.counts else None

    # -- thinking (read-only; safe in a worker thread) ----------------------------------------

    def think(self, history: Sequence[tuple[str, Feedback]] | None = None,
              rng: random.Random | None = None) -> str | Analysis:
        """HAL9000's next piece of work, changing nothing.

        An :class:`Analysis` of the answers not yet analysed, else its next guess;
        ``think(history, rng)`` gives the guess for ``history``.
        """
        if history is not None:
            assert rng is not None
            return self.strategy.next_guess(self.ruleset, tuple(history), rng)
        if self.analyse_from is not None:
            return self.analyse(self.history, self.analyse_from)
        assert rng is not None
        return self.strategy.next_guess(self.ruleset, self.history, rng)

    def analyse(self, history: Sequence[tuple[str, Feedback]], start: int) -> Analysis:
        """Check the answers in ``history`` (by hand) and count the codes after each answer from ``start``."""
        history = tuple(history)
        named = suspects(self.ruleset, history) if self.by_hand else ()
        counts: tuple[Count, ...] = ()
        if not named:
            counts = tuple(self.remaining(history[: i + 1]) for i in range(start, len(history)))
            return Analysis(start, None, counts)
        fixes = corrections(self.ruleset, history)
        if fixes:
            return Analysis(start, fixes[0].index, counts, (), fixes)
        return Analysis(start, named[-1], counts, named)

    def remaining(self, history: Sequence[tuple[str, Feedback]] | None = None) -> Count:
        """How many codes fit the answers (``(n, exact)``; an estimate on huge spaces)."""
        return count_consistent(self.ruleset, tuple(self._history if history is None else history))

    def conflict(self, history: Sequence[tuple[str, Feedback]] | None = None) -> int | None:
        """None while some code fits every answer; else the index of the answer most likely wrong."""
        if not self.by_hand:
            return None
        return find_inconsistency(self.ruleset, tuple(self._history if history is None else history))

    # -- changing state ------------------------------------------------------------------------

    def set_secret(self, typed: str) -> None:
        """The person's hidden code; InvalidCode (with the reason) changes nothing."""
        if self._board is not None or self._by_hand:
            raise GameStateError("The code is already set, or scored by hand.")
        board = DecodingBoard(self.ruleset)
        board.set_secret(typed)
        self._board = board

    def apply(self, work: str | Analysis) -> Played | Analysis:
        """Apply what :meth:`think` found: play the guess (see :meth:`offer`), or take in the analysis."""
        if isinstance(work, Analysis):
            if work.start != self.analyse_from:
                raise GameStateError("That analysis is out of date.")
            self.analyse_from = None
            del self.counts[work.start:]
            if work.conflict is not None:
                self.fixing = work.conflict
                self.offered = work.corrections
            else:
                self.counts.extend(work.counts)
            return work
        number = self.guesses_used + 1
        return Played(number, work, self.offer(work))

    def offer(self, guess: str) -> Feedback | None:
        """HAL9000 plays ``guess``: scored at once against a typed code, else it waits for :meth:`answer`."""
        if self.pending is not None or self.broke or self.out_of_guesses or self.status != Status.GUESSING:
            raise GameStateError("HAL9000 cannot guess now.")
        guess = self.ruleset.parse(guess)
        if self._board is not None:
            result = self._board.guess(guess)
            self._history.append(Attempt(guess, result))
            self.analyse_from = len(self._history) - 1
            return result
        self.pending = guess
        return None

    def answer(self, black: int, white: int) -> Feedback:
        """The person's answer to the pending guess; :class:`InvalidAnswer` leaves everything as it was."""
        if self.pending is None:
            raise GameStateError("There is no guess to answer.")
        result = check_answer(self.ruleset, black, white)
        self._history.append(Attempt(self.pending, result))
        self.pending = None
        self.analyse_from = len(self._history) - 1
        return result

    def choose_correction(self, index: int) -> None:
        """The person picks another answer to correct (only while a correction is awaited)."""
        if self.fixing is None or not 0 <= index < len(self._history):
            raise GameStateError("No answer can be corrected now.")
        self.fixing = index

    def take(self, number: int) -> Feedback:
        """Apply the offered correction ``number`` (0-based in :attr:`offered`)."""
        if self.fixing is None or not 0 <= number < len(self.offered):
            raise GameStateError("No such correction is offered now.")
        fix = self.offered[number]
        return self.correct(fix.index, fix.feedback.black, fix.feedback.white)

    def correct(self, index: int, black: int, white: int) -> Feedback:
        """Change the answer to guess ``index`` (0-based); :class:`InvalidAnswer` leaves it as it was."""
        if not self.by_hand:
            raise GameStateError("Only answers given by hand can be corrected.")
        guess, _ = self._history[index]
        result = check_answer(self.ruleset, black, white)
        self._history[index] = Attempt(guess, result)
        del self.counts[index:]
        self.fixing = None
        self.offered = ()
        self.analyse_from = index if self.analyse_from is None else min(index, self.analyse_from)
        return result

    def abandon(self) -> None:
        """Drop the game: HAL9000 stops, nothing is recorded."""
        self.abandoned = True

    def reveal(self) -> str | None:
        """The typed code once the game is over (None when scored by hand)."""
        if self._board is None or not (self.broke or self.out_of_guesses):
            return None
        return self._board.reveal()

    def record(self, maker: str | None = None, is_user: bool | None = None) -> GameRecord:
        """The finished game for the store: HAL9000's guesses, and the person as the code's owner."""
        if not self.over:
            raise GameStateError("The game is not over yet.")
        maker = self.player if maker is None else maker
        is_user = self.is_user if is_user is None else is_user
        breaker = PlayerRecord(BREAKER, False, self.broke, self.guesses_used, self.history)
        return GameRecord(GameKind.COMPUTER_BREAKS, self.ruleset, (breaker, PlayerRecord(maker, is_user, False, 0)))

    def result_message(self) -> str:
        """``"HAL9000 broke your code in 5 guesses."`` or the failure, once over."""
        n = self.guesses_used
        if self.broke:
            return f"{BREAKER} broke your code in {counted(n, 'guess')}."
        return f"{BREAKER} failed to break your code in {counted(n, 'guess')}."

    # -- writing and reading back -------------------------------------------------------------

    def as_json(self) -> dict[str, Any]:
        """The whole game as plain JSON data, at any point (the typed code included)."""
        return {
            "kind": GameKind.COMPUTER_BREAKS.value,
            "ruleset": self.ruleset.as_json(),
            "by_hand": self._by_hand,
            "board": self._board.as_json() if self._board is not None else None,
            "history": [row.as_json() for row in self._history],
            "pending": self.pending,
            "counts": [[n, exact] for n, exact in self.counts],
            "fixing": self.fixing,
            "analyse_from": self.analyse_from,
            "offered": [[c.index, *c.was, *c.feedback, *c.codes] for c in self.offered],
            "abandoned": self.abandoned,
            "player": self.player,
            "is_user": self.is_user,
        }

    @classmethod
    def from_json(cls, data: Any) -> ComputerBreaksGame:
        """Rebuild a game from :meth:`as_json` data; ValueError if it is not one."""
        keys = {"kind", "ruleset", "by_hand", "board", "history", "pending", "counts", "fixing", "analyse_from",
                "abandoned", "player", "is_user"}
        if isinstance(data, dict) and "offered" in data:
            keys.add("offered")  # written since every correction is offered
        data = require_keys(data, "computer-breaks-your-code game", keys)
        if data["kind"] != GameKind.COMPUTER_BREAKS.value:
            raise ValueError("not a computer-breaks-your-code game")
        if not all(type(data[k]) is bool for k in ("by_hand", "abandoned", "is_user")) or not isinstance(
            data["player"], str
        ):
            raise ValueError("not a computer-breaks-your-code game: wrong types")
        ruleset = Ruleset.from_json(data["ruleset"])
        game = cls(ruleset, by_hand=data["by_hand"], player=data["player"], is_user=data["is_user"])
        if data["board"] is not None:
            if game._by_hand:
                raise ValueError("not a computer-breaks-your-code game: a code scored by hand is never typed")
            game._board = DecodingBoard.from_json(ruleset, data["board"])
        if not isinstance(data["history"], list):
            raise ValueError("not a computer-breaks-your-code game: bad history")
        game._history = [Attempt.from_json(row) for row in data["history"]]
        if game._board is not None and game._board.history != tuple(game._history):
            raise ValueError("not a computer-breaks-your-code game: the history is not the board's")
        pending = data["pending"]
        game.pending = None if pending is None else ruleset.parse(pending)
        counts = data["counts"]
        if not isinstance(counts, list) or not all(
            isinstance(c, list) and len(c) == 2 and type(c[0]) is int and type(c[1]) is bool for c in counts
        ):
            raise ValueError("not a computer-breaks-your-code game: bad counts")
        game.counts = [(n, exact) for n, exact in counts]
        for key in ("fixing", "analyse_from"):
            value = data[key]
            if value is not None and (type(value) is not int or not 0 <= value < len(game._history)):
                raise ValueError(f"not a computer-breaks-your-code game: bad {key}")
        game.fixing, game.analyse_from = data["fixing"], data["analyse_from"]
        offered = data.get("offered", [])
        if not isinstance(offered, list) or not all(
            isinstance(o, list) and len(o) == 7 and all(type(x) is int for x in o[:6]) and type(o[6]) is bool
            and 0 <= o[0] < len(game._history) for o in offered
        ):
            raise ValueError("not a computer-breaks-your-code game: bad corrections")
        game.offered = tuple(Correction(o[0], check_answer(ruleset, o[1], o[2]), check_answer(ruleset, o[3], o[4]),
                                        (o[5], o[6])) for o in offered)
        game.abandoned = data["abandoned"]
        return game
