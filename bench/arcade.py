"""The arcade's goals (docs/develop.md, *Benchmarks*): quick match and ratings, in one run.

``--json`` prints one JSON object. Each measurement is a function returning a dict of its keys (MEASURES).

* ``quick_match_p95_s`` and ``left_alone``: ``--crowd`` players (20), each its own process, arriving
  within ``--within`` seconds (5), each until seated at a started table (bench/arcade_match.py, which
  also runs alone): goals ≤ 12 s and 0.

* ``rating_rebuild_100k_s``: rating 100,000 recorded World of Mastermind games from their summaries
  (2–4 players each among 2,000 people and HAL9000/VIKI), as ``wom-tui ratings rebuild`` does after
  reading them: goal ≤ 5 s on 2 cores.
* ``rating_board_paint_ms``: on the scoreboard with 10,000 rated players active this month (the data
  folder's ratings.json), from the key ``r`` reaching the app to the write of the first frame showing
  the rating board (the cache read, the rows, the paint): goal ≤ 150 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wom_tui.domain.codes import WOM_RULESET  # noqa: E402
from wom_tui.domain.ratings import Rating, RatingBook, rate_games  # noqa: E402
from wom_tui.domain.stats import GameSummary, PlayerLine  # noqa: E402


def recorded_games(count: int, people: int, seed: int = 9) -> list[GameSummary]:
    """``count`` seeded World of Mastermind summaries, one a minute."""
    rng = random.Random(seed)
    names = [f"Player{n}" for n in range(people)]
    games = []
    for number in range(count):
        seated = rng.sample(names, rng.randint(1, 3)) + [rng.choice(["HAL9000", "VIKI"])]
        lines = tuple(
            PlayerLine(name, not name.isupper(), rng.random() < 0.7, rng.randint(1, 10), 0) for name in seated
        )
        minute = number
        at = f"2026-{1 + minute // 43200 % 12:02d}-{1 + minute // 1440 % 28:02d}T{minute // 60 % 24:02d}:{minute % 60:02d}:00+00:00"
        games.append(GameSummary(f"g{number:08d}", "wom", WOM_RULESET, at, lines))
    return games


def rating_rebuild(games: int) -> dict[str, Any]:
    """Seconds to rate ``games`` games from nothing (the key names the full size, 100k)."""
    summaries = recorded_games(games, max(2, games // 50))
    start = time.perf_counter()
    book = rate_games(summaries)
    seconds = time.perf_counter() - start
    return {"rating_rebuild_100k_s": round(seconds, 3), "rating_rebuild_games": games,
            "rated_players": len(book.players)}


def rating_board_paint(players: int) -> dict[str, Any]:
    """Milliseconds to the first frame of the rating board with ``players`` rated players: the first open in
    the process (reading ratings.json), and the median of two more (the book kept while the file is unchanged).
    """
    from datetime import datetime, timezone

    from textual import events

    from stats import FrameDriver  # bench/stats.py: the frame-timing headless driver
    from wom_tui.app import WomApp
    from wom_tui.domain.store.folder.store import FolderStore
    from wom_tui.screens.scoreboard import ScoreboardScreen
    from wom_tui.settings import Settings

    now = datetime.now(timezone.utc).replace(microsecond=0).isoformat()
    rng = random.Random(5)
    book = RatingBook()
    for number in range(players):
        name = f"Player{number}"
        history = [1000 + rng.randrange(900) for _ in range(20)]
        book.players[name.casefold()] = Rating(name, 20 + rng.random() * 15, 3 + rng.random() * 3, 20, now, "g", history)
    times: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        store = FolderStore(folder)
        store._write_ratings(0, book)  # a folder of no game files, so the cache covers them exactly

        async def run() -> None:
            app = WomApp(store, random.Random(1), Settings(data_dir=Path(folder), seed=1, computer_pace=0))
            app.driver_class = FrameDriver
            async with app.run_test(size=(80, 24), headless=False) as pilot:
                driver = app._driver
                assert isinstance(driver, FrameDriver)
                for _ in range(3):
                    await pilot.press("s")
                    while not isinstance(app.screen, ScoreboardScreen):
                        await asyncio.sleep(0.001)
                    await pilot.pause()
                    shown: asyncio.Future[tuple[float, float]] = asyncio.get_running_loop().create_future()
                    driver.waiting = ({"Last played"}, shown)
                    event = events.Key("r", "r")
                    event.set_sender(app)
                    started = time.perf_counter()
                    driver.send_message(event)
                    wall_at, _ = await shown
                    times.append(wall_at - started)
                    driver.waiting = None
                    await pilot.pause()
                    await pilot.press("escape")
                    await pilot.pause()

        asyncio.run(run())
    again = sorted(times[1:])
    return {"rating_board_paint_ms": round(times[0] * 1000, 1),
            "rating_board_paint_again_ms": round(again[len(again) // 2] * 1000, 1), "rating_board_players": players}


def quick_match(args: argparse.Namespace) -> dict[str, Any]:
    """bench/arcade_match.py's crowd, once."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import arcade_match

    return arcade_match.measure(args.crowd, args.within, store=args.store)


MEASURES: list[Callable[[argparse.Namespace], dict[str, Any]]] = [
    quick_match,
    lambda args: rating_rebuild(args.games),
    lambda args: rating_board_paint(args.players),
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100_000, help="recorded games to rate (default 100,000)")
    parser.add_argument("--players", type=int, default=10_000, help="rated players on the board (default 10,000)")
    parser.add_argument("--crowd", type=int, default=20, help="players arriving for quick match (default 20)")
    parser.add_argument("--within", type=float, default=5.0, help="seconds they arrive within (default 5)")
    parser.add_argument("--store", metavar="URL", help="quick match on this PostgreSQL database (default: a data folder)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    figures: dict[str, Any] = {}
    for measure in MEASURES:
        figures.update(measure(args))
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:28} {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
