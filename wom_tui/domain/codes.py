"""Codes, palettes, rulesets and feedback: the arithmetic of Mastermind (docs/play.md, *Codes and feedback*)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any, NamedTuple

from .commands import command_hint
from .game import Refusal
from .words import counted

MIN_LENGTH = 1
MAX_LENGTH = 8
MIN_GUESSES = 1
MAX_GUESSES = 20
MAX_DIGITS = 15
"""The longest number a data file or a table may hold: no game produces a score near 10^15 (a game
gives at most 20 points), and Python would spend seconds converting a number of thousands of digits."""


class InvalidCode(Refusal):
    """A typed guess or code that cannot be played; ``reason`` is shown to the player.

    ``masked_reason`` says the same without naming any symbol typed, for a code typed hidden
    (World of Mastermind's code making): it is what a screen others can see shows.
    """

    def __init__(self, reason: str, masked_reason: str | None = None) -> None:
        super().__init__(reason)
        self.masked_reason = reason if masked_reason is None else masked_reason


@dataclass(frozen=True)
class Palette:
    """The symbols a code is made of, each with the colour name it stands for, and the palette's one name.

    ``title`` (``"Classic"``, ``"Rainbow"``, ``"Digits 1–8"``, ``"Digits 0–9"``) is how every setup, header,
    record, statistic and share line names the palette (docs/play.md, *Palettes*).
    """

    key: str
    symbols: str
    names: tuple[str, ...]
    title: str

    def __len__(self) -> int:
        return len(self.symbols)

    def name_of(self, symbol: str) -> str:
        """The colour name of one symbol, e.g. ``"Red"`` for ``"R"``."""
        return self.names[self.symbols.index(symbol)]

    def listing(self) -> str:
        """The symbols as a sentence: ``"R, G, B, Y, W and K"``."""
        return ", ".join(self.symbols[:-1]) + " and " + self.symbols[-1]


WOM = Palette("wom", "RGBYWK", ("Red", "Green", "Blue", "Yellow", "White", "blacK"), "Classic")
RAINBOW = Palette("rainbow", "ROYGBV", ("Red", "Orange", "Yellow", "Green", "Blue", "Violet"), "Rainbow")
DIGITS8 = Palette(
    "digits8",
    "12345678",
    ("Red", "Green", "Blue", "Yellow", "Orange", "Violet", "Cyan", "Pink"),
    "Digits 1–8",
)
DIGITS10 = Palette(
    "digits10",
    "0123456789",
    ("Grey", "Red", "Green", "Blue", "Yellow", "Orange", "Violet", "Cyan", "Pink", "Brown"),
    "Digits 0–9",
)

PALETTES: dict[str, Palette] = {p.key: p for p in (WOM, RAINBOW, DIGITS8, DIGITS10)}


class Feedback(NamedTuple):
    """Key pegs for one guess: ``black`` right symbol right place, ``white`` right symbol wrong place."""

    black: int
    white: int

    def solves(self, length: int) -> bool:
        """True when every position is right."""
        return self.black == length

    @property
    def text(self) -> str:
        """The WoM-style text, ``"K K W"``; ``"-"`` when no peg is earned."""
        pegs = ["K"] * self.black + ["W"] * self.white
        return " ".join(pegs) if pegs else "-"

    @property
    def pegs(self) -> str:
        """The pegs as ``●`` (black) then ``○`` (white): counts only, never positions."""
        return "●" * self.black + "○" * self.white


def feedback(secret: str, guess: str) -> Feedback:
    """Score ``guess`` against ``secret``; each symbol of the secret is matched at most once."""
    if len(secret) != len(guess):
        raise ValueError(f"secret and guess differ in length ({len(secret)} vs {len(guess)})")
    black = sum(s == g for s, g in zip(secret, guess))
    common = sum((Counter(secret) & Counter(guess)).values())
    return Feedback(black, common - black)


@dataclass(frozen=True)
class Ruleset:
    """Code length, palette, whether a secret may repeat symbols, and guesses allowed."""

    length: int = 4
    palette: Palette = WOM
    repeats: bool = True
    guesses: int = 10

    def __post_init__(self) -> None:
        if not MIN_LENGTH <= self.length <= MAX_LENGTH:
            raise ValueError(f"code length must be {MIN_LENGTH}–{MAX_LENGTH}, not {self.length}")
        if not MIN_GUESSES <= self.guesses <= MAX_GUESSES:
            raise ValueError(f"guesses allowed must be {MIN_GUESSES}–{MAX_GUESSES}, not {self.guesses}")
        if not self.repeats and self.length > len(self.palette):
            raise ValueError(
                f"a {self.length}-symbol code without repeats needs at least {counted(self.length, 'symbol')}; "
                f"the {self.palette.title} palette has {len(self.palette)}"
            )

    @property
    def key(self) -> str:
        """A stable name for the ruleset, used for hall-of-fame tables: ``"4-wom-repeats-10"``."""
        return f"{self.length}-{self.palette.key}-{'repeats' if self.repeats else 'unique'}-{self.guesses}"

    @property
    def title(self) -> str:
        """The rules' one name, guesses left out: ``"4 × Classic"``, ``"6 × Digits 0–9, no repeats"``.

        Repeats are allowed unless it says ``no repeats``. Setups, headers, the replay list, the hall of fame,
        the daily puzzles and share lines say it this way; :meth:`describe` adds the guesses allowed.
        """
        named = f"{self.length} × {self.palette.title}"
        return named if self.repeats else f"{named}, no repeats"

    def describe(self) -> str:
        """:attr:`title` and the guesses allowed: ``"4 × Classic, 10 guesses"``."""
        return f"{self.title}, {counted(self.guesses, 'guess')}"

    @property
    def size(self) -> int:
        """How many secrets the ruleset allows."""
        n = len(self.palette)
        if self.repeats:
            return n**self.length
        total = 1
        for i in range(self.length):
            total *= n - i
        return total

    def parse(self, text: str, *, what: str = "Guess", secret: bool = False) -> str:
        """Read a typed guess or code: case-insensitive, spaces removed.

        ``secret=True`` also refuses repeated symbols when the ruleset forbids them
        (a guess may always repeat). Raises :class:`InvalidCode` with the player-facing reason.
        """
        code = "".join(text.split()).upper()
        allowed = self.palette.symbols
        if any(ch not in allowed for ch in code):
            raise InvalidCode(command_hint(code) or f"Only {self.palette.listing()} are allowed.")
        if len(code) < self.length:
            raise InvalidCode(f"{what} too short; it must be exactly {counted(self.length, 'symbol')}.")
        if len(code) > self.length:
            raise InvalidCode(f"{what} too long; it must be exactly {counted(self.length, 'symbol')}.")
        if secret and not self.repeats:
            repeated = [s for s, n in Counter(code).items() if n > 1]
            if repeated:
                raise InvalidCode(
                    f"{what} may not repeat a symbol; {repeated[0]} appears more than once.",
                    f"{what} may not repeat a symbol; one appears more than once.",
                )
        return code

    def random_code(self, rng: random.Random) -> str:
        """A uniformly random secret allowed by the ruleset."""
        if self.repeats:
            return "".join(rng.choice(self.palette.symbols) for _ in range(self.length))
        return "".join(rng.sample(self.palette.symbols, self.length))

    def with_guesses(self, guesses: int) -> Ruleset:
        """The same ruleset with another number of guesses allowed."""
        return Ruleset(self.length, self.palette, self.repeats, guesses)

    def as_json(self) -> dict[str, Any]:
        """The ruleset as plain JSON data."""
        return {"length": self.length, "palette": self.palette.key, "repeats": self.repeats, "guesses": self.guesses}

    @classmethod
    def from_json(cls, data: Any) -> Ruleset:
        """Rebuild a ruleset from :meth:`as_json` data; ``ValueError`` if it is not one."""
        if not isinstance(data, dict):
            raise ValueError("a ruleset must be an object")
        length, palette, repeats, guesses = (data.get(k) for k in ("length", "palette", "repeats", "guesses"))
        if type(length) is not int or type(guesses) is not int or type(repeats) is not bool:
            raise ValueError("a ruleset needs whole-number length and guesses and a true/false repeats")
        if palette not in PALETTES:
            raise ValueError(f"unknown palette {palette!r}")
        return cls(length, PALETTES[palette], repeats, guesses)


WOM_RULESET = Ruleset(4, WOM, True, 10)
"""World of Mastermind's default: 4 symbols of the Classic palette (R G B Y W K), repeats allowed (attempts set per game)."""

SOLO_RULESET = Ruleset(4, DIGITS10, True, 10)
"""Solo play's default: 4 symbols of Digits 0–9, repeats allowed, 10 guesses."""
