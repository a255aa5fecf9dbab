"""Playing together: the app session's presence and the base of the live screens (lobby, table).

One presence per app session: :func:`start_presence` (from the app's ``on_mount``) joins the data
folder's live state and keeps a heartbeat every :data:`.live.HEARTBEAT_INTERVAL` seconds from a
worker; the worker's end (the app exiting) parts the session. Every ``live.*`` call does file I/O
under the store's lock, so it runs in a thread (:func:`asyncio.to_thread`), never on the UI loop. One
exception: a live table in a data folder reads its own small table file on the loop when the change feed
reports another seat's move (no lock, nothing to wait on; :meth:`.LiveTableScreen.wants` says why).

:class:`LiveScreen` subscribes to the store's change feed while it is mounted and re-reads what it
shows after every change it :meth:`~LiveScreen.wants` (and whenever :meth:`LiveScreen.poke` is
called, e.g. by a timer): one refresher at a time, so a burst of changes costs one read. The feed
has one source per process (:class:`.live.SharedFeed`), and one :class:`Housekeeper` per process
sweeps the live state while any live screen is open: waiting in the lobby costs a heartbeat and a
shared sweep every couple of seconds, nothing per screen.
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import Hashable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

from textual.css.query import NoMatches
from textual.notifications import Notification

from ..domain.notes import Notes
from ..domain.presence import HEARTBEAT_INTERVAL, Presence, Whereabouts, new_session_id
from ..domain.store.api import LiveChange
from ..domain.store import StoreError
from ..domain.table import SeatHolder
from .base import WomScreen
from .host import WomHost

if TYPE_CHECKING:
    from ..domain.store.api import Live

SWEEP_INTERVAL = HEARTBEAT_INTERVAL
"""Seconds between two sweeps of the live state (one per process, see :class:`Housekeeper`)."""


class Together:
    """The app session as it meets others: its session id, and who it sits at tables as."""

    def __init__(self, app: WomHost) -> None:
        self.app = app
        # A served game's id is the server's choice (an operator's kick names it); a local one draws its own.
        self.session = getattr(app.options, "session_id", None) or new_session_id()
        self.presence: Presence | None = None
        self.screen = ""
        """The screen this session shows (what the Operator screen lists), reported when it changes."""
        self._moved: asyncio.Event | None = None
        self.local_name: str | None = None
        """Local play only: the registered user chosen in the lobby (None: a guest)."""
        self.results_seen: set[str] = set()
        """Finished tables whose results this session was shown at its own seat: the lobby lists them no more."""
        self.notes: dict[str, Notes] = {}
        """This player's notes per table (docs/play.md, *Notes*): private, so kept in the session only,
        never in the table others read; they last while the session does."""

    def wanted(self) -> tuple[str | None, bool]:
        """(name, registered) this session should be known as; a None name is a guest."""
        identity = self.app.identity
        if identity.served:
            return (identity.name, True) if identity.name is not None else (None, False)
        return (self.local_name, True) if self.local_name is not None else (None, False)

    def where(self) -> Whereabouts:
        """What an operator sees of this session: the address and key the server gave it, its transport and
        its screen (a local session: "local", nothing else).
        """
        options, identity = self.app.options, self.app.identity
        try:
            return Whereabouts(options.client_address if options.served else None,
                               identity.fingerprint if options.served else None,
                               options.transport if options.served else "local", self.screen)
        except ValueError:
            return Whereabouts(transport="local" if not options.served else options.transport, screen=self.screen)

    def show_screen(self, name: str) -> None:
        """Say this session now shows ``name``: the heartbeat writes it at once (one write per change)."""
        if name != self.screen:
            self.screen = name
            if self._moved is not None:
                self._moved.set()

    def join(self) -> Presence:
        """(Re)announce this session with the name it should have now (blocking: call in a thread)."""
        live = self.app.store.live
        name, registered = self.wanted()
        if name is None:
            current = self.presence
            if current is not None and not current.registered:
                name = current.name
            else:
                self.presence = live.join_guest(self.session, self.where())
                return self.presence
        self.presence = live.join(name, registered, self.session, self.where())
        return self.presence

    def _report(self, presence: Presence) -> None:
        """Write the screen shown now (blocking: call in a thread)."""
        moved = replace(presence, where=self.where())
        self.app.store.live.report_screen(moved)
        self.presence = moved

    def me(self) -> SeatHolder | None:
        """The person this session sits at tables as (None before the first join)."""
        return self.presence.holder() if self.presence is not None else None

    async def keep(self) -> None:
        """Join, then heartbeat until cancelled; part on the way out."""
        live = self.app.store.live
        moved = self._moved = asyncio.Event()
        try:
            while True:
                try:
                    wanted = self.wanted()
                    if self.presence is None or (wanted[0] is not None and wanted[0] != self.presence.name) \
                            or (wanted[0] is None and self.presence.registered):
                        await asyncio.to_thread(self.join)
                    elif self.presence.where.screen != self.screen:
                        await asyncio.to_thread(self._report, self.presence)
                    else:
                        await asyncio.to_thread(live.heartbeat, self.presence)
                except (StoreError, OSError, ValueError):
                    pass  # the store's own checks show its errors; try again at the next beat
                moved.clear()
                with contextlib.suppress(asyncio.TimeoutError):
                    # A screen change writes at once; otherwise the next beat. At most one write per 0.2 s.
                    await asyncio.wait_for(moved.wait(), until_next_beat(HEARTBEAT_INTERVAL))
                    await asyncio.sleep(0.2)
        finally:
            with contextlib.suppress(StoreError, OSError):
                live.part(self.session)


def until_next_beat(interval: float) -> float:
    """Seconds until the event loop's clock next reaches a multiple of ``interval`` (at least half of one).

    The heartbeat and the sweep keep to this one beat rather than each to its own start, so that an idle
    session wakes once every couple of seconds for both, not twice (a wake-up, not the work done in it,
    is most of what an idle session costs).
    """
    now = asyncio.get_running_loop().time()
    wait = interval - now % interval
    return wait if wait >= interval / 2 else wait + interval


def start_presence(app: WomHost) -> Together:
    """Give the app its :class:`Together` and start the heartbeat worker (from ``on_mount``)."""
    together = Together(app)
    app.together = together  # type: ignore[attr-defined]
    app.run_worker(together.keep(), name="presence", group="presence", exit_on_error=False)
    return together


def together_of(app: Any) -> Together:
    """The app's :class:`Together` (made on first use if the app did not start one)."""
    found = getattr(app, "together", None)
    if found is None:
        found = start_presence(app)
    return found


def nudge_player(app: WomHost, reason: str, on: WomScreen | None = None) -> Notification | None:
    """It's this player's move: the reason on screen (a notification, plain text), the bell unless the
    settings or the session turned it off, and a desktop notification if they opted in
    (:mod:`wom_tui.widgets.nudge`; docs/play.md, *A nudge when it's time*). Shown ``on`` a screen, the
    toast is that screen's and is given back, for the screen to withdraw once it is no longer true.
    """
    from ..widgets.nudge import nudge

    options = app.options
    toast = None
    if on is not None:
        toast = on.notice(reason, title="Your move", markup=False)
    else:
        app.notify(reason, title="Your move", markup=False)
    bell = options.bell and not getattr(app, "bell_off", False)
    nudge(app, reason, bell=bell, desktop=options.desktop_notify)
    app.nudges = getattr(app, "nudges", 0) + 1  # type: ignore[attr-defined]  # (tests count them)
    return toast


class Housekeeper:
    """One sweep of the live state every :data:`SWEEP_INTERVAL` seconds per store, while any live
    screen of the process is open (however many apps it runs; of the processes sharing a data folder,
    the first at each beat sweeps, see ``claim_sweep``): stale sessions collected,
    dropped seats, graces and computers' moves brought up to date. What a sweep changes reaches every
    screen through the change feed; the screens themselves only read.
    """

    def __init__(self) -> None:
        self.lives: list[Live] = []
        self.task: asyncio.Task[None] | None = None
        self.sweeps = 0
        """Sweeps done (tests and benches)."""

    def join(self, live: Live) -> None:
        """A live screen on ``live`` opened: sweep while it is open."""
        self.lives.append(live)
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self._run())

    def leave(self, live: Live) -> None:
        """A live screen closed: the last one stops the sweeps."""
        with contextlib.suppress(ValueError):
            self.lives.remove(live)
        if not self.lives and self.task is not None:
            self.task.cancel()
            self.task = None

    async def _run(self) -> None:
        while self.lives:
            await asyncio.sleep(until_next_beat(SWEEP_INTERVAL))
            if not self.lives:
                return
            live = self.lives[-1]
            try:
                if not await asyncio.to_thread(live.claim_sweep, SWEEP_INTERVAL):
                    continue  # another process sharing the store has just swept it
                await asyncio.to_thread(live.sweep)
            except (StoreError, OSError, ValueError, LookupError):
                pass  # the screens' own reads show the store's errors
            self.sweeps += 1


_HOUSEKEEPERS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[Hashable, Housekeeper]] = \
    weakref.WeakKeyDictionary()


def housekeeper_for(live: Live) -> Housekeeper:
    """The running loop's :class:`Housekeeper` of the store ``live`` belongs to (by its feed's place)."""
    key = getattr(live.feed(), "key", id(live))
    keepers = _HOUSEKEEPERS.setdefault(asyncio.get_running_loop(), {})
    found = keepers.get(key)
    if found is None:
        found = keepers[key] = Housekeeper()
    return found


def seated_by_hand(app: Any) -> None:
    """The player took a seat themselves (sat at a table, opened one, accepted an invitation or a rematch):
    a quick-match wait carried on off its screen (``m``, :class:`.quick_match.WaitingElsewhere`, the app's
    ``quick_wait``) ends, or the next wave would seat them a second time.
    """
    waiting = getattr(app, "quick_wait", None)
    if waiting is not None and waiting.table_id is None:
        waiting.leave()
        app.notify("You left the quick-match queue: you have a seat at a table now.", markup=False)


class LiveScreen(WomScreen):
    """A screen that shows live state: :meth:`load` (in a thread) then :meth:`show` after each change."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._dirty = asyncio.Event()
        self._stop = asyncio.Event()
        self.feed_ready = asyncio.Event()
        """Set once the change feed reports every change (tests wait on it)."""
        self.loads = 0
        """How many times the screen re-read the live state (tests and benches)."""
        self.heard = 0
        """How many changes the feed brought the screen, read again or not (tests and benches)."""

    HOLDS_KEYS_FOR_FIRST_VIEW: ClassVar[bool] = True
    """Keys typed with the one that opened this screen (SSH packs a fast typist's keys) wait until its first
    read is shown, when what they reach depends on it (a table asking for a code, the lobby's rows), rather
    than reach the lists it shows while it reads (the key queue's ``hold_keys_for``, 3 s at most)."""

    @property
    def together(self) -> Together:
        return together_of(self.app)

    def on_mount(self) -> None:
        self._housekeeper = housekeeper_for(self.wom.store.live)
        self._housekeeper.join(self.wom.store.live)
        self.run_worker(self._watch(), group="live-feed", exit_on_error=False)
        self.run_worker(self._refresh_loop(), group="live-refresh")
        self.poke()
        if self.HOLDS_KEYS_FOR_FIRST_VIEW:
            self.wom.hold_keys_for(self)

    _housekeeper: Any = None
    """Joined as the screen mounts: a screen shut before it mounted (the app closing) has none to leave."""

    def on_unmount(self) -> None:
        self._stop.set()
        self.wom.keys_ready(self)
        if self._housekeeper is not None:
            self._housekeeper.leave(self.wom.store.live)

    def poke(self) -> None:
        """Re-read and show the live state soon."""
        self._dirty.set()

    async def _watch(self) -> None:
        feed = self.wom.store.live.feed()
        ready = self.feed_ready

        async def when_ready() -> None:
            await ready.wait()
            self.poke()

        waiter = asyncio.ensure_future(when_ready())
        try:
            async for change in feed.changes(self._stop, ready):
                self.take_change(change)
                self.heard += 1
        finally:
            waiter.cancel()

    def wants(self, change: LiveChange) -> bool:
        """True if ``change`` may alter what this screen shows (default: any change)."""
        return True

    def take_change(self, change: LiveChange) -> None:
        """A change the feed reported (on the UI loop): re-read if :meth:`wants` it."""
        if self.wants(change):
            self.poke()

    def before_load(self) -> None:
        """Called on the UI loop just before each :meth:`load` (which runs in a thread)."""

    async def _refresh_loop(self) -> None:
        while True:
            await self._dirty.wait()
            self._dirty.clear()
            if self.paused():
                self._missed = True
                continue
            try:
                if self.together.presence is None:
                    await asyncio.to_thread(self.together.join)
                self.before_load()
                data = await asyncio.to_thread(self.load)
            except StoreError as error:
                self.show_problem(error)
                self.wom.keys_ready(self)
                continue
            if self._stop.is_set() or not self.is_attached:
                return  # the screen went away while reading
            self.loads += 1
            try:
                self.show(data)
            except NoMatches:
                return  # being removed
            self.wom.keys_ready(self)


    _missed = False

    def paused(self) -> bool:
        """True while another live screen covers this one: it reads nothing until it shows again."""
        return any(isinstance(screen, LiveScreen) for screen in self.app.screen_stack[self.app.screen_stack.index(self) + 1:]) \
            if self in self.app.screen_stack else False

    def on_screen_resume(self) -> None:
        if self._missed:
            self._missed = False
            self.poke()

    def load(self) -> Any:
        """Read the live state (runs in a thread)."""
        raise NotImplementedError

    def show(self, data: Any) -> None:
        """Show what :meth:`load` read (on the UI loop)."""
        raise NotImplementedError

    def show_problem(self, error: StoreError) -> None:
        """A damaged file: say which (default: the store-error screen)."""
        self.wom.show_store_error(error)


__all__ = ["Housekeeper", "LiveScreen", "housekeeper_for", "nudge_player", "Together", "start_presence", "together_of"]
