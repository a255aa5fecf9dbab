"""ConfirmScreen: a small modal that asks before something is lost."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class ConfirmScreen(ModalScreen[bool]):
    """Ask a yes/no question; dismisses with True to go ahead, False to stay.

    One rule for every dialog (docs/play.md, *Keys*): Esc, ``n`` or the stay button (focused first, so a
    stray Enter is harmless) cancel and stay where you were; ``y`` or the other button go ahead.
    """

    AUTO_FOCUS = "#confirm-cancel"
    BINDINGS = [
        Binding("escape", "cancel", "Stay"),
        Binding("y", "confirm", "Yes"),
        Binding("n", "cancel", "No", show=False),
    ]

    def __init__(
        self,
        question: str = "Leave this game?",
        detail: str = "Progress is lost.",
        *,
        confirm_label: str = "Leave",
        cancel_label: str = "Stay",
        hint: str = "y: leave · Esc or n: stay",
    ) -> None:
        super().__init__(classes="confirm-screen")
        self.question = question
        self.detail = detail
        self.confirm_label = confirm_label
        self.cancel_label = cancel_label
        self.hint = hint

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-dialog"):
            yield Static(Text(self.question), id="confirm-question")
            yield Static(Text(self.detail), id="confirm-detail")
            yield Static(Text(self.hint), id="confirm-hint")
            with Horizontal(id="confirm-buttons"):
                yield Button(self.cancel_label, id="confirm-cancel", variant="primary")
                yield Button(self.confirm_label, id="confirm-ok", variant="error")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "confirm-ok")

    def action_confirm(self) -> None:
        """Go ahead (leave)."""
        self.dismiss(True)

    def action_cancel(self) -> None:
        """Stay where we were."""
        self.dismiss(False)


class QuitConfirmScreen(ConfirmScreen):
    """ctrl+q during a game: "Quit wom-tui?". ctrl+q again, ``y`` or *Quit* quit; Esc, ``n`` or *Stay* stay."""

    def __init__(self) -> None:
        super().__init__(
            "Quit wom-tui?",
            "The game in progress is lost.",
            confirm_label="Quit",
            hint="y or ctrl+q: quit · Esc or n: stay",
        )
