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

    Esc here confirms, so "Esc, Esc" leaves a game (docs/play.md, *World of Mastermind*); ``n`` or the stay
    button (focused first, so a stray Enter is harmless) cancel.
    """

    AUTO_FOCUS = "#confirm-cancel"
    BINDINGS = [
        Binding("escape", "confirm", "Leave"),
        Binding("y", "confirm", "Yes", show=False),
        Binding("n", "cancel", "Stay"),
    ]

    def __init__(
        self,
        question: str = "Leave this game?",
        detail: str = "Progress is lost.",
        *,
        confirm_label: str = "Leave",
        cancel_label: str = "Stay",
        hint: str = "Esc again to leave, n to stay.",
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
    """ctrl+q during a game: "Quit wom-tui?". ctrl+q again or *Quit* quits; Esc, ``n`` or *Stay* stay."""

    BINDINGS = [
        Binding("escape", "cancel", "Stay"),
        Binding("y", "confirm", "Yes", show=False),
        Binding("n", "cancel", "Stay"),
    ]

    def __init__(self) -> None:
        super().__init__(
            "Quit wom-tui?",
            "The game in progress is lost.",
            confirm_label="Quit",
            hint="ctrl+q again to quit, Esc or n to stay.",
        )


class AskScreen(ConfirmScreen):
    """Ask before dropping something, where Esc means "no" as it does everywhere but the leave dialog.

    Esc or ``n`` (or the stay button, focused first) cancel; ``y`` or the other button go ahead.
    """

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("y", "confirm", "Yes"),
        Binding("n", "cancel", "No", show=False),
    ]
