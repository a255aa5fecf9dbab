"""The server's side of moderation (docs/serve.md, *Moderating the arcade*): who is turned away at sign-in,
and ending the open sessions a new ban or retirement reaches.

The server keeps the store's bans and retired names in memory (:class:`~wom_tui.domain.moderation.Verdicts`),
so a client is judged at sign-in without waiting on the store. They are read again whenever the store's change
feed reports a moderation change or a change of users (a key bound to a banned name), from any process or
server sharing the store (LISTEN/NOTIFY on PostgreSQL, the folder's watcher on a data folder), and every
:data:`REREAD` seconds besides (a feed that lost its connection); the open sessions are judged again every
:data:`RECHECK` seconds (a ban that starts or ends with the clock).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import threading
from collections.abc import Callable, Iterable
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Protocol

from ..domain.moderation import Verdicts
from ..domain.users import name_key
from .events import Events, Who
from .logsafe import clean

if TYPE_CHECKING:
    from ..domain.store.api import Store
    from ..settings import Settings

log = logging.getLogger("wom_tui.serve")

RECHECK = 2.0
"""Seconds between two judgements of the open sessions when the change feed says nothing."""
REREAD = 30.0
"""Seconds between two readings of the bans when the change feed says nothing (a feed that lost its connection)."""
FEW_NAMES = 8
"""Up to this many banned or retired names, their keys are looked up one by one; beyond, all users are read once."""


BROADCAST_SIGNAL = signal.SIGUSR1
"""What the server sends a game when the operator's broadcast changed: read it again from the store. A game
ignores it until it can (:mod:`wom_tui.serve.forkserver`), then shows the line (docs/serve.md)."""


class Judged(Protocol):
    """What is judged of a session: its verified key, its address and its presence id (a kick names it);
    :meth:`end` ends it with a line; ``pid`` is its game's process (None before it runs).
    """

    fingerprint: str | None
    host: str
    presence_id: str
    pid: int | None

    def end(self, reason: str, farewell: str | None = None) -> None:
        """End the session, telling the client ``farewell``."""
        ...


def moderation_fields(**fields: object) -> str:
    """A moderation event's fields for the text log, ``key=value`` each, cleaned (the JSON log has them as fields)."""
    return " ".join(f"{key}={clean(str(value), 200)}" for key, value in fields.items() if value is not None)


def read_verdicts(store: Store) -> Verdicts:
    """The bans, retired names, kicks and broadcast kept in ``store``, with the keys of the names concerned."""
    bans, retired = tuple(store.bans()), tuple(store.retired())
    kicks, broadcast = tuple(store.kicks()), store.broadcast()
    verdicts = Verdicts(bans, retired)
    names_of_keys: dict[str, str] = {}
    names = verdicts.names_concerned()
    users = [store.user(name) for name in names] if len(names) <= FEW_NAMES else list(store.users())
    concerned = {name_key(name) for name in names}
    for user in users:
        if user is not None and name_key(user.name) in concerned:
            names_of_keys.update((key, user.name) for key in user.keys)
    return Verdicts(bans, retired, names_of_keys, kicks, broadcast)


class ModerationWatch:
    """Keeps the server's :class:`Verdicts` current and ends the sessions they turn away."""

    def __init__(self, settings: Settings, sessions: Callable[[], Iterable[Judged]], *,
                 open_store: Callable[[Settings], Store] | None = None, recheck: float = RECHECK,
                 reread: float = REREAD, events: Callable[[], Events] | None = None) -> None:
        self.settings = settings
        self._events = events or Events
        self.verdicts = Verdicts()
        self._sessions = sessions
        self._open_store = open_store
        self._recheck = recheck
        self._reread = reread
        self._store: Store | None = None
        self._stop = asyncio.Event()
        self._changed = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._failing = False
        self._opening = threading.Lock()
        self._broadcast_told: object = None

    async def start(self) -> None:
        """Listen to the change feed, then read the bans (so no change falls in between; a store that cannot be
        read yet turns nobody away, and is tried again), then watch.
        """
        if self._open_store is None:
            from ..settings import open_store

            self._open_store = open_store
        listening = asyncio.Event()
        self._tasks = [asyncio.ensure_future(self._listen(listening))]
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(listening.wait(), 5)
        await self.refresh()
        self._tasks.append(asyncio.ensure_future(self._watch()))

    def refusal(self, fingerprint: str | None, host: str, name: str | None = None) -> str | None:
        """The line a client with this key (or, a browser tab, signed in as this name) from this address is
        turned away with, or None.
        """
        return self.verdicts.refusal(fingerprint=fingerprint, address=host, now=datetime.now(timezone.utc), name=name)

    async def refresh(self) -> None:
        """Read the bans again and end every open session they now turn away."""
        try:
            self.verdicts = await asyncio.to_thread(self._read)
        except Exception as exc:  # noqa: BLE001 - the store's failure (StoreError, an OS error): keep the last verdicts
            if not self._failing:
                log.warning("moderation: cannot read the bans (%s); keeping the last ones read", clean(str(exc), 300))
            self._failing = True
        else:
            if self._failing:
                log.info("moderation: reading the bans again")
            self._failing = False
        self.judge()

    def judge(self) -> None:
        """End every open session the bans known now turn away, or an operator kicked; tell every game when
        the operator's broadcast changed.
        """
        now = datetime.now(timezone.utc)
        broadcast = self.verdicts.broadcast
        tell = broadcast != self._broadcast_told
        self._broadcast_told = broadcast
        for session in list(self._sessions()):
            line = self.refusal(session.fingerprint, session.host, getattr(session, "name", None))
            kicked = False
            if line is None:
                line = self.verdicts.kicked(getattr(session, "presence_id", None), now)
                kicked = line is not None
            if line is not None:
                who = getattr(session, "who", None) or Who(None, clean(session.host), session.fingerprint)
                event = "kicked" if kicked else "moderated"
                self._events().moderated(event, who, "moderation: session ended %s", moderation_fields(
                    fingerprint=session.fingerprint, address=session.host, reason=line), reason=line)
                session.end("kicked" if kicked else "moderation", f"\r\n{line}\r\n")
            elif tell and (pid := getattr(session, "pid", None)):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, BROADCAST_SIGNAL)

    def _opened(self) -> Store:
        """The store, opened on first use (in a thread: opening may wait on a database)."""
        with self._opening:
            if self._store is None:
                assert self._open_store is not None
                self._store = self._open_store(self.settings)
            return self._store

    def _read(self) -> Verdicts:
        return read_verdicts(self._opened())

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        read_at = loop.time()
        while not self._stop.is_set():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._changed.wait(), self._recheck)
            if self._stop.is_set():
                return
            if self._changed.is_set() or self._failing or loop.time() - read_at >= self._reread:
                self._changed.clear()
                read_at = loop.time()
                await self.refresh()
            else:
                self.judge()

    async def _listen(self, listening: asyncio.Event) -> None:
        """Wake :meth:`_watch` at each moderation or users change the store's feed reports (``listening`` is set
        once every later change is sure to be reported).
        """
        feed_failed = False
        while not self._stop.is_set():
            try:
                store = await asyncio.to_thread(self._opened)
                async for change in store.live.feed().changes(self._stop, listening):
                    feed_failed = False
                    if change.moderation or change.scores:
                        self._changed.set()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - a feed that fails: the re-reading still runs; listen again
                listening.set()
                if not feed_failed:
                    log.warning("moderation: the change feed failed (%s); listening again", clean(str(exc), 300))
                feed_failed = True
                self._changed.set()  # what changed meanwhile went unheard: read the bans again
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self._stop.wait(), self._recheck)

    async def close(self) -> None:
        """Stop watching and release the store."""
        self._stop.set()
        self._changed.set()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._store is not None:
            await asyncio.to_thread(self._store.close)
            self._store = None


__all__ = ["BROADCAST_SIGNAL", "RECHECK", "REREAD", "ModerationWatch", "moderation_fields", "read_verdicts"]
