"""Benchmark the code-breakers: guesses per game, time per move, peak memory.

    python bench/solver.py [--jobs J]      # the table (game counts in TABLE; the 8 × 10 row is the long one)
    python bench/solver.py --pegs 4 --colours 6 [--no-repeats] --strategy expert \\
        [--games N | --all] [--seed S] [--jobs J] --json   # one ruleset, one JSON object

``--colours`` 6, 8 or 10 picks the wom, digits8 or digits10 palette. ``won_share`` counts games
won within 10 guesses. ``max_ms`` is the slowest move by the clock, ``max_cpu_ms`` the most CPU time
one move took (the honest figure on a loaded machine). ``peak_mb`` is the peak resident size of the
process that played (each table row runs in its own process, so rows do not share caches or memory).
Every game has its own rng seeded from ``--seed`` and its number, so ``--jobs J`` (the games dealt
over J processes) plays exactly the same games, and ``peak_mb`` is the largest of the J peaks.
The table also plays a plain Knuth minimax reference on 4 × 6 (``--strategy knuth``);
``expert-consistent`` is HAL9000 as it plays in the flip mode (only codes that fit every answer).
``total`` is the guesses summed over all games; the ``goal`` column is the row's target (docs/play.md, The computer players).

The variants (docs/play.md, *Variants*): ``--variant quad|devious|strict|liar --strategy expert|consistent
[--games N] --json`` plays N solo games of the variant on 4 × 6 (each drawn from its own seed: codes, Devious's
ties, Liar's lie) with HAL9000 or VIKI; ``won_share`` counts the games won within the variant's guesses.
The table ends with every variant, 100 games each.

Comparing two versions of a player: ``--lengths FILE`` writes each game's guesses (by game
number) for ``bench/paired.py``, which gives the mean difference over the same secrets and its standard
error. ``--play-seed P`` keeps the secrets of ``--seed`` but seeds each game's own rng from ``P``:
how much of a figure is the player's own chance. On 8 × 10 that share is large: the first 200 games
of seed 2026 averaged 7.635, 7.685 and 7.860 with three seeds for the games' own rngs (one game's
difference between two runs has a standard deviation of about 1.05–1.1 guesses, so 200 games tell
apart only ±0.15, 1,000 games ±0.07).
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import resource
import statistics
import subprocess
import sys
import time

import numpy as np

from wom_tui.domain.codes import DIGITS8, DIGITS10, WOM, Feedback, Ruleset, feedback
from wom_tui.domain.strategies import make_strategy
from wom_tui.domain.strategies.space import Shape, enumerate_codes, feedback_keys, history_key, partition_counts

PALETTES = {6: WOM, 8: DIGITS8, 10: DIGITS10}
WON_WITHIN = 10

TABLE = [
    # (pegs, colours, repeats, strategy, games or "all")
    (4, 6, True, "knuth", "all"),
    (4, 6, True, "expert", "all"),
    (4, 6, True, "expert-within-five", "all"),
    (4, 6, True, "expert-consistent", "all"),
    (4, 6, True, "consistent", "all"),
    (4, 6, True, "random", 30),
    (8, 10, True, "expert", 1000),
    (8, 10, True, "consistent", 100),
    (8, 10, False, "expert", 40),
    (6, 10, False, "expert", 100),
    (5, 8, True, "consistent", 300),
    (5, 8, True, "expert", "all"),
]


VARIANT_TABLE = [(variant, strategy) for variant in ("quad", "devious", "strict", "liar")
                 for strategy in ("expert", "consistent")]
"""The variants' rows of the table, 100 games each on 4 × 6."""

VARIANT_GOALS = {("devious", "expert"): "worst ≤5"}


GOALS = {
    (4, 6, True, "expert"): "total 5625, worst 6",
    (4, 6, True, "expert-within-five"): "total 5626, worst 5",
    (4, 6, True, "expert-consistent"): "total 5660",
    (5, 8, True, "expert"): "total ≤179570, worst ≤7, ≤50 ms",
    (8, 10, True, "expert"): "avg ≤7.60, 100%, ≤2 s, ≤500 MB",
}


class Knuth:
    """Knuth's minimax (1976): the guess whose largest answer class is smallest, fitting codes first."""

    name = "knuth"

    def __init__(self, rules: Ruleset) -> None:
        shape = Shape.of(rules)
        self.shape = shape
        self.codes = enumerate_codes(shape.length, shape.colours, shape.repeats)
        self.table = feedback_keys(self.codes, self.codes, shape.colours)

    def next_guess(self, rules: Ruleset, history, rng: random.Random) -> str:
        """The minimax guess (``AABB`` first, as Knuth)."""
        symbols = rules.palette.symbols
        if not history:
            return symbols[0] * 2 + symbols[1] * (rules.length - 2)
        alive = np.arange(len(self.codes))
        for guess, black, white in history_key(history, symbols):
            row = int(np.flatnonzero((self.codes == np.frombuffer(guess, np.uint8)).all(axis=1))[0])
            want = black * (self.shape.length + 1) + black + white
            alive = alive[self.table[row, alive] == want]
        if len(alive) == 1:
            return "".join(symbols[i] for i in self.codes[alive[0]])
        worst = partition_counts(self.table[:, alive], self.shape.outcomes).max(axis=1).astype(np.float64)
        worst[alive] -= 0.5
        best = int(np.argmin(worst))
        return "".join(symbols[i] for i in self.codes[best])


def _player(rules: Ruleset, strategy: str):
    if strategy == "knuth":
        return Knuth(rules)
    if strategy == "expert-consistent":
        return make_strategy("expert", consistent_only=True)
    if strategy == "expert-within-five":
        return make_strategy("expert", within_five=True)
    return make_strategy(strategy)


def _play(args: tuple) -> dict:
    """Play the games ``numbered`` (index, secret) pairs; raw per-game and per-move figures."""
    pegs, colours, repeats, strategy, seed, numbered = args  # seed: the games' own rng (see --play-seed)
    rules = Ruleset(pegs, PALETTES[colours], repeats, WON_WITHIN)
    player = _player(rules, strategy)
    cap = rules.size if strategy == "random" else 50
    lengths, moves, cpu, game_s = [], [], [], []
    for index, secret in numbered:
        # Each game has its own seeded source of chance (as in the app), so games can be split
        # over processes and still be the same games.
        rng = random.Random(f"{seed}:{index}")
        game_start = time.perf_counter()
        history: list[tuple[str, Feedback]] = []
        while len(history) < cap:
            start, start_cpu = time.perf_counter(), time.process_time()
            guess = player.next_guess(rules, history, rng)
            moves.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            fb = feedback(secret, guess)
            history.append((guess, fb))
            if fb.solves(pegs):
                break
        game_s.append(time.perf_counter() - game_start)
        won = history[-1][1].solves(pegs)
        lengths.append(len(history) if won else cap + 1)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"lengths": lengths, "moves": moves, "cpu": cpu, "game_s": game_s, "peak_mb": peak}


def run(
    pegs: int,
    colours: int,
    repeats: bool,
    strategy: str,
    games: int | None,
    seed: int,
    jobs: int = 1,
    play_seed: int | None = None,
    lengths_file: str | None = None,
) -> dict:
    """Play ``games`` random secrets (or every secret when ``games`` is None); the figures as a dict.

    ``jobs`` > 1 plays the games in that many processes (the same games: each has its own rng);
    ``peak_mb`` is then the largest of the processes' peaks. ``play_seed`` seeds the games' own rngs
    instead of ``seed`` (same secrets); ``lengths_file`` receives each game's guesses as JSON.
    """
    chance = seed if play_seed is None else play_seed
    rules = Ruleset(pegs, PALETTES[colours], repeats, WON_WITHIN)
    if games is None:
        if rules.size > 200_000:
            raise SystemExit(f"--all would play {rules.size} games; use --games")
        symbols = rules.palette.symbols
        every = itertools.product(symbols, repeat=pegs) if repeats else itertools.permutations(symbols, pegs)
        secrets = ["".join(c) for c in every]
    else:
        secret_rng = random.Random(seed)
        secrets = [rules.random_code(secret_rng) for _ in range(games)]
    numbered = list(enumerate(secrets))
    if jobs <= 1:
        parts = [_play((pegs, colours, repeats, strategy, chance, numbered))]
    else:
        from concurrent.futures import ProcessPoolExecutor

        shares = [numbered[i::jobs] for i in range(jobs)]
        with ProcessPoolExecutor(jobs) as pool:
            parts = list(pool.map(_play, [(pegs, colours, repeats, strategy, chance, share) for share in shares]))
    if lengths_file:
        order = [numbered] if jobs <= 1 else shares
        by_game = {i: n for share, part in zip(order, parts) for (i, _), n in zip(share, part["lengths"])}
        with open(lengths_file, "w") as out:
            json.dump({"seed": seed, "play_seed": chance, "lengths": dict(sorted(by_game.items()))}, out)
    lengths = [n for part in parts for n in part["lengths"]]
    moves = [t for part in parts for t in part["moves"]]
    cpu = [t for part in parts for t in part["cpu"]]
    game_s = [t for part in parts for t in part["game_s"]]
    return {
        "games": len(lengths),
        "total": sum(lengths),
        "average": round(statistics.mean(lengths), 4),
        "worst": max(lengths),
        "won_share": round(sum(n <= WON_WITHIN for n in lengths) / len(lengths), 4),
        "median_ms": round(statistics.median(moves) * 1000, 2),
        "max_ms": round(max(moves) * 1000, 1),
        "max_cpu_ms": round(max(cpu) * 1000, 1),
        "peak_mb": round(max(part["peak_mb"] for part in parts), 1),
        "max_game_s": round(max(game_s), 2),
    }


def run_variant(variant_name: str, strategy: str, games: int, seed: int) -> dict:
    """Play ``games`` solo games of a variant on 4 × 6 with HAL9000 (``expert``) or VIKI (``consistent``)."""
    from wom_tui.domain.variant_game import VariantGame
    from wom_tui.domain.variants import Variant

    variant = Variant(variant_name)
    base = Ruleset(4, PALETTES[6], True, WON_WITHIN)
    lengths, moves, cpu, wins = [], [], [], 0
    for index in range(games):
        game = VariantGame.new(variant, base, random.Random(f"{seed}:{index}"))
        rng = random.Random(f"{seed}:{index}:play")
        while game.awaiting:
            start, start_cpu = time.perf_counter(), time.process_time()
            guess = game.computer_guess(strategy, rng)
            moves.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            game.guess(guess)
        wins += game.won
        lengths.append(game.guesses_used if game.won else game.ruleset.guesses + 1)
    return {
        "games": games,
        "total": sum(lengths),
        "average": round(statistics.mean(lengths), 4),
        "worst": max(lengths),
        "won_share": round(wins / games, 4),
        "median_ms": round(statistics.median(moves) * 1000, 2),
        "max_ms": round(max(moves) * 1000, 1),
        "max_cpu_ms": round(max(cpu) * 1000, 1),
        "peak_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def table(seed: int, jobs: int = 1) -> None:
    """Run every row of :data:`TABLE`, each in its own process, and print the table."""
    head = f"{'ruleset':<14}{'strategy':<19}{'games':>6}{'total':>8}{'average':>9}{'worst':>6}{'won≤10':>8}"
    head += f"{'median ms':>10}{'max ms':>8}{'max cpu':>8}{'peak MB':>8}{'game s max':>11}  goal"
    print(head)
    print("-" * len(head))
    for pegs, colours, repeats, strategy, games in TABLE:
        args = [sys.executable, __file__, "--pegs", str(pegs), "--colours", str(colours), "--strategy", strategy]
        args += ["--seed", str(seed), "--jobs", str(jobs), "--json", "--game-time"]
        args += ["--all"] if games == "all" else ["--games", str(games)]
        if not repeats:
            args.append("--no-repeats")
        out = json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)
        name = f"{pegs}×{colours} {'rep' if repeats else 'no-rep'}"
        goal = GOALS.get((pegs, colours, repeats, strategy), "")
        print(
            f"{name:<14}{strategy:<19}{out['games']:>6}{out['total']:>8}{out['average']:>9.4f}{out['worst']:>6}"
            f"{out['won_share'] * 100:>7.1f}%{out['median_ms']:>10.2f}{out['max_ms']:>8.1f}{out['max_cpu_ms']:>8.1f}"
            f"{out['peak_mb']:>8.1f}"
            f"{out['max_game_s']:>11.2f}  {goal}",
            flush=True,
        )
    for variant, strategy in VARIANT_TABLE:
        args = [sys.executable, __file__, "--variant", variant, "--strategy", strategy, "--games", "100",
                "--seed", str(seed), "--json"]
        out = json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)
        print(
            f"{variant + ' 4×6':<14}{strategy:<19}{out['games']:>6}{out['total']:>8}{out['average']:>9.4f}"
            f"{out['worst']:>6}{out['won_share'] * 100:>7.1f}%{out['median_ms']:>10.2f}{out['max_ms']:>8.1f}"
            f"{out['max_cpu_ms']:>8.1f}{out['peak_mb']:>8.1f}{'':>11}  {VARIANT_GOALS.get((variant, strategy), '')}",
            flush=True,
        )


def main(argv: list[str] | None = None) -> None:
    """Command line: the whole table, or one ruleset and strategy as JSON."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pegs", type=int, default=4)
    parser.add_argument("--colours", type=int, choices=sorted(PALETTES), default=6)
    parser.add_argument("--no-repeats", action="store_true")
    parser.add_argument(
        "--strategy", choices=["random", "consistent", "expert", "expert-within-five", "expert-consistent", "knuth"], default="expert"
    )
    count = parser.add_mutually_exclusive_group()
    count.add_argument("--games", type=int, default=100)
    count.add_argument("--all", action="store_true", help="play every secret")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--json", action="store_true", help="one ruleset and strategy, one JSON object")
    parser.add_argument("--jobs", type=int, default=1, help="play the games in this many processes (same games)")
    parser.add_argument("--play-seed", type=int, help="seed the games' own rngs from this (same secrets)")
    parser.add_argument("--lengths", metavar="FILE", help="write each game's guesses as JSON (for bench/paired.py)")
    parser.add_argument("--game-time", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--variant", choices=["quad", "devious", "strict", "liar"],
                        help="play solo games of this variant on 4 × 6 (with --json; --strategy expert or consistent)")
    args = parser.parse_args(argv)
    if args.variant and args.json:
        if args.strategy not in ("expert", "consistent"):
            parser.error("a variant is played by expert (HAL9000) or consistent (VIKI)")
        print(json.dumps(run_variant(args.variant, args.strategy, args.games, args.seed)))
        return
    if not args.json:
        table(args.seed, args.jobs)
        return
    games = None if args.all else args.games
    rules = (args.pegs, args.colours, not args.no_repeats, args.strategy)
    result = run(*rules, games, args.seed, args.jobs, play_seed=args.play_seed, lengths_file=args.lengths)
    if not args.game_time:
        del result["max_game_s"]
    print(json.dumps(result))


if __name__ == "__main__":
    main()
