"""How a game of World of Mastermind ends: each player's outcome, their points and the record to keep.

The one results engine of both ways to play it: the hot-seat game (:class:`~wom_tui.domain.wom.WomGame`)
and the live table (:class:`~wom_tui.domain.table.Table`). Both seat players in a ring: board ``i`` is
the one player ``i`` breaks, and player ``i`` set the code of board ``i + 1`` (the last player's code is
the first's board). Points follow :mod:`.scoring` (docs/play.md, *World of Mastermind*).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from .board import Attempt
from .codes import Ruleset
from .game import GameKind
from .players import Player
from .records import GameRecord, PlayerRecord
from .scoring import Breakdown, breakdown
from .table_boards import VariantBoard
from .variants import Variant
from .words import counted


class Board(Protocol):
    """What the results read of a board: a classic :class:`.board.DecodingBoard` or a variant table's."""

    @property
    def attempts_used(self) -> int:
        """Guesses played."""

    @property
    def solved(self) -> bool:
        """Broken."""

    @property
    def history(self) -> tuple[Attempt, ...]:
        """The rows kept in the record."""

    @property
    def out_of_attempts(self) -> bool:
        """Every attempt used, not broken."""

    def code_for_record(self) -> str | None:
        """The code kept in the record."""


@dataclass(frozen=True)
class PlayerResult:
    """How one player fared; ``points`` is None for a player who earns nothing (a computer, a guest)."""

    player: Player
    broke: bool
    attempts_used: int
    points: Breakdown | None

    @property
    def breaking(self) -> int:
        """Points for breaking their own code (0 for one who earns nothing)."""
        return self.points.breaking if self.points else 0

    @property
    def making(self) -> int:
        """Points for the code they made (0 for one who earns nothing)."""
        return self.points.making if self.points else 0

    @property
    def total(self) -> int:
        """All points from this game (0 for one who earns nothing)."""
        return self.points.total if self.points else 0

    @property
    def message(self) -> str | None:
        """``"Alan receives 4 + 5 = 9 points."`` for one who earns, else None."""
        return self.points.message if self.points else None


@dataclass(frozen=True)
class GameResults:
    """The end of a game: one result per player, in seating order, and the lines to announce."""

    players: tuple[PlayerResult, ...]

    @property
    def messages(self) -> tuple[str, ...]:
        """``"The game is now finished."`` then one points line per player who earns."""
        return ("The game is now finished.",) + tuple(r.message for r in self.players if r.message)


def board_outcome(name: str, board: Board, what: str = "the code") -> str | None:
    """The line announcing that ``name`` broke their code (``what``: "all four codes" in Quad) or failed to,
    once their board is done; else None.
    """
    if board.solved:
        return f"{name} broke {what} in {counted(board.attempts_used, 'attempt')}!"
    if board.out_of_attempts:
        return f"{name} failed to break {what}."
    return None


def game_results(
    attempts: int, players: Sequence[Player], boards: Sequence[Board], earns: Sequence[bool], *,
    makers: bool = True,
) -> GameResults:
    """Each player's outcome and, for those who ``earns``, their points, in seating order.

    A player's making points come from how the next player fared on the code they made; a board whose
    breaker left counts as not broken, so its maker earns as if it failed. ``makers`` False: nobody made a
    code (Devious at a table), so nobody earns making points.
    """
    rows = []
    for index, (player, board) in enumerate(zip(players, boards, strict=True)):
        points = None
        if earns[index]:
            breaker = boards[(index + 1) % len(boards)]
            points = breakdown(
                player.name, attempts, board.attempts_used, board.solved, breaker.attempts_used, breaker.solved
            )
            if not makers:
                points = Breakdown(points.name, points.breaking, 0)
        rows.append(PlayerResult(player, board.solved, board.attempts_used, points))
    return GameResults(tuple(rows))


def game_record(
    ruleset: Ruleset, results: GameResults, boards: Sequence[Board], users: Sequence[bool], *,
    table_id: str | None, rated: bool = True, arena: str | None = None, variant: Variant = Variant.CLASSIC,
) -> GameRecord:
    """The finished game as a record for the store; a player not among ``users`` is kept without points,
    each with the code on their board, broken or not (a replay shows it).

    ``table_id``: the live table it was played at, or None for a hot-seat game (the ratings tell them apart);
    ``arena``: the Code Arena that paired the table, if one did; ``variant``: the variant played (a variant's
    board keeps what its replay shows: Quad's four codes, Liar's lying row, Devious's fitted code).
    """
    return GameRecord(GameKind.WOM, ruleset, tuple(
        PlayerRecord(
            row.player.name, is_user, row.broke, row.attempts_used,
            board.record_history if isinstance(board, VariantBoard) else board.history,
            row.breaking if is_user else 0, row.making if is_user else 0, secret=board.code_for_record(),
            codes=board.codes if isinstance(board, VariantBoard) and variant is Variant.QUAD else (),
            lied=board.lied_row if isinstance(board, VariantBoard) else None,
        )
        for row, board, is_user in zip(results.players, boards, users, strict=True)
    ), hot_seat=table_id is None, table_id=table_id, rated=rated, arena=arena, variant=variant)


__all__ = ["Board", "GameResults", "PlayerResult", "board_outcome", "game_record", "game_results"]
