"""Solo games: one person breaks a computer's code, with lifelines and a hint mask (SPEC §4)."""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass

from .board import GameStateError
from .codes import DIGITS10, MAX_GUESSES, MIN_GUESSES, Feedback, InvalidCode, Palette, Ruleset, feedback
from .commands import command_hint
from .records import GameRecord, PlayerRecord
from .wom import SetupError

MIN_SOLO_LENGTH, MAX_SOLO_LENGTH = 4, 8
LIFELINE = "LIFELINE"
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


@dataclass(frozen=True)
class SoloRow:
    """One row of a solo history: a guess with its feedback, or a guess spent on a lifeline."""

    number: int
    kind: str
    guess: str
    feedback: Feedback | None = None

    @property
    def is_lifeline(self) -> bool:
        """True for a row paid to a lifeline."""
        return self.kind == "lifeline"


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

    def new_game(self, rng: random.Random) -> SoloGame:
        """A fresh game: the length (if random) and the secret both come from ``rng``."""
        ruleset = self.pick_ruleset(rng)
        return SoloGame(ruleset, ruleset.random_code(rng), rng, self.lifelines)


class SoloGame:
    """One solo game: the secret is private; guesses and lifelines both spend the guesses allowed."""

    def __init__(
        self,
        ruleset: Ruleset,
        secret: str,
        rng: random.Random,
        lifelines: LifelinePolicy = LifelinePolicy.ONE_PER_GAME,
    ) -> None:
        self.__ruleset = ruleset
        self.__secret = ruleset.parse(secret, what="Code", secret=True)
        self.__rng = rng
        self.__policy = lifelines
        self.__rows: list[SoloRow] = []
        self.__used_lifelines: list[int] = []
        self.__symbols: list[str] = []
        self.__positions: dict[int, str] = {}

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
    def history(self) -> tuple[SoloRow, ...]:
        """Every row so far; a lifeline of cost 2 fills two ``LIFELINE`` rows."""
        return tuple(self.__rows)

    @property
    def hint_mask(self) -> str:
        """The code as far as lifelines revealed positions, e.g. ``"**8*"``."""
        return "".join(self.__positions.get(i, "*") for i in range(self.__ruleset.length))

    @property
    def revealed_symbols(self) -> tuple[str, ...]:
        """Symbols lifelines said the code contains, in the order revealed."""
        return tuple(self.__symbols)

    @property
    def won(self) -> bool:
        """True when a guess matched the code."""
        last = self.__rows[-1] if self.__rows else None
        return last is not None and last.feedback is not None and last.feedback.solves(self.__ruleset.length)

    @property
    def lost(self) -> bool:
        """True when every guess is spent without breaking the code."""
        return not self.won and self.guesses_left == 0

    @property
    def over(self) -> bool:
        """True once won or lost."""
        return self.won or self.guesses_left == 0

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
        if self.over:
            raise GameStateError("The game is over.")

    def guess(self, text: str) -> Feedback:
        """Play a typed guess; InvalidCode (costing nothing) if it cannot be played."""
        self._require_playing()
        guess = self.__ruleset.parse(text)
        result = feedback(self.__secret, guess)
        self.__rows.append(SoloRow(len(self.__rows) + 1, "guess", guess, result))
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
        if self.over:
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
            message = f"The code contains {symbol}."
        else:
            position = self.__rng.choice(self._hidden_positions())
            self.__positions[position] = self.__secret[position]
            message = f"The code has {self.__secret[position]} at position {position + 1}."
        cost = LIFELINE_COSTS[number]
        for _ in range(cost):
            self.__rows.append(SoloRow(len(self.__rows) + 1, "lifeline", LIFELINE))
        self.__used_lifelines.append(number)
        return LifelineResult(True, message, cost)

    def _unknown_symbols(self) -> list[str]:
        known = set(self.__symbols) | set(self.__positions.values())
        return sorted(set(self.__secret) - known)

    def _hidden_positions(self) -> list[int]:
        return [i for i in range(self.__ruleset.length) if i not in self.__positions]

    # -- the end -----------------------------------------------------------------------------

    def record(self, name: str, is_user: bool) -> GameRecord:
        """The finished game's record (kind ``"solo"``); lifeline rows appear as ``LIFELINE`` (0, 0)."""
        if not self.over:
            raise GameStateError("Only a finished game has a record.")
        guesses = tuple((row.guess, row.feedback or Feedback(0, 0)) for row in self.__rows)
        player = PlayerRecord(name, is_user, self.won, self.guesses_used, guesses)
        return GameRecord("solo", self.__ruleset, (player,))

    def __repr__(self) -> str:
        return f"SoloGame({self.__ruleset.key}, guesses_used={self.guesses_used})"
