"""The store-error screen: which data file was refused and why, in plain text.

Locally it names the file (or the database) and the reason: the data is the player's own, on their own
machine, and they are the one who can repair it. A served player gets neither (the server's paths, the
database's host and port are the operator's business): only what they can do (try again, go back) and a
reference under which the details went to the server's log, to pass on to the operator.
"""

from __future__ import annotations

import logging
import os
import time
from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static

from ..patches.footer import Footer
from .host import WomHost

if TYPE_CHECKING:
    from ..domain.store import StoreError


SERVED_REASON = "The server cannot use the game's data just now."
SERVED_ADVICE = (
    "Press r to try again in a moment, or Esc to go back. If it keeps happening, tell the server's "
    "operator this reference:"
)


def log_for_operator(error: StoreError) -> str:
    """Log ``error`` in full (to the server's log, for a served game) and give its reference.

    The reference is the time and the game's process id, not a random draw: all randomness comes from the
    game's seeded source, and a store failure must not change the codes that follow it.
    """
    reference = f"E{time.strftime('%H%M%S')}-{os.getpid()}"
    logging.getLogger("wom_tui.session").error(
        "store error, reference %s: %s %s: %s", reference, getattr(error, "label", "File:"), error.path, error.reason
    )
    return reference


class StoreErrorScreen(Screen[None]):
    """Says which file the store refused and why; the file is kept as it is.

    r asks the store again (and goes back if the file is readable now), Esc goes back, x quits (as on the
    menu; q, which quit here before, still does: nothing else is on this screen).
    """

    BINDINGS = [
        Binding("r", "retry", "Try again"),
        Binding("x", "app.quit", "Quit"),
        Binding("q", "app.quit", "Quit", show=False),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self, error: StoreError) -> None:
        super().__init__()
        self.error = error

    @property
    def _served(self) -> bool:
        return bool(cast("WomHost", self.app).options.served)

    def compose(self) -> ComposeResult:
        if self._served:
            with Vertical(id="error-box"):
                yield Static(Text("The game's data could not be read"), id="error-title")
                yield Static(Text(SERVED_REASON), id="error-reason")
                yield Static(Text(SERVED_ADVICE), id="error-advice")
                yield Static(Text(log_for_operator(self.error), style="bold"), id="error-reference")
            yield Footer()
            return
        with Vertical(id="error-box"):
            yield Static(Text("The game's data could not be read"), id="error-title")
            yield Static(Text(getattr(self.error, "label", "File:")), classes="error-label")
            # Path and reason come from a file someone may have edited: plain Text, never markup.
            yield Static(Text(str(self.error.path)), id="error-path")
            yield Static(Text("Reason:"), classes="error-label")
            yield Static(Text(str(self.error.reason)), id="error-reason")
            yield Static(
                Text(
                    getattr(self.error, "advice", None)  # a database's error says what to do about it
                    or "The file has been left exactly as it is. Repair or move it away, "
                    "then press r to try again."
                ),
                id="error-advice",
            )
        yield Footer()

    def action_back(self) -> None:
        """Back to the screen below (anything needing the file will come back here)."""
        self.dismiss()

    def action_retry(self) -> None:
        """Ask the store again; back to where we were if the file is readable now."""
        from ..domain.store import StoreError

        try:
            cast("WomHost", self.app).store.check()
        except StoreError as error:
            self.error = error
            if self._served:
                self.query_one("#error-reference", Static).update(Text(log_for_operator(error), style="bold"))
                self.notify("Still unavailable.", severity="error")
                return
            self.query_one("#error-path", Static).update(Text(str(error.path)))
            self.query_one("#error-reason", Static).update(Text(str(error.reason)))
            self.notify("Still unreadable.", severity="error")
            return
        self.dismiss()
