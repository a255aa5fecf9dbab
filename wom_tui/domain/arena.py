"""Code Arena: a timed event where everyone who joined is paired, game after game, into duels of World of
Mastermind, and scored as lichess scores its arenas.

For players: docs/play.md, *Code Arena*; for operators: docs/arcade.md, *Code Arena*.

An :class:`Arena` starts at ``starts_at`` and lasts ``minutes``. Its :class:`ArenaRules` say the attempts and
the per-guess clock of every game. People join (and may pause, and come back) while it runs; whoever waits is
paired continuously (:func:`pairings`): by arena rank, never with the opponent of their last game, except in a
*duel* — when only two people are in the arena, they play each other again and again. Each pairing becomes a
two-seat live table (:mod:`.table`); when its game ends, :meth:`Arena.finish_game` keeps each side's World of
Mastermind points, and the one with more points wins (equal points: a draw).

Scoring (:func:`score_sheet`): a win is 2, a draw 1, a loss 0; after two wins in a row a player is *on fire*,
and every win counts double (4) until a game that is not a win. **Berserk**: a player may choose, before their
next game is paired, to play it on half the clock; a berserk win in which they made at least
:data:`BERSERK_MIN_GUESSES` guesses earns one point more (never doubled). Only games finished by the arena's end
count; a game still under way then is played out but does not count.

The standings (:func:`standings`) are a pure function of the arena's games: nothing is kept that they could
disagree with. Everything here is pure: the time comes in as ``now``, table ids from the caller.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from .game import Refusal
from .scoring import breakdown
from .table import GUESS_CLOCKS, SeatHolder, Table, TableDataError
from .wom import MAX_ATTEMPTS, MIN_ATTEMPTS
from .words import counted

Outcome = Literal["win", "draw", "loss"]
WIN: Outcome = "win"
DRAW: Outcome = "draw"
LOSS: Outcome = "loss"
POINTS: dict[str, int] = {WIN: 2, DRAW: 1, LOSS: 0}
"""Arena points of a game's outcome, off fire."""
FIRE_AFTER = 2
"""Wins in a row after which every win counts double."""
BERSERK_MIN_GUESSES = 3
"""Guesses a berserk player must have made in a won game for its extra point."""
PAIRING_INTERVAL = 2.0
"""Seconds between two pairings of the players waiting."""
MIN_MINUTES, MAX_MINUTES = 5, 180
"""How long an arena may last."""
PODIUM = 3
UPCOMING, RUNNING, OVER = "upcoming", "running", "over"
_ARENA_ID = re.compile(r"[A-Za-z0-9_\-]{1,64}")
_RULES_WORD = re.compile(r"^\s*(attempts|clock)\s*=\s*(\d+)\s*$")


class ArenaRefused(Refusal):
    """Something the arena does not allow now; ``reason`` is the sentence shown to the person."""


@dataclass(frozen=True)
class ArenaRules:
    """The rules of every game of an arena: the attempts and the seconds each guess may take."""

    attempts: int = 8
    guess_clock: float = 30.0

    def __post_init__(self) -> None:
        if type(self.attempts) is not int or not MIN_ATTEMPTS <= self.attempts <= MAX_ATTEMPTS:
            raise ArenaRefused(f"An arena's games have {MIN_ATTEMPTS} to {MAX_ATTEMPTS} attempts.")
        if self.guess_clock not in GUESS_CLOCKS:
            raise ArenaRefused("An arena's clock per guess is " + ", ".join(f"{c:g}" for c in GUESS_CLOCKS)
                               + " seconds.")

    @property
    def berserk_clock(self) -> float:
        """A berserk player's seconds per guess: half the clock."""
        return self.guess_clock / 2

    def describe(self) -> str:
        """``8 attempts, 30 s a guess``."""
        return f"{self.attempts} attempts, {self.guess_clock:g} s a guess"

    def as_json(self) -> dict[str, Any]:
        """The value as plain JSON data."""
        return {"attempts": self.attempts, "guess_clock": self.guess_clock}

    @classmethod
    def from_json(cls, data: Any) -> ArenaRules:
        """Rebuild from :meth:`as_json` data; :class:`.table.TableDataError` if it is not one."""
        if not isinstance(data, dict) or set(data) != {"attempts", "guess_clock"} \
                or type(data["guess_clock"]) not in (int, float):
            raise TableDataError("an arena's rules are exactly attempts and guess_clock")
        try:
            return cls(data["attempts"], float(data["guess_clock"]))
        except ArenaRefused as exc:
            raise TableDataError(exc.reason) from None


def parse_rules(text: str) -> ArenaRules:
    """``"attempts=8,clock=30"`` (either, in any order; the rest the defaults) as rules; :class:`ArenaRefused`
    with the reason for anything else.
    """
    values: dict[str, int] = {}
    for word in filter(None, (w.strip() for w in re.split(r"[,\s]+(?=\w+\s*=)", text.strip()))):
        match = _RULES_WORD.match(word)
        if match is None:
            raise ArenaRefused(f"Arena rules are attempts=N and clock=SECONDS (e.g. attempts=8,clock=30), "
                               f"not {word[:40]!r}.")
        if match[1] in values:
            raise ArenaRefused(f"The arena's {match[1]} is given twice.")
        values[match[1]] = int(match[2])
    defaults = ArenaRules()
    return ArenaRules(values.get("attempts", defaults.attempts), float(values.get("clock", defaults.guess_clock)))


def entrant_key(holder: SeatHolder) -> str:
    """Who an entrant is across sessions: a registered name (case ignored), or a guest's session."""
    registered, key = holder.identity
    return f"user:{key}" if registered else f"guest:{key}"


@dataclass(frozen=True)
class Entrant:
    """Someone who joined the arena."""

    holder: SeatHolder
    joined_at: float
    waiting_since: float | None
    """Since when they wait for a game (None: playing one, or paused)."""
    table_id: str | None = None
    """The table of the game they play now (None: not playing)."""
    paused: bool = False
    berserk: bool = False
    """Their next game is played berserk (half the clock)."""

    @property
    def key(self) -> str:
        """Who this is across sessions (:func:`entrant_key`)."""
        return entrant_key(self.holder)

    @property
    def waiting(self) -> bool:
        """Waiting for a game now."""
        return self.waiting_since is not None

    def as_json(self) -> dict[str, Any]:
        """The value as plain JSON data."""
        return {"holder": self.holder.as_json(), "joined_at": self.joined_at, "waiting_since": self.waiting_since,
                "table_id": self.table_id, "paused": self.paused, "berserk": self.berserk}

    @classmethod
    def from_json(cls, data: Any) -> Entrant:
        """Rebuild from :meth:`as_json` data; :class:`.table.TableDataError` if it is not one."""
        keys = {"holder", "joined_at", "waiting_since", "table_id", "paused", "berserk"}
        if not isinstance(data, dict) or set(data) != keys or type(data["joined_at"]) not in (int, float) \
                or (data["waiting_since"] is not None and type(data["waiting_since"]) not in (int, float)) \
                or (data["table_id"] is not None and not isinstance(data["table_id"], str)) \
                or type(data["paused"]) is not bool or type(data["berserk"]) is not bool:
            raise TableDataError("an arena entrant needs exactly " + ", ".join(sorted(keys)))
        return cls(SeatHolder.from_json(data["holder"]), float(data["joined_at"]),
                   None if data["waiting_since"] is None else float(data["waiting_since"]), data["table_id"],
                   data["paused"], data["berserk"])


@dataclass(frozen=True)
class ArenaGame:
    """One game of the arena: its table, its two players (entrant keys, names) and, once over, how it went."""

    table_id: str
    players: tuple[str, str]
    names: tuple[str, str]
    started_at: float
    berserk: tuple[bool, bool] = (False, False)
    finished_at: float | None = None
    points: tuple[int, int] | None = None
    """Each side's World of Mastermind points (breaking + making)."""
    guesses: tuple[int, int] | None = None
    """Guesses each side made."""

    @property
    def over(self) -> bool:
        """The game has ended (its points are known)."""
        return self.points is not None

    def outcome(self, side: int) -> Outcome | None:
        """How the game went for ``side`` (0 or 1): None while it is played."""
        if self.points is None:
            return None
        mine, theirs = self.points[side], self.points[1 - side]
        return WIN if mine > theirs else DRAW if mine == theirs else LOSS

    def berserk_bonus(self, side: int) -> bool:
        """``side`` played berserk, won, and made at least :data:`BERSERK_MIN_GUESSES` guesses."""
        return self.berserk[side] and self.outcome(side) == WIN and self.guesses is not None \
            and self.guesses[side] >= BERSERK_MIN_GUESSES

    def side_of(self, key: str) -> int | None:
        """The side (0 or 1) of the entrant ``key`` in this game, None if they are not in it."""
        return self.players.index(key) if key in self.players else None

    def as_json(self) -> dict[str, Any]:
        """The value as plain JSON data."""
        return {"table_id": self.table_id, "players": list(self.players), "names": list(self.names),
                "started_at": self.started_at, "berserk": list(self.berserk), "finished_at": self.finished_at,
                "points": None if self.points is None else list(self.points),
                "guesses": None if self.guesses is None else list(self.guesses)}

    @classmethod
    def from_json(cls, data: Any) -> ArenaGame:
        """Rebuild from :meth:`as_json` data; :class:`.table.TableDataError` if it is not one."""
        keys = {"table_id", "players", "names", "started_at", "berserk", "finished_at", "points", "guesses"}
        if not isinstance(data, dict) or set(data) != keys:
            raise TableDataError("an arena game needs exactly " + ", ".join(sorted(keys)))

        def pair_of(value: Any, kind: type | tuple[type, ...], what: str) -> Any:
            if not isinstance(value, list) or len(value) != 2 or not all(type(v) in (kind if isinstance(kind, tuple)
                                                                                     else (kind,)) for v in value):
                raise TableDataError(f"an arena game's {what} are two values")
            return tuple(value)
        over = data["points"] is not None
        if over != (data["guesses"] is not None) or over != (data["finished_at"] is not None) \
                or type(data["started_at"]) not in (int, float) or not isinstance(data["table_id"], str):
            raise TableDataError("an arena game that is over has its points, guesses and end; one under way none")
        return cls(data["table_id"], pair_of(data["players"], str, "players"), pair_of(data["names"], str, "names"),
                   float(data["started_at"]), pair_of(data["berserk"], bool, "berserk"),
                   None if not over else float(data["finished_at"]),
                   pair_of(data["points"], int, "points") if over else None,
                   pair_of(data["guesses"], int, "guesses") if over else None)


def game_points(attempts: int, boards: Sequence[tuple[bool, int]]) -> tuple[int, int]:
    """Both sides' World of Mastermind points in a duel, from each side's (broke, attempts used) on the board it
    broke: breaking points, and making points from how the other side fared on the code they made.
    """
    (a_broke, a_used), (b_broke, b_used) = boards
    return (breakdown("a", attempts, a_used, a_broke, b_used, b_broke).total,
            breakdown("b", attempts, b_used, b_broke, a_used, a_broke).total)


def score_sheet(results: Iterable[tuple[Outcome, bool]]) -> list[int]:
    """The arena points of each game of one player, in the order they ended: ``results`` are each game's
    outcome and whether it earned the berserk point. Win 2, draw 1, loss 0; a win after
    :data:`FIRE_AFTER` wins in a row counts double until a game that is not a win; berserk: +1.
    """
    sheet, streak = [], 0
    for outcome, bonus in results:
        points = POINTS[outcome]
        if outcome == WIN:
            if streak >= FIRE_AFTER:
                points *= 2
            streak += 1
        else:
            streak = 0
        sheet.append(points + (1 if bonus else 0))
    return sheet


def on_fire(results: Sequence[Outcome]) -> bool:
    """The player's last :data:`FIRE_AFTER` games were wins: their next win counts double."""
    return len(results) >= FIRE_AFTER and all(r == WIN for r in results[-FIRE_AFTER:])


@dataclass(frozen=True)
class Standing:
    """One line of the standings."""

    rank: int
    key: str
    name: str
    score: int
    games: int
    wins: int
    draws: int
    losses: int
    berserk_wins: int
    fire: bool
    sheet: tuple[int, ...]
    """The points of each counted game, in order."""
    playing: bool
    paused: bool


@dataclass(frozen=True)
class Arena:
    """One arena event: its time, its rules, who joined and every game paired (see the module)."""

    arena_id: str
    starts_at: float
    minutes: int
    rules: ArenaRules = ArenaRules()
    entrants: tuple[Entrant, ...] = ()
    games: tuple[ArenaGame, ...] = ()
    last_pairing: float = 0.0

    def __post_init__(self) -> None:
        if not isinstance(self.arena_id, str) or _ARENA_ID.fullmatch(self.arena_id) is None:
            raise ArenaRefused("An arena's id is 1 to 64 letters, digits, '_' or '-'.")
        if type(self.minutes) is not int or not MIN_MINUTES <= self.minutes <= MAX_MINUTES:
            raise ArenaRefused(f"An arena lasts {MIN_MINUTES} to {MAX_MINUTES} minutes.")

    @property
    def ends_at(self) -> float:
        """When the arena ends."""
        return self.starts_at + 60.0 * self.minutes

    def phase(self, now: float) -> str:
        """``upcoming``, ``running`` or ``over``."""
        return UPCOMING if now < self.starts_at else RUNNING if now < self.ends_at else OVER

    def countdown(self, now: float) -> str:
        """What the menu says of it: ``Code Arena starts in 4:05`` / ``Code Arena: 12:30 left`` / ``…is over``."""
        phase = self.phase(now)
        if phase == OVER:
            return "Code Arena is over"
        left = int(max(0.0, (self.starts_at if phase == UPCOMING else self.ends_at) - now))
        clock = f"{left // 60}:{left % 60:02d}"
        return f"Code Arena starts in {clock}" if phase == UPCOMING else f"Code Arena: {clock} left"

    def entrant(self, who: SeatHolder | str) -> Entrant | None:
        """The entrant who is ``who`` (a person, or an entrant key), if they joined."""
        key = who if isinstance(who, str) else entrant_key(who)
        return next((e for e in self.entrants if e.key == key), None)

    def _with(self, entrant: Entrant) -> Arena:
        return replace(self, entrants=tuple(entrant if e.key == entrant.key else e for e in self.entrants))

    # -- joining, pausing, berserk

    def join(self, holder: SeatHolder, now: float) -> Arena:
        """``holder`` joins (or comes back from a pause, or on a new session): they wait for a game."""
        if self.phase(now) == OVER:
            raise ArenaRefused("This arena is over.")
        found = self.entrant(holder)
        if found is None:
            return replace(self, entrants=(*self.entrants, Entrant(holder, now, now)))
        waiting_since = found.waiting_since if found.table_id is not None or found.waiting else now
        return self._with(replace(found, holder=holder, paused=False,
                                  waiting_since=None if found.table_id is not None else waiting_since))

    def pause(self, who: SeatHolder | str) -> Arena:
        """Stop being paired (the score stays; joining again resumes). A game under way is played out."""
        found = self.entrant(who)
        if found is None:
            raise ArenaRefused("You have not joined this arena.")
        return self._with(replace(found, paused=True, waiting_since=None))

    def set_berserk(self, who: SeatHolder | str, on: bool) -> Arena:
        """Play the next game berserk (half the clock) or not; refused for someone not waiting for a game."""
        found = self.entrant(who)
        if found is None:
            raise ArenaRefused("You have not joined this arena.")
        if found.table_id is not None:
            raise ArenaRefused("Berserk is chosen before a game is paired: this one has started.")
        return self._with(replace(found, berserk=bool(on)))

    # -- pairing and games

    def pairing_due(self, now: float, interval: float = PAIRING_INTERVAL) -> bool:
        """Running, two are waiting, and the last pairing is ``interval`` old."""
        return self.phase(now) == RUNNING and now - self.last_pairing >= interval \
            and sum(1 for e in self.entrants if e.waiting and not e.paused) >= 2

    def last_opponent(self, key: str) -> str | None:
        """The entrant ``key`` played last (None: no game yet)."""
        for game in reversed(self.games):
            side = game.side_of(key)
            if side is not None:
                return game.players[1 - side]
        return None

    def pair(self, now: float, new_table: Callable[[Entrant, Entrant], Table]) -> tuple[Arena, list[Table]]:
        """Pair who waits (:func:`pairings`) and open each pair's table with ``new_table(first, second)``;
        the arena with the games under way and the tables opened.
        """
        if self.phase(now) != RUNNING:
            return replace(self, last_pairing=now), []
        arena, tables = self, []
        for a, b in pairings(self, now):
            table = new_table(a, b)
            tables.append(table)
            game = ArenaGame(table.table_id, (a.key, b.key), (a.holder.name, b.holder.name), now,
                             (a.berserk, b.berserk))
            arena = replace(arena, games=(*arena.games, game))
            for entrant in (a, b):
                arena = arena._with(replace(entrant, waiting_since=None, table_id=table.table_id, berserk=False))
        return replace(arena, last_pairing=now), tables

    def game(self, table_id: str) -> ArenaGame | None:
        """The arena game played at ``table_id``, if any."""
        return next((g for g in self.games if g.table_id == table_id), None)

    def finish_game(self, table_id: str, boards: Sequence[tuple[bool, int]], guesses: Sequence[int],
                    now: float) -> Arena:
        """The game at ``table_id`` is over: each side's (broke, attempts used) and guesses made; its players
        wait for the next game (unless paused, or the arena is over). Finishing it again changes nothing.
        """
        game = self.game(table_id)
        if game is None or game.over:
            return self
        points = game_points(self.rules.attempts, boards)
        done = replace(game, finished_at=now, points=points, guesses=(int(guesses[0]), int(guesses[1])))
        arena = replace(self, games=tuple(done if g.table_id == table_id else g for g in self.games))
        running = self.phase(now) == RUNNING
        for key in game.players:
            entrant = arena.entrant(key)
            if entrant is not None and entrant.table_id == table_id:
                arena = arena._with(replace(entrant, table_id=None,
                                            waiting_since=now if running and not entrant.paused else None))
        return arena

    def drop_game(self, table_id: str, now: float) -> Arena:
        """The game's table is gone without an end (closed, damaged): it does not count; its players wait again."""
        game = self.game(table_id)
        if game is None or game.over:
            return self
        arena = replace(self, games=tuple(g for g in self.games if g.table_id != table_id))
        for key in game.players:
            entrant = arena.entrant(key)
            if entrant is not None and entrant.table_id == table_id:
                arena = arena._with(replace(entrant, table_id=None, waiting_since=now
                                            if self.phase(now) == RUNNING and not entrant.paused else None))
        return arena

    @property
    def under_way(self) -> tuple[ArenaGame, ...]:
        """The games being played."""
        return tuple(g for g in self.games if not g.over)

    def as_json(self) -> dict[str, Any]:
        """The value as plain JSON data."""
        return {"arena_id": self.arena_id, "starts_at": self.starts_at, "minutes": self.minutes,
                "rules": self.rules.as_json(), "entrants": [e.as_json() for e in self.entrants],
                "games": [g.as_json() for g in self.games], "last_pairing": self.last_pairing}

    @classmethod
    def from_json(cls, data: Any) -> Arena:
        """Rebuild from :meth:`as_json` data; :class:`.table.TableDataError` if it is not one."""
        keys = {"arena_id", "starts_at", "minutes", "rules", "entrants", "games", "last_pairing"}
        if not isinstance(data, dict) or set(data) != keys or not isinstance(data["arena_id"], str) \
                or type(data["starts_at"]) not in (int, float) or type(data["last_pairing"]) not in (int, float) \
                or not isinstance(data["entrants"], list) or not isinstance(data["games"], list):
            raise TableDataError("an arena needs exactly " + ", ".join(sorted(keys)))
        try:
            return cls(data["arena_id"], float(data["starts_at"]), data["minutes"], ArenaRules.from_json(data["rules"]),
                       tuple(Entrant.from_json(e) for e in data["entrants"]),
                       tuple(ArenaGame.from_json(g) for g in data["games"]), float(data["last_pairing"]))
        except ArenaRefused as exc:
            raise TableDataError(exc.reason) from None


def counted_games(arena: Arena) -> list[ArenaGame]:
    """The games that count: over by the arena's end, in the order they ended."""
    return sorted((g for g in arena.games if g.over and g.finished_at is not None and g.finished_at <= arena.ends_at),
                  key=lambda g: (g.finished_at or 0.0, g.table_id))


def standings(arena: Arena) -> list[Standing]:
    """The standings, computed from the arena's games alone: score, then fewer games, then who joined first."""
    results: dict[str, list[tuple[Outcome, bool]]] = {e.key: [] for e in arena.entrants}
    for game in counted_games(arena):
        for side, key in enumerate(game.players):
            outcome = game.outcome(side)
            assert outcome is not None
            results.setdefault(key, []).append((outcome, game.berserk_bonus(side)))
    order = {e.key: i for i, e in enumerate(arena.entrants)}
    rows = []
    for entrant in arena.entrants:
        mine = results[entrant.key]
        sheet = score_sheet(mine)
        outcomes = [o for o, _ in mine]
        rows.append(Standing(0, entrant.key, entrant.holder.name, sum(sheet), len(mine), outcomes.count(WIN),
                             outcomes.count(DRAW), outcomes.count(LOSS), sum(1 for _, b in mine if b),
                             on_fire(outcomes), tuple(sheet), entrant.table_id is not None, entrant.paused))
    rows.sort(key=lambda r: (-r.score, r.games, order[r.key]))
    return [replace(row, rank=rank) for rank, row in enumerate(rows, start=1)]


def podium(arena: Arena) -> list[Standing]:
    """The first three who played at least one counted game."""
    return [row for row in standings(arena) if row.games][:PODIUM]


def results_of(arenas: Iterable[Arena], name: str, now: float) -> list[tuple[Arena, Standing, int]]:
    """The registered ``name``'s line in each arena over by ``now`` in which they played a counted game, oldest
    first, with how many played there (My stats).
    """
    from .users import name_key

    key = f"user:{name_key(name)}"
    found = []
    for arena in arenas:
        if arena.phase(now) != OVER:
            continue
        rows = [row for row in standings(arena) if row.games]
        mine = next((row for row in rows if row.key == key), None)
        if mine is not None:
            found.append((arena, replace(mine, rank=rows.index(mine) + 1), len(rows)))
    return found


def results_line(results: Sequence[tuple[Arena, Standing, int]], games: int = 0) -> str | None:
    """``Code Arena: 3 played, 14 games · best 1st · 2 podiums · last 4th of 12, 9 points`` (None: none played);
    ``games``: the player's recorded arena games (``Code Arena: 14 games`` alone when the arenas are not kept).
    """
    played = f", {counted(games, 'game')}" if games else ""
    if not results:
        return f"Code Arena: {counted(games, 'game')}" if games else None
    best = min(row.rank for _, row, _ in results)
    podiums = sum(1 for _, row, _ in results if row.rank <= PODIUM)
    _, last, players = results[-1]
    return (f"Code Arena: {len(results)} played{played} · best {_ordinal(best)} · {podiums} on the podium · "
            f"last {_ordinal(last.rank)} of {players}, {last.score} points")


def arena_title(arena_id: str) -> str:
    """How a record names its arena to a player: ``Code Arena of 2026-11-29 07:00`` (UTC) for an id
    :func:`new_arena_id` made, else ``Code Arena arena-1``.
    """
    try:
        started = datetime.strptime(arena_id, "arena-%Y%m%dT%H%M%S")
    except ValueError:
        return f"Code Arena {arena_id}"
    return f"Code Arena of {started:%Y-%m-%d %H:%M}"


def _ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def pairings(arena: Arena, now: float) -> list[tuple[Entrant, Entrant]]:
    """Who plays whom now: those waiting (not paused) by arena rank, each with the nearest below who was not
    their last opponent. When only two people are in the arena (not paused), they play each other: a duel.
    """
    ranked = {row.key: row.rank for row in standings(arena)}
    waiting = sorted((e for e in arena.entrants if e.waiting and not e.paused),
                     key=lambda e: (ranked[e.key], e.waiting_since or 0.0))
    present = [e for e in arena.entrants if not e.paused]
    duel = len(present) == 2
    pairs: list[tuple[Entrant, Entrant]] = []
    while len(waiting) >= 2:
        first = waiting.pop(0)
        last = arena.last_opponent(first.key)
        partner = next((e for e in waiting if duel or (e.key != last and arena.last_opponent(e.key) != first.key)),
                       None)
        if partner is None:
            continue  # waits for someone else to finish
        waiting.remove(partner)
        pairs.append((first, partner))
    return pairs


def new_arena_id(now: float) -> str:
    """An arena's id: when it was made, to the second (sorts by time)."""
    return "arena-" + datetime.fromtimestamp(now, timezone.utc).strftime("%Y%m%dT%H%M%S")


def scheduled_due(latest: Arena | None, now: float, every_hours: float) -> bool:
    """``serve --arena-every HOURS``: a new arena is due now (none yet, or the newest is over and started at least
    ``every_hours`` ago).
    """
    return latest is None or (latest.phase(now) == OVER and now >= latest.starts_at + 3600.0 * every_hours)


def arena_table(table_id: str, a: Entrant, b: Entrant, rules: ArenaRules, *, seed: int, now: float,
                grace: float, pace: tuple[float, float] = (2.0, 5.0), arena_id: str | None = None) -> Table:
    """The started two-seat table of a pairing: ``a`` opens it, ``b`` sits, the codes are being made; a berserk
    player's clock is halved (:attr:`.table.Table.berserk`); the table (and so its game's record) names the
    arena ``arena_id``.
    """
    table = Table(table_id, a.holder, seats=2, attempts=rules.attempts, seed=seed, now=now, grace=grace, pace=pace,
                  guess_clock=rules.guess_clock)
    table.sit(b.holder, 1)
    table.berserk = frozenset(i for i, e in enumerate((a, b)) if e.berserk)
    table.arena = arena_id
    table.start(a.holder, now)
    return table


def table_outcome(table: Table) -> tuple[list[tuple[bool, int]], list[int]]:
    """A finished arena table's boards as :meth:`Arena.finish_game` takes them: each seat's (broke, attempts
    used), and the guesses each made.
    """
    rows = table.final_rows()
    return [(row.broke, row.attempts) for row in rows], [row.attempts for row in rows]


__all__ = [
    "Arena", "ArenaGame", "ArenaRefused", "ArenaRules", "arena_title", "BERSERK_MIN_GUESSES", "DRAW", "Entrant", "LOSS", "OVER",
    "PAIRING_INTERVAL", "RUNNING", "Standing", "UPCOMING", "WIN", "arena_table", "counted_games", "entrant_key",
    "game_points", "on_fire", "new_arena_id", "pairings", "parse_rules", "podium", "results_line", "results_of", "scheduled_due", "score_sheet", "standings",
    "table_outcome",
]
