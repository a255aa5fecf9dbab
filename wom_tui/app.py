"""The Textual app: builds nothing of the domain itself, it receives the store, RNG and options."""

from __future__ import annotations

import importlib
import random
import sys
import threading
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from .options import Options
from .paths import stylesheets
from .widgets.themes import THEMES

if TYPE_CHECKING:
    from .domain.store import Store, StoreError

SCREENS_BY_NAME: dict[str, tuple[str, str, str]] = {
    "wom": ("wom_tui.screens.wom", "WomSetupScreen", "World of Mastermind"),
    "solo": ("wom_tui.screens.solo", "SoloSetupScreen", "Solo game"),
}
"""Screens other parts provide, opened by name: module, class and title, imported when first needed."""


class WomApp(App[int]):
    """World of Mastermind: the main menu and every screen pushed from it.

    Screens reach the domain through ``app.store``, ``app.rng`` (the one seeded source of
    randomness) and ``app.options`` (data_dir, seed, debug, served, computer_pace).
    """

    TITLE = "World of Mastermind"
    CSS_PATH = [str(path) for path in stylesheets()]
    BINDINGS = [
        Binding("f1", "help", "Help", key_display="F1"),
        Binding("question_mark", "help", "Help", show=False),
    ]

    def __init__(self, store: Store, rng: random.Random, options: Options) -> None:
        super().__init__()
        self.store = store
        self.rng = rng
        self.options = options
        for theme in THEMES:
            self.register_theme(theme)

    def get_default_screen(self) -> Screen[Any]:
        from .screens.menu import MenuScreen

        return MenuScreen()

    def on_mount(self) -> None:
        self.check_store()
        self.call_after_refresh(self._import_screens_soon)

    def _import_screens_soon(self) -> None:
        """Once the menu is painted, import the other screens in the background (each first paint
        then only builds its screen). Served games were forked with everything imported already."""
        threading.Thread(target=_import_screens, name="wom-import-screens", daemon=True).start()

    # -- the store -------------------------------------------------------------------------

    def check_store(self) -> bool:
        """Ask the store to read its files; on a refusal show the store-error screen. True if fine."""
        from .domain.store import StoreError

        try:
            self.store.check()
        except StoreError as error:
            self.show_store_error(error)
            return False
        return True

    def show_store_error(self, error: StoreError) -> None:
        """Show which data file the store refused and why (plain text, never a traceback)."""
        from .screens.errors import StoreErrorScreen

        if isinstance(self.screen, StoreErrorScreen):
            return
        self.push_screen(StoreErrorScreen(error))

    # -- screens by name -------------------------------------------------------------------

    def open_screen(self, name: str, *args: Any, **kwargs: Any) -> bool:
        """Push the screen registered as ``name`` (see :data:`SCREENS_BY_NAME`); False if not built yet."""
        module_name, class_name, title = SCREENS_BY_NAME[name]
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name != module_name:
                raise
            self.notify("Coming soon.", title=title)
            return False
        screen_class: Callable[..., Screen[Any]] = getattr(module, class_name)
        self.push_screen(screen_class(*args, **kwargs))
        return True

    def action_menu(self) -> None:
        """Go back to the main menu, closing every screen above it; a game in progress asks first."""
        from .screens.base import WomScreen

        screen = self.screen
        if isinstance(screen, WomScreen) and screen.leaving_loses_progress():
            screen.action_back()
            return
        self.return_to_menu()

    def return_to_menu(self) -> None:
        """Close every screen above the main menu, without asking."""
        while len(self.screen_stack) > 1:
            self.pop_screen()

    def action_register(self) -> None:
        """Open the registration screen."""
        from .screens.register import RegisterScreen

        self.push_screen(RegisterScreen())

    def action_scoreboard(self) -> None:
        """Open the scoreboard (and hall of fame)."""
        from .screens.scoreboard import ScoreboardScreen

        self.push_screen(ScoreboardScreen())

    def action_play(self) -> None:
        """Set up a World of Mastermind game."""
        self.open_screen("wom")

    def action_solo(self) -> None:
        """Set up a solo game."""
        self.open_screen("solo")

    def action_help(self) -> None:
        """Show the rules and keys (not twice on top of each other)."""
        from .screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_screenshot(self, filename: str | None = None, path: str | None = None) -> None:
        """Screenshots write files where the app runs: never for an SSH client."""
        if self.options.served:
            return
        super().action_screenshot(filename, path)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The palette's commands: the main actions, then Textual's own minus Screenshot."""
        yield SystemCommand("Register", "Register a new user", self.action_register)
        yield SystemCommand("Scoreboard", "Show the scoreboard and the hall of fame", self.action_scoreboard)
        yield SystemCommand("Play World of Mastermind", "Set up a game for 2-4 players", self.action_play)
        yield SystemCommand("Solo game", "Break a code on your own", self.action_solo)
        yield SystemCommand("Help", "Rules, feedback and keys", self.action_help)
        yield SystemCommand("Main menu", "Go back to the main menu", self.action_menu)
        for command in super().get_system_commands(screen):
            if command.title != "Screenshot":
                yield command


def _import_screens() -> None:
    import pkgutil

    from . import screens

    for module in pkgutil.iter_modules(screens.__path__, screens.__name__ + "."):
        try:
            importlib.import_module(module.name)
        except Exception:  # noqa: BLE001  (the screen's own open reports any real problem)
            return


def run_app(options: Options, rng: random.Random) -> int:
    """Open the store in ``options.data_dir`` and run the app; return the exit status."""
    from .domain.store import Store, StoreError

    try:
        store = Store(options.data_dir)
    except StoreError as error:
        # Without a usable data folder there is no game to show; say which folder and why.
        print(f"wom-tui: cannot use the data folder: {error}", file=sys.stderr)
        return 1
    app = WomApp(store, rng, options)
    app.run()
    return app.return_code or 0
