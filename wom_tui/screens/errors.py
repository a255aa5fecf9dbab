"""The store-error screen: which data file was refused and why, in plain text."""

from __future__ import annotations

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


class StoreErrorScreen(Screen[None]):
    """Says which file the store refused and why; the file is kept as it is.

    r asks the store again (and goes back if the file is readable now), Esc goes back, q quits.
    """

    BINDINGS = [
        Binding("r", "retry", "Try again"),
        Binding("q", "app.quit", "Quit"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self, error: StoreError) -> None:
        super().__init__()
        self.error = error

    def compose(self) -> ComposeResult:
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
            self.query_one("#error-path", Static).update(Text(str(error.path)))
            self.query_one("#error-reason", Static).update(Text(str(error.reason)))
            self.notify("Still unreadable.", severity="error")
            return
        self.dismiss()
