"""``wom-tui arena start --minutes 30 --rules attempts=8,clock=30 [--in MINUTES]`` and ``wom-tui arena [--json]``:
the operator starts a Code Arena, and reads its standings (docs/arcade.md, *Code Arena*).

An arena starts now (or ``--in`` minutes from now) in the settings' store; the server's hub pairs its players
(``wom-tui serve``). Only one arena is on at a time: starting another while one is upcoming or running is refused
with the reason, and nothing is written. ``wom-tui arena`` prints the newest arena's standings (the podium once it
is over). A store that cannot be used exits with status 1, bad rules with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, TextIO

from ..settings import Settings
from .common import USAGE_ERROR, cannot_use, opened_store


def _minutes(text: str) -> int:
    from ..domain.arena import MAX_MINUTES, MIN_MINUTES

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of minutes") from None
    if not MIN_MINUTES <= value <= MAX_MINUTES:
        raise argparse.ArgumentTypeError(f"an arena lasts {MIN_MINUTES} to {MAX_MINUTES} minutes")
    return value


def _later(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of minutes") from None
    if not 0 <= value <= 7 * 24 * 60:
        raise argparse.ArgumentTypeError("an arena starts within a week")
    return value


def add_arena_command(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add ``arena`` (and its ``start``) to the top-level subparsers; ``common`` holds the store options."""
    arena = sub.add_parser("arena", parents=[common], help="start a Code Arena, or show the newest one's standings")
    arena.add_argument("--json", action="store_true", help="print the standings as JSON")
    commands = arena.add_subparsers(dest="arena_command", metavar="{start}")
    start = commands.add_parser("start", parents=[common], help="start a Code Arena (players join from the menu)")
    start.add_argument("--minutes", type=_minutes, default=30, help="how long it lasts (default 30)")
    start.add_argument("--rules", default="attempts=8,clock=30", metavar="RULES",
                       help="its games' attempts (5-10) and seconds per guess (30, 60, 120 or 300): "
                            "attempts=8,clock=30 (the default)")
    start.add_argument("--in", dest="starts_in", type=_later, default=0.0, metavar="MINUTES",
                       help="start this many minutes from now (default: now)")


def standings_rows(arena: Any) -> list[dict[str, Any]]:
    """The standings as plain data."""
    from ..domain.arena import standings

    return [{"rank": r.rank, "name": r.name, "score": r.score, "games": r.games, "wins": r.wins, "draws": r.draws,
             "losses": r.losses, "berserk_wins": r.berserk_wins, "on_fire": r.fire, "sheet": list(r.sheet)}
            for r in standings(arena)]


def format_standings(arena: Any, now: float) -> str:
    """The newest arena as text: its state, its rules and its standings."""
    from ..domain.arena import OVER

    lines = [f"{arena.countdown(now)} · {arena.rules.describe()} · {arena.minutes} min · {len(arena.games)} games"]
    rows = standings_rows(arena)
    if not rows:
        lines.append("Nobody has joined yet.")
    else:
        width = max(4, *(len(row["name"]) for row in rows))
        lines.append(f"{'#':>3}  {'Name':<{width}}  {'Score':>5}  {'Games':>5}  Sheet")
        for row in rows:
            fire = " ×2" if row["on_fire"] and arena.phase(now) != OVER else ""  # on fire: a win counts double
            sheet = " ".join(str(points) for points in row["sheet"])
            lines.append(f"{row['rank']:>3}  {row['name']:<{width}}  {row['score']:>5}  {row['games']:>5}  {sheet}{fire}")
    return "\n".join(lines) + "\n"


def run_arena_command(args: argparse.Namespace, settings: Settings,
                      out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Start an arena or print the newest one; the exit status."""
    from ..domain.arena import ArenaRefused, new_arena_id, parse_rules
    from ..domain.store import StoreError

    out = out or sys.stdout
    err = err or sys.stderr
    starting = getattr(args, "arena_command", None) == "start"
    try:
        rules = parse_rules(args.rules) if starting else None
    except ArenaRefused as exc:
        print(f"wom-tui arena start: {exc.reason}", file=err)
        return USAGE_ERROR
    if not starting and not settings.store and not settings.data_dir.exists():
        print("No arena yet: start one with `wom-tui arena start`.", file=out)  # looking creates no folder
        return 0
    try:
        with opened_store(settings) as store:
            if starting:
                assert rules is not None
                now = time.time()
                started = store.live.start_arena(new_arena_id(now), args.minutes, rules,
                                                 starts_in=60.0 * args.starts_in)
                when = "starts now" if not args.starts_in else f"starts in {args.starts_in:g} min"
                print(f"Code Arena {started.arena_id} {when} ({started.minutes} min, {rules.describe()}). "
                      "Players join it from the menu.", file=out)
                return 0
            arena = store.live.arena()
    except ArenaRefused as exc:
        print(f"wom-tui arena start: {exc.reason}", file=err)
        return USAGE_ERROR
    except StoreError as exc:
        return cannot_use(settings, "wom-tui arena", exc, err)
    if arena is None:
        print("No arena yet: start one with `wom-tui arena start`.", file=out)
        return 0
    if args.json:
        json.dump({"arena_id": arena.arena_id, "phase": arena.phase(time.time()), "starts_at": arena.starts_at,
                   "minutes": arena.minutes, "rules": arena.rules.as_json(), "standings": standings_rows(arena)},
                  out, indent=1)
        out.write("\n")
    else:
        out.write(format_standings(arena, time.time()))
    return 0
