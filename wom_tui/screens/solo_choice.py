"""What the solo setup hands to a solo game screen (a module of its own: the setup opens the game
screens, and they take this from it).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..domain.solo import SoloSetup
from ..domain.variants import Variant


@dataclass(frozen=True)
class SoloChoice:
    """What the setup screen hands to a game screen."""

    player: str
    """The name shown and recorded: a registered user's name, or ``"Guest"``."""
    is_user: bool
    setup: SoloSetup
    coach: bool = False
    computer_breaks: bool = False
    """True for "Computer breaks your code"."""
    by_hand: bool = False
    """"Computer breaks your code" only: the person scores every guess instead of typing a secret."""
    variant: Variant = Variant.CLASSIC
    """The way to play when the person breaks the code (docs/play.md, *Variants*)."""
