"""``wom-tui users``: the operator's view of names, the SSH keys that sign in as them (``list``, ``bind``,
``unbind``) and their browsers (``link-browser``, ``sessions``, ``revoke``; docs/serve.md, *Who you are
in a browser*).

Bad input (an unknown name, a malformed key, a key already bound to someone else) prints one
clear line and exits with status 2 without writing anything; a data folder or database the store
refuses exits with status 1. ``--store``/``WOM_STORE`` choose a PostgreSQL database, as for play.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime, timezone
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

from ..domain.words import counted
from ..settings import Settings
from .common import USAGE_ERROR, cannot_use, opened_store
from .moderation import MODERATION_COMMANDS

if TYPE_CHECKING:
    from ..domain.store import Store


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


def format_sessions(name: str, sessions: list[object]) -> str:
    """The ``users sessions`` table: id, when signed in, last used, from where (never a token)."""
    from ..domain.browser import BrowserSession

    rows = [session for session in sessions if isinstance(session, BrowserSession)]
    if not rows:
        return f"{name} has no browser signed in.\n"

    def when(moment: object) -> str:
        assert isinstance(moment, datetime)
        return moment.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")

    lines = [f"{'Session':<12}  {'Signed in':<20}  {'Last used':<20}  {'Expires':<20}  From"]
    lines.extend(f"{s.id:<12}  {when(s.created):<20}  {when(s.last_used):<20}  {when(s.expires):<20}  {s.address}"
                 for s in rows)
    return "\n".join(lines) + "\n"


def run_users_command(args: argparse.Namespace, settings: Settings, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run ``users list``, ``bind``, ``unbind``, ``link-browser``, ``sessions`` or ``revoke``; return the exit status."""
    from ..domain.browser import BrowserSignInRefused, check_session_id
    from ..domain.keys import KeyRejected, check_fingerprint
    from ..domain.store import StoreError

    out = out or sys.stdout
    err = err or sys.stderr
    command = args.users_command

    def refuse(reason: str) -> int:
        print(f"wom-tui users {command}: {reason}", file=err)
        return USAGE_ERROR

    if command in MODERATION_COMMANDS:
        return _moderate(args, settings, out, err)
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
    elif command == "revoke" and args.session_id is not None:
        try:
            check_session_id(args.session_id)
        except BrowserSignInRefused as exc:
            return refuse(exc.reason)
    if not settings.store and not settings.data_dir.exists():
        # A folder that does not exist holds no users; looking must not create it.
        if command == "list":
            out.write(format_users([]))
            return 0
        return refuse(f"there is no user called {args.name!r} (see `wom-tui users list`)")
    try:
        with opened_store(settings) as store:
            return _run_on(args, store, fingerprint, refuse, out)
    except (KeyRejected, BrowserSignInRefused) as exc:
        return refuse(exc.reason)
    except StoreError as exc:
        return cannot_use(settings, f"wom-tui users {command}", exc, err)


def _run_on(args: argparse.Namespace, store: Store, fingerprint: str | None,
            refuse: Callable[[str], int], out: TextIO) -> int:
    """The users command ``args`` names, on an open store."""
    from ..domain.browser import BROWSER_CODE_LIFETIME

    command = args.users_command
    if command == "list":
        out.write(format_users(list(store.users())))
        return 0
    user_named = store.user(args.name)
    if user_named is None:
        return refuse(f"there is no user called {args.name!r} (see `wom-tui users list`)")
    if command == "link-browser":
        code = store.issue_browser_code(user_named.name)
        minutes = int(BROWSER_CODE_LIFETIME.total_seconds() // 60)
        print(f"{code}\nType this code on the arcade's web page to sign in as {user_named.name}. "
              f"It works once, for {minutes} minutes.", file=out)
        return 0
    if command == "sessions":
        out.write(format_sessions(user_named.name, list(store.browser_sessions(user_named.name))))
        return 0
    if command == "revoke":
        ended = store.revoke_browser_sessions(user_named.name, args.session_id)
        if args.session_id is not None:
            print(f"Browser session {args.session_id} of {user_named.name} is signed out.", file=out)
        else:
            print(f"{counted(ended, 'browser session')} of {user_named.name} signed out.", file=out)
        print(f"Their open tabs end within seconds on every server; {user_named.name}'s unused sign-in codes "
              "no longer work.", file=out)
        return 0
    assert fingerprint is not None
    if command == "bind":
        user = store.bind_key(args.name, fingerprint)
        print(f"{fingerprint} now signs in as {user.name}.", file=out)
    else:
        user = store.unbind_key(args.name, fingerprint)
        print(f"{fingerprint} no longer signs in as {user.name}.", file=out)
    return 0


def _moderate(args: argparse.Namespace, settings: Settings, out: TextIO, err: TextIO) -> int:
    """``users ban``, ``unban``, ``bans``, ``retire`` (:mod:`.moderation`), with this module's exit statuses."""
    from ..domain.moderation import ModerationRefused
    from ..domain.store import StoreError
    from .moderation import run_moderation_command

    command = args.users_command
    if not settings.store and not settings.data_dir.exists():
        if command == "bans":  # looking must not create the folder
            out.write("No bans in force.\n")
            return 0
        print(f"wom-tui users {command}: there is no arcade in {settings.data_dir} yet", file=err)
        return USAGE_ERROR
    try:
        with opened_store(settings) as store:
            run_moderation_command(args, store, out)
        return 0
    except ModerationRefused as exc:
        print(f"wom-tui users {command}: {exc.reason}", file=err)
        return USAGE_ERROR
    except StoreError as exc:
        return cannot_use(settings, f"wom-tui users {command}", exc, err)
