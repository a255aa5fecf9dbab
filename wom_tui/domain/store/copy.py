"""Moving a whole arcade between stores: a data folder into PostgreSQL and back, nothing lost.

The copy takes users (names, points, games played, the SSH keys that sign in as them, in
registration order), the hall of fame, every finished game record with its id, the theme each
identity chose and the choices it remembers on each setup form, the daily code's secret, every daily
attempt and every browser session (only its token's hash, so a browser signed in stays signed in after
the move), exactly; points are copied, not
recomputed from games. Pending one-time codes (to link a key or sign a browser in) are not copied: a
code lives ten minutes, and a player whose code was lost asks for a new one.
It refuses a target that holds anything, and counts both sides so the person copying can see
that they agree. It goes through the stores' :class:`~.api.Admin` role only.
"""

from __future__ import annotations

import os
from pathlib import Path

from . import is_database_url, open_store
from .api import Arcade, StoreError


def copy_arcade(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> tuple[dict[str, int], dict[str, int]]:
    """Copy everything from ``source`` to the empty ``target`` (folders or PostgreSQL URLs).

    Returns the totals read from the source and then from the target (a folder is read back whole,
    a database counts what it holds); ``StoreError``
    (with nothing written) if the source is unreadable or the target not empty.
    """
    if not is_database_url(source) and not Path(source).is_dir():
        raise StoreError(source, "no such data folder")
    origin = open_store(source)
    try:
        arcade = Arcade.read(origin)
    finally:
        origin.close()
    destination = open_store(target)
    try:
        if not destination.is_empty():
            raise StoreError(destination.location,
                             "the target already holds an arcade; a copy only goes into an empty one")
        destination.load(arcade)
        copied = destination.totals()
    finally:
        destination.close()
    return arcade.totals(), copied


__all__ = ["copy_arcade"]
