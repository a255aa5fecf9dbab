"""Every game mode, registered once: the menu, its keys, the command palette and the help are built from here.

A new mode is one :class:`Mode` in :data:`MODES` (its setup screen is imported when first opened) plus
its screens under ``screens/`` and its rules under ``domain/``; see docs/develop.md.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from .domain.game import GameKind


@dataclass(frozen=True)
class Mode:
    """A way to play: the menu ``key``, its ``title``, what it does, the kinds of game it records, its setup screen."""

    name: str
    """The mode's name, as in the app's action ``mode('wom')``."""
    key: str
    """The main menu's key."""
    title: str
    """The menu's and the command palette's label."""
    footer: str
    """The short label in the main menu's footer."""
    description: str
    """The command palette's help line."""
    kinds: tuple[GameKind, ...]
    """The kinds of game this mode records."""
    setup: str
    """Its setup screen, ``"module:Class"``, imported when the mode is first opened."""

    @property
    def action(self) -> str:
        """The app action that opens the mode's setup screen."""
        return f"mode('{self.name}')"

    def setup_screen(self) -> Any:
        """A new setup screen for this mode."""
        module_name, class_name = self.setup.split(":")
        return getattr(importlib.import_module(module_name), class_name)()


MODES: tuple[Mode, ...] = (
    Mode(
        "wom", "p", "Play World of Mastermind", "Play", "Set up a game for 2-4 players", (GameKind.WOM,),
        "wom_tui.screens.wom_setup:WomSetupScreen",
    ),
    Mode(
        "solo", "o", "Solo game", "Solo", "Break a code on your own", (GameKind.SOLO, GameKind.COMPUTER_BREAKS),
        "wom_tui.screens.solo_setup:SoloSetupScreen",
    ),
)
"""Every mode, in menu order."""

BY_NAME = {mode.name: mode for mode in MODES}
"""The modes by name."""
