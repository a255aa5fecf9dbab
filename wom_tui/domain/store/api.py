"""What the app, the screens, the server and ``wom-tui store copy`` need from a store, role by role.

A store keeps users and their SSH keys, their browser sessions, finished games, the hall of fame, preferences, the daily
code, solo games in progress and the live state (tables, presence, the change feed). Each role is a
small protocol; :class:`Store` is their union, and both backends conform to it (the data folder's
:class:`~.folder.store.FolderStore`, PostgreSQL's :class:`~.postgres.store.PostgresStore`; mypy
checks it in :mod:`wom_tui.domain.store`). Every failure to read or write is a :class:`StoreError`.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from ..browser import BrowserSession
from ..daily import DailyAttempt
from ..halloffame import HallEntry, HallOfFame
from ..moderation import Ban, Broadcast, Kick, Retirement
from ..ratings import RatingBook
from ..records import GameRecord
from ..rush import RushScore
from ..stats import GameSummary
from ..users import User, UserRegistry

if TYPE_CHECKING:
    from ..arena import Arena, ArenaRules
    from ..codes import Ruleset
    from ..matchmaking import MatchQueue, RatingOf, Ticket
    from ..moves import TableMove
    from ..presence import Presence, Whereabouts
    from ..table import SeatHolder, Table
    from ..variants import Variant

T = TypeVar("T")


class StoreError(Exception):
    """A data file or row that cannot be read, parsed, validated or written; ``str`` is "<path>: <reason>"."""

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        self.path = Path(path)
        self.reason = reason
        # The text as given: a URL through Path() would lose one of its "//" (postgresql:/…).
        super().__init__(f"{os.fspath(path)}: {reason}")

    @classmethod
    def from_os(cls, path: str | os.PathLike[str], failure: str, exc: OSError) -> StoreError:
        """``failure`` (what could not be done: "cannot read the file") and the system's reason why."""
        return cls(path, f"{failure} ({exc.strerror or exc})")


# ---------------------------------------------------------------- the live state's data


@dataclass(frozen=True)
class Listing:
    """Every table kept, and the damaged tables found (each closed and moved aside)."""

    tables: tuple[Table, ...]
    problems: tuple[StoreError, ...]


@dataclass(frozen=True)
class LiveChange:
    """Something in the live state changed: re-read what you show."""

    tables: frozenset[str]
    """Ids of the tables created, changed or removed (may be empty)."""
    presence: bool
    """A session came or went."""
    scores: bool
    """Users or finished games changed (scoreboards)."""
    moderation: bool = False
    """A ban was added or lifted, or a name retired (servers judge their sessions again)."""
    queue: bool = False
    """The quick-match queue or an arena changed (someone came, went or was seated)."""
    versions: tuple[tuple[str, int], ...] = ()
    """Of the changed tables, the version written where the feed says it (PostgreSQL's NOTIFY does): a reader
    that already has that version need not read the table again."""


class ChangeFeed(Protocol):
    """A store's change feed: async iteration yields a :class:`LiveChange` after each change."""

    def changes(self, stop: asyncio.Event | None = None, ready: asyncio.Event | None = None) -> AsyncIterator[LiveChange]:
        """Changes from now on, until ``stop`` is set or the iteration is closed.

        ``ready`` is set once every later change is sure to be reported: subscribe, wait for
        ``ready``, then read the state, and no change falls in between.
        """
        ...


# ---------------------------------------------------------------- the roles


class Users(Protocol):
    """Registered users and their points."""

    def users(self) -> UserRegistry:
        """All registered users, in registration order."""

    def scoreboard(self) -> list[User]:
        """Users by score, highest first, then name; retired names left out (docs/serve.md)."""

    def user(self, name: str) -> User | None:
        """The user with this name in any case, or ``None``."""

    def register(self, name: str, key: str | None = None) -> User:
        """A new user with 0 points (holding ``key`` if given); ``NameRejected``/``KeyRejected`` with the reason."""


class Keys(Protocol):
    """The SSH keys that sign in as a user, and the one-time codes that link another key."""

    def user_for_key(self, fingerprint: str) -> User | None:
        """The user holding the SSH key with this fingerprint, or ``None``."""

    def bind_key(self, name: str, fingerprint: str) -> User:
        """Let a key sign in as ``name``; ``KeyRejected`` if the name is unknown or the key someone else's."""

    def unbind_key(self, name: str, fingerprint: str) -> User:
        """Take a key from ``name``; ``KeyRejected`` if they do not hold it."""

    def issue_link_code(self, fingerprint: str, now: datetime | None = None) -> str:
        """A one-time code (ten minutes, once) to link another key to the name ``fingerprint`` signs in as."""

    def redeem_link_code(self, typed: str, fingerprint: str, now: datetime | None = None) -> User:
        """Bind ``fingerprint`` to the name a valid code was issued for, using the code up; ``KeyRejected`` if not."""


class BrowserSessions(Protocol):
    """Browser sign-in (docs/serve.md, *Who you are in a browser*): one-time codes for a name, and the
    sessions they start, kept as the hashes of their tokens.
    """

    def issue_browser_code(self, name: str, now: datetime | None = None) -> str:
        """A one-time code (ten minutes, once) that signs a browser in as the registered ``name``;
        ``BrowserSignInRefused`` if there is no such user.
        """

    def redeem_browser_code(self, typed: str, token_hash: str, address: str, now: datetime | None = None) -> BrowserSession:
        """Use a valid code up and start a session for its name holding ``token_hash``, in one step (of
        two redeeming one code at once, one wins); ``BrowserSignInRefused`` (nothing written) if the code is
        wrong, used or expired.
        """

    def use_browser_session(self, token_hash: str, now: datetime | None = None) -> BrowserSession | None:
        """The unexpired, unrevoked session holding ``token_hash`` (its "last used" brought up to ``now``
        when over a minute old), or None.
        """

    def browser_sessions(self, name: str, now: datetime | None = None) -> list[BrowserSession]:
        """``name``'s unexpired browser sessions, oldest first (empty for an unknown name)."""

    def revoke_browser_sessions(self, name: str, session_id: str | None = None) -> int:
        """End one of ``name``'s sessions (``session_id``) or all (None), and void every unused browser code
        of ``name`` (one made in a revoked browser must not sign another in); how many sessions ended.
        ``BrowserSignInRefused`` if ``name`` is unknown or holds no session ``session_id``.
        """


class Moderation(Protocol):
    """Bans and retired names (docs/serve.md, *Moderating the arcade*); every change is on the change feed."""

    def bans(self) -> list[Ban]:
        """Every ban kept, expired ones included, in the order made."""

    def add_ban(self, ban: Ban) -> Ban:
        """Keep ``ban``; ``ModerationRefused`` (nothing written) if a name ban names nobody registered."""

    def lift_bans(self, which: str) -> list[Ban]:
        """Lift the ban with the id ``which``, or every ban of the target ``which`` (a name, key or range, as
        :func:`~..moderation.parse_target` reads it); the bans lifted (empty if none matched).
        """

    def retired(self) -> list[Retirement]:
        """Every retired name, in the order retired."""

    def retire(self, name: str, reason: str, now: datetime | None = None) -> Retirement:
        """Retire the registered ``name`` (its records and its name kept); ``ModerationRefused`` if there is
        no such user or it is retired already.
        """

    def kick(self, kick: Kick) -> Kick:
        """Keep ``kick`` (kicks older than :data:`~..moderation.KICK_KEPT` are dropped as it is written): every
        server holding that session ends it (docs/serve.md, *The Operator screen*).
        """

    def kicks(self) -> list[Kick]:
        """The kicks kept (the last :data:`~..moderation.KICK_KEPT` of them), oldest first."""

    def broadcast(self) -> Broadcast | None:
        """The operator's line every session shows now, or None."""

    def set_broadcast(self, broadcast: Broadcast | None) -> None:
        """Show ``broadcast`` on every session (replacing the one shown), or clear it (None)."""


class Records(Protocol):
    """Finished games: recorded once, read whole or as summaries (statistics, replays)."""

    def record_game(self, record: GameRecord, *, game_id: str | None = None) -> str:
        """Keep a finished game (and apply a World of Mastermind game's points exactly once, also when
        asked again with the same ``game_id``); its id.
        """

    def games(self) -> list[GameRecord]:
        """Every finished game, oldest first."""

    def games_with_ids(self) -> list[tuple[str, GameRecord]]:
        """Every finished game with its id, oldest first."""

    def game(self, game_id: str) -> GameRecord:
        """One finished game, read and validated in full; ``StoreError`` if missing or damaged."""

    def game_summaries(self) -> tuple[list[GameSummary], list[StoreError]]:
        """A summary of every finished game (oldest first), and the damaged ones left out."""


class Ratings(Protocol):
    """The ratings (docs/play.md, *Ratings*): a cache of :func:`~wom_tui.domain.ratings.rate_games` over
    every recorded game, brought up to date as each game is recorded (in the same lock or transaction).
    """

    def rating_book(self) -> RatingBook:
        """The ratings after every recorded game (rated from the records first if the cache is missing,
        or does not cover exactly the games kept: a folder of games recorded before ratings existed).
        """

    def rebuild_ratings(self) -> RatingBook:
        """Rate every recorded game again from the records, keep the result and return it."""


def rating_of(store: Ratings, name: str) -> float | None:
    """``name``'s shown rating (case ignored; HAL9000 and VIKI too), or None if they have no rated game."""
    rating = store.rating_book().rating(name)
    return None if rating is None else float(rating.value)


class Hall(Protocol):
    """The hall of fame: the best game of each ruleset."""

    def hall_of_fame(self) -> HallOfFame:
        """The hall of fame."""

    def submit_hall_entry(self, entry: HallEntry) -> bool:
        """Make ``entry`` the record for its ruleset if it beats the current one; True if it did."""


class Preferences(Protocol):
    """What each identity chose (``"local"`` on one machine, a key's fingerprint over SSH)."""

    def theme(self, identity: str) -> str | None:
        """The theme ``identity`` chose last, or ``None``."""

    def set_theme(self, identity: str, theme: str) -> None:
        """Remember ``theme`` for ``identity``."""

    def choices(self, identity: str, form: str) -> dict[str, Any]:
        """What ``identity`` chose last on ``form`` (``solo``, ``wom``, ``table``, ``stats``); ``{}`` if
        nothing is kept or what was kept is damaged. The form checks each value it reads back.
        """

    def set_choices(self, identity: str, form: str, values: dict[str, Any]) -> None:
        """Remember ``values`` (names → short text, whole numbers, true/false) as ``identity``'s choices
        on ``form``, replacing the ones kept; ``ValueError`` if they are not such choices.
        """


class Daily(Protocol):
    """The daily code: its secret and every attempt at it."""

    def daily_secret(self) -> bytes:
        """The secret the daily codes are derived from (made on first use)."""

    def daily_attempts(self) -> list[DailyAttempt]:
        """Every daily attempt kept (reads them all: for copying; screens read one day)."""

    def daily_attempts_on(self, day: str) -> list[DailyAttempt]:
        """The attempts of one UTC day (``YYYY-MM-DD``); the cost does not grow with the days kept."""

    def daily_attempts_of(self, player: str) -> list[DailyAttempt]:
        """Every attempt of one player (a name, case ignored), oldest day first: what a streak is counted
        from. Reads no other player's rows on PostgreSQL (an index); a data folder reads its day files.
        """

    def start_daily(self, attempt: DailyAttempt) -> None:
        """Record that ``attempt.player`` started a daily puzzle (``attempt.key``: the SSH key, if any);
        ``DailyRefused`` if that name or key already has, or it is not ``attempt.day`` any more.
        Reads and writes only that day's attempts.
        """

    def finish_daily(
        self, day: str, puzzle: str, player: str, *, finished_at: str, guesses: int, broke: bool, game_id: str | None
    ) -> None:
        """Record how ``player``'s started attempt ended; ``DailyRefused`` if none is under way."""


class SoloProgress(Protocol):
    """A solo game in progress per identity, kept after every move so that it survives a crash."""

    def solo_in_progress(self, identity: str) -> dict[str, Any] | None:
        """The solo game ``identity`` left unfinished (``SoloGame.as_json`` data), or None."""

    def keep_solo(self, identity: str, game: dict[str, Any]) -> None:
        """Keep ``identity``'s solo game in progress (after every move), replacing any; ``ValueError`` if not one."""

    def drop_solo(self, identity: str) -> None:
        """Forget ``identity``'s solo game in progress (it ended, or was abandoned on purpose)."""


class Matchmaking(Protocol):
    """The quick-match queue (:mod:`wom_tui.domain.matchmaking`), shared by every process and server on
    the store: the data folder's ``queue.json`` under its lock, PostgreSQL's ``wom_match_queue`` rows.
    """

    def match_queue(self) -> MatchQueue:
        """The queue as kept now."""

    def enqueue(self, holder: SeatHolder, *, attempts: int = ..., fill_after: float = ...,
                network: str | None = ...) -> Ticket:
        """Wait for a quick match; the session's ticket (replacing any it or this person had)."""

    def leave_queue(self, session: str, *, unseen: bool = ...) -> Table | None:
        """Stop waiting, or forget a seated ticket; ``unseen``: also leave the table a wave seated them at
        before they saw it (the table as written, or None).
        """

    def fill_now(self, session: str) -> Ticket | None:
        """The player asks for the computers now (None if they no longer wait)."""

    def match_wave(self, rating_of: RatingOf, seed: int, *, interval: float = ...,
                   grace: float = ..., pace: tuple[float, float] = ..., hold: float = ...,
                   guess_clock: float | None = ...) -> list[Table]:
        """Run a wave if one is due (one process claims it); the tables started (with ``guess_clock``)."""


class Arenas(Protocol):
    """Code Arena (:mod:`wom_tui.domain.arena`, docs/play.md): every arena kept as one document, the newest
    changed under the store's lock or in one transaction (:mod:`.arenas` writes the moves once for both backends).
    """

    def arenas(self) -> list[Arena]:
        """Every arena kept, oldest first."""

    def arena(self) -> Arena | None:
        """The newest arena (upcoming, running or over), or None."""

    def start_arena(self, arena_id: str, minutes: int, rules: ArenaRules, *, starts_in: float = ...) -> Arena:
        """Keep a new arena; ``ArenaRefused`` if one is upcoming or running."""

    def join_arena(self, holder: SeatHolder) -> Arena:
        """Join the newest arena (or come back); ``ArenaRefused`` if there is none or it is over."""

    def pause_arena(self, holder: SeatHolder) -> Arena:
        """Stop being paired in the newest arena (the score stays)."""

    def arena_berserk(self, holder: SeatHolder, on: bool) -> Arena:
        """Play the next arena game berserk (half the clock), or not."""

    def arena_wave(self, seed: int, *, interval: float = ..., grace: float = ...,
                   pace: tuple[float, float] = ...) -> list[Table]:
        """The pairing loop's step: games under way brought up to date, who waits paired; the tables opened."""


class Live(Matchmaking, Arenas, Protocol):
    """Tables, live games, presence, the quick-match queue and the change feed (``store.live``). Both
    backends share :class:`~.tables.TableRules`.
    """

    clock: Callable[[], float]
    quick_reads: bool
    """True when reading a table is a local file read, cheap enough to do on the event loop."""

    def join(self, name: str, registered: bool, session: str | None = None, where: Whereabouts | None = None) -> Presence:
        """Announce a session online (``where``: its address, key, transport and screen); returns it."""

    def join_guest(self, session: str, where: Whereabouts | None = None) -> Presence:
        """Announce a guest session online as ``Guest N``, N the smallest no other online guest has
        (chosen and written at once: two guests arriving together get two numbers); returns it.
        """

    def heartbeat(self, presence: Presence) -> None:
        """Keep a session online (joining again if its record was collected)."""

    def report_screen(self, presence: Presence) -> None:
        """Keep ``presence.where`` (the screen it shows now) and count as a heartbeat; wakes no change feed
        (only the Operator screen, which re-reads on its own beat, shows it).
        """

    def part(self, session: str) -> None:
        """A session ending cleanly."""

    def sessions(self) -> list[Presence]:
        """Sessions online now, oldest first."""

    def create_table(
        self, creator: SeatHolder, *, seats: int = ..., attempts: int = ..., ruleset: Ruleset = ...,
        seed: int = ..., grace: float = ..., pace: tuple[float, float] = ..., guess_clock: float | None = ...,
        origin: str | None = ..., per_address: int = ..., variant: Variant = ...,
    ) -> Table:
        """Open a new table with ``creator`` in seat 1, playing ``variant`` (the rules' defaults are the implementations');
        :class:`.table.Refused` if the creator already holds a table that has not started, or the address
        ``origin`` already has ``per_address`` (0: no limit) such tables.
        """

    def invite(self, creator: SeatHolder, name: str, *, seed: int = ..., grace: float = ...,
               pace: tuple[float, float] = ...) -> Table:
        """A new two-seat table with ``name`` invited; it starts once they accept."""

    def rematch(self, table_id: str, person: SeatHolder, *, seed: int = ...) -> str:
        """"Again" at a finished table: its rematch table's id (opened now, or already offered)."""

    def table(self, table_id: str) -> Table | None:
        """One table as kept now, or None."""

    def tables(self) -> Listing:
        """Every table, and the damaged ones found (closed, reported)."""

    def update_table(self, table_id: str, change: Callable[[Table], T]) -> T:
        """Compare-and-swap one table (recording its game exactly once when it finishes)."""

    def act(self, table_id: str, action: Callable[[Table, float], T]) -> T:
        """``update_table`` with the clock, presence and what is due done first."""

    def at_hand(self, table_id: str) -> bool:
        """True when reading this table now is cheap enough to do on an event loop (a local file; a table the
        server's hub pushed): a screen may then read it where it hears of the change.
        """

    def play(self, table_id: str, move: TableMove) -> Table:
        """Play ``move`` (a value: :mod:`wom_tui.domain.moves`) with what is due done first, in one
        read-modify-write; the table as written. ``Refused`` (nothing written) if the rules refuse it.
        """

    def tick(self, table_id: str) -> Table:
        """Bring one table up to date."""

    def sweep(self) -> Listing:
        """Housekeeping: stale presences, every table up to date, old ended tables removed."""

    def claim_sweep(self, interval: float) -> bool:
        """True if this process should sweep now (False: another one sharing the store just did)."""

    def feed(self, *, polling: bool = False) -> ChangeFeed:
        """The change feed."""


class RushBests(Protocol):
    """Each identity's best Rush (:mod:`wom_tui.domain.rush`): no leaderboard, a personal best."""

    def rush_best(self, identity: str) -> RushScore | None:
        """``identity``'s best Rush, or None."""

    def submit_rush(self, identity: str, score: RushScore) -> bool:
        """Keep ``score`` as ``identity``'s best if it beats the one kept (atomically); True if it did."""

    def rush_bests(self) -> dict[str, RushScore]:
        """Every identity's best (for copying)."""


class Admin(Protocol):
    """What ``wom-tui store copy`` needs to read a whole arcade out of a store and into another."""

    location: str
    """The folder, or the database without its password: where a message says the arcade is."""

    def is_empty(self) -> bool:
        """True when nothing of an arcade is kept yet."""

    def totals(self) -> dict[str, int]:
        """What :meth:`Arcade.totals` counts, counted in this store."""

    def themes(self) -> dict[str, str]:
        """The theme each identity chose."""

    def all_choices(self) -> dict[str, dict[str, dict[str, Any]]]:
        """The choices each identity remembers, per form."""

    def daily_secret_kept(self) -> bytes | None:
        """The daily secret if one was made (never makes one)."""

    def all_browser_sessions(self) -> list[BrowserSession]:
        """Every browser session kept, expired or not, oldest first (their tokens' hashes only)."""

    def load(self, arcade: Arcade) -> None:
        """Fill this empty store with exactly ``arcade``; ``StoreError`` if it holds anything already."""


class Store(Users, Keys, BrowserSessions, Moderation, Records, Ratings, Hall, Preferences, Daily, SoloProgress, RushBests,
            Admin, Protocol):
    """Everything a store keeps; every failure to read or write is a :class:`StoreError`."""

    def check(self) -> None:
        """Validate everything needed to play; raise ``StoreError`` naming the first bad file or row."""

    @property
    def live(self) -> Live:
        """Tables, live games, presence and the change feed kept with this store."""

    def close(self) -> None:
        """Release connections (nothing to do for a folder)."""


@dataclass(frozen=True)
class Arcade:
    """Everything a store keeps, read out in full. Pending one-time codes (for a key or a browser) are left
    out: they live ten minutes, and a player asks for a new one. Browser sessions are kept (only their
    tokens' hashes), so moving an arcade into another store signs no browser out.
    """

    users: tuple[User, ...]
    hall: HallOfFame
    games: tuple[tuple[str, GameRecord], ...]
    themes: dict[str, str]
    daily: tuple[DailyAttempt, ...]
    daily_secret: bytes | None
    browser_sessions: tuple[BrowserSession, ...] = ()
    bans: tuple[Ban, ...] = ()
    retired: tuple[Retirement, ...] = ()
    choices: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    """identity → form → the choices remembered there."""
    arenas: tuple[Arena, ...] = ()
    rush_bests: dict[str, RushScore] = field(default_factory=dict)

    @classmethod
    def read(cls, store: Store) -> Arcade:
        """Everything in ``store`` (``StoreError`` if anything in it is unreadable); nothing is written."""
        return cls(tuple(store.users()), store.hall_of_fame(), tuple(store.games_with_ids()), store.themes(),
                   tuple(store.daily_attempts()), store.daily_secret_kept(), tuple(store.all_browser_sessions()),
                   tuple(store.bans()), tuple(store.retired()), store.all_choices(), tuple(store.live.arenas()),
                   store.rush_bests())

    def totals(self) -> dict[str, int]:
        """Counts and sums a person can compare between the two sides of a copy."""
        return {
            "users": len(self.users),
            "points": sum(user.score for user in self.users),
            "games played": sum(user.games for user in self.users),
            "SSH keys": sum(len(user.keys) for user in self.users),
            "hall of fame records": len(self.hall),
            "game records": len(self.games),
            "World of Mastermind records": sum(record.kind == "wom" for _, record in self.games),
            "theme choices": len(self.themes),
            "daily attempts": len(self.daily),
            "daily secrets": int(self.daily_secret is not None),
            "browser sessions": len(self.browser_sessions),
            "bans": len(self.bans),
            "retired names": len(self.retired),
            "remembered choices": sum(len(forms) for forms in self.choices.values()),
            "arenas": len(self.arenas),
            "arena games": sum(len(arena.games) for arena in self.arenas),
            "Rush bests": len(self.rush_bests),
        }


__all__ = [
    "Admin", "Arcade", "Arenas", "BrowserSessions", "ChangeFeed", "Daily", "Hall", "Keys", "Listing", "Live", "LiveChange",
    "Matchmaking", "Moderation", "Preferences", "Ratings", "Records", "RushBests", "SoloProgress", "Store", "StoreError",
    "Users", "rating_of",
]
