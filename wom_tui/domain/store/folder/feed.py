"""The data folder's change feed: inotify on Linux (its descriptor in the event loop: waiting costs
nothing), ``watchfiles`` elsewhere, else slow polling.

It watches the data folder, ``tables/`` and ``games/``, not ``presence/``, whose heartbeats would
wake every process: ``presence.changed`` says a session came or went (see :mod:`.live`).
"""

from __future__ import annotations

import asyncio
import os
import sys
import uuid
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

from ..api import LiveChange
from .files import MODERATION_FILE, PENDING_SUFFIX, PRESENCE_DIR, PRESENCE_MARK, PROBE_PREFIX, SWEPT_PREFIX, TABLES_DIR, TMP_SUFFIX

POLL_INTERVAL = 1.0
"""Seconds between two looks at the folder when file-system notifications are not available."""


def _classify(root: Path, paths: Iterable[tuple[str, str]]) -> LiveChange | None:
    """(kind of change, path) pairs from the watcher → one :class:`LiveChange`, or None if nothing counts."""
    tables: set[str] = set()
    presence = scores = moderation = queue = False
    for kind, raw in paths:
        path = Path(raw)
        name = path.name
        if name.endswith(TMP_SUFFIX) or name.startswith((".lock", PROBE_PREFIX, SWEPT_PREFIX)):
            continue
        try:
            parts = path.relative_to(root).parts
        except ValueError:
            continue
        if len(parts) == 2 and parts[0] == TABLES_DIR and name.endswith(".json"):
            tables.add(name[: -len(".json")])
        elif parts == (PRESENCE_MARK,) or (len(parts) >= 2 and parts[0] == PRESENCE_DIR and kind != "modified"):
            presence = True  # (a heartbeat only touches a record: never a change)
        elif parts in (("queue.json",), ("arena.json",)):
            queue = True  # the quick-match queue, or the arena
        elif parts == ("users.json",) or (parts[0] == "games" and not name.endswith(PENDING_SUFFIX)):
            scores = True
        elif parts == (MODERATION_FILE,):
            moderation = True
    if not (tables or presence or scores or moderation or queue):
        return None
    return LiveChange(frozenset(tables), presence, scores, moderation=moderation, queue=queue)


class FolderFeed:
    """The change feed of a JSON data folder: inotify on Linux, ``watchfiles`` elsewhere, else polling.

    ``watcher`` chooses: ``"auto"`` (the first that works of inotify, ``watchfiles`` and polling),
    or one of ``"inotify"``, ``"watchfiles"``, ``"polling"`` (tests; each still falls back to polling
    when it cannot watch, e.g. past the system's inotify limits).
    """

    WATCHERS = ("auto", "inotify", "watchfiles", "polling")

    def __init__(self, data_dir: str | os.PathLike[str], *, polling: bool = False, watcher: str = "auto",
                 poll_interval: float = POLL_INTERVAL, step_ms: int = 10, debounce_ms: int = 30) -> None:
        """``step_ms`` and ``debounce_ms`` are ``watchfiles``' (not used by inotify, which wakes only
        when something changed and hands over at once what has queued up meanwhile): a batch is
        handed over after ``step_ms`` without another change (the watcher also wakes this often when
        idle), at the latest after ``debounce_ms`` while changes keep coming.
        """
        if watcher not in self.WATCHERS:
            raise ValueError(f"unknown watcher {watcher!r}")
        self.data_dir = Path(data_dir)
        self.watcher = "polling" if polling else watcher
        self.polling = self.watcher == "polling"
        self.poll_interval = poll_interval
        self.step_ms = step_ms
        self.debounce_ms = debounce_ms
        self.used: str | None = None
        """The watcher the last iteration used (tests, benches)."""

    async def changes(self, stop: asyncio.Event | None = None, ready: asyncio.Event | None = None) -> AsyncIterator[LiveChange]:
        """Changes from now on (see :class:`.api.ChangeFeed`)."""
        stop = stop or asyncio.Event()
        ready = ready or asyncio.Event()
        if self.watcher in ("auto", "inotify") and sys.platform == "linux":
            inotify = self._inotify(stop, ready)
            if inotify is not None:
                self.used = "inotify"
                async for change in inotify:
                    yield change
                return
        if self.watcher in ("auto", "watchfiles"):
            try:
                import watchfiles
            except ImportError:  # pragma: no cover - a dependency, but the feed must not need it
                pass
            else:
                self.used = "watchfiles"
                probe = self.data_dir / f"{PROBE_PREFIX}{uuid.uuid4().hex}"
                prober = asyncio.ensure_future(self._probe(probe, ready, stop))
                try:
                    async for batch in watchfiles.awatch(
                        *self._watched(), stop_event=stop, debounce=self.debounce_ms, step=self.step_ms,
                        recursive=False,
                    ):
                        if not ready.is_set() and any(Path(p) == probe for _, p in batch):
                            ready.set()
                        found = _classify(self.data_dir, ((c.name, p) for c, p in batch))
                        if found is not None:
                            yield found
                    return
                except (OSError, RuntimeError):
                    pass  # no notifications here (inotify limit, odd file system): poll instead
                finally:
                    prober.cancel()
                    probe.unlink(missing_ok=True)
        self.used = "polling"
        async for change in self._poll(stop, ready):
            yield change

    def _inotify(self, stop: asyncio.Event, ready: asyncio.Event) -> AsyncIterator[LiveChange] | None:
        """Watch with inotify (``inotify_simple``), its descriptor in the event loop: an idle process
        does nothing at all. None when it cannot (no library, past the inotify limits).

        The watches are in place once ``inotify_add_watch`` returns, so ``ready`` is set then, with no
        probe. Whatever events have queued up when the loop gets to the descriptor are read at once and
        handed over as one change; while the subscriber is busy, further events merge into the next.
        """
        try:
            import inotify_simple
        except ImportError:
            return None
        flags = inotify_simple.flags
        mask = (flags.CREATE | flags.DELETE | flags.MOVED_FROM | flags.MOVED_TO | flags.CLOSE_WRITE
                | flags.ATTRIB | flags.ONLYDIR)
        try:
            notify = inotify_simple.INotify(nonblocking=True)
        except OSError:
            return None
        folders: dict[int, Path] = {}
        try:
            for folder in self._watched():
                folders[notify.add_watch(folder, mask)] = folder
        except OSError:
            notify.close()
            return None
        return self._inotify_changes(notify, folders, mask, stop, ready)

    async def _inotify_changes(self, notify: Any, folders: dict[int, Path], mask: int,
                               stop: asyncio.Event, ready: asyncio.Event) -> AsyncIterator[LiveChange]:
        import inotify_simple

        flags = inotify_simple.flags
        loop = asyncio.get_running_loop()
        wake = asyncio.Event()
        pending: list[tuple[str, str]] = []
        overflow = False

        def readable() -> None:
            nonlocal overflow
            try:
                events = notify.read(timeout=0)
            except OSError:
                return
            for event in events:
                if event.mask & flags.Q_OVERFLOW:
                    overflow = True
                    continue
                folder = folders.get(event.wd)
                if folder is None or not event.name or event.name.endswith(TMP_SUFFIX) \
                        or event.name.startswith((".lock", PROBE_PREFIX)):
                    continue  # (the lock and temporary files change at every write: wake nobody for them)
                path = folder / event.name
                if event.mask & flags.ISDIR:
                    if folder == self.data_dir and event.name in (TABLES_DIR, "games") \
                            and event.mask & (flags.CREATE | flags.MOVED_TO):
                        self._watch_new_folder(notify, folders, mask, path, pending)
                    continue
                if event.mask & (flags.DELETE | flags.MOVED_FROM):
                    kind = "deleted"
                elif event.mask & (flags.CREATE | flags.MOVED_TO):
                    kind = "added"
                else:
                    kind = "modified"
                pending.append((kind, str(path)))
            if pending or overflow:
                wake.set()

        async def relay_stop() -> None:
            await stop.wait()
            wake.set()

        relay = asyncio.ensure_future(relay_stop())
        loop.add_reader(notify.fileno(), readable)
        try:
            ready.set()
            while not stop.is_set():
                await wake.wait()
                wake.clear()
                if stop.is_set():
                    return
                batch, pending[:] = list(pending), []
                if overflow:  # the kernel dropped events: everything may have changed
                    overflow = False
                    batch += [("added", str(path)) for path in self._everything()]
                    found = _classify(self.data_dir, batch)
                    change: LiveChange | None = LiveChange(found.tables if found else frozenset(), True, True, moderation=True, queue=True)
                else:
                    change = _classify(self.data_dir, batch)
                if change is not None:
                    yield change
        finally:
            loop.remove_reader(notify.fileno())
            relay.cancel()
            notify.close()

    def _watch_new_folder(self, notify: Any, folders: dict[int, Path], mask: int, folder: Path,
                          pending: list[tuple[str, str]]) -> None:
        """``tables/`` or ``games/`` made after the feed started: watch it too, and count what is
        already in it (written before the watch was in place) as new.
        """
        try:
            folders[notify.add_watch(folder, mask)] = folder
            pending.extend(("added", entry.path) for entry in os.scandir(folder))
        except OSError:
            pass

    def _everything(self) -> list[Path]:
        """Every file in the watched folders (after an inotify queue overflow)."""
        found = []
        for folder in self._watched():
            try:
                found += [Path(entry.path) for entry in os.scandir(folder)]
            except OSError:
                continue
        return found

    def _watched(self) -> list[Path]:
        """The folders watched, each without its subfolders: the data folder (``users.json``, the
        presence mark), ``tables/`` and ``games/``. Not ``presence/``: every session touches its
        record every couple of seconds, which would wake every process for nothing (with 24 sessions,
        a dozen times a second each); joining and parting change :data:`PRESENCE_MARK` instead.
        """
        return [self.data_dir] + [folder for folder in (self.data_dir / TABLES_DIR, self.data_dir / "games")
                                  if folder.is_dir()]

    @staticmethod
    async def _probe(probe: Path, ready: asyncio.Event, stop: asyncio.Event) -> None:
        """Touch a probe file until the watcher reports it: from then on, it sees every change."""
        delay = 0.01
        while not ready.is_set() and not stop.is_set():
            probe.touch()
            try:
                await asyncio.wait_for(ready.wait(), delay)
            except asyncio.TimeoutError:
                delay = min(delay * 2, 1.0)
        probe.unlink(missing_ok=True)

    def _snapshot(self) -> dict[str, tuple[int, int]]:
        seen: dict[str, tuple[int, int]] = {}
        for folder in (self.data_dir, self.data_dir / TABLES_DIR, self.data_dir / PRESENCE_DIR, self.data_dir / "games"):
            try:
                entries = list(os.scandir(folder))
            except OSError:
                continue
            for entry in entries:
                try:
                    stat = entry.stat()
                except OSError:
                    continue
                if entry.is_file():
                    # A heartbeat changes only a presence file's time: polling ignores it too.
                    stamp = 0 if folder.name == PRESENCE_DIR else stat.st_mtime_ns
                    seen[entry.path] = (stamp, stat.st_size)
        return seen

    async def _poll(self, stop: asyncio.Event, ready: asyncio.Event) -> AsyncIterator[LiveChange]:
        before = self._snapshot()
        ready.set()
        while not stop.is_set():
            try:
                await asyncio.wait_for(stop.wait(), self.poll_interval)
            except asyncio.TimeoutError:
                pass
            if stop.is_set():
                return
            after = self._snapshot()
            changed = [("added", p) for p in after.keys() - before.keys()]
            changed += [("deleted", p) for p in before.keys() - after.keys()]
            changed += [("modified", p) for p in after.keys() & before.keys() if after[p] != before[p]]
            before = after
            change = _classify(self.data_dir, changed)
            if change is not None:
                yield change


__all__ = ["POLL_INTERVAL", "FolderFeed"]
