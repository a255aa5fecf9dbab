"""Register a new user: one field, restricted to the characters a name may hold (SPEC §2)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Footer, Input, Static

from ..domain.keys import KeyRejected
from ..domain.users import MAX_NAME, NameRejected
from .base import WomScreen

NAME_PATTERN = r"[A-Za-z0-9 ._\-]*"
"""What the field accepts as it is typed or pasted; the domain makes the final decision."""

NAME_RULE = f"1–{MAX_NAME} characters: A–Z, a–z, 0–9, space, - _ ."
REFUSED_KEY = "A name may use only A–Z, a–z, 0–9, space, - _ ."
TOO_LONG = f"A name can be at most {MAX_NAME} characters long."
GUESTS_CANNOT_REGISTER = (
    "Guests play solo games and watch. To register a name, connect with an SSH key (ssh-keygen -t ed25519 makes one)."
)


class NameInput(Input):
    """An Input that only takes name characters and says so when a key or a paste is refused."""

    class Refused(Message):
        """A typed or pasted character was not allowed, or the name would be too long."""

    def restricted(self) -> None:
        self.post_message(self.Refused())


class RegisterScreen(WomScreen):
    """What is the name of the new user? — then "Welcome, Alan!" or the domain's reason."""

    def compose(self) -> ComposeResult:
        with Vertical(id="register-box", classes="panel"):
            yield Static(Text("Register a new user"), classes="panel-title")
            yield Static(Text("What is the name of the new user?"), id="register-question")
            yield NameInput(
                placeholder="Name",
                restrict=NAME_PATTERN,
                max_length=MAX_NAME,
                id="register-name",
            )
            yield Static(Text(NAME_RULE), id="register-rule")
            yield Static("", id="register-result")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(NameInput).focus()
        if self.wom.identity.is_guest:
            self._say(GUESTS_CANNOT_REGISTER, "warning")

    def _served_refusal(self) -> str | None:
        """Over SSH a name is bound to the key you came with: guests and keys that hold a name cannot register."""
        identity = self.wom.identity
        if identity.may_register:
            return None
        if identity.is_guest:
            return GUESTS_CANNOT_REGISTER
        return f"This key already signs in as {identity.name}: one key holds one name."

    def _say(self, content: Content | str, kind: str) -> None:
        result = self.query_one("#register-result", Static)
        result.set_classes(f"-{kind}")
        result.update(content if isinstance(content, Content) else Content(content))

    def on_name_input_refused(self, _message: NameInput.Refused) -> None:
        full = len(self.query_one(NameInput).value) >= MAX_NAME
        self._say(TOO_LONG if full else REFUSED_KEY, "warning")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        from ..domain.store import StoreError

        event.stop()
        name = event.value
        refusal_reason = self._served_refusal()
        if refusal_reason is not None:
            self._say(refusal_reason, "error")
            return
        try:
            user = self.wom.store.register(name, key=self.wom.identity.fingerprint)
        except (NameRejected, KeyRejected) as refusal:
            self._say(refusal.reason, "error")
            return
        except StoreError as error:
            self.wom.show_store_error(error)
            return
        if self.wom.identity.served:
            self.wom.sign_in(user.name)
            welcome = Content.from_markup("Welcome, $name! This key now signs in as $name.", name=user.name)
        else:
            welcome = Content.from_markup("Welcome, $name!", name=user.name)
        self._say(welcome, "success")
        event.input.clear()
