"""Sign in a browser (served sessions): a signed-in player gets a one-time code to type on the web page.

How it works: docs/play.md and docs/serve.md, *Who you are in a browser*. The code is valid for ten
minutes and once, and signs that browser in as this player for 30 days; ``n`` shows a new one (the
old one still works until it expires or is used: each is a separate code). The browser's side
(typing the code, the cookie) is the web server's (:mod:`wom_tui.serve.web_auth`).
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from ..domain.browser import BROWSER_CODE_LIFETIME, SESSION_LIFETIME, BrowserSignInRefused
from ..patches.footer import Footer
from .base import WomScreen


class BrowserCodeScreen(WomScreen):
    """Show a one-time code that signs a browser in as the signed-in player."""

    BINDINGS = [Binding("n", "new_code", "New code")]

    DEFAULT_CSS = """
    BrowserCodeScreen { align: center middle; }
    #browser-box { width: 64; max-width: 100%; height: auto; max-height: 100%; padding: 1 2; }
    #browser-code { text-style: bold; text-align: center; width: 100%; margin: 1 0; }
    #browser-result { margin-top: 1; }
    #browser-result.-error { color: $error; }
    """

    def compose(self) -> ComposeResult:
        minutes = int(BROWSER_CODE_LIFETIME.total_seconds() // 60)
        days = SESSION_LIFETIME.days
        with Vertical(id="browser-box", classes="panel"):
            yield Static(Text("Sign in a browser"), classes="panel-title")
            yield Static(Text(f"In the browser, open {self._signin_address()} and type this code:"))
            yield Static("", id="browser-code")
            yield Static(Text(f"It works once, for {minutes} minutes, and keeps that browser signed in as you "
                              f"for {days} days. Anyone who has it can sign in as you."), id="browser-note")
            yield Static("", id="browser-result")
        yield Footer()

    def _signin_address(self) -> str:
        """Where the browser types the code: the arcade's public page if the server has one, else its path."""
        settings = self.wom.options
        if settings.web_origin:
            return f"{settings.web_origin[0]}/signin"
        if settings.web:
            return f"http://{settings.web}/signin"
        return "the arcade's web page, /signin,"

    def on_mount(self) -> None:
        self.action_new_code()

    def action_new_code(self) -> None:
        """Show a fresh one-time code (any earlier one still works until used or expired)."""
        name = self.wom.identity.name
        result = self.query_one("#browser-result", Static)
        if name is None:
            result.set_classes("-error")
            result.update(Content("Only a signed-in player can sign a browser in."))
            return
        try:
            code = self.wom.with_store(lambda: self.wom.store.issue_browser_code(name))
        except BrowserSignInRefused as refusal:
            result.set_classes("-error")
            result.update(Content(refusal.reason))
            return
        if code is None:
            return  # the store failed: its error screen is on show
        self.query_one("#browser-code", Static).update(Text(code))
        result.set_classes("")
        result.update(Content.from_markup("For $name. Press n for another code.", name=name))
