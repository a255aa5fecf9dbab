"""Moving a whole arcade between stores: a data folder into PostgreSQL and back, nothing lost.

The copy takes users (names, points, games played, the SSH keys that sign in as them, in
registration order), the hall of fame, every finished game record with its id, the theme each
identity chose, the daily code's secret and every daily attempt, exactly; points are copied, not
recomputed from games. Pending link codes are not copied: a code lives ten minutes, and a player
whose code was lost asks for a new one.
It refuses a target that holds anything, and counts both sides so the person copying can see
that they agree.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .daily import DailyAttempt
from .halloffame import HallOfFame
from .records import GameRecord
from .store import (
    DAILY_FILE,
    DAILY_SECRET_FILE,
    GAMES_DIR,
    HALL_FILE,
    PREFS_FILE,
    TMP_SUFFIX,
    USERS_FILE,
    Store,
    StoreError,
    _load,
    atomic_write,
    decode_prefs,
    decode_secret,
    encode_attempts,
    encode_game,
    encode_hall,
    encode_prefs,
    encode_secret,
    encode_users,
)
from .stores import StoreLike, is_database_url, open_store
from .users import User, UserRegistry


@dataclass(frozen=True)
class Arcade:
    """Everything a store keeps, read out in full."""

    users: tuple[User, ...]
    hall: HallOfFame
    games: tuple[tuple[str, GameRecord], ...]
    themes: dict[str, str]
    daily: tuple[DailyAttempt, ...]
    daily_secret: bytes | None

    def totals(self) -> dict[str, int]:
        """Counts and sums a person can compare between the two sides of a copy."""
        return {
            "users": len(self.users),
            "points": sum(user.score for user in self.users),
            "games played": sum(user.games for user in self.users),
            "SSH keys": sum(len(user.keys) for user in self.users),
            "hall of fame records": len(self.hall),
            "game records": len(self.games),
            "World of Mastermind records": sum(record.kind == "wom" for _, record in self.games),
            "theme choices": len(self.themes),
            "daily attempts": len(self.daily),
            "daily secrets": int(self.daily_secret is not None),
        }


def read_arcade(store: StoreLike) -> Arcade:
    """Everything in ``store`` (``StoreError`` if anything in it is unreadable); nothing is written."""
    if isinstance(store, Store):
        themes = _load(store.prefs_path, decode_prefs) or {}
        secret = _load(store.data_dir / DAILY_SECRET_FILE, decode_secret)
    else:
        themes = store.themes()  # type: ignore[attr-defined]
        secret = store.daily_secret_kept()  # type: ignore[attr-defined]
    return Arcade(tuple(store.users()), store.hall_of_fame(), tuple(store.games_with_ids()), themes,
                  tuple(store.daily_attempts()), secret)  # type: ignore[attr-defined]


FOLDER_FILES = (USERS_FILE, HALL_FILE, PREFS_FILE, DAILY_FILE, DAILY_SECRET_FILE)
"""The files of a folder that hold part of an arcade (beside the games)."""


def _folder_is_empty(store: Store) -> bool:
    if any((store.data_dir / name).exists() for name in FOLDER_FILES):
        return False
    return not any(name.endswith(".json") for name in os.listdir(store.games_dir))


def is_empty(store: StoreLike) -> bool:
    """True when the store keeps no user, game or hall-of-fame record (and, for a folder, no such file)."""
    if isinstance(store, Store):
        return _folder_is_empty(store)
    return store.is_empty()  # type: ignore[attr-defined,no-any-return]


def flush_file_system(folder: Path) -> None:
    """Put everything written under ``folder`` on its disk: ``syncfs(2)`` of the folder's file system
    on Linux (not of every file system, as ``sync`` would: other programs' unwritten data is none of
    the copy's business, and waiting for it took seconds on a busy machine), else ``sync``.
    """
    import ctypes

    try:
        syncfs = ctypes.CDLL(None, use_errno=True).syncfs
    except (OSError, AttributeError):  # not Linux (or no libc to ask): every file system, then
        if hasattr(os, "sync"):
            os.sync()
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        if syncfs(fd) != 0:
            code = ctypes.get_errno()
            raise OSError(code, os.strerror(code))
    finally:
        os.close(fd)


def write_folder(store: Store, arcade: Arcade) -> None:
    """Write ``arcade`` into the empty folder of ``store``: game files first, users.json last.

    Game files are each written under a temporary name and renamed, then flushed to disk all at
    once (:func:`flush_file_system`): one fsync per file makes 5,000 games take 20 s instead of one. Each file
    is whole or absent at any instant; if the copy is cut short, users.json is missing, and the
    folder is not empty, so copying again asks for it to be cleared first.
    """
    if not _folder_is_empty(store):
        raise StoreError(store.data_dir, "the folder already holds an arcade; a copy only goes into an empty one")
    games_dir = store.data_dir / GAMES_DIR
    try:
        for game_id, record in arcade.games:
            final = games_dir / f"{game_id}.json"
            temporary = games_dir / f".{game_id}.json{TMP_SUFFIX}"
            temporary.write_bytes(encode_game(game_id, record))
            os.replace(temporary, final)
        flush_file_system(games_dir)
        atomic_write(store.data_dir / HALL_FILE, encode_hall(arcade.hall))
        if arcade.themes:
            atomic_write(store.data_dir / PREFS_FILE, encode_prefs(arcade.themes))
        if arcade.daily_secret is not None:
            atomic_write(store.data_dir / DAILY_SECRET_FILE, encode_secret(arcade.daily_secret))  # mode 0600
        if arcade.daily:
            atomic_write(store.data_dir / DAILY_FILE, encode_attempts(arcade.daily))
        atomic_write(store.data_dir / USERS_FILE, encode_users(UserRegistry(arcade.users)))
    except OSError as exc:
        raise StoreError(store.data_dir, f"cannot write the copy ({exc.strerror or exc})") from None


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
        arcade = read_arcade(origin)
    finally:
        origin.close()
    destination = open_store(target)
    try:
        if not is_empty(destination):
            where = getattr(destination, "database", target)
            raise StoreError(where, "the target already holds an arcade; a copy only goes into an empty one")
        if isinstance(destination, Store):
            write_folder(destination, arcade)
            copied = read_arcade(destination).totals()  # every file read back as the game will read it
        else:
            destination.load(arcade)  # type: ignore[attr-defined]
            # The rows went in through COPY from records already checked: the database counts them.
            copied = destination.totals()  # type: ignore[attr-defined]
    finally:
        destination.close()
    return arcade.totals(), copied


__all__ = ["Arcade", "copy_arcade", "is_empty", "read_arcade", "write_folder"]
