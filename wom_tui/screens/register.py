"""Register a new user: one field; a name that breaks a rule is refused with the reason (docs/play.md).

Nothing typed or pasted is trimmed or filtered out: the field shows exactly what the person gave,
warns as soon as it breaks a rule, and Enter registers it only if the domain accepts it.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Input, Static

from ..domain.keys import KeyRejected
from ..domain.users import EDGE_SPACE, MAX_NAME, NO_NAME, NameRejected, check_name
from ..patches.footer import Footer
from ..widgets.line_input import LineInput
from .base import WomScreen

NAME_RULE = f"1–{MAX_NAME} characters: A–Z, a–z, 0–9, space, - _ ."
GUESTS_CANNOT_REGISTER = (
    "Guests play without a name and earn no points. To register a name, connect with an SSH key "
    "(ssh-keygen -t ed25519 makes one)."
)
BROWSER_GUESTS_CANNOT_REGISTER = (
    "Guests play without a name and earn no points. A name is registered over SSH, with a key; then "
    "Sign in a browser there (b) gives a one-time code to type at /signin."
)
PASTE_REFUSED = "A name cannot hold tabs, line breaks or control characters; nothing was pasted."


class NameInput(LineInput):
    """An Input for a name: a paste holding control characters or line breaks is refused whole."""

    class Refused(Message):
        """A paste was refused; ``reason`` says why."""

        def __init__(self, reason: str) -> None:
            super().__init__()
            self.reason = reason

    def _on_paste(self, event: events.Paste) -> None:
        # Input would keep only the first line, and control characters are never part of a name.
        # Textual then runs Input's own paste handler, unless this one prevents it.
        if any(not character.isprintable() for character in event.text):
            event.stop()
            event.prevent_default()
            self.post_message(self.Refused(PASTE_REFUSED))



class RegisterScreen(WomScreen):
    """What is the name of the new user? — then "Welcome, Alan!" or the domain's reason."""

    def compose(self) -> ComposeResult:
        with Vertical(id="register-box", classes="panel"):
            yield Static(Text("Register a new user"), classes="panel-title")
            yield Static(Text("What is the name of the new user?"), id="register-question")
            yield NameInput(placeholder="Name", id="register-name")
            yield Static(Text(NAME_RULE), id="register-rule")
            yield Static("", id="register-result")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(NameInput).focus()
        if self.wom.identity.is_guest:
            self._say(self._guests_cannot_register(), "warning")

    def _served_refusal(self) -> str | None:
        """Over SSH a name is bound to the key you came with: guests and keys that hold a name cannot register."""
        identity = self.wom.identity
        if identity.may_register:
            return None
        if identity.is_guest:
            return self._guests_cannot_register()
        if identity.browser:
            return f"This browser is signed in as {identity.name}: names are registered over SSH, with a key."
        return f"This key already signs in as {identity.name}: one key holds one name."

    def _guests_cannot_register(self) -> str:
        """Why a guest cannot register, in the words of the door they came by."""
        return BROWSER_GUESTS_CANNOT_REGISTER if self.wom.options.transport == "web" else GUESTS_CANNOT_REGISTER

    def _say(self, content: Content | str, kind: str) -> None:
        result = self.query_one("#register-result", Static)
        shown = result.content
        if isinstance(content, str) and isinstance(shown, (str, Content)) and str(shown) == content:
            if result.classes == {f"-{kind}"}:
                return  # each key says something, mostly the same nothing: an update would re-lay the screen
        result.set_classes(f"-{kind}")
        result.update(content if isinstance(content, Content) else Content(content))

    def on_name_input_refused(self, message: NameInput.Refused) -> None:
        message.stop()
        self._say(message.reason, "warning")

    def on_input_changed(self, event: Input.Changed) -> None:
        """Warn while typing when the name already breaks a rule (not for a space still being typed)."""
        event.stop()
        if event.value == "":
            return  # cleared after a welcome, or erased: keep what was said
        try:
            check_name(event.value)
        except NameRejected as refusal:
            if refusal.reason not in (NO_NAME, EDGE_SPACE):
                self._say(refusal.reason, "warning")
                return
        self._say("", "info")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        name = event.value
        refusal_reason = self._served_refusal()
        if refusal_reason is not None:
            self._say(refusal_reason, "error")
            event.input.select_all()
            return
        try:
            user = self.wom.register_user(name)
        except (NameRejected, KeyRejected) as refusal:
            self._say(refusal.reason, "error")
            # A refused name stays to be corrected, selected so that typing a new one replaces it.
            event.input.select_all()
            return
        if user is None:
            return  # the store failed: its error screen is on show
        if self.wom.identity.served:
            self.wom.sign_in(user.name)
            welcome = Content.from_markup("Welcome, $name! This key now signs in as $name.", name=user.name)
        else:
            welcome = Content.from_markup("Welcome, $name!", name=user.name)
        self._say(welcome, "success")
        event.input.clear()
