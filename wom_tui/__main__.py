"""The command line: ``wom-tui [--data-dir PATH] [--store URL] [--seed N] [--debug]``, ``serve`` and ``store``."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence

from . import __version__
from .options import Options, new_seed, resolve_data_dir, resolve_store


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for ``wom-tui`` and its ``serve`` command."""
    def common(default: object = None) -> argparse.ArgumentParser:
        # The serve command repeats the options with SUPPRESS defaults, so that
        # `wom-tui --data-dir X serve` keeps X instead of the subcommand's default overwriting it.
        options = argparse.ArgumentParser(add_help=False, argument_default=default)
        options.add_argument("--data-dir", metavar="PATH", help="data folder (default: $WOM_DATA_DIR, else the user data folder)")
        options.add_argument("--store", metavar="URL", help="keep users and games in this PostgreSQL database, "
                             "postgresql://user@host/db (default: $WOM_STORE, else the data folder)")
        options.add_argument("--seed", type=int, metavar="N", help="seed for all randomness, to replay a session exactly")
        options.add_argument("--debug", action="store_true", help="show computer players' codes (DEBUG: RGBY)")
        # Set by `wom-tui serve` for each SSH session: the app then offers nothing that writes files.
        options.add_argument("--served", action="store_true", help=argparse.SUPPRESS)
        return options

    parser = argparse.ArgumentParser(prog="wom-tui", description="World of Mastermind in the terminal.", parents=[common()])
    parser.add_argument("--version", action="version", version=f"wom-tui {__version__}")
    sub = parser.add_subparsers(dest="command")
    serve = sub.add_parser("serve", parents=[common(argparse.SUPPRESS)], help="host the game for SSH clients")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=2222, help="port to listen on (default 2222; 0 picks one)")
    serve.add_argument("--max-sessions", type=int, default=32, metavar="N", help="concurrent sessions allowed (default 32)")
    serve.add_argument("--idle-timeout", type=float, default=600, metavar="SECONDS", help="close idle sessions after this (default 600)")
    serve.add_argument("--host-key", metavar="PATH", help="host key file (default: ssh_host_ed25519_key in the data folder)")
    serve.add_argument("--authorized-keys", metavar="FILE", help="only let in clients with a key listed here")
    from .store_cli import add_store_command

    add_store_command(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the app (or the SSH server) and return the exit status."""
    args = build_parser().parse_args(argv)
    options = Options(
        data_dir=resolve_data_dir(args.data_dir),
        seed=args.seed if args.seed is not None else new_seed(),
        debug=args.debug,
        served=args.served,
        store=resolve_store(args.store),
    )
    if args.command == "store":
        from .store_cli import run_store_command

        return run_store_command(args)
    if args.command == "serve":
        from .serve import run_server

        return run_server(args, options)

    from .app import run_app

    return run_app(options, random.Random(options.seed))


if __name__ == "__main__":
    sys.exit(main())
