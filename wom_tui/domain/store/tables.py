"""What every live store does the same way around a table's rules (:mod:`wom_tui.domain.table`).

A backend keeps tables and presence its own way (:mod:`.folder.live`, :mod:`.postgres.live`);
opening a table, bringing it up to date, playing on it and the sweep are written once, here.
"""

from __future__ import annotations

import dataclasses
import random
import uuid
from collections.abc import Callable
from datetime import datetime, timezone
from typing import TypeVar

from ..codes import WOM_RULESET, Ruleset
from ..moves import Leave, TableMove, apply_move
from ..matchmaking import FILL_AFTER, STRAGGLER_HOLD, WAVE_INTERVAL, Group, MatchQueue, RatingOf, Ticket, match_table, run_wave, wave_due
from ..presence import Presence
from ..table import CLOSED, COMPUTER_PACE, FINISHED, MAX_SEED, SEAT_GRACE, Refused, SeatHolder, Table, check_may_open
from ..users import COMPUTER_NAMES
from ..variants import Variant
from .api import Listing, StoreError

KEEP_ENDED = 600.0
"""Seconds a finished (recorded) or closed table stays kept for its results to be read."""

T = TypeVar("T")


def new_table_id() -> str:
    """A unique table id that sorts by creation time."""
    return datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%f-") + uuid.uuid4().hex[:8]


class TableRules:
    """What every live store does the same way around :class:`.table.Table`'s rules: open a table,
    bring it up to date, play on it, sweep. A store supplies ``clock``, ``sessions()``,
    ``table(table_id)`` (the table as kept, None if gone), ``_insert(table, admit)`` (keep a new table),
    ``update_table`` (its compare-and-swap), ``tables()``, and for the sweep ``_sweep_presence()``,
    ``_remove_ended(tables)`` and ``_record_again(table_id)``.
    """

    clock: Callable[[], float]

    def create_table(
        self, creator: SeatHolder, *, seats: int = 2, attempts: int = 10, ruleset: Ruleset = WOM_RULESET,
        seed: int = 0, grace: float = SEAT_GRACE, pace: tuple[float, float] = COMPUTER_PACE,
        guess_clock: float | None = None, origin: str | None = None, per_address: int = 0,
        variant: Variant = Variant.CLASSIC,
    ) -> Table:
        """Open a new table with ``creator`` in seat 1, opened from the address ``origin`` (None: on this
        machine); :class:`.table.Refused` for rules it cannot have, or when the creator already holds a
        table that has not started or ``origin`` has ``per_address`` of them (:func:`.table.check_may_open`,
        decided atomically with the insert: two opens at once cannot both pass).
        """
        table = Table(new_table_id(), creator, seats=seats, attempts=attempts, ruleset=ruleset, seed=seed,
                      now=self.clock(), grace=grace, pace=pace, guess_clock=guess_clock, origin=origin,
                      variant=variant)
        self._insert(table, lambda unstarted: check_may_open(unstarted, creator, origin, per_address))
        return table

    def _insert(self, table: Table, admit: Callable[[list[Table]], None]) -> None:  # pragma: no cover
        """Keep a new table if ``admit(the tables that have not started)`` does not raise; atomically
        (no other table is opened in between). Supplied by the store.
        """
        raise NotImplementedError

    def table(self, table_id: str) -> Table | None:  # pragma: no cover - supplied by the store
        """The table as kept now (None if it is gone); :class:`.api.StoreError` naming a damaged one."""
        raise NotImplementedError

    def _peek(self, table_id: str) -> Table | None:
        """The table as kept now, None if it is gone or unreadable."""
        try:
            return self.table(table_id)
        except StoreError:
            return None

    def sessions(self) -> list[Presence]:  # pragma: no cover - supplied by the store
        """Sessions online now (the store's)."""
        raise NotImplementedError

    def update_table(self, table_id: str, change: Callable[[Table], T]) -> T:  # pragma: no cover
        """The store's compare-and-swap of one table."""
        raise NotImplementedError

    def tables(self) -> Listing:  # pragma: no cover - supplied by the store
        """Every table kept, and the ones that could not be read."""
        raise NotImplementedError

    def _sweep_presence(self) -> set[str]:  # pragma: no cover - supplied by the store
        """Remove stale presences; the sessions online."""
        raise NotImplementedError

    def _remove_ended(self, ended: list[Table]) -> set[str]:  # pragma: no cover - supplied by the store
        """Remove those of ``ended`` (closed or recorded) that ended over :data:`KEEP_ENDED` s ago; their ids."""
        raise NotImplementedError

    def _record_again(self, table_id: str) -> StoreError | None:  # pragma: no cover - supplied by the store
        """Retry a recording that failed; the error saying why it fails, or None if it went through."""
        raise NotImplementedError

    def claim_sweep(self, interval: float) -> bool:
        """True if this process should sweep now, False if another process sharing the store swept
        less than ``interval`` seconds ago (and its sweep covered every table). This default: always.
        """
        return True

    def sweep(self) -> Listing:
        """Housekeeping any session may run every few seconds: collect stale presences, bring every
        table up to date (dropped seats, graces, computers, unfinished recordings), and remove
        tables that ended over :data:`KEEP_ENDED` seconds ago. Returns the tables as left.
        """
        live = self._sweep_presence()
        listing = self.tables()
        now = self.clock()
        removed = self._remove_ended([t for t in listing.tables if t.phase == CLOSED or t.recorded])
        kept, problems = [], list(listing.problems)
        for table in listing.tables:
            if table.table_id in removed:
                continue
            change = self._bring_up_to_date(table, live, now)  # on the copy, outside the lock
            if change is None:
                kept.append(table)  # nothing due (or ended): no need for the lock
                continue
            try:
                table = self.update_table(table.table_id, change)
            except LookupError:
                continue
            except StoreError as exc:
                problems.append(exc)
                continue
            if table.phase == FINISHED and not table.recorded:
                problem = self._record_again(table.table_id)
                if problem is not None:
                    problems.append(problem)
            kept.append(table)
        return Listing(tuple(kept), tuple(problems))

    def act(self, table_id: str, action: Callable[[Table, float], T]) -> T:
        """:meth:`update_table` with the clock: notes who is online, does what is due, then
        ``action(table, now)`` — e.g. ``lambda t, now: t.guess(me, "RGBY", now)``.
        """
        now = self.clock()
        live = {p.session for p in self.sessions()}
        moves = self._think_ahead(table_id, live, now)

        def change(table: Table) -> T:
            table.mark_presence(live, now)
            table.tick(now, moves)
            return action(table, now)

        return self.update_table(table_id, change)

    def at_hand(self, table_id: str) -> bool:
        """True when reading this table now is cheap enough for an event loop (a store's local file)."""
        return bool(getattr(self, "quick_reads", False))

    def play(self, table_id: str, move: TableMove) -> Table:
        """Play ``move`` (a value, :mod:`..moves`) at the table with the clock, presence and what is due done
        first, in one read-modify-write; the table as written. :class:`.table.Refused` (nothing written) if the
        rules refuse it, ``LookupError`` if the table is gone.
        """
        now = self.clock()
        live = self._online()
        moves = self._think_ahead(table_id, live, now)

        def change(table: Table) -> Table:
            table.mark_presence(live, now)
            table.tick(now, moves)
            apply_move(table, move, now)
            return table

        table = self.update_table(table_id, change)
        self._remember(table)
        return table

    known: dict[str, Table] | None = None
    """The tables as this process last wrote or read them, when it keeps them (the server's hub does,
    docs/arcade.md): the computers think ahead on that copy instead of reading the table once more.
    None (a game in its own process): every move reads its copy."""
    online: set[str] | None = None
    """The sessions online as last read, when kept (the hub drops it on every presence change)."""

    def _remember(self, table: Table) -> None:
        if self.known is not None:
            self.known[table.table_id] = table

    def _online(self) -> set[str]:
        """The sessions online now (from what is kept, if anything is)."""
        if self.online is not None:
            return self.online
        found = {p.session for p in self.sessions()}
        return found

    def _think_ahead(self, table_id: str, live: set[str], now: float) -> dict[tuple[int, int], str]:
        """The computers' moves due by ``now``, worked out on a copy outside the lock (a strong
        computer on a large ruleset may think for a second: nobody should wait on the lock for it).
        """
        known = self.known.get(table_id) if self.known is not None else None
        if known is not None:
            if not any(seat.computer is not None for seat in known._seats):
                return {}  # no computer at the table: nothing to think of
            copy: Table | None = known.copy()
        else:
            copy = self._peek(table_id)
        if copy is None:
            return {}
        copy.mark_presence(live, now)
        return copy.tick(now)

    def tick(self, table_id: str) -> Table:
        """Bring one table up to date (presence, graces, computers' moves); the table as written."""
        return self.act(table_id, lambda table, now: table)

    @staticmethod
    def _bring_up_to_date(table: Table, live: set[str], now: float) -> Callable[[Table], Table] | None:
        """For a sweep: the moves due on ``table`` worked out outside any lock, as a change for
        ``update_table``; None if nothing is due (no need to take the lock).
        """
        if table.phase == CLOSED or table.recorded:
            return None
        version = table.version
        table.mark_presence(live, now)
        moves = table.tick(now)
        if table.version == version and table.phase != FINISHED:
            return None

        def change(t: Table) -> Table:
            t.mark_presence(live, now)
            t.tick(now, moves)
            return t
        return change


    # ---- invitations and rematch (domain/table.py's rules; docs/play.md, *Invite and rematch*)

    def invite(self, creator: SeatHolder, name: str, *, seed: int = 0, grace: float = SEAT_GRACE,
               pace: tuple[float, float] = COMPUTER_PACE) -> Table:
        """A new two-seat table (World of Mastermind's usual rules) with ``creator`` in seat 1 and ``name``
        invited; it starts once they accept. :class:`.table.Refused` with the reason if they cannot be.
        """
        table = Table(new_table_id(), creator, seats=2, seed=seed, now=self.clock(), grace=grace, pace=pace)
        table.auto_start = True
        table.invite(creator, name)
        # An invitation's table counts as one its creator opened and has not started (one at a time).
        self._insert(table, lambda unstarted: check_may_open(unstarted, creator, None, 0))
        return table

    def rematch(self, table_id: str, person: SeatHolder, *, seed: int = 0) -> str:
        """"Again" at a finished table: the id of its rematch table, opened now by ``person`` or already
        offered by someone else (one rematch per table: the finished table's compare-and-swap decides).
        """
        now = self.clock()
        made: list[Table] = []

        def change(table: Table) -> str:
            made.clear()
            if table.rematch_id is not None:
                return table.rematch_id
            made.append(table.rematch(person, new_table_id(), seed=seed, now=now))
            return made[0].table_id

        rematch_id = self.update_table(table_id, change)
        if made:
            self._insert(made[0], lambda _unstarted: None)  # one per finished table: no cap to check
        return rematch_id

    # ---- quick match (domain/matchmaking.py; docs/play.md, *Quick match*)

    def match_queue(self) -> MatchQueue:  # pragma: no cover - supplied by the store
        """The quick-match queue as kept now."""
        raise NotImplementedError

    def _swap_queue(self, change: Callable[[MatchQueue], tuple[MatchQueue, list[Table], T]]) -> T:  # pragma: no cover
        """The store's compare-and-swap of the queue: under its lock (the folder's) or in one transaction
        (PostgreSQL), ``change`` on the queue as kept; the queue it returns is written, then its tables
        are kept, all before any other process sees the queue again. Returns what ``change`` returned.
        """
        raise NotImplementedError

    def enqueue(self, holder: SeatHolder, *, attempts: int = 10, fill_after: float = FILL_AFTER,
                network: str | None = None) -> Ticket:
        """Wait for a quick match (again): the session's ticket, replacing any it or this person had;
        ``network``: the player's (paired with another of the same only when nobody else waits, unrated).
        """
        ticket = Ticket(holder, self.clock(), attempts, fill_after, network=network)

        def change(queue: MatchQueue) -> tuple[MatchQueue, list[Table], Ticket]:
            return queue.with_ticket(ticket), [], ticket
        return self._swap_queue(change)

    def leave_queue(self, session: str, *, unseen: bool = False) -> Table | None:
        """Stop waiting (or forget a seated ticket once its player has opened the table).

        ``unseen``: the player left before they saw where they were seated (Esc on the waiting screen as a
        wave seated them, in another process): they leave that table too, at once, so that the others there
        are told and play on rather than wait for someone who is back at the menu. The table as written
        then (None if there was none to leave).
        """
        taken: list[Ticket] = []

        def change(queue: MatchQueue) -> tuple[MatchQueue, list[Table], None]:
            ticket = queue.ticket(session)
            taken[:] = [ticket] if ticket is not None else []  # (a transaction tried again: its last try's)
            return queue.without({session}), [], None
        if self.match_queue().ticket(session) is not None:
            self._swap_queue(change)
        if not unseen or not taken or taken[0].table_id is None:
            return None
        try:
            return self.play(taken[0].table_id, Leave(taken[0].holder))
        except (Refused, LookupError):
            return None  # the table is gone, or over, or they had left it already

    def fill_now(self, session: str) -> Ticket | None:
        """The player chooses the computers now: their ticket may be filled at the next wave (None if
        they no longer wait).
        """
        def change(queue: MatchQueue) -> tuple[MatchQueue, list[Table], Ticket | None]:
            ticket = queue.ticket(session)
            if ticket is None or not ticket.waiting:
                return queue, [], ticket
            ticket = dataclasses.replace(ticket, fill_after=0.0)
            return queue.with_ticket(ticket), [], ticket
        return self._swap_queue(change)

    def match_wave(self, rating_of: RatingOf, seed: int, *, interval: float = WAVE_INTERVAL,
                   grace: float = SEAT_GRACE, pace: tuple[float, float] = COMPUTER_PACE,
                   hold: float = STRAGGLER_HOLD, guess_clock: float | None = None) -> list[Table]:
        """Run a wave of quick match if one is due (:func:`..matchmaking.wave_due`): whichever process
        gets there first claims it (the queue's lock or transaction), so a wave runs once and nobody is
        seated twice. Tickets of sessions no longer online are dropped. Returns the tables started.
        ``rating_of(name)`` is a registered player's rating (None: unrated), read before the claim;
        ``hold``: how long a group of two or three waits for a straggler (:data:`..matchmaking.STRAGGLER_HOLD`);
        ``guess_clock``: the tables' per-guess clock (the server's ``quick_match_clock``).
        """
        before = self.match_queue()
        now = self.clock()
        if not wave_due(before, now, interval):
            return []
        ratings = {}
        for ticket in before.waiting:
            if ticket.holder.registered:
                found = rating_of(ticket.holder.name)
                if found is not None:
                    ratings[ticket.session] = float(found)
        computers = {name: float(r) for name in COMPUTER_NAMES if (r := rating_of(name)) is not None}
        live = {p.session for p in self.sessions()}
        draw = random.Random(seed)

        def new_table(group: Group) -> Table:
            return match_table(new_table_id(), group, seed=draw.randrange(MAX_SEED), now=now, grace=grace, pace=pace,
                               guess_clock=guess_clock)

        def change(queue: MatchQueue) -> tuple[MatchQueue, list[Table], list[Table]]:
            if not wave_due(queue, now, interval):
                return queue, [], []  # another process ran it meanwhile
            queue, tables = run_wave(queue, ratings, now, new_table=new_table, live=live,
                                     computer_ratings=computers, hold=hold)
            return queue, tables, tables
        return self._swap_queue(change)


__all__ = ["KEEP_ENDED", "TableRules", "new_table_id"]
