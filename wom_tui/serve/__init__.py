"""``wom-tui serve``: host the full game for SSH clients, one app process per connection.

This package's ``__init__`` stays tiny on purpose: every served session starts
``python -m wom_tui.serve.child``, which imports this package first, and the
game process should not pay for importing asyncssh.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..options import Options


def run_server(args: argparse.Namespace, options: Options) -> int:
    """Run the SSH server until Ctrl-C or SIGTERM; return the exit status."""
    from .server import run_server as _run_server

    return _run_server(args, options)


__all__ = ["run_server"]
