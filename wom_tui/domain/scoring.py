"""Points for a World of Mastermind game (docs/play.md, *World of Mastermind*, step 4)."""

from __future__ import annotations

from dataclasses import dataclass

from .words import counted


def _check(allowed: int, used: int, broke: bool) -> None:
    if not 0 <= used <= allowed:
        raise ValueError(f"attempts used must be 0–{allowed}, not {used}")
    if broke and used == 0:
        raise ValueError("a broken code takes at least one attempt")


def breaking_points(allowed: int, used: int, broke: bool) -> int:
    """Points for breaking a code: attempts allowed − attempts used + 1, or 0 if not broken."""
    _check(allowed, used, broke)
    return allowed - used + 1 if broke else 0


def making_points(allowed: int, breaker_used: int, breaker_broke: bool) -> int:
    """Points for making a code: the breaker's attempts − 1 if they broke it, else attempts allowed."""
    _check(allowed, breaker_used, breaker_broke)
    return breaker_used - 1 if breaker_broke else allowed


@dataclass(frozen=True)
class Breakdown:
    """One user's points from a game: for breaking their code and for making the next player's."""

    name: str
    breaking: int
    making: int

    @property
    def total(self) -> int:
        """Breaking plus making."""
        return self.breaking + self.making

    @property
    def message(self) -> str:
        """The results line, e.g. ``"Alan receives 4 + 5 = 9 points."``."""
        return f"{self.name} receives {self.breaking} + {self.making} = {counted(self.total, 'point')}."


def breakdown(
    name: str, allowed: int, used: int, broke: bool, breaker_used: int, breaker_broke: bool
) -> Breakdown:
    """The breakdown for a user who used ``used`` attempts and whose code the next player attacked."""
    return Breakdown(
        name, breaking_points(allowed, used, broke), making_points(allowed, breaker_used, breaker_broke)
    )
