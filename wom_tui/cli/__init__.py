"""The command line: ``wom-tui [--data-dir PATH] [--store URL] [--seed N] [--debug]``, ``serve``, ``users``, ``store`` and ``ratings``."""

from __future__ import annotations

from collections.abc import Sequence

from .parser import build_parser, check_scope, settings_from_args


def main(argv: Sequence[str] | None = None) -> int:
    """Run the app, the SSH server, a users, store or ratings command, and return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    check_scope(parser, args)
    settings = settings_from_args(args)
    if args.command == "store":
        from .store import run_store_command

        return run_store_command(args)
    if args.command == "serve":
        from .. import serve

        return serve.run_server(settings)
    if args.command == "ratings":
        from .ratings import run_ratings_command

        return run_ratings_command(args, settings)
    if args.command == "arena":
        from .arena import run_arena_command

        return run_arena_command(args, settings)
    if args.command == "users":
        from .users import run_users_command

        return run_users_command(args, settings)
    if args.line:
        from ..line.terminal import run_local

        return run_local(settings)
    from .. import launch
    from ..domain.identity import Identity

    return launch.play(settings, Identity.local())


__all__ = ["build_parser", "main"]
