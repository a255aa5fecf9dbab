"""The Textual app: builds nothing of the domain itself, it receives the store, RNG and options."""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import os
import random
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from textual import events
from textual.app import SystemCommand
from textual.binding import Binding
from textual.driver import Driver
from textual.notifications import Notify
from textual.screen import Screen

from .domain.identity import Identity
from .modes import BY_NAME, MODES
from .patches.cursor import FocusCursor
from .patches.key_queue import KeyQueue
from .settings import IDLE_STATUS, OUT_OF_MEMORY, OUT_OF_MEMORY_STATUS, Settings
from .paths import stylesheets
from .widgets.messages import MessageHistory
from .widgets.themes import THEMES

if TYPE_CHECKING:
    from .domain.moderation import Broadcast
    from .domain.users import User
    from .domain.records import GameRecord
    from .domain.store import Store, StoreError
    from .screens.host import WomHost

VIEWS: dict[str, tuple[str, str]] = {
    "stats": ("wom_tui.screens.stats", "StatsScreen"),
    "replays": ("wom_tui.screens.replay", "ReplaysScreen"),
    "daily": ("wom_tui.screens.daily", "DailyScreen"),
}
"""Screens that are not game modes, opened by name (module and class), imported when first needed."""
TABLE_WATCH = 2.0
"""Seconds between two looks, in a served game, at the seat its player holds at a table (``_watch_table``)."""

T = TypeVar("T")

GOODBYE = "Thank you for playing the World of Mastermind!"
"""Said when the player quits."""

SERVED_APOLOGY = "Sorry, something went wrong in the game and it had to stop. Please connect again."

after_first_paint: Callable[[], None] | None = None
"""Called once when the first screen is on show (set in a game forked by ``serve``'s warm parent, which
then lets the next waiting game start)."""


RATINGS_FRESH = 30.0
"""Seconds quick match keeps the rating book it read (a rating changes only when a game is recorded)."""


class WomApp(FocusCursor[int], KeyQueue[int]):
    """World of Mastermind: the main menu and every screen pushed from it.

    Screens reach the domain through ``app.store``, ``app.rng`` (the one seeded source of
    randomness), ``app.options`` (data_dir, seed, debug, served, computer_pace) and
    ``app.identity`` (who is playing: local, a served key and its name, or a guest).
    """

    TITLE = "World of Mastermind"
    CSS_PATH = [str(path) for path in stylesheets()]
    BINDINGS = [
        Binding("f1", "help", "Help", key_display="F1"),
        Binding("question_mark", "help", "Help", show=False),
        Binding("f8", "messages", "Messages", key_display="F8", show=False),
    ]

    _restoring_theme: str | None = None
    """A theme being put back from the store (not to be written back as a new choice)."""

    def __init__(self, store: Store, rng: random.Random, options: Settings, identity: Identity | None = None) -> None:
        super().__init__()
        self.store = store
        self.rng = rng
        self.options = options
        self.identity = identity if identity is not None else Identity.local()
        """Who is playing; over SSH only what the server verified (see :class:`Identity`)."""
        self.wrong_link_codes = 0
        """Wrong one-time codes typed in this session (the link screen stops asking after a few)."""
        self.broadcast: Broadcast | None = None
        """The operator's line shown on every screen (docs/play.md), or None."""
        self.broadcast_hidden: Broadcast | None = None
        """The line the player clicked away (until another comes)."""
        self.report_operator: Callable[..., None] = _log_operator
        """Tells the server an operator's act (a served game: the log pipe; locally: the log)."""
        self.report_seat: Callable[[bool], None] | None = None
        """Tells the server whether this session holds a seat at a table (a served game: the log pipe): only
        then does its connection's drop wait for it (docs/serve.md, *In a browser*)."""
        self._at_table = False
        self._awaited: tuple[object, float] | None = None
        """The move the table waits for from this player, and since when (the idle check at a table)."""
        self._table_watch: Any = None
        """The timer of :meth:`_watch_table`, running while a table's screen is open (served only)."""
        self.message_history = MessageHistory()
        """Every notice this session showed, to read again (F8, the Messages screen)."""
        self.cursor_shown = True
        """The player's choice: the terminal cursor shown on the focused widget (``Terminal cursor`` in the
        palette; remembered per identity)."""
        for theme in THEMES:
            self.register_theme(theme)

    async def on_event(self, event: events.Event) -> None:
        """A paste the server cut at ``max_paste`` (serve/throttle.py) arrives whole up to the cut: say so."""
        if isinstance(event, events.Paste) and self.options.served \
                and len(event.text.encode("utf-8", "replace")) >= self.options.max_paste - 3:
            self.notify(f"That paste was cut at {self.options.max_paste // 1024} KiB: the rest was dropped.",
                        title="Paste too long", severity="warning", markup=False)
        await super().on_event(event)

    def get_driver_class(self) -> type[Driver]:
        """Textual's terminal driver for this platform, but on Linux and macOS one whose input thread sleeps
        while nobody types (:mod:`wom_tui.patches.driver`, on the Textual it was measured on);
        ``TEXTUAL_DRIVER`` still chooses another.
        """
        chosen = super().get_driver_class()
        if sys.platform != "win32":
            from textual.drivers.linux_driver import LinuxDriver

            if chosen is LinuxDriver:
                from .patches import driver
                from .patches.versions import measured

                if measured("patches.driver", driver.MEASURED_ON):
                    return driver.QuietDriver
        return chosen

    def get_default_screen(self) -> Screen[Any]:
        from .screens.menu import MenuScreen

        return MenuScreen()

    quick_wait: Any = None
    """The quick-match wait kept off its screen (screens/quick_match.py's WaitingElsewhere), if any."""

    def on_mount(self) -> None:
        self.screen_change_signal.subscribe(self, self._badge)
        self.app_resume_signal.subscribe(self, lambda _app: self.cursor_reset())
        if self.identity.served:
            self.sub_title = self.identity.label
            self._badge(self.screen)
        self.screen_change_signal.subscribe(self, self._screen_shown)
        if self.check_store():
            self._restore_theme()
            from .screens.solo_resume import offer_resume

            # A solo game left by a crash or a dropped connection, offered over the menu once it is drawn.
            self.call_after_refresh(offer_resume, self)
        self.theme_changed_signal.subscribe(self, self._remember_theme)
        self.call_after_refresh(self._import_screens_soon)

    def _watch_table(self) -> None:
        """A served game, every few seconds: tell the server when this player sits down at a table or stops
        holding a seat there, and end the game as idle (:data:`~wom_tui.settings.IDLE_STATUS`) when the table
        has waited the idle timeout for a move of theirs (their code, their guess) that never came: keys that
        change nothing at a table do not keep a session open (docs/serve.md, *Idle sessions*).
        """
        from .domain.table import holds_seat, move_awaited
        from .screens.live_table import LiveTableScreen

        table = next((screen for screen in reversed(self.screen_stack) if isinstance(screen, LiveTableScreen)), None)
        view = table.view if table is not None else None
        seated = holds_seat(view)
        if seated != self._at_table:
            self._at_table = seated
            if self.report_seat is not None:
                self.report_seat(seated)
        if table is None and self._table_watch is not None:
            self._table_watch.stop()  # no table's screen: nothing to watch until one opens (_screen_shown)
            self._table_watch = None
        awaited = move_awaited(view)
        now = time.monotonic()
        if awaited is None:
            self._awaited = None
        elif self._awaited is None or self._awaited[0] != awaited:
            self._awaited = (awaited, now)
        elif 0 < self.options.idle_timeout <= now - self._awaited[1]:
            self.exit(return_code=IDLE_STATUS)

    def _hung_up(self, together: Any) -> None:
        """SIGHUP: the player's connection is gone. Part the session (one unlink), then end the game."""
        from .domain.store import StoreError

        with contextlib.suppress(StoreError, OSError):
            self.store.live.part(together.session)
        self.exit(return_code=128 + signal.SIGHUP)  # as the shell reports a hang-up

    def _import_screens_soon(self) -> None:
        """Once the menu is painted: say so to ``serve``'s warm parent (:data:`after_first_paint`), start
        this session's presence (its heartbeat shows it online; it
        needs the game's rules, and their solvers need numpy: not before the first paint), then import
        the other screens in the background (each first paint then only builds its screen). Served
        games were forked with everything imported already.
        """
        global after_first_paint
        started, after_first_paint = after_first_paint, None
        try:
            if started is not None:
                started()
            from .screens.together import together_of

            together = together_of(self)  # one presence per app session (unless a screen already started it)
            together.show_screen(self._screen_name())
            from .screens.seat_waiting import offer_seat

            offer_seat(self)  # back mid-game: the seat waiting at a table is offered over the menu
            from .screens.notices import start_notices
            from .settings import NO_NOTICES_ENV

            if not os.environ.get(NO_NOTICES_ENV):  # (set only by bench/notices.py, to measure the watcher)
                self.notices = start_notices(self)  # invitations and "your move" reach any screen
            if self.options.served:
                # The connection dropped (the server sends SIGHUP): leave the lobby at once, so that the
                # others see this player's seat away now rather than when the heartbeat goes stale.
                with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                    loop = asyncio.get_running_loop()
                    loop.add_signal_handler(signal.SIGHUP, self._hung_up, together)
                    # The operator's broadcast changed (serve/moderation.py): read it again.
                    loop.add_signal_handler(signal.SIGUSR1, self.read_broadcast)
            self.read_broadcast()
            self._read_cursor_choice()
        finally:
            # Whatever happened above: this thread also turns the garbage collector back on.
            threading.Thread(target=_import_screens_and_freeze, name="wom-import-screens", daemon=True).start()
        if _css_cache_file is not None:
            self.screen_change_signal.subscribe(self, lambda _screen: self.set_timer(KEEP_CSS_AFTER, _keep_parsed_css))

    # -- what an operator sees, and what they say to everyone (docs/serve.md, *The Operator screen*) --

    def _screen_name(self) -> str:
        """The screen this session shows, as the Operator screen lists it (a dialog: the screen under it)."""
        from textual.screen import ModalScreen

        from .domain.presence import screen_label

        for screen in reversed(self.screen_stack):
            if not isinstance(screen, ModalScreen):
                return screen_label(type(screen).__name__)
        return ""

    def _screen_shown(self, screen: Screen[Any]) -> None:
        if self.options.served and self._table_watch is None:
            from .screens.live_table import LiveTableScreen

            if isinstance(screen, LiveTableScreen):
                idle = self.options.idle_timeout
                self._table_watch = self.set_interval(min(TABLE_WATCH, idle / 4) if idle > 0 else TABLE_WATCH,
                                                      self._watch_table)
        together = getattr(self, "together", None)
        if together is not None:
            together.show_screen(self._screen_name())
        self._show_broadcast_on(screen)

    @property
    def is_operator(self) -> bool:
        """True for a served session the SSH server signed in with an ``--operator-key`` key."""
        return bool(self.options.served and self.options.operator and self.identity.fingerprint is not None)

    def action_operator(self) -> None:
        """The Operator screen (who is online, kick, ban, retire, the broadcast line); nothing for anyone else."""
        if not self.is_operator:
            return
        from .screens.operator import OperatorScreen

        if not any(isinstance(screen, OperatorScreen) for screen in self.screen_stack):
            self.push_screen(OperatorScreen())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The operator's action exists only for an operator (a key, the palette, a burst of keys)."""
        if action == "operator" and not self.is_operator:
            return False
        return super().check_action(action, parameters)

    def read_broadcast(self) -> None:
        """Read the operator's broadcast from the store (in a thread) and show it on every screen."""
        from .domain.store import StoreError

        def read() -> None:
            try:
                found = self.store.broadcast()
            except (StoreError, OSError):
                return  # shown at the next change, or never: a comfort, not the game
            self.call_from_thread(self.show_broadcast, found)

        threading.Thread(target=read, name="wom-broadcast", daemon=True).start()

    def show_broadcast(self, broadcast: Broadcast | None) -> None:
        """Show ``broadcast`` on every open screen (None: take it away)."""
        if broadcast == self.broadcast:
            return
        self.broadcast = broadcast
        if broadcast is not None:
            self.keep_message(broadcast.text, title="Operator", kind="broadcast")
        for screen in self.screen_stack:
            self._show_broadcast_on(screen)

    def hide_broadcast(self) -> None:
        """The player clicked the line away: hidden until the operator says something else."""
        self.broadcast_hidden = self.broadcast
        for screen in self.screen_stack:
            self._show_broadcast_on(screen)

    def _show_broadcast_on(self, screen: Screen[Any]) -> None:
        from .widgets.broadcast import BroadcastLine
        from .widgets.whoami import WhoAmI

        shown = self.broadcast if self.broadcast != self.broadcast_hidden else None
        found = screen.query(BroadcastLine)
        if shown is None:
            if found:
                found.remove()
                for badge in screen.query(WhoAmI):
                    badge.styles.offset = (0, 0)  # back on the top line (it was under the broadcast)
            return
        if found:
            found.first().show(shown.text)
            return
        if not screen.styles.layers:
            screen.styles.layers = "default whoami"  # Textual types the tuple form as a 1-tuple
        line = BroadcastLine()
        line.show(shown.text)
        screen.mount(line)

    # -- the messages history and the terminal cursor (docs/play.md, *Playing without seeing the screen*) --

    def on_notify(self, event: Notify) -> None:
        """Every toast (a screen's, the app's, a nudge, an invitation) is also kept in the messages history."""
        notification = event.notification
        text = notification.message
        if notification.markup:
            from textual.content import Content
            from textual.markup import MarkupError

            with contextlib.suppress(MarkupError):
                text = Content.from_markup(text).plain
        self.keep_message(text, title=notification.title, kind=notification.severity)

    def keep_message(self, text: str, *, title: str = "", kind: str = "information") -> None:
        """Keep one notice in the history (plain text), and show it on the Messages screen if it is open."""
        from .screens.messages import MessagesScreen

        said = self.message_history.add(text, title=title, kind=kind)
        if self.screen_stack and isinstance(self.screen_stack[-1], MessagesScreen):
            self.screen_stack[-1].added(said)

    def action_messages(self) -> None:
        """F8: the messages history, over any screen."""
        from .screens.messages import open_messages

        open_messages(self, self.message_history)

    def cursor_hidden(self) -> bool:
        """The terminal cursor is not shown when the player chose so, or the theme says
        ``terminal-cursor: hidden`` among its variables (it is still placed on the focus).
        """
        return not self.cursor_shown or self.current_theme.variables.get("terminal-cursor") == "hidden"

    def action_toggle_cursor(self) -> None:
        """Show or hide the terminal cursor on the focused widget; remembered per identity."""
        self.cursor_shown = not self.cursor_shown
        self.refresh_cursor()
        self.remember("display", {"cursor": "shown" if self.cursor_shown else "hidden"})
        self.notify("The terminal cursor follows the focus." if self.cursor_shown
                    else "The terminal cursor is hidden (it still follows the focus, for a screen reader).",
                    title="Terminal cursor", markup=False)

    # -- HAL9000's book: the fewest guesses on average, or never more than five (docs/play.md, *The computer players*)

    HAL_FORM = "hal"
    """Where this identity's choice of HAL9000's book is remembered (``{"book": "within_five"}`` or ``"optimal"``)."""
    _hal_within_five: bool | None = None

    @property
    def hal_within_five(self) -> bool:
        """HAL9000 plays its 5-guess book in the hot-seat games this player sets up (read once, then this session's)."""
        if self._hal_within_five is None:
            self._hal_within_five = self.remembered(self.HAL_FORM).get("book") == "within_five"
        return self._hal_within_five

    def action_hal_book(self) -> None:
        """Switch HAL9000's book between the optimum and the 5-guess one; remembered per identity."""
        self._hal_within_five = not self.hal_within_five
        self.remember(self.HAL_FORM, {"book": "within_five" if self._hal_within_five else "optimal"})
        self.notify("HAL9000 never needs more than 5 guesses now (on 4 × 6: 5,626 over every code)."
                    if self._hal_within_five else
                    "HAL9000 plays the fewest guesses on average now (on 4 × 6: 5,625; one code takes 6).",
                    title="HAL9000's play", markup=False)

    def _read_cursor_choice(self) -> None:
        """Read this identity's cursor choice (in a thread: a comfort, not worth the first screen's time)."""
        if self.identity.preference_key is None:
            return

        def read() -> None:
            if self.remembered("display").get("cursor") == "hidden":
                self.call_from_thread(self._hide_cursor)

        threading.Thread(target=read, name="wom-cursor-choice", daemon=True).start()

    def _hide_cursor(self) -> None:
        self.cursor_shown = False
        self.refresh_cursor()

    # -- the theme, remembered per identity ------------------------------------------------

    def _restore_theme(self) -> None:
        from .domain.store import StoreError

        key = self.identity.preference_key
        if key is None:
            return
        try:
            theme = self.store.theme(key)
        except StoreError as error:
            self.show_store_error(error)
            return
        if theme is not None and theme in self.available_themes and theme != self.theme:
            self._restoring_theme = theme
            self.theme = theme

    def _remember_theme(self, theme: Any) -> None:
        from .domain.store import StoreError

        name = getattr(theme, "name", None)
        if not isinstance(name, str) or name == getattr(self, "_restoring_theme", None):
            self._restoring_theme = None
            return
        key = self.identity.preference_key
        if key is None:
            return
        try:
            self.store.set_theme(key, name)
        except (StoreError, ValueError) as error:
            self.notify(f"The theme could not be remembered: {error}", severity="warning", markup=False)

    # -- the choices each setup form remembers, per identity (docs/play.md, *Remembered choices*) --

    def remembered(self, form: str) -> dict[str, Any]:
        """What this identity chose last on ``form`` (``{}`` for a guest, or if the store cannot say).

        The form checks every value it reads back and uses its default for one it does not offer.
        """
        from .domain.store import StoreError

        key = self.identity.preference_key
        if key is None:
            return {}
        try:
            return self.store.choices(key, form)
        except (StoreError, ValueError):
            return {}  # a comfort: the defaults are shown, and the game goes on

    def remember(self, form: str, values: dict[str, Any]) -> None:
        """Keep ``values`` as this identity's choices on ``form`` (nothing for a guest)."""
        from .domain.store import StoreError

        key = self.identity.preference_key
        if key is None:
            return
        try:
            self.store.set_choices(key, form, values)
        except (StoreError, ValueError) as error:
            self.notify(f"Your choices could not be remembered: {error}", severity="warning", markup=False)

    # -- who is playing --------------------------------------------------------------------

    def register_user(self, name: str) -> User | None:
        """Register ``name`` in the store, bound to the served key if there is one (over SSH a name belongs
        to the key that registered it); None if the store failed (its error screen is shown). A refused
        name or key (NameRejected, KeyRejected) is raised for the caller to say why.
        """
        return self.with_store(lambda: self.store.register(name, key=self.identity.fingerprint))

    def sign_in(self, name: str) -> None:
        """The served key now belongs to ``name`` (just registered or linked): show it everywhere."""
        self.identity = self.identity.signed_in_as(name)
        self.sub_title = self.identity.label
        from .widgets.whoami import WhoAmI

        for screen in self.screen_stack:
            for badge in screen.query(WhoAmI):
                badge.show(self._badge_label() or self.identity.label)

    def _badge_label(self) -> str | None:
        """The badge's words: who a served session is, and "in the queue" while a quick match is awaited
        off its screen (locally only that); None: no badge.
        """
        queued = self.quick_wait is not None
        if self.identity.served:
            return f"{self.identity.label} · in the queue" if queued else self.identity.label
        return "In the quick-match queue" if queued else None

    def _badge(self, screen: Screen[Any]) -> None:
        """Put the who-am-I badge on a screen (once): every served session's, and any while queued."""
        from .widgets.whoami import WhoAmI

        label = self._badge_label()
        found = screen.query(WhoAmI)
        if found:
            if label is None:
                found.remove()
            else:
                found.first().show(label)
            return
        if label is None:
            return
        if not screen.styles.layers:
            screen.styles.layers = "default whoami"  # Textual types the tuple form as a 1-tuple
        badge = WhoAmI(id="whoami")
        badge.show(label)
        screen.mount(badge)

    def show_queued(self, queued: bool) -> None:
        """The quick-match wait off its screen began or ended: the badge says so (or no longer)."""
        for screen in self.screen_stack:
            self._badge(screen)

    def action_leave_queue(self) -> None:
        """Stop waiting for a quick match (kept off its screen)."""
        if self.quick_wait is None:
            self.notify("You are not in the quick-match queue.", severity="warning")
            return
        self.quick_wait.leave()
        self.notify("You left the quick-match queue.", title="Quick match")

    # -- errors ----------------------------------------------------------------------------

    def _handle_exception(self, error: Exception) -> None:
        """A served player never sees a traceback: a short apology; the details go to the server's log."""
        if not self.options.served:
            super()._handle_exception(error)
            return
        from rich.text import Text

        if isinstance(error, MemoryError):
            # The served game's memory limit (launch.limit_game_memory): one line, and the player told why.
            logging.getLogger("wom_tui.session").error("the game reached its memory limit (%d MiB)",
                                                       self.options.game_memory_limit >> 20)
            self._return_code = OUT_OF_MEMORY_STATUS
            if self._exception is None:
                self._exception = error
                self._exception_event.set()
            self._exit_renderables.append(Text(OUT_OF_MEMORY))
            self._close_messages_no_wait()
            return
        logging.getLogger("wom_tui.session").error("the game failed", exc_info=error)
        self._return_code = 1
        if self._exception is None:
            self._exception = error
            self._exception_event.set()
        self._exit_renderables.append(Text(SERVED_APOLOGY))
        self._close_messages_no_wait()

    def panic(self, *renderables: Any) -> None:
        """Textual's way out on an unexpected error (its own input thread's failure, say): served, what it
        would print (a traceback with the server's paths) goes to the server's log, the player reads the apology.
        """
        if not self.options.served:
            super().panic(*renderables)
            return
        import io

        from rich.console import Console
        from rich.text import Text

        text = io.StringIO()
        console = Console(file=text, width=120, color_system=None, force_terminal=False, legacy_windows=False)
        for renderable in renderables:
            console.print(renderable)
        logging.getLogger("wom_tui.session").error("the game failed:\n%s", text.getvalue().rstrip())
        self._return_code = 1
        self._exit_renderables.append(Text(SERVED_APOLOGY))
        self._close_messages_no_wait()

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

    def with_store(
        self,
        action: Callable[[], T],
        *,
        on_error: Callable[[StoreError], object] | None = None,
        from_thread: bool = False,
    ) -> T | None:
        """Run ``action`` (a store call) and give its result; None if the store failed.

        The one place a screen's store failure is handled: the store-error screen is shown, or
        ``on_error`` is called with the failure instead (a screen that says it its own way, or lets it
        pass). Call from the event loop, or from a worker thread with ``from_thread``. A refusal that is
        not a store failure (a rejected name or key, a daily code already played) is raised as it was.
        """
        from .domain.store import StoreError

        try:
            return action()
        except StoreError as error:
            if on_error is not None:
                on_error(error)
            elif from_thread:
                self.call_from_thread(self.show_store_error, error)
            else:
                self.show_store_error(error)
            return None

    def save_game(self, record: GameRecord, *, show_error: bool = True) -> Exception | None:
        """The one way a finished game of any mode is saved: None once saved, else the store's refusal.

        With ``show_error`` a refusal opens the store-error screen (call from the event loop); without it
        (from a worker thread) the caller shows the returned error where it belongs.
        """
        from .domain.store import StoreError

        try:
            self.store.record_game(record)
        except (StoreError, OSError, ValueError) as error:
            if show_error and isinstance(error, StoreError):
                self.show_store_error(error)
            return error
        return None

    def save_daily(self, record: GameRecord, day: str, puzzle: str, *, guesses: int, broke: bool) -> bool:
        """Save a finished daily game and close its attempt (the player is the record's): True once saved,
        False if the store failed (its error screen is shown); DailyRefused as the store raises it.
        """

        def save() -> bool:
            game_id = self.store.record_game(record)
            self.store.finish_daily(
                day, puzzle, record.players[0].name,
                finished_at=record.finished_at, guesses=guesses, broke=broke, game_id=game_id,
            )
            return True

        return self.with_store(save) is not None

    # -- screens -------------------------------------------------------------------------

    def action_mode(self, name: str) -> None:
        """Open the setup screen of the mode called ``name`` (see :data:`wom_tui.modes.MODES`)."""
        self.push_screen(BY_NAME[name].setup_screen())

    def action_menu(self) -> None:
        """Go back to the main menu, closing every screen above it; a game in progress asks first."""
        from .screens.base import WomScreen

        screen = self.screen
        if isinstance(screen, WomScreen) and screen.leaving_loses_progress():
            screen.action_back()
            return
        self.return_to_menu()

    def game_in_progress(self) -> bool:
        """True while any open screen holds a game that leaving would lose (under help, too)."""
        from .screens.base import WomScreen

        return any(isinstance(s, WomScreen) and s.leaving_loses_progress() for s in self.screen_stack)

    async def action_quit(self) -> None:
        """Quit with the goodbye; during a game ask first, as Esc does (ctrl+q again on the question quits)."""
        from .screens.confirm import QuitConfirmScreen

        if self._exit:
            return  # already quitting (two Enters on the menu's Quit): one goodbye, no "2 errors" note
        if isinstance(self.screen, QuitConfirmScreen) or not self.game_in_progress():
            self._forget_games()
            self.exit(message=self._goodbye)
            return

        def answered(quit_now: bool | None) -> None:
            if quit_now:
                self._forget_games()
                self.exit(message=self._goodbye)

        self.push_screen(QuitConfirmScreen(), answered)

    def _forget_games(self) -> None:
        """Quitting on purpose loses the game in progress: a solo game is not offered to resume."""
        from .screens.solo_game import SoloGameScreen
        from .screens.variant_game import VariantGameScreen

        for screen in self.screen_stack:
            if isinstance(screen, (SoloGameScreen, VariantGameScreen)):
                screen.forget_progress()

    def return_to_menu(self) -> None:
        """Close every screen above the main menu, without asking."""
        while len(self.screen_stack) > 1:
            self.pop_screen()

    @property
    def has_web_page(self) -> bool:
        """Whether this arcade serves its web page (``--web``, or a public ``--web-origin``): only then does
        a one-time code for a browser mean anything.
        """
        return bool(self.options.web or self.options.web_origin)

    @property
    def _goodbye(self) -> str | None:
        """The line printed as the game ends: none in a browser, whose stderr is the server's log (the page
        shows the server's goodbye instead, docs/serve.md).
        """
        return None if self.options.served and self.options.transport == "web" else GOODBYE

    def action_register(self) -> None:
        """Open the registration screen."""
        from .screens.register import RegisterScreen

        self.push_screen(RegisterScreen())

    def action_link_key(self) -> None:
        """Link another key to the signed-in name, or this key to a name (served sessions with a key)."""
        if self.identity.fingerprint is None:
            if self.identity.browser:
                self.notify("A browser has no SSH key: link keys from an SSH session.", title="Link a key")
            elif self.identity.served:
                self.notify("Guests have no key to link: connect with an SSH key.", title="Link a key")
            return
        from .screens.link import LinkKeyScreen

        self.push_screen(LinkKeyScreen())

    def action_browser_code(self) -> None:
        """Show a one-time code that signs a browser in as the signed-in player (docs/play.md)."""
        if not self.identity.served:
            self.notify("Playing locally nobody is signed in: `wom-tui users link-browser NAME` makes a code.",
                        title="Sign in a browser")
            return
        if not self.identity.signed_in:
            self.notify("Sign in with a registered name first: a browser signs in as that name.",
                        title="Sign in a browser")
            return
        if not self.has_web_page:
            self.notify("This arcade has no web page (its server runs without --web): there is no browser to sign in.",
                        title="Sign in a browser")
            return
        from .screens.browser_code import BrowserCodeScreen

        self.push_screen(BrowserCodeScreen())

    def action_scoreboard(self) -> None:
        """Open the scoreboard (and hall of fame)."""
        from .screens.scoreboard import ScoreboardScreen

        self.push_screen(ScoreboardScreen())

    def open_view(self, name: str, *args: Any, **kwargs: Any) -> None:
        """Push the screen registered as ``name`` in :data:`VIEWS`, imported when first needed."""
        module_name, class_name = VIEWS[name]
        screen_class: Callable[..., Screen[Any]] = getattr(importlib.import_module(module_name), class_name)
        self.push_screen(screen_class(*args, **kwargs))

    _rating_book: tuple[float, Any] | None = None
    """The rating book quick match last read, and when (it is read again after RATINGS_FRESH seconds)."""

    def rating_of(self, name: str) -> float | None:
        """A player's shown rating for quick match (computers too; None: unrated, the scale's middle).

        Called from the queue's reading thread for every waiting player: the book is read once and kept
        for :data:`RATINGS_FRESH` seconds. A store that cannot be read leaves everyone unrated (the pairing
        then looks at who waits longest only).
        """
        from .domain.store import StoreError

        now = time.monotonic()
        if self._rating_book is None or now - self._rating_book[0] > RATINGS_FRESH:
            try:
                self._rating_book = (now, self.store.rating_book())
            except StoreError:
                return None
        rating = self._rating_book[1].rating(name)
        return None if rating is None else float(rating.value)

    bell_off = False
    """The palette's "Bell" turned the bell off for this session."""

    def action_toggle_bell(self) -> None:
        """Turn the bell for your moves off (or on again) for this session."""
        self.bell_off = not self.bell_off
        self.notify("The bell is off for this session." if self.bell_off else "The bell rings when it's your move.",
                    title="Bell", markup=False)

    def action_quick_match(self) -> None:
        """Quick match: wait for other players (or the computers) and play World of Mastermind now."""
        from .screens.quick_match import QuickMatchScreen

        self.push_screen(QuickMatchScreen())

    def action_arena(self) -> None:
        """Code Arena: the event on now (or the last one), its standings; join, pause, berserk."""
        from .screens.arena import ArenaScreen

        self.push_screen(ArenaScreen())

    def action_rush(self) -> None:
        """Rush: three minutes, code after code; a personal best."""
        from .screens.rush import RushScreen

        self.push_screen(RushScreen())

    def action_lobby(self) -> None:
        """Open the lobby: who is online, tables to sit at, play or watch (the data folder's)."""
        from .screens.lobby import LobbyScreen

        self.push_screen(LobbyScreen())

    def action_stats(self, player: str | None = None) -> None:
        """My stats (``player``: whose first; None starts on yours when signed in over SSH, else the latest
        game's player); any user's stats may be looked at.
        """
        self.open_view("stats", player if player is not None else self.identity.name)

    def action_replays(self, player: str | None = None) -> None:
        """Browse finished games and replay them guess by guess."""
        self.open_view("replays", player)

    def action_daily(self, player: str | None = None) -> None:
        """Today's daily code and its leaderboard. Over SSH the attempt is the signed-in key's (guests only
        watch the leaderboard); locally play stays trusting and the player is picked on the screen.
        """
        if self.identity.served:
            self.open_view("daily", self.identity.name, can_switch=False)
        else:
            self.open_view("daily", player)

    def action_help(self) -> None:
        """Show the rules and keys (not twice on top of each other)."""
        from .screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_command_palette(self) -> None:
        """Show the command palette (one that survives being closed while it still searches)."""
        from .patches.palette import WomCommandPalette

        if self.use_command_palette and not WomCommandPalette.is_open(self):  # type: ignore[arg-type]  # App[int] is an App
            self.push_screen(WomCommandPalette(id="--command-palette"))

    def action_screenshot(self, filename: str | None = None, path: str | None = None) -> None:
        """Screenshots write files where the app runs: never for an SSH client."""
        if self.options.served:
            return
        super().action_screenshot(filename, path)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The palette's commands: the main actions, then Textual's own minus Screenshot."""
        yield SystemCommand("Register", "Register a new user", self.action_register)
        yield SystemCommand("Scoreboard", "Show the scoreboard and the hall of fame", self.action_scoreboard)
        for mode in MODES:
            yield SystemCommand(mode.title, mode.description, lambda name=mode.name: self.action_mode(name))
        yield SystemCommand("My stats", "Games, wins, streaks and the guess chart", self.action_stats)
        yield SystemCommand("Replays", "Step through finished games guess by guess", self.action_replays)
        yield SystemCommand("Daily code", "One code a day for everyone, and its leaderboard", self.action_daily)
        yield SystemCommand("Lobby", "Play together: who is online, tables, watching", self.action_lobby)
        yield SystemCommand("Quick match", "Play World of Mastermind now: paired with players (or the computers)",
                            self.action_quick_match)
        if self.quick_wait is not None:
            yield SystemCommand("Leave the queue", "Stop waiting for a quick match", self.action_leave_queue)
        yield SystemCommand("Code Arena", "The arena event: join, berserk, live standings, the podium",
                            self.action_arena)
        yield SystemCommand("Rush", "Three minutes, code after code: beat your best", self.action_rush)
        yield SystemCommand("Bell", "Turn the bell for your moves off or on (this session)", self.action_toggle_bell)
        yield SystemCommand("Messages", "Every notice of this session, to read again (F8)", self.action_messages)
        yield SystemCommand("HAL9000's play", "Fewest guesses on average, or never more than 5 "
                            "(your World of Mastermind games; remembered)", self.action_hal_book)
        yield SystemCommand("Terminal cursor", "Show or hide the terminal cursor on the focus (for braille "
                            "displays and screen readers; remembered)", self.action_toggle_cursor)
        yield SystemCommand("Help", "Rules, feedback and keys", self.action_help)
        if self.is_operator:
            yield SystemCommand("Operator", "Who is online; kick, ban, retire; a line to everyone", self.action_operator)
        if self.identity.signed_in and self.has_web_page:
            yield SystemCommand("Sign in a browser", "A one-time code for this arcade's web page",
                                self.action_browser_code)
        yield SystemCommand("Main menu", "Go back to the main menu", self.action_menu)
        for command in super().get_system_commands(screen):
            if command.title != "Screenshot":
                yield command


def _log_operator(action: str, **fields: object) -> None:
    """An operator's act, logged where the app runs (a served game reports it to the server instead)."""
    logging.getLogger("wom_tui.operator").info("operator %s %s", action, fields)


def import_screens() -> None:
    """Import every screen and widget module now (in the background locally; the warm parent of
    ``serve`` before it forks, so that every game shares them).
    """
    import pkgutil

    from . import patches, screens, widgets

    for package in (screens, widgets, patches):
        for module in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
            try:
                importlib.import_module(module.name)
            except Exception:  # noqa: BLE001  (the screen's own open reports any real problem)
                return


KEEP_CSS_AFTER = 1.0
"""Seconds after a screen opens that the stylesheets it parsed are saved (if it parsed any), in a thread."""


def _keep_parsed_css() -> None:
    """Save the parsed stylesheets now in a thread, if new ones were parsed (a new kind of screen opened):
    an app ended by a signal rather than by quitting has no other moment to.
    """
    from .patches import parsed_css

    if _css_cache_file is not None and parsed_css.changed():
        threading.Thread(target=parsed_css.save, args=(_css_cache_file,), name="wom-keep-css", daemon=True).start()


def _import_screens_and_freeze() -> None:
    """Import every screen, then leave what was loaded so far (modules, classes: it lives as long as the
    app) out of the garbage collector's full passes, which would otherwise walk it again and again, and
    turn the collector back on (the entry point turns it off until the first screen is painted).
    """
    import gc

    try:
        import_screens()
        if _css_cache_file is not None:
            from .patches import parsed_css

            parsed_css.save(_css_cache_file)  # now, in case the app is killed rather than quit
    finally:
        gc.freeze()  # first: turned on with everything made since it was off still to walk, it would walk it
        gc.enable()


_css_cache_file: Path | None = None
"""Where a local run keeps its parsed stylesheets (:mod:`wom_tui.patches.parsed_css`)."""


def _load_parsed_css() -> Path | None:
    """Read back the stylesheets parsed at the last local run (:mod:`wom_tui.patches.parsed_css`); the file to
    save them to when the app ends (None if there is no cache folder).
    """
    import platformdirs

    from .patches import parsed_css

    try:
        folder = Path(platformdirs.user_cache_dir("wom-tui", appauthor=False))
    except Exception:  # noqa: BLE001  (no cache folder: parse as before)
        return None
    path = parsed_css.cache_file(folder)
    parsed_css.load(path)
    global _css_cache_file
    _css_cache_file = path
    return path


if TYPE_CHECKING:

    def _a_host(app: WomApp) -> WomHost:
        """The type checker's proof that the app is all that the screens take it for (:mod:`wom_tui.screens.host`)."""
        return app
