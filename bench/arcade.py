"""The arcade's goals (docs/develop.md, *Benchmarks*): quick match and ratings, in one run.

``--json`` prints one JSON object. Each measurement is a function returning a dict of its keys (MEASURES).

* ``quick_match_p95_s`` and ``left_alone``: ``--crowd`` players (20), each its own process, arriving
  within ``--within`` seconds (5), each until seated at a started table (bench/arcade_match.py, which
  also runs alone): goals ≤ 12 s and 0.

* ``rating_rebuild_100k_s``: ``wom-tui ratings rebuild`` as the operator meets it on a data folder of
  100,000 recorded World of Mastermind games (2–4 players each among 2,000 people and HAL9000/VIKI, full
  records with every guess): a new store reads every game (from its index of summaries, as after any
  earlier look) and rates them, and keeps the book: goal ≤ 5 s on 2 cores. Its parts and the other cases
  are separate keys: ``rating_only_100k_s`` (rating the summaries read, nothing else),
  ``rating_read_100k_s`` (reading them), ``rating_rebuild_cold_100k_s`` (a folder without its index, as
  after a copy: every game file read), and ``rating_rebuild_postgres_100k_s`` /
  ``rating_read_postgres_100k_s`` on a PostgreSQL database (a throwaway server, tests/throwaway_pg.py;
  ``--rebuild-stores folder`` leaves it out). ``rating_rebuild_cpu_s`` and ``rating_rebuild_postgres_cpu_s``
  are this process's CPU seconds for the whole rebuild: on a machine other work shares, what the two
  cores alone would take.
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

from wom_tui.domain.board import Attempt
from wom_tui.domain.codes import WOM_RULESET, Feedback
from wom_tui.domain.game import GameKind
from wom_tui.domain.halloffame import HallOfFame
from wom_tui.domain.ratings import Rating, RatingBook, rate_games
from wom_tui.domain.records import GameRecord, PlayerRecord
from wom_tui.domain.stats import GameSummary, PlayerLine
from wom_tui.domain.store.api import Arcade


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


def full_records(summaries: list[GameSummary]) -> list[tuple[str, GameRecord]]:
    """Each summary as the full record a finished game writes: every guess (the last one right if it broke)."""
    rng = random.Random(11)
    symbols = WOM_RULESET.palette.symbols
    records = []
    for summary in summaries:
        allowed = summary.ruleset.guesses
        players = []
        for index, line in enumerate(summary.players):
            guesses = tuple(Attempt("".join(rng.choice(symbols) for _ in range(4)), Feedback(rng.randint(0, 2), 1))
                            for _ in range(line.attempts - 1))
            guesses += (Attempt("RGBY", Feedback(4, 0) if line.broke else Feedback(0, 2)),)
            breaker = summary.players[(index + 1) % len(summary.players)]
            breaking = allowed - line.attempts + 1 if line.broke else 0
            making = breaker.attempts - 1 if breaker.broke else allowed
            players.append(PlayerRecord(line.name, line.is_user, line.broke, line.attempts, guesses,
                                        breaking if line.is_user else 0, making if line.is_user else 0))
        finished = summary.finished_at
        hot_seat = summary.game_id[-1] in "02468"
        records.append((summary.game_id, GameRecord(GameKind.WOM, summary.ruleset, tuple(players), finished,
                                                    hot_seat, None if hot_seat else f"t{summary.game_id[-6:]}")))
    return records


def _timed(work: Callable[[], Any]) -> tuple[float, Any]:
    start, cpu = time.perf_counter(), time.process_time()
    result = work()
    _timed.cpu = time.process_time() - cpu  # type: ignore[attr-defined]
    return time.perf_counter() - start, result


def rating_rebuild(games: int, stores: set[str]) -> dict[str, Any]:
    """Seconds to read ``games`` recorded games from a store and rate them, whole and in parts (the keys name
    the full size, 100k)."""
    from wom_tui.domain.store.documents import encode_game
    from wom_tui.domain.store.folder.store import FolderStore

    summaries = recorded_games(games, max(2, games // 50))
    records = full_records(summaries)
    ids = [f"20260101T{number:012d}Z-{number:012x}" for number in range(games)]
    records = [(ids[number], record) for number, (_, record) in enumerate(records)]
    figures: dict[str, Any] = {"rating_rebuild_games": games}
    with tempfile.TemporaryDirectory() as folder:
        games_dir = Path(folder) / "games"
        games_dir.mkdir()
        for game_id, record in records:
            (games_dir / f"{game_id}.json").write_bytes(encode_game(game_id, record))
        cold, book = _timed(lambda: FolderStore(folder).rebuild_ratings())  # no index yet: every file read
        read, (kept, _) = _timed(lambda: FolderStore(folder).game_summaries())
        rating, again = _timed(lambda: rate_games(kept))
        whole, rebuilt = _timed(lambda: FolderStore(folder).rebuild_ratings())
        whole_cpu = _timed.cpu  # type: ignore[attr-defined]
        assert book.as_json() == again.as_json() == rebuilt.as_json()
    figures.update({"rating_rebuild_100k_s": round(whole, 3), "rating_rebuild_cpu_s": round(whole_cpu, 3),
                    "rating_only_100k_s": round(rating, 3),
                    "rating_read_100k_s": round(read, 3), "rating_rebuild_cold_100k_s": round(cold, 3),
                    "rated_games": book.rated, "rated_players": len(book.players)})
    if "postgresql" in stores:
        figures.update(rating_rebuild_postgres(records, book))
    return figures


def rating_rebuild_postgres(records: list[tuple[str, GameRecord]], expected: RatingBook) -> dict[str, Any]:
    """The same games on a throwaway PostgreSQL server: read, and read and rate."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from throwaway_pg import ThrowawayPostgres
    from wom_tui.domain.store.postgres.store import PostgresStore

    server = ThrowawayPostgres().start()
    try:
        url = server.new_database("ratings")
        with PostgresStore(url) as database:
            database.load(Arcade(users=(), hall=HallOfFame(), games=tuple(records), themes={}, daily=(),
                                 daily_secret=None))
        with PostgresStore(url) as database:
            read, (kept, _) = _timed(database.game_summaries)
        with PostgresStore(url) as database:
            whole, book = _timed(database.rebuild_ratings)
        assert book.as_json() == expected.as_json() and len(kept) == len(records)
        return {"rating_rebuild_postgres_100k_s": round(whole, 3),
                "rating_rebuild_postgres_cpu_s": round(_timed.cpu, 3),  # type: ignore[attr-defined]
                "rating_read_postgres_100k_s": round(read, 3)}
    finally:
        server.remove()


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


MEASURES: dict[str, Callable[[argparse.Namespace], dict[str, Any]]] = {
    "match": quick_match,
    "rebuild": lambda args: rating_rebuild(args.games, set(args.rebuild_stores.split(","))),
    "board": lambda args: rating_board_paint(args.players),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100_000, help="recorded games to rate (default 100,000)")
    parser.add_argument("--rebuild-stores", default="folder,postgresql", metavar="LIST",
                        help="where the rebuild reads the games: folder, postgresql or both (default both)")
    parser.add_argument("--players", type=int, default=10_000, help="rated players on the board (default 10,000)")
    parser.add_argument("--crowd", type=int, default=20, help="players arriving for quick match (default 20)")
    parser.add_argument("--within", type=float, default=5.0, help="seconds they arrive within (default 5)")
    parser.add_argument("--store", metavar="URL", help="quick match on this PostgreSQL database (default: a data folder)")
    parser.add_argument("--only", choices=sorted(MEASURES), action="append",
                        help="measure only this (again for more; default: all)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    figures: dict[str, Any] = {}
    for name, measure in MEASURES.items():
        if not args.only or name in args.only:
            figures.update(measure(args))
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:28} {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
