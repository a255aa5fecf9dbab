"""Widgets shared by every screen: pegs, the peg input, the message log, peg displays."""

from .message_log import MessageLog
from .peg_input import PalettePeg, PegInput, PegSlot
from .pegs import (
    COLOURBLIND,
    COLOURBLIND_THEME,
    PLAIN,
    STANDARD,
    PegScheme,
    code_pegs,
    current_scheme,
    feedback_grid,
    feedback_row,
    feedback_summary,
    peg,
)

__all__ = [
    "COLOURBLIND",
    "COLOURBLIND_THEME",
    "PLAIN",
    "STANDARD",
    "MessageLog",
    "PalettePeg",
    "PegInput",
    "PegScheme",
    "PegSlot",
    "code_pegs",
    "current_scheme",
    "feedback_grid",
    "feedback_row",
    "feedback_summary",
    "peg",
]
