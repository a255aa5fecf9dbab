"""The data folder: users, the hall of fame and finished games as JSON files (README, *Where your data lives*).

Layout of the folder (every JSON file is pretty-printed and carries its ``"schema"`` version)::

    users.json                      {"schema": 2, "users": [...], "recent_games": [ids]}
    links.json                      {"schema": 1, "links": [...]}  one-time codes to link a key
    browser.json                    {"schema": 1, "codes": [...], "sessions": [...]}  one-time codes for
                                    browsers and browser sessions (only their tokens' SHA-256)
    moderation.json                 {"schema": 1, "bans": [...], "retired": [...], "kicks"?: [...], "broadcast"?: {...}}
                                    bans, retired names, the last minute's kicks, the operator's broadcast
    halloffame.json                 {"schema": 1, "records": [...]}
    games/<id>.json                 {"schema": 1, "id": "<id>", "game": {...}}  one per finished game
    games/<id>.pending.json         a finished game whose points may not be in users.json yet
    games_index.json                a cache of every game's summary, for statistics (rebuilt at will)
    ratings.json                    {"schema": 1, "games": N, "through": [...], "rated": R, "players": [...]}
                                    a cache of the ratings after the N game files kept, one row per player
                                    (rebuilt at will: ``wom-tui ratings rebuild``)
    daily_secret.json               the secret the daily codes are derived from (made on first use)
    daily/<YYYY-MM-DD>.json         {"schema": 1, "day": ..., "attempts": [...]}  that UTC day's attempts,
                                    one per name (and per SSH key) and puzzle
    daily.json                      what older versions kept instead, every attempt in one file: moved
                                    into daily/ under the lock by the first daily read or write
    preferences.json                {"schema": 1, "themes": {identity: theme},
                                     "choices": {identity: {form: {name: value}}}}  per-identity settings
    rush.json                       {"schema": 1, "bests": {identity: {...}}}  each identity's best Rush
    arena.json, arenas/<id>.json    the newest Code Arena, and those over (the live state's: folder/live.py)
    solo/<hash>.json                {"schema": 1, "identity": ..., "game": {...}}  a solo game in progress,
                                    one per identity (sha256 of it), kept after every move
    solo/damaged/                   such a file that could not be read, moved aside byte for byte
    .lock                           the one inter-process lock (``flock``, see :class:`.files.FolderLock`)

users.json is schema 2 since every user carries ``"keys"``, the fingerprints of the SSH keys
that sign in as them. A schema-1 users.json is read as users without keys and is rewritten as
schema 2 by the next write; nothing else in it changes. An older wom-tui refuses schema 2 with
"unknown schema version" rather than dropping the keys.

Promises:

* Every write is atomic: a temp file in the same folder is written, flushed and fsynced,
  then ``os.replace``-d over the target, then the folder is fsynced. Killing the process at any
  instant leaves the old file or the new one. Leftover temp files (``*.wom-tmp``) are removed
  under the lock when a :class:`FolderStore` opens.
* Every read-modify-write holds the lock and re-reads the file inside it, so processes sharing
  the folder lose no update and two cannot register the same name.
* A file that fails to parse or validate is never overwritten or dropped: reads and writes that
  need it raise :class:`StoreError` naming the file and why, and the file stays byte for byte.
  A damaged game file only blocks :meth:`FolderStore.games` and :meth:`FolderStore.check`, since no write
  touches an existing game file.

Recording a World of Mastermind game touches two files, so it is journalled: (1) the game is
written as ``games/<id>.pending.json``; (2) users.json is rewritten with every user's points and
+1 game and the game's id appended to ``recent_games`` — one atomic write, so all users or none;
(3) the pending file is renamed to ``games/<id>.json``. If the process dies after (1) the next
write (or the next :class:`FolderStore` opened on the folder) applies the points, because the id is not
in ``recent_games``; after (2) it only renames, because the id is there. Points are therefore
applied exactly once, never to only some of the users. Pending files are finished under the lock
before any new game is recorded, so ``recent_games`` only needs the last few ids.
"""

from __future__ import annotations

import errno
import json
import hashlib
import os
import re
import stat
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import date, datetime, timezone
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...browser import BrowserSession, BrowserSignInRefused, WRONG_CODE, check_session_id, keep_sessions
from ...daily import SECRET_BYTES, DailyAttempt, check_start
from ...daily import finished as _finished_attempts
from ...halloffame import HallEntry, HallOfFame
from ...keys import KeyRejected, check_fingerprint
from ...moderation import Ban, Broadcast, Kick, ModerationRefused, Retirement, check_reason, retired_name_keys
from ...ratings import RatingBook, rate_games, rated_game
from ...records import GameRecord
from ...rush import RushScore
from ...stats import GameSummary
from ...users import PendingLink, User, UserRegistry, check_name, name_key
from ..api import Arcade, StoreError
from ..documents import (
    check_kept_json,
    GAME_ID,
    MAX_INDEX_BYTES,
    check_game_id,
    check_game_json,
    check_identity,
    check_theme_name,
    decode_attempts,
    decode_browser,
    decode_daily_day,
    decode_game,
    decode_hall,
    decode_links,
    ModerationDocument,
    decode_moderation,
    decode_prefs,
    decode_prefs_document,
    decode_rush,
    check_choices,
    check_form_name,
    Choices,
    decode_secret,
    decode_solo,
    decode_users,
    encode_browser,
    encode_daily_day,
    encode_document,
    encode_game,
    encode_hall,
    encode_index,
    encode_links,
    encode_moderation,
    encode_prefs,
    encode_rush,
    encode_secret,
    encode_solo,
    encode_users,
    new_game_id,
    parse_index,
)
from .files import (
    ARENA_FILE,
    ARENAS_DIR,
    BROWSER_FILE,
    DAILY_DIR,
    DAILY_FILE,
    DAILY_SECRET_FILE,
    GAMES_DIR,
    HALL_FILE,
    INDEX_FILE,
    LINKS_FILE,
    LOCK_FILE,
    MODERATION_FILE,
    PENDING_SUFFIX,
    PREFS_FILE,
    RATINGS_FILE,
    RUSH_FILE,
    SOLO_DIR,
    TMP_SUFFIX,
    USERS_FILE,
    FolderLock,
    LockTimeout,
    atomic_write,
    flush_file_system,
    fsync_folder,
    read_document,
    not_regular,
    read_bytes,
    refuse_unless_regular,
    unlink,
)

if TYPE_CHECKING:
    from .live import FolderLive

RECENT_GAMES = 64
LOCK_TIMEOUT = 10.0
"""Seconds to wait for another process's write before giving up with a clear error."""

_DAY_FILE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}\.json")
_GAME_FILE = re.compile(r"(?P<id>[0-9]{8}T[0-9]{12}Z-[0-9a-f]{12})(?P<pending>\.pending)?\.json")
FOLDER_FILES = (USERS_FILE, HALL_FILE, PREFS_FILE, DAILY_FILE, DAILY_SECRET_FILE, MODERATION_FILE, RUSH_FILE, ARENA_FILE)
"""The files of a folder that hold part of an arcade (beside the games)."""


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number")


class FolderStore:
    """Owns one data folder: every read and write of users, hall of fame and game records."""

    def __init__(self, data_dir: str | os.PathLike[str], *, lock_timeout: float = LOCK_TIMEOUT) -> None:
        self.data_dir = Path(data_dir)
        self.location = str(self.data_dir)
        self.users_path = self.data_dir / USERS_FILE
        self.hall_path = self.data_dir / HALL_FILE
        self.links_path = self.data_dir / LINKS_FILE
        self.browser_path = self.data_dir / BROWSER_FILE
        self.moderation_path = self.data_dir / MODERATION_FILE
        self.prefs_path = self.data_dir / PREFS_FILE
        self.games_dir = self.data_dir / GAMES_DIR
        self.lock_path = self.data_dir / LOCK_FILE
        self.lock_timeout = lock_timeout
        try:
            self.games_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError.from_os(self.data_dir, "cannot create the data folder", exc) from None
        # The lock is opened with O_NOFOLLOW (see FolderLock); this also refuses a planted link at once.
        refuse_unless_regular(self.lock_path)
        self._lock = FolderLock(self.lock_path, lock_timeout)
        self._live: FolderLive | None = None
        with self._locked():
            self._remove_stale_temps()
            try:
                self._finish_pending()
            except StoreError:
                pass  # The damaged file stays as it is; check() and the next write report it.

    def __repr__(self) -> str:
        return f"FolderStore({str(self.data_dir)!r})"

    @property
    def live(self) -> FolderLive:
        """Tables, live games, presence and the change feed of this folder (:mod:`.live`)."""
        if self._live is None:
            from .live import FolderLive

            self._live = FolderLive(self)
        return self._live

    # ---- plumbing

    @contextmanager
    def _locked(self) -> Iterator[None]:
        try:
            self._lock.acquire()
        except LockTimeout:
            raise StoreError(
                self.lock_path,
                f"another wom-tui process has held the data folder's lock for over {self.lock_timeout:g} s",
            ) from None
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.EMLINK):
                raise StoreError(self.lock_path, not_regular(stat.S_IFLNK)) from None
            raise StoreError.from_os(self.lock_path, "cannot lock the data folder", exc) from None
        try:
            yield
        finally:
            self._lock.release()

    def _write(self, path: Path, data: bytes) -> None:
        try:
            atomic_write(path, data)
        except OSError as exc:
            raise StoreError.from_os(path, "cannot write the file", exc) from None

    def _remove_stale_temps(self) -> None:
        """Delete temp files a killed writer left behind (safe: we hold the lock, so nobody is writing)."""
        for folder in (self.data_dir, self.games_dir, self.data_dir / DAILY_DIR):
            try:
                with os.scandir(folder) as entries:
                    stale = [Path(e.path) for e in entries if e.name.endswith(TMP_SUFFIX) and e.is_file()]
            except FileNotFoundError:
                continue
            except OSError as exc:
                raise StoreError.from_os(folder, "cannot list the folder", exc) from None
            for path in stale:
                unlink(path, "cannot remove a stale temp file")

    def _game_files(self, *, pending: bool) -> list[tuple[str, Path]]:
        """(id, path) of final or pending game files, oldest first."""
        try:
            names = os.listdir(self.games_dir)
        except FileNotFoundError:
            return []
        except OSError as exc:
            raise StoreError.from_os(self.games_dir, "cannot list the folder", exc) from None
        found = []
        for name in names:
            match = _GAME_FILE.fullmatch(name)
            if match is not None and bool(match["pending"]) == pending:
                found.append((match["id"], self.games_dir / name))
        return sorted(found)

    def _load_users(self) -> tuple[UserRegistry, list[str]]:
        loaded = read_document(self.users_path, decode_users)
        return loaded if loaded is not None else (UserRegistry(), [])

    def _load_links(self) -> list[PendingLink]:
        loaded = read_document(self.links_path, decode_links)
        return loaded if loaded is not None else []

    def _load_browser(self) -> tuple[list[PendingLink], list[BrowserSession]]:
        loaded = read_document(self.browser_path, decode_browser)
        return loaded if loaded is not None else ([], [])

    def _load_moderation(self) -> ModerationDocument:
        loaded = read_document(self.moderation_path, decode_moderation)
        return loaded if loaded is not None else ModerationDocument()

    def _load_game(self, game_id: str, path: Path) -> GameRecord:
        loaded = read_document(path, decode_game)
        if loaded is None and path.name.endswith(PENDING_SUFFIX):
            # Another process filed it between our listing and our read: it is now games/<id>.json.
            path = self.games_dir / f"{game_id}.json"
            loaded = read_document(path, decode_game)
        if loaded is None:
            raise StoreError(path, "the file vanished while being read")
        file_id, record = loaded
        if file_id != game_id:
            raise StoreError(path, f"the file holds game {file_id!r}, not {game_id!r}")
        return record

    def _finish_pending(self) -> None:
        """Apply and file games a killed writer left pending (call holding the lock)."""
        for game_id, path in self._game_files(pending=True):
            record = self._load_game(game_id, path)
            registry, recent = self._load_users()
            if game_id not in recent:
                try:
                    self._apply(registry, record)
                except ValueError as exc:
                    raise StoreError(path, str(exc)) from None
                self._write(self.users_path, encode_users(registry, (recent + [game_id])[-RECENT_GAMES:]))
            self._file_game(game_id, path)

    def _file_game(self, game_id: str, pending: Path) -> None:
        final = self.games_dir / f"{game_id}.json"
        try:
            os.replace(pending, final)
            fsync_folder(self.games_dir)
        except OSError as exc:
            raise StoreError.from_os(pending, "cannot file the game record", exc) from None

    @staticmethod
    def _apply(registry: UserRegistry, record: GameRecord) -> None:
        """Add each user's points and one game; all checks pass before anything changes."""
        users = []
        for player in record.players:
            if player.is_user:
                user = registry.get(player.name)
                if user is None:
                    raise ValueError(f"{player.name!r} is not a registered user")
                users.append((user, player.points))
        for user, points in users:
            user.add_points(points)
            user.record_game()

    # ---- reads (no lock needed: every file is replaced atomically)

    def check(self) -> None:
        """Validate what must be valid to play; raise :class:`StoreError` for the first bad file.

        That is users.json, links.json, browser.json, halloffame.json, preferences.json and any game left pending
        (its points are not applied yet, so it must name only registered users). Finished games are
        read, and checked, only when asked for (:meth:`games`): the check at every start, and every
        SSH session, never grows with the number of games played.
        """
        registry, recent = self._load_users()
        self._load_links()
        self._load_browser()
        self._load_moderation()
        self.hall_of_fame()
        read_document(self.prefs_path, decode_prefs)
        for game_id, path in self._game_files(pending=True):
            record = self._load_game(game_id, path)
            if game_id not in recent and path.name.endswith(PENDING_SUFFIX):
                self._check_applicable(path, registry, record)

    @staticmethod
    def _check_applicable(path: Path, registry: UserRegistry, record: GameRecord) -> None:
        """A pending game still to apply must name only registered users, or it would block every save."""
        for player in record.players:
            if player.is_user and player.name not in registry:
                raise StoreError(
                    path,
                    f"this unfinished game gives points to {player.name!r}, who is not a registered user; "
                    "the points cannot be applied (move the file away to go on)",
                )

    def users(self) -> UserRegistry:
        """All registered users."""
        return self._load_users()[0]

    def scoreboard(self) -> list[User]:
        """Users by score, highest first, then name; retired names left out."""
        retired = retired_name_keys(self.retired())
        return [user for user in self.users().scoreboard() if name_key(user.name) not in retired]

    def user(self, name: str) -> User | None:
        """The user with this name in any case, or ``None``."""
        return self.users().get(name)

    def user_for_key(self, fingerprint: str) -> User | None:
        """The user holding the SSH key with this fingerprint, or ``None``."""
        return self.users().holder_of(fingerprint)

    def hall_of_fame(self) -> HallOfFame:
        """The hall of fame (empty when the file does not exist yet)."""
        hall = read_document(self.hall_path, decode_hall)
        return hall if hall is not None else HallOfFame()

    def games(self) -> list[GameRecord]:
        """Every finished game on file, oldest first."""
        return [self._load_game(game_id, path) for game_id, path in self._game_files(pending=False)]

    def games_with_ids(self) -> list[tuple[str, GameRecord]]:
        """Every finished game on file with its id, oldest first (for ``wom-tui store copy``)."""
        return [(game_id, self._load_game(game_id, path)) for game_id, path in self._game_files(pending=False)]

    def close(self) -> None:
        """Nothing to release: a folder holds no connection (the same call as the database store)."""

    # ---- writes (each re-reads under the lock)

    def register(self, name: str, key: str | None = None) -> User:
        """Register a new user with 0 points and 0 games, holding the SSH key ``key`` if given.

        :class:`NameRejected` (bad or taken name) or :class:`KeyRejected` (the key is someone
        else's) with the reason if not; nothing is written then. Both are checked under the lock.
        """
        check_name(name)
        if key is not None:
            check_fingerprint(key)
        with self._locked():
            registry, recent = self._load_users()
            user = registry.register(name, key)
            self._write(self.users_path, encode_users(registry, recent))
        return user

    def bind_key(self, name: str, fingerprint: str) -> User:
        """Let the SSH key ``fingerprint`` sign in as ``name``; KeyRejected (nothing written) if it cannot.

        A key belongs to one user at most, checked under the lock; binding a key the user
        already holds changes nothing.
        """
        check_fingerprint(fingerprint)
        with self._locked():
            registry, recent = self._load_users()
            before = registry.get(name)
            if before is not None and fingerprint in before.keys:
                return before
            user = registry.bind_key(name, fingerprint)
            self._write(self.users_path, encode_users(registry, recent))
        return user

    def unbind_key(self, name: str, fingerprint: str) -> User:
        """Take the key ``fingerprint`` from ``name``; KeyRejected (nothing written) if they do not hold it."""
        with self._locked():
            registry, recent = self._load_users()
            user = registry.unbind_key(name, fingerprint)
            self._write(self.users_path, encode_users(registry, recent))
        return user

    def issue_link_code(self, fingerprint: str, now: datetime | None = None) -> str:
        """A one-time code with which another key can join the name that ``fingerprint`` signs in as.

        Valid for 10 minutes and once; only its hash is written (to links.json). KeyRejected
        if the key holds no name.
        """
        now = now or datetime.now(timezone.utc)
        with self._locked():
            user = self._load_users()[0].holder_of(fingerprint)
            if user is None:
                raise KeyRejected("Only a signed-in player can link another key.")
            code, link = PendingLink.issue(user.name, now)
            links = [kept for kept in self._load_links() if kept.expires > now]
            self._write(self.links_path, encode_links([*links, link]))
        return code

    def redeem_link_code(self, typed: str, fingerprint: str, now: datetime | None = None) -> User:
        """Bind ``fingerprint`` to the name a valid one-time code was issued for, using the code up.

        KeyRejected, with nothing written, for a wrong, used or expired code or a key that
        already holds a name. The code is removed before the key is bound, so a crash between the
        two writes leaves the code used and the key unbound (ask for a new code), never a code
        that works twice.
        """
        check_fingerprint(fingerprint)
        now = now or datetime.now(timezone.utc)
        with self._locked():
            registry, recent = self._load_users()
            holder = registry.holder_of(fingerprint)
            if holder is not None:
                raise KeyRejected(f"This key already belongs to {holder.name}.")
            links = self._load_links()
            found = next((link for link in links if link.matches(typed, now)), None)
            if found is None:
                raise KeyRejected("That code is wrong, used or expired.")
            user = registry.bind_key(found.name, fingerprint)
            self._write(self.links_path, encode_links([kept for kept in links if kept is not found and kept.expires > now]))
            self._write(self.users_path, encode_users(registry, recent))
        return user

    # ---- moderation (docs/serve.md, *Moderating the arcade*): moderation.json, under the lock

    def bans(self) -> list[Ban]:
        """Every ban kept, expired ones included, in the order made."""
        return list(self._load_moderation().bans)

    def add_ban(self, ban: Ban) -> Ban:
        """Keep ``ban`` (a name ban only of a registered name, as registered)."""
        with self._locked():
            if ban.kind == "name":
                user = self._load_users()[0].get(ban.target)
                if user is None:
                    raise ModerationRefused(f"there is no user called {ban.target!r}")
                ban = Ban(ban.id, ban.kind, user.name, ban.reason, ban.created, ban.until)
            kept = self._load_moderation()
            self._write(self.moderation_path, encode_moderation(replace(kept, bans=(*kept.bans, ban))))
        return ban

    def lift_bans(self, which: str) -> list[Ban]:
        """Lift the ban with the id ``which``, or every ban of that target; the bans lifted."""
        with self._locked():
            kept = self._load_moderation()
            gone = [ban for ban in kept.bans if ban.answers_to(which)]
            if gone:
                bans = tuple(ban for ban in kept.bans if ban not in gone)
                self._write(self.moderation_path, encode_moderation(replace(kept, bans=bans)))
        return gone

    def retired(self) -> list[Retirement]:
        """Every retired name, in the order retired."""
        return list(self._load_moderation().retired)

    def retire(self, name: str, reason: str, now: datetime | None = None) -> Retirement:
        """Retire the registered ``name``: its records stay, its name stays taken, its keys stop signing in."""
        now = now or datetime.now(timezone.utc)
        reason = check_reason(reason)
        with self._locked():
            user = self._load_users()[0].get(name)
            if user is None:
                raise ModerationRefused(f"there is no user called {name!r}")
            kept = self._load_moderation()
            if any(name_key(r.name) == name_key(user.name) for r in kept.retired):
                raise ModerationRefused(f"{user.name} is retired already")
            retirement = Retirement(user.name, reason, now)
            self._write(self.moderation_path, encode_moderation(replace(kept, retired=(*kept.retired, retirement))))
        return retirement

    def kick(self, kick: Kick) -> Kick:
        """Keep ``kick``; the kicks older than a minute go as it is written."""
        with self._locked():
            kept = self._load_moderation()
            kicks = tuple(k for k in kept.kicks if k.fresh(kick.at) and k.session != kick.session)
            self._write(self.moderation_path, encode_moderation(replace(kept, kicks=(*kicks, kick))))
        return kick

    def kicks(self) -> list[Kick]:
        """The kicks kept, oldest first."""
        return list(self._load_moderation().kicks)

    def broadcast(self) -> Broadcast | None:
        """The operator's line every session shows now, or None."""
        return self._load_moderation().broadcast

    def set_broadcast(self, broadcast: Broadcast | None) -> None:
        """Show ``broadcast`` on every session, or clear it (None)."""
        with self._locked():
            kept = self._load_moderation()
            if kept.broadcast != broadcast:
                self._write(self.moderation_path, encode_moderation(replace(kept, broadcast=broadcast)))

    # ---- browser sign-in (docs/serve.md, *Who you are in a browser*): browser.json, under the lock

    def issue_browser_code(self, name: str, now: datetime | None = None) -> str:
        """A one-time code (ten minutes, once) that signs a browser in as ``name``; only its hash is written."""
        now = now or datetime.now(timezone.utc)
        with self._locked():
            user = self.users().get(name)
            if user is None:
                raise BrowserSignInRefused(f"There is no user called {name}.")
            code, pending = PendingLink.issue(user.name, now)
            codes, sessions = self._load_browser()
            self._write(self.browser_path,
                        encode_browser([*(kept for kept in codes if kept.expires > now), pending], sessions))
        return code

    def redeem_browser_code(self, typed: str, token_hash: str, address: str, now: datetime | None = None) -> BrowserSession:
        """Use a valid code up and start a session for its name, in one write under the lock.

        BrowserSignInRefused, with nothing written, for a wrong, used or expired code. Expired codes and
        sessions, and a name's sessions beyond the most recent twenty, go in the same write.
        """
        now = now or datetime.now(timezone.utc)
        with self._locked():
            codes, sessions = self._load_browser()
            found = next((code for code in codes if isinstance(typed, str) and code.matches(typed, now)), None)
            if found is None:
                raise BrowserSignInRefused(WRONG_CODE)
            user = self.users().get(found.name)
            if user is None:  # users are never removed; a hand-edited folder could still say so
                raise BrowserSignInRefused(WRONG_CODE)
            session = BrowserSession.start(user.name, token_hash, address, now)
            if any(kept.token_hash == token_hash for kept in sessions):
                raise ValueError("that token is already in use")  # 256 random bits: only a caller's mistake
            self._write(self.browser_path, encode_browser([code for code in codes if code is not found and code.expires > now],
                                                          self._kept_sessions([*sessions, session], now)))
        return session

    @staticmethod
    def _kept_sessions(sessions: list[BrowserSession], now: datetime) -> list[BrowserSession]:
        by_name: dict[str, list[BrowserSession]] = {}
        for session in sessions:
            by_name.setdefault(name_key(session.name), []).append(session)
        kept = {id(session) for group in by_name.values() for session in keep_sessions(group, now)}
        return [session for session in sessions if id(session) in kept]

    def use_browser_session(self, token_hash: str, now: datetime | None = None) -> BrowserSession | None:
        """The unexpired session holding ``token_hash``, its "last used" written when over a minute old; or None."""
        now = now or datetime.now(timezone.utc)
        found = next((s for s in self._load_browser()[1] if s.token_hash == token_hash and s.valid_at(now)), None)
        if found is None or not found.stale_use(now):
            return found
        with self._locked():  # read again: it may have been revoked meanwhile
            codes, sessions = self._load_browser()
            index = next((i for i, s in enumerate(sessions) if s.token_hash == token_hash and s.valid_at(now)), None)
            if index is None:
                return None
            sessions[index] = found = sessions[index].used_at(now)
            self._write(self.browser_path, encode_browser(codes, sessions))
        return found

    def browser_sessions(self, name: str, now: datetime | None = None) -> list[BrowserSession]:
        """``name``'s unexpired browser sessions, oldest first."""
        now = now or datetime.now(timezone.utc)
        folded = name_key(name) if isinstance(name, str) else ""
        return sorted((s for s in self._load_browser()[1] if name_key(s.name) == folded and s.valid_at(now)),
                      key=lambda session: session.created)

    def revoke_browser_sessions(self, name: str, session_id: str | None = None) -> int:
        """End one of ``name``'s browser sessions, or all of them; how many ended (BrowserSignInRefused if none is
        ``session_id``).
        """
        if session_id is not None:
            check_session_id(session_id)
        with self._locked():
            user = self.users().get(name)
            if user is None:
                raise BrowserSignInRefused(f"There is no user called {name}.")
            codes, sessions = self._load_browser()
            gone = [s for s in sessions if name_key(s.name) == name_key(user.name)
                    and (session_id is None or s.id == session_id)]
            if session_id is not None and not gone:
                raise BrowserSignInRefused(f"{user.name} has no browser session {session_id}.")
            # A code made in a revoked browser (a thief's `b`) must not sign another in: every unused one goes.
            kept_codes = [code for code in codes if name_key(code.name) != name_key(user.name)]
            if gone or len(kept_codes) != len(codes):
                self._write(self.browser_path, encode_browser(kept_codes, [s for s in sessions if s not in gone]))
        return len(gone)

    def record_game(self, record: GameRecord, *, game_id: str | None = None) -> str:
        """Keep a finished game; for World of Mastermind also add each user's points and +1 game.

        Solo games only keep the record: the scoreboard counts World of Mastermind games.
        ``ValueError`` (before anything is written) if the record is invalid or names an unknown user.
        ``game_id`` (from :func:`new_game_id`) makes recording idempotent: a game already filed
        under that id is not recorded again (a live table retrying after a crash).
        Returns the game's id.
        """
        if not isinstance(record, GameRecord):
            raise TypeError("record_game needs a GameRecord")
        check_game_json(record.as_json())
        game_id = new_game_id() if game_id is None else check_game_id(game_id)
        data = encode_game(game_id, record)
        with self._locked():
            self._finish_pending()
            if (self.games_dir / f"{game_id}.json").exists():
                return game_id
            ratings = self._ratings_to_update()
            if record.kind != "wom":
                self._write(self.games_dir / f"{game_id}.json", data)
                self._update_ratings(ratings, game_id, record)
                return game_id
            registry, recent = self._load_users()
            self._apply(registry, record)
            pending = self.games_dir / f"{game_id}{PENDING_SUFFIX}"
            self._write(pending, data)
            try:
                self._write(self.users_path, encode_users(registry, (recent + [game_id])[-RECENT_GAMES:]))
            except StoreError as failure:
                self._withdraw(pending, failure)
                raise
            try:
                self._file_game(game_id, pending)
            except StoreError:
                return game_id  # The points are saved; the next write or start renames the pending file.
            self._update_ratings(ratings, game_id, record)
        return game_id

    # ---- ratings (docs/play.md, *Ratings*): ratings.json caches rate_games over every game file

    @property
    def ratings_path(self) -> Path:
        """The ratings cache (``ratings.json``)."""
        return self.data_dir / RATINGS_FILE

    def _game_count(self) -> int:
        """How many game files are filed (not pending): names only, no paths (100,000 of them per look)."""
        try:
            names = os.listdir(self.games_dir)
        except FileNotFoundError:
            return 0
        except OSError as exc:
            raise StoreError.from_os(self.games_dir, "cannot list the folder", exc) from None
        match = _GAME_FILE.fullmatch
        return sum(1 for name in names if (found := match(name)) is not None and not found["pending"])

    def _read_ratings(self, *, to_change: bool = False) -> tuple[int, RatingBook] | None:
        """The cache as (game files it covers, book), or None if missing or unreadable (it is only a cache).

        The book read last is kept while the file is unchanged; ``to_change`` hands out a copy of it.
        """
        try:
            info = os.stat(self.ratings_path)
        except OSError:
            return None
        stamp = (info.st_size, info.st_mtime_ns, info.st_ino)
        memo = getattr(self, "_ratings_memo", None)
        if memo is not None and memo[0] == stamp:
            return memo[1], memo[2].copy() if to_change else memo[2]
        try:
            raw = read_bytes(self.ratings_path)
            # Only a cache, checked row by row as it is read: plain json (the strict parser takes ten times as long).
            data = json.loads(raw, parse_constant=_no_constant) if raw is not None else None
            if not isinstance(data, dict) or data.get("schema") != 1 or type(data.get("games")) is not int:
                return None
            book = RatingBook.from_json(data)
        except (StoreError, ValueError, TypeError, KeyError, RecursionError):
            return None
        self._ratings_memo = (stamp, data["games"], book)
        return data["games"], book.copy() if to_change else book

    def _write_ratings(self, games: int, book: RatingBook) -> None:
        try:
            self._write(self.ratings_path, encode_document({"games": games, **book.as_json()}))
        except StoreError:
            return  # Only a cache: the next look rates the games again.
        self.__dict__.pop("_ratings_memo", None)

    def _ratings_to_update(self) -> tuple[int, RatingBook] | None:
        """The cache, if it covers exactly the game files kept (call holding the lock, before recording)."""
        cached = self._read_ratings(to_change=True)
        return cached if cached is not None and cached[0] == self._game_count() else None

    def _update_ratings(self, cached: tuple[int, RatingBook] | None, game_id: str, record: GameRecord) -> None:
        """Add the game just filed to a cache that covered every game before it (else leave it to be rebuilt)."""
        if cached is None:
            return
        games, book = cached
        rated = rated_game(GameSummary.of(game_id, record))
        if rated is not None:
            if rated.order <= book.through:
                return  # Recorded out of order: the next look rates every game again.
            book.apply(rated)
        self._write_ratings(games + 1, book)

    def rating_book(self) -> RatingBook:
        """The ratings after every game kept (from the cache, or rated from the game files if it is out of date)."""
        cached = self._read_ratings()
        if cached is not None and cached[0] == self._game_count():
            return cached[1]
        return self.rebuild_ratings()

    def rebuild_ratings(self) -> RatingBook:
        """Rate every game file again (a damaged one is left out), keep the result and return it."""
        summaries, left_out = self.game_summaries()
        book = rate_games(summaries)
        with self._locked():
            if self._game_count() == len(summaries) + len(left_out):
                self._write_ratings(len(summaries) + len(left_out), book)
        return book

    def _withdraw(self, pending: Path, failure: StoreError) -> None:
        """Remove the pending file of a game whose points could not be saved, so that the
        "not saved" the player is told stays true (it must never be applied later).
        """
        try:
            pending.unlink()
            fsync_folder(self.games_dir)
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise StoreError(
                pending,
                f"{failure.reason} for {failure.path.name}, and the game's pending file could not be removed "
                f"({exc.strerror or exc}): its points will be applied when the folder can be written again",
            ) from None

    def theme(self, identity: str) -> str | None:
        """The theme ``identity`` chose last (``"local"`` on this machine; a key over SSH), or ``None``."""
        check_identity(identity)
        themes = read_document(self.prefs_path, decode_prefs)
        return (themes or {}).get(identity)

    def set_theme(self, identity: str, theme: str) -> None:
        """Remember ``theme`` for ``identity`` (one atomic write under the lock)."""
        check_identity(identity)
        check_theme_name(theme)
        with self._locked():
            themes, choices = self._prefs()
            if themes.get(identity) == theme:
                return
            themes[identity] = theme
            self._write(self.prefs_path, encode_prefs(themes, choices))

    def _prefs(self) -> tuple[dict[str, str], dict[str, dict[str, Choices]]]:
        return read_document(self.prefs_path, decode_prefs_document) or ({}, {})

    def choices(self, identity: str, form: str) -> dict[str, Any]:
        """What ``identity`` chose last on ``form``, from preferences.json (``{}`` if none or damaged)."""
        check_identity(identity)
        check_form_name(form)
        return dict(self._prefs()[1].get(identity, {}).get(form, {}))

    def set_choices(self, identity: str, form: str, values: dict[str, Any]) -> None:
        """Remember ``identity``'s choices on ``form`` (one atomic write under the lock, none if unchanged)."""
        check_identity(identity)
        check_form_name(form)
        values = check_choices(values)
        with self._locked():
            themes, choices = self._prefs()
            if choices.get(identity, {}).get(form) == values:
                return
            choices.setdefault(identity, {})[form] = values
            self._write(self.prefs_path, encode_prefs(themes, choices))

    # ---- Rush's personal bests (domain/rush.py)

    @property
    def _rush_path(self) -> Path:
        """rush.json: each identity's best Rush."""
        return self.data_dir / RUSH_FILE

    def rush_bests(self) -> dict[str, RushScore]:
        """Every identity's best Rush (``StoreError`` naming a damaged rush.json)."""
        return read_document(self._rush_path, decode_rush) or {}

    def rush_best(self, identity: str) -> RushScore | None:
        """``identity``'s best Rush, or None."""
        check_identity(identity)
        return self.rush_bests().get(identity)

    def submit_rush(self, identity: str, score: RushScore) -> bool:
        """Keep ``score`` if it beats ``identity``'s best (under the lock); True if it did."""
        check_identity(identity)
        with self._locked():
            bests = self.rush_bests()
            if not score.beats(bests.get(identity)):
                return False
            bests[identity] = score
            self._write(self._rush_path, encode_rush(bests))
        return True

    # ---- a solo game in progress, per identity (it survives a crash)

    def _solo_path(self, identity: str) -> Path:
        digest = hashlib.sha256(check_identity(identity).encode("ascii")).hexdigest()[:40]
        return self.data_dir / SOLO_DIR / f"{digest}.json"

    def solo_in_progress(self, identity: str) -> dict[str, Any] | None:
        """The solo game ``identity`` left unfinished (:meth:`.solo.SoloGame.as_json` data), or None.

        A damaged file is moved aside to ``solo/damaged/`` (kept byte for byte) and reported as a
        :class:`StoreError` naming it; the next game of that identity starts afresh.
        """
        path = self._solo_path(identity)
        try:
            found = read_document(path, decode_solo)
        except StoreError as error:
            with self._locked():
                target = path.parent / "damaged" / f"{path.stem}-{uuid.uuid4().hex[:8]}.json"
                try:
                    target.parent.mkdir(exist_ok=True)
                    os.replace(path, target)
                except OSError:
                    raise error from None
            raise StoreError(path, f"{error.reason}; the file was kept as {target}") from None
        if found is None:
            return None
        if found[0] != identity:
            raise StoreError(path, f"the file holds the game of {found[0]!r}, not of {identity!r}")
        return found[1]

    def keep_solo(self, identity: str, game: dict[str, Any]) -> None:
        """Keep ``game`` (:meth:`.solo.SoloGame.as_json` data) as ``identity``'s solo game in progress,
        replacing the one kept before (one atomic write under the lock); ``ValueError`` if it is not one.
        """
        path = self._solo_path(identity)
        data = encode_solo(identity, check_kept_json(game))
        try:
            path.parent.mkdir(exist_ok=True)
        except OSError as exc:
            raise StoreError.from_os(path.parent, "cannot create the folder", exc) from None
        with self._locked():
            self._write(path, data)

    def drop_solo(self, identity: str) -> None:
        """Forget ``identity``'s solo game in progress (it ended, or was abandoned on purpose)."""
        path = self._solo_path(identity)
        with self._locked():
            unlink(path, "cannot remove the file")

    def submit_hall_entry(self, entry: HallEntry) -> bool:
        """Make ``entry`` the record for its ruleset if it beats the current one; True if it did."""
        if not isinstance(entry, HallEntry):
            raise TypeError("submit_hall_entry needs a HallEntry")
        with self._locked():
            hall = self.hall_of_fame()
            if not hall.consider(entry):
                return False
            self._write(self.hall_path, encode_hall(hall))
        return True


    # ---- statistics, replays and the daily code

    @property
    def index_path(self) -> Path:
        """The summaries cache (``games_index.json``)."""
        return self.data_dir / INDEX_FILE

    def game(self, game_id: str) -> GameRecord:
        """One finished game, read and validated in full; :class:`StoreError` if missing or damaged."""
        if not isinstance(game_id, str) or GAME_ID.fullmatch(game_id) is None:
            raise StoreError(self.games_dir, f"{game_id!r} is not a game id")
        path = self.games_dir / f"{game_id}.json"
        if not path.exists():
            raise StoreError(path, "there is no such game (was the file moved?)")
        return self._load_game(game_id, path)

    def game_summaries(self) -> tuple[list[GameSummary], list[StoreError]]:
        """A summary of every finished game (oldest first), and the files that had to be left out.

        A damaged game file never stops the rest: it is left out and named in the second list
        (the file itself is not touched). Summaries come from ``games_index.json``, a cache of
        files already read, keyed by each file's size and modification time, so only new or
        changed game files are read; the cache is then brought up to date (and kept in memory
        while the file is unchanged, so looking again only lists the folder). The cache holds
        nothing that is not in the game files: a damaged or missing one is simply rebuilt.
        """
        cached = self._read_index()
        try:
            with os.scandir(self.games_dir) as entries:
                found = []
                game_id_at = GAME_ID.fullmatch
                for entry in entries:
                    name = entry.name
                    # "<id>.json" only (a pending "<id>.pending.json" is not a game id followed by .json).
                    if name.endswith(".json") and game_id_at(name, 0, len(name) - 5) is not None:
                        info = entry.stat()
                        found.append((name[:-5], name, info.st_size, info.st_mtime_ns))
        except FileNotFoundError:
            found = []
        except OSError as exc:
            raise StoreError.from_os(self.games_dir, "cannot list the folder", exc) from None
        if len(found) == len(cached):
            # Nothing new, gone or changed since the index was last read or written: its games, sorted once.
            for game_id, _, size, mtime in found:
                hit = cached.get(game_id)
                if hit is None or hit[0] != size or hit[1] != mtime:
                    break
            else:
                return list(self._sorted_summaries(cached)), []
        found.sort()
        summaries: list[GameSummary] = []
        left_out: list[StoreError] = []
        fresh: dict[str, tuple[int, int, GameSummary]] = {}
        changed = len(cached) != len(found)
        for game_id, name, size, mtime in found:
            hit = cached.get(game_id)
            if hit is not None and hit[0] == size and hit[1] == mtime:
                summary = hit[2]
            else:
                changed = True
                try:
                    summary = GameSummary.of(game_id, self._load_game(game_id, self.games_dir / name))
                except StoreError as error:
                    left_out.append(error)
                    continue
            fresh[game_id] = (size, mtime, summary)
            summaries.append(summary)
        if changed:
            try:
                with self._locked():
                    self._write(self.index_path, encode_index(fresh))
                    self._remember_index(fresh)
            except StoreError:
                pass  # Only a cache: the next look reads the files again.
        summaries.sort(key=attrgetter("finished_at", "game_id"))
        return summaries, left_out

    def _sorted_summaries(self, index: dict[str, tuple[int, int, GameSummary]]) -> list[GameSummary]:
        """The index's summaries in the order games finished (kept while the index is the same)."""
        memo = getattr(self, "_sorted_memo", None)
        if memo is not None and memo[0] is index:
            return memo[1]
        ordered = sorted((entry[2] for entry in index.values()), key=attrgetter("finished_at", "game_id"))
        self._sorted_memo = (index, ordered)
        return ordered

    def _index_stamp(self) -> tuple[int, int, int] | None:
        try:
            info = os.stat(self.index_path)
        except OSError:
            return None
        return (info.st_size, info.st_mtime_ns, info.st_ino)

    def _read_index(self) -> dict[str, tuple[int, int, GameSummary]]:
        """The index as last read or written by this store if the file is unchanged, else read afresh."""
        stamp = self._index_stamp()
        remembered = getattr(self, "_index_memo", None)
        if stamp is not None and remembered is not None and remembered[0] == stamp:
            return remembered[1]
        try:
            raw = read_bytes(self.index_path, MAX_INDEX_BYTES)
            index = parse_index(raw) if raw is not None else {}
        except (StoreError, ValueError, TypeError, KeyError, RecursionError):
            return {}  # A damaged cache is rebuilt from the game files.
        if stamp is not None and stamp == self._index_stamp():
            self._index_memo = (stamp, index)
        return index

    def _remember_index(self, index: dict[str, tuple[int, int, GameSummary]]) -> None:
        stamp = self._index_stamp()
        if stamp is not None:
            self._index_memo = (stamp, dict(index))

    def daily_secret(self) -> bytes:
        """The data folder's daily secret, made (32 random bytes, file mode 0600) on first use."""
        secret = read_document(self.data_dir / DAILY_SECRET_FILE, decode_secret)
        if secret is not None:
            return secret
        with self._locked():
            path = self.data_dir / DAILY_SECRET_FILE
            secret = read_document(path, decode_secret)
            if secret is None:
                # Not from the seeded RNG on purpose: with a known --seed the codes could be computed.
                import secrets

                secret = secrets.token_bytes(SECRET_BYTES)
                self._write(path, encode_secret(secret))
        return secret

    @property
    def _daily_dir(self) -> Path:
        """The folder of the daily attempts, one file per UTC day (``daily/<YYYY-MM-DD>.json``)."""
        return self.data_dir / DAILY_DIR

    def _day_path(self, day: str) -> Path:
        try:
            date.fromisoformat(day)
        except (TypeError, ValueError):
            raise StoreError(self._daily_dir, f"{day!r} is not a day (YYYY-MM-DD)") from None
        return self._daily_dir / f"{day}.json"

    def _read_day(self, day: str) -> list[DailyAttempt]:
        return read_document(self._day_path(day), decode_daily_day(day)) or []

    def _old_daily_left(self) -> bool:
        return os.path.lexists(self.data_dir / DAILY_FILE)

    def _move_old_daily(self) -> None:
        """Move an older version's ``daily.json`` into ``daily/``, one file per day (hold the lock).

        Each day file is written atomically and flushed before ``daily.json`` is removed, so a move cut
        short leaves ``daily.json`` in place and the next one does it again: a day file already written
        holds the same attempts, and the two are merged, so no attempt is lost or doubled. A damaged
        ``daily.json`` stays as it is and every daily read or write names it.
        """
        old = self.data_dir / DAILY_FILE
        attempts = read_document(old, decode_attempts)
        if attempts is None:
            return
        by_day: dict[str, dict[tuple[str, str], DailyAttempt]] = {}
        for attempt in attempts:
            by_day.setdefault(attempt.day, {})[(attempt.puzzle, name_key(attempt.player))] = attempt
        try:
            self._daily_dir.mkdir(exist_ok=True)
            for day, moved in sorted(by_day.items()):
                for attempt in self._read_day(day):  # written by a move cut short: the same attempts
                    moved[(attempt.puzzle, name_key(attempt.player))] = attempt
                atomic_write(self._day_path(day), encode_daily_day(day, moved.values()), sync_folder=False)
            fsync_folder(self._daily_dir)
        except OSError as exc:
            raise StoreError.from_os(self._daily_dir, "cannot move daily.json's attempts into the folder", exc) from None
        unlink(old, "cannot remove the file once its attempts were moved into daily/")
        try:
            fsync_folder(self.data_dir)
        except OSError as exc:
            raise StoreError.from_os(self.data_dir, "cannot flush the folder", exc) from None

    def _daily_ready(self) -> None:
        """Move an older ``daily.json`` into ``daily/`` if one is left (taking the lock only then)."""
        if self._old_daily_left():
            with self._locked():
                self._move_old_daily()

    def daily_attempts(self) -> list[DailyAttempt]:
        """Every daily attempt on file, day by day (reads every day's file: for ``wom-tui store copy``)."""
        self._daily_ready()
        try:
            names = sorted(name for name in os.listdir(self._daily_dir) if _DAY_FILE.fullmatch(name))
        except FileNotFoundError:
            return []
        except OSError as exc:
            raise StoreError.from_os(self._daily_dir, "cannot list the folder", exc) from None
        return [attempt for name in names for attempt in self._read_day(name[:-5])]

    def daily_attempts_of(self, player: str) -> list[DailyAttempt]:
        """Every attempt of ``player`` (case ignored), oldest day first: the day files are read one by one
        (a day's file holds that day's few attempts; a year of play is 365 small reads).
        """
        key = name_key(player)
        return [attempt for attempt in self.daily_attempts() if name_key(attempt.player) == key]

    def daily_attempts_on(self, day: str) -> list[DailyAttempt]:
        """The attempts of one UTC day (``YYYY-MM-DD``): one file read, however many days are kept."""
        self._daily_ready()
        return self._read_day(day)

    def start_daily(self, attempt: DailyAttempt) -> None:
        """Record that ``attempt.player`` started a daily puzzle (at their first guess).

        :class:`~wom_tui.domain.daily.DailyRefused` (and nothing written) if that name, or the key
        that started it, already has an attempt at that puzzle on that day, even one started a
        moment ago in another session. Under the lock only that day's file is read and written.
        """
        if not isinstance(attempt, DailyAttempt):
            raise TypeError("start_daily needs a DailyAttempt")
        path = self._day_path(attempt.day)
        with self._locked():
            self._move_old_daily()
            attempts = self._read_day(attempt.day)
            check_start(attempts, attempt)
            self._write_day(path, attempt.day, [*attempts, attempt])

    def finish_daily(
        self, day: str, puzzle: str, player: str, *, finished_at: str, guesses: int, broke: bool, game_id: str | None
    ) -> None:
        """Record how ``player``'s started attempt ended; ``DailyRefused`` if none is under way."""
        path = self._day_path(day)
        with self._locked():
            self._move_old_daily()
            attempts = _finished_attempts(
                self._read_day(day), day, puzzle, player,
                finished_at=finished_at, guesses=guesses, broke=broke, game_id=game_id,
            )
            self._write_day(path, day, attempts)

    def _write_day(self, path: Path, day: str, attempts: list[DailyAttempt]) -> None:
        try:
            self._daily_dir.mkdir(exist_ok=True)
        except OSError as exc:
            raise StoreError.from_os(self._daily_dir, "cannot create the folder", exc) from None
        self._write(path, encode_daily_day(day, attempts))

    # ---- copying whole arcades (wom-tui store copy)

    def is_empty(self) -> bool:
        """True when the folder keeps no user, game, hall-of-fame, theme or daily file."""
        if any((self.data_dir / name).exists() for name in FOLDER_FILES):
            return False
        try:
            if any(_DAY_FILE.fullmatch(name) for name in os.listdir(self._daily_dir)):
                return False
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise StoreError.from_os(self._daily_dir, "cannot list the folder", exc) from None
        try:
            return not any(name.endswith(".json") for name in os.listdir(self.games_dir))
        except OSError as exc:
            raise StoreError.from_os(self.games_dir, "cannot list the folder", exc) from None

    def totals(self) -> dict[str, int]:
        """What :meth:`.api.Arcade.totals` counts, every file read back as the game will read it."""
        return Arcade.read(self).totals()

    def themes(self) -> dict[str, str]:
        """The theme each identity chose."""
        return read_document(self.prefs_path, decode_prefs) or {}

    def all_choices(self) -> dict[str, dict[str, dict[str, Any]]]:
        """The choices each identity remembers, per form."""
        return {identity: {form: dict(values) for form, values in forms.items()}
                for identity, forms in self._prefs()[1].items()}

    def daily_secret_kept(self) -> bytes | None:
        """The daily secret if one was made (never makes one)."""
        return read_document(self.data_dir / DAILY_SECRET_FILE, decode_secret)

    def all_browser_sessions(self) -> list[BrowserSession]:
        """Every browser session in browser.json, as kept (oldest first)."""
        return sorted(self._load_browser()[1], key=lambda session: (session.created, session.id))

    def load(self, arcade: Arcade) -> None:
        """Write ``arcade`` into this empty folder: game files first, users.json last.

        Game files are each written under a temporary name and renamed, then flushed to disk all at
        once (:func:`.files.flush_file_system`): one fsync per file makes 5,000 games take 20 s instead
        of one. Each file is whole or absent at any instant; if the copy is cut short, users.json is
        missing, and the folder is not empty, so copying again asks for it to be cleared first.
        """
        if not self.is_empty():
            raise StoreError(self.data_dir, "the folder already holds an arcade; a copy only goes into an empty one")
        try:
            for game_id, record in arcade.games:
                final = self.games_dir / f"{game_id}.json"
                temporary = self.games_dir / f".{game_id}.json{TMP_SUFFIX}"
                temporary.write_bytes(encode_game(game_id, record))
                os.replace(temporary, final)
            flush_file_system(self.games_dir)
            atomic_write(self.hall_path, encode_hall(arcade.hall))
            if arcade.themes or arcade.choices:
                atomic_write(self.prefs_path, encode_prefs(arcade.themes, arcade.choices))
            if arcade.daily_secret is not None:
                atomic_write(self.data_dir / DAILY_SECRET_FILE, encode_secret(arcade.daily_secret))  # mode 0600
            if arcade.daily:
                days: dict[str, list[DailyAttempt]] = {}
                for attempt in arcade.daily:
                    days.setdefault(attempt.day, []).append(attempt)
                self._daily_dir.mkdir(exist_ok=True)
                for day, attempts in days.items():
                    atomic_write(self._day_path(day), encode_daily_day(day, attempts), sync_folder=False)
                fsync_folder(self._daily_dir)
            if arcade.browser_sessions:
                atomic_write(self.browser_path, encode_browser([], arcade.browser_sessions))
            if arcade.bans or arcade.retired:
                atomic_write(self.moderation_path, encode_moderation(ModerationDocument(arcade.bans, arcade.retired)))
            if arcade.rush_bests:
                atomic_write(self._rush_path, encode_rush(arcade.rush_bests))
            if arcade.arenas:
                from .live import encode_arena

                *past, newest = arcade.arenas
                if past:
                    (self.data_dir / ARENAS_DIR).mkdir(exist_ok=True)
                for arena in past:
                    atomic_write(self.data_dir / ARENAS_DIR / f"{arena.arena_id}.json", encode_arena(arena))
                atomic_write(self.data_dir / ARENA_FILE, encode_arena(newest))
            atomic_write(self.users_path, encode_users(UserRegistry(arcade.users)))
        except OSError as exc:
            raise StoreError.from_os(self.data_dir, "cannot write the copy", exc) from None


__all__ = ["LOCK_TIMEOUT", "FolderStore"]
