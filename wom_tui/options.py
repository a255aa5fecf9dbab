"""Options the entry point hands to the app and the server: where data lives, the seed, debug."""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from pathlib import Path

import platformdirs

DATA_DIR_ENV = "WOM_DATA_DIR"


def resolve_data_dir(arg: str | os.PathLike[str] | None) -> Path:
    """``--data-dir`` if given, else ``$WOM_DATA_DIR``, else the platform's user data folder."""
    if arg:
        return Path(arg).expanduser()
    env = os.environ.get(DATA_DIR_ENV)
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir("wom-tui", appauthor=False))


def new_seed() -> int:
    """A fresh seed for a session started without ``--seed`` (kept so it can be shown and replayed)."""
    return random.SystemRandom().randrange(2**32)


@dataclass(frozen=True)
class Options:
    """Session options: data folder, the one seed all randomness flows from, debug, and pacing."""

    data_dir: Path
    seed: int
    debug: bool = False
    served: bool = False
    """True when the app runs for an SSH client: nothing may write files on the server."""
    computer_pace: float = 0.7
    """Seconds between a computer player's moves, so a person can follow them (0 in tests)."""
    seat_grace: float = 120.0
    """Seconds a dropped player keeps their seat at a live table (``--seat-grace``)."""
