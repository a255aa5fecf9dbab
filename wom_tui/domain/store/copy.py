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

import contextlib
import os
import secrets
import shutil
from pathlib import Path

from . import is_database_url, open_store, shown_location
from .api import Arcade, StoreError

STAGING_PREFIX = ".wom-copy-"
"""The temporary folder a copy into a data folder is written to, beside the target: ``.wom-copy-<target>-<random>``."""


def copy_arcade(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> tuple[dict[str, int], dict[str, int]]:
    """Copy everything from ``source`` to the empty ``target`` (folders or PostgreSQL URLs).

    Returns the totals read from the source and then from the target (a folder is read back whole,
    a database counts what it holds); ``StoreError``
    (with nothing written) if the source is unreadable or the target not empty. A database takes the
    copy in one transaction; a data folder is written whole into a temporary folder beside it and
    renamed into place at the end, so a copy cut short (a full disk) leaves the target as it was.
    """
    if not is_database_url(source) and not Path(source).is_dir():
        raise StoreError(source, "no such data folder")
    origin = open_store(source)
    try:
        arcade = Arcade.read(origin)
    finally:
        origin.close()
    if is_database_url(target):
        return arcade.totals(), _load(target, arcade)
    return arcade.totals(), _copy_into_folder(Path(target), arcade)


def _load(location: str | os.PathLike[str], arcade: Arcade) -> dict[str, int]:
    """Write ``arcade`` into the empty store at ``location``; what it then holds."""
    destination = open_store(location)
    try:
        if not destination.is_empty():
            raise StoreError(shown_location(location),
                             "the target already holds an arcade; a copy only goes into an empty one")
        destination.load(arcade)
        return destination.totals()
    finally:
        destination.close()


def _copy_into_folder(target: Path, arcade: Arcade) -> dict[str, int]:
    """Write ``arcade`` into a new folder beside ``target`` and move it into place once it is whole."""
    if target.exists():
        _load_check_empty(target)
    parent = target.absolute().parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        staging = parent / f"{STAGING_PREFIX}{target.name}-{secrets.token_hex(4)}"
        staging.mkdir()
    except OSError as exc:
        raise StoreError.from_os(parent, "cannot make the copy's temporary folder", exc) from None
    try:
        _load(staging, arcade)
        _move_into_place(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    destination = open_store(target)
    try:
        return destination.totals()
    finally:
        destination.close()


def _load_check_empty(target: Path) -> None:
    store = open_store(target)
    try:
        if not store.is_empty():
            raise StoreError(store.location, "the target already holds an arcade; a copy only goes into an empty one")
    finally:
        store.close()


def _move_into_place(staging: Path, target: Path) -> None:
    """Rename the whole copy to ``target``; into an existing (empty) folder, entry by entry, users last."""
    try:
        if not target.exists():
            os.rename(staging, target)
        else:
            # The target folder is there already (an empty arcade, perhaps holding the server's host
            # key): the copy's entries move in, the games first and the users, which make it an
            # arcade, last; its own lock stays.
            names = sorted((n for n in os.listdir(staging) if n != ".lock"), key=lambda n: (n == "users.json", n))
            for name in names:
                os.replace(staging / name, target / name)
            shutil.rmtree(staging, ignore_errors=True)
        with contextlib.suppress(OSError):
            fd = os.open(target.absolute().parent, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
    except OSError as exc:
        raise StoreError.from_os(target, "cannot move the copy into place", exc) from None


__all__ = ["STAGING_PREFIX", "copy_arcade"]
