"""What reaches a player on any screen (docs/play.md, *A nudge when it's time*): an invitation, their code to
set once a table they sit at started, every seat filled at the table they opened. The lobby and a table say
these themselves; on every other screen (the menu, a solo game, a replay …) this watcher does, with the bell,
once per table and notice. What is said is :func:`wom_tui.domain.table.elsewhere_notice`'s.

It listens to the store's change feed (the process's one, shared with the live screens) and reads only the
tables a change names.
"""

from __future__ import annotations

import asyncio
from typing import Any

from ..domain.store import StoreError
from ..domain.table import SeatHolder, elsewhere_notice


class Notices:
    """One app session's watcher: :meth:`watch` runs as a worker for the session's life."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.said: set[tuple[str, str]] = set()
        """(table id, notice) already said: each once."""
        self.ready = asyncio.Event()
        """Set once the change feed reports every change to this watcher (tests wait on it)."""

    def _here(self) -> bool:
        """True while a live screen (the lobby, a table, the quick-match queue) is shown: it says these."""
        from .together import LiveScreen

        return isinstance(self.app.screen, LiveScreen)

    def _read(self, table_ids: frozenset[str], me: SeatHolder) -> list[tuple[str, str]]:
        live = self.app.store.live
        found: list[tuple[str, str]] = []
        for table_id in sorted(table_ids):
            try:
                table = live.table(table_id)
            except (StoreError, OSError, ValueError):
                continue
            if table is None:
                continue
            notice = elsewhere_notice(table, me)
            if notice is not None and getattr(self.app, "quick_wait", None) is not None \
                    and table.seat_of(me) is not None:
                self.said.add((table_id, notice))  # the quick match found: its wait says so (quick_match.py)
                continue
            if notice is not None:
                found.append((table_id, notice))
        return found

    async def watch(self) -> None:
        """Listen to the change feed until the app ends; nudge for what a changed table has for this player."""
        from .together import nudge_player, together_of

        feed = self.app.store.live.feed()
        async for change in feed.changes(asyncio.Event(), self.ready):
            if not change.tables or self._here():
                continue
            me = together_of(self.app).me()
            if me is None:
                continue
            live = self.app.store.live
            if all(live.at_hand(table_id) for table_id in change.tables):
                # The hub pushed these tables (or a data folder's file is a small read): read them here, not
                # after a thread hop per change (bench/notices.py: docs/perf/scale.md).
                notices = self._read(change.tables, me)
            else:
                notices = await asyncio.to_thread(self._read, change.tables, me)
            if self._here():
                continue
            for table_id, notice in notices:
                if (table_id, notice) not in self.said:
                    self.said.add((table_id, notice))
                    nudge_player(self.app, notice)


def start_notices(app: Any) -> Notices:
    """Start this session's watcher (from the app, once the menu is painted)."""
    notices = Notices(app)
    app.run_worker(notices.watch(), name="notices", group="notices", exit_on_error=False)
    return notices


__all__ = ["Notices", "start_notices"]
