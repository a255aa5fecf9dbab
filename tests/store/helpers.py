"""Shared builders for the store tests."""

from __future__ import annotations

from pathlib import Path

from wom_tui.domain.codes import WOM_RULESET, Feedback
from wom_tui.domain.records import GameRecord, PlayerRecord

RULESET5 = WOM_RULESET.with_guesses(5)


def wom_game(*users: str, points: int = 1) -> GameRecord:
    """A finished WoM game where each named user scores ``points`` (as breaking) against HAL9000."""
    players = [
        PlayerRecord(name, True, True, 1, (("RGBY", Feedback(4, 0)),), points, 0) for name in users
    ]
    players.append(PlayerRecord("HAL9000", False, False, 5, (("RRRR", Feedback(0, 0)),) * 5, 0, 0))
    return GameRecord("wom", RULESET5, tuple(players))


def seed_transcript_game() -> GameRecord:
    """Seed 004's example: Alan breaks on attempt 2 (4 points) and HAL9000 fails on his code (5)."""
    return GameRecord("wom", RULESET5, (
        PlayerRecord("Alan", True, True, 2, (("RGBY", Feedback(1, 2)), ("RGYB", Feedback(4, 0))), 4, 5),
        PlayerRecord("HAL9000", False, False, 5, (("KKKK", Feedback(0, 0)),) * 5, 0, 0),
    ))


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (but the lock) with its bytes, to prove nothing changed."""
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*")) if p.is_file() and p.name != ".lock"
    }
