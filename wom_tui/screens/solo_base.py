"""What the two solo play screens share.

The history table, the message log, the game-over panel,
starting again with the same setup, and leaving (asking first while a game is under way).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from textual import work
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.widgets import Button, DataTable, Static
from textual.worker import get_current_worker

from ..domain.codes import Ruleset
from ..domain.store import StoreError
from ..widgets.message_log import MessageLog
from ..widgets.solo_history import GuessInput, history_columns, roomy
from .base import WomScreen
from .confirm import ConfirmScreen
from .solo_choice import SoloChoice


class Coachable(Protocol):
    """A solo game the coach speaks about (a classic solo game, a variant's)."""

    coach_notes: dict[int, str]

    def coach_line(self, number: int) -> str: ...


class Coached:
    """The coach's line after a guess, worked out in a thread (it counts codes) and said if the game it was
    for is still the one shown; kept with the game for a resume. For a screen with ``game``, ``messages``,
    ``_games`` (the games started so far) and ``keep_progress``.
    """

    _games: int
    keep_progress: Callable[[], None]

    @property
    def messages(self) -> MessageLog:
        raise NotImplementedError  # each screen's own log

    @work(thread=True, group="coach")
    def _coach(self, game: Coachable, number: int, game_number: int) -> None:
        line = game.coach_line(number)
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._coach_says, line, game, number, game_number)  # type: ignore[attr-defined]

    def _coach_says(self, line: str, game: Coachable, number: int, game_number: int) -> None:
        if game_number == self._games and self.is_attached and game is self.game:  # type: ignore[attr-defined]
            self.messages.say(line, "computer")
            game.coach_notes[number] = line
            self.keep_progress()  # the note is kept with the game, for a resume


class KeptToResume:
    """A solo game in progress kept in the store for its identity after each move, offered again at the next
    start (:mod:`.solo_resume`), forgotten once over or left on purpose. Store trouble is said once and never
    blocks play. For a screen with ``wom``, ``game`` (its ``as_json``), ``choice`` (its coach) and
    ``in_progress``; :meth:`keeps_games` says whether this screen keeps its games at all, :meth:`keepable`
    whether the game may be kept as it stands.
    """

    kept_for_resume = False
    """True while this screen's game is kept in the store to resume."""
    resume_trouble_said = False

    def keeps_games(self) -> bool:
        return True

    def keepable(self) -> bool:
        return True

    def keep_progress(self) -> None:
        """After a move: keep the game in progress, or forget it once it is not in progress any more (over,
        or a fresh game in its place).
        """
        app = self.wom  # type: ignore[attr-defined]
        key = app.identity.preference_key
        if key is None or not self.keeps_games():
            return
        try:
            if self.in_progress and self.keepable():  # type: ignore[attr-defined]
                self.game.coach = self.choice.coach  # type: ignore[attr-defined]
                app.store.keep_solo(key, self.game.as_json())  # type: ignore[attr-defined]
                self.kept_for_resume = True
            elif self.kept_for_resume:
                app.store.drop_solo(key)
                self.kept_for_resume = False
        except (StoreError, ValueError) as error:
            if not self.resume_trouble_said:
                self.resume_trouble_said = True
                app.notify(f"This game cannot be kept to resume after a crash: {error}", severity="warning",
                           markup=False)

    def forget_progress(self) -> None:
        """The player left the game on purpose (Esc confirmed, quit confirmed): it is not offered again."""
        key = self.wom.identity.preference_key  # type: ignore[attr-defined]
        if key is None or not self.kept_for_resume:
            return
        try:
            self.wom.store.drop_solo(key)  # type: ignore[attr-defined]
        except StoreError:
            return  # offered at the next start: the player may drop it then
        self.kept_for_resume = False


class SoloPlayScreen(WomScreen):
    """A screen where one person plays with a :class:`SoloChoice`: the solo game or "computer breaks your code".

    Its widgets' ids start with :attr:`PREFIX` (``#solo-history``, ``#computer-breaks-log``, ``#computer-breaks-again`` …).
    A subclass says whether a game is :attr:`in_progress`, builds its code input (:meth:`_new_input`),
    fills the history (:meth:`_fill_history`) and starts a game once a fresh input is in (:meth:`_start`).
    """

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (72, "-roomy")]
    """Under 72 columns the history gives up width so the message log stays on screen."""
    PREFIX = "solo"
    """The start of every id on the screen."""
    INPUT_ID = "solo-input"
    """The id of the code input that a new game replaces."""
    HISTORY_EXTRA: tuple[tuple[str, int], ...] = ()
    """Columns the history shows after the pegs (label, width)."""
    NARROW_PEGS = True
    """Whether the history keeps its key pegs column when narrow (the B and W counts say the same)."""
    new_game_detail = "This one is dropped, not recorded."
    """What "Start a new game?" warns of while a game is under way."""
    abandon_message: str | None = None
    """Said in the log when a game under way is dropped for a new one."""

    ruleset: Ruleset
    """The rules of the game being played (the history's columns follow them)."""

    game: Any
    """The domain game being played."""

    snapshot: reactive[dict[str, Any] | None] = reactive(None, always_update=True, init=False)
    """The game as JSON, as the screen shows it. Every move sets it (:meth:`publish`); setting it from
    elsewhere (another process's move) replaces the game and the screen shows that."""

    def __init__(self, choice: SoloChoice) -> None:
        super().__init__()
        self.choice = choice
        self._grid = False
        self._narrow = False

    # -- what a subclass says --------------------------------------------------------------

    @property
    def in_progress(self) -> bool:
        """True while leaving would drop a game under way."""
        raise NotImplementedError

    def _new_input(self) -> GuessInput:
        raise NotImplementedError

    def _fill_history(self) -> None:
        raise NotImplementedError

    def _new_game(self) -> None:
        """Reset the game with the same setup, then :meth:`_swap_input`."""
        raise NotImplementedError

    def _start(self, fresh: GuessInput) -> None:
        """Begin the new game once ``fresh`` (its code input) is mounted."""
        raise NotImplementedError

    def _pressed(self, button: str) -> None:
        """A button of the subclass's own was pressed (``button`` is its id without :attr:`PREFIX`)."""

    def _show(self) -> None:
        """Bring every part of the screen up to date with :attr:`game`."""
        raise NotImplementedError

    def _game_from_json(self, data: dict[str, Any]) -> Any:
        """The game a snapshot holds."""
        raise NotImplementedError

    # -- the snapshot ----------------------------------------------------------------------

    def publish(self) -> None:
        """The game changed: take its snapshot, which shows it."""
        self.snapshot = self.game.as_json()

    def watch_snapshot(self, snapshot: dict[str, Any] | None) -> None:
        """Show the game the snapshot holds (read back only when it is not the game in hand)."""
        if snapshot is None:
            return
        if snapshot != self.game.as_json():
            self.game = self._game_from_json(snapshot)
        self._show()

    # -- layout ----------------------------------------------------------------------------

    @property
    def messages(self) -> MessageLog:
        """The game's message log."""
        return self.query_one(f"#{self.PREFIX}-log", MessageLog)

    def _history_table(self) -> DataTable[object]:
        table: DataTable[object] = DataTable(
            id=f"{self.PREFIX}-history", classes="solo-history", cursor_type="none", zebra_stripes=True
        )
        self._set_columns(table)
        return table

    def _over_buttons(self) -> list[Button]:
        """The game-over panel's buttons after Play again, Setup and Menu (none here)."""
        return []

    def _over_panel(self) -> Vertical:
        prefix = self.PREFIX
        return Vertical(
            Static("", id=f"{prefix}-result"),
            Horizontal(
                Button("Play again", id=f"{prefix}-again", variant="primary", compact=True),
                Button("Setup", id=f"{prefix}-setup-button", compact=True),
                Button("Menu", id=f"{prefix}-menu", compact=True),
                *self._over_buttons(),
                id=f"{prefix}-over-buttons",
            ),
            id=f"{prefix}-over",
        )

    def _dress_panels(self, history_title: str) -> None:
        self.query_one(f"#{self.PREFIX}-history", DataTable).border_title = history_title
        self.messages.border_title = "Messages"
        # The log may be narrow beside a long code's history: wrap to its width, never crop.
        self.messages.min_width = 12

    def _set_columns(self, table: DataTable[object] | None = None) -> None:
        table = table or self.query_one(f"#{self.PREFIX}-history", DataTable)
        table.clear(columns=True)
        # Narrow (under 72 columns, down to 60×20): tight columns, so that the whole history fits.
        self._narrow = self.has_class("-narrow")
        table.styles.width = history_columns(table, self.ruleset, extra=self.HISTORY_EXTRA, narrow=self._narrow,
                                             pegs=self.NARROW_PEGS or not self._narrow)

    def on_resize(self) -> None:
        # Narrower or wider than the breakpoint: the history's columns change. Tall enough for every
        # row to hold the two-row peg grid of a real board: its rows change. Redraw either way.
        if self.has_class("-narrow") != self._narrow:
            self._set_columns()
            self._fill_history()
        elif roomy(self.size.height, self.ruleset) != self._grid:
            self._fill_history()

    # -- new game, leaving -----------------------------------------------------------------

    def action_new_game(self) -> None:
        """Start again with the same setup (asking first if a game is under way)."""
        if not self.in_progress:
            self._new_game()
            return

        def answered(go: bool | None) -> None:
            if go:
                if self.abandon_message:
                    self.messages.say(self.abandon_message, "warning")
                self._new_game()

        self.app.push_screen(
            ConfirmScreen(
                "Start a new game?",
                self.new_game_detail,
                confirm_label="New game",
                cancel_label="Keep playing",
                hint="y: new game · Esc or n: keep playing",
            ),
            answered,
        )

    def _swap_input(self) -> None:
        """Replace the code input with a fresh one, clear the history's columns, then :meth:`_start`."""
        old = self.query_one(f"#{self.INPUT_ID}", GuessInput)
        entry = self.query_one(f"#{self.PREFIX}-entry", Vertical)

        async def swap() -> None:
            await old.remove()
            fresh = self._new_input()
            await entry.mount(fresh, before=0)
            self.messages.say("")
            self._set_columns()
            self._start(fresh)

        self.call_later(swap)

    def leaving_loses_progress(self) -> bool:
        """A game under way would be lost."""
        return self.in_progress

    def action_back(self) -> None:
        """Back to the setup; a game under way asks first (y leaves, Esc stays)."""
        if not self.in_progress:
            self.dismiss()
            return
        self.ask_to_leave(self._leave)

    def _leave(self) -> None:
        self.dismiss()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        button = (event.button.id or "").removeprefix(f"{self.PREFIX}-")
        if button == "again":
            self.action_new_game()
        elif button == "setup-button":
            self.action_back()
        elif button == "menu":
            self.wom.action_menu()
        else:
            self._pressed(button)
