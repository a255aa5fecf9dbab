"""A player's statistics, computed only from the game records the store kept (docs/play.md, *My stats and replays*).

The store hands over one :class:`GameSummary` per recorded game (who played, who broke their code
in how many guesses, the points); :func:`player_stats` turns them into what *My stats* shows.
Nothing here reads files or the clock: the same summaries always give the same statistics.

What counts:

* A user's games are the recorded games in which they tried to break a code — World of
  Mastermind, solo and daily games — found by their name (case ignored) with ``is_user`` set.
  Flip games (the computer breaks *your* code) are replays, not code-breaking statistics.
* Guests' games count for nobody: a guest's line has ``is_user`` False, whatever its name.
* A win is a broken code; its guesses are the attempts it took (lifeline costs included).
* Games are taken in the order they finished (time, then game id, which sorts by time too).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import attrgetter, is_
from typing import NamedTuple

from .codes import Ruleset
from .records import GameRecord
from .variants import Variant
from .users import COMPUTER_NAMES, name_key

_ORDER = attrgetter("finished_at", "game_id")

BREAKING_KINDS = ("wom", "solo", "daily")
"""Kinds of game in which a person breaks a code: the ones a user's statistics count."""

LOSS_LABEL = "X"
"""The label of the chart's bar for games lost."""


class PlayerLine(NamedTuple):
    """One player of a recorded game, as much as statistics need."""

    name: str
    is_user: bool
    broke: bool
    attempts: int
    points: int


class GameSummary(NamedTuple):
    """One recorded game, as much as statistics and the replay list need (no guesses)."""

    game_id: str
    kind: str
    ruleset: Ruleset
    finished_at: str
    players: tuple[PlayerLine, ...]
    hot_seat: bool | None = None
    """Where a World of Mastermind game was played (see :class:`~.records.GameRecord`): None if not known."""
    rated: bool = True
    """False: the record says the ratings leave it out (:attr:`~.records.GameRecord.rated`)."""
    arena: str | None = None
    """The Code Arena that paired the game (:attr:`~.records.GameRecord.arena`), if one did."""
    variant: Variant = Variant.CLASSIC
    """The variant played (:attr:`~.records.GameRecord.variant`)."""

    @classmethod
    def of(cls, game_id: str, record: GameRecord) -> GameSummary:
        """The summary of a full game record."""
        return cls(
            game_id,
            record.kind,
            record.ruleset,
            record.finished_at,
            tuple(PlayerLine(p.name, p.is_user, p.broke, p.attempts, p.points) for p in record.players),
            record.hot_seat,
            record.rated,
            record.arena,
            record.variant,
        )

    @property
    def order(self) -> tuple[str, str]:
        """The key that sorts games by when they finished."""
        return (self.finished_at, self.game_id)

    def line_of(self, name: str) -> PlayerLine | None:
        """The registered user ``name``'s line in this game (case ignored), or None."""
        key = name_key(name)
        for line in self.players:
            if line.is_user and name_key(line.name) == key:
                return line
        return None


@dataclass(frozen=True)
class Bar:
    """One bar of the guess-distribution chart: ``"4"`` (won in 4 guesses) or ``"X"`` (lost)."""

    label: str
    count: int
    highlight: bool = False
    """True for the bar the player's last game on these rules fell in."""


@dataclass(frozen=True)
class ComputerAverage:
    """How a computer player did on the same rules, in every recorded game where it broke codes."""

    name: str
    games: int
    wins: int
    average: float | None
    """Average guesses over its wins; None without a win."""


@dataclass(frozen=True)
class RulesetStats:
    """A player's games on one ruleset: the chart and the comparison with HAL9000 and VIKI."""

    ruleset: Ruleset
    games: int
    wins: int
    average: float | None
    """Average guesses over the wins; None without a win."""
    bars: tuple[Bar, ...]
    """One bar per guess count (1 … guesses allowed), then the losses (``"X"``)."""
    computers: tuple[ComputerAverage, ...]


@dataclass(frozen=True)
class PlayerStats:
    """What *My stats* shows for one registered user."""

    player: str
    games: int
    wins: int
    current_streak: int
    """Wins in a row up to the latest game."""
    best_streak: int
    average: float | None
    """Average guesses over every win; None without a win."""
    rulesets: tuple[RulesetStats, ...]
    """Every ruleset the player played, the one of their latest game first."""
    points: tuple[int, ...]
    """Total points after each World of Mastermind game, oldest first."""
    arena_games: int = 0
    """Of the games, those a Code Arena paired (their records name it)."""
    variant_games: tuple[tuple[Variant, int], ...] = ()
    """Of the games, how many each variant had (docs/play.md, *Variants*), in the variants' order; only those
    played (classic games are the rest)."""

    @property
    def variants_line(self) -> str | None:
        """``"Variants: Quad 2 · Liar 1"``, or None when every game was classic."""
        if not self.variant_games:
            return None
        return "Variants: " + " · ".join(f"{variant.label} {count}" for variant, count in self.variant_games)

    @property
    def win_percent(self) -> int:
        """Wins as a whole percentage of games, rounded half up (0 without games)."""
        if not self.games:
            return 0
        return (200 * self.wins + self.games) // (2 * self.games)

    def for_ruleset(self, key: str) -> RulesetStats | None:
        """The statistics on the ruleset with this key (``"4-wom-repeats-10"``), or None."""
        for stats in self.rulesets:
            if stats.ruleset.key == key:
                return stats
        return None


def _average(values: Sequence[int]) -> float | None:
    return sum(values) / len(values) if values else None


def _streaks(results: Sequence[bool]) -> tuple[int, int]:
    """(current, best) runs of True in ``results`` (oldest first)."""
    best = run = 0
    for won in results:
        run = run + 1 if won else 0
        best = max(best, run)
    return run, best


def computer_averages(games: Iterable[GameSummary], ruleset: Ruleset) -> tuple[ComputerAverage, ...]:
    """HAL9000's and VIKI's record as code breakers on ``ruleset``, in every kind of recorded game."""
    return _computer_averages(games, {ruleset.key})[ruleset.key]


def _computer_averages(games: Iterable[GameSummary], keys: set[str]) -> dict[str, tuple[ComputerAverage, ...]]:
    """:func:`computer_averages` for several rulesets (by key) in one pass over the games."""
    wins: dict[tuple[str, str], list[int]] = {}
    played: dict[tuple[str, str], int] = {}
    key_of: dict[int, str] = {}
    for game in games:
        ruleset = game.ruleset
        key = key_of.get(id(ruleset))
        if key is None:
            key = key_of[id(ruleset)] = ruleset.key
        if key not in keys:
            continue
        for line in game.players:
            if line.is_user or line.name not in COMPUTER_NAMES:
                continue
            slot = (key, line.name)
            played[slot] = played.get(slot, 0) + 1
            if line.broke:
                wins.setdefault(slot, []).append(line.attempts)
    return {
        key: tuple(
            ComputerAverage(name, played.get((key, name), 0), len(wins.get((key, name), [])),
                            _average(wins.get((key, name), [])))
            for name in COMPUTER_NAMES
        )
        for key in keys
    }


def player_stats(games: Iterable[GameSummary], player: str) -> PlayerStats:
    """The statistics of the registered user ``player`` (case ignored) from the recorded games.

    One pass over the games (10,000 of them in a few milliseconds): the player's own lines, and
    HAL9000's and VIKI's results on every ruleset for the comparison.
    """
    key = name_key(player)
    keys: dict[str, str] = {}  # each distinct name's key, worked out once
    rulesets: dict[int, str] = {}  # each ruleset object's key, worked out once
    own: list[tuple[GameSummary, PlayerLine]] = []
    played: dict[tuple[str, str], int] = {}
    wins: dict[tuple[str, str], list[int]] = {}
    for game in sorted(games, key=_ORDER):
        mine = game.kind in BREAKING_KINDS
        ruleset_key = None
        for line in game.players:
            if line.is_user:
                if mine:
                    line_key = keys.get(line.name)
                    if line_key is None:
                        line_key = keys[line.name] = name_key(line.name)
                    if line_key == key:
                        own.append((game, line))
                        mine = False  # one line per game
            elif line.name in COMPUTER_NAMES:
                if ruleset_key is None:
                    ruleset_key = rulesets.get(id(game.ruleset))
                    if ruleset_key is None:
                        ruleset_key = rulesets[id(game.ruleset)] = game.ruleset.key
                slot = (ruleset_key, line.name)
                played[slot] = played.get(slot, 0) + 1
                if line.broke:
                    wins.setdefault(slot, []).append(line.attempts)
    results = [line.broke for _, line in own]
    current, best = _streaks(results)
    by_ruleset: dict[str, list[tuple[GameSummary, PlayerLine]]] = {}
    for game, line in own:
        by_ruleset.setdefault(game.ruleset.key, []).append((game, line))
    # The ruleset of the latest game first, then the others by how recently they were played.
    order = sorted(by_ruleset, key=lambda key: by_ruleset[key][-1][0].order, reverse=True)
    computers = {
        key: tuple(
            ComputerAverage(name, played.get((key, name), 0), len(wins.get((key, name), [])),
                            _average(wins.get((key, name), [])))
            for name in COMPUTER_NAMES
        )
        for key in order
    }
    stats = tuple(_ruleset_stats(by_ruleset[key], computers[key]) for key in order)
    points: list[int] = []
    total = 0
    for game, line in own:
        if game.kind == "wom":
            total += line.points
            points.append(total)
    return PlayerStats(
        player=own[-1][1].name if own else player,
        games=len(own),
        wins=sum(results),
        current_streak=current,
        best_streak=best,
        average=_average([line.attempts for _, line in own if line.broke]),
        rulesets=stats,
        points=tuple(points),
        arena_games=sum(1 for game, _ in own if game.arena is not None),
        variant_games=tuple((variant, count) for variant in Variant if variant is not Variant.CLASSIC
                            and (count := sum(1 for game, _ in own if game.variant is variant))),
    )


class StatsCache:
    """:func:`player_stats` remembered for the same games: opening *My stats* again (or switching back
    to a player already shown) costs no recomputation while the store hands over the same summaries.

    The games are "the same" when they are the very same summary objects in the same order (the
    store keeps its summaries while its index is unchanged, and makes new ones when a game is
    recorded or a file changes), so a cached result can never be stale.
    """

    MAX_PLAYERS = 64
    """At most this many players' statistics are kept for one set of games."""

    def __init__(self) -> None:
        self._games: tuple[GameSummary, ...] = ()
        self._results: dict[str, PlayerStats] = {}

    def player_stats(self, games: Sequence[GameSummary], player: str) -> PlayerStats:
        """``player_stats(games, player)``, computed once per set of games and player."""
        if len(games) != len(self._games) or not all(map(is_, games, self._games)):
            self._games = tuple(games)
            self._results = {}
        result = self._results.get(player)
        if result is None:
            if len(self._results) >= self.MAX_PLAYERS:
                self._results.clear()
            result = self._results[player] = player_stats(self._games, player)
        return result


def _ruleset_stats(
    own: Sequence[tuple[GameSummary, PlayerLine]], computers: tuple[ComputerAverage, ...]
) -> RulesetStats:
    ruleset = own[0][0].ruleset
    counts = [0] * ruleset.guesses
    losses = 0
    for _, line in own:
        if line.broke and 1 <= line.attempts <= ruleset.guesses:
            counts[line.attempts - 1] += 1
        else:
            losses += 1
    last = own[-1][1]
    last_label = str(last.attempts) if last.broke and 1 <= last.attempts <= ruleset.guesses else LOSS_LABEL
    bars = [Bar(str(n), count, str(n) == last_label) for n, count in enumerate(counts, 1)]
    bars.append(Bar(LOSS_LABEL, losses, last_label == LOSS_LABEL))
    wins = [line.attempts for _, line in own if line.broke]
    return RulesetStats(
        ruleset=ruleset,
        games=len(own),
        wins=len(wins),
        average=_average(wins),
        bars=tuple(bars),
        computers=computers,
    )


def players_in(games: Iterable[GameSummary]) -> list[str]:
    """Names of the registered users with at least one counted game, A–Z (case ignored)."""
    names: dict[str, str] = {}
    for game in games:
        if game.kind in BREAKING_KINDS:
            for line in game.players:
                if line.is_user:
                    names.setdefault(name_key(line.name), line.name)
    return sorted(names.values(), key=lambda name: (name.casefold(), name))


__all__ = [
    "BREAKING_KINDS",
    "LOSS_LABEL",
    "Bar",
    "ComputerAverage",
    "GameSummary",
    "PlayerLine",
    "PlayerStats",
    "RulesetStats",
    "StatsCache",
    "computer_averages",
    "player_stats",
    "players_in",
]
