"""The app's own theme: colour-blind-safe colours for the board and the pegs."""

from __future__ import annotations

from rich.color import Color as RichColor
from textual.color import Color
from textual.theme import Theme

from .pegs import COLOURBLIND_THEME

COLOURBLIND = Theme(
    name=COLOURBLIND_THEME,
    # Okabe & Ito's colours: safe for the common colour-vision deficiencies.
    primary="#56B4E9",
    secondary="#E69F00",
    accent="#F0E442",
    warning="#E69F00",
    error="#D55E00",
    success="#009E73",
    foreground="#F2F2F2",
    background="#101418",
    surface="#1A2027",
    panel="#24303A",
    dark=True,
)
"""Pick it with the command palette (Theme → wom-colourblind); the pegs follow it."""

THEMES = (COLOURBLIND,)


def rich_colour(colour: str | None) -> RichColor | None:
    """A theme colour as Rich understands it: Textual's ANSI themes name colours like ``ansi_yellow``,
    which Rich cannot parse (a lifeline message under the ansi-dark theme ended the app; the random
    run, bench/fuzz.py, seeds 9 and 10).
    """
    return None if colour is None else Color.parse(colour).rich_color
