"""Solo games: one person breaks a computer's code, with lifelines, a hint mask, the coach and the hall of fame.

docs/play.md, *Solo: break the computer's code*.

:class:`SoloGame` is a UI-free state machine: ``status`` and ``awaiting`` say where it stands, a guess
or a lifeline returns what happened, and :meth:`SoloGame.as_json` / :meth:`SoloGame.from_json` write
and read it back at any point.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

import msgspec

from .board import LIFELINE, Attempt, DecodingBoard
from .clues import Clue, Clues
from .codes import DIGITS10, MAX_GUESSES, MIN_GUESSES, Feedback, InvalidCode, Palette, Ruleset
from .notes import Notes
from .game import Awaiting, GameKind, GameStateError, Move, Status
from .halloffame import HallEntry, HallOfFame
from .commands import command_hint
from .records import GameRecord, PlayerRecord
from .shapes import Count, shaped
from .wom import SetupError
from .words import counted, plural

MIN_SOLO_LENGTH, MAX_SOLO_LENGTH = 4, 8
GUEST = "Guest"
"""The name a guest plays under."""
MessageKind = Literal["info", "warning", "computer"]
"""What a line of a game's transcript is: a guess's answer, a lifeline's clue, the coach's note."""
LIFELINE_COSTS = {1: 1, 2: 2}
"""Guesses each lifeline costs: #1 reveals a symbol, #2 reveals a symbol at its position."""

NO_GUESS_LEFT = "You cannot use this lifeline on this guess since you don't have any guess left."
ONE_USED = "You already used up your lifeline earlier; you can only use one per game."
LIFELINES_OFF = "Lifelines are off in this game."
GAME_OVER = "The game is over."
NOTHING_NEW_SYMBOL = "Every symbol in the code is already known; that lifeline would tell you nothing new."
NOTHING_NEW_POSITION = "Every position is already revealed; that lifeline would tell you nothing new."


class LifelinePolicy(enum.Enum):
    """How many lifelines a solo game allows."""

    NONE = "none"
    ONE_PER_GAME = "one"
    EACH_ONCE = "each"

    @property
    def label(self) -> str:
        """A short description for a setup screen."""
        return {"none": "None", "one": "One per game", "each": "Each once"}[self.value]


@dataclass(frozen=True)
class LifelineResult:
    """What a lifeline request gave: ``ok`` False means refused (and nothing was spent)."""

    ok: bool
    message: str
    cost: int = 0


def guesses_word(n: int) -> str:
    """``"1 guess"``, ``"3 guesses"``."""
    return counted(n, "guess")


def count_text(count: tuple[int, bool]) -> str:
    """How many codes remain: ``"1,896"`` when exact, ``"about 13,217,737"`` otherwise."""
    n, exact = count
    return f"{n:,}" if exact else f"about {n:,}"


def codes_remain(count: tuple[int, bool]) -> str:
    """A sentence: ``"76 codes remain possible."`` / ``"1 code remains possible."``."""
    n, exact = count
    if exact and n == 1:
        return "1 code remains possible."
    return f"{count_text(count)} {plural(n if exact else 2, 'code')} remain possible."


def coach_verdict(ruleset: Ruleset, guess: str, before: Sequence[tuple[str, Feedback]],
                  after: Sequence[tuple[str, Feedback]], clues: Clues = ()) -> str:
    """The coach's line on ``guess``: could it have been the code given ``before``, and what remains after.

    ``clues`` are the lifelines' clues the player had when guessing: they count as much as the answers.
    Read-only and possibly slow on a big ruleset: a screen runs it in a worker.
    """
    from .strategies import count_consistent, is_consistent

    could = is_consistent(guess, before, clues)
    count = count_consistent(ruleset, tuple(after), clues)
    verdict = "could have been the code" if could else "could not have been the code, given the answers before it"
    return f"Coach: {guess} {verdict}. {codes_remain(count)}"


@dataclass(frozen=True)
class SoloSetup:
    """The options of a solo game; ``length=None`` picks 4–8 at random for each game."""

    length: int | None = 4
    palette: Palette = DIGITS10
    repeats: bool = True
    guesses: int = 10
    lifelines: LifelinePolicy = LifelinePolicy.ONE_PER_GAME

    def __post_init__(self) -> None:
        if self.length is not None and (
            type(self.length) is not int or not MIN_SOLO_LENGTH <= self.length <= MAX_SOLO_LENGTH
        ):
            raise SetupError(f"The code length must be {MIN_SOLO_LENGTH} to {MAX_SOLO_LENGTH}, or random.")
        if type(self.guesses) is not int or not MIN_GUESSES <= self.guesses <= MAX_GUESSES:
            raise SetupError(f"Guesses allowed must be {MIN_GUESSES} to {MAX_GUESSES}.")
        if not self.repeats and self.max_length < (self.length or MIN_SOLO_LENGTH):
            raise SetupError(
                f"Without repeats a code can be at most {len(self.palette)} long with {len(self.palette)} symbols."
            )
        if not isinstance(self.lifelines, LifelinePolicy):
            raise SetupError("Unknown lifeline policy.")

    @property
    def max_length(self) -> int:
        """The longest code these options allow (no repeats: at most the palette's size)."""
        return MAX_SOLO_LENGTH if self.repeats else min(MAX_SOLO_LENGTH, len(self.palette))

    def ruleset_for(self, length: int) -> Ruleset:
        """The ruleset of a game with this code length."""
        return Ruleset(length, self.palette, self.repeats, self.guesses)

    def pick_ruleset(self, rng: random.Random) -> Ruleset:
        """The ruleset of the next game: a "random" length is drawn from ``rng`` (4 up to :attr:`max_length`)."""
        length = self.length if self.length is not None else rng.randint(MIN_SOLO_LENGTH, self.max_length)
        return self.ruleset_for(length)

    def new_game(self, rng: random.Random, player: str = GUEST, is_user: bool = False) -> SoloGame:
        """A fresh game for ``player``: the length (if random) and the secret both come from ``rng``."""
        ruleset = self.pick_ruleset(rng)
        return SoloGame(ruleset, ruleset.random_code(rng), rng, self.lifelines, player=player, is_user=is_user)


class SoloGame:
    """One solo game on a :class:`DecodingBoard`: guesses and lifelines both spend the guesses allowed.

    A lifeline fills rows of the board's history as :data:`LIFELINE` with feedback (0, 0).
    """

    def __init__(
        self,
        ruleset: Ruleset,
        secret: str,
        rng: random.Random,
        lifelines: LifelinePolicy = LifelinePolicy.ONE_PER_GAME,
        *,
        player: str = GUEST,
        is_user: bool = False,
    ) -> None:
        self.__ruleset = ruleset
        self.__secret = ruleset.parse(secret, what="Code", secret=True)
        self.__board = DecodingBoard(ruleset)
        """Holds the code and scores the guesses (lifeline rows are the game's own)."""
        self.__board.set_secret(self.__secret)
        self.__rows: list[Attempt] = []
        self.__rng = rng
        self.__policy = lifelines
        self.__used_lifelines: list[int] = []
        self.__symbols: list[str] = []
        self.__positions: dict[int, str] = {}
        self.__abandoned = False
        self.player = player
        """The name shown and recorded (a registered user's, or ``"Guest"``)."""
        self.is_user = is_user
        """True for a registered user."""
        self.coach = False
        """True when the player chose the coach: kept with the game, so a resumed game has it too."""
        self.coach_notes: dict[int, str] = {}
        """What the coach said after the guess of each row (counted from 1): kept with the game, so a
        resumed game shows them again."""
        self.notes = Notes.empty(ruleset)
        """The player's own notes (docs/play.md, *Notes*): kept with the game, never read by it."""

    # -- state -------------------------------------------------------------------------------

    @property
    def ruleset(self) -> Ruleset:
        """The rules of this game (length, palette, repeats, guesses allowed)."""
        return self.__ruleset

    @property
    def lifeline_policy(self) -> LifelinePolicy:
        """How many lifelines this game allows."""
        return self.__policy

    @property
    def guesses_used(self) -> int:
        """Guesses spent so far, lifeline costs included."""
        return len(self.__rows)

    @property
    def guesses_left(self) -> int:
        """Guesses still allowed."""
        return self.__ruleset.guesses - len(self.__rows)

    @property
    def guess_number(self) -> int:
        """The number of the next guess, as in "Guess #3 of 10" (the last guess's once over)."""
        return min(self.guesses_used + 1, self.__ruleset.guesses)

    @property
    def history(self) -> tuple[Attempt, ...]:
        """Every row so far; a lifeline of cost 2 fills two ``LIFELINE`` rows."""
        return tuple(self.__rows)

    @property
    def guesses(self) -> tuple[Attempt, ...]:
        """The rows that were real guesses (lifeline rows left out)."""
        return tuple(row for row in self.__rows if not row.is_lifeline)

    @property
    def hint_mask(self) -> str:
        """The code as far as lifelines revealed positions, e.g. ``"**8*"``."""
        return "".join(self.__positions.get(i, "*") for i in range(self.__ruleset.length))

    @property
    def clues(self) -> Clues:
        """What the lifelines told the player, in the order told."""
        return tuple(clue for _, clue in self.clue_rows())

    def clue_rows(self) -> tuple[tuple[int, Clue], ...]:
        """Each lifeline's clue with the index of the first history row it cost."""
        symbols = iter(self.__symbols)
        positions = iter(self.__positions.items())
        uses = iter(self.__used_lifelines)
        out: list[tuple[int, Clue]] = []
        index = 0
        while index < len(self.__rows):
            if not self.__rows[index].is_lifeline:
                index += 1
                continue
            number = next(uses, None)
            if number is None:
                break
            if number == 1:
                clue = Clue(next(symbols))
            else:
                position, symbol = next(positions)
                clue = Clue(symbol, position)
            out.append((index, clue))
            index += LIFELINE_COSTS[number]
        return tuple(out)

    def known_after(self, rows: int) -> tuple[tuple[Attempt, ...], Clues]:
        """Everything the player had been told after the first ``rows`` rows: the answered guesses and
        the lifelines' clues.
        """
        rows = max(0, min(rows, len(self.__rows)))
        guesses = tuple(row for row in self.__rows[:rows] if not row.is_lifeline)
        return guesses, tuple(clue for index, clue in self.clue_rows() if index < rows)

    def guess_line(self, rows: int) -> str:
        """``"Guess #3: 1234 → 1 black, 2 white."`` for the guess of row ``rows`` (counted from 1)."""
        guess, result = self.__rows[rows - 1]
        return f"Guess #{rows}: {guess} → {result.black} black, {result.white} white."

    def transcript(self) -> tuple[tuple[str, MessageKind], ...]:
        """What the game said so far, in order, with its kind (``"info"``, ``"warning"`` for a lifeline,
        ``"computer"`` for the coach): a resumed game shows its messages again.
        """
        clues = dict(self.clue_rows())
        lines: list[tuple[str, MessageKind]] = []
        for index, row in enumerate(self.__rows):
            if row.is_lifeline:
                clue = clues.get(index)
                if clue is not None:
                    cost = LIFELINE_COSTS[1 if clue.position is None else 2]
                    lines.append((f"{clue.message} That cost {guesses_word(cost)}.", "warning"))
                continue
            lines.append((self.guess_line(index + 1), "info"))
            if index + 1 in self.coach_notes:
                lines.append((self.coach_notes[index + 1], "computer"))
        return tuple(lines)

    def coach_line(self, rows: int) -> str:
        """The coach's verdict on the guess of row ``rows`` (counted from 1), with everything known then.

        Read-only and possibly slow on a big ruleset: a screen runs it in a worker.
        """
        guess = self.__rows[rows - 1].guess
        before, clues = self.known_after(rows - 1)
        after, _ = self.known_after(rows)
        return coach_verdict(self.__ruleset, guess, before, after, clues)

    @property
    def revealed_symbols(self) -> tuple[str, ...]:
        """Symbols lifelines said the code contains, in the order revealed."""
        return tuple(self.__symbols)

    @property
    def won(self) -> bool:
        """True when a guess matched the code."""
        return bool(self.__rows) and self.__rows[-1].feedback.solves(self.__ruleset.length)

    @property
    def lost(self) -> bool:
        """True when every guess is spent without breaking the code."""
        return not self.won and self.guesses_left == 0

    @property
    def over(self) -> bool:
        """True once won or lost."""
        return self.won or self.guesses_left == 0

    @property
    def status(self) -> Status:
        """``GUESSING`` until won or lost (``FINISHED``), or ``ABANDONED``."""
        if self.over:
            return Status.FINISHED
        return Status.ABANDONED if self.__abandoned else Status.GUESSING

    @property
    def awaiting(self) -> Awaiting | None:
        """The player's next guess (or lifeline) while the game is on."""
        return Awaiting(Move.GUESS, self.player) if self.status == Status.GUESSING else None

    @property
    def keepable(self) -> bool:
        """True while the game may be kept to resume: a registered player's game in progress (a guest has
        no identity to come back with, so a guest's game is never kept).
        """
        return self.is_user and self.status == Status.GUESSING

    def reveal(self) -> str:
        """The code, only once the game is over."""
        if not self.over:
            raise GameStateError("The code is revealed only when the game is over.")
        return self.__secret

    @property
    def reveal_message(self) -> str:
        """``"The code was 66843."`` (only once the game is over)."""
        return f"The code was {self.reveal()}."

    # -- playing -----------------------------------------------------------------------------

    def _require_playing(self) -> None:
        if self.status != Status.GUESSING:
            raise GameStateError("The game is over.")

    def guess(self, text: str) -> Feedback:
        """Play a typed guess; InvalidCode (costing nothing) if it cannot be played."""
        self._require_playing()
        result = self.__board.guess(text)
        self.__rows.append(self.__board.history[-1])
        return result

    def submit(self, text: str) -> Feedback | LifelineResult:
        """What a person typed at the guess prompt: ``lifeline#1``, ``lifeline#2`` or a guess."""
        request = "".join(text.split()).lower()
        for number in LIFELINE_COSTS:
            if request == f"lifeline#{number}":
                return self.lifeline(number)
        hint = command_hint(request, new_game=True, lifelines=self.__policy is not LifelinePolicy.NONE)
        if hint is not None:
            self._require_playing()
            raise InvalidCode(hint)
        return self.guess(text)

    def lifeline_refusal(self, number: int) -> str | None:
        """Why lifeline ``number`` cannot be used now, or None if it can."""
        if number not in LIFELINE_COSTS:
            raise ValueError(f"there is no lifeline #{number}")
        if self.status != Status.GUESSING:
            return GAME_OVER
        if self.__policy is LifelinePolicy.NONE:
            return LIFELINES_OFF
        if self.__policy is LifelinePolicy.ONE_PER_GAME and self.__used_lifelines:
            return ONE_USED
        if self.__policy is LifelinePolicy.EACH_ONCE and number in self.__used_lifelines:
            return f"You already used lifeline #{number} in this game."
        if LIFELINE_COSTS[number] >= self.guesses_left:
            return NO_GUESS_LEFT
        if number == 1 and not self._unknown_symbols():
            return NOTHING_NEW_SYMBOL
        if number == 2 and not self._hidden_positions():
            return NOTHING_NEW_POSITION
        return None

    @property
    def usable_lifelines(self) -> tuple[int, ...]:
        """The lifelines the player can use now (none once the game is over)."""
        return tuple(number for number in LIFELINE_COSTS if self.lifeline_refusal(number) is None)

    @property
    def no_lifeline_note(self) -> str:
        """Why no lifeline can be used now, in a few words (``""`` while one can)."""
        if self.usable_lifelines:
            return ""
        if self.__policy is LifelinePolicy.NONE:
            return "No lifelines in this game."
        if self.__policy is LifelinePolicy.ONE_PER_GAME and self.__used_lifelines or (
            len(self.__used_lifelines) == len(LIFELINE_COSTS)
        ):
            return "No lifelines left: used up."
        return "No lifeline can help now."

    def lifeline(self, number: int) -> LifelineResult:
        """Use lifeline #1 (reveal a symbol, cost 1) or #2 (reveal a position, cost 2).

        A refusal costs nothing and does not use up the game's allowance.
        """
        self._require_playing()
        refusal = self.lifeline_refusal(number)
        if refusal is not None:
            return LifelineResult(False, refusal)
        if number == 1:
            symbol = self.__rng.choice(self._unknown_symbols())
            self.__symbols.append(symbol)
            message = Clue(symbol).message
        else:
            position = self.__rng.choice(self._hidden_positions())
            self.__positions[position] = self.__secret[position]
            message = Clue(self.__secret[position], position).message
        cost = LIFELINE_COSTS[number]
        for _ in range(cost):
            self.__rows.append(Attempt(LIFELINE, Feedback(0, 0)))
        self.__used_lifelines.append(number)
        return LifelineResult(True, message, cost)

    def _unknown_symbols(self) -> list[str]:
        known = set(self.__symbols) | set(self.__positions.values())
        return sorted(set(self.__secret) - known)

    def _hidden_positions(self) -> list[int]:
        return [i for i in range(self.__ruleset.length) if i not in self.__positions]

    def abandon(self) -> None:
        """Drop the game before its end: it is never recorded."""
        self._require_playing()
        self.__abandoned = True

    # -- the end -----------------------------------------------------------------------------

    def result_message(self) -> str:
        """``"You broke the code in 4 guesses!"`` or ``"Out of guesses. The code was 66843."`` (once over)."""
        if self.won:
            return f"You broke the code in {guesses_word(self.guesses_used)}!"
        return f"Out of guesses. {self.reveal_message}"

    def record(self, name: str | None = None, is_user: bool | None = None) -> GameRecord:
        """The finished game's record (kind solo); lifeline rows appear as ``LIFELINE`` (0, 0)."""
        if not self.over:
            raise GameStateError("Only a finished game has a record.")
        player = PlayerRecord(
            self.player if name is None else name, self.is_user if is_user is None else is_user,
            self.won, self.guesses_used, self.history, clues=self.clue_rows(),
        )
        return GameRecord(GameKind.SOLO, self.__ruleset, (player,))

    def record_message(self, hall: HallOfFame) -> str | None:
        """For a win that sets no record: who holds it and with how many guesses; else None.

        ``"The record is 2 guesses, held by Ada; you tied it."`` or ``"…; you needed 1 more."``
        """
        if not self.won:
            return None
        best = hall.best(self.__ruleset)
        if best is None or self.guesses_used < best.guesses:
            return None
        if self.guesses_used == best.guesses:
            how = "you tied it"
        else:
            how = f"you needed {self.guesses_used - best.guesses} more"
        return f"The record is {guesses_word(best.guesses)}, held by {best.name}; {how}."

    def hall_entry(self, name: str | None = None) -> HallEntry:
        """The hall-of-fame entry this win would make: the user's name, or ``name`` a guest gave.

        NameRejected if a guest's ``name`` is not one the hall takes.
        """
        if not self.won:
            raise GameStateError("Only a win can enter the hall of fame.")
        if self.is_user:
            return HallEntry(self.__ruleset, self.guesses_used, self.player, guest=False)
        return HallEntry(self.__ruleset, self.guesses_used, name or "", guest=True)

    # -- writing and reading back -------------------------------------------------------------

    def as_json(self) -> dict[str, Any]:
        """The whole game as plain JSON data, at any point (the code included)."""
        return {
            "kind": GameKind.SOLO.value,
            "ruleset": self.__ruleset.as_json(),
            "secret": self.__secret,
            "lifelines": self.__policy.value,
            "rows": [row.as_json() for row in self.__rows],
            "used_lifelines": list(self.__used_lifelines),
            "symbols": list(self.__symbols),
            "positions": {str(i): s for i, s in sorted(self.__positions.items())},
            "abandoned": self.__abandoned,
            "player": self.player,
            "is_user": self.is_user,
            "coach": self.coach,
            "coach_notes": {str(rows): line for rows, line in sorted(self.coach_notes.items())},
            "notes": self.notes.as_json(),
        }

    @classmethod
    def from_json(cls, data: Any, rng: random.Random) -> SoloGame:
        """Rebuild a game from :meth:`as_json` data (lifelines draw from ``rng``); ValueError if it is not one."""
        shape = shaped(data, _SoloShape, {"": "not a solo game: {reason}"})
        ruleset = Ruleset.from_json(shape.ruleset)
        game = cls(ruleset, shape.secret, rng, shape.lifelines, player=shape.player, is_user=shape.is_user)
        rows = [Attempt(guess, Feedback(black, white)) for guess, black, white in shape.rows]
        if len(rows) > ruleset.guesses:
            raise ValueError("not a solo game: bad rows")
        for row in rows:
            if not row.is_lifeline and (game.__board.finished or game.__board.guess(row.guess) != row.feedback):
                raise ValueError("not a solo game: a feedback does not match the code")
        if not all(symbol in game.__secret for symbol in shape.symbols):
            raise ValueError("not a solo game: bad lifelines")
        game.__rows = rows
        game.__used_lifelines = list(shape.used_lifelines)
        game.__symbols = list(shape.symbols)
        for key, symbol in shape.positions.items():
            if not key.isdigit() or int(key) >= ruleset.length or game.__secret[int(key)] != symbol:
                raise ValueError("not a solo game: bad revealed position")
            game.__positions[int(key)] = symbol
        game.__abandoned = shape.abandoned
        game.coach = shape.coach
        if not all(key.isdigit() and 1 <= int(key) <= len(rows) and not rows[int(key) - 1].is_lifeline
                   for key in shape.coach_notes):
            raise ValueError("not a solo game: bad coach notes")
        game.coach_notes = {int(k): v for k, v in shape.coach_notes.items()}
        game.notes = Notes.from_json(shape.notes, ruleset)
        return game

    def __repr__(self) -> str:
        return f"SoloGame({self.__ruleset.key}, guesses_used={self.guesses_used})"


class _SoloShape(msgspec.Struct, forbid_unknown_fields=True):
    kind: Literal["solo"]
    ruleset: Any  # Ruleset.from_json
    secret: str
    lifelines: LifelinePolicy
    rows: list[tuple[str, Count, Count]]
    used_lifelines: list[Literal[1, 2]]  # LIFELINE_COSTS
    symbols: list[str]
    positions: dict[str, str]
    abandoned: bool
    player: str
    is_user: bool
    coach: bool = False  # a game kept before the coach was kept has none: the coach off
    coach_notes: dict[str, Annotated[str, msgspec.Meta(max_length=500)]] = {}  # kept since resumed games show them
    notes: Any = None  # nor notes, before they were kept (read leniently: Notes.from_json)


class _NoDraws(random.Random):
    """A source that refuses to be drawn from: reading a game back draws nothing."""

    def random(self) -> float:  # pragma: no cover - never called
        raise AssertionError("reading a game back must not draw")

    def getrandbits(self, k: int, /) -> int:  # pragma: no cover - never called
        raise AssertionError("reading a game back must not draw")


def check_solo_json(data: Any) -> dict[str, Any]:
    """``data`` if it is a solo game still being played as :meth:`SoloGame.as_json` gives it (the
    store keeps such a game per identity, to resume it); ``ValueError`` with the reason if not.
    """
    game = SoloGame.from_json(data, _NoDraws(0))
    if game.over:
        raise ValueError("not a solo game in progress: it is over")
    return dict(data)
