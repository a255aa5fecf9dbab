"""Compare two runs of bench/solver.py over the same secrets, game by game (issue 15).

    python bench/solver.py --pegs 8 --colours 10 --games 200 --seed 2026 --json --lengths a.json
    (change the player)
    python bench/solver.py --pegs 8 --colours 10 --games 200 --seed 2026 --json --lengths b.json
    python bench/paired.py a.json b.json [c.json ...]

Prints, for each later file against the first, the mean guesses of both over the games they share,
the mean difference (negative: fewer guesses) and its standard error. On 8 × 10 a game's difference
has a standard deviation of about 1.05–1.1 guesses (the two players' choices part early and each game's
own chance then differs), so 200 games tell apart about ±0.15 (two standard errors), 1,000 games ±0.07.
"""

from __future__ import annotations

import json
import statistics
import sys


def main(paths: list[str]) -> None:
    """Print the paired comparison of every file in ``paths[1:]`` against ``paths[0]``."""
    if len(paths) < 2:
        raise SystemExit(__doc__)
    base = json.load(open(paths[0]))["lengths"]
    for path in paths[1:]:
        other = json.load(open(path))["lengths"]
        games = [k for k in base if k in other]
        if len(games) < 2:
            print(f"{path}: fewer than two games in common")
            continue
        diff = [other[k] - base[k] for k in games]
        error = statistics.stdev(diff) / len(diff) ** 0.5
        print(
            f"{path}: {len(games)} games, {statistics.mean(other[k] for k in games):.4f} against "
            f"{statistics.mean(base[k] for k in games):.4f}, difference {statistics.mean(diff):+.4f} ± {error:.4f}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
