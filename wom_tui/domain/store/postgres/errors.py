"""How the PostgreSQL store names its database and says what went wrong."""

from __future__ import annotations

import psycopg
from psycopg.conninfo import conninfo_to_dict

from ..api import StoreError


class DatabaseError(StoreError):
    """The database cannot be reached or holds a bad row; ``str`` is "<database>: <reason>".

    ``path`` is the database's description without its password (as :func:`describe` gives it),
    so the app shows it where it shows a damaged file's path.
    """

    label = "Database:"
    """What the store-error screen calls :attr:`path`."""
    advice = ("Nothing has been changed. Check that the database is running and reachable, or repair "
              "the row, then press r to try again.")
    """What the store-error screen suggests."""

    def __init__(self, database: str, reason: str) -> None:
        Exception.__init__(self, f"{database}: {reason}")
        self.path = database  # type: ignore[assignment]
        self.reason = reason


def describe(url: str) -> str:
    """``postgresql://user@host:port/dbname`` for messages: never the password or other options."""
    try:
        params = conninfo_to_dict(url)
    except psycopg.Error:
        return "postgresql://(an unreadable address)"
    user = str(params.get("user") or "")
    host = params.get("host") or "localhost"
    port = params.get("port")
    dbname = params.get("dbname") or user or ""
    where = f"{host}:{port}" if port else str(host)
    return f"postgresql://{user + '@' if user else ''}{where}/{dbname}"


def driver_reason(exc: BaseException) -> str:
    """The first meaningful line of a driver error, without libpq's hints."""
    text = str(exc).strip() or type(exc).__name__
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[0] if lines else type(exc).__name__


__all__ = ["DatabaseError", "describe", "driver_reason"]
