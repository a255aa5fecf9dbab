"""Code Arena under a crowd: N players join an arena over its first minute and play it out, on the real rules and
the real store, in simulated time.

The arena's rules (wom_tui/domain/arena.py) and the store's moves (wom_tui/domain/store/arenas.py, tables.py) run
as they do on a server; only the clock is simulated: the store's live clock is a number the bench moves on by
``--step`` seconds at a time, so ten minutes of arena take seconds. The hub's pairing loop is
``live.arena_wave`` every :data:`~wom_tui.domain.arena.PAIRING_INTERVAL` simulated seconds, as the hub runs it.
Players are scripted: each joins at a time drawn over ``--join-within`` seconds, is present (heartbeats, in real
time, as a session's), chooses berserk before one game in four, and at its table sets a random code and guesses a
code consistent with every answer so far, each move after a thinking time drawn between 3 and 12 s (so a game
takes about a minute, and a berserk player sometimes runs out of time). Every game is recorded and rated by the
store as any live table's. All chance comes from ``--seed``.

Figures (``--json`` prints them as one object):

* ``arena_wait_median_s`` and ``arena_wait_p95_s``: each time a player waits to be paired (after joining, and
  after each game), how long, in simulated seconds (goals ≤ 10 and ≤ 20);
* ``left_alone``: players who never played, or once waited over a minute for a game (goal 0);
* ``repeat_pairings``: games whose two players' previous games were against each other (goal 0: nobody meets the
  same opponent twice in a row, except in a duel of two);
* ``standings_match``: the standings the arena shows equal the standings recomputed from the games the store
  recorded (each game's points from its record's boards);
* ``games``, ``games_counted``, ``players``, ``berserk_games``, ``wall_s`` (real seconds the run took).

Run from the repository's root: ``.venv/bin/python bench/arena.py [--players 20] [--minutes 10]
[--join-within 60] [--store postgresql://…] [--json]``. Without ``--store`` it uses a fresh data folder in a
temporary directory (in /dev/shm where there is one).
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wom_tui.domain.arena import (
    PAIRING_INTERVAL, Arena, ArenaRules, game_points, standings,
)
from wom_tui.domain.codes import feedback
from wom_tui.domain.moves import Guess, SetCode
from wom_tui.domain.store import open_store
from wom_tui.domain.table import FINISHED, GUESSING, MAKING, Refused, SeatHolder

THINK = (3.0, 12.0)
"""Simulated seconds a scripted player takes for a move."""
BERSERK_SHARE = 0.25
LONG_WAIT = 60.0
"""A wait longer than this counts its player as left alone."""


class Clock:
    """The store's live clock: simulated seconds the bench moves on."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, int(round(share * len(ordered) + 0.5)) - 1))]


def measure(players: int = 20, minutes: int = 10, join_within: float = 60.0, step: float = 0.5,
            seed: int = 37, store_at: str | None = None) -> dict[str, Any]:
    """Run one arena (see the module); the figures."""
    rng = random.Random(seed)
    # In memory where there is /dev/shm: the figures are in simulated time, and the disk's fsyncs would only make
    # the run longer.
    memory = "/dev/shm" if Path("/dev/shm").is_dir() else None
    with tempfile.TemporaryDirectory(prefix="wom-arena-", dir=memory) as folder:
        store = open_store(store_at or str(Path(folder) / "data"))
        try:
            return _run(store, rng, players, minutes, join_within, step)
        finally:
            store.close()


def _run(store: Any, rng: random.Random, count: int, minutes: int, join_within: float, step: float) -> dict[str, Any]:
    started_wall = time.perf_counter()
    live = store.live
    clock = live.clock = Clock(1_000_000.0)
    names = [f"Arena{n:02d}" for n in range(count)]
    for name in names:
        store.register(name)
    people = {name: SeatHolder(name, f"bench-{name.lower()}", True) for name in names}
    arrive = {name: clock.now + rng.uniform(0, join_within) for name in names}
    arena = live.start_arena("bench-arena", minutes, ArenaRules(8, 30.0))
    end = arena.ends_at
    presences: dict[str, Any] = {}
    last_beat = 0.0
    next_pairing = clock.now
    due: dict[tuple[str, str], float] = {}  # (table, name) → when the player's next move comes
    all_codes = ["".join(c) for c in itertools.product("RGBYWK", repeat=4)]
    waits: list[float] = []
    longest: dict[str, float] = {}
    ready_since: dict[str, float] = {}
    """Since when each player waits for a game, as the player sees it: since joining, or since seeing their game
    end (a move that ended it, or a clock run out: seen at once, as a served screen is told)."""
    playing: dict[str, tuple[str, ...]] = {}  # table → its players, while the bench has not seen it end
    berserk_games = 0
    while clock.now < end + 120.0:
        # Arrivals, and presence kept up in real time (a session's heartbeat).
        for name in names:
            if name not in presences and clock.now >= arrive[name]:
                presences[name] = live.join(name, True, people[name].session)
                live.join_arena(people[name])
                ready_since[name] = clock.now
        # Games that ended: a clock run out is applied as the server's sweep does, the end seen by the players.
        for table_id, seated in list(playing.items()):
            table = live.table(table_id)
            if table is not None and table.phase not in (FINISHED, "closed"):
                due_at = table.next_due()
                if due_at is not None and due_at <= clock.now:
                    table = live.tick(table_id)
            if table is None or table.phase in (FINISHED, "closed"):
                del playing[table_id]
                for name in seated:
                    if clock.now < end:
                        ready_since[name] = clock.now
        if time.monotonic() - last_beat > 1.0:
            for presence in presences.values():
                live.heartbeat(presence)
            last_beat = time.monotonic()
        # The hub's pairing loop.
        if clock.now >= next_pairing:
            before = live.arena()
            for entrant in before.entrants:  # berserk chosen before the next game, one time in four
                if entrant.waiting and not entrant.berserk and rng.random() < BERSERK_SHARE / 4:
                    live.arena_berserk(entrant.holder, True)
            tables = live.arena_wave(rng.getrandbits(48))
            for table in tables:
                berserk_games += bool(table.berserk)
                playing[table.table_id] = tuple(name or "" for name in table.names)
                for name in table.names:
                    wait = clock.now - ready_since.pop(name or "", clock.now)
                    waits.append(wait)
                    longest[name or ""] = max(longest.get(name or "", 0.0), wait)
                    due[(table.table_id, name or "")] = clock.now + rng.uniform(*THINK)
            next_pairing = clock.now + PAIRING_INTERVAL
        # The players' moves that are due.
        for (table_id, name), when in sorted(due.items(), key=lambda item: item[1]):
            if when > clock.now:
                continue
            person = people[name]
            table = live.table(table_id)
            if table is None or table.phase == FINISHED or table.phase not in (MAKING, GUESSING):
                del due[(table_id, name)]
                continue
            view = table.view_for(person)
            try:
                if table.phase == MAKING and view.own is not None and view.own.code_for is not None:
                    live.play(table_id, SetCode(person, rng.choice(all_codes)))
                elif table.phase == GUESSING and view.own is not None and not view.own.done:
                    history = view.own.history
                    fits = [code for code in all_codes
                            if all(feedback(code, a.guess) == a.feedback for a in history)]
                    live.play(table_id, Guess(person, rng.choice(fits or all_codes)))
            except Refused:
                pass  # (out of time meanwhile: the table says so)
            due[(table_id, name)] = clock.now + rng.uniform(*THINK)
        clock.now += step
    # One last step of the loop scores the games that ended.
    live.arena_wave(rng.getrandbits(48))
    for name, since in ready_since.items():  # a wait still under way when the arena ended
        longest[name] = max(longest.get(name, 0.0), end - since)
    arena = live.arena()
    played = {name for game in arena.games for name in game.names}
    left_alone = sum(1 for name in names if name not in played or longest.get(name, 0.0) > LONG_WAIT)
    return _figures(store, arena, waits, left_alone, berserk_games, count, time.perf_counter() - started_wall)


def _figures(store: Any, arena: Arena, waits: list[float], left_alone: int, berserk_games: int, count: int,
             wall: float) -> dict[str, Any]:
    # Repeats: a game whose two players' previous games were against each other.
    repeats = 0
    for index, game in enumerate(arena.games):
        a, b = game.players
        earlier = arena.games[:index]
        last_a = next((g for g in reversed(earlier) if a in g.players), None)
        if last_a is not None and b in last_a.players:
            repeats += 1
    # The standings again, from the games the store recorded (each game's points from its record).
    records = {record.table_id: record for record in store.games() if record.table_id}
    rebuilt_games = []
    for game in arena.games:
        record = records.get(game.table_id)
        if game.over and record is not None:
            lines = {line.name.lower(): line for line in record.players}
            sides = [lines[name.lower()] for name in game.names]
            points = game_points(arena.rules.attempts, [(line.broke, line.attempts) for line in sides])
            rebuilt_games.append(type(game)(game.table_id, game.players, game.names, game.started_at, game.berserk,
                                            game.finished_at, points, tuple(line.attempts for line in sides)))
        elif not game.over:
            rebuilt_games.append(game)
    rebuilt = type(arena)(arena.arena_id, arena.starts_at, arena.minutes, arena.rules, arena.entrants,
                          tuple(rebuilt_games), arena.last_pairing)
    counted = [g for g in arena.games if g.over and (g.finished_at or 0) <= arena.ends_at]
    return {
        "arena_wait_median_s": round(statistics.median(waits), 2) if waits else 0.0,
        "arena_wait_p95_s": round(percentile(waits, 0.95), 2),
        "left_alone": left_alone,
        "repeat_pairings": repeats,
        "standings_match": standings(rebuilt) == standings(arena) and len(rebuilt_games) == len(arena.games),
        "games": len(arena.games),
        "games_counted": len(counted),
        "players": count,
        "berserk_games": berserk_games,
        "top_score": standings(arena)[0].score if arena.entrants else 0,
        "wall_s": round(wall, 1),
    }


def main(argv: list[str] | None = None) -> int:
    """Run the bench and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--minutes", type=int, default=10, help="how long the arena lasts (5 to 180)")
    parser.add_argument("--join-within", type=float, default=60.0, metavar="SECONDS")
    parser.add_argument("--step", type=float, default=0.5, metavar="SECONDS", help="simulated seconds a step")
    parser.add_argument("--seed", type=int, default=37)
    parser.add_argument("--store", metavar="URL", help="a PostgreSQL database (default: a fresh data folder)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args(argv)
    figures = measure(args.players, args.minutes, args.join_within, args.step, args.seed, args.store)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:>22}  {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
