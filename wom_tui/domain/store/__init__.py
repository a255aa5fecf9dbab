"""The persistence wing of the domain: users, games, the hall of fame and the live state, kept in a
data folder (the default) or a PostgreSQL database.

Callers hold a :class:`~.api.Store` (the roles in :mod:`.api`) and open one with :func:`open_store`;
nothing else needs to know which backend it has. PostgreSQL's driver is imported only when a
database is chosen. The rules (the rest of :mod:`wom_tui.domain`) never import this package.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from .api import Store, StoreError

if TYPE_CHECKING:  # mypy proves here that both backends keep every role
    from .api import Live
    from .folder.store import FolderStore
    from .postgres.store import PostgresStore

    def _both_conform(folder: FolderStore, database: PostgresStore) -> tuple[Store, Store, Live, Live]:
        return folder, database, folder.live, database.live

DATABASE_SCHEMES = ("postgresql://", "postgres://")


def is_database_url(location: str | os.PathLike[str] | None) -> bool:
    """True for ``postgresql://…`` (or ``postgres://…``), false for a folder."""
    return isinstance(location, str) and location.startswith(DATABASE_SCHEMES)


def shown_location(location: str | os.PathLike[str]) -> str:
    """``location`` as the person gave it, for messages: a database URL without its password.

    The password goes from the user part (``user:secret@``) and from the options (``?password=…``);
    everything else (scheme, host, port, database, other options) stays as typed.
    """
    text = os.fspath(location)
    if not is_database_url(text):
        return text
    parts = urlsplit(text)
    netloc = parts.netloc
    if "@" in netloc:
        user, _, where = netloc.rpartition("@")
        netloc = f"{user.partition(':')[0]}@{where}"
    query = "&".join(option for option in parts.query.split("&")
                     if option and option.partition("=")[0].lower() != "password")
    # (Not urlunsplit: it drops the "//" of an empty host, postgresql:///db.)
    return f"{parts.scheme}://{netloc}{parts.path}" + (f"?{query}" if query else "") \
        + (f"#{parts.fragment}" if parts.fragment else "")


def open_store(location: str | os.PathLike[str], *, pool: int | None = None) -> Store:
    """The store at ``location``: a PostgreSQL URL (keeping at most ``pool`` connections, if given), or else a
    data folder. ``StoreError`` if unusable.
    """
    if is_database_url(location):
        from .postgres.store import PostgresStore

        return PostgresStore(str(location)) if pool is None else PostgresStore(str(location), pool_max=pool)
    from .folder.store import FolderStore

    return FolderStore(location)


__all__ = ["DATABASE_SCHEMES", "Store", "StoreError", "is_database_url", "open_store", "shown_location"]
