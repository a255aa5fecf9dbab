"""The app's own theme: colour-blind-safe colours for the board and the pegs."""

from __future__ import annotations

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
