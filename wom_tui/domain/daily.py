"""The daily code: one code per day and puzzle, the same for everyone on a data folder (docs/play.md, *The daily code*).

* **Which code.** ``HMAC-SHA256(secret, "<puzzle>:<YYYY-MM-DD>")`` read as symbols of the
  puzzle's palette (bytes that would bias the choice are skipped). The secret is 32 random bytes
  the store makes on first use and keeps in the data folder, so the code cannot be computed from
  the source and the date: only someone who can read the data folder could.
* **Which day.** Days are UTC days; the next code comes at 00:00 UTC.
* **One attempt.** Each identity (a registered user's name, case ignored) has one attempt per
  puzzle and day, and over SSH so has each key (the fingerprint is kept with the attempt: a key's
  second name cannot start a puzzle one of its names started). It is recorded when the first guess
  is made, so leaving, quitting or losing the connection afterwards does not give a second try.
  Guests have no identity and cannot play. An attempt starts only on its own UTC day.
* **Sealed until the day is over everywhere.** A daily game's guesses (and so the code) are shown to
  nobody but its player until :func:`over_everywhere`: the end of that date in the last time zone,
  UTC−12, i.e. 12:00 UTC the next day. No guess is taken after that moment, so nobody can read a
  replay and then still play that day's code.
* **Leaderboard.** Codes broken, by fewest guesses then earliest finish; then codes not broken
  (by finish); then attempts that were left unfinished (by start).
* **Streak.** A day counts when the player broke that puzzle's code that day. The current streak is
  the run of such days ending today, or yesterday while today's code is not started; the best is the
  longest run ever. A code not broken (or an attempt left unfinished) ends a streak, and so does a day
  missed. Each puzzle has its own streak (:func:`streak`).
* **Share.** A spoiler-free grid: one line of key pegs per guess, never its symbols (and the streak).

Nothing here reads files or the clock: callers pass the secret, the day and the time.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from enum import Enum
from typing import Any

from .board import LIFELINE
from .codes import DIGITS8, WOM, Feedback, Ruleset
from .game import Refusal
from .users import name_key
from .variants import VARIANTS, Variant

VARIANT_NAMES = frozenset(v.value for v in VARIANTS)

SECRET_BYTES = 32
"""Length of the data folder's daily secret."""


@dataclass(frozen=True)
class DailyPuzzle:
    """One of the day's codes: its key and its rules, which name it."""

    key: str
    ruleset: Ruleset

    @property
    def title(self) -> str:
        """The puzzle's name, its rules' one name: ``"4 × Classic"``, ``"5 × Digits 1–8"``; a variant's puzzle
        names the variant first: ``"Quad, 4 × Classic"``.
        """
        variant = Variant.CLASSIC if self.key not in VARIANT_NAMES else Variant(self.key)
        return self.ruleset.title if variant is Variant.CLASSIC else f"{variant.label}, {self.ruleset.title}"


CLASSIC = DailyPuzzle("classic", Ruleset(4, WOM, True, 10))
DIGITS = DailyPuzzle("digits", Ruleset(5, DIGITS8, True, 10))

PUZZLES: dict[str, DailyPuzzle] = {p.key: p for p in (CLASSIC, DIGITS)}
"""Every daily puzzle the daily screen offers, the classic one first."""

VARIANT_PUZZLES: dict[str, DailyPuzzle] = {
    v.value: DailyPuzzle(v.value, v.ruleset(CLASSIC.ruleset)) for v in VARIANTS if v is not Variant.CLASSIC
}
"""The variants' daily codes on 4 × Classic, keyed by the variant's name (docs/play.md, *Variants*); the day's
game is ``variant_game.daily_variant_game``. Attempts at them are kept and checked as the others' are; the
daily screen offers them after the classic puzzles."""

KNOWN_PUZZLES: dict[str, DailyPuzzle] = {**PUZZLES, **VARIANT_PUZZLES}
"""Every daily puzzle an attempt may name."""


class DailyRefused(Refusal):
    """The identity cannot play this daily code; ``reason`` (and ``str(exc)``) is shown to the player."""


GUEST_REFUSAL = "The daily code is one attempt per player: register (r on the main menu) to play it."


# ---------------------------------------------------------------- days and codes


def day_of(moment: datetime) -> date:
    """The UTC day of ``moment`` (a naive time is taken as UTC)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc).date()


def until_next(moment: datetime) -> timedelta:
    """Time from ``moment`` until the next daily code (00:00 UTC of the next day)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    moment = moment.astimezone(timezone.utc)
    midnight = datetime.combine(moment.date() + timedelta(days=1), time(0), tzinfo=timezone.utc)
    return midnight - moment


OVER_EVERYWHERE = timedelta(days=1, hours=12)
"""From 00:00 UTC of a date to its end in the last time zone (UTC−12, "anywhere on Earth")."""


def _as_date(day: date | str) -> date:
    return day if isinstance(day, date) else date.fromisoformat(day)


def over_everywhere(day: date | str) -> datetime:
    """When ``day`` has ended in every time zone: 12:00 UTC the next day (its end at UTC−12).

    Until then a daily game of that day is sealed (its guesses shown only to its player), and
    from then on no guess of that day's attempts is taken (docs/play.md, *The daily code*).
    """
    return datetime.combine(_as_date(day), time(0), tzinfo=timezone.utc) + OVER_EVERYWHERE


def is_over(day: date | str, now: datetime) -> bool:
    """True once ``day`` is over everywhere at ``now`` (a naive ``now`` is taken as UTC)."""
    if now.tzinfo is None:
        now = now.replace(tzinfo=timezone.utc)
    return now >= over_everywhere(day)


def sealed_until(kind: str, player: str, finished_at: str, viewer: str | None, now: datetime) -> datetime | None:
    """When a recorded game's guesses may be shown to ``viewer``: None if now, else the moment.

    Only daily games are sealed, and never from their own player (``viewer``, a registered name
    proven by the session, case ignored; None when nobody is proven, as on one machine). The
    puzzle's day is taken as the UTC day the game finished, which is the puzzle's day or the one
    after (an attempt started before midnight): the seal may last a day longer, never shorter.
    """
    if kind != "daily":
        return None
    if viewer is not None and name_key(viewer) == name_key(player):
        return None
    day = day_of(datetime.fromisoformat(finished_at))
    return None if is_over(day, now) else over_everywhere(day)


def last_over(now: datetime) -> date:
    """The latest day that is over everywhere at ``now``: its codes may be told to anyone."""
    if now.tzinfo is None:
        now = now.replace(tzinfo=timezone.utc)
    return day_of(now - OVER_EVERYWHERE)


def format_wait(wait: timedelta) -> str:
    """``"5 h 07 min"``, ``"12 min 05 s"`` or ``"42 s"``."""
    seconds = max(0, int(wait.total_seconds()))
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes:02d} min"
    if minutes:
        return f"{minutes} min {seconds:02d} s"
    return f"{seconds} s"


def daily_code(secret: bytes, day: date, puzzle: DailyPuzzle) -> str:
    """The code of ``puzzle`` on ``day`` for the data folder whose secret is ``secret``."""
    if not isinstance(secret, bytes) or len(secret) < 16:
        raise ValueError("the daily secret must be at least 16 bytes")
    ruleset = puzzle.ruleset
    symbols = ruleset.palette.symbols
    n = len(symbols)
    limit = 256 - 256 % n  # bytes at or above this would favour the first symbols
    code: list[str] = []
    block = 0
    while len(code) < ruleset.length:
        message = f"{puzzle.key}:{day.isoformat()}:{block}".encode()
        for byte in hmac.new(secret, message, hashlib.sha256).digest():
            if byte < limit:
                symbol = symbols[byte % n]
                if ruleset.repeats or symbol not in code:
                    code.append(symbol)
                if len(code) == ruleset.length:
                    break
        block += 1
    return "".join(code)


# ---------------------------------------------------------------- attempts


@dataclass(frozen=True)
class DailyAttempt:
    """One identity's attempt at one day's puzzle; unfinished until ``finished_at`` is set."""

    day: str
    puzzle: str
    player: str
    started_at: str
    finished_at: str | None = None
    guesses: int | None = None
    broke: bool | None = None
    game_id: str | None = None
    key: str | None = None
    """The fingerprint of the SSH key that started it (None on one machine, and in files before keys)."""

    @property
    def finished(self) -> bool:
        """True once the game ended (broken or out of guesses)."""
        return self.finished_at is not None

    def is_for(self, day: str, puzzle: str, player: str) -> bool:
        """True if this is ``player``'s (case ignored) attempt at ``puzzle`` on ``day``."""
        return self.day == day and self.puzzle == puzzle and name_key(self.player) == name_key(player)

    def as_json(self) -> dict[str, Any]:
        """Plain JSON data."""
        return {
            "day": self.day,
            "puzzle": self.puzzle,
            "player": self.player,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "guesses": self.guesses,
            "broke": self.broke,
            "game_id": self.game_id,
            "key": self.key,
        }

    @classmethod
    def from_json(cls, data: Any) -> DailyAttempt:
        """Rebuild from :meth:`as_json` data; ``ValueError`` naming what is wrong."""
        keys = {"day", "puzzle", "player", "started_at", "finished_at", "guesses", "broke", "game_id"}
        if not isinstance(data, dict) or set(data) - {"key"} != keys:
            raise ValueError(f"an attempt needs exactly {', '.join(sorted(keys))} (and key)")
        if data.get("key") is not None and not isinstance(data["key"], str):
            raise ValueError("an attempt's key must be a fingerprint or null")
        for key in ("day", "puzzle", "player", "started_at"):
            if not isinstance(data[key], str):
                raise ValueError(f"an attempt's {key} must be text")
        if data["puzzle"] not in KNOWN_PUZZLES:
            raise ValueError(f"unknown daily puzzle {data['puzzle']!r}")
        date.fromisoformat(data["day"])
        datetime.fromisoformat(data["started_at"])
        finished = data["finished_at"]
        if finished is None:
            if any(data[key] is not None for key in ("guesses", "broke", "game_id")):
                raise ValueError("an unfinished attempt has no guesses, result or game")
        else:
            if not isinstance(finished, str):
                raise ValueError("an attempt's finished_at must be text or null")
            datetime.fromisoformat(finished)
            guesses = data["guesses"]
            if type(guesses) is not int or not 1 <= guesses <= KNOWN_PUZZLES[data["puzzle"]].ruleset.guesses:
                raise ValueError("a finished attempt needs its number of guesses")
            if type(data["broke"]) is not bool:
                raise ValueError("a finished attempt needs broke: true or false")
            if data["game_id"] is not None and not isinstance(data["game_id"], str):
                raise ValueError("an attempt's game_id must be text or null")
        return cls(**data)

    def finish(self, finished_at: str, guesses: int, broke: bool, game_id: str | None) -> DailyAttempt:
        """The attempt, finished; ``DailyRefused`` if it already was, or once its day is over everywhere."""
        if self.finished:
            raise DailyRefused("This attempt is already finished.")
        if is_over(self.day, datetime.fromisoformat(finished_at)):
            raise DailyRefused(f"The {self.day} code is over everywhere: this attempt stays unfinished.")
        return DailyAttempt(self.day, self.puzzle, self.player, self.started_at, finished_at, guesses, broke,
                            game_id, self.key)


def find_attempt(attempts: Iterable[DailyAttempt], day: str, puzzle: str, player: str) -> DailyAttempt | None:
    """``player``'s attempt at ``puzzle`` on ``day``, or None."""
    for attempt in attempts:
        if attempt.is_for(day, puzzle, player):
            return attempt
    return None


def check_can_start(
    attempts: Iterable[DailyAttempt], day: str, puzzle: str, player: str | None, key: str | None = None
) -> None:
    """Raise :class:`DailyRefused` unless ``player`` (signed in with ``key`` over SSH) may start ``puzzle`` on ``day``."""
    if puzzle not in KNOWN_PUZZLES:
        raise DailyRefused(f"There is no daily puzzle {puzzle!r}.")
    if player is None:
        raise DailyRefused(GUEST_REFUSAL)
    attempts = list(attempts)
    if key is not None:
        for other in attempts:
            if other.day == day and other.puzzle == puzzle and other.key == key and not other.is_for(day, puzzle, player):
                raise DailyRefused(
                    f"This key already played today's {KNOWN_PUZZLES[puzzle].title} code as {other.player}: "
                    "one attempt per person a day."
                )
    existing = find_attempt(attempts, day, puzzle, player)
    if existing is not None:
        if existing.finished:
            raise DailyRefused(f"{existing.player} has already played today's {KNOWN_PUZZLES[puzzle].title} code.")
        raise DailyRefused(
            f"{existing.player} has already started today's {KNOWN_PUZZLES[puzzle].title} code: one attempt a day."
        )


def check_start(attempts: Iterable[DailyAttempt], attempt: DailyAttempt) -> None:
    """Raise :class:`DailyRefused` unless ``attempt`` may be recorded: started on its own UTC day, by a
    name and key that have no attempt at that puzzle that day (what every store checks under its lock).
    """
    if attempt.finished:
        raise DailyRefused("A daily attempt is recorded unfinished, at its first guess.")
    if day_of(datetime.fromisoformat(attempt.started_at)).isoformat() != attempt.day:
        raise DailyRefused(f"The {attempt.day} code can no longer be started: today's is waiting.")
    check_can_start(attempts, attempt.day, attempt.puzzle, attempt.player, attempt.key)


def started(attempts: Sequence[DailyAttempt], attempt: DailyAttempt) -> list[DailyAttempt]:
    """The attempts with ``attempt`` added; :class:`DailyRefused` if it may not start (:func:`check_start`)."""
    check_start(attempts, attempt)
    return [*attempts, attempt]


def finished(
    attempts: Sequence[DailyAttempt],
    day: str,
    puzzle: str,
    player: str,
    *,
    finished_at: str,
    guesses: int,
    broke: bool,
    game_id: str | None,
) -> list[DailyAttempt]:
    """The attempts with ``player``'s started attempt finished; ``DailyRefused`` if there is none open."""
    result = []
    done = False
    for attempt in attempts:
        if attempt.is_for(day, puzzle, player):
            attempt = attempt.finish(finished_at, guesses, broke, game_id)
            done = True
        result.append(attempt)
    if not done:
        raise DailyRefused("There is no attempt under way to finish.")
    return result


@dataclass(frozen=True)
class LeaderRow:
    """One line of the daily leaderboard."""

    place: int | None
    """1, 2, … for codes broken; None for the rest."""
    player: str
    result: str
    """``"4/10"``, ``"X/10"`` or ``"did not finish"``."""
    time: str
    """When it finished (or started, if unfinished): ``"09:41:07"`` UTC."""


def leaderboard(attempts: Iterable[DailyAttempt], day: str, puzzle: str) -> list[LeaderRow]:
    """The day's leaderboard for ``puzzle``: fewest guesses then earliest finish, then the rest."""
    allowed = KNOWN_PUZZLES[puzzle].ruleset.guesses
    todays = [a for a in attempts if a.day == day and a.puzzle == puzzle]
    broke = sorted((a for a in todays if a.finished and a.broke), key=lambda a: (a.guesses, a.finished_at, a.player))
    failed = sorted((a for a in todays if a.finished and not a.broke), key=lambda a: (a.finished_at, a.player))
    open_ = sorted((a for a in todays if not a.finished), key=lambda a: (a.started_at, a.player))
    rows = []
    for place, attempt in enumerate(broke, 1):
        rows.append(LeaderRow(place, attempt.player, f"{attempt.guesses}/{allowed}", _clock(attempt.finished_at)))
    rows.extend(LeaderRow(None, a.player, f"X/{allowed}", _clock(a.finished_at)) for a in failed)
    rows.extend(LeaderRow(None, a.player, "did not finish", _clock(a.started_at)) for a in open_)
    return rows


def _clock(stamp: str | None) -> str:
    if stamp is None:
        return ""
    moment = datetime.fromisoformat(stamp)
    if moment.tzinfo is not None:
        moment = moment.astimezone(timezone.utc)
    return moment.strftime("%H:%M:%S")


# ---------------------------------------------------------------- streaks


class DayMark(Enum):
    """What one player did with one puzzle on one day; the value is its mark in the history row."""

    BROKE = "■"
    """Broke the code."""
    NOT_BROKEN = "×"
    """Played and did not break it (out of guesses, or left the attempt unfinished)."""
    MISSED = "·"
    """Did not play."""
    TO_PLAY = "○"
    """Today, not started yet: the streak is not lost yet."""


HISTORY_DAYS = 30
"""How many days the history row shows."""


@dataclass(frozen=True)
class Streak:
    """A player's daily streak at one puzzle."""

    current: int
    """Codes broken on consecutive days, ending today (or yesterday while today's is still to play)."""
    best: int
    """The longest such run ever."""
    history: tuple[DayMark, ...]
    """The last :data:`HISTORY_DAYS` days, oldest first, today last."""

    @property
    def marks(self) -> str:
        """The history as one row of marks (``"··■■×■○"``)."""
        return "".join(mark.value for mark in self.history)

    def label(self) -> str:
        """``"streak 3 (best 7)"``, or ``"streak 3"`` when it is the best."""
        return f"streak {self.current}" if self.current == self.best else f"streak {self.current} (best {self.best})"


def streak(attempts: Iterable[DailyAttempt], puzzle: str, today: date | str, days: int = HISTORY_DAYS) -> Streak:
    """The streak of one player (``attempts`` are that player's) at ``puzzle``, as of the UTC day ``today``.

    Attempts at other puzzles or after ``today`` are ignored; a broken day is one with a finished
    attempt that broke the code. An unfinished attempt is lost, today's too: the streak is read outside
    a game (the daily screen) or once it is finished, so an attempt unfinished then was left, and leaving
    spends the day's one attempt. Pure: the caller reads the attempts and the clock.
    """
    today = _as_date(today)
    broken: set[date] = set()
    lost: set[date] = set()
    for attempt in attempts:
        if attempt.puzzle != puzzle:
            continue
        day = date.fromisoformat(attempt.day)
        if day > today:
            continue
        if attempt.finished and attempt.broke:
            broken.add(day)
        else:
            lost.add(day)  # started and left (today's too: leaving spends the day's one attempt)
    lost -= broken
    best = run = 0
    previous: date | None = None
    for day in sorted(broken):
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    current = 0
    if today not in lost:
        day = today if today in broken else today - timedelta(days=1)
        while day in broken:
            current += 1
            day -= timedelta(days=1)
    history = []
    for back in range(days - 1, -1, -1):
        day = today - timedelta(days=back)
        if day in broken:
            history.append(DayMark.BROKE)
        elif day in lost:
            history.append(DayMark.NOT_BROKEN)
        elif day == today:
            history.append(DayMark.TO_PLAY)
        else:
            history.append(DayMark.MISSED)
    return Streak(current, best, tuple(history))


# ---------------------------------------------------------------- sharing


LIFELINE_ROW = "lifeline"
"""What a share grid shows for a guess spent on a lifeline."""


def peg_row(result: Feedback | None, length: int) -> str:
    """A guess's key pegs as ``●`` black, ``○`` white and ``·`` for the places that earned none."""
    if result is None:
        return LIFELINE_ROW
    return "●" * result.black + "○" * result.white + "·" * (length - result.black - result.white)


def share_text(title: str, results: Sequence[Feedback | None], ruleset: Ruleset, broke: bool) -> str:
    """The spoiler-free grid: ``"<title> · <rules> · 5/10"`` then one line of key pegs per guess.

    Every share line has this head, the rules named by :attr:`Ruleset.title`, so a grid pasted anywhere
    says which puzzle it is (docs/play.md, *Share*).
    """
    score = f"{len(results)}/{ruleset.guesses}" if broke else f"X/{ruleset.guesses}"
    lines = [f"{title} · {ruleset.title} · {score}"]
    lines.extend(peg_row(result, ruleset.length) for result in results)
    return "\n".join(lines)


def daily_title(day: date | str) -> str:
    """``"Mastermind daily 2026-11-23"``: what a daily share line starts with, before the puzzle's rules."""
    stamp = day if isinstance(day, str) else day.isoformat()
    return f"Mastermind daily {stamp}"


def daily_share(
    day: date | str, puzzle: DailyPuzzle, results: Sequence[Feedback], broke: bool, streak: Streak | None = None
) -> str:
    """The share text of a daily game: ``"Mastermind daily 2026-11-23 · 4 × Classic · 5/10"`` (then
    ``" · streak 3"`` when a streak is given) and the grid.
    """
    text = share_text(daily_title(day), results, puzzle.ruleset, broke)
    if streak is None:
        return text
    head, _, grid = text.partition("\n")
    return f"{head} · {streak.label()}\n{grid}" if grid else f"{head} · {streak.label()}"


def variant_share(
    title: str, rules: str, rows: Sequence[Sequence[Feedback | None]], ruleset: Ruleset, broke: bool,
    streak: Streak | None = None,
) -> str:
    """The share text of a variant's game (docs/play.md, *Variants*): ``"<title> · Quad, 4 × Classic · 7/9"``
    (then the streak, when given), and a line per guess with each board's key pegs side by side (a board
    broken before that guess is left blank); never a symbol of a code.
    """
    score = f"{len(rows)}/{ruleset.guesses}" if broke else f"X/{ruleset.guesses}"
    head = f"{title} · {rules} · {score}" + (f" · {streak.label()}" if streak is not None else "")
    blank = " " * ruleset.length
    lines = [" ".join(blank if answer is None else peg_row(answer, ruleset.length) for answer in row).rstrip()
             for row in rows]
    return "\n".join([head, *lines])


SOLO_TITLE = "Mastermind solo"
"""What a solo game's share line starts with, before its rules."""


def solo_share(ruleset: Ruleset, guesses: Sequence[tuple[str, Feedback]], broke: bool) -> str:
    """The share text of a solo game from its rows (``LIFELINE`` rows show as such, never a symbol)."""
    results = [None if guess == LIFELINE else result for guess, result in guesses]
    return share_text(SOLO_TITLE, results, ruleset, broke)


__all__ = [
    "CLASSIC",
    "DIGITS",
    "GUEST_REFUSAL",
    "KNOWN_PUZZLES",
    "PUZZLES",
    "VARIANT_PUZZLES",
    "SECRET_BYTES",
    "SOLO_TITLE",
    "DailyAttempt",
    "DailyPuzzle",
    "DailyRefused",
    "DayMark",
    "HISTORY_DAYS",
    "Streak",
    "LeaderRow",
    "OVER_EVERYWHERE",
    "check_can_start",
    "check_start",
    "daily_code",
    "daily_share",
    "daily_title",
    "day_of",
    "find_attempt",
    "finished",
    "format_wait",
    "is_over",
    "last_over",
    "over_everywhere",
    "sealed_until",
    "leaderboard",
    "variant_share",
    "peg_row",
    "share_text",
    "solo_share",
    "started",
    "streak",
    "until_next",
]
