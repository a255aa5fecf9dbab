"""Options the entry point hands to the app and the server: where data lives, the seed, debug."""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import platformdirs

if TYPE_CHECKING:
    from .domain.store import Store

DATA_DIR_ENV = "WOM_DATA_DIR"
STORE_ENV = "WOM_STORE"


def resolve_data_dir(arg: str | os.PathLike[str] | None) -> Path:
    """``--data-dir`` if given, else ``$WOM_DATA_DIR``, else the platform's user data folder."""
    if arg:
        return Path(arg).expanduser()
    env = os.environ.get(DATA_DIR_ENV)
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir("wom-tui", appauthor=False))


def resolve_store(arg: str | None) -> str | None:
    """``--store`` if given, else ``$WOM_STORE``, else ``None`` (the data folder keeps everything)."""
    return arg or os.environ.get(STORE_ENV) or None


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
    store: str | None = None
    """A PostgreSQL URL (``--store`` / ``$WOM_STORE``) keeping users and games instead of the data folder."""
    seat_grace: float = 120.0
    """Seconds a dropped player keeps their seat at a live table (``--seat-grace``)."""


def open_store(options: Options) -> Store:
    """The one place a store is chosen: the database of ``options.store``, else the data folder.

    ``StoreError`` (naming the folder or the database, without its password) if it cannot be used.
    """
    from .domain.store import is_database_url
    from .domain.store import open_store as open_location

    if options.store and not is_database_url(options.store):
        from .domain.store import StoreError

        raise StoreError(options.store, "not a PostgreSQL address (postgresql://user@host/db); "
                                        "a data folder is given with --data-dir")
    return open_location(options.store or options.data_dir)
