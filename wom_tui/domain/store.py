"""The data folder: users, the hall of fame and finished games as JSON files (README, *Where your data lives*).

Layout of the folder (every JSON file is pretty-printed and carries its ``"schema"`` version)::

    users.json                      {"schema": 2, "users": [...], "recent_games": [ids]}
    links.json                      {"schema": 1, "links": [...]}  one-time codes to link a key
    halloffame.json                 {"schema": 1, "records": [...]}
    games/<id>.json                 {"schema": 1, "id": "<id>", "game": {...}}  one per finished game
    games/<id>.pending.json         a finished game whose points may not be in users.json yet
    games_index.json                a cache of every game's summary, for statistics (rebuilt at will)
    daily_secret.json               the secret the daily codes are derived from (made on first use)
    daily.json                      {"schema": 1, "attempts": [...]}  one per identity, puzzle and day
    preferences.json                {"schema": 1, "themes": {identity: theme}}  per-identity settings
    solo/<hash>.json                {"schema": 1, "identity": ..., "game": {...}}  a solo game in progress,
                                    one per identity (sha256 of it), kept after every move
    solo/damaged/                   such a file that could not be read, moved aside byte for byte
    .lock                           the one inter-process lock (``flock``, see :class:`FolderLock`)

users.json is schema 2 since every user carries ``"keys"``, the fingerprints of the SSH keys
that sign in as them. A schema-1 users.json is read as users without keys and is rewritten as
schema 2 by the next write; nothing else in it changes. An older wom-tui refuses schema 2 with
"unknown schema version" rather than dropping the keys.

Promises:

* Every write is atomic: a temp file in the same folder is written, flushed and fsynced,
  then ``os.replace``-d over the target, then the folder is fsynced. Killing the process at any
  instant leaves the old file or the new one. Leftover temp files (``*.wom-tmp``) are removed
  under the lock when a :class:`Store` opens.
* Every read-modify-write holds the lock and re-reads the file inside it, so processes sharing
  the folder lose no update and two cannot register the same name.
* A file that fails to parse or validate is never overwritten or dropped: reads and writes that
  need it raise :class:`StoreError` naming the file and why, and the file stays byte for byte.
  A damaged game file only blocks :meth:`Store.games` and :meth:`Store.check`, since no write
  touches an existing game file.

Recording a World of Mastermind game touches two files, so it is journalled: (1) the game is
written as ``games/<id>.pending.json``; (2) users.json is rewritten with every user's points and
+1 game and the game's id appended to ``recent_games`` — one atomic write, so all users or none;
(3) the pending file is renamed to ``games/<id>.json``. If the process dies after (1) the next
write (or the next :class:`Store` opened on the folder) applies the points, because the id is not
in ``recent_games``; after (2) it only renames, because the id is there. Points are therefore
applied exactly once, never to only some of the users. Pending files are finished under the lock
before any new game is recorded, so ``recent_games`` only needs the last few ids.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
import re
import stat
import tempfile
import threading
import time
import uuid
import weakref
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from operator import attrgetter
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from .codes import Ruleset
from .daily import SECRET_BYTES, DailyAttempt, check_can_start
from .daily import finished as _finished_attempts
from .halloffame import HallEntry, HallOfFame
from .records import GAME_KINDS, GameRecord
from .keys import KeyRejected, check_fingerprint
from .stats import GameSummary, PlayerLine
from .users import NameRejected, PendingLink, User, UserRegistry, check_name, computer_name, name_key

if TYPE_CHECKING:
    from .live import LiveState

SCHEMA = 1
USERS_SCHEMA = 2
"""users.json's version: 2 added each user's key fingerprints (version 1 is still read)."""
USERS_FILE = "users.json"
LINKS_FILE = "links.json"
HALL_FILE = "halloffame.json"
PREFS_FILE = "preferences.json"
SOLO_DIR = "solo"
GAMES_DIR = "games"
LOCK_FILE = ".lock"
INDEX_FILE = "games_index.json"
DAILY_SECRET_FILE = "daily_secret.json"
DAILY_FILE = "daily.json"
TMP_SUFFIX = ".wom-tmp"
PENDING_SUFFIX = ".pending.json"

MAX_FILE_BYTES = 16 * 1024 * 1024
"""Refuse to read anything larger: no file of ours comes near it (10,000 users is about 0.7 MB),
so a 50 MB file is refused before it is read."""
MAX_DIGITS = 15
"""The longest number a data file may hold: no game produces a score near 10^15 (a game gives at
most 20 points), and Python would spend seconds converting a number of thousands of digits."""
MAX_DEPTH = 12
"""Deepest nesting our files use is 6 (a guess inside a player inside a game)."""
RECENT_GAMES = 64
LOCK_TIMEOUT = 10.0
"""Seconds to wait for another process's write before giving up with a clear error."""

_GAME_ID = re.compile(r"[0-9]{8}T[0-9]{12}Z-[0-9a-f]{12}")
_GAME_FILE = re.compile(r"(?P<id>[0-9]{8}T[0-9]{12}Z-[0-9a-f]{12})(?P<pending>\.pending)?\.json")
_PLAYER_KEYS = {"name", "is_user", "broke", "attempts", "guesses", "breaking", "making"}
_GAME_KEYS = {"kind", "ruleset", "players", "finished_at"}
_LIFELINE = "LIFELINE"

T = TypeVar("T")



def _unlink(path: Path, failure: str) -> None:
    """Remove ``path`` (already gone is fine); :class:`StoreError` saying ``failure`` and why otherwise."""
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise StoreError(path, f"{failure} ({exc.strerror or exc})") from None

class StoreError(Exception):
    """A data file that cannot be read, parsed, validated or written; ``str`` is "<path>: <reason>"."""

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        self.path = Path(path)
        self.reason = reason
        super().__init__(f"{self.path}: {reason}")


# ---------------------------------------------------------------- parsing and encoding (pure)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed in a data file")


def _bounded_int(text: str) -> int:
    digits = text.lstrip("-")
    if len(digits) > MAX_DIGITS:
        raise ValueError(
            f"the number {text[:12]}… ({len(digits)} digits) is too large for a data file "
            f"(the limit is {MAX_DIGITS} digits; no game comes near it)"
        )
    return int(text)


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(f"the key {key!r} appears twice in one object")
        result[key] = value
    return result


def _depth(value: Any) -> int:
    """Nesting depth of parsed JSON, walked level by level without recursion (stops past the limit)."""
    depth = 0
    level = [value] if isinstance(value, (dict, list)) else []
    while level and depth <= MAX_DEPTH:
        depth += 1
        below: list[Any] = []
        for item in level:
            for child in item.values() if isinstance(item, dict) else item:
                if isinstance(child, (dict, list)):
                    below.append(child)
        level = below
    return depth


def parse_document(raw: bytes, schemas: tuple[int, ...] = (SCHEMA, USERS_SCHEMA)) -> dict[str, Any]:
    """Parse one data file strictly; ``ValueError`` with the reason a person should read.

    Refuses: empty or oversized files, bad UTF-8, invalid JSON, NaN/Infinity, duplicate keys,
    nesting deeper than :data:`MAX_DEPTH`, a top level that is not an object, and a missing or
    unknown schema version (any of ``schemas``; each decoder then checks its own file's version).
    """
    if len(raw) > MAX_FILE_BYTES:
        raise ValueError(f"the file is too large ({len(raw)} bytes; the limit is {MAX_FILE_BYTES})")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"the file is not valid UTF-8 (bad byte at offset {exc.start})") from None
    if not text.strip():
        raise ValueError("the file is empty")
    try:
        data = json.loads(
            text, parse_constant=_reject_constant, object_pairs_hook=_no_duplicate_keys, parse_int=_bounded_int
        )
    except RecursionError:
        raise ValueError(f"the JSON is nested too deeply (more than {MAX_DEPTH} levels)") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"the file is not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})") from None
    if _depth(data) > MAX_DEPTH:
        raise ValueError(f"the JSON is nested too deeply (more than {MAX_DEPTH} levels)")
    if not isinstance(data, dict):
        raise ValueError("the file must hold a JSON object")
    if "schema" not in data:
        raise ValueError("the file has no schema version")
    schema = data["schema"]
    if type(schema) is not int or schema not in schemas:
        raise ValueError(f"unknown schema version {schema!r} (this wom-tui reads version {max(schemas)})")
    return data


_ROW_ENCODER = json.JSONEncoder(allow_nan=False)


def encode_document(body: dict[str, Any], schema: int = SCHEMA) -> bytes:
    """One data file's bytes: pretty-printed JSON with the schema version first.

    A top-level list is written one compact item per line (a user, a record): as readable as a
    fully indented file, and several times faster to write, since only the compact form uses
    the C encoder — it matters with 10,000 users.
    """
    lines = []
    for key, value in {"schema": schema, **body}.items():
        name = json.dumps(key)
        if isinstance(value, list) and value:
            items = ",\n".join("    " + _ROW_ENCODER.encode(item) for item in value)
            lines.append(f"  {name}: [\n{items}\n  ]")
        else:
            text = json.dumps(value, indent=2, allow_nan=False).replace("\n", "\n  ")
            lines.append(f"  {name}: {text}")
    return ("{\n" + ",\n".join(lines) + "\n}\n").encode("utf-8")


def _expect_keys(data: dict[str, Any], required: set[str], optional: frozenset[str] = frozenset()) -> None:
    missing = required - set(data)
    if missing:
        raise ValueError(f"missing field {sorted(missing)[0]!r}")
    extra = set(data) - required - optional
    if extra:
        # Unknown fields would be lost on the next rewrite, so they make the file unreadable instead.
        raise ValueError(f"unexpected field {sorted(extra)[0]!r}")


def _expect_schema(data: dict[str, Any], schema: int = SCHEMA) -> None:
    if data["schema"] != schema:
        raise ValueError(f"unknown schema version {data['schema']!r} (this wom-tui reads version {schema})")


def _check_game_id(value: Any) -> str:
    if not isinstance(value, str) or _GAME_ID.fullmatch(value) is None:
        raise ValueError(f"{value!r} is not a game id")
    return value


def decode_users(data: dict[str, Any]) -> tuple[UserRegistry, list[str]]:
    """users.json's content → the registry and the ids of the games most recently applied."""
    _expect_keys(data, {"schema", "users"}, frozenset({"recent_games"}))
    users = data["users"]
    if not isinstance(users, list):
        raise ValueError("'users' must be a list")
    loaded = []
    for number, item in enumerate(users, 1):
        try:
            loaded.append(User.from_json(item))
        except NameRejected as exc:
            name = item.get("name") if isinstance(item, dict) else None
            raise ValueError(f"user #{number} has an invalid name {name!r}: {exc.reason}") from None
        except (ValueError, TypeError) as exc:
            raise ValueError(f"user #{number}: {exc}") from None
    try:
        registry = UserRegistry(loaded)
    except ValueError as exc:
        raise ValueError(f"{exc} (names must be unique ignoring case)") from None
    recent = data.get("recent_games", [])
    if not isinstance(recent, list):
        raise ValueError("'recent_games' must be a list")
    return registry, [_check_game_id(game_id) for game_id in recent]


def encode_users(registry: UserRegistry, recent_games: Iterable[str] = ()) -> bytes:
    """users.json's bytes for ``registry`` (in registration order), always schema 2."""
    body = {"users": [user.as_json() for user in registry], "recent_games": list(recent_games)}
    return encode_document(body, USERS_SCHEMA)


def decode_links(data: dict[str, Any]) -> list[PendingLink]:
    """links.json's content → the one-time codes waiting to be typed."""
    _expect_keys(data, {"schema", "links"})
    _expect_schema(data)
    links = data["links"]
    if not isinstance(links, list):
        raise ValueError("'links' must be a list")
    try:
        return [PendingLink.from_json(item) for item in links]
    except NameRejected as exc:
        raise ValueError(f"a link code has an invalid name: {exc.reason}") from None
    except (ValueError, TypeError) as exc:
        raise ValueError(f"bad link code: {exc}") from None


def encode_links(links: Iterable[PendingLink]) -> bytes:
    """links.json's bytes."""
    return encode_document({"links": [link.as_json() for link in links]})


def decode_hall(data: dict[str, Any]) -> HallOfFame:
    """halloffame.json's content → the hall of fame."""
    _expect_keys(data, {"schema", "records"})
    _expect_schema(data)
    try:
        return HallOfFame.from_json(data["records"])
    except NameRejected as exc:
        raise ValueError(f"a record has an invalid name: {exc.reason}") from None
    except (ValueError, TypeError) as exc:
        raise ValueError(f"bad hall-of-fame record: {exc}") from None


def encode_hall(hall: HallOfFame) -> bytes:
    """halloffame.json's bytes."""
    return encode_document({"records": hall.as_json()})


_THEME_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
MAX_IDENTITY = 200
"""An identity is "local" or, over SSH, a key fingerprint (SHA256:… is 50 characters)."""


def check_identity(identity: Any) -> str:
    """An identity preferences are kept under: printable ASCII, 1–200 characters; ``ValueError`` if not."""
    if not (isinstance(identity, str) and 0 < len(identity) <= MAX_IDENTITY
            and identity.isascii() and identity.isprintable()):
        raise ValueError(f"{identity!r} is not an identity (1–{MAX_IDENTITY} printable ASCII characters)")
    return identity


def check_theme_name(theme: Any) -> str:
    """A theme name as Textual names them (``wom-colourblind``, ``nord``); ``ValueError`` if not."""
    if not isinstance(theme, str) or _THEME_NAME.fullmatch(theme) is None:
        raise ValueError(f"{theme!r} is not a theme name")
    return theme


def decode_prefs(data: dict[str, Any]) -> dict[str, str]:
    """preferences.json's content → the theme chosen by each identity."""
    _expect_keys(data, {"schema", "themes"})
    themes = data["themes"]
    if not isinstance(themes, dict):
        raise ValueError("'themes' must be an object")
    return {check_identity(identity): check_theme_name(theme) for identity, theme in themes.items()}


def encode_prefs(themes: dict[str, str]) -> bytes:
    """preferences.json's bytes."""
    return encode_document({"themes": dict(sorted(themes.items()))})


def decode_solo(data: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A solo file's content → (identity, the game as :meth:`.solo.SoloGame.as_json` gives it)."""
    from .solo import check_solo_json

    _expect_keys(data, {"schema", "identity", "game"})
    return check_identity(data["identity"]), check_solo_json(data["game"])


def encode_solo(identity: str, game: dict[str, Any]) -> bytes:
    """A solo file's bytes."""
    return encode_document({"identity": identity, "game": game})


def _is_count(value: Any) -> bool:
    return type(value) is int and value >= 0


def check_game_json(data: Any) -> GameRecord:
    """Validate a game record's JSON strictly (types, names, codes, feedback) and build it."""
    if not isinstance(data, dict):
        raise ValueError("a game must be an object")
    _expect_keys(data, _GAME_KEYS)
    if data["kind"] not in GAME_KINDS:
        raise ValueError(f"unknown kind of game {data['kind']!r}")
    ruleset = Ruleset.from_json(data["ruleset"])
    finished = data["finished_at"]
    if not isinstance(finished, str):
        raise ValueError("'finished_at' must be an ISO-8601 string")
    datetime.fromisoformat(finished)
    players = data["players"]
    if not isinstance(players, list) or not 1 <= len(players) <= 4:
        raise ValueError("a game has 1 to 4 players")
    seen: set[str] = set()
    for number, player in enumerate(players, 1):
        if not isinstance(player, dict):
            raise ValueError(f"player #{number} must be an object")
        _expect_keys(player, _PLAYER_KEYS)
        name = player["name"]
        if not isinstance(name, str) or computer_name(name) != name:
            try:
                check_name(name)
            except NameRejected as exc:
                raise ValueError(f"player #{number} has an invalid name {name!r}: {exc.reason}") from None
        if name_key(name) in seen:
            raise ValueError(f"{name!r} plays twice in one game")
        seen.add(name_key(name))
        if type(player["is_user"]) is not bool or type(player["broke"]) is not bool:
            raise ValueError(f"player #{number}: is_user and broke must be true or false")
        if not all(_is_count(player[key]) for key in ("attempts", "breaking", "making")):
            raise ValueError(f"player #{number}: attempts and points must be whole numbers of at least 0")
        guesses = player["guesses"]
        if not isinstance(guesses, list):
            raise ValueError(f"player #{number}: guesses must be a list")
        for row in guesses:
            if not (isinstance(row, list) and len(row) == 3 and isinstance(row[0], str)
                    and _is_count(row[1]) and _is_count(row[2]) and row[1] + row[2] <= ruleset.length):
                raise ValueError(f"player #{number}: a guess must be [code, black, white]")
            code = row[0]
            if code != _LIFELINE and (len(code) != ruleset.length
                                      or any(ch not in ruleset.palette.symbols for ch in code)):
                raise ValueError(f"player #{number}: {code!r} is not a code of this ruleset")
    return GameRecord.from_json(data)


def decode_game(data: dict[str, Any]) -> tuple[str, GameRecord]:
    """A game file's content → its id and record."""
    _expect_keys(data, {"schema", "id", "game"})
    _expect_schema(data)
    return _check_game_id(data["id"]), check_game_json(data["game"])


def encode_game(game_id: str, record: GameRecord) -> bytes:
    """A game file's bytes."""
    return encode_document({"id": game_id, "game": record.as_json()})


def new_game_id() -> str:
    """A unique id that sorts by time to the microsecond: ``20261120T235510123456Z-1a2b3c4d5e6f``."""
    now = datetime.now(timezone.utc)
    return now.strftime("%Y%m%dT%H%M%S%fZ-") + uuid.uuid4().hex[:12]


# ---------------------------------------------------------------- files


def _fsync_folder(folder: Path) -> None:
    if not hasattr(os, "O_DIRECTORY"):  # Windows cannot open a folder; NTFS journals renames itself.
        return
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_beside(path: Path, data: bytes) -> Path:
    """The first half of :func:`atomic_write`: ``data`` in a new temp file in ``path``'s folder, on disk
    (fsynced). ``os.replace`` it over ``path`` to finish, or unlink it. ``OSError`` if it cannot.
    """
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TMP_SUFFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:
        _discard(tmp)
        raise
    return Path(tmp)


def _discard(path: str | Path) -> None:
    """Remove a temp file that will not be renamed into place, if it can be (the error on the way wins)."""
    try:
        os.unlink(path)
    except OSError:
        pass


def atomic_write(path: Path, data: bytes, *, sync_folder: bool = True) -> None:
    """Replace ``path`` with ``data`` all-or-nothing; ``OSError`` if it cannot.

    ``sync_folder=False`` leaves the folder's fsync (which makes the replacement itself survive a power
    cut) to the caller, who may do it after releasing the store's lock: the file's content is on disk
    before the rename either way, so a reader sees the old file or the new one, never a part.
    """
    tmp = write_beside(path, data)
    try:
        os.replace(tmp, path)
    except BaseException:
        _discard(tmp)
        raise
    if sync_folder:
        _fsync_folder(path.parent)


_READ_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)  # a symlink fails to open (ELOOP) instead of being followed
    | getattr(os, "O_NONBLOCK", 0)  # a FIFO opens at once instead of waiting for a writer
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)

_KINDS = (
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISLNK, "a symbolic link"),
)


def _not_regular(mode: int) -> str:
    kind = next((name for test, name in _KINDS if test(mode)), "something else")
    return f"it is {kind}, not a regular file; the data folder only holds regular files"


class LockTimeout(Exception):
    """The data folder's lock was not had within the timeout."""


class FolderLock:
    """The data folder's one lock between processes and threads: ``flock`` on the lock file, the lock
    ``filelock`` takes on it too (either excludes the other). Re-entrant within a thread.

    Waiting costs nothing: a process that finds the lock taken sleeps in the kernel until it is
    released (in a helper thread, so that it can give up after ``timeout``), rather than trying again
    every millisecond; with a couple of dozen processes writing at once, those retries were most of
    what a write cost. The lock file is opened read-only, never followed through a symbolic link and
    without blocking (a FIFO in its place): opening and closing it is no change a change feed is told
    of (inotify reports a file closed after writing, not after reading), so taking the lock wakes no
    process watching the folder.
    """

    _all: weakref.WeakSet[FolderLock] = weakref.WeakSet()

    def __init__(self, path: Path, timeout: float) -> None:
        self.path = path
        self.timeout = timeout
        self._reset()
        FolderLock._all.add(self)

    def _reset(self) -> None:
        self._threads = threading.Lock()
        """One thread of the process at a time holds (or waits in the kernel for) the folder's lock."""
        self._owner: int | None = None
        self._depth = 0
        self._fd: int | None = None

    @classmethod
    def _after_fork(cls) -> None:
        """In a forked child: no thread holds the lock here. The inherited descriptor is closed without
        unlocking (the lock belongs to the parent's open file, which the parent still holds).
        """
        for lock in list(cls._all):
            if lock._fd is not None:
                try:
                    os.close(lock._fd)
                except OSError:
                    pass
            lock._reset()

    def acquire(self) -> None:
        """Take the lock (again, in the thread holding it); :class:`LockTimeout` after ``timeout`` s,
        ``OSError`` if the lock file cannot be opened.
        """
        me = threading.get_ident()
        if self._owner == me:
            self._depth += 1
            return
        deadline = time.monotonic() + self.timeout
        if not self._threads.acquire(timeout=max(self.timeout, 0.0)):
            raise LockTimeout()
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_CREAT | os.O_NONBLOCK | os.O_CLOEXEC
                         | getattr(os, "O_NOFOLLOW", 0), 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                self._wait(fd, deadline)
            except BaseException:
                os.close(fd)
                raise
        except BaseException:
            self._threads.release()
            raise
        self._fd, self._owner, self._depth = fd, me, 1

    @staticmethod
    def _wait(fd: int, deadline: float) -> None:
        """Block until ``fd`` holds the lock, or raise :class:`LockTimeout` at ``deadline`` (``fd``
        then belongs to the helper thread, which unlocks and closes it once it gets the lock).
        """
        done = threading.Event()
        guard = threading.Lock()
        outcome: dict[str, Any] = {}

        def wait() -> None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
            except OSError as exc:
                outcome["error"] = exc
            with guard:
                if outcome.get("abandoned"):
                    os.close(fd)  # (closing the last descriptor also unlocks)
                    return
                done.set()

        threading.Thread(target=wait, name="wom-store-lock", daemon=True).start()
        done.wait(max(0.0, deadline - time.monotonic()))
        with guard:
            if not done.is_set():
                outcome["abandoned"] = True
                raise LockTimeout()
        if "error" in outcome:
            os.close(fd)
            raise outcome["error"]

    @property
    def is_locked(self) -> bool:
        """True while a thread of this process holds the lock."""
        return self._owner is not None

    def release(self) -> None:
        """Give the lock back (the outermost release of the thread holding it unlocks)."""
        if self._owner != threading.get_ident():
            raise RuntimeError("the data folder's lock is released by a thread that does not hold it")
        self._depth -= 1
        if self._depth:
            return
        fd, self._fd, self._owner = self._fd, None, None
        try:
            if fd is not None:
                os.close(fd)  # unlocks (the descriptor is this acquisition's own)
        finally:
            self._threads.release()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=FolderLock._after_fork)


def refuse_unless_regular(path: Path) -> None:
    """:class:`StoreError` if ``path`` exists as anything but a regular file (a symlink is never followed)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise StoreError(path, f"cannot inspect the file ({exc.strerror or exc})") from None
    if not stat.S_ISREG(mode):
        raise StoreError(path, _not_regular(mode))


def _read_bytes(path: Path) -> bytes | None:
    """The file's bytes, or ``None`` if it does not exist.

    Refuses at once, with the reason: a symbolic link (dangling or not), a FIFO, a socket, a
    device or a folder in place of a data file, and a file larger than :data:`MAX_FILE_BYTES`.
    """
    try:
        fd = os.open(path, _READ_FLAGS)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EMLINK):
            raise StoreError(path, _not_regular(stat.S_IFLNK)) from None
        raise StoreError(path, f"cannot read the file ({exc.strerror or exc})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise StoreError(path, _not_regular(info.st_mode))
        if info.st_size > MAX_FILE_BYTES:
            raise StoreError(path, f"the file is too large ({info.st_size} bytes; the limit is {MAX_FILE_BYTES})")
        chunks = []
        size = 0
        while size <= MAX_FILE_BYTES:
            chunk = os.read(fd, min(1 << 20, MAX_FILE_BYTES + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise StoreError(path, f"cannot read the file ({exc.strerror or exc})") from None
    finally:
        os.close(fd)


def _load(path: Path, decode: Callable[[dict[str, Any]], T]) -> T | None:
    """Read, parse and validate one file; ``None`` if it does not exist, :class:`StoreError` if bad."""
    raw = _read_bytes(path)
    if raw is None:
        return None
    try:
        return decode(parse_document(raw))
    except (ValueError, TypeError, KeyError) as exc:
        raise StoreError(path, str(exc)) from None


# ---------------------------------------------------------------- the store


class Store:
    """Owns one data folder: every read and write of users, hall of fame and game records."""

    def __init__(self, data_dir: str | os.PathLike[str], *, lock_timeout: float = LOCK_TIMEOUT) -> None:
        self.data_dir = Path(data_dir)
        self.users_path = self.data_dir / USERS_FILE
        self.hall_path = self.data_dir / HALL_FILE
        self.links_path = self.data_dir / LINKS_FILE
        self.prefs_path = self.data_dir / PREFS_FILE
        self.games_dir = self.data_dir / GAMES_DIR
        self.lock_path = self.data_dir / LOCK_FILE
        self.lock_timeout = lock_timeout
        try:
            self.games_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(self.data_dir, f"cannot create the data folder ({exc.strerror or exc})") from None
        # The lock is opened with O_NOFOLLOW (see FolderLock); this also refuses a planted link at once.
        refuse_unless_regular(self.lock_path)
        self._lock = FolderLock(self.lock_path, lock_timeout)
        self._live: LiveState | None = None
        with self._locked():
            self._remove_stale_temps()
            try:
                self._finish_pending()
            except StoreError:
                pass  # The damaged file stays as it is; check() and the next write report it.

    def __repr__(self) -> str:
        return f"Store({str(self.data_dir)!r})"

    @property
    def live(self) -> LiveState:
        """Tables, live games, presence and the change feed of this folder (:mod:`.live`)."""
        if self._live is None:
            from .live import LiveState

            self._live = LiveState(self)
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
                raise StoreError(self.lock_path, _not_regular(stat.S_IFLNK)) from None
            raise StoreError(self.lock_path, f"cannot lock the data folder ({exc.strerror or exc})") from None
        try:
            yield
        finally:
            self._lock.release()

    def _write(self, path: Path, data: bytes) -> None:
        try:
            atomic_write(path, data)
        except OSError as exc:
            raise StoreError(path, f"cannot write the file ({exc.strerror or exc})") from None

    def _remove_stale_temps(self) -> None:
        """Delete temp files a killed writer left behind (safe: we hold the lock, so nobody is writing)."""
        for folder in (self.data_dir, self.games_dir):
            try:
                with os.scandir(folder) as entries:
                    stale = [Path(e.path) for e in entries if e.name.endswith(TMP_SUFFIX) and e.is_file()]
            except OSError as exc:
                raise StoreError(folder, f"cannot list the folder ({exc.strerror or exc})") from None
            for path in stale:
                _unlink(path, "cannot remove a stale temp file")

    def _game_files(self, *, pending: bool) -> list[tuple[str, Path]]:
        """(id, path) of final or pending game files, oldest first."""
        try:
            names = os.listdir(self.games_dir)
        except FileNotFoundError:
            return []
        except OSError as exc:
            raise StoreError(self.games_dir, f"cannot list the folder ({exc.strerror or exc})") from None
        found = []
        for name in names:
            match = _GAME_FILE.fullmatch(name)
            if match is not None and bool(match["pending"]) == pending:
                found.append((match["id"], self.games_dir / name))
        return sorted(found)

    def _load_users(self) -> tuple[UserRegistry, list[str]]:
        loaded = _load(self.users_path, decode_users)
        return loaded if loaded is not None else (UserRegistry(), [])

    def _load_links(self) -> list[PendingLink]:
        loaded = _load(self.links_path, decode_links)
        return loaded if loaded is not None else []

    def _load_game(self, game_id: str, path: Path) -> GameRecord:
        loaded = _load(path, decode_game)
        if loaded is None and path.name.endswith(PENDING_SUFFIX):
            # Another process filed it between our listing and our read: it is now games/<id>.json.
            path = self.games_dir / f"{game_id}.json"
            loaded = _load(path, decode_game)
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
            _fsync_folder(self.games_dir)
        except OSError as exc:
            raise StoreError(pending, f"cannot file the game record ({exc.strerror or exc})") from None

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

        That is users.json, links.json, halloffame.json, preferences.json and any game left pending
        (its points are not applied yet, so it must name only registered users). Finished games are
        read, and checked, only when asked for (:meth:`games`): the check at every start, and every
        SSH session, never grows with the number of games played.
        """
        registry, recent = self._load_users()
        self._load_links()
        self.hall_of_fame()
        _load(self.prefs_path, decode_prefs)
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
        """Users by score, highest first, then name."""
        return self.users().scoreboard()

    def user(self, name: str) -> User | None:
        """The user with this name in any case, or ``None``."""
        return self.users().get(name)

    def user_for_key(self, fingerprint: str) -> User | None:
        """The user holding the SSH key with this fingerprint, or ``None``."""
        return self.users().holder_of(fingerprint)

    def hall_of_fame(self) -> HallOfFame:
        """The hall of fame (empty when the file does not exist yet)."""
        hall = _load(self.hall_path, decode_hall)
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
        game_id = new_game_id() if game_id is None else _check_game_id(game_id)
        data = encode_game(game_id, record)
        with self._locked():
            self._finish_pending()
            if (self.games_dir / f"{game_id}.json").exists():
                return game_id
            if record.kind != "wom":
                self._write(self.games_dir / f"{game_id}.json", data)
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
                pass  # The points are saved; the next write or start renames the pending file.
        return game_id

    def _withdraw(self, pending: Path, failure: StoreError) -> None:
        """Remove the pending file of a game whose points could not be saved, so that the
        "not saved" the player is told stays true (it must never be applied later).
        """
        try:
            pending.unlink()
            _fsync_folder(self.games_dir)
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
        themes = _load(self.prefs_path, decode_prefs)
        return (themes or {}).get(identity)

    def set_theme(self, identity: str, theme: str) -> None:
        """Remember ``theme`` for ``identity`` (one atomic write under the lock)."""
        check_identity(identity)
        check_theme_name(theme)
        with self._locked():
            themes = _load(self.prefs_path, decode_prefs) or {}
            if themes.get(identity) == theme:
                return
            themes[identity] = theme
            self._write(self.prefs_path, encode_prefs(themes))

    # ---- a solo game in progress, per identity (issue 11: it survives a crash)

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
            found = _load(path, decode_solo)
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
        from .solo import check_solo_json

        path = self._solo_path(identity)
        data = encode_solo(identity, check_solo_json(game))
        try:
            path.parent.mkdir(exist_ok=True)
        except OSError as exc:
            raise StoreError(path.parent, f"cannot create the folder ({exc.strerror or exc})") from None
        with self._locked():
            self._write(path, data)

    def drop_solo(self, identity: str) -> None:
        """Forget ``identity``'s solo game in progress (it ended, or was abandoned on purpose)."""
        path = self._solo_path(identity)
        with self._locked():
            _unlink(path, "cannot remove the file")

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


    # ---- statistics, replays and the daily code (issue 13)

    @property
    def index_path(self) -> Path:
        """The summaries cache (``games_index.json``)."""
        return self.data_dir / INDEX_FILE

    def game(self, game_id: str) -> GameRecord:
        """One finished game, read and validated in full; :class:`StoreError` if missing or damaged."""
        if not isinstance(game_id, str) or _GAME_ID.fullmatch(game_id) is None:
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
                game_id_at = _GAME_ID.fullmatch
                for entry in entries:
                    name = entry.name
                    # "<id>.json" only (a pending "<id>.pending.json" is not a game id followed by .json).
                    if name.endswith(".json") and game_id_at(name, 0, len(name) - 5) is not None:
                        info = entry.stat()
                        found.append((name[:-5], name, info.st_size, info.st_mtime_ns))
        except FileNotFoundError:
            found = []
        except OSError as exc:
            raise StoreError(self.games_dir, f"cannot list the folder ({exc.strerror or exc})") from None
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
            raw = _read_bytes(self.index_path)
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
        secret = _load(self.data_dir / DAILY_SECRET_FILE, decode_secret)
        if secret is not None:
            return secret
        with self._locked():
            path = self.data_dir / DAILY_SECRET_FILE
            secret = _load(path, decode_secret)
            if secret is None:
                # Not from the seeded RNG on purpose: with a known --seed the codes could be computed.
                import secrets

                secret = secrets.token_bytes(SECRET_BYTES)
                self._write(path, encode_secret(secret))
        return secret

    def daily_attempts(self) -> list[DailyAttempt]:
        """Every daily attempt on file (empty when there is no ``daily.json`` yet)."""
        attempts = _load(self.data_dir / DAILY_FILE, decode_attempts)
        return attempts if attempts is not None else []

    def start_daily(self, attempt: DailyAttempt) -> None:
        """Record that ``attempt.player`` started a daily puzzle (at their first guess).

        :class:`~wom_tui.domain.daily.DailyRefused` (and nothing written) if they already have
        an attempt at that puzzle on that day, even one started a moment ago in another session.
        """
        if not isinstance(attempt, DailyAttempt):
            raise TypeError("start_daily needs a DailyAttempt")
        with self._locked():
            attempts = self.daily_attempts()
            check_can_start(attempts, attempt.day, attempt.puzzle, attempt.player)
            self._write(self.data_dir / DAILY_FILE, encode_attempts([*attempts, attempt]))

    def finish_daily(
        self, day: str, puzzle: str, player: str, *, finished_at: str, guesses: int, broke: bool, game_id: str | None
    ) -> None:
        """Record how ``player``'s started attempt ended; ``DailyRefused`` if none is under way."""
        with self._locked():
            attempts = _finished_attempts(
                self.daily_attempts(), day, puzzle, player,
                finished_at=finished_at, guesses=guesses, broke=broke, game_id=game_id,
            )
            self._write(self.data_dir / DAILY_FILE, encode_attempts(attempts))


# ---------------------------------------------------------------- issue 13's files (pure)


def parse_index(raw: bytes) -> dict[str, tuple[int, int, GameSummary]]:
    """games_index.json's bytes → its entries; ``ValueError`` (or ``RecursionError``) if damaged.

    Only a cache, read whole each time statistics open in a new session: parsed without
    :func:`parse_document`'s per-number hook (ten times slower on 10,000 games). Every value is
    still checked by :func:`decode_index`, and a damaged file is only rebuilt from the game files.
    """
    if len(raw) > MAX_FILE_BYTES:
        raise ValueError("the index is too large")
    data = json.loads(raw, parse_constant=_reject_constant)
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise ValueError("the index is not a version-1 object")
    return decode_index(data)


def decode_index(data: dict[str, Any]) -> dict[str, tuple[int, int, GameSummary]]:
    """games_index.json's content → {game id: (size, mtime_ns, summary)}.

    Compact on purpose (it is read whole each time statistics open): ``rulesets`` lists each
    ruleset once; each game is one flat row ``[game id, size, mtime_ns, kind, ruleset number,
    finished_at]`` followed by ``name, is_user, broke, attempts, points`` for each player.
    ``mtime_ns`` is written as a string of digits: it has 19 digits, more than a data file's
    numbers may have.
    """
    _expect_keys(data, {"schema", "rulesets", "games"})
    raw_rulesets, games = data["rulesets"], data["games"]
    if not isinstance(raw_rulesets, list) or not isinstance(games, list):
        raise ValueError("'rulesets' and 'games' must be lists")
    rulesets = [Ruleset.from_json(item) for item in raw_rulesets]
    kinds = frozenset(GAME_KINDS)
    result = {}
    for row in games:
        if type(row) is not list or not 11 <= len(row) <= 26 or (len(row) - 6) % 5:
            raise ValueError("an index row must be [game id, size, mtime_ns, kind, ruleset, finished_at, players…]")
        game_id, size, mtime, kind, number, finished = row[:6]
        # The id is only looked up among the files found in games/, so it needs no pattern check.
        if (type(game_id) is not str or type(size) is not int or type(mtime) is not str or not mtime.isdigit()
                or kind not in kinds or type(number) is not int or not 0 <= number < len(rulesets)
                or type(finished) is not str):
            raise ValueError(f"bad index row for {game_id!r}")
        players = []
        for i in range(6, len(row), 5):
            player, is_user, broke, attempts, points = row[i:i + 5]
            if (type(player) is not str or type(is_user) is not bool or type(broke) is not bool
                    or type(attempts) is not int or type(points) is not int or attempts < 0 or points < 0):
                raise ValueError(f"bad player in the index row for {game_id!r}")
            players.append(PlayerLine(player, is_user, broke, attempts, points))
        result[game_id] = (size, int(mtime), GameSummary(game_id, kind, rulesets[number], finished, tuple(players)))
    return result


def encode_index(entries: dict[str, tuple[int, int, GameSummary]]) -> bytes:
    """games_index.json's bytes (see :func:`decode_index`)."""
    numbers: dict[Ruleset, int] = {}
    rows = []
    for game_id, (size, mtime, summary) in entries.items():
        number = numbers.setdefault(summary.ruleset, len(numbers))
        row: list[Any] = [game_id, size, str(mtime), summary.kind, number, summary.finished_at]
        for line in summary.players:
            row.extend(line)
        rows.append(row)
    return encode_document({"rulesets": [ruleset.as_json() for ruleset in numbers], "games": rows})


def decode_secret(data: dict[str, Any]) -> bytes:
    """daily_secret.json's content → the secret's bytes."""
    _expect_keys(data, {"schema", "secret"})
    secret = data["secret"]
    if not isinstance(secret, str) or re.fullmatch(r"[0-9a-f]{32,128}", secret) is None:
        raise ValueError("'secret' must be 32 to 128 lowercase hex digits")
    return bytes.fromhex(secret)


def encode_secret(secret: bytes) -> bytes:
    """daily_secret.json's bytes."""
    return encode_document({"secret": secret.hex()})


def decode_attempts(data: dict[str, Any]) -> list[DailyAttempt]:
    """daily.json's content → every attempt."""
    _expect_keys(data, {"schema", "attempts"})
    attempts = data["attempts"]
    if not isinstance(attempts, list):
        raise ValueError("'attempts' must be a list")
    result = []
    for number, item in enumerate(attempts, 1):
        try:
            result.append(DailyAttempt.from_json(item))
        except (ValueError, TypeError) as exc:
            raise ValueError(f"attempt #{number}: {exc}") from None
        if isinstance(item, dict):
            try:
                check_name(item["player"])
            except NameRejected as exc:
                raise ValueError(f"attempt #{number} has an invalid name: {exc.reason}") from None
    seen = set()
    for attempt in result:
        key = (attempt.day, attempt.puzzle, name_key(attempt.player))
        if key in seen:
            raise ValueError(f"{attempt.player!r} has two attempts at the {attempt.puzzle} code of {attempt.day}")
        seen.add(key)
    return result


def encode_attempts(attempts: Iterable[DailyAttempt]) -> bytes:
    """daily.json's bytes."""
    return encode_document({"attempts": [attempt.as_json() for attempt in attempts]})


__all__ = ["SCHEMA", "USERS_SCHEMA", "KeyRejected", "Store", "StoreError", "atomic_write", "parse_document"]
