"""``wom-tui store migrate`` and ``wom-tui store copy --from A --to B``: the store, for operators."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO


def add_store_command(sub: Any) -> None:
    """Add ``store`` with its ``migrate`` and ``copy`` commands to the top-level subparsers."""
    store = sub.add_parser("store", help="set up a PostgreSQL store, or copy an arcade between stores")
    commands = store.add_subparsers(dest="store_command", required=True, metavar="{migrate,copy}")
    migrate = commands.add_parser(
        "migrate", help="create or upgrade the database's tables (the app also does it when it starts)")
    migrate.add_argument("--store", default=argparse.SUPPRESS, metavar="URL",
                         help="postgresql://user@host/db (default: $WOM_STORE)")
    copy = commands.add_parser(
        "copy", help="copy users, points, hall of fame, every game record, themes and daily attempts into an empty store")
    copy.add_argument("--from", dest="source", required=True, metavar="DATA_DIR|URL",
                      help="a data folder or postgresql://… to copy from")
    copy.add_argument("--to", dest="target", required=True, metavar="DATA_DIR|URL",
                      help="an empty data folder or database to copy into")


def _where(location: str) -> str:
    from ..domain.store import shown_location

    return shown_location(location)


def run_store_command(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run ``store migrate`` or ``store copy``; print what was done, or why not; the exit status."""
    from ..domain.store import StoreError
    from ..domain.store import is_database_url
    from ..settings import resolve_store

    out = out or sys.stdout
    err = err or sys.stderr
    try:
        if args.store_command == "migrate":
            url = resolve_store(getattr(args, "store", None))
            if not is_database_url(url):
                print("wom-tui store migrate: give the database with --store postgresql://user@host/db "
                      "(or WOM_STORE); a data folder needs no migration", file=err)
                return 2
            from ..domain.store.postgres.store import migrate_database

            version, applied = migrate_database(str(url))
            if applied:
                for migration in applied:
                    print(f"{_where(str(url))}: applied migration {migration.version} ({migration.description})",
                          file=out)
            print(f"{_where(str(url))}: schema version {version}, up to date", file=out)
            return 0
        return _copy(args.source, args.target, out, err)
    except StoreError as error:
        print(f"wom-tui store {args.store_command}: {error}", file=err)
        return 1


def _copy(source: str, target: str, out: TextIO, err: TextIO) -> int:
    from ..domain.store.copy import copy_arcade

    before, after = copy_arcade(source, target)
    left, right = _where(source), _where(target)
    width = max(len(key) for key in before)
    print(f"{'':{width}}  {'from':>10}  {'to':>10}", file=out)
    for key, value in before.items():
        mark = "" if after[key] == value else "  <- differs"
        print(f"{key:{width}}  {value:>10,}  {after[key]:>10,}{mark}", file=out)
    if before != after:
        print(f"wom-tui store copy: the copy in {right} does not match {left}", file=err)
        return 1
    print(f"Copied {left} to {right}: everything matches.", file=out)
    return 0
