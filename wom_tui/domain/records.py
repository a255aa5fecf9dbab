"""Records of finished games, kept for the scoreboard and later statistics (docs/play.md, *Where your data lives*)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Annotated, Any

import msgspec

from .board import LIFELINE, Attempt
from .clues import Clue
from .codes import Feedback, Ruleset
from .game import GameKind
from .shapes import Count, shaped
from .variants import QUAD_BOARDS, Variant


def utc_now() -> str:
    """The current time as an ISO-8601 UTC string to the second."""
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


@dataclass(frozen=True)
class PlayerRecord:
    """How one player fared in a finished game.

    ``guesses`` holds (guess, feedback) pairs in order; for solo games a lifeline
    appears as the guess ``"LIFELINE"`` with feedback (0, 0), and ``clues`` says what each
    lifeline revealed (the index of its first row, the clue). ``is_user`` is False
    for computer players and guests, who get no points. ``secret`` is the code the player had to break
    (a World of Mastermind game's, made by the player before them), broken or not; None where it was not
    kept (other kinds, and records kept before it was).
    """

    name: str
    is_user: bool
    broke: bool
    attempts: int
    guesses: tuple[Attempt, ...] = ()
    breaking: int = 0
    making: int = 0
    clues: tuple[tuple[int, Clue], ...] = ()
    secret: str | None = None
    codes: tuple[str, ...] = ()
    """Quad: the four codes, in board order (written only then)."""
    lied: int | None = None
    """Liar: the row (0-based) whose answer lied (written only when one did)."""

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
        """The record as plain JSON data (``clues`` only when a lifeline was used, ``secret`` when kept)."""
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
        if self.secret is not None:
            data["secret"] = self.secret
        if self.codes:
            data["codes"] = list(self.codes)
        if self.lied is not None:
            data["lied"] = self.lied
        return data

    @classmethod
    def from_json(cls, data: Any) -> PlayerRecord:
        """Rebuild from :meth:`as_json` data; ``ValueError`` if it is not one (types are not coerced)."""
        return cls._from_shape(shaped(data, _PlayerShape))

    @classmethod
    def _from_shape(cls, player: _PlayerShape) -> PlayerRecord:
        if not all(row < len(player.guesses) and player.guesses[row][0] == LIFELINE for row, _, _ in player.clues):
            raise ValueError("not a player record: a clue must be [lifeline row, symbol, position]")
        if player.lied is not None and player.lied >= len(player.guesses):
            raise ValueError("not a player record: 'lied' must be the row of one of its guesses")
        return cls(
            player.name, player.is_user, player.broke, player.attempts,
            tuple(Attempt(g, Feedback(b, w)) for g, b, w in player.guesses), player.breaking, player.making,
            tuple((row, Clue(symbol, position)) for row, symbol, position in player.clues), player.secret,
            tuple(player.codes), player.lied,
        )


# The fields a record needs in alphabetical order: msgspec names the first one missing, as the store always did.
class _PlayerShape(msgspec.Struct, forbid_unknown_fields=True):
    attempts: Count
    breaking: Count
    broke: bool
    guesses: list[tuple[str, Count, Count]]
    is_user: bool
    making: Count
    name: str
    clues: list[tuple[Count, Annotated[str, msgspec.Meta(min_length=1, max_length=1)], Count | None]] = []
    """Only when a lifeline was used (and kept since replays say what it revealed)."""
    secret: Annotated[str, msgspec.Meta(min_length=1)] | None = None
    """The code the player had to break (World of Mastermind records since replays show it)."""
    codes: Annotated[list[Annotated[str, msgspec.Meta(min_length=1)]],
                     msgspec.Meta(min_length=QUAD_BOARDS, max_length=QUAD_BOARDS)] = []
    """Quad's four codes."""
    lied: Count | None = None
    """Liar's lying row."""


class _GameShape(msgspec.Struct, forbid_unknown_fields=True):
    finished_at: str
    kind: GameKind
    players: Annotated[list[_PlayerShape], msgspec.Meta(min_length=1, max_length=4)]
    ruleset: Any  # Ruleset.from_json
    hot_seat: bool | None = None
    table_id: str | None = None
    rated: bool = True
    arena: Annotated[str, msgspec.Meta(min_length=1)] | None = None
    variant: Variant = Variant.CLASSIC


_GAME_MESSAGES = {
    "players": "a game has 1 to 4 players",
    "players[]": "player #{n}: {reason}",
    "players[].guesses[]": "player #{n}: a guess must be [code, black, white]",
    "players[].clues[]": "player #{n}: a clue must be [lifeline row, symbol, position]",
}


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
    rated: bool = True
    """False: a game the ratings leave out whoever played it (a quick match of one network's players,
    docs/arcade.md, *Fair ratings*); written only when False."""
    arena: str | None = None
    """The Code Arena the game was played in (its id), for a live table the arena paired; written only then
    (older records, and every other game, have none)."""
    variant: Variant = Variant.CLASSIC
    """The variant played (docs/play.md, *Variants*); written only when not classic (older records read as
    classic)."""

    def __post_init__(self) -> None:
        if self.hot_seat is not None and type(self.hot_seat) is not bool:
            raise ValueError("hot_seat must be true, false or absent")
        if self.table_id is not None and (not isinstance(self.table_id, str) or not self.table_id
                                          or self.hot_seat is not False):
            raise ValueError("only a live table's record names its table")
        if self.arena is not None and (not isinstance(self.arena, str) or not self.arena or self.table_id is None):
            raise ValueError("only a live table's record names its arena")
        if not isinstance(self.variant, Variant):
            raise ValueError("variant must be one of the variants")
        if any(p.codes for p in self.players) and self.variant is not Variant.QUAD:
            raise ValueError("only a Quad game's record keeps four codes")
        if any(p.lied is not None for p in self.players) and self.variant is not Variant.LIAR:
            raise ValueError("only a Liar game's record names a lying row")

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
            **({} if self.rated else {"rated": False}),
            **({} if self.arena is None else {"arena": self.arena}),
            **({} if self.variant is Variant.CLASSIC else {"variant": self.variant.as_json()}),
        }

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Rebuild from :meth:`as_json` data; ``ValueError`` if it is not one (types are not coerced)."""
        game = shaped(data, _GameShape, _GAME_MESSAGES, what="a game")
        return cls(game.kind, Ruleset.from_json(game.ruleset), tuple(map(PlayerRecord._from_shape, game.players)),
                   game.finished_at, game.hot_seat, game.table_id, game.rated, game.arena,
                   game.variant)
