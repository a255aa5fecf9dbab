"""``wom-tui users list|bind|unbind``: the operator's view of names and the SSH keys that sign in as them.

Bad input (an unknown name, a malformed key, a key already bound to someone else) prints one
clear line and exits with status 2 without writing anything; a data folder or database the store
refuses exits with status 1. ``--store``/``WOM_STORE`` choose a PostgreSQL database, as for play.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from ..settings import Settings

USAGE_ERROR = 2
STORE_ERROR = 1


def fingerprint_of(public_key: str) -> str:
    """The SHA256 fingerprint of an OpenSSH public key line; ValueError with the reason if it is not one."""
    import asyncssh

    text = public_key.strip()
    if not text:
        raise ValueError("the key is empty")
    if "PRIVATE KEY" in text:
        raise ValueError("that is a private key; give the public one (the .pub file)")
    try:
        key = asyncssh.import_public_key(text)
    except (asyncssh.KeyImportError, ValueError, TypeError) as exc:
        raise ValueError(f"not an SSH public key ({exc})") from None
    return key.get_fingerprint()


def format_users(users: list[object]) -> str:
    """The ``users list`` table: name, score, games, then one line per key fingerprint."""
    from ..domain.users import User

    rows = [user for user in users if isinstance(user, User)]
    if not rows:
        return "No users yet.\n"
    width = max(4, *(len(user.name) for user in rows))
    lines = [f"{'Name':<{width}}  {'Score':>5}  {'Games':>5}  Keys"]
    for user in rows:
        keys = list(user.keys) or ["(none: registered locally; bind one with `wom-tui users bind`)"]
        lines.append(f"{user.name:<{width}}  {user.score:>5}  {user.games:>5}  {keys[0]}")
        lines.extend(f"{'':<{width}}  {'':>5}  {'':>5}  {key}" for key in keys[1:])
    return "\n".join(lines) + "\n"


def run_users_command(args: argparse.Namespace, settings: Settings, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run ``users list``, ``users bind`` or ``users unbind``; return the exit status."""
    from ..domain.keys import KeyRejected, check_fingerprint
    from ..domain.store import StoreError
    from ..settings import open_store

    out = out or sys.stdout
    err = err or sys.stderr
    command = args.users_command

    def refuse(reason: str) -> int:
        print(f"wom-tui users {command}: {reason}", file=err)
        return USAGE_ERROR

    fingerprint = None
    if command == "bind":
        try:
            fingerprint = fingerprint_of(args.key)
        except ValueError as exc:
            return refuse(str(exc))
    elif command == "unbind":
        try:
            fingerprint = check_fingerprint(args.fingerprint)
        except KeyRejected as exc:
            return refuse(exc.reason)
    if not settings.store and not settings.data_dir.exists():
        # A folder that does not exist holds no users; looking must not create it.
        if command == "list":
            out.write(format_users([]))
            return 0
        return refuse(f"there is no user called {args.name!r} (see `wom-tui users list`)")
    store = None
    try:
        store = open_store(settings)
        if command == "list":
            out.write(format_users(list(store.users())))
            return 0
        assert fingerprint is not None
        if store.user(args.name) is None:
            return refuse(f"there is no user called {args.name!r} (see `wom-tui users list`)")
        if command == "bind":
            user = store.bind_key(args.name, fingerprint)
            print(f"{fingerprint} now signs in as {user.name}.", file=out)
        else:
            user = store.unbind_key(args.name, fingerprint)
            print(f"{fingerprint} no longer signs in as {user.name}.", file=out)
        return 0
    except KeyRejected as exc:
        return refuse(exc.reason)
    except StoreError as exc:
        where = "the database" if settings.store else "the data folder"
        print(f"wom-tui users {command}: cannot use {where}: {exc}", file=err)
        return STORE_ERROR
    finally:
        if store is not None:
            store.close()
