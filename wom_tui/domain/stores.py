"""What the app needs from a store, and opening one: a data folder (the default) or a PostgreSQL database.

Both stores keep SPEC §7's promises behind the same methods: :class:`~.store.Store` in a folder of
JSON files, :class:`~.pgstore.PostgresStore` in a database many servers share. Nothing outside this
module and the two stores needs to know which one it has. PostgreSQL's driver is imported only
when a database is chosen.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

from .halloffame import HallEntry, HallOfFame
from .records import GameRecord
from .users import User, UserRegistry

if TYPE_CHECKING:  # the live state and the table rules load only when a live screen needs them
    from .codes import Ruleset
    from .live import ChangeFeed, Listing, Presence
    from .table import SeatHolder, Table

DATABASE_SCHEMES = ("postgresql://", "postgres://")

T = TypeVar("T")


class LiveLike(Protocol):
    """Tables, live games, presence and the change feed (``store.live``): :class:`.live.LiveState` in a
    folder, :class:`.pglive.PostgresLive` in a database. Both share :class:`.live.TableRules`.
    """

    clock: Callable[[], float]

    def join(self, name: str, registered: bool, session: str | None = None) -> Presence:
        """Announce a session online; returns it."""

    def join_guest(self, session: str) -> Presence:
        """Announce a guest session online as ``Guest N``, N the smallest no other online guest has
        (chosen and written at once: two guests arriving together get two numbers); returns it.
        """

    def heartbeat(self, presence: Presence) -> None:
        """Keep a session online (joining again if its record was collected)."""

    def part(self, session: str) -> None:
        """A session ending cleanly."""

    def sessions(self) -> list[Presence]:
        """Sessions online now, oldest first."""

    def create_table(
        self, creator: SeatHolder, *, seats: int = ..., attempts: int = ..., ruleset: Ruleset = ...,
        seed: int = ..., grace: float = ..., pace: tuple[float, float] = ...,
    ) -> Table:
        """Open a new table with ``creator`` in seat 1 (the rules' defaults are the implementations')."""

    def table(self, table_id: str) -> Table | None:
        """One table as kept now, or None."""

    def tables(self) -> Listing:
        """Every table, and the damaged ones found (closed, reported)."""

    def update_table(self, table_id: str, change: Callable[[Table], T]) -> T:
        """Compare-and-swap one table (recording its game exactly once when it finishes)."""

    def act(self, table_id: str, action: Callable[[Table, float], T]) -> T:
        """``update_table`` with the clock, presence and what is due done first."""

    def tick(self, table_id: str) -> Table:
        """Bring one table up to date."""

    def sweep(self) -> Listing:
        """Housekeeping: stale presences, every table up to date, old ended tables removed."""

    def claim_sweep(self, interval: float) -> bool:
        """True if this process should sweep now (False: another one sharing the store just did)."""

    def feed(self, *, polling: bool = False) -> ChangeFeed:
        """The change feed."""


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

    def user_for_key(self, fingerprint: str) -> User | None:
        """The user holding the SSH key with this fingerprint, or ``None``."""

    def register(self, name: str, key: str | None = None) -> User:
        """A new user with 0 points (holding ``key`` if given); ``NameRejected``/``KeyRejected`` with the reason."""

    def bind_key(self, name: str, fingerprint: str) -> User:
        """Let a key sign in as ``name``; ``KeyRejected`` if the name is unknown or the key someone else's."""

    def unbind_key(self, name: str, fingerprint: str) -> User:
        """Take a key from ``name``; ``KeyRejected`` if they do not hold it."""

    def issue_link_code(self, fingerprint: str, now: datetime | None = None) -> str:
        """A one-time code (ten minutes, once) to link another key to the name ``fingerprint`` signs in as."""

    def redeem_link_code(self, typed: str, fingerprint: str, now: datetime | None = None) -> User:
        """Bind ``fingerprint`` to the name a valid code was issued for, using the code up; ``KeyRejected`` if not."""

    def record_game(self, record: GameRecord, *, game_id: str | None = None) -> str:
        """Keep a finished game (and apply a World of Mastermind game's points exactly once, also when
        asked again with the same ``game_id``); its id.
        """

    def submit_hall_entry(self, entry: HallEntry) -> bool:
        """Make ``entry`` the record for its ruleset if it beats the current one; True if it did."""

    def solo_in_progress(self, identity: str) -> dict[str, Any] | None:
        """The solo game ``identity`` left unfinished (``SoloGame.as_json`` data), or None."""

    def keep_solo(self, identity: str, game: dict[str, Any]) -> None:
        """Keep ``identity``'s solo game in progress (after every move), replacing any; ``ValueError`` if not one."""

    def drop_solo(self, identity: str) -> None:
        """Forget ``identity``'s solo game in progress (it ended, or was abandoned on purpose)."""

    @property
    def live(self) -> LiveLike:
        """Tables, live games, presence and the change feed kept with this store."""

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


__all__ = ["LiveLike", "StoreLike", "is_database_url", "open_store"]
