"""Coming back mid-game: the main menu says a seat is waiting at a game under way and offers it (Enter goes
back to the table, Esc stays on the menu). docs/play.md, *Playing together*. The rule (which seat is
waiting) is :func:`wom_tui.domain.table.waiting_seat`'s.
"""

from __future__ import annotations

import threading
from typing import Any

from ..domain.store import StoreError
from ..domain.table import SeatHolder, Table, waiting_seat
from .confirm import ConfirmScreen

WomApp = Any
"""The app (screens never import it): a screens.host.WomHost that also runs a thread's calls and shows screens."""


class SeatWaitingScreen(ConfirmScreen):
    """"You still have a seat at Alan's table": Enter (focused first) goes back, Esc or n stays."""

    AUTO_FOCUS = "#confirm-ok"

    def __init__(self, table: Table) -> None:
        super().__init__(
            f"You still have a seat at {table.creator.name}'s table.",
            "The game went on while you were away; your seat is kept for a while.",
            confirm_label="Go back",
            cancel_label="Menu",
            hint="Enter or y: go back · Esc or n: the menu",
        )
        self.table_id = table.table_id


def offer_seat(app: WomApp) -> None:
    """At arrival: if this person (signed in over SSH; locally, the player chosen last time) holds a seat at
    a game under way, say so over the menu and offer to go back. Read in a thread; a store that cannot
    say offers nothing (the lobby says it too).
    """
    name = app.identity.name
    if name is None and not app.identity.served:
        last = app.remembered("play-as").get("name")
        name = last if isinstance(last, str) and last else None
    if name is None:
        return
    from .together import together_of

    together = together_of(app)

    def look() -> None:
        try:
            person = SeatHolder(name, together.session, True)
            table = waiting_seat(app.store.live.tables().tables, person)
        except (StoreError, OSError, ValueError):
            return
        if table is not None:
            app.call_from_thread(_offer, app, table, name)

    threading.Thread(target=look, name="wom-seat-waiting", daemon=True).start()


def _offer(app: WomApp, table: Table, name: str) -> None:
    from .menu import MenuScreen

    if not isinstance(app.screen, MenuScreen):
        return  # already elsewhere (a key typed on arrival): the lobby says it there

    def answered(go_back: bool | None) -> None:
        if go_back:
            from .live_table import LiveTableScreen
            from .together import together_of

            together = together_of(app)
            if not app.identity.served:
                together.local_name = name  # sit as the person whose seat it is
            app.push_screen(LiveTableScreen(table.table_id))

    app.push_screen(SeatWaitingScreen(table), answered)


__all__ = ["SeatWaitingScreen", "offer_seat"]
