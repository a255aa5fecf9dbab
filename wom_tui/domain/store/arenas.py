"""Code Arena in a live store, written once for both backends (the rules: :mod:`wom_tui.domain.arena`).

Every arena is one document (its entrants and games), kept whole: the data folder's ``arena.json`` (those over in ``arenas/``) under the
store's lock, PostgreSQL's ``wom_arenas`` rows in one transaction. A backend supplies :meth:`ArenaKeeping.arenas`
and :meth:`ArenaKeeping._swap_arena` (its compare-and-swap of the newest arena, writing the tables a pairing opens
in the same lock or transaction); the rest is here.

:meth:`ArenaKeeping.arena_wave` is the pairing loop's one step (the server's hub runs it every
:data:`~wom_tui.domain.arena.PAIRING_INTERVAL` seconds, docs/arcade.md, *Code Arena*): the games under way are
brought up to date from their tables (a finished one scored, a table gone dropped), entrants no longer online
are paused, and whoever waits is paired into new two-seat tables.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TypeVar

from ..arena import OVER, PAIRING_INTERVAL, RUNNING, Arena, ArenaRefused, ArenaRules, arena_table, table_outcome
from ..presence import Presence
from ..table import CLOSED, COMPUTER_PACE, FINISHED, MAX_SEED, SEAT_GRACE, SeatHolder, Table
from .api import StoreError
from .tables import new_table_id

T = TypeVar("T")


class ArenaKeeping:
    """The arena's moves over a backend's :meth:`_swap_arena` (see the module)."""

    clock: Callable[[], float]

    def arenas(self) -> list[Arena]:  # pragma: no cover - supplied by the store
        """Every arena kept, oldest first."""
        raise NotImplementedError

    def _swap_arena(self, change: Callable[[Arena | None], tuple[Arena | None, list[Table], T]]) -> T:  # pragma: no cover
        """The store's compare-and-swap of the newest arena: ``change`` on it (None: none yet) returns the arena
        to keep (a new one's id is added after the others), the tables to open and the result; all in one lock
        or transaction.
        """
        raise NotImplementedError

    def table(self, table_id: str) -> Table | None:  # pragma: no cover - supplied by the store
        """The table as kept now (None if gone)."""
        raise NotImplementedError

    def tick(self, table_id: str) -> Table:  # pragma: no cover - supplied by TableRules
        """Bring one table up to date."""
        raise NotImplementedError

    def sessions(self) -> list[Presence]:  # pragma: no cover - supplied by the store
        """Sessions online now."""
        raise NotImplementedError

    def _still_there(self, table_id: str) -> bool:
        """Under the arena's lock: the table is kept and not closed (a pairing writes its tables under the same
        lock, after the arena: read outside it, a new table may not be there yet).
        """
        try:
            table = self.table(table_id)
        except StoreError:
            return False
        return table is not None and table.phase != CLOSED

    def arena(self) -> Arena | None:
        """The newest arena (upcoming, running or over), or None."""
        found = self.arenas()
        return found[-1] if found else None

    def start_arena(self, arena_id: str, minutes: int, rules: ArenaRules, *, starts_in: float = 0.0) -> Arena:
        """Keep a new arena starting ``starts_in`` seconds from now; :class:`.arena.ArenaRefused` if one is
        upcoming or running (one at a time).
        """
        now = self.clock()
        new = Arena(arena_id, now + starts_in, minutes, rules, last_pairing=now)

        def change(current: Arena | None) -> tuple[Arena | None, list[Table], Arena]:
            if current is not None and current.phase(now) != OVER:
                raise ArenaRefused(f"An arena is already on (it ends in {int(current.ends_at - now) // 60} min).")
            return new, [], new
        return self._swap_arena(change)

    def _on_current(self, act: Callable[[Arena, float], Arena]) -> Arena:
        now = self.clock()

        def change(current: Arena | None) -> tuple[Arena | None, list[Table], Arena]:
            if current is None:
                raise ArenaRefused("There is no arena on.")
            new = act(current, now)
            return new, [], new
        return self._swap_arena(change)

    def join_arena(self, holder: SeatHolder) -> Arena:
        """``holder`` joins the newest arena (or comes back); :class:`.arena.ArenaRefused` if it is over."""
        return self._on_current(lambda arena, now: arena.join(holder, now))

    def pause_arena(self, holder: SeatHolder) -> Arena:
        """``holder`` stops being paired (their score stays)."""
        return self._on_current(lambda arena, now: arena.pause(holder))

    def arena_berserk(self, holder: SeatHolder, on: bool) -> Arena:
        """``holder`` plays their next game berserk (half the clock), or not."""
        return self._on_current(lambda arena, now: arena.set_berserk(holder, on))

    def arena_wave(self, seed: int, *, interval: float = PAIRING_INTERVAL, grace: float = SEAT_GRACE,
                   pace: tuple[float, float] = COMPUTER_PACE) -> list[Table]:
        """One step of the pairing loop (see the module); the tables opened. Cheap when nothing is due."""
        current = self.arena()
        now = self.clock()
        if current is None or (current.phase(now) != RUNNING and not current.under_way):
            return []
        ended: dict[str, tuple[list[tuple[bool, int]], list[int]] | None] = {}
        for game in current.under_way:
            try:
                table = self.table(game.table_id)
                if table is not None and table.phase not in (FINISHED, CLOSED):
                    due = table.next_due()
                    if due is not None and due <= now:
                        table = self.tick(game.table_id)
            except (StoreError, LookupError):
                table = None
            if table is None or table.phase == CLOSED:
                ended[game.table_id] = None
            elif table.phase == FINISHED:
                ended[game.table_id] = table_outcome(table)
        online = {p.session for p in self.sessions()}
        gone = [e for e in current.entrants if e.waiting and not e.paused and e.holder.session not in online]
        if not ended and not gone and not current.pairing_due(now, interval):
            return []
        draw = random.Random(seed)

        def change(arena: Arena | None) -> tuple[Arena | None, list[Table], list[Table]]:
            if arena is None or arena.arena_id != current.arena_id:
                return arena, [], []
            for table_id, outcome in ended.items():
                if outcome is None and self._still_there(table_id):
                    continue  # read before the pairing that opened it had written it: it is there now
                arena = arena.drop_game(table_id, now) if outcome is None \
                    else arena.finish_game(table_id, outcome[0], outcome[1], now)
            for entrant in arena.entrants:
                if entrant.waiting and not entrant.paused and entrant.holder.session not in online:
                    arena = arena.pause(entrant.key)
            if not arena.pairing_due(now, interval):
                return arena, [], []
            rules, arena_id = arena.rules, arena.arena_id
            arena, tables = arena.pair(now, lambda a, b: arena_table(
                new_table_id(), a, b, rules, seed=draw.randrange(MAX_SEED), now=now, grace=grace, pace=pace,
                arena_id=arena_id))
            return arena, tables, tables
        return self._swap_arena(change)


__all__ = ["ArenaKeeping"]
