"""The argument parser of ``wom-tui`` and its ``serve``, ``users``, ``store`` and ``ratings`` commands."""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path
from typing import Any

from .. import __version__
from ..settings import Settings, new_seed, resolve_data_dir, resolve_store
from .ratings import add_ratings_command
from .store import add_store_command

_DEFAULT = Settings(data_dir=Path(), seed=0)
"""The defaults the help texts quote (the settings' own)."""


def _seconds(text: str) -> float:
    """A number of seconds, 0 or more (for ``--seat-grace``)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError("the grace must be 0 seconds or more")
    return value


def _common(default: object = None) -> argparse.ArgumentParser:
    """The options every command takes.

    The subcommands repeat them with SUPPRESS defaults, so that ``wom-tui --data-dir X serve`` keeps X
    instead of the subcommand's default overwriting it.
    """
    options = argparse.ArgumentParser(add_help=False, argument_default=default)
    options.add_argument("--data-dir", metavar="PATH", help="data folder (default: $WOM_DATA_DIR, else the user data folder)")
    options.add_argument("--store", metavar="URL", help="keep users and games in this PostgreSQL database, "
                         "postgresql://user@host/db (default: $WOM_STORE, else the data folder)")
    options.add_argument("--seed", type=int, metavar="N", help="seed for all randomness, to replay a session exactly")
    options.add_argument("--debug", action="store_true", help="show computer players' codes (DEBUG: RGBY)")
    options.add_argument("--seat-grace", type=_seconds, metavar="SECONDS",
                         help=f"seconds a dropped player keeps their seat at a table (default {_DEFAULT.seat_grace:g})")
    return options


def _add_serve_command(sub: Any) -> None:
    serve = sub.add_parser("serve", parents=[_common(argparse.SUPPRESS)], help="host the game for SSH clients")
    serve.add_argument("--host", default=_DEFAULT.host, help=f"address to listen on (default {_DEFAULT.host})")
    serve.add_argument("--port", type=int, default=_DEFAULT.port,
                       help=f"port to listen on (default {_DEFAULT.port}; 0 picks one)")
    serve.add_argument("--max-sessions", type=int, default=_DEFAULT.max_sessions, metavar="N",
                       help=f"concurrent sessions allowed (default {_DEFAULT.max_sessions})")
    serve.add_argument("--max-per-ip", type=int, default=_DEFAULT.max_per_ip, metavar="N",
                       help=f"concurrent sessions from one address (default {_DEFAULT.max_per_ip})")
    serve.add_argument("--idle-timeout", type=float, default=_DEFAULT.idle_timeout, metavar="SECONDS",
                       help=f"close idle sessions after this (default {_DEFAULT.idle_timeout:g})")
    serve.add_argument("--host-key", metavar="PATH", help="host key file (default: ssh_host_ed25519_key in the data folder)")
    serve.add_argument("--authorized-keys", metavar="FILE", help="only let in clients with a key listed here")
    serve.add_argument("--no-guests", action="store_true", help="turn away clients without an SSH key")


def _add_users_command(sub: Any) -> None:
    users = sub.add_parser("users", parents=[_common(argparse.SUPPRESS)], help="list users, bind or unbind their SSH keys")
    users_sub = users.add_subparsers(dest="users_command", required=True, metavar="{list,bind,unbind}")
    users_sub.add_parser("list", parents=[_common(argparse.SUPPRESS)], help="name, score, games and key fingerprints")
    bind = users_sub.add_parser("bind", parents=[_common(argparse.SUPPRESS)], help="let an SSH key sign in as NAME")
    bind.add_argument("name", metavar="NAME")
    bind.add_argument("--key", required=True, metavar="PUBLIC_KEY", help='the public key, e.g. "ssh-ed25519 AAAA... alan@home"')
    unbind = users_sub.add_parser("unbind", parents=[_common(argparse.SUPPRESS)], help="take a key from NAME")
    unbind.add_argument("name", metavar="NAME")
    unbind.add_argument("fingerprint", metavar="FINGERPRINT", help="as `wom-tui users list` shows it (SHA256:...)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for ``wom-tui`` and its ``serve``, ``users``, ``store`` and ``ratings`` commands."""
    parser = argparse.ArgumentParser(prog="wom-tui", description="World of Mastermind in the terminal.", parents=[_common()])
    parser.add_argument("--version", action="version", version=f"wom-tui {__version__}")
    sub = parser.add_subparsers(dest="command")
    _add_serve_command(sub)
    _add_users_command(sub)
    add_store_command(sub)
    add_ratings_command(sub, _common(argparse.SUPPRESS))
    return parser


def settings_from_args(args: argparse.Namespace) -> Settings:
    """The settings the parsed command line asks for (the defaults for what it leaves out)."""
    settings = Settings(
        data_dir=resolve_data_dir(args.data_dir),
        seed=args.seed if args.seed is not None else new_seed(),
        debug=args.debug,
        store=resolve_store(args.store),
    )
    if args.seat_grace is not None:
        settings = replace(settings, seat_grace=args.seat_grace)
    if args.command != "serve":
        return settings
    return replace(
        settings,
        data_dir=settings.data_dir.absolute(),
        host=args.host, port=args.port, max_sessions=args.max_sessions, max_per_ip=args.max_per_ip,
        no_guests=args.no_guests, idle_timeout=args.idle_timeout,
        host_key=Path(args.host_key).expanduser() if args.host_key else None,
        authorized_keys=Path(args.authorized_keys).expanduser() if args.authorized_keys else None,
    )
