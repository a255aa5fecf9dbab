"""The data folder's files: their names, atomic writes, strict reads and the one lock between processes.

See :mod:`.store` for the folder's layout and the promises these keep (every write atomic, every
read-modify-write under the lock, a damaged file never overwritten).
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
import tempfile
import threading
import time
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from ..api import StoreError
from ..documents import MAX_FILE_BYTES, parse_document

USERS_FILE = "users.json"
LINKS_FILE = "links.json"
BROWSER_FILE = "browser.json"
MODERATION_FILE = "moderation.json"
HALL_FILE = "halloffame.json"
PREFS_FILE = "preferences.json"
SOLO_DIR = "solo"
GAMES_DIR = "games"
LOCK_FILE = ".lock"
INDEX_FILE = "games_index.json"
DAILY_SECRET_FILE = "daily_secret.json"
DAILY_FILE = "daily.json"
DAILY_DIR = "daily"
RATINGS_FILE = "ratings.json"
RUSH_FILE = "rush.json"
ARENA_FILE = "arena.json"
ARENAS_DIR = "arenas"
TMP_SUFFIX = ".wom-tmp"
PENDING_SUFFIX = ".pending.json"

TABLES_DIR = "tables"
DAMAGED_DIR = "damaged"
PRESENCE_DIR = "presence"
PRESENCE_MARK = "presence.changed"
"""A file beside the folders whose change tells the feed that a session came or went (see :class:`.feed.FolderFeed`)."""
PROBE_PREFIX = ".feed-probe-"
SWEPT_PREFIX = ".swept-"
"""Files in ``presence/`` that say a process claimed a beat's sweep (see :meth:`.live.FolderLive.claim_sweep`)."""

T = TypeVar("T")


def unlink(path: Path, failure: str) -> None:
    """Remove ``path`` (already gone is fine); :class:`StoreError` saying ``failure`` and why otherwise."""
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise StoreError.from_os(path, failure, exc) from None


def fsync_folder(folder: Path) -> None:
    """Put ``folder``'s entries (a rename, a new file) on disk; ``OSError`` if it cannot."""
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
        fsync_folder(path.parent)


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


def not_regular(mode: int) -> str:
    """The reason a file of this mode is refused as a data file."""
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
        raise StoreError.from_os(path, "cannot inspect the file", exc) from None
    if not stat.S_ISREG(mode):
        raise StoreError(path, not_regular(mode))


def read_bytes(path: Path, limit: int = MAX_FILE_BYTES) -> bytes | None:
    """The file's bytes, or ``None`` if it does not exist.

    Refuses at once, with the reason: a symbolic link (dangling or not), a FIFO, a socket, a
    device or a folder in place of a data file, and a file larger than ``limit`` (:data:`MAX_FILE_BYTES`).
    """
    try:
        fd = os.open(path, _READ_FLAGS)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EMLINK):
            raise StoreError(path, not_regular(stat.S_IFLNK)) from None
        raise StoreError.from_os(path, "cannot read the file", exc) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise StoreError(path, not_regular(info.st_mode))
        if info.st_size > limit:
            raise StoreError(path, f"the file is too large ({info.st_size} bytes; the limit is {limit})")
        chunks = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise StoreError.from_os(path, "cannot read the file", exc) from None
    finally:
        os.close(fd)


def read_document(path: Path, decode: Callable[[dict[str, Any]], T]) -> T | None:
    """Read, parse and validate one file; ``None`` if it does not exist, :class:`StoreError` if bad."""
    raw = read_bytes(path)
    if raw is None:
        return None
    try:
        return decode(parse_document(raw))
    except (ValueError, TypeError, KeyError) as exc:
        raise StoreError(path, str(exc)) from None



def flush_file_system(folder: Path) -> None:
    """Put everything written under ``folder`` on its disk: ``syncfs(2)`` of the folder's file system
    on Linux (not of every file system, as ``sync`` would: other programs' unwritten data is none of
    the copy's business, and waiting for it took seconds on a busy machine), else ``sync``.
    """
    import ctypes

    try:
        syncfs = ctypes.CDLL(None, use_errno=True).syncfs
    except (OSError, AttributeError):  # not Linux (or no libc to ask): every file system, then
        if hasattr(os, "sync"):
            os.sync()
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        if syncfs(fd) != 0:
            code = ctypes.get_errno()
            raise OSError(code, os.strerror(code))
    finally:
        os.close(fd)
