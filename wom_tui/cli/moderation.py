"""``wom-tui users ban``, ``unban``, ``bans`` and ``retire`` (docs/serve.md, *Moderating the arcade*).

Bad input (a duration, a target, a reason that is not one line) prints one clear line and exits with
status 2 without writing anything; a store that cannot be used exits with status 1. Every server sharing
the store hears of a change at once (the change feed) and ends the sessions it now turns away.
"""

from __future__ import annotations

import argparse
from datetime import datetime, timezone
from typing import TYPE_CHECKING, TextIO

from ..domain.moderation import Ban, Retirement, when

if TYPE_CHECKING:
    from ..domain.store.api import Store

MODERATION_COMMANDS = ("ban", "unban", "bans", "retire")


def format_bans(bans: list[Ban], retired: list[Retirement], now: datetime) -> str:
    """The ``users bans`` table: the bans in force (id, what, until, reason), then the retired names."""
    active = [ban for ban in bans if ban.active(now)]
    lines: list[str] = []
    if not active:
        lines.append("No bans in force.")
    else:
        width = max(6, *(len(ban.target) for ban in active))
        lines.append(f"{'Id':<8}  {'Kind':<7}  {'Target':<{width}}  {'Until':<20}  Reason")
        lines.extend(f"{ban.id:<8}  {ban.kind:<7}  {ban.target:<{width}}  "
                     f"{'for good' if ban.until is None else when(ban.until):<20}  {ban.reason}" for ban in active)
    if retired:
        lines.append("")
        lines.append("Retired names:")
        lines.extend(f"  {r.name}  (since {when(r.at)}){': ' + r.reason if r.reason else ''}" for r in retired)
    return "\n".join(lines) + "\n"


def run_moderation_command(args: argparse.Namespace, store: Store, out: TextIO, now: datetime | None = None) -> None:
    """Run one of :data:`MODERATION_COMMANDS` on ``store``; ``ModerationRefused`` (nothing written) for bad input."""
    from ..domain.moderation import ModerationRefused, parse_duration

    now = now or datetime.now(timezone.utc)
    command = args.users_command
    if command == "bans":
        out.write(format_bans(store.bans(), store.retired(), now))
    elif command == "ban":
        duration = parse_duration(args.duration) if args.duration is not None else None
        ban = store.add_ban(Ban.make(args.target, args.reason, now, duration))
        until = "for good" if ban.until is None else f"until {when(ban.until)}"
        print(f"Banned {ban.kind} {ban.target} {until} (ban {ban.id}; lift it with `wom-tui users unban {ban.id}`).",
              file=out)
    elif command == "unban":
        lifted = store.lift_bans(args.target)
        if not lifted:
            raise ModerationRefused(f"no ban has the id or target {args.target!r} (see `wom-tui users bans`)")
        for ban in lifted:
            print(f"Lifted ban {ban.id} of {ban.kind} {ban.target}.", file=out)
    elif command == "retire":
        retirement = store.retire(args.name, args.reason, now)
        print(f"{retirement.name} is retired: hidden from boards and lists, records kept, the name reserved, "
              "its keys turned away.", file=out)


__all__ = ["MODERATION_COMMANDS", "format_bans", "run_moderation_command"]
