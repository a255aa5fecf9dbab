"""A game of World of Mastermind for 2–4 players, as a UI-free state machine (docs/play.md, *World of Mastermind*).

Status (:class:`~wom_tui.domain.game.Status`): ``MAKING`` (each player in turn sets the code the next
must break), ``GUESSING`` (round-robin over players still guessing), then ``FINISHED`` — or
``ABANDONED`` if left early. :attr:`WomGame.awaiting` says whose code or guess comes next;
:meth:`WomGame.move` plays it; :meth:`WomGame.as_json` / :meth:`WomGame.from_json` write and read the
game back at any step, so any process can drive it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, NamedTuple

from .board import DecodingBoard
from .codes import WOM_RULESET, Feedback, Ruleset
from .game import (
    Awaiting,
    GameKind,
    GameStateError,
    Move,
    Refusal,
    Status,
    require_keys,
)
from .players import GuestPlayer, HumanPlayer, Player, computer_player
from .records import GameRecord
from .users import UserRegistry, computer_name, name_key
from .wom_results import GameResults, board_outcome, game_record, game_results

MIN_PLAYERS, MAX_PLAYERS = 2, 4
MIN_ATTEMPTS, MAX_ATTEMPTS = 5, 10

MAKING, GUESSING, FINISHED, ABANDONED = Status.MAKING, Status.GUESSING, Status.FINISHED, Status.ABANDONED

Standing = Literal["waiting", "set", "playing", "broke", "failed"]
"""Where a player stands: while codes are made, ``waiting``/``set`` (their code); then their own board."""

GUEST_SEATS = ("Guest 1", "Guest 2", "Guest 3")
"""Seats for people who play without a registered name (and earn nothing); a user of that name comes first."""


class SetupError(Refusal):
    """A game that cannot be set up as asked; ``reason`` is shown to the player."""


def player_for_name(typed: str, registry: UserRegistry, already: Iterable[Player] = (), *,
                    within_five: bool = False) -> Player:
    """The player a typed name stands for: a computer player or a registered user (``within_five``: HAL9000
    plays its 5-guess book, never more than 5 guesses on 4 × 6; docs/play.md, *The computer players*).

    Raises SetupError "Invalid user name." for an unknown name and "Alan is already in the game."
    when that player is in ``already`` (names compared ignoring case).
    """
    name = typed.strip()
    if computer_name(name) is not None:
        player: Player = computer_player(name, within_five=within_five)
    elif name in GUEST_SEATS and registry.get(name) is None:
        player = GuestPlayer(name)
    else:
        user = registry.get(name) if name else None
        if user is None:
            raise SetupError("Invalid user name.")
        player = HumanPlayer(user.name)
    if any(name_key(p.name) == name_key(player.name) for p in already):
        raise SetupError(f"{player.name} is already in the game.")
    return player


def players_from_names(names: Iterable[str], registry: UserRegistry, *, within_five: bool = False) -> list[Player]:
    """Players for typed names, in order; SetupError at the first name that cannot play."""
    players: list[Player] = []
    for typed in names:
        players.append(player_for_name(typed, registry, players, within_five=within_five))
    return players


@dataclass(frozen=True)
class MadeCode:
    """A code set behind a board's shield.

    ``debug_code`` is the code only when a computer made it (shown as ``DEBUG: RGBY`` under
    ``--debug``); a person's code never leaves the board.
    """

    maker: Player
    breaker: Player
    message: str
    debug_code: str | None


@dataclass(frozen=True)
class TurnResult:
    """One guessing turn: who guessed what, the feedback, and the lines to announce."""

    player: Player
    guess: str
    feedback: Feedback
    attempt: int
    messages: tuple[str, ...]
    game_finished: bool
    revealed: str | None = None
    """The code of the board this turn ended without breaking it (nobody else is breaking it)."""


class PlayerStanding(NamedTuple):
    """One line of the players panel: who, whether they move next, attempts (``"2/10"``) and standing."""

    player: Player
    moving: bool
    attempts: str
    standing: Standing


class WomGame:
    """A World of Mastermind game: validates the setup, then runs code making, guessing and scoring."""

    def __init__(
        self,
        players: Sequence[Player],
        attempts: int,
        rng: random.Random,
        ruleset: Ruleset = WOM_RULESET,
        on_finish: Callable[[GameRecord], object] | None = None,
    ) -> None:
        players = tuple(players)
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise SetupError(f"A game needs {MIN_PLAYERS} to {MAX_PLAYERS} players.")
        seen: set[str] = set()
        for player in players:
            if name_key(player.name) in seen:
                raise SetupError(f"{player.name} is already in the game.")
            seen.add(name_key(player.name))
        if type(attempts) is not int or not MIN_ATTEMPTS <= attempts <= MAX_ATTEMPTS:
            raise SetupError(f"Attempts allowed must be between {MIN_ATTEMPTS} and {MAX_ATTEMPTS}.")
        self.__players = players
        self.__ruleset = ruleset.with_guesses(attempts)
        self.__rng = rng
        self.__on_finish = on_finish
        # The board at index i is the one player i breaks; player i-1 set its code.
        self.__boards = tuple(DecodingBoard(self.__ruleset) for _ in players)
        self.__phase = MAKING
        self.__turn = 0
        self.__record: GameRecord | None = None

    # -- the table ---------------------------------------------------------------------------

    @property
    def players(self) -> tuple[Player, ...]:
        """The players in seating order."""
        return self.__players

    @property
    def ruleset(self) -> Ruleset:
        """The rules of this game, with ``guesses`` = attempts allowed."""
        return self.__ruleset

    @property
    def attempts(self) -> int:
        """Attempts allowed to each player."""
        return self.__ruleset.guesses

    @property
    def status(self) -> Status:
        """``MAKING``, ``GUESSING``, ``FINISHED`` or ``ABANDONED``."""
        return self.__phase

    phase = status

    @property
    def awaiting(self) -> Awaiting | None:
        """Whose code or guess the game waits for (None once finished or abandoned)."""
        if self.__phase not in (MAKING, GUESSING):
            return None
        player = self.__players[self.__turn]
        return Awaiting(Move.CODE if self.__phase == MAKING else Move.GUESS, player.name, player.is_computer)

    @property
    def mover(self) -> Player | None:
        """The player whose code or guess comes next, or None once the game is over."""
        return self.__players[self.__turn] if self.__phase in (MAKING, GUESSING) else None

    def move(self, typed: str | None = None) -> MadeCode | TurnResult:
        """Play what the game waits for: the mover's code or guess (a person's is ``typed``).

        InvalidCode (a :class:`~wom_tui.domain.game.Refusal`) changes nothing.
        """
        if self.__phase == MAKING:
            return self.make_code(typed)
        return self.play_turn(typed)

    def standings(self, mover: Player | None = None) -> tuple[PlayerStanding, ...]:
        """Every player's line for the players panel, marking ``mover`` (default: whoever moves next)."""
        mover = mover or self.mover
        rows = []
        for player in self.__players:
            if self.__phase == MAKING:
                made = self.board_of(self.breaker_for(player)).is_set
                rows.append(PlayerStanding(player, player is mover, "", "set" if made else "waiting"))
                continue
            board = self.board_of(player)
            standing: Standing = "broke" if board.solved else "failed" if board.out_of_attempts else "playing"
            rows.append(
                PlayerStanding(player, player is mover, f"{board.attempts_used}/{board.attempts_allowed}", standing)
            )
        return tuple(rows)

    def _index(self, player: Player) -> int:
        # By name (unique in a game), so a player object from before the game was read back still counts.
        for i, p in enumerate(self.__players):
            if p is player or name_key(p.name) == name_key(player.name):
                return i
        raise ValueError(f"{player!r} is not in this game")

    def board_of(self, player: Player) -> DecodingBoard:
        """The board ``player`` breaks."""
        return self.__boards[self._index(player)]

    def breaker_for(self, player: Player) -> Player:
        """The player who must break the code ``player`` makes (the next one; the last's is the first)."""
        return self.__players[(self._index(player) + 1) % len(self.__players)]

    def maker_for(self, player: Player) -> Player:
        """The player who makes the code ``player`` must break."""
        return self.__players[self._index(player) - 1]

    def _require(self, phase: str) -> None:
        if self.__phase != phase:
            raise GameStateError(f"The game is {self.__phase}, not {phase}.")

    # -- code making -------------------------------------------------------------------------

    @property
    def maker(self) -> Player:
        """Whose turn it is to set a code (making phase only)."""
        self._require(MAKING)
        return self.__players[self.__turn]

    @property
    def maker_prompt(self) -> str:
        """The prompt for the maker, as in ``"Alan's turn to set the code for HAL9000 to break."``."""
        maker = self.maker
        return f"{maker.name}'s turn to set the code for {self.breaker_for(maker).name} to break."

    def make_code(self, typed: str | None = None) -> MadeCode:
        """The current maker sets their code (a person's is ``typed``); InvalidCode changes nothing."""
        maker = self.maker
        breaker = self.breaker_for(maker)
        code = maker.make_code(self.__ruleset, self.__rng, typed)
        self.board_of(breaker).set_secret(code)
        self.__turn += 1
        if self.__turn == len(self.__players):
            self.__phase, self.__turn = GUESSING, 0
        return MadeCode(
            maker, breaker, f"The code is now set for {breaker.name} to break.",
            code if maker.is_computer else None,
        )

    # -- guessing ----------------------------------------------------------------------------

    @property
    def current(self) -> Player:
        """Whose turn it is to guess (guessing phase only)."""
        self._require(GUESSING)
        return self.__players[self.__turn]

    def play_turn(self, typed: str | None = None) -> TurnResult:
        """The current player guesses (a person's guess is ``typed``); InvalidCode costs nothing.

        When this turn ends the game, ``on_finish`` receives the record (once).
        """
        player = self.current
        board = self.__boards[self.__turn]
        guess = player.make_guess(self.__ruleset, board.history, self.__rng, typed)
        result = board.guess(guess)
        outcome = board_outcome(player.name, board)
        self._advance()
        turn = TurnResult(
            player, board.history[-1].guess, result, board.attempts_used, (outcome,) if outcome else (),
            self.__phase == FINISHED, board.reveal() if board.out_of_attempts else None,
        )
        if self.__phase == FINISHED:
            self._finish()
        return turn

    def _advance(self) -> None:
        count = len(self.__players)
        for step in range(1, count + 1):
            index = (self.__turn + step) % count
            if not self.__boards[index].finished:
                self.__turn = index
                return
        self.__phase = FINISHED

    def _finish(self) -> None:
        self.__record = self._build_record()
        if self.__on_finish is not None:
            self.__on_finish(self.__record)

    # -- results -----------------------------------------------------------------------------

    def results(self) -> GameResults:
        """Each player's outcome and points (finished phase only); only users earn points."""
        self._require(FINISHED)
        return game_results(self.attempts, self.__players, self.__boards, [p.is_user for p in self.__players])

    def record(self) -> GameRecord:
        """The finished game's record, the same object ``on_finish`` received."""
        self._require(FINISHED)
        assert self.__record is not None
        return self.__record

    def _build_record(self) -> GameRecord:
        return game_record(self.__ruleset, self.results(), self.__boards, [p.is_user for p in self.__players],
                           table_id=None)

    def abandon(self) -> None:
        """Leave the game before it ends: nobody gets anything and ``on_finish`` is never called."""
        if self.__phase == FINISHED:
            raise GameStateError("The game is already finished.")
        self.__phase = ABANDONED

    # -- writing and reading back -------------------------------------------------------------

    def as_json(self) -> dict[str, Any]:
        """The whole game as plain JSON data, at any step (codes included: the game holds them)."""
        return {
            "kind": GameKind.WOM.value,
            "players": [{"name": p.name, "computer": p.is_computer} for p in self.__players],
            "ruleset": self.__ruleset.as_json(),
            "boards": [board.as_json() for board in self.__boards],
            "status": self.__phase.value,
            "turn": self.__turn,
            "finished_at": self.__record.finished_at if self.__record is not None else None,
        }

    @classmethod
    def from_json(
        cls, data: Any, rng: random.Random, on_finish: Callable[[GameRecord], object] | None = None
    ) -> WomGame:
        """Rebuild a game from :meth:`as_json` data; ValueError if it is not one.

        ``on_finish`` is called when a move played from here on ends the game.
        """
        data = require_keys(data, "World of Mastermind game", {"kind", "players", "ruleset", "boards", "status", "turn", "finished_at"})
        if data["kind"] != GameKind.WOM.value or not isinstance(data["players"], list):
            raise ValueError("not a World of Mastermind game")
        players: list[Player] = []
        for entry in data["players"]:
            entry = require_keys(entry, "player", {"name", "computer"})
            if not isinstance(entry["name"], str) or type(entry["computer"]) is not bool:
                raise ValueError("not a player: wrong types")
            players.append(computer_player(entry["name"]) if entry["computer"] else HumanPlayer(entry["name"]))
        ruleset = Ruleset.from_json(data["ruleset"])
        try:
            game = cls(players, ruleset.guesses, rng, ruleset, on_finish=on_finish)
        except SetupError as refusal:
            raise ValueError(refusal.reason) from None
        boards = data["boards"]
        if not isinstance(boards, list) or len(boards) != len(players):
            raise ValueError("not a World of Mastermind game: one board per player")
        game.__boards = tuple(DecodingBoard.from_json(game.__ruleset, b) for b in boards)
        try:
            game.__phase = Status(data["status"])
        except ValueError:
            raise ValueError("not a World of Mastermind game: unknown status") from None
        turn = data["turn"]
        if type(turn) is not int or not 0 <= turn < len(players):
            raise ValueError("not a World of Mastermind game: bad turn")
        game.__turn = turn
        if game.__phase == FINISHED:
            finished_at = data["finished_at"]
            if not isinstance(finished_at, str):
                raise ValueError("not a World of Mastermind game: a finished game needs its time")
            record = game._build_record()
            game.__record = replace(record, finished_at=finished_at)
        return game


def hot_seat_sees(viewer: str | None, author: str | None, *, people: int, over: bool) -> bool:
    """Whether ``viewer`` may read a message about ``author``'s move at one keyboard (docs/play.md, *World of
    Mastermind*): with two people or more, a person's guesses, feedback and what they earned are theirs
    alone until the game is over; codes set, the computers' moves and codes revealed (``author`` None)
    are everyone's. With one person at the keyboard everything is theirs.
    """
    return people < 2 or over or author is None or author == viewer


__all__ = [
    "ABANDONED",
    "FINISHED",
    "GUESSING",
    "MAKING",
    "MadeCode",
    "PlayerStanding",
    "SetupError",
    "TurnResult",
    "WomGame",
    "hot_seat_sees",
    "player_for_name",
    "players_from_names",
]
