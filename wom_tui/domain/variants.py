"""The variants of Mastermind, named the same way everywhere: Quad, Devious, Strict and Liar.

docs/play.md, *Variants*. :class:`Variant` is the one registry: a solo game
(:class:`~wom_tui.domain.variant_game.VariantGame`), a live table (``Table.variant``) and the daily code
(:func:`~wom_tui.domain.variant_game.daily_variant_game`) all name a variant by its value, which is
what the store writes. The rules that need no code space live here (Strict's check, Liar's lie); the
ones that count codes (Devious's answer, what fits with one lie) in :mod:`.strategies.variants`.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from typing import Any

from .codes import Feedback, Ruleset, feedback

QUAD_BOARDS = 4
"""Codes broken at once in Quad."""
QUAD_GUESSES = 9
"""Guesses a Quad game allows (Quordle's shape)."""
LIAR_GUESSES = 12
"""Guesses a Liar game allows: two more than a classic game, for the answer that cannot be trusted."""
LIE_WITHIN = 3
"""The lie is one of the first this many answers (the player is told so)."""
VARIANT_SPACE_UP_TO = 250_000
"""Devious and Liar count every code (the answer leaving the most, what fits with one lie): at most this
many codes in their ruleset (6 × 8 at most; 4 × 6, 5 × 8 and 4 × 10 are well within)."""


class Variant(str, enum.Enum):
    """A way to play; the value is what the store writes (``"quad"``), the label what a player reads."""

    CLASSIC = "classic"
    QUAD = "quad"
    DEVIOUS = "devious"
    STRICT = "strict"
    LIAR = "liar"

    def __str__(self) -> str:
        return self.value

    @property
    def label(self) -> str:
        """``"Quad"``: how screens, menus and records name it."""
        return self.value.capitalize()

    @property
    def rules(self) -> str:
        """The variant's rules in one sentence, in a player's words."""
        return _RULES[self]

    @property
    def boards(self) -> int:
        """Codes broken at once: 4 in Quad, else 1 (Devious holds none, but answers as one board)."""
        return QUAD_BOARDS if self is Variant.QUAD else 1

    @property
    def has_codes(self) -> bool:
        """False for Devious: the codemaker never fixes a code."""
        return self is not Variant.DEVIOUS

    def guesses(self, chosen: int) -> int:
        """The guesses a game of this variant allows when ``chosen`` were asked for (Quad: 9, Liar: 12)."""
        return {Variant.QUAD: QUAD_GUESSES, Variant.LIAR: LIAR_GUESSES}.get(self, chosen)

    def ruleset(self, base: Ruleset) -> Ruleset:
        """``base`` with the guesses this variant allows."""
        return Ruleset(base.length, base.palette, base.repeats, self.guesses(base.guesses))

    def refusal(self, ruleset: Ruleset) -> str | None:
        """Why this variant cannot be played with ``ruleset`` (too many codes to count), or None."""
        if self in (Variant.DEVIOUS, Variant.LIAR) and ruleset.size > VARIANT_SPACE_UP_TO:
            return (f"{self.label} needs a ruleset of at most {VARIANT_SPACE_UP_TO:,} codes "
                    f"(this one has {ruleset.size:,}): choose fewer pegs or colours.")
        return None

    def as_json(self) -> str:
        """The variant as the store writes it."""
        return self.value

    @classmethod
    def from_json(cls, data: Any) -> Variant:
        """The variant written as :meth:`as_json`; ValueError naming the variants otherwise."""
        try:
            return cls(data)
        except ValueError:
            raise ValueError(f"unknown variant {data!r}: one of {', '.join(v.value for v in cls)}") from None


_RULES = {
    Variant.CLASSIC: "One code, broken in the guesses allowed.",
    Variant.QUAD: f"Four codes at once: every guess goes to all four boards; break them all in {QUAD_GUESSES} guesses.",
    Variant.DEVIOUS: ("The codemaker holds no code: it answers each guess with the answer that leaves the most "
                      "codes possible, never one that no code could give. Corner it until only your guess is left."),
    Variant.STRICT: "Every guess must fit every answer so far; a guess that does not is refused, with the reason.",
    Variant.LIAR: (f"One of the first {LIE_WITHIN} answers is a lie (never a win, and a win is never hidden); "
                   f"which one is revealed at the end. {LIAR_GUESSES} guesses."),
}

VARIANTS = tuple(Variant)
"""Every variant, classic first: the order a setup screen offers them."""


# ---------------------------------------------------------------- Strict


def strict_refusal(guess: str, history: Sequence[tuple[str, Feedback]]) -> str | None:
    """Why Strict refuses ``guess`` (the first answer it does not fit), or None if it fits them all."""
    for number, (played, answer) in enumerate(history, start=1):
        would = feedback(guess, played)
        if would != answer:
            return (f"Strict: {guess} does not fit guess #{number} ({played} got {answer.black} black, "
                    f"{answer.white} white; {guess} would get {would.black} black, {would.white} white). "
                    "Every guess must fit every answer so far.")
    return None


# ---------------------------------------------------------------- Liar


def lie_turn(rng: random.Random) -> int:
    """Which answer (0-based) will be the lie: one of the first :data:`LIE_WITHIN`, drawn from ``rng``."""
    return rng.randrange(LIE_WITHIN)


def possible_answers(ruleset: Ruleset) -> tuple[Feedback, ...]:
    """Every answer a guess that is not the code may get: ``black + white`` at most the length, never
    ``length - 1`` black and 1 white, and without repeats at least ``2·length − colours`` pegs in common.
    """
    n, colours = ruleset.length, len(ruleset.palette)
    least = 0 if ruleset.repeats else max(0, 2 * n - colours)
    return tuple(
        Feedback(black, white)
        for black in range(n)
        for white in range(n - black + 1)
        if least <= black + white and not (black == n - 1 and white == 1)
    )


def lie_answer(ruleset: Ruleset, truth: Feedback, rng: random.Random) -> Feedback:
    """A lie for a guess whose true answer is ``truth`` (not a win): another answer it could get, never a win."""
    choices = [fb for fb in possible_answers(ruleset) if fb != truth]
    return rng.choice(choices)


__all__ = [
    "LIAR_GUESSES",
    "LIE_WITHIN",
    "QUAD_BOARDS",
    "QUAD_GUESSES",
    "VARIANTS",
    "VARIANT_SPACE_UP_TO",
    "Variant",
    "lie_answer",
    "lie_turn",
    "possible_answers",
    "strict_refusal",
]
