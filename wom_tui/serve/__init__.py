"""``wom-tui serve``: host the full game for SSH clients, one app process per connection.

This package's ``__init__`` stays tiny on purpose: every served session starts
``python -m wom_tui.serve.child``, which imports this package first, and the
game process should not pay for importing asyncssh.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..options import Options


def run_server(args: argparse.Namespace, options: Options) -> int:
    """Run the SSH server until Ctrl-C or SIGTERM; return the exit status."""
    if options.store:
        from ..domain.store import StoreError
        from ..options import STORE_ENV, open_store

        try:
            open_store(options).close()  # creates or upgrades the tables once; unreachable is said now
        except StoreError as error:
            print(f"wom-tui serve: cannot use the database: {error}", file=sys.stderr)
            return 1
        # Each session's game process opens the same database: through the environment, so that
        # the URL (and any password in it) never shows in the process list.
        os.environ[STORE_ENV] = options.store
    from .server import run_server as _run_server

    return _run_server(args, options)


__all__ = ["run_server"]
