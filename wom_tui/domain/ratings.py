"""Ratings: OpenSkill's Plackett–Luce model over every rated World of Mastermind game (docs/play.md, *Ratings*).

Ratings are a pure function of the recorded games taken in order (when they finished, then the game's
id): :func:`rate_games` computes them from nothing, and :meth:`RatingBook.apply` adds one game to a book
already computed, giving exactly the same numbers as rating everything again — so the store may keep a
book as a cache and rebuild it at will.

What is rated:

* World of Mastermind games at a live table with at least two rated players, and hot-seat games with
  at least two registered users (one person against the computers at one terminal is practice, not a
  rated game: nobody else saw it played);
* a rated player is a registered user or a computer player (HAL9000 and VIKI are rated like anyone,
  so they anchor the scale); guests are never rated and do not count towards the two;
* a record kept before records said where the game was played (``hot_seat`` None) is rated as it
  always was, by the first rule: rating the games again never moves a rating that was already shown;
* each player's standing is their points in the game (breaking + making, the same rule for computers,
  whose points the record does not keep but the scoring rules give again); equal points tie;
* a game that looks thrown counts for little (:data:`THROWN_WEIGHT` of a full update): at a live table, a
  person who made no guess at all (left, or let the clock run out), or two registered names who already
  played each other less than :data:`REPEAT_WINDOW` before (one person with two names, feeding one of
  them wins; docs/arcade.md, *Fair ratings*), except in a Code Arena, whose pairing is the system's.

The update is Weng and Lin's (JMLR 12, 2011, Algorithm 4) as the ``openskill`` package's
``PlackettLuce`` computes it, with its default parameters read from the package; a game costs a few
microseconds here instead of the ~240 µs of ``PlackettLuce.rate`` (which builds and deep-copies rating
objects with ids), which is what lets 100,000 games be rated again in seconds. The tests check each
update against ``PlackettLuce.rate`` itself (tests/domain/test_ratings.py).
"""

from __future__ import annotations

import gc
import math
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from typing import Any

from openskill.models import PlackettLuce

from .stats import GameSummary
from .users import computer_name, name_key
from .waits import REPEAT_PAIRING

_MODEL = PlackettLuce()
MU: float = _MODEL.mu
"""A new player's mean skill (OpenSkill's default, 25)."""
SIGMA: float = _MODEL.sigma
"""A new player's uncertainty (OpenSkill's default, 25/3)."""
_BETA_SQUARED: float = _MODEL.beta ** 2
_TAU_SQUARED: float = _MODEL.tau ** 2
_KAPPA: float = _MODEL.kappa

DISPLAY_BASE = 1000
"""The shown rating of μ − 3σ = 0, which is where every new player starts."""
DISPLAY_SCALE = 25
"""Shown points per unit of μ − 3σ: a settled average player (μ 25, σ about 2) shows about 1,450."""
PROVISIONAL_GAMES = 5
"""A rating is provisional (marked "?") until the player has this many rated games …"""
PROVISIONAL_SIGMA = 7.0
"""… and while σ is above this (a new player's is 8.33)."""
ACTIVE_DAYS = 30
"""The rating board lists players with a rated game in the last this many days."""
PROVISIONAL_MARK = "?"
"""What follows a provisional rating wherever it is shown (``1012?``)."""
PROVISIONAL_NOTE = f"{PROVISIONAL_MARK} provisional: fewer than {PROVISIONAL_GAMES} rated games, or still unsure"
"""The line under a board with a provisional rating on it."""
RATED_KIND = "wom"
THROWN_WEIGHT = 0.1
"""How much of a full rating update a game that looks thrown gives (a rule of the ratings, the same on every
server sharing a store: the ratings are a pure function of the games)."""
REPEAT_WINDOW = timedelta(seconds=REPEAT_PAIRING)
"""Two registered names who played each other less than this before: their next game looks thrown."""
_INT = {int}


def shown(mu: float, sigma: float) -> int:
    """The rating a player sees: the conservative μ − 3σ scaled to the familiar range (1000 at the start)."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 * sigma))


@dataclass
class Rating:
    """One player's rating: the model's μ and σ, rated games, when they last played, and what they showed."""

    name: str
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0
    last_played: str = ""
    """When the player's last rated game finished (ISO-8601), "" before any."""
    last_game: str = ""
    """The id of the player's last rated game."""
    history: list[int] = field(default_factory=list)
    """The shown rating after each rated game, oldest first."""

    @property
    def value(self) -> int:
        """The shown rating (see :func:`shown`)."""
        return shown(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        """True while too few games or too much uncertainty: the rating shows marked ``?``."""
        return self.games < PROVISIONAL_GAMES or self.sigma > PROVISIONAL_SIGMA

    @property
    def label(self) -> str:
        """``"1480"``, or ``"1012?"`` while provisional (the number, marked)."""
        return f"{self.value}{PROVISIONAL_MARK}" if self.provisional else str(self.value)

    def change_in(self, game_id: str) -> int | None:
        """How the shown rating moved in the game ``game_id`` if it is the player's last rated game, else None."""
        if not self.history or self.last_game != game_id:
            return None
        before = self.history[-2] if len(self.history) > 1 else shown(MU, SIGMA)
        return self.history[-1] - before

    def as_row(self) -> list[Any]:
        """Plain JSON data, one compact row (the store's cache keeps 10,000 of them)."""
        return [self.name, self.mu, self.sigma, self.games, self.last_played, self.last_game, self.history]

    @classmethod
    def from_row(cls, row: Any) -> Rating:
        """Rebuild from :meth:`as_row` data; ``ValueError`` if it is not one."""
        if not isinstance(row, list) or len(row) != 7:
            raise ValueError("not a rating")
        name, mu, sigma, games, last_played, last_game, history = row
        if not (isinstance(name, str) and type(mu) in (int, float) and type(sigma) in (int, float)
                and type(games) is int and isinstance(last_played, str) and isinstance(last_game, str)
                and isinstance(history, list) and set(map(type, history)) <= _INT
                and math.isfinite(mu) and math.isfinite(sigma) and sigma > 0):
            raise ValueError("not a rating")
        return cls(name, float(mu), float(sigma), games, last_played, last_game, history)


@dataclass(frozen=True)
class RatedGame:
    """A game as the ratings see it: its order key and each rated player's points, in seating order."""

    game_id: str
    finished_at: str
    players: tuple[tuple[str, int], ...]
    weight: float = 1.0
    """How much of a full update the game gives (:data:`THROWN_WEIGHT` for a game a player gave away)."""
    live: bool = False
    """Played at a live table (the record says so): the only games the thrown-game rules look at."""
    arena: bool = False
    """Paired by a Code Arena: the pairing is the system's, so the repeat-pairing rule does not lower it
    (it still notes the meeting; the other rules hold)."""

    @property
    def order(self) -> tuple[str, str]:
        """The key games are rated in: when they finished, then the id."""
        return (self.finished_at, self.game_id)


def is_rated_player(name: str, is_user: bool) -> bool:
    """A registered user or a computer (HAL9000, VIKI) is rated; a guest never is."""
    return is_user or computer_name(name) is not None


def rates(players: Sequence[tuple[str, bool]], *, hot_seat: bool = False) -> bool:
    """Whether a World of Mastermind game between ``players`` (name, registered) is rated: two rated
    players or more (two registered users at one terminal, hot-seat). A screen asks it before the game
    is recorded, so that a game that will never be rated says so instead of waiting for a change.
    """
    if hot_seat and sum(is_user for _name, is_user in players) < 2:
        return False
    return sum(is_rated_player(name, is_user) for name, is_user in players) >= 2


def rated_game(summary: GameSummary) -> RatedGame | None:
    """The game as rated, or None if it is not rated (another kind, fewer than two rated players, a
    hot-seat game with fewer than two registered users: :func:`rates`).
    """
    if summary.kind != RATED_KIND or not summary.rated:
        return None
    if not rates([(line.name, line.is_user) for line in summary.players], hot_seat=bool(summary.hot_seat)):
        return None
    lines = summary.players
    allowed = summary.ruleset.guesses
    # A person at a live table who never guessed gave the game away (left after setting a code, or stalled).
    thrown = summary.hot_seat is False and any(line.is_user and line.attempts == 0 for line in lines)
    players = []
    for index, line in enumerate(lines):
        computer = computer_name(line.name) if not line.is_user else None
        if not line.is_user and computer is None:
            continue  # a guest
        breaker = lines[(index + 1) % len(lines)]
        if 0 <= line.attempts <= allowed and 0 <= breaker.attempts <= allowed:
            # breaking + making points (domain/scoring.py), for computers too
            points = (allowed - line.attempts + 1 if line.broke else 0) + (
                breaker.attempts - 1 if breaker.broke else allowed)
        else:
            points = line.points  # a record the rules cannot score again: trust what it kept
        players.append((computer or line.name, points))
    if len(players) < 2:
        return None
    return RatedGame(summary.game_id, summary.finished_at, tuple(players), THROWN_WEIGHT if thrown else 1.0,
                     live=summary.hot_seat is False, arena=summary.hot_seat is False and summary.arena is not None)


def plackett_luce(before: Sequence[tuple[float, float]], points: Sequence[int]) -> list[tuple[float, float]]:
    """New (μ, σ) of each player after one game, the most points first (ties share a place).

    The arithmetic of ``openskill``'s ``PlackettLuce().rate([[p] for p in players], ranks=...)`` for
    one-player teams with its default parameters (tau added first, no sigma limit, no weights).
    """
    count = len(before)
    ranks = [0] * count
    for i in range(count):
        for j in range(count):
            if points[j] > points[i]:
                ranks[i] += 1
    sigmas_sq = [sigma * sigma + _TAU_SQUARED for _, sigma in before]
    c = math.sqrt(sum(sigmas_sq) + count * _BETA_SQUARED)
    c_sq = c * c
    exps = [math.exp(mu / c) for mu, _ in before]
    sum_q = [0.0] * count
    a = [0] * count
    for q in range(count):
        for i in range(count):
            if ranks[i] >= ranks[q]:
                sum_q[q] += exps[i]
            if ranks[i] == ranks[q]:
                a[q] += 1
    after = []
    for i in range(count):
        omega = delta = 0.0
        rank = ranks[i]
        exp_i = exps[i]
        for q in range(count):
            if ranks[q] <= rank:
                share = exp_i / sum_q[q]
                delta += share * (1 - share) / a[q]
                omega += (1 - share) / a[q] if q == i else -share / a[q]
        sigma_sq = sigmas_sq[i]
        sigma = math.sqrt(sigma_sq)
        omega *= sigma_sq / c
        delta *= sigma_sq / c_sq
        delta *= sigma / c  # gamma, OpenSkill's default
        after.append((before[i][0] + omega, sigma * math.sqrt(max(1 - delta, _KAPPA))))
    return after


class OutOfOrder(ValueError):
    """A game older than the last one rated: the book must be rated again from the start."""


@dataclass
class RatingBook:
    """Every rated player's rating after the games rated so far (oldest first), and which was the last."""

    players: dict[str, Rating] = field(default_factory=dict)
    """By name key (case ignored)."""
    through: tuple[str, str] = ("", "")
    """The order key of the last game rated."""
    rated: int = 0
    """Games rated."""
    met: dict[str, str] = field(default_factory=dict)
    """When two registered names last played each other (``"alan bob"``, name keys sorted → finished_at),
    within :data:`REPEAT_WINDOW` of the last game rated."""

    def rating(self, name: str) -> Rating | None:
        """The player's rating (case ignored), or None if they have no rated game."""
        return self.players.get(name_key(name))

    def copy(self) -> RatingBook:
        """A copy that applying games to leaves this one as it is."""
        return RatingBook({key: replace(r, history=list(r.history)) for key, r in self.players.items()},
                          self.through, self.rated, dict(self.met))

    def apply(self, game: RatedGame) -> dict[str, int]:
        """Rate one more game; each player's change in shown rating. ``OutOfOrder`` if it is not after the last."""
        if game.order <= self.through:
            raise OutOfOrder(f"game {game.game_id} finished before the last one rated")
        ratings = []
        for name, _ in game.players:
            rating = self.players.get(name_key(name))
            if rating is None:
                rating = self.players[name_key(name)] = Rating(name)
            ratings.append(rating)
        after = plackett_luce([(r.mu, r.sigma) for r in ratings], [points for _, points in game.players])
        weight = min(game.weight, self._repeat_weight(game))
        if weight < 1.0:
            after = [(r.mu + weight * (mu - r.mu), r.sigma + weight * (sigma - r.sigma))
                     for r, (mu, sigma) in zip(ratings, after, strict=True)]
        changes = {}
        for rating, (mu, sigma), (name, _) in zip(ratings, after, game.players, strict=True):
            history = rating.history
            before = history[-1] if history else DISPLAY_BASE
            now = round(DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 * sigma))  # shown(mu, sigma)
            rating.name, rating.mu, rating.sigma = name, mu, sigma
            rating.games += 1
            rating.last_played, rating.last_game = game.finished_at, game.game_id
            history.append(now)
            changes[name] = now - before
        self.through = game.order
        self.rated += 1
        return changes

    def _repeat_weight(self, game: RatedGame) -> float:
        """:data:`THROWN_WEIGHT` if two of the game's registered names played each other within
        :data:`REPEAT_WINDOW` before it (not for a Code Arena's game: the arena chose the pairing), else 1; notes
        this game's meetings (forgetting those out of the window).
        """
        people = sorted({name_key(name) for name, _ in game.players if computer_name(name) is None})
        if not game.live or len(people) < 2:
            return 1.0
        finished = _instant(game.finished_at)
        weight = 1.0
        for index, first in enumerate(people):
            for second in people[index + 1:]:
                pair = f"{first} {second}"
                last = self.met.get(pair)
                if last is not None and finished is not None and (before := _instant(last)) is not None \
                        and finished - before < REPEAT_WINDOW and not game.arena:
                    weight = THROWN_WEIGHT
                self.met[pair] = game.finished_at
        if len(self.met) > 256 and finished is not None:
            self.met = {pair: when for pair, when in self.met.items()
                        if (instant := _instant(when)) is not None and finished - instant < REPEAT_WINDOW}
        return weight

    def board(self, now: datetime | None = None, *, everyone: bool = False) -> list[Rating]:
        """Best first (then name), provisional players after the settled ones (their ratings shown marked):
        players with a rated game in the last 30 days, or ``everyone``.
        """
        rows = list(self.players.values())
        if not everyone:
            since = (now or datetime.now(timezone.utc)) - timedelta(days=ACTIVE_DAYS)
            utc_since = since.astimezone(timezone.utc).isoformat()
            rows = [r for r in rows if _since(r.last_played, since, utc_since)]
        rows.sort(key=lambda r: (r.provisional, -(r.history[-1] if r.history else DISPLAY_BASE), name_key(r.name)))
        return rows

    def as_json(self) -> dict[str, Any]:
        """Plain JSON data (the store's cache)."""
        data: dict[str, Any] = {"through": list(self.through), "rated": self.rated,
                                "players": [rating.as_row() for rating in self.players.values()]}
        if self.met:
            data["met"] = dict(self.met)
        return data

    @classmethod
    def from_json(cls, data: Any) -> RatingBook:
        """Rebuild from :meth:`as_json` data; ``ValueError`` if it is not one."""
        if not isinstance(data, dict) or not isinstance(data.get("players"), list):
            raise ValueError("not a rating book")
        through = data.get("through")
        if not (isinstance(through, list) and len(through) == 2 and all(isinstance(t, str) for t in through)):
            raise ValueError("not a rating book")
        if type(data.get("rated")) is not int:
            raise ValueError("not a rating book")
        players = [Rating.from_row(p) for p in data["players"]]
        met = data.get("met", {})
        if not isinstance(met, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in met.items()):
            raise ValueError("not a rating book")
        return cls({name_key(p.name): p for p in players}, (through[0], through[1]), data["rated"], dict(met))


def _instant(text: str) -> datetime | None:
    """The ISO time ``text`` (UTC if it names no zone); None if it is not one."""
    try:
        instant = datetime.fromisoformat(text)
    except ValueError:
        return None
    return instant if instant.tzinfo is not None else instant.replace(tzinfo=timezone.utc)


def _since(text: str, since: datetime, utc_since: str) -> bool:
    """True if the ISO time ``text`` is at or after ``since`` (``utc_since``: the same in UTC, ISO)."""
    if len(text) == 25 and text.endswith("+00:00"):
        return text >= utc_since  # what the game records write (utc_now): compared as text
    try:
        instant = datetime.fromisoformat(text)
    except ValueError:
        return False
    if instant.tzinfo is None:
        instant = instant.replace(tzinfo=timezone.utc)
    return instant >= since


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cycle collector while bulk work builds many objects that hold no cycles (game
    summaries, ratings): it would run hundreds of times over them for nothing, a fifth of rating 100,000
    games again (docs/perf/ratings.md). Left as it was found; reference counting frees as usual.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def rate_games(games: Iterable[GameSummary]) -> RatingBook:
    """The ratings after every rated game among ``games``, taken in the order they finished (then id)."""
    book = RatingBook()
    with collector_paused():
        rated = [game for game in map(rated_game, games) if game is not None]
        rated.sort(key=lambda game: game.order)
        for game in rated:
            book.apply(game)
    return book


def catch_up(book: RatingBook, games: Iterable[GameSummary]) -> RatingBook:
    """``book`` with the games after its last one rated, or all of ``games`` rated again if the book does not
    hold exactly the older ones (a game recorded out of order, a book from other games).

    ``games`` must be every game recorded: the result is always what :func:`rate_games` gives.
    """
    with collector_paused():
        rated = sorted((g for g in map(rated_game, games) if g is not None), key=lambda g: g.order)
        newer = [g for g in rated if g.order > book.through]
        if len(rated) - len(newer) != book.rated:
            book, newer = RatingBook(), rated
        for game in newer:
            book.apply(game)
    return book


__all__ = [
    "ACTIVE_DAYS", "DISPLAY_BASE", "DISPLAY_SCALE", "MU", "PROVISIONAL_GAMES", "PROVISIONAL_MARK",
    "PROVISIONAL_NOTE", "PROVISIONAL_SIGMA", "REPEAT_WINDOW", "SIGMA", "THROWN_WEIGHT", "is_rated_player", "rates",
    "OutOfOrder", "RatedGame", "Rating", "RatingBook", "catch_up", "collector_paused", "plackett_luce", "rate_games", "rated_game", "shown",
]
