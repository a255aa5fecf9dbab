"""The rules of World of Mastermind: pure Python, no Textual (STYLE.md, "the shape")."""

from .codes import (
    DIGITS8,
    DIGITS10,
    PALETTES,
    RAINBOW,
    SOLO_RULESET,
    WOM,
    WOM_RULESET,
    Feedback,
    InvalidCode,
    Palette,
    Ruleset,
    feedback,
)
from .records import GameRecord, PlayerRecord
from .users import COMPUTER_NAMES, NameRejected, User, UserRegistry, check_name

__all__ = [
    "COMPUTER_NAMES",
    "DIGITS8",
    "DIGITS10",
    "PALETTES",
    "RAINBOW",
    "SOLO_RULESET",
    "WOM",
    "WOM_RULESET",
    "Feedback",
    "GameRecord",
    "InvalidCode",
    "NameRejected",
    "Palette",
    "PlayerRecord",
    "Ruleset",
    "User",
    "UserRegistry",
    "check_name",
    "feedback",
]
