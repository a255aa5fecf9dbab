"""The main menu: register, scoreboard, play, solo, help, quit (seed 004's r / s / p / q)."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..widgets.footer import Footer
from ..widgets.pegs import STANDARD, current_scheme

TITLE_WORD = "MASTERMIND"
_TITLE_COLOURS = ("Red", "Orange", "Yellow", "Green", "Cyan", "Blue", "Violet", "Pink", "Red", "Orange")

MENU: tuple[tuple[str, str, str], ...] = (
    ("r", "register", "Register a new user"),
    ("s", "scoreboard", "Show the scoreboard"),
    ("p", "play", "Play World of Mastermind"),
    ("o", "solo", "Solo game"),
    ("?", "help", "Help: rules and keys"),
    ("q", "quit", "Quit"),
)
"""Key, app action and label of each menu entry, in order."""


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


class MenuScreen(Screen[None]):
    """The first screen: the title, a welcome, and the menu (keys, arrows + Enter, or mouse)."""

    BINDINGS = [
        Binding("r", "app.register", "Register"),
        Binding("s", "app.scoreboard", "Scores"),
        Binding("p", "app.play", "Play"),
        Binding("o", "app.solo", "Solo"),
        Binding("q", "app.quit", "Quit"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="menu-box"):
            yield Static(Text("W O R L D   O F"), id="menu-world")
            with Center():
                yield Static(title_pegs(), id="menu-title")
            yield Static(Text("Welcome to the World of Mastermind!"), id="menu-welcome")
            with Center():
                yield OptionList(*self._options(), id="menu-options")
        yield Footer()

    def _options(self) -> list[Option]:
        options = []
        for key, action, label in MENU:
            prompt = Text(end="")
            prompt.append(f" {key} ", style=Style(bold=True))
            prompt.append(f"  {label}")
            options.append(Option(prompt, id=action))
        return options

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, self._repaint_title)

    def _repaint_title(self, _theme: object) -> None:
        self.query_one("#menu-title", Static).update(title_pegs())

    async def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        await self.run_action(f"app.{event.option.id}")
