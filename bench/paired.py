"""Compare two runs of bench/solver.py over the same secrets, game by game.

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

import argparse
import json
import statistics


def main(paths: list[str]) -> None:
    """Print the paired comparison of every file in ``paths[1:]`` against ``paths[0]``."""
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


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line: the base file, then one or more files to compare with it."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("base", help="a bench/solver.py --lengths file: the games everything is compared with")
    parser.add_argument("others", nargs="+", metavar="other", help="further --lengths files over the same games")
    return parser.parse_args(argv)


if __name__ == "__main__":
    args = parse_args()
    main([args.base, *args.others])
