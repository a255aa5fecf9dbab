"""The server's side of moderation (docs/serve.md, *Moderating the arcade*): who is turned away at sign-in,
and ending the open sessions a new ban or retirement reaches.

The server keeps the store's bans and retired names in memory (:class:`~wom_tui.domain.moderation.Verdicts`),
so a client is judged at sign-in without waiting on the store. They are read again whenever the store's change
feed reports a moderation change or a change of users (a key bound to a banned name), from any process or
server sharing the store (LISTEN/NOTIFY on PostgreSQL, the folder's watcher on a data folder), and every
:data:`RECHECK` seconds besides (a ban running out, a feed that lost its connection).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Protocol

from ..domain.moderation import Verdicts
from .logsafe import clean

if TYPE_CHECKING:
    from ..domain.store.api import Store
    from ..settings import Settings

log = logging.getLogger("wom_tui.serve")

RECHECK = 2.0
"""Seconds between two readings of the bans when the change feed says nothing (expiry, a lost feed)."""


class Judged(Protocol):
    """What is judged of a session: its verified key and its address; :meth:`end` ends it with a line."""

    fingerprint: str | None
    host: str

    def end(self, reason: str, farewell: str | None = None) -> None:
        """End the session, telling the client ``farewell``."""
        ...


def moderation_event(event: str, **fields: object) -> None:
    """Log one moderation event (a refusal at sign-in, a session ended); the one place to route them."""
    details = " ".join(f"{key}={clean(str(value), 200)}" for key, value in fields.items() if value is not None)
    log.info("moderation: %s %s", event, details)


def read_verdicts(store: Store) -> Verdicts:
    """The bans and retired names kept in ``store``, with the keys of the names concerned."""
    bans, retired = tuple(store.bans()), tuple(store.retired())
    verdicts = Verdicts(bans, retired)
    names_of_keys: dict[str, str] = {}
    for name in verdicts.names_concerned():
        user = store.user(name)
        if user is not None:
            names_of_keys.update((key, user.name) for key in user.keys)
    return Verdicts(bans, retired, names_of_keys)


class ModerationWatch:
    """Keeps the server's :class:`Verdicts` current and ends the sessions they turn away."""

    def __init__(self, settings: Settings, sessions: Callable[[], Iterable[Judged]], *,
                 open_store: Callable[[Settings], Store] | None = None, recheck: float = RECHECK) -> None:
        self.settings = settings
        self.verdicts = Verdicts()
        self._sessions = sessions
        self._open_store = open_store
        self._recheck = recheck
        self._store: Store | None = None
        self._stop = asyncio.Event()
        self._changed = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._failing = False

    async def start(self) -> None:
        """Read the bans once (a store that cannot be read yet turns nobody away, and is tried again), then watch."""
        if self._open_store is None:
            from ..settings import open_store

            self._open_store = open_store
        await self.refresh()
        self._tasks = [asyncio.ensure_future(self._watch()), asyncio.ensure_future(self._listen())]

    def refusal(self, fingerprint: str | None, host: str) -> str | None:
        """The line a client with this key from this address is turned away with, or None."""
        return self.verdicts.refusal(fingerprint=fingerprint, address=host, now=datetime.now(timezone.utc))

    async def refresh(self) -> None:
        """Read the bans again and end every open session they now turn away."""
        try:
            self.verdicts = await asyncio.to_thread(self._read)
        except Exception as exc:  # noqa: BLE001 - the store's failure (StoreError, an OS error): keep the last verdicts
            if not self._failing:
                log.warning("moderation: cannot read the bans (%s); keeping the last ones read", clean(str(exc), 300))
            self._failing = True
            return
        if self._failing:
            log.info("moderation: reading the bans again")
        self._failing = False
        for session in list(self._sessions()):
            line = self.refusal(session.fingerprint, session.host)
            if line is not None:
                moderation_event("session ended", fingerprint=session.fingerprint, address=session.host, reason=line)
                session.end("moderation", f"\r\n{line}\r\n")

    def _read(self) -> Verdicts:
        if self._store is None:
            assert self._open_store is not None
            self._store = self._open_store(self.settings)
        return read_verdicts(self._store)

    async def _watch(self) -> None:
        while not self._stop.is_set():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._changed.wait(), self._recheck)
            self._changed.clear()
            if not self._stop.is_set():
                await self.refresh()

    async def _listen(self) -> None:
        """Wake :meth:`_watch` at each moderation or users change the store's feed reports."""
        while not self._stop.is_set():
            try:
                store = self._store
                if store is None:
                    await asyncio.wait_for(self._stop.wait(), self._recheck)
                    continue
                async for change in store.live.feed().changes(self._stop):
                    if change.moderation or change.scores:
                        self._changed.set()
            except asyncio.TimeoutError:
                continue
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - a feed that fails: the recheck still runs; listen again
                log.warning("moderation: the change feed failed (%s); listening again", clean(str(exc), 300))
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


__all__ = ["RECHECK", "ModerationWatch", "moderation_event", "read_verdicts"]
