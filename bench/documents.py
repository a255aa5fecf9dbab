"""Reading the store's JSON documents back: how long the strict checks take, in memory (no disk).

    .venv/bin/python bench/documents.py [--users 10000] [--games 2000] [--tables 1000] [--solo 1000]
                                        [--runs 5] [--json] [--tiny]

Each figure is the best of ``--runs``, in milliseconds of CPU time, for the whole batch:

* ``users``: users.json with ``--users`` users, parsed (:func:`parse_document`: the strict JSON pass)
  and then decoded (:func:`decode_users`: shapes, names, uniqueness) — printed apart and together;
* ``games``: ``--games`` game files, each parsed and decoded (:func:`decode_game`, :func:`check_game_json`);
* ``tables``: ``--tables`` running tables (3 seats, codes set, a few guesses) read by :meth:`Table.from_json`;
* ``solo``: ``--solo`` solo games in progress checked as the store keeps them (:func:`check_solo_json`).

docs/perf/documents.md has the figures before and after the shapes moved to msgspec.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wom_tui.domain.codes import DIGITS10, WOM, Ruleset, feedback
from wom_tui.domain.records import GameRecord, PlayerRecord
from wom_tui.domain.solo import SoloGame, check_solo_json
from wom_tui.domain.store.documents import decode_game, decode_users, encode_game, encode_users, parse_document
from wom_tui.domain.table import SeatHolder, Table
from wom_tui.domain.users import User, UserRegistry


def best(action, runs: int) -> float:
    """The fastest of ``runs`` calls of ``action``, in milliseconds of this process's CPU time (steadier than
    the wall clock on a machine shared with other work; the work is all in this one thread).
    """
    times = []
    for _ in range(runs):
        started = time.process_time()
        action()
        times.append((time.process_time() - started) * 1000)
    return min(times)


def users_file(count: int) -> bytes:
    rng = random.Random(0)
    return encode_users(UserRegistry(User(f"player{i:05d}", rng.randrange(500), rng.randrange(60))
                                     for i in range(count)))


def game_files(count: int) -> list[bytes]:
    rng = random.Random(13)
    rulesets = [Ruleset(4, WOM, True, 10), Ruleset(5, DIGITS10, True, 10)]
    files = []
    for i in range(count):
        ruleset = rng.choice(rulesets)
        players = []
        for name, is_user in (("Alan", True), ("Bea", True), ("HAL9000", False)):
            secret = ruleset.random_code(rng)
            guesses = [(code, feedback(secret, code)) for code in (ruleset.random_code(rng) for _ in range(6))]
            guesses.append((secret, feedback(secret, secret)))
            players.append(PlayerRecord(name, is_user, True, len(guesses), tuple(guesses), 4 if is_user else 0, 3))
        record = GameRecord("wom", ruleset, tuple(players), "2026-11-20T10:00:00+00:00")
        game_id = f"2026{i:04d}T000000000000Z-{i:012x}"
        files.append(encode_game(game_id, record))
    return files


def tables(count: int) -> list[dict]:
    alan, bea = SeatHolder("Alan", "s-alan", True), SeatHolder("Bea", "s-bea", True)
    result = []
    for i in range(count):
        table = Table(f"t{i}", alan, seats=3, attempts=8, seed=i, pace=(2.0, 2.0))
        table.sit(bea, 1)
        table.seat_computer(alan, 2, "VIKI")
        table.start(alan, 0)
        table.set_code(alan, "RGBY", 0)
        table.set_code(bea, "KKWW", 0)
        for person in (alan, bea):
            for guess in ("RRGG", "BBYY", "WWKK"):
                if not table.seat_done(table.seat_of(person) or 0):
                    table.guess(person, guess, 1)
        result.append(json.loads(json.dumps(table.to_json())))
    return result


def solo_games(count: int) -> list[dict]:
    result = []
    for i in range(count):
        rng = random.Random(i)
        game = SoloGame(Ruleset(4, DIGITS10, True, 10), "1234", rng, player="Alan", is_user=True)
        for guess in ("1111", "5678", "1243", "4321", "2143"):
            game.guess(guess)
        result.append(json.loads(json.dumps(game.as_json())))
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=2_000)
    parser.add_argument("--tables", type=int, default=1_000)
    parser.add_argument("--solo", type=int, default=1_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument("--tiny", action="store_true", help="a few of each, once: proves the bench runs")
    args = parser.parse_args()
    if args.tiny:
        args.users, args.games, args.tables, args.solo, args.runs = 20, 5, 3, 3, 1
    raw_users, raw_games = users_file(args.users), game_files(args.games)
    table_data, solo_data = tables(args.tables), solo_games(args.solo)
    parsed_users = parse_document(raw_users)
    parsed_games = [parse_document(raw) for raw in raw_games]
    figures = {
        "users_parse_ms": best(lambda: parse_document(raw_users), args.runs),
        "users_decode_ms": best(lambda: decode_users(parsed_users), args.runs),
        "users_ms": best(lambda: decode_users(parse_document(raw_users)), args.runs),
        "games_parse_ms": best(lambda: [parse_document(raw) for raw in raw_games], args.runs),
        "games_decode_ms": best(lambda: [decode_game(data) for data in parsed_games], args.runs),
        "games_ms": best(lambda: [decode_game(parse_document(raw)) for raw in raw_games], args.runs),
        "tables_ms": best(lambda: [Table.from_json(data) for data in table_data], args.runs),
        "solo_ms": best(lambda: [check_solo_json(data) for data in solo_data], args.runs),
    }
    if args.json:
        print(json.dumps({"users": args.users, "games": args.games, "tables": args.tables, "solo": args.solo,
                          **{key: round(value, 2) for key, value in figures.items()}}))
        return
    print(f"users.json with {args.users:,} users ({len(raw_users) / 1024:.0f} KiB), {args.games:,} game files, "
          f"{args.tables:,} tables, {args.solo:,} solo games; best of {args.runs}")
    for key, value in figures.items():
        print(f"  {key:<18} {value:9.1f} ms")


if __name__ == "__main__":
    main()
