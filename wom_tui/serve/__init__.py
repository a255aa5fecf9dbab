"""``wom-tui serve``: host the full game for SSH clients, one game process per connection (docs/serve.md)."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..settings import Settings


def run_server(settings: Settings) -> int:
    """Run the SSH server until Ctrl-C or SIGTERM; return the exit status."""
    if settings.store:
        from ..domain.store import StoreError
        from ..settings import STORE_ENV, open_store

        try:
            open_store(settings).close()  # creates or upgrades the tables once; unreachable is said now
        except StoreError as error:
            print(f"wom-tui serve: cannot use the database: {error}", file=sys.stderr)
            return 1
        # Each game gets the URL in its settings, as data; the environment the games inherit carries it
        # too (never the command line, which any user of the machine can read).
        os.environ[STORE_ENV] = settings.store
    from .server import run_server as _run_server

    return _run_server(settings)


__all__ = ["run_server"]
