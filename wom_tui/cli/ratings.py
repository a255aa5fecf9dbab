"""``wom-tui ratings [--json] [--active]`` and ``wom-tui ratings rebuild``: the ratings, for operators and scripts.

The board is every rated player (HAL9000 and VIKI included), best first, provisional ones last, their
number marked ``?`` (docs/play.md, *Ratings*); ``--active`` keeps only those the rating board in the game
lists (a rated game in the last 30 days). ``rebuild``
rates every recorded game again from the records and keeps the result. A data folder or database the
store refuses exits with status 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from ..settings import Settings
from .common import cannot_use, opened_store


def add_ratings_command(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add ``ratings`` (and its ``rebuild``) to the top-level subparsers; ``common`` holds the shared options."""
    ratings = sub.add_parser("ratings", parents=[common], help="the rating board, or rate every recorded game again")
    ratings.add_argument("--json", action="store_true", help="print the board as JSON: a list of objects, best first")
    ratings.add_argument("--active", action="store_true",
                         help="only the players the rating board lists (a rated game in the last 30 days)")
    commands = ratings.add_subparsers(dest="ratings_command", metavar="{rebuild}")
    commands.add_parser("rebuild", parents=[common], help="rate every recorded game again from the records and keep it")


def board_rows(book: Any, *, active: bool = False) -> list[dict[str, Any]]:
    """The board as plain data: name, rating, provisional, games, mu, sigma, last_played, best first."""
    from ..domain.users import computer_name

    return [
        {"name": r.name, "rating": r.value, "provisional": r.provisional, "games": r.games,
         "computer": computer_name(r.name) == r.name, "mu": round(r.mu, 6), "sigma": round(r.sigma, 6),
         "last_played": r.last_played}
        for r in book.board(everyone=not active)
    ]


def format_board(rows: list[dict[str, Any]], *, anyone_rated: bool = True) -> str:
    """The board as a text table, a provisional rating shown with its number and marked (``1012?``);
    ``anyone_rated`` False: there are no rated games at all (rather than none lately).
    """
    from ..domain.ratings import ACTIVE_DAYS, PROVISIONAL_MARK, PROVISIONAL_NOTE

    if not rows:
        return "No rated games yet.\n" if not anyone_rated else f"No rated game in the last {ACTIVE_DAYS} days.\n"
    width = max(4, *(len(row["name"]) for row in rows))
    lines = [f"{'#':>3}  {'Name':<{width}}  {'Rating':>7}  {'Games':>5}"]
    for place, row in enumerate(rows, 1):
        rating = f"{row['rating']}{PROVISIONAL_MARK}" if row["provisional"] else f"{row['rating']} "
        lines.append(f"{place:>3}  {row['name']:<{width}}  {rating:>7}  {row['games']:>5}")
    if any(row["provisional"] for row in rows):
        lines.append(PROVISIONAL_NOTE)
    return "\n".join(lines) + "\n"


def run_ratings_command(args: argparse.Namespace, settings: Settings,
                        out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Print the board, or rebuild the ratings; the exit status."""
    from ..domain.ratings import RatingBook
    from ..domain.store import StoreError

    out = out or sys.stdout
    err = err or sys.stderr
    rebuild = getattr(args, "ratings_command", None) == "rebuild"
    try:
        if not settings.store and not settings.data_dir.exists() and not rebuild:
            book = RatingBook()  # looking must not create the folder
        else:
            with opened_store(settings) as store:
                book = store.rebuild_ratings() if rebuild else store.rating_book()
    except StoreError as exc:
        return cannot_use(settings, "wom-tui ratings", exc, err)
    if rebuild:
        print(f"Rated {book.rated:,} games again: {len(book.players):,} rated players.", file=out)
        return 0
    rows = board_rows(book, active=args.active)
    if args.json:
        json.dump(rows, out, indent=1)
        out.write("\n")
    else:
        out.write(format_board(rows, anyone_rated=bool(book.players)))
    return 0
