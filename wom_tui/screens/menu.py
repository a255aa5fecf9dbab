"""The main menu: register, scoreboard, play, solo, help, quit (docs/play.md, *How to play*)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, cast

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..modes import MODES
from ..patches.footer import Footer
from ..widgets.arena_countdown import ARENA_LOOK
from ..widgets.pegs import STANDARD, current_scheme
from ..patches.screens import OpenedOnce
from ..patches.state_classes import set_state_classes
from .host import WomHost

if TYPE_CHECKING:
    from ..domain.arena import Arena


TITLE_WORD = "MASTERMIND"
_TITLE_COLOURS = ("Red", "Orange", "Yellow", "Green", "Cyan", "Blue", "Violet", "Pink", "Red", "Orange")

MENU: tuple[tuple[str, str, str, str], ...] = (
    ("r", "register", "Register a new user", "Register"),
    ("s", "scoreboard", "Show the scoreboard", "Scores"),
    *((mode.key, mode.action, mode.title, mode.footer) for mode in MODES),
    ("l", "lobby", "Lobby: play together", "Lobby"),
    ("q", "quick_match", "Quick match: play now", ""),
    ("d", "daily", "Daily code", ""),
    ("u", "rush", "Rush: three minutes of codes", ""),
    ("m", "stats", "My stats", ""),
    ("v", "replays", "Replays", ""),
    ("?", "help", "Help: rules and keys", ""),
    ("x", "quit", "Quit", "Quit"),
)
"""Key, app action, label and footer label (none: not in the footer) of each menu entry, in order."""

MOTD_WIDTH = 54
"""The menu box's inner width (60 columns, less its border and padding): where the message of the day wraps."""


def title_pegs() -> Text:
    """The word MASTERMIND as a row of coloured pegs, each showing its letter."""
    scheme = current_scheme()
    text = Text(end="")
    for index, (letter, colour) in enumerate(zip(TITLE_WORD, _TITLE_COLOURS)):
        if index:
            text.append(" ")
        if scheme.plain:
            text.append(f" {letter} ", style=Style(bold=True, reverse=True))
        else:
            background, foreground = scheme.colours.get(colour, STANDARD.colours[colour])
            text.append(f" {letter} ", style=Style(bold=True, color=foreground, bgcolor=background))
    return text


class MenuScreen(OpenedOnce[None]):
    """The first screen: the title, a welcome, and the menu (keys, arrows + Enter, or mouse)."""

    VERTICAL_BREAKPOINTS = [(0, "-short"), (24, "-tall")]
    """Under 24 rows the welcome line and the box's padding give way, so every entry shows (x Quit too); a
    longer menu (served, signed in, a message of the day) sets its own from the rows it needs (:meth:`_fit`).
    """

    def __init__(self) -> None:
        self._fit()
        super().__init__()

    def _fit(self) -> None:
        """A menu taller than 80×24 allows (served and signed in, a message of the day, an arena on) sets its own
        breakpoints from the rows it needs: first the padding and the blank lines give way (``-snug``: every
        line of text stays), then the title and the welcome line too (``-packed``), then the box's bottom border
        (``-bare``: the top one stays, where the corner badge sits), last the served greeting (``-stripped``: the
        badge still says who you are; a long message of the day), so that every entry, Quit last, stays in view.
        A menu that fits 80×24 keeps the class's.
        """
        try:
            entries = len(self._entries())
            motd = getattr(getattr(self.app, "options", None), "motd", None)
        except Exception:  # noqa: BLE001  (no running app: the class's breakpoints)
            return
        motd_rows = -(-len(motd) // MOTD_WIDTH) + 1 if motd else 0
        greeting = 2 if self._served_key_or_guest() else 0
        tall = 1 + 2 + 2 + 1 + 1 + 3 + motd_rows + greeting + entries  # footer, border, padding, title, welcome
        if tall <= 24:
            self.VERTICAL_BREAKPOINTS = type(self).VERTICAL_BREAKPOINTS
            return
        snug = tall - 2 - 2 - (1 if motd else 0) - (1 if greeting else 0)
        packed = snug - 3  # the world line, the title and the welcome line
        bare = packed - 1  # the box's bottom border
        # Per menu (its entries and lines), so an instance attribute over the class's.
        self.VERTICAL_BREAKPOINTS = [(0, "-bare"), (packed, "-packed"), (snug, "-snug"), (tall, "-tall")]
        if greeting:
            self.VERTICAL_BREAKPOINTS.insert(0, (0, "-stripped"))
            self.VERTICAL_BREAKPOINTS[1] = (bare, "-bare")

    _LEVELS = ("-stripped", "-bare", "-packed", "-snug", "-short", "-tall")
    """Every class :meth:`_fit`'s breakpoints set."""

    def _refit(self) -> None:
        """:meth:`_fit` again (an entry came or went) and the classes for the terminal's height set at once."""
        self._fit()
        breakpoints = self.VERTICAL_BREAKPOINTS or []
        shown = set(self._get_breakpoint_classes(self.app.size.height, breakpoints))
        set_state_classes(self, {name: name in shown for name in self._LEVELS})

    BINDINGS = [
        *(Binding(key, f"app.{action}", footer, show=bool(footer)) for key, action, _, footer in MENU if key != "?"),
        Binding("k", "app.link_key", "Link key", show=False),
        Binding("b", "app.browser_code", "Sign in a browser", show=False),
        Binding("a", "app.operator", "Operator", show=False),
        Binding("c", "app.arena", "Code Arena", show=False),
    ]

    @property
    def FOOTER_AT_ONCE(self) -> bool:  # read by the Footer as a screen's setting
        """A served game's menu gets its footer's keys with its first layout: laid out again after its first
        paint, it would do that while the next player's game starts. Locally the menu paints sooner
        without them (they follow a frame later). See :class:`~wom_tui.patches.footer.Footer`.
        """
        return bool(getattr(self.app, "options", None) and self.host.options.served)

    @property
    def host(self) -> WomHost:
        """The app, typed as what a screen needs of it."""
        return cast("WomHost", self.app)

    _returning = False
    """Signed in when the menu first showed (the session began signed in): "Welcome back"."""

    def compose(self) -> ComposeResult:
        with Vertical(id="menu-box"):
            yield Static(Text("W O R L D   O F"), id="menu-world")
            with Center():
                yield Static(title_pegs(), id="menu-title")
            yield Static(Text("Welcome to the World of Mastermind!"), id="menu-welcome")
            motd = getattr(getattr(self.app, "options", None), "motd", None)
            if motd:
                yield Static(Text(motd), id="menu-motd")  # the operator's words are data, never markup
            if self._served_key_or_guest():
                self._returning = self.host.identity.signed_in
                yield Static(self._greeting(), id="menu-whoami")
            with Center():
                yield OptionList(*self._options(), id="menu-options")
        yield Footer()

    def _served_key_or_guest(self) -> bool:
        identity = getattr(self.app, "identity", None)
        return identity is not None and identity.served

    def _greeting(self) -> Text:
        """Who you are over SSH: welcome back, new key, or guest (a name is data, never markup)."""
        identity = self.host.identity
        if identity.name is not None:
            return Text(f"Welcome back, {identity.name}!" if self._returning else f"Signed in as {identity.name}.")
        if identity.fingerprint is not None:
            return Text("New here? Register a name (r) or link this key (k).")
        if self.host.options.transport == "web":
            return Text("Playing as a guest: no points or saved games. Sign in with a one-time code (/signin) "
                        "to play as yourself.")
        return Text("Playing as a guest: no points or saved games. Connect with an SSH key to register a name.")

    def _entries(self) -> list[tuple[str, str, str, str]]:
        entries = list(MENU)
        identity = getattr(self.app, "identity", None)
        if identity is not None and identity.fingerprint is not None:
            label = "Link another key" if identity.signed_in else "Link this key to your name"
            entries.insert(len(entries) - 2, ("k", "link_key", label, ""))
        if identity is not None and identity.served and identity.signed_in and self.host.has_web_page:
            entries.insert(len(entries) - 2, ("b", "browser_code", "Sign in a browser", ""))
        if getattr(self.app, "is_operator", False):
            entries.insert(len(entries) - 2, ("a", "operator", "Operator: who is online", ""))
        if self._arena_line is not None:
            entries.insert(len(entries) - 2, ("c", "arena", self._arena_line, ""))
        return entries

    # -- Code Arena: an entry with its countdown while one is upcoming or running (docs/play.md, *Code Arena*)

    _arena: Arena | None = None
    _arena_line: str | None = None

    def _arena_label(self) -> str | None:
        """``Code Arena: 12:30 left`` while an arena is upcoming or running, else None (with a message of the day
        too: the menu's lines give way for it, :meth:`_fit`).
        """
        arena = self._arena
        if arena is None:
            return None
        now = self.host.store.live.clock()
        return None if arena.phase(now) == "over" else arena.countdown(now)

    async def _read_arena(self) -> None:
        live = self.host.store.live
        try:
            self._arena = await asyncio.to_thread(live.arena)
        except Exception:  # noqa: BLE001  (the menu shows no arena rather than fail; the arena screen says why)
            self._arena = None
        self._show_arena()

    def _look_at_arena(self) -> None:
        # The method, not a coroutine made now: a read cancelled before it starts (exclusive, or the menu
        # closed before it mounted) would leave that coroutine never awaited (a RuntimeWarning).
        self.run_worker(self._read_arena, group="menu-arena",  # type: ignore[arg-type]  # (mypy solves Textual's ResultType to Never here)
                        exclusive=True, exit_on_error=False)

    def _show_arena(self) -> None:
        """Redraw the arena's entry (its countdown); add or take it away when an arena begins or ends."""
        label = self._arena_label()
        if not self.is_mounted or label == self._arena_line:
            return
        options = self.query_one("#menu-options", OptionList)
        if (label is None) != (self._arena_line is None):
            self._arena_line = label
            highlighted = options.highlighted
            options.set_options(self._options())
            options.highlighted = highlighted
            self._refit()
            return
        self._arena_line = label
        options.replace_option_prompt("arena", self._option_prompt("c", label or ""))

    def on_screen_resume(self) -> None:
        """Back at the menu: the greeting follows a registration or a link made meanwhile; the arena is read again."""
        if self.is_mounted and getattr(self.app, "store", None) is not None:
            self._look_at_arena()
        if self._served_key_or_guest():
            self.query_one("#menu-whoami", Static).update(self._greeting())
            options = self.query_one("#menu-options", OptionList)
            highlighted = options.highlighted
            options.set_options(self._options())
            options.highlighted = highlighted
            self._refit()  # an entry more or fewer (signed in meanwhile): the lines that give way follow

    def _options(self) -> list[Option]:
        return [Option(self._option_prompt(key, label), id=action) for key, action, label, _ in self._entries()]

    @staticmethod
    def _option_prompt(key: str, label: str) -> Text:
        prompt = Text(end="")
        prompt.append(f" {key} ", style=Style(bold=True))
        prompt.append(f"  {label}")
        return prompt

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, self._repaint_title)
        if getattr(self.app, "store", None) is not None:
            self._look_at_arena()
            self.set_interval(ARENA_LOOK, self._look_at_arena)
            self.set_interval(1.0, self._show_arena)

    def _repaint_title(self, _theme: object) -> None:
        self.query_one("#menu-title", Static).update(title_pegs())

    async def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        await self.run_action(f"app.{event.option.id}")
