"""What the app needs from a store, and opening one: a data folder (the default) or a PostgreSQL database.

Both stores keep SPEC §7's promises behind the same methods: :class:`~.store.Store` in a folder of
JSON files, :class:`~.pgstore.PostgresStore` in a database many servers share. Nothing outside this
module and the two stores needs to know which one it has. PostgreSQL's driver is imported only
when a database is chosen.
"""

from __future__ import annotations

import os
from typing import Protocol, runtime_checkable

from .halloffame import HallEntry, HallOfFame
from .records import GameRecord
from .users import User, UserRegistry

DATABASE_SCHEMES = ("postgresql://", "postgres://")


@runtime_checkable
class StoreLike(Protocol):
    """Users, the hall of fame and finished games; every failure to read or write is a ``StoreError``."""

    def check(self) -> None:
        """Validate everything kept; raise ``StoreError`` naming the first bad file or row."""

    def users(self) -> UserRegistry:
        """All registered users, in registration order."""

    def scoreboard(self) -> list[User]:
        """Users by score, highest first, then name."""

    def user(self, name: str) -> User | None:
        """The user with this name in any case, or ``None``."""

    def hall_of_fame(self) -> HallOfFame:
        """The hall of fame."""

    def games(self) -> list[GameRecord]:
        """Every finished game, oldest first."""

    def games_with_ids(self) -> list[tuple[str, GameRecord]]:
        """Every finished game with its id, oldest first."""

    def register(self, name: str) -> User:
        """A new user with 0 points; ``NameRejected`` with the reason if the name is bad or taken."""

    def record_game(self, record: GameRecord) -> str:
        """Keep a finished game (and apply a World of Mastermind game's points exactly once); its id."""

    def submit_hall_entry(self, entry: HallEntry) -> bool:
        """Make ``entry`` the record for its ruleset if it beats the current one; True if it did."""

    def close(self) -> None:
        """Release connections (nothing to do for a folder)."""


def is_database_url(location: str | os.PathLike[str] | None) -> bool:
    """True for ``postgresql://…`` (or ``postgres://…``), false for a folder."""
    return isinstance(location, str) and location.startswith(DATABASE_SCHEMES)


def open_store(location: str | os.PathLike[str]) -> StoreLike:
    """The store at ``location``: a PostgreSQL URL, or else a data folder. ``StoreError`` if unusable."""
    if is_database_url(location):
        from .pgstore import PostgresStore

        return PostgresStore(str(location))
    from .store import Store

    return Store(location)


__all__ = ["StoreLike", "is_database_url", "open_store"]
