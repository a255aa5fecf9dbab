"""Line mode's wording: every line it writes is plain words, at most :data:`MAX_LINE` characters, and
nothing a person typed or a store kept can reach a screen reader, a braille display or a terminal as
markup or an escape code (docs/play.md, *Line mode*).
"""

from __future__ import annotations

import textwrap
import unicodedata
from collections.abc import Iterable, Sequence

from ..domain.codes import Feedback, Ruleset
from ..domain.words import counted

LINE_FORM = "line"
"""Where an identity's choice of line mode is remembered (``store.choices(key, "line")``)."""
MAX_LINE = 120
"""The longest line line mode writes (a braille display's line is 40 or 80 cells; a wider one wraps)."""
MAX_INPUT = 200
"""The longest line a player may type; the rest of a longer one is dropped, and the player told so."""


def clean(text: str) -> str:
    """``text`` with every control character, escape and format character replaced by ``?`` (tabs and
    newlines by a space): data, never a terminal's command nor a web page's markup (a page escapes it too).
    """
    out = []
    for char in text:
        if char in "\t\r\n":
            out.append(" ")
        elif unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            out.append("?")
        else:
            out.append(char)
    return "".join(out)


def split(text: str, width: int = MAX_LINE) -> list[str]:
    """``text`` cleaned, as lines of at most ``width`` characters (broken at spaces where it can)."""
    text = " ".join(clean(text).split())
    if len(text) <= width:
        return [text]
    return textwrap.wrap(text, width, break_long_words=True, break_on_hyphens=False) or [""]


def spoken_code(code: str) -> str:
    """A code as separate symbols a screen reader says one by one: ``"R G B Y"``."""
    return " ".join(code)


def colour_word(ruleset: Ruleset) -> str:
    """What a right symbol is called: a colour for a colour palette, a digit for digits."""
    return "digit" if ruleset.palette.key.startswith("digits") else "colour"


def feedback_words(result: Feedback, ruleset: Ruleset) -> str:
    """``"2 right place, 1 right colour"``; ``"all 4 right place"``; ``"nothing right"``."""
    if result.black == ruleset.length:
        return f"all {ruleset.length} right place"
    if not result.black and not result.white:
        return "nothing right"
    return f"{result.black} right place, {result.white} right {colour_word(ruleset)}"


def guess_line(number: int, code: str, result: Feedback, ruleset: Ruleset, left: int, who: str | None = None) -> str:
    """``"Guess 3: R G B Y — 2 right place, 1 right colour, 7 guesses left."`` (``who``: whose guess)."""
    head = f"{who}, guess {number}" if who else f"Guess {number}"
    tail = "" if result.black == ruleset.length else f", {counted(left, 'guess')} left"
    return f"{head}: {spoken_code(code)} — {feedback_words(result, ruleset)}{tail}."


def rules_words(ruleset: Ruleset) -> str:
    """``"4 pegs of R G B Y W K, repeats allowed, 10 guesses"``."""
    repeats = "repeats allowed" if ruleset.repeats else "no repeats"
    return f"{ruleset.length} pegs of {spoken_code(ruleset.palette.symbols)}, {repeats}, {counted(ruleset.guesses, 'guess')}"


def share_words(title: str, results: Sequence[Feedback | None], ruleset: Ruleset, broke: bool) -> str:
    """The share line in words, spoiler-free: counts only, never a symbol or a position.

    ``"Mastermind solo · 4 × Classic · 4/10. Right place and right colour per guess: 1 1, 2 0, lifeline, 4 0."``
    """
    score = f"{len(results)}/{ruleset.guesses}" if broke else f"X/{ruleset.guesses}"
    rows = ", ".join("lifeline" if result is None else f"{result.black} {result.white}" for result in results)
    return (f"{title} · {ruleset.title} · {score}. Right place and right {colour_word(ruleset)} per guess: "
            f"{rows or 'none'}.")


def listing(items: Iterable[str], empty: str) -> str:
    """Items joined with ``"; "`` into a sentence, or ``empty``."""
    items = list(items)
    return "; ".join(items) + "." if items else empty


__all__ = ["MAX_INPUT", "MAX_LINE", "clean", "colour_word", "feedback_words", "guess_line", "listing", "rules_words",
           "share_words", "split", "spoken_code"]
