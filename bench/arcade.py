"""The arcade's goals (docs/develop.md, *Benchmarks*): ratings now; quick match to be merged in.

``--json`` prints one JSON object. Each measurement is a function returning a dict of its keys, so
another part's (``quick_match_p95_s``, ``left_alone``) merge in by adding its function to MEASURES.

* ``rating_rebuild_100k_s``: rating 100,000 recorded World of Mastermind games from their summaries
  (2–4 players each among 2,000 people and HAL9000/VIKI), as ``wom-tui ratings rebuild`` does after
  reading them: goal ≤ 5 s on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wom_tui.domain.codes import WOM_RULESET  # noqa: E402
from wom_tui.domain.ratings import rate_games  # noqa: E402
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


MEASURES: list[Callable[[argparse.Namespace], dict[str, Any]]] = [
    lambda args: rating_rebuild(args.games),
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100_000, help="recorded games to rate (default 100,000)")
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
