"""Coloured code pegs and black/white key pegs: the shared look of every board in the app.

Every peg always carries its letter or digit, so nothing is told by colour alone
(docs/play.md, *Accessibility*). Colours come from a :class:`PegScheme`: the standard one, a colour-blind-safe
one (Okabe–Ito colours, chosen by the ``wom-colourblind`` theme), and a plain one used
under ``NO_COLOR`` that shows letters only. The functions return Rich ``Text`` built
from plain strings (never markup), so they work in ``Static``, ``Label`` and ``DataTable``
cells alike.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from rich.style import Style
from rich.text import Text
from textual import active_app

from ..domain.codes import Feedback, Palette

COLOURBLIND_THEME = "wom-colourblind"
"""The name of the colour-blind-safe theme registered by the app."""

BLACK_PEG = "●"
WHITE_PEG = "○"
NO_PEG = "·"
MASK = "•"
"""What a hidden (masked) symbol shows instead of its letter."""
EMPTY = "·"
"""What an empty slot shows."""


@dataclass(frozen=True)
class PegScheme:
    """How to colour pegs: per colour name, a background and a legible foreground."""

    name: str
    colours: dict[str, tuple[str, str]] = field(default_factory=dict)
    neutral: tuple[str, str] | None = ("#4a4a4a", "#f0f0f0")
    """Colours of a slot that holds no palette symbol (empty, masked, or a typo)."""
    plain: bool = False
    """Letters only, no colour at all (``NO_COLOR``)."""

    def style_for(self, symbol: str, palette: Palette | None) -> Style:
        """The Rich style of one peg showing ``symbol``."""
        if self.plain:
            return Style(bold=True, reverse=symbol in (palette.symbols if palette else ""))
        pair = None
        if palette is not None and symbol in palette.symbols:
            pair = self.colours.get(palette.name_of(symbol))
        if pair is None:
            pair = self.neutral
        if pair is None:
            return Style(bold=True)
        background, foreground = pair
        return Style(bold=True, color=foreground, bgcolor=background)


STANDARD = PegScheme(
    "standard",
    {
        "Red": ("#e0403a", "#ffffff"),
        "Green": ("#3fa34d", "#ffffff"),
        "Blue": ("#2f6fd6", "#ffffff"),
        "Yellow": ("#f5d33b", "#1a1a1a"),
        "White": ("#f2f2f2", "#1a1a1a"),
        "blacK": ("#0d0d0d", "#f2f2f2"),
        "Orange": ("#f28c28", "#1a1a1a"),
        "Violet": ("#8e4fc2", "#ffffff"),
        "Cyan": ("#2ec4d6", "#1a1a1a"),
        "Pink": ("#f49ac1", "#1a1a1a"),
        "Grey": ("#8c8c8c", "#1a1a1a"),
        "Brown": ("#8a5a2b", "#ffffff"),
    },
)
"""The everyday colours."""

COLOURBLIND = PegScheme(
    "colourblind",
    {
        # Okabe & Ito's palette, distinguishable with the common colour-vision deficiencies;
        # the letter on each peg settles any pair that still looks alike.
        "Red": ("#d55e00", "#000000"),
        "Green": ("#009e73", "#ffffff"),
        "Blue": ("#0072b2", "#ffffff"),
        "Yellow": ("#f0e442", "#000000"),
        "White": ("#ffffff", "#000000"),
        "blacK": ("#000000", "#ffffff"),
        "Orange": ("#e69f00", "#000000"),
        "Violet": ("#cc79a7", "#000000"),
        "Cyan": ("#56b4e9", "#000000"),
        "Pink": ("#f7c6de", "#000000"),
        "Grey": ("#999999", "#000000"),
        "Brown": ("#7a4a1e", "#ffffff"),
    },
)
"""Colour-blind-safe colours (the ``wom-colourblind`` theme)."""

PLAIN = PegScheme("plain", plain=True, neutral=None)
"""Letters only, for ``NO_COLOR`` terminals."""

def current_scheme() -> PegScheme:
    """The scheme for the running app: plain under ``NO_COLOR``, colour-blind for its theme, else standard."""
    try:
        app = active_app.get()
    except LookupError:
        return STANDARD
    if getattr(app, "no_color", False):
        return PLAIN
    if getattr(app, "theme", None) == COLOURBLIND_THEME:
        return COLOURBLIND
    return STANDARD


def peg(symbol: str, palette: Palette | None, *, scheme: PegScheme | None = None) -> Text:
    """One code peg, three cells wide: ``" R "`` on its colour (any non-palette character on grey)."""
    scheme = scheme or current_scheme()
    return Text(f" {symbol} ", style=scheme.style_for(symbol, palette), end="")


def code_pegs(
    code: str,
    palette: Palette | None,
    *,
    gap: str = " ",
    masked: bool = False,
    scheme: PegScheme | None = None,
) -> Text:
    """A row of pegs for ``code``; ``masked`` shows ``•`` in place of every symbol.

    Characters outside the palette (``*`` of a hint mask, ``?``, ``·``) become grey pegs
    showing that character, so ``code_pegs("6**8", DIGITS10)`` draws a hint mask.
    """
    scheme = scheme or current_scheme()
    text = Text(end="")
    for index, symbol in enumerate(code):
        if index:
            text.append(gap)
        if masked:
            text.append_text(peg(MASK, None, scheme=scheme))
        else:
            text.append_text(peg(symbol, palette, scheme=scheme))
    return text


def _key_peg_sequence(result: Feedback, length: int) -> list[str]:
    # Blacks first, then whites, then empty holes: the order carries counts only, never positions.
    empty = max(length - result.black - result.white, 0)
    return [BLACK_PEG] * result.black + [WHITE_PEG] * result.white + [NO_PEG] * empty


def _styled_key_pegs(pegs: list[str], scheme: PegScheme, gap: str = " ") -> Text:
    text = Text(end="")
    for index, key_peg in enumerate(pegs):
        if index and gap:
            text.append(gap)
        if key_peg == NO_PEG:
            text.append(key_peg, style=Style(dim=True))
        else:
            text.append(key_peg, style=Style(bold=True))
    return text


def feedback_grid(result: Feedback, length: int, *, scheme: PegScheme | None = None) -> Text:
    r"""Key pegs in a compact two-row grid, like the small holes of a board (``"● ●\\n○ ·"`` for 4)."""
    scheme = scheme or current_scheme()
    pegs = _key_peg_sequence(result, length)
    columns = max(math.ceil(length / 2), 1)
    top, bottom = pegs[:columns], pegs[columns:]
    text = _styled_key_pegs(top, scheme)
    text.append("\n")
    text.append_text(_styled_key_pegs(bottom, scheme))
    # Pad the shorter row so the cell keeps its shape for odd lengths.
    if len(bottom) < len(top):
        text.append("  " * (len(top) - len(bottom)))
    return text


def feedback_row(result: Feedback, length: int, *, scheme: PegScheme | None = None, gap: str = " ") -> Text:
    """Key pegs on one line: ``"● ○ ○ ·"`` (``"●○○·"`` with ``gap=""``, where room is short), blacks first
    (counts only, never positions).
    """
    return _styled_key_pegs(_key_peg_sequence(result, length), scheme or current_scheme(), gap)


def feedback_summary(result: Feedback) -> str:
    """Feedback in words: ``"1 black, 2 white"``."""
    return f"{result.black} black, {result.white} white"
