"""Widgets shared by every screen: pegs, the peg input, the message log, peg displays.

Names are imported on first use (PEP 562), so that a screen importing one module of
the widgets does not pay for all of them (and the whole domain, numpy included) at start-up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_names

if TYPE_CHECKING:
    from .message_log import (
        MessageLog,
    )
    from .peg_input import (
        PalettePeg,
        PegInput,
        PegSlot,
    )
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

_SOURCES: dict[str, str] = {
    "MessageLog": "message_log",
    "PalettePeg": "peg_input",
    "PegInput": "peg_input",
    "PegSlot": "peg_input",
    "COLOURBLIND": "pegs",
    "COLOURBLIND_THEME": "pegs",
    "PLAIN": "pegs",
    "STANDARD": "pegs",
    "PegScheme": "pegs",
    "code_pegs": "pegs",
    "current_scheme": "pegs",
    "feedback_grid": "pegs",
    "feedback_row": "pegs",
    "feedback_summary": "pegs",
    "peg": "pegs",
}

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


__getattr__, __dir__ = lazy_names(__name__, globals(), _SOURCES)
