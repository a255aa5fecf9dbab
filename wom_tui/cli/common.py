"""What every store-reading command shares: opening the settings' store, and saying why it cannot be used."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, TextIO

from ..settings import Settings, open_store

if TYPE_CHECKING:
    from ..domain.store import Store

STORE_ERROR = 1
"""The exit status of a command whose folder or database cannot be used."""
USAGE_ERROR = 2
"""The exit status of a command refused for what it was given (argparse's own status for bad usage)."""


@contextmanager
def opened_store(settings: Settings) -> Iterator[Store]:
    """The settings' store, closed when the command is done with it (``StoreError`` if it cannot be opened)."""
    store = open_store(settings)
    try:
        yield store
    finally:
        store.close()


def cannot_use(settings: Settings, command: str, error: Exception, err: TextIO) -> int:
    """Say on ``err`` that ``command`` cannot use the folder or database, and why; the exit status."""
    where = "the database" if settings.store else "the data folder"
    print(f"{command}: cannot use {where}: {error}", file=err)
    return STORE_ERROR
