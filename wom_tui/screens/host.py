"""What the screens need of the app, as a type below them: the app satisfies it, no screen imports the app.

:class:`~wom_tui.app.WomApp` is the one host; a screen reaches it typed through ``WomScreen.wom``, and
the few functions that the app itself calls (resume a solo game, start the presence, start a game)
take a host.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from textual.notifications import SeverityLevel
from textual.screen import Screen

if TYPE_CHECKING:
    from ..domain.identity import Identity
    from ..domain.records import GameRecord
    from ..domain.store import Store, StoreError
    from ..domain.users import User
    from ..settings import Settings

T = TypeVar("T")


class WomHost(Protocol):
    """The app as the screens use it: the store, the one seeded RNG, the options, who is playing, and the
    app's one way to meet a store failure, save a game and open the shared screens.
    """

    @property
    def store(self) -> Store:
        """The store (data folder or database) the app was given."""

    @property
    def rng(self) -> random.Random:
        """The one seeded source of randomness."""

    @property
    def options(self) -> Settings:
        """The options the app was started with (data_dir, seed, debug, served, computer_pace)."""

    @property
    def identity(self) -> Identity:
        """Who is playing: local, a served key and its name, or a guest."""

    @property
    def has_web_page(self) -> bool:
        """Whether the arcade serves its web page (a browser can be signed in)."""

    wrong_link_codes: int
    """Wrong one-time codes typed in this session."""

    def hold_keys_for(self, screen: Screen[Any]) -> None:
        """Keys typed while ``screen`` is on show wait for its :meth:`keys_ready` (a few seconds at most)."""

    def keys_ready(self, screen: Screen[Any]) -> None:
        """``screen`` shows what it read first, or went: the keys held for it go on."""

    def with_store(
        self,
        action: Callable[[], T],
        *,
        on_error: Callable[[StoreError], object] | None = None,
        from_thread: bool = False,
    ) -> T | None:
        """Run a store call; None if the store failed (its error is shown, or passed to ``on_error``)."""

    def remembered(self, form: str) -> dict[str, Any]:
        """What this identity chose last on a setup form (``{}`` for a guest, or if nothing is kept)."""

    @property
    def hal_within_five(self) -> bool:
        """HAL9000 plays its 5-guess book in the games this player sets up (palette: *HAL9000's play*)."""

    def remember(self, form: str, values: dict[str, Any]) -> None:
        """Keep this identity's choices on a setup form (nothing for a guest)."""

    def show_store_error(self, error: StoreError) -> None:
        """Show which data file the store refused and why."""

    def save_game(self, record: GameRecord, *, show_error: bool = True) -> Exception | None:
        """Save a finished game: None once saved, else the store's refusal."""

    def save_daily(self, record: GameRecord, day: str, puzzle: str, *, guesses: int, broke: bool) -> bool:
        """Save a finished daily game and close its attempt: True once saved."""

    def register_user(self, name: str) -> User | None:
        """Register ``name`` (bound to the served key, if any); None if the store failed."""

    def sign_in(self, name: str) -> None:
        """The served key now belongs to ``name``: show it everywhere."""

    def rating_of(self, name: str) -> float | None:
        """A registered player's rating (None: unrated), for quick match's closeness."""

    def action_menu(self) -> None:
        """Go back to the main menu (a game in progress asks first)."""

    def action_scoreboard(self) -> None:
        """Open the scoreboard."""

    def action_stats(self, player: str | None = None) -> None:
        """Open the stats, on ``player`` first."""

    # Textual's App, the little of it that the functions taking a host use.

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               markup: bool = True) -> None:
        """Show a notification."""

    def push_screen(self, screen: Screen[Any], callback: Callable[[Any], None] | None = None) -> object:
        """Open ``screen`` on top; ``callback`` gets its result."""

    def run_worker(self, work: Coroutine[Any, Any, Any], name: str | None = "", group: str = "default", *,
                   exit_on_error: bool = True) -> object:
        """Run ``work`` in a worker of the app."""
