"""Players of World of Mastermind: people and the computer players HAL9000 and VIKI.

How the computers play: docs/play.md, *The computer players*.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .codes import Feedback, Ruleset
from .users import computer_name

if TYPE_CHECKING:  # the strategies load numpy: imported when a computer first plays (the hub often has none)
    from .strategies import Strategy

History = Sequence[tuple[str, Feedback]]


class Player(ABC):
    """Someone at the table: makes a code for the next player and guesses their own."""

    def __init__(self, name: str) -> None:
        self.__name = name

    @property
    def name(self) -> str:
        """The player's name; it never changes."""
        return self.__name

    @property
    def is_computer(self) -> bool:
        """True for a computer player (who earns no points)."""
        return False

    @property
    def is_guest(self) -> bool:
        """True for a person in a guest seat (who earns no points)."""
        return False

    @property
    def is_user(self) -> bool:
        """True for a registered user, the only players who earn points."""
        return not (self.is_computer or self.is_guest)

    @abstractmethod
    def make_code(self, ruleset: Ruleset, rng: random.Random, typed: str | None = None) -> str:
        """The code this player sets for the next player; raises InvalidCode for a bad typed code."""

    @abstractmethod
    def make_guess(
        self, ruleset: Ruleset, history: History, rng: random.Random, typed: str | None = None
    ) -> str:
        """The player's next guess; raises InvalidCode for a bad typed guess."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.__name!r})"


class HumanPlayer(Player):
    """A person: their codes and guesses are what they typed."""

    def make_code(self, ruleset: Ruleset, rng: random.Random, typed: str | None = None) -> str:
        """The typed code, read by the ruleset (hidden-code rules apply)."""
        return ruleset.parse(typed or "", what="Code", secret=True)

    def make_guess(
        self, ruleset: Ruleset, history: History, rng: random.Random, typed: str | None = None
    ) -> str:
        """The typed guess, read by the ruleset."""
        return ruleset.parse(typed or "")


class GuestPlayer(HumanPlayer):
    """A person in a guest seat ("Guest 1"): plays like anyone, earns and records no points."""

    @property
    def is_guest(self) -> bool:
        """Always True."""
        return True


class ComputerPlayer(Player):
    """A computer player: a random code, and guesses chosen by its strategy; anything typed is ignored."""

    def __init__(self, name: str, strategy: Strategy) -> None:
        super().__init__(name)
        self.__strategy = strategy

    @property
    def strategy(self) -> Strategy:
        """How this player chooses its guesses."""
        return self.__strategy

    @property
    def is_computer(self) -> bool:
        """Always True."""
        return True

    def make_code(self, ruleset: Ruleset, rng: random.Random, typed: str | None = None) -> str:
        """A uniformly random code allowed by the ruleset."""
        return ruleset.random_code(rng)

    def make_guess(
        self, ruleset: Ruleset, history: History, rng: random.Random, typed: str | None = None
    ) -> str:
        """The strategy's next guess."""
        return self.__strategy.next_guess(ruleset, history, rng)


def hal9000(within_five: bool = False) -> ComputerPlayer:
    """HAL9000, the strong computer player (fewest guesses on average; ``within_five``: never more than 5 on
    4 × 6, one guess more in all over the 1,296 codes).
    """
    from .strategies import make_strategy

    return ComputerPlayer("HAL9000", make_strategy("expert", within_five=within_five))


def viki() -> ComputerPlayer:
    """VIKI, who plays like a sound human (a random code consistent with all feedback)."""
    from .strategies import make_strategy

    return ComputerPlayer("VIKI", make_strategy("consistent"))


def computer_player(name: str, *, within_five: bool = False) -> ComputerPlayer:
    """The computer player called ``name`` in any case ("hal9000", "Viki"); ValueError otherwise."""
    canonical = computer_name(name.strip())
    if canonical == "HAL9000":
        return hal9000(within_five)
    if canonical == "VIKI":
        return viki()
    raise ValueError(f"{name!r} is not a computer player")
