"""Register a new user: one field, restricted to the characters a name may hold (SPEC §2)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.geometry import Size
from textual.message import Message
from textual.widgets import Input, Static

from ..domain.users import MAX_NAME, NameRejected
from ..widgets.footer import Footer
from .base import WomScreen

NAME_PATTERN = r"[A-Za-z0-9 ._\-]*"
"""What the field accepts as it is typed or pasted; the domain makes the final decision."""

NAME_RULE = f"1–{MAX_NAME} characters: A–Z, a–z, 0–9, space, - _ ."
REFUSED_KEY = "A name may use only A–Z, a–z, 0–9, space, - _ ."
TOO_LONG = f"A name can be at most {MAX_NAME} characters long."


class NameInput(Input):
    """An Input that only takes name characters and says so when a key or a paste is refused."""

    class Refused(Message):
        """A typed or pasted character was not allowed, or the name would be too long."""

    def restricted(self) -> None:
        self.post_message(self.Refused())

    def _watch_value(self, value: str) -> None:
        # Textual's Input stores the text's width in ``virtual_size``, a layout reactive, so every key
        # re-lays the whole screen (footer and all: most of a key's CPU time over SSH). The field's
        # size never depends on its text, so set it quietly and let the field repaint itself alone.
        self.set_reactive(Input.virtual_size, Size(self.content_width, 1))
        self.refresh()
        super()._watch_value(value)


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
        try:
            user = self.wom.store.register(name)
        except NameRejected as refusal:
            self._say(refusal.reason, "error")
            return
        except StoreError as error:
            self.wom.show_store_error(error)
            return
        self._say(Content.from_markup("Welcome, $name!", name=user.name), "success")
        event.input.clear()
