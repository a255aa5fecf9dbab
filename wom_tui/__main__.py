"""The command line: ``wom-tui [--data-dir PATH] [--store URL] [--seed N] [--debug]``, ``serve``, ``users`` and ``store``."""

from __future__ import annotations

import argparse
import functools
import gc
import random
import sys
from collections.abc import Sequence

from . import __version__
from .options import Options, new_seed, resolve_data_dir, resolve_store


def _seconds(text: str) -> float:
    """A number of seconds, 0 or more (for ``--seat-grace``)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError("the grace must be 0 seconds or more")
    return value


@functools.cache
def build_parser() -> argparse.ArgumentParser:
    """The argument parser for ``wom-tui`` and its ``serve`` and ``users`` commands (built once: the
    warm parent of ``serve`` builds it before forking the games).
    """
    def common(default: object = None) -> argparse.ArgumentParser:
        # The subcommands repeat the options with SUPPRESS defaults, so that
        # `wom-tui --data-dir X serve` keeps X instead of the subcommand's default overwriting it.
        options = argparse.ArgumentParser(add_help=False, argument_default=default)
        options.add_argument("--data-dir", metavar="PATH", help="data folder (default: $WOM_DATA_DIR, else the user data folder)")
        options.add_argument("--store", metavar="URL", help="keep users and games in this PostgreSQL database, "
                             "postgresql://user@host/db (default: $WOM_STORE, else the data folder)")
        options.add_argument("--seed", type=int, metavar="N", help="seed for all randomness, to replay a session exactly")
        options.add_argument("--debug", action="store_true", help="show computer players' codes (DEBUG: RGBY)")
        options.add_argument("--seat-grace", type=_seconds, metavar="SECONDS",
                             help="seconds a dropped player keeps their seat at a table (default 120)")
        # Set by `wom-tui serve` for each SSH session: the app then offers nothing that writes files,
        # and plays as the key the server verified (no key: a guest). Never from the client.
        options.add_argument("--served", action="store_true", help=argparse.SUPPRESS)
        options.add_argument("--key-fingerprint", metavar="FP", help=argparse.SUPPRESS)
        options.add_argument("--log-fd", type=int, metavar="FD", help=argparse.SUPPRESS)
        return options

    parser = argparse.ArgumentParser(prog="wom-tui", description="World of Mastermind in the terminal.", parents=[common()])
    parser.add_argument("--version", action="version", version=f"wom-tui {__version__}")
    sub = parser.add_subparsers(dest="command")
    serve = sub.add_parser("serve", parents=[common(argparse.SUPPRESS)], help="host the game for SSH clients")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=2222, help="port to listen on (default 2222; 0 picks one)")
    serve.add_argument("--max-sessions", type=int, default=32, metavar="N", help="concurrent sessions allowed (default 32)")
    serve.add_argument("--max-per-ip", type=int, default=4, metavar="N", help="concurrent sessions from one address (default 4)")
    serve.add_argument("--idle-timeout", type=float, default=600, metavar="SECONDS", help="close idle sessions after this (default 600)")
    serve.add_argument("--host-key", metavar="PATH", help="host key file (default: ssh_host_ed25519_key in the data folder)")
    serve.add_argument("--authorized-keys", metavar="FILE", help="only let in clients with a key listed here")
    serve.add_argument("--no-guests", action="store_true", help="turn away clients without an SSH key")

    users = sub.add_parser("users", parents=[common(argparse.SUPPRESS)], help="list users, bind or unbind their SSH keys")
    users_sub = users.add_subparsers(dest="users_command", required=True, metavar="{list,bind,unbind}")
    users_sub.add_parser("list", parents=[common(argparse.SUPPRESS)], help="name, score, games and key fingerprints")
    bind = users_sub.add_parser("bind", parents=[common(argparse.SUPPRESS)], help="let an SSH key sign in as NAME")
    bind.add_argument("name", metavar="NAME")
    bind.add_argument("--key", required=True, metavar="PUBLIC_KEY", help='the public key, e.g. "ssh-ed25519 AAAA... alan@home"')
    unbind = users_sub.add_parser("unbind", parents=[common(argparse.SUPPRESS)], help="take a key from NAME")
    unbind.add_argument("name", metavar="NAME")
    unbind.add_argument("fingerprint", metavar="FINGERPRINT", help="as `wom-tui users list` shows it (SHA256:...)")

    from .store_cli import add_store_command

    add_store_command(sub)
    return parser


def log_to_server(fd: int) -> None:
    """A served game logs (errors, tracebacks) to the pipe the server gave it, never to the player's screen."""
    import logging
    import os

    logger = logging.getLogger("wom_tui")
    if getattr(logger, "wom_server_fd", None) == fd:
        return
    try:
        stream = os.fdopen(fd, "w", buffering=1, encoding="utf-8", errors="replace")
    except OSError:
        handler: logging.Handler = logging.NullHandler()
    else:
        handler = logging.StreamHandler(stream)
        handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    logger.wom_server_fd = fd  # type: ignore[attr-defined]
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False


def main(argv: Sequence[str] | None = None) -> int:
    """Run the app, the SSH server or a users command, and return the exit status."""
    args = build_parser().parse_args(argv)
    options = Options(
        data_dir=resolve_data_dir(args.data_dir),
        seed=args.seed if args.seed is not None else new_seed(),
        debug=args.debug,
        served=args.served,
        store=resolve_store(args.store),
        seat_grace=args.seat_grace if args.seat_grace is not None else 120.0,
    )
    if args.log_fd is not None:
        log_to_server(args.log_fd)
    if args.command == "store":
        from .store_cli import run_store_command

        return run_store_command(args)
    if args.command == "serve":
        from .serve import run_server

        return run_server(args, options)
    if args.command == "users":
        from .users_cli import run_users_command

        return run_users_command(args, options)

    # No garbage collection until the first screen is painted (the app turns it back on then): importing
    # Textual and building the first screen make objects by the hundred thousand, and the collector
    # walked them about a hundred times on the way (a twentieth of a cold start), finding next to nothing.
    gc.disable()
    try:
        from .app import run_app
        from .domain.identity import Identity

        if not args.served:
            identity = Identity.local()
        elif args.key_fingerprint:
            identity = Identity.key(args.key_fingerprint)
        else:
            identity = Identity.guest()
        return run_app(options, random.Random(options.seed), identity)
    finally:
        gc.enable()


if __name__ == "__main__":
    sys.exit(main())
