"""Records of finished games, kept for the scoreboard and later statistics (docs/play.md, *Where your data lives*)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from .board import LIFELINE, Attempt
from .clues import Clue
from .codes import Feedback, Ruleset
from .game import GameKind


def utc_now() -> str:
    """The current time as an ISO-8601 UTC string to the second."""
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


@dataclass(frozen=True)
class PlayerRecord:
    """How one player fared in a finished game.

    ``guesses`` holds (guess, feedback) pairs in order; for solo games a lifeline
    appears as the guess ``"LIFELINE"`` with feedback (0, 0), and ``clues`` says what each
    lifeline revealed (the index of its first row, the clue). ``is_user`` is False
    for computer players and guests, who get no points.
    """

    name: str
    is_user: bool
    broke: bool
    attempts: int
    guesses: tuple[Attempt, ...] = ()
    breaking: int = 0
    making: int = 0
    clues: tuple[tuple[int, Clue], ...] = ()

    def clue_at(self, row: int) -> Clue | None:
        """What the lifeline whose first row is ``row`` (0-based) revealed, if known."""
        return next((clue for index, clue in self.clues if index == row), None)

    def clues_before(self, rows: int) -> tuple[Clue, ...]:
        """The clues the player had after the first ``rows`` rows."""
        return tuple(clue for index, clue in self.clues if index < rows)

    @property
    def points(self) -> int:
        """Breaking plus making points."""
        return self.breaking + self.making

    def as_json(self) -> dict[str, Any]:
        """The record as plain JSON data (``clues`` only when a lifeline was used)."""
        data: dict[str, Any] = {
            "name": self.name,
            "is_user": self.is_user,
            "broke": self.broke,
            "attempts": self.attempts,
            "guesses": [[g, fb.black, fb.white] for g, fb in self.guesses],
            "breaking": self.breaking,
            "making": self.making,
        }
        if self.clues:
            data["clues"] = [[index, *clue.as_json()] for index, clue in self.clues]
        return data

    @classmethod
    def from_json(cls, data: Any) -> PlayerRecord:
        """Rebuild from :meth:`as_json` data; ``ValueError`` if it is not one (types are not coerced)."""
        keys = {"name", "is_user", "broke", "attempts", "guesses", "breaking", "making"}
        if isinstance(data, dict) and "clues" in data:
            keys.add("clues")  # only when a lifeline was used (and kept since replays say what it revealed)
        if not isinstance(data, dict) or set(data) != keys:
            raise ValueError(f"not a player record: it needs exactly {', '.join(sorted(keys))}")
        if not isinstance(data["name"], str) or type(data["is_user"]) is not bool or type(data["broke"]) is not bool:
            raise ValueError("not a player record: wrong types")
        for key in ("attempts", "breaking", "making"):
            if not _is_count(data[key]):
                raise ValueError(f"not a player record: {key} must be a whole number of at least 0")
        guesses = data["guesses"]
        if not isinstance(guesses, list) or not all(
            isinstance(row, list) and len(row) == 3 and isinstance(row[0], str) and _is_count(row[1]) and _is_count(row[2])
            for row in guesses
        ):
            raise ValueError("not a player record: guesses must be [guess, black, white] rows")
        clues = data.get("clues", [])
        if not isinstance(clues, list) or not all(
            isinstance(row, list) and len(row) == 3 and _is_count(row[0]) and row[0] < len(guesses)
            and guesses[row[0]][0] == LIFELINE for row in clues
        ):
            raise ValueError("not a player record: clues must be [lifeline row, symbol, position] rows")
        return cls(
            data["name"], data["is_user"], data["broke"], data["attempts"],
            tuple(Attempt(g, Feedback(b, w)) for g, b, w in guesses), data["breaking"], data["making"],
            tuple((row[0], Clue.from_json(row[1:])) for row in clues),
        )


def _is_count(value: Any) -> bool:
    return type(value) is int and value >= 0


GAME_KINDS = tuple(kind.value for kind in GameKind)
"""Every kind of game a record can hold, as the store writes it."""


@dataclass(frozen=True)
class GameRecord:
    """A finished game: its kind, ruleset, players and when it ended.

    Kinds (:class:`~wom_tui.domain.game.GameKind`): World of Mastermind, solo (a person breaks the
    computer's code), the computer breaks your code (HAL9000's guesses, then the person as the
    code's owner, with no guesses) and daily (a person breaks the daily code: a solo game on the
    day's rules, see ``daily.py``).

    A World of Mastermind record says where it was played: ``hot_seat`` True for players taking turns
    at one terminal, False for a live table (``table_id`` names it). A record kept before this was
    written says neither (``hot_seat`` None); the ratings read it as they always did
    (docs/play.md, *Ratings*).
    """

    kind: GameKind
    ruleset: Ruleset
    players: tuple[PlayerRecord, ...]
    finished_at: str = field(default_factory=utc_now)
    hot_seat: bool | None = None
    """True: a hot-seat game; False: a live table; None: not known (an older record, another kind)."""
    table_id: str | None = None
    """The live table the game was played at (only when ``hot_seat`` is False)."""

    def __post_init__(self) -> None:
        if self.hot_seat is not None and type(self.hot_seat) is not bool:
            raise ValueError("hot_seat must be true, false or absent")
        if self.table_id is not None and (not isinstance(self.table_id, str) or not self.table_id
                                          or self.hot_seat is not False):
            raise ValueError("only a live table's record names its table")

    def points(self) -> dict[str, int]:
        """Points per registered user in the game (computers and guests are left out)."""
        return {p.name: p.points for p in self.players if p.is_user}

    def as_json(self) -> dict[str, Any]:
        """The record as plain JSON data."""
        return {
            "kind": GameKind(self.kind).value,
            "ruleset": self.ruleset.as_json(),
            "players": [p.as_json() for p in self.players],
            "finished_at": self.finished_at,
            **({} if self.hot_seat is None else {"hot_seat": self.hot_seat}),
            **({} if self.table_id is None else {"table_id": self.table_id}),
        }

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Rebuild from :meth:`as_json` data; ``ValueError`` if it is not one."""
        if not isinstance(data, dict) or data.get("kind") not in GAME_KINDS:
            raise ValueError("not a game record")
        players = data.get("players")
        if not isinstance(players, list) or not isinstance(data.get("finished_at"), str):
            raise ValueError("not a game record")
        hot_seat, table_id = data.get("hot_seat"), data.get("table_id")
        if (hot_seat is not None and type(hot_seat) is not bool) or (table_id is not None and not isinstance(table_id, str)):
            raise ValueError("not a game record: hot_seat is true or false, table_id text")
        return cls(
            GameKind(data["kind"]), Ruleset.from_json(data.get("ruleset")),
            tuple(PlayerRecord.from_json(p) for p in players), data["finished_at"], hot_seat, table_id,
        )
