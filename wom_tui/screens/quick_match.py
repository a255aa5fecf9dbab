"""Quick match: "play World of Mastermind now" — wait in the shared queue until seated at a started table.

For players: docs/play.md, *Quick match*. The pairing is :mod:`wom_tui.domain.matchmaking`'s; the queue
is the store's (``store.live``: every process and server on the store shares it). While this screen is
open it runs the waves that are due (whichever process gets there first runs each one), and the change
feed wakes it when the queue or the tables change: seated, it rings (:func:`.together.nudge_player`) and
becomes the table.

``m`` keeps waiting off the screen (:class:`WaitingElsewhere`): the player goes on using the menu, a solo
game, replays …, a badge says they are queued, and when the match is ready a dialog on whatever screen they
are on says so with the bell (Enter sits them). Esc on this screen, or the palette's *Leave the queue*,
stops waiting; quitting the app leaves the queue.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from ..domain.codes import WOM_RULESET
from ..domain.matchmaking import STRAGGLER_HOLD, WAVE_INTERVAL, Ticket, pairing_network
from ..domain.store import StoreError
from ..domain.store.api import LiveChange
from ..domain.table import MAKING, Table, elsewhere_notice
from ..domain.users import remembered_player
from ..domain.words import counted
from ..patches.footer import Footer
from ..widgets.choice import Choice
from ..widgets.player_select import PlayerChoice
from .confirm import ConfirmScreen
from .stats import registered_names
from .together import LiveScreen, nudge_player, together_of

TICK = 1.0
"""Seconds between two looks at the clock while waiting (the countdown, a due wave)."""


@dataclass(frozen=True)
class Waiting:
    """What the screen shows: this session's ticket, how many wait, and its table once seated."""

    ticket: Ticket | None
    waiting: int
    table: Table | None
    group: tuple[str, ...] = ()
    """The names in this player's held group (the table about to be made), this player included."""


def clock_text(seconds: float) -> str:
    """``m:ss`` of a non-negative number of seconds."""
    whole = max(0, int(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


class QuickMatchScreen(LiveScreen):
    """Waiting for a quick match: Esc stops waiting, ``c`` asks for the computers now."""

    BINDINGS = [
        Binding("c", "computers", "Computers now"),
        Binding("m", "elsewhere", "Wait from the menu"),
    ]

    wave_interval = WAVE_INTERVAL
    """Seconds between two waves (the rules'; tests shorten it)."""
    straggler_hold = STRAGGLER_HOLD
    """Seconds a group of two or three waits for one more (the rules'; tests shorten it)."""

    def __init__(self, attempts: int = 10) -> None:
        super().__init__(classes="quick-match-screen")
        self.attempts = attempts
        self.state: Waiting | None = None
        self.ticket: Ticket | None = None
        self.seated_at: str | None = None
        self._queued = False
        self._elsewhere = False
        """``m`` was pressed: the wait goes on off this screen (:class:`WaitingElsewhere`)."""

    PLAY_AS_FORM = "play-as"
    """Where a local session's last choice of player is remembered (shared with the lobby's Play as)."""

    @property
    def _network(self) -> str | None:
        """The player's network as the server saw it (None locally): quick match never pairs two of one."""
        return pairing_network(self.wom.options.client_address)

    def compose(self) -> ComposeResult:
        names: list[str] = []
        if not self.wom.identity.served:
            # Locally anyone may play as any registered name: the one chosen last time, or ask.
            names = registered_names(self)
            together = self.together
            if together.local_name is None:
                last = self.wom.remembered(self.PLAY_AS_FORM).get("name")
                together.local_name = remembered_player(last, names)
                self._ask = bool(names) and together.local_name is None
        with Vertical(id="quick-box", classes="panel"):
            yield Static(Text("Quick match: World of Mastermind"), classes="panel-title")
            yield Static(Text(f"{WOM_RULESET.title}, {counted(self.attempts, 'attempt')}, 2–4 players"), id="quick-rules")
            if names:
                with Horizontal(id="quick-as-row"):
                    yield Static(Text("Play as "), id="quick-as-label")
                    yield PlayerChoice(names, self.together.local_name, id="quick-as")
            yield Static(Text(""), id="quick-you")
            yield Static(Text("Joining the queue…"), id="quick-status")
            yield Static(Text(""), id="quick-fill")
            yield Static(Text("c: play the computers now · m: wait from the menu · Esc: stop waiting"),
                         id="quick-hint")
        yield Footer()

    _ask = False
    """Registered users and nobody chosen: the Play as choice is focused (the queue is joined as a guest
    meanwhile, and joined again under the name chosen)."""

    def on_mount(self) -> None:
        # (LiveScreen.on_mount runs too, as Textual calls every class's handler.)
        waiting = waiting_elsewhere(self.app)
        if waiting is not None:
            # Back from the menu to the wait it kept: the same ticket (the time waited goes on).
            self._queued, self.ticket, self.attempts = True, waiting.ticket, waiting.attempts
            waiting.hand_back()
        self.set_interval(TICK, self._tick)
        if self._ask:
            self.query_one("#quick-as", PlayerChoice).focus()

    def on_choice_changed(self, event: Choice.Changed) -> None:
        """Play as someone else: wait again under that name (not once seated or about to be)."""
        if not isinstance(event.choice, PlayerChoice) or event.choice.id != "quick-as":
            return
        event.stop()
        name = event.choice.chosen
        if name == self.together.local_name or self.seated_at is not None:
            return
        if self.ticket is not None and self.ticket.group is not None:
            event.choice.value = self.together.local_name or ""
            self.notify("Your table is about to start: no change of player now.", severity="warning")
            return
        self.together.local_name = name
        self.wom.remember(self.PLAY_AS_FORM, {"name": name or ""})
        live, session = self.wom.store.live, self.together.session

        async def requeue() -> None:
            await asyncio.to_thread(live.leave_queue, session, unseen=True)
            self._queued = False
            self.ticket = None
            self.poke()

        self.run_worker(requeue(), group="requeue", exclusive=True)

    HOLDS_KEYS_FOR_FIRST_VIEW = False
    """Its keys do not depend on what it reads, and its first read joins the queue: an Esc typed with the q
    (one burst) lands before it and never joins, rather than join and leave again while another player's
    wave may seat this one at a table they never see."""

    def wants(self, change: LiveChange) -> bool:
        """The queue (someone came, went or was seated) and new tables."""
        return change.queue or bool(change.tables) or change.presence

    _leaving = False
    """Set first thing as the screen goes; the first read checks it after joining (see :meth:`load`)."""

    def on_unmount(self) -> None:
        """Leaving the screen unseated stops waiting, unless ``m`` kept the wait (LiveScreen's own unmount
        runs too).
        """
        self._leaving = True
        if self.seated_at is None and self._queued:
            if self._elsewhere and self.ticket is not None:
                WaitingElsewhere(self.app, self.attempts, self.ticket)
            else:
                _leave_later(self.wom.store.live, self.together.session, unseen=True)

    # -- reading ----------------------------------------------------------------------------

    def load(self) -> Waiting:
        live = self.wom.store.live
        me = self.together.me()
        wanted = self.together.wanted()[0]
        if me is None or (wanted is not None and me.name != wanted) or (wanted is None and me.registered):
            self.together.join()  # play as the name just chosen (the heartbeat would take a beat)
            me = self.together.me()
        assert me is not None
        if not self._queued:
            if self._leaving:
                return Waiting(None, 0, None)  # left before the first read (q then Esc in one burst)
            # _queued is set before joining and _leaving checked after, while the unmount sets _leaving
            # before reading _queued: either the unmount's leave comes after the join, or this read sees
            # _leaving and leaves itself. Otherwise a player back at the menu would stay queued, to be
            # seated at a table they never see.
            self._queued = True
            self.ticket = live.enqueue(me, attempts=self.attempts, fill_after=self.wom.options.fill_after,
                                       network=self._network)
            if self._leaving:
                live.leave_queue(me.session, unseen=True)
                return Waiting(None, 0, None)
        _wave(self.wom)
        queue = live.match_queue()
        ticket = queue.ticket(me.session)
        table = live.table(ticket.table_id) if ticket is not None and ticket.table_id is not None else None
        if ticket is None and self.seated_at is None and not self._leaving:
            # Dropped from the queue (this session looked gone to a wave, or a seated ticket expired
            # before its table could be read): wait again (and not if the screen went meanwhile).
            ticket = live.enqueue(me, attempts=self.attempts, fill_after=self.wom.options.fill_after,
                                       network=self._network)
            if self._leaving:
                live.leave_queue(me.session, unseen=True)
        group = queue.held.get(ticket.group, ()) if ticket is not None and ticket.group is not None else ()
        return Waiting(ticket, len(queue.waiting), table, tuple(t.holder.name for t in group))

    def show(self, state: Waiting) -> None:
        self.state = state
        if state.ticket is not None:
            self.ticket = state.ticket
        if self.seated_at is not None:
            return
        if state.table is not None and state.ticket is not None:
            self._seated(state.table)
            return
        self._show_wait()

    def _tick(self) -> None:
        """Every second: the countdown, and a look at the queue (a wave may be due)."""
        self._show_wait()
        self.poke()

    def _show_you(self) -> None:
        me = self.together.me()
        if me is None:
            return
        you = Text("You: ", style="dim", end="")
        you.append(me.name, style="bold")
        if not me.registered:
            you.append(" (a guest: not rated", style="dim")
            you.append("; Play as: your name)" if self._ask else ")", style="dim")
        self.query_one("#quick-you", Static).update(you)

    def _show_wait(self) -> None:
        ticket = self.ticket
        if ticket is None or self.seated_at is not None or not self.is_mounted:
            return
        self._show_you()
        now = self.wom.store.live.clock()
        waited = now - ticket.since
        group = self.state.group if self.state is not None else ()
        if ticket.held_until is not None and group:
            me = (self.together.me() or ticket.holder).name
            others_here = ", ".join(name for name in group if name != me)
            self.query_one("#quick-status", Static).update(Text(f"Found: you play {others_here}."))
            self.query_one("#quick-fill", Static).update(Text(
                f"The table starts in {clock_text(ticket.held_until - now + 0.999)}: a seat is kept for one more."))
            return
        others = max(0, (self.state.waiting if self.state else 1) - 1)
        status = Text(f"Looking for players… waited {clock_text(waited)}", end="")
        status.append(f" · {counted(others, 'other')} waiting", style="dim")
        self.query_one("#quick-status", Static).update(status)
        left = ticket.fill_after - waited
        fill = (Text(f"HAL9000 or VIKI fill the table in {clock_text(left + 0.999)} if nobody comes.")
                if left > 0 else Text("Nobody close yet: a computer player takes the other seat at the next wave."))
        self.query_one("#quick-fill", Static).update(fill)

    def _seated(self, table: Table) -> None:
        from .live_table import LiveTableScreen

        self.seated_at = table.table_id
        others = [name for name in table.names if name is not None and name != (self.together.me() or table.creator).name]
        reason = f"Quick match found: you play {', '.join(others)}."
        if table.phase == MAKING:
            reason += " Set your code!"
        nudge_player(self.wom, reason)
        live, session = self.wom.store.live, self.together.session
        _leave_later(live, session, unseen=False)  # (the seated ticket: they go to the table)
        self.app.switch_screen(LiveTableScreen(table.table_id))

    # -- acting ------------------------------------------------------------------------------

    def action_elsewhere(self) -> None:
        """Keep waiting off this screen: back to the menu, queued (not once seated or before joining)."""
        if self.seated_at is not None:
            return
        if not self._queued or self.ticket is None:
            self.notify("Joining the queue: a moment.", severity="warning")
            return
        self._elsewhere = True
        self.app.notify("Still in the quick-match queue: you are told when your match is ready. "
                    "q shows the queue; Esc there leaves it.", title="Quick match", markup=False)
        self.dismiss()

    def action_computers(self) -> None:
        """Ask for a computer player now rather than wait."""
        if self.seated_at is not None or not self._queued or (self.ticket is not None and self.ticket.group is not None):
            return  # seated, not queued yet, or about to sit with people: no computer needed
        live, session = self.wom.store.live, self.together.session

        async def fill() -> None:
            ticket = await asyncio.to_thread(live.fill_now, session)
            if ticket is not None:
                self.ticket = ticket
                self.query_one("#quick-fill", Static).update(Text("A computer player takes the other seat…"))
            self.poke()

        self.run_worker(fill(), group="fill", exclusive=True)


def _wave(wom: object) -> None:
    """Run a quick-match wave if one is due (any process waiting may run it), with the app's settings."""
    app: Any = wom
    app.store.live.match_wave(app.rating_of, app.rng.getrandbits(48), interval=QuickMatchScreen.wave_interval,
                              grace=app.options.seat_grace, hold=QuickMatchScreen.straggler_hold,
                              pace=_pace(app.options.computer_pace), guess_clock=app.options.quick_match_clock)


class MatchReadyScreen(ConfirmScreen):
    """"Your quick match is ready": Enter (focused first) sits the player at the table, Esc stays."""

    AUTO_FOCUS = "#confirm-ok"

    def __init__(self, table: Table, others: str) -> None:
        super().__init__(
            f"Your quick match is ready: you play {others}.",
            "Your seat at the table is kept for you; the lobby (l) has it too.",
            confirm_label="Sit",
            cancel_label="Later",
            hint="Enter or y: sit at the table · Esc or n: later",
        )
        self.table_id = table.table_id


class WaitingElsewhere:
    """A quick-match wait carried on off its screen (``m``): one per app session, as ``app.quick_wait``.

    Every :data:`TICK` seconds, unless the quick-match screen is open (it waits itself), it runs a due wave
    and reads this session's ticket: seated, it says so on whatever screen is shown (the bell, a desktop
    notification if opted in, and :class:`MatchReadyScreen`) and ends. Its end on the app's exit (quit, a
    dropped connection) takes the ticket out of the queue. The badge says the player is queued meanwhile.
    """

    def __init__(self, app: Any, attempts: int, ticket: Ticket) -> None:
        self.app, self.attempts, self.ticket = app, attempts, ticket
        self.table_id: str | None = None
        self._leave_at_end = True
        previous = getattr(app, "quick_wait", None)
        if previous is not None:
            previous.hand_back()
        app.quick_wait = self
        self.worker = app.run_worker(self._keep(), name="quick-match-wait", group="quick-match-wait",
                                     exit_on_error=False)
        app.show_queued(True)

    def _gone(self) -> None:
        if getattr(self.app, "quick_wait", None) is self:
            self.app.quick_wait = None
            self.app.show_queued(False)

    def hand_back(self) -> None:
        """The quick-match screen takes the wait over (the ticket stays in the queue)."""
        self._leave_at_end = False
        self._gone()
        self.worker.cancel()

    _left = False
    """Set by :meth:`leave` before the ticket is taken out: a look under way (in a thread) that found no
    ticket then does not join the queue again, or leaves it again if it already had."""

    def leave(self) -> None:
        """Stop waiting: out of the queue now."""
        self._left = True
        self._leave_at_end = False
        self._gone()
        self.worker.cancel()
        _leave_later(self.app.store.live, together_of(self.app).session, unseen=True)

    def _here(self) -> bool:
        return any(isinstance(screen, QuickMatchScreen) for screen in self.app.screen_stack)

    def _look(self) -> Table | None:
        """A wave if due, then this session's ticket (waited for again if a wave dropped it); its table once seated."""
        together = together_of(self.app)
        live = self.app.store.live
        _wave(self.app)
        ticket = live.match_queue().ticket(together.session)
        me = together.me()
        if ticket is None and me is not None and not self._left:
            ticket = live.enqueue(me, attempts=self.attempts, fill_after=self.ticket.fill_after,
                                  network=self.ticket.network)
            if self._left:  # left while this look joined again (the palette, a quit): out again
                live.leave_queue(together.session, unseen=True)
                return None
        if ticket is None:
            return None
        self.ticket = ticket
        return live.table(ticket.table_id) if ticket.table_id is not None else None

    async def _keep(self) -> None:
        try:
            while True:
                await asyncio.sleep(TICK)
                if self._here():
                    continue
                try:
                    table = await asyncio.to_thread(self._look)
                except (StoreError, OSError, ValueError):
                    continue  # the screens show the store's errors; look again at the next tick
                if table is not None and not self._here():
                    self._ready(table)
                    return
        finally:
            if self._leave_at_end:
                self._gone()
                try:
                    self.app.store.live.leave_queue(together_of(self.app).session, unseen=True)
                except Exception:  # noqa: BLE001  (a wave drops a gone session's ticket anyway)
                    pass

    def _ready(self, table: Table) -> None:
        from .live_table import LiveTableScreen

        self.table_id = table.table_id
        self._leave_at_end = False
        self._gone()
        app, together = self.app, together_of(self.app)
        _leave_later(app.store.live, together.session, unseen=False)  # the seated ticket is no longer needed
        me = together.me()
        others = ", ".join(name for name in table.names if name is not None and (me is None or name != me.name))
        notices = getattr(app, "notices", None)
        if notices is not None and me is not None and (said := elsewhere_notice(table, me)) is not None:
            notices.said.add((table.table_id, said))  # one bell: the table's own notice is this one
        nudge_player(app, f"Your quick match is ready: you play {others}. Enter to sit.")

        def answered(sit: bool | None) -> None:
            if sit:
                app.push_screen(LiveTableScreen(table.table_id))

        app.push_screen(MatchReadyScreen(table, others), answered)


def waiting_elsewhere(app: Any) -> WaitingElsewhere | None:
    """The session's quick-match wait kept off its screen, if any."""
    return getattr(app, "quick_wait", None)


def _leave_later(live: object, session: str, *, unseen: bool) -> None:
    """Take the session's ticket out of the queue in a thread, whatever screen is then shown; ``unseen``: the
    player leaves before seeing a table, so a seat a wave gave them meanwhile is left too (the store's
    ``leave_queue``).
    """
    import threading

    def leave() -> None:
        try:
            live.leave_queue(session, unseen=unseen)  # type: ignore[attr-defined]
        except Exception:  # noqa: BLE001  (a wave drops the ticket of a session that is gone anyway)
            pass

    threading.Thread(target=leave, name="wom-leave-queue", daemon=True).start()


def _pace(computer_pace: float) -> tuple[float, float]:
    """The computers' pace at a table: a human's few seconds, none when the app's pace is 0 (tests)."""
    return (0.0, 0.0) if computer_pace <= 0 else (2.0, 5.0)


__all__ = ["MatchReadyScreen", "QuickMatchScreen", "Waiting", "WaitingElsewhere", "clock_text", "waiting_elsewhere"]
