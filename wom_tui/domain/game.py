"""The one game model every mode shares: refusals, the game kinds, the status of a game and what it waits for.

Every game (:class:`~wom_tui.domain.wom.WomGame`, :class:`~wom_tui.domain.solo.SoloGame`,
:class:`~wom_tui.domain.computer_breaks.ComputerBreaksGame`) is a state machine without a UI: its
``status`` is a :class:`Status`, its ``awaiting`` says which :class:`Move` it waits for and from whom,
a move returns what happened, and ``as_json()`` / ``from_json()`` write and read it back at any point.
Nothing here knows about a keyboard: handing the keyboard over between people is the concern of the
hot-seat screen, not of the game (several processes may drive one game through the store).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any


class Refusal(ValueError):
    """A move or setting the rules refuse; ``reason`` is the sentence shown to the player, and nothing changed."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class GameKind(str, enum.Enum):
    """The kinds of game a record holds; the value is what the store writes."""

    WOM = "wom"
    """World of Mastermind, 2–4 players."""
    SOLO = "solo"
    """A person breaks the computer's code."""
    COMPUTER_BREAKS = "flip"
    """The computer breaks a person's code (stored as ``"flip"``, as files written before say)."""
    DAILY = "daily"
    """A person breaks the day's shared code (see ``daily.py``)."""

    def __str__(self) -> str:
        return self.value


class Status(str, enum.Enum):
    """Where a game stands; the same words for every mode."""

    MAKING = "making"
    """Codes are being set."""
    GUESSING = "guessing"
    """Guesses are being played (and, when a person scores them, answered)."""
    FINISHED = "finished"
    """Over: every code broken or every attempt spent."""
    ABANDONED = "abandoned"
    """Left before the end; nobody gets anything."""

    def __str__(self) -> str:
        return self.value


class Move(str, enum.Enum):
    """What a game can wait for."""

    CODE = "code"
    """A secret code for a board."""
    GUESS = "guess"
    """A guess at a code."""
    ANSWER = "answer"
    """Black and white for a guess (a person scoring the computer's guess by hand)."""
    CORRECTION = "correction"
    """A corrected answer, after the answers given contradict each other."""


@dataclass(frozen=True)
class Awaiting:
    """What a game waits for: a ``move`` from ``player`` (a computer moves when asked to)."""

    move: Move
    player: str
    computer: bool = False
    index: int | None = None
    """For :attr:`Move.CORRECTION`: the answer (0-based) most likely wrong."""


class GameStateError(RuntimeError):
    """An action the game's current state does not allow (a programming error, not a player's)."""


def require_keys(data: Any, what: str, keys: set[str]) -> dict[str, Any]:
    """``data`` as a dict with exactly ``keys``; ValueError naming ``what`` otherwise."""
    if not isinstance(data, dict) or set(data) != keys:
        raise ValueError(f"not a {what}: it needs exactly {', '.join(sorted(keys))}")
    return data
