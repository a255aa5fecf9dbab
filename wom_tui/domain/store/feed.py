"""One change feed per process and store, however many screens and sessions subscribe.

Each backend has its source of changes (the data folder's :class:`.folder.feed.FolderFeed`, the
database's :class:`.postgres.live.PostgresFeed`); :class:`ProcessFeed` hands callers a feed that
shares one source per event loop (:class:`SharedFeed`).
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import AsyncIterator, Callable, Hashable

from .api import ChangeFeed, LiveChange


class _Subscriber:
    """One subscriber of a :class:`SharedFeed`: the changes it has not taken yet, merged into one."""

    def __init__(self) -> None:
        self.wake = asyncio.Event()
        self.tables: set[str] = set()
        self.versions: dict[str, int] = {}
        """The newest version named of each changed table (none named: a table that must be read)."""
        self.presence = self.scores = self.moderation = self.queue = self.pending = False

    def add(self, change: LiveChange) -> None:
        named = dict(change.versions)
        for table_id in change.tables:
            if table_id not in named:
                self.versions[table_id] = -1
            elif table_id not in self.tables or self.versions.get(table_id, -1) >= 0:
                self.versions[table_id] = max(named[table_id], self.versions.get(table_id, -1))
        self.tables |= change.tables
        self.presence = self.presence or change.presence
        self.scores = self.scores or change.scores
        self.moderation = self.moderation or change.moderation
        self.queue = self.queue or change.queue
        self.pending = True
        self.wake.set()

    def take(self) -> LiveChange | None:
        if not self.pending:
            return None
        change = LiveChange(frozenset(self.tables), self.presence, self.scores, moderation=self.moderation,
                            queue=self.queue, versions=tuple(sorted(
                                (table_id, version) for table_id, version in self.versions.items() if version >= 0)))
        self.versions = {}
        self.tables, self.presence, self.scores, self.moderation, self.queue, self.pending = set(), False, False, False, False, False
        return change


class SharedFeed:
    """One source feed (one watcher, one LISTEN connection) per event loop, however many screens and
    sessions in the process subscribe: every subscriber gets every change, merged while it is busy.

    The source starts with the first subscriber and stops :data:`LINGER` seconds after the last one
    left (a screen replaced by another re-subscribes at once, without a new watcher). It follows the
    :class:`ChangeFeed` contract: ``ready`` is set once the source reports every change.
    """

    LINGER = 5.0

    def __init__(self, make_source: Callable[[], ChangeFeed]) -> None:
        self._make_source = make_source
        self._subscribers: set[_Subscriber] = set()
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self._stop = asyncio.Event()
        self._linger: asyncio.TimerHandle | None = None
        self._error: BaseException | None = None

    def _start(self) -> None:
        if self._linger is not None:
            self._linger.cancel()
            self._linger = None
        if self._task is None or self._task.done() or self._stop.is_set():
            self._ready, self._stop, self._error = asyncio.Event(), asyncio.Event(), None
            self._task = asyncio.ensure_future(self._run(self._ready, self._stop))

    async def _run(self, ready: asyncio.Event, stop: asyncio.Event) -> None:
        try:
            async for change in self._make_source().changes(stop, ready):
                for subscriber in tuple(self._subscribers):
                    subscriber.add(change)
        except Exception as exc:  # noqa: BLE001 - handed to every subscriber, which raises it
            self._error = exc
        finally:
            for subscriber in tuple(self._subscribers):
                subscriber.wake.set()

    def _idle(self) -> None:
        self._linger = None
        if not self._subscribers:
            self._stop.set()

    async def changes(self, stop: asyncio.Event | None = None, ready: asyncio.Event | None = None) -> AsyncIterator[LiveChange]:
        """Changes from now on (see :class:`ChangeFeed`)."""
        stop = stop or asyncio.Event()
        ready = ready or asyncio.Event()
        me = _Subscriber()
        self._subscribers.add(me)
        self._start()
        task, shared_ready = self._task, self._ready

        async def relay_stop() -> None:
            await stop.wait()
            me.wake.set()

        async def relay_ready() -> None:
            await shared_ready.wait()
            ready.set()

        helpers = [asyncio.ensure_future(relay_stop())]
        if shared_ready.is_set():
            ready.set()
        else:
            helpers.append(asyncio.ensure_future(relay_ready()))
        try:
            while not stop.is_set():
                await me.wake.wait()
                me.wake.clear()
                if stop.is_set():
                    return
                change = me.take()
                if change is not None:
                    yield change
                elif task is not None and task.done():
                    if self._error is not None:
                        raise self._error
                    return
        finally:
            for helper in helpers:
                helper.cancel()
            self._subscribers.discard(me)
            if not self._subscribers and self._task is task and self._linger is None:
                self._linger = asyncio.get_running_loop().call_later(self.LINGER, self._idle)


_SHARED: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[Hashable, SharedFeed]] = weakref.WeakKeyDictionary()


def shared_feed(key: Hashable, make_source: Callable[[], ChangeFeed]) -> SharedFeed:
    """The running event loop's :class:`SharedFeed` for ``key`` (made on first use)."""
    feeds = _SHARED.setdefault(asyncio.get_running_loop(), {})
    found = feeds.get(key)
    if found is None:
        found = feeds[key] = SharedFeed(make_source)
    return found


class ProcessFeed:
    """A store's feed as handed to callers: each iteration subscribes to the loop's one shared source."""

    def __init__(self, key: Hashable, make_source: Callable[[], ChangeFeed]) -> None:
        self.key = key
        self.make_source = make_source

    def changes(self, stop: asyncio.Event | None = None, ready: asyncio.Event | None = None) -> AsyncIterator[LiveChange]:
        """Changes from now on (see :class:`ChangeFeed`), through the shared source."""
        return shared_feed(self.key, self.make_source).changes(stop, ready)


__all__ = ["ProcessFeed", "SharedFeed", "shared_feed"]
