"""Rush: three minutes on the clock, code after code (4 pegs of the Classic colours), as lichess's Storm.

For players: docs/play.md, *Rush*.

The clock starts with the first guess (:data:`RUSH_SECONDS`). Each code has :data:`RUSH_ATTEMPTS` guesses;
breaking it brings the next at once. A *run* is the codes broken in a row: reaching a run of
:data:`BONUSES`' lengths adds time to the clock (+15 s at 2, +20 s at 4, +25 s at 6, then +30 s every 2 more).
A lost code — out of guesses, or skipped — costs :data:`LOST_PENALTY` seconds and ends the run. The game is
over when the clock reaches 0; its score is the codes broken (ties: fewer guesses). A personal best is kept per
identity (the store's ``RushBests``); there is no leaderboard.

The codes come from the seed alone (code ``n`` from ``Random(f"{seed}:{n}")``), so a game replays exactly;
the game never reads the wall clock: every move takes ``now``. :meth:`RushGame.as_json` /
:meth:`RushGame.from_json` round-trip every state.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from .board import DecodingBoard
from .codes import WOM_RULESET, Feedback, InvalidCode
from .game import Refusal, Status

RUSH_SECONDS = 180.0
"""The clock at the start."""
RUSH_ATTEMPTS = 8
"""Guesses each code allows."""
RUSH_RULESET = WOM_RULESET.with_guesses(RUSH_ATTEMPTS)
"""4 pegs, the Classic colours (repeats allowed), :data:`RUSH_ATTEMPTS` guesses a code."""
LOST_PENALTY = 10.0
"""Seconds a lost code takes off the clock."""
BONUSES = ((2, 15.0), (4, 20.0), (6, 25.0))
"""(run, seconds added when the run of breaks reaches it); after the last, :data:`BONUS_EVERY`."""
BONUS_EVERY = (2, 30.0)
"""Past the last of :data:`BONUSES`: every this many breaks more, this many seconds."""


class RushRefused(Refusal):
    """A move Rush does not allow now; ``reason`` is what the player reads."""


def run_bonus(run: int) -> float:
    """Seconds added when the run of breaks reaches ``run`` (0 for most runs)."""
    for length, seconds in BONUSES:
        if run == length:
            return seconds
    last = BONUSES[-1][0]
    every, seconds = BONUS_EVERY
    return seconds if run > last and (run - last) % every == 0 else 0.0


def next_bonus(run: int) -> tuple[int, float]:
    """The next run length that adds time, and how much (what the screen announces)."""
    length = run + 1
    while run_bonus(length) == 0.0:
        length += 1
    return length, run_bonus(length)


@dataclass(frozen=True)
class RushMove:
    """What a guess or a skip did: its feedback (None for a skip), the code if it ended, and the clock's change."""

    feedback: Feedback | None
    broke: bool
    lost: bool
    code: str | None
    """The code that ended (broken or lost), revealed; None while it is still played."""
    seconds: float
    """Time added (a run's bonus) or taken (a lost code: negative)."""
    over: bool


@dataclass(frozen=True)
class RushScore:
    """A finished Rush: codes broken, guesses it took, the longest run. Better: more codes, then fewer guesses."""

    broken: int
    guesses: int
    best_run: int

    def beats(self, other: RushScore | None) -> bool:
        """True if this score is better than ``other`` (None: no score yet)."""
        return other is None or (self.broken, -self.guesses) > (other.broken, -other.guesses)

    def as_json(self) -> dict[str, Any]:
        """The value as plain JSON data."""
        return {"broken": self.broken, "guesses": self.guesses, "best_run": self.best_run}

    @classmethod
    def from_json(cls, data: Any) -> RushScore:
        """Rebuild from :meth:`as_json` data; ValueError if it is not one."""
        if not isinstance(data, dict) or set(data) != {"broken", "guesses", "best_run"} \
                or not all(type(v) is int and v >= 0 for v in data.values()):
            raise ValueError("a Rush score is exactly broken, guesses and best_run, whole numbers")
        return cls(data["broken"], data["guesses"], data["best_run"])


class RushGame:
    """One Rush (see the module)."""

    def __init__(self, seed: int, *, seconds: float = RUSH_SECONDS) -> None:
        self.seed = seed
        self.seconds = float(seconds)
        self.started_at: float | None = None
        self.bonus = 0.0
        """Seconds added and taken so far (bonuses minus penalties)."""
        self.ended_at: float | None = None
        self.codes: list[tuple[str, bool, list[str]]] = []
        """Every code that ended: the code, whether it was broken, the guesses played at it."""
        self.run = 0
        self.best_run = 0
        self._board = self._new_board()

    def _code(self, number: int) -> str:
        return RUSH_RULESET.random_code(random.Random(f"{self.seed}:{number}"))

    def _new_board(self) -> DecodingBoard:
        board = DecodingBoard(RUSH_RULESET)
        board.set_secret(self._code(len(self.codes)))
        return board

    # -- reading

    @property
    def board(self) -> DecodingBoard:
        """The code being broken now."""
        return self._board

    def deadline(self) -> float | None:
        """When the clock reaches 0 (None before the first guess)."""
        return None if self.started_at is None else self.started_at + self.seconds + self.bonus

    def time_left(self, now: float) -> float:
        """Seconds left on the clock at ``now`` (all of it before the first guess, 0 once over)."""
        deadline = self.deadline()
        if self.ended_at is not None:
            return 0.0
        return self.seconds if deadline is None else max(0.0, deadline - now)

    def status(self, now: float) -> Status:
        """Guessing, or finished once time is up."""
        return Status.FINISHED if self.ended_at is not None or self.time_left(now) <= 0 else Status.GUESSING

    @property
    def broken(self) -> int:
        """Codes broken so far."""
        return sum(1 for _, broke, _ in self.codes if broke)

    def score(self) -> RushScore:
        """Codes broken, guesses at them and at the ones lost, the longest run."""
        guesses = sum(len(g) for _, _, g in self.codes) + self._board.attempts_used
        return RushScore(self.broken, guesses, self.best_run)

    # -- moves

    def tick(self, now: float) -> bool:
        """End the game if its clock ran out by ``now``; True once it is over."""
        if self.ended_at is None and self.started_at is not None and self.time_left(now) <= 0:
            deadline = self.deadline()
            assert deadline is not None
            self.ended_at = deadline
        return self.ended_at is not None

    def _check(self, now: float) -> None:
        if self.tick(now):
            raise RushRefused("Time is up: this Rush is over.")

    def guess(self, typed: str, now: float) -> RushMove:
        """A guess at the code being broken (the first starts the clock); :class:`RushRefused` for a guess the
        rules forbid (costing nothing) or once time is up.
        """
        self._check(now)
        try:
            code = RUSH_RULESET.parse(typed)
        except InvalidCode as exc:
            raise RushRefused(exc.reason) from None
        if self.started_at is None:
            self.started_at = now
        feedback = self._board.guess(code)
        if self._board.solved:
            return self._end_code(True, now, feedback)
        if self._board.out_of_attempts:
            return self._end_code(False, now, feedback)
        return RushMove(feedback, False, False, None, 0.0, False)

    def skip(self, now: float) -> RushMove:
        """Give the code up: it counts as lost (−10 s), and the next comes."""
        self._check(now)
        if self.started_at is None:
            raise RushRefused("Make a guess first: the clock starts with it.")
        return self._end_code(False, now, None)

    def _end_code(self, broke: bool, now: float, feedback: Feedback | None) -> RushMove:
        code = self._code(len(self.codes))
        self.codes.append((code, broke, [a.guess for a in self._board.history]))
        if broke:
            self.run += 1
            self.best_run = max(self.best_run, self.run)
            seconds = run_bonus(self.run)
        else:
            self.run = 0
            seconds = -LOST_PENALTY
        self.bonus += seconds
        self._board = self._new_board()
        over = self.tick(now)
        return RushMove(feedback, broke, not broke, code, seconds, over)

    # -- JSON

    def as_json(self) -> dict[str, Any]:
        """The value as plain JSON data."""
        return {"seed": self.seed, "seconds": self.seconds, "started_at": self.started_at, "ended_at": self.ended_at,
                "codes": [[code, broke, guesses] for code, broke, guesses in self.codes],
                "guesses": [a.guess for a in self._board.history]}

    @classmethod
    def from_json(cls, data: Any) -> RushGame:
        """Rebuild by replaying :meth:`as_json` data (the bonuses follow from the codes); ValueError if it is not one."""
        keys = {"seed", "seconds", "started_at", "ended_at", "codes", "guesses"}
        if not isinstance(data, dict) or set(data) != keys or type(data["seed"]) is not int \
                or type(data["seconds"]) not in (int, float) or not isinstance(data["codes"], list) \
                or not isinstance(data["guesses"], list):
            raise ValueError("a Rush needs exactly " + ", ".join(sorted(keys)))
        for when in ("started_at", "ended_at"):
            if data[when] is not None and type(data[when]) not in (int, float):
                raise ValueError(f"a Rush's {when} is a time or nothing")
        game = cls(data["seed"], seconds=float(data["seconds"]))
        game.started_at = data["started_at"]
        for item in data["codes"]:
            if not isinstance(item, list) or len(item) != 3 or not isinstance(item[2], list):
                raise ValueError("a Rush's code is [code, broke, guesses]")
            code, broke, guesses = item
            if code != game._code(len(game.codes)):
                raise ValueError("a Rush's codes do not follow from its seed")
            for guess in guesses:
                game._board.guess(RUSH_RULESET.parse(guess))
            if broke is not game._board.solved:
                raise ValueError("a Rush's code is marked broken but was not, or the other way round")
            game._end_code(bool(broke), game.started_at or 0.0, None)
        for guess in data["guesses"]:
            game._board.guess(RUSH_RULESET.parse(guess))
            if game._board.finished:
                raise ValueError("a Rush's current code cannot be finished")
        game.ended_at = data["ended_at"]
        return game


__all__ = ["BONUSES", "LOST_PENALTY", "RUSH_ATTEMPTS", "RUSH_RULESET", "RUSH_SECONDS", "RushGame", "RushMove",
           "RushRefused", "RushScore", "next_bonus", "run_bonus"]
