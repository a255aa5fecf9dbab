"""Link another key (served sessions): a signed-in player gets a one-time code, the other key types it.

Signed in as Alan with key A, *Link another key* shows a code valid for 10 minutes and once.
Connected with key B (which holds no name yet), the same entry asks for that code; a right code
makes B sign in as Alan from then on. A wrong, used or expired code is refused and changes
nothing; after a few wrong codes this session stops asking.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input, Static

from ..patches.footer import Footer
from ..widgets.line_input import LineInput
from ..domain.keys import LINK_CODE_LIFETIME, KeyRejected
from .base import WomScreen

MAX_WRONG_CODES = 5
"""Wrong codes one session may type before the screen stops asking (connect again to retry)."""
CODE_PATTERN = r"[A-Za-z0-9 \-]*"


class LinkKeyScreen(WomScreen):
    """Show a one-time code (signed in) or take one (a key without a name)."""

    DEFAULT_CSS = """
    LinkKeyScreen { align: center middle; }
    #link-box { width: 64; max-width: 100%; height: auto; padding: 1 2; }
    #link-code { text-style: bold; text-align: center; width: 100%; margin: 1 0; }
    #link-result { margin-top: 1; }
    #link-result.-success { color: $success; }
    #link-result.-error { color: $error; }
    """

    def compose(self) -> ComposeResult:
        identity = self.wom.identity
        with Vertical(id="link-box", classes="panel"):
            if identity.signed_in:
                yield Static(Text("Link another key"), classes="panel-title")
                yield Static(Text("Connect with your other key, press k at the menu and type this code:"))
                yield Static("", id="link-code")
                minutes = int(LINK_CODE_LIFETIME.total_seconds() // 60)
                yield Static(Text(f"It works once, for {minutes} minutes. Anyone who has it can sign in as you."))
            else:
                yield Static(Text("Link this key to your name"), classes="panel-title")
                yield Static(Text("Type the one-time code shown by a session signed in with your other key:"))
                yield LineInput(placeholder="ABCD-EFGH", restrict=CODE_PATTERN, max_length=16, id="link-input")
            yield Static("", id="link-result")
        yield Footer()

    def on_mount(self) -> None:
        identity = self.wom.identity
        if identity.signed_in:
            assert identity.fingerprint is not None
            fingerprint = identity.fingerprint
            try:
                code = self.wom.with_store(lambda: self.wom.store.issue_link_code(fingerprint))
            except KeyRejected as refusal:
                self._say(refusal.reason, "error")
                return
            if code is None:
                return  # the store failed: its error screen is on show
            self.query_one("#link-code", Static).update(Text(code))
        else:
            self.query_one("#link-input", Input).focus()

    def _say(self, content: Content | str, kind: str) -> None:
        result = self.query_one("#link-result", Static)
        result.set_classes(f"-{kind}")
        result.update(content if isinstance(content, Content) else Content(content))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Redeem the typed code for this key."""
        event.stop()
        identity = self.wom.identity
        if identity.fingerprint is None or identity.signed_in or self.wom.wrong_link_codes >= MAX_WRONG_CODES:
            return
        fingerprint, typed = identity.fingerprint, event.value
        try:
            user = self.wom.with_store(lambda: self.wom.store.redeem_link_code(typed, fingerprint))
        except KeyRejected as refusal:
            self.wom.wrong_link_codes += 1
            if self.wom.wrong_link_codes >= MAX_WRONG_CODES:
                event.input.disabled = True
                self._say("Too many wrong codes. Connect again to try once more.", "error")
            else:
                self._say(refusal.reason, "error")
            return
        if user is None:
            return  # the store failed: its error screen is on show
        self.wom.sign_in(user.name)
        event.input.disabled = True
        self._say(Content.from_markup("Done: this key now signs in as $name.", name=user.name), "success")
