"""The World of Mastermind table: code making, guessing and the hand-over between people (docs/play.md, *World of Mastermind*).

One screen runs a :class:`~wom_tui.domain.wom.WomGame` from its first code to its last guess, then
switches to the results screen it was given (:func:`wom_tui.screens.wom_results.start_game` gives
it). People type codes (masked, with a peek) and guesses in a PegInput; computer players move on their
own, one move per ``options.computer_pace`` seconds, their strategy running in a thread so the screen
never freezes. Every rule and message comes from the domain.

The screen holds the game's snapshot (its JSON) in a reactive and draws the players panel and the board
on show from it; every move sets it, and a snapshot set from elsewhere (a move another process made)
replaces the game and the table goes on from there. Which board is on show, and the hand-over between
people, are the screen's own business.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Button, ContentSwitcher, Static
from textual.worker import Worker, WorkerCancelled, WorkerFailed

from ..domain.codes import WOM_RULESET, InvalidCode, Ruleset
from ..domain.notes import Notes
from ..domain.players import Player
from ..domain.records import GameRecord
from ..domain.wom import (
    FINISHED,
    GUESSING,
    MAKING,
    MadeCode,
    TurnResult,
    WomGame,
    hot_seat_sees,
    players_from_names,
)
from ..domain.words import counted
from ..patches.footer import Footer
from ..widgets.message_log import MessageLog
from ..widgets.notes_grid import NotesGrid
from ..widgets.peg_input import PegInput
from ..patches.state_classes import set_state_classes
from ..widgets.message_log import Kind
from ..widgets.wom_board import WIDE_CODE, HistoryTable, PlayersPanel
from .base import WomScreen
from .confirm import ConfirmScreen

if TYPE_CHECKING:
    from ..domain.users import UserRegistry

GAME_NAME = "World of Mastermind"
"""The game's name, at the start of the top bar where it fits."""


@dataclass(frozen=True)
class WomSetup:
    """What the setup screen chose: player names in seating order, attempts allowed, and the ruleset."""

    names: tuple[str, ...]
    attempts: int
    ruleset: Ruleset = WOM_RULESET
    hal_within_five: bool = False
    """HAL9000 plays its 5-guess book (the player's choice, :attr:`.host.WomHost.hal_within_five`)."""

    def new_game(
        self, registry: UserRegistry, rng: random.Random, on_finish: Callable[[GameRecord], object]
    ) -> WomGame:
        """A fresh game for this setup; SetupError with the domain's reason if it cannot be played."""
        players = players_from_names(self.names, registry, within_five=self.hal_within_five)
        return WomGame(players, self.attempts, rng, self.ruleset, on_finish=on_finish)


class GameSaver:
    """The game's ``on_finish``: hands the record to ``store.record_game`` once, keeping any error to show.

    A game left while a computer's last move was still being worked out is not saved (``cancel``).
    """

    def __init__(self, record_game: Callable[[GameRecord], Exception | None]) -> None:
        self._record_game = record_game
        self.cancelled = False
        self.saved = False
        self.error: Exception | None = None

    def cancel(self) -> None:
        """Save nothing from now on (the game is being left)."""
        self.cancelled = True

    def __call__(self, record: GameRecord) -> None:
        if self.cancelled:
            return
        self.error = self._record_game(record)
        self.saved = self.error is None


ResultsScreen = Callable[[WomSetup, WomGame, GameSaver], Screen[Any]]
"""What makes the screen a finished game switches to (its setup, the game, its saver)."""


def people_in(game: WomGame) -> list[Player]:
    """The players who are people, in seating order."""
    return [player for player in game.players if not player.is_computer]


class WomGameScreen(WomScreen):
    """Code making, then guessing, for every player in turn; Esc asks before leaving."""

    BINDINGS = [Binding("escape", "back", "Leave game"), Binding("f4", "notes", "Notes", key_display="F4")]
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (72, "-roomy")]

    class ComputerMoved(Message):
        """A computer player's move, played by ``game`` in a worker: the domain's result."""

        def __init__(self, game: WomGame, result: MadeCode | TurnResult) -> None:
            super().__init__()
            self.game = game
            self.result = result

    snapshot: reactive[dict[str, Any] | None] = reactive(None, always_update=True, init=False)
    """The game as JSON, as the screen shows it. Every move sets it (:meth:`publish`); setting it from
    elsewhere replaces the game (a move in flight on the old one is dropped) and the table goes on."""

    def __init__(self, setup: WomSetup, game: WomGame, saver: GameSaver, *, results: ResultsScreen) -> None:
        wide = game.ruleset.length >= WIDE_CODE or len(game.ruleset.palette) > 6
        super().__init__(classes="wom-screen -wide" if wide else "wom-screen")
        self.setup = setup
        self.game = game
        self.saver = saver
        self._results = results
        self._pace = 0.0
        self._board_on_show: str | None = None
        """The player whose board the screen shows and marks (by name); None: whoever moves next."""
        self._generation = 0
        """Counts games replaced by a snapshot from elsewhere: what was scheduled for an older one is dropped."""
        self._last_person: str | None = None
        self._waiting_for: str | None = None
        self._paused = False
        self._leaving = False
        self._deferred: Callable[[], None] | None = None
        self._timer: Timer | None = None
        self._move: Worker[None] | None = None
        """The move being worked out off the event loop (a computer's, or a person's guess being played)."""
        self._shown_results = False
        self._several_people = len(people_in(game)) > 1
        self._awaiting: tuple[str, str] | None = None
        self._person_moving = False
        """A person's guess is being played off the event loop."""
        self._back_pending = False
        """Esc came while a person's guess was being played: handled once it is (it may have ended the game)."""
        self._said: list[tuple[str, Kind, str | None]] = []
        """Every message with the player it is about (None: everyone's), to show each person only theirs."""
        self._viewer: str | None = None
        self._notes: dict[str, Notes] = {}
        """Each person's notes (F4), private: shown only in their own turn, never behind the curtain."""
        """The person at the keyboard, whose messages the log shows (hot-seat privacy: :func:`hot_seat_sees`)."""

    # -- layout ---------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        ruleset = self.game.ruleset
        yield Static(self._top_bar(), id="wom-topbar")
        with Horizontal(id="wom-body"):
            with ContentSwitcher(id="wom-switcher", initial="wom-making"):
                with Vertical(id="wom-making", classes="wom-stage"):
                    yield Static(Text("Code making"), classes="stage-kicker")
                    yield Static("", id="making-prompt", classes="stage-title")
                    yield Static("", id="making-note", classes="stage-note")
                    with Horizontal(classes="input-row"):
                        yield PegInput(ruleset, masked=True, id="code-input", label="Secret code")
                        yield Static(self._keys_hint("set it"), classes="stage-keys")
                    yield Static("", id="making-error", classes="stage-error")
                with Vertical(id="wom-guessing", classes="wom-stage"):
                    yield Static("", id="guess-turn", classes="stage-title")
                    yield Static("", id="guess-attempts", classes="stage-note")
                    yield HistoryTable(id="guess-history")
                    with Horizontal(classes="input-row"):
                        yield PegInput(ruleset, id="guess-input", label="Your guess")
                        yield Static(self._keys_hint("guess"), classes="stage-keys")
                    yield Static("", id="guess-error", classes="stage-error")
                    yield Button("Done", id="guess-seen", variant="primary", compact=True)
                with Vertical(id="wom-handover", classes="wom-stage"):
                    yield Static("", id="handover-title")
                    yield Static("", id="handover-note")
                    with Center():
                        yield Button("Ready", id="handover-ready", variant="primary")
            with Vertical(id="wom-side"):
                yield PlayersPanel(id="wom-players")
                yield MessageLog(id="wom-log")
        yield Footer()

    def _top_bar(self) -> Text:
        rules = (counted(len(self.game.players), "player"), self.game.ruleset.title,
                 counted(self.game.attempts, "attempt"))
        room = self.app.size.width - 2  # the bar's padding
        for gap in ("  ·  ", " · "):
            if len(GAME_NAME + gap + gap.join(rules)) <= room:
                text = Text(GAME_NAME + gap, style="bold", end="")
                text.append(gap.join(rules))
                return text
        # Where the whole line does not fit (60×20), the game's name gives way to its rules, which a player needs.
        return Text(" · ".join(rules), end="")

    def _keys_hint(self, enter: str) -> Text:
        symbols = self.game.ruleset.palette.symbols
        shown = " ".join(symbols) if len(symbols) <= 6 else symbols
        return Text(f"Type {shown}\n←/→ pick a slot\n↑/↓ change it\nor click a peg\nEnter to {enter}")

    def on_mount(self) -> None:
        """Title the panels and show the first turn."""
        self._pace = max(float(self.wom.options.computer_pace), 0.0)
        self.query_one("#wom-players").border_title = "Players"
        self.query_one("#wom-log").border_title = "Messages"
        self.publish()
        self._proceed()

    @property
    def awaiting(self) -> tuple[str, str] | None:
        """What the table waits for from a person: ``("handover" | "code" | "guess", name)``, else None."""
        return self._awaiting

    # -- the flow of turns ----------------------------------------------------------------------

    @property
    def message_log(self) -> MessageLog:
        """The game's message log."""
        return self.query_one("#wom-log", MessageLog)

    def _player_to_move(self) -> Player | None:
        return self.game.mover

    # -- the snapshot ---------------------------------------------------------------------------

    def publish(self) -> None:
        """The game changed: take its snapshot, which shows it."""
        self.snapshot = self.game.as_json()

    def watch_snapshot(self, snapshot: dict[str, Any] | None) -> None:
        """Show the game the snapshot holds; one set from elsewhere replaces the game and play goes on."""
        if snapshot is None:
            return
        if snapshot == self.game.as_json():
            self._draw()
            return
        self.game = WomGame.from_json(snapshot, self.wom.rng, on_finish=self.saver)
        self._generation += 1
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self._move = None
        if self._paused:
            self._deferred = self._proceed  # the leave dialog is open: go on once it is answered
        else:
            self._proceed()

    def _draw(self) -> None:
        """Draw the players panel and the board on show from the game (which the snapshot holds)."""
        game = self.game
        shown = self._player_on_show()
        self.query_one(PlayersPanel).show(game.standings(shown))
        if shown is not None and game.phase != MAKING:
            self.query_one(HistoryTable).show_board(game.board_of(shown), owner=game.players.index(shown))
            self._show_attempts(shown)

    def _player_on_show(self) -> Player | None:
        if self._board_on_show is None:
            return self.game.mover
        return self._player_named(self._board_on_show)

    def _player_named(self, name: str) -> Player | None:
        return next((player for player in self.game.players if player.name == name), None)

    def _show_board_of(self, player: Player | None) -> None:
        """Show ``player``'s board and mark them (None: whoever moves next)."""
        self._board_on_show = None if player is None else player.name
        self._draw()

    # -- the flow of turns ----------------------------------------------------------------------

    def _proceed(self) -> None:
        """Show whoever moves next: a hand-over, a person's turn, or a computer's move."""
        if self._leaving:
            return
        player = self._player_to_move()
        seen = self.query_one("#guess-seen", Button)
        if seen.display:
            seen.display = False
        if player is None:
            self._show_results()
            return
        self._show_board_of(None)
        if not player.is_computer and self._several_people and self._last_person not in (None, player.name):
            self._show_handover(player)
            return
        self._show_turn(player)

    def _show_turn(self, player: Player) -> None:
        self._awaiting = None
        if not player.is_computer:
            self._view_as(player.name)
        if not self.message_log.display:
            self.message_log.display = True
        if not player.is_computer:
            self._last_person = player.name
        if self.game.phase == MAKING:
            self._show_making(player)
        else:
            self._show_guessing(player)
        if player.is_computer:
            self._schedule(self._computer_move, self._pace / 2)

    def _schedule(self, callback: Callable[[], None], delay: float) -> None:
        """Run ``callback`` after ``delay`` seconds (next tick for 0), held back while the leave dialog is open."""
        generation = self._generation

        def fire() -> None:
            self._timer = None
            if self._leaving or generation != self._generation:
                return
            if self._paused:
                self._deferred = callback
                return
            callback()

        if delay > 0:
            self._timer = self.set_timer(delay, fire)
        else:
            self.call_later(fire)

    # -- code making ----------------------------------------------------------------------------

    def _show_making(self, maker: Player) -> None:
        switcher = self.query_one(ContentSwitcher)
        switcher.current = "wom-making"
        stage = self.query_one("#wom-making")
        set_state_classes(stage, {"-computer": maker.is_computer})
        breaker = self.game.breaker_for(maker)
        self.query_one("#making-prompt", Static).update(Text(self.game.maker_prompt))
        code_input = self.query_one("#code-input", PegInput)
        code_input.clear()
        self._set_error("#making-error", None)
        if maker.is_computer:
            note = Content.from_markup("$name is choosing a code…", name=maker.name)
            code_input.disabled = True
        else:
            note = Content.from_markup(
                "$breaker, look away! The code stays hidden as it is typed.", breaker=breaker.name
            )
            if breaker.is_computer:
                note = Content("The code stays hidden as it is typed; Ctrl+R shows it to you.")
            code_input.disabled = False
            self.set_focus(code_input)  # at once: a key typed on its heels must reach it
            self._awaiting = ("code", maker.name)
        self.query_one("#making-note", Static).update(note)

    def _submit_code(self, text: str) -> None:
        maker = self.game.maker
        if maker.is_computer or self.game.phase != MAKING:
            return
        try:
            made = self.game.make_code(text)
        except InvalidCode as refusal:
            # The code is typed hidden and others may see the screen: a refusal that names no symbol.
            self._refuse("#making-error", refusal.masked_reason)
            return
        self._awaiting = None
        self.query_one("#code-input", PegInput).clear()
        self._announce_code(made)
        self.publish()
        self._proceed()

    def _announce_code(self, made: MadeCode) -> None:
        # Seed 004 prints the computer's code before saying it is set.
        if made.debug_code is not None and self.wom.options.debug:
            self._say(f"DEBUG: {made.debug_code}", "warning")
        self._say(made.message, "success")

    # -- what each person at the keyboard may read ---------------------------------------------------

    def _sees(self, viewer: str | None, author: str | None) -> bool:
        return hot_seat_sees(viewer, author, people=len(people_in(self.game)), over=self.game.phase == FINISHED)

    def _say(self, text: str, kind: Kind = "info", author: str | None = None) -> None:
        """Log a message about ``author``'s move (None: everyone's); shown now only if the person at the
        keyboard may read it.
        """
        self._said.append((text, kind, author))
        self.message_log.say(text, kind, hidden=not self._sees(self._viewer, author))

    # -- each person's notes (F4), never read by the game --------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """F4 (notes) only in a person's own guessing turn."""
        if action == "notes":
            return self._awaiting is not None and self._awaiting[0] == "guess"
        return super().check_action(action, parameters)

    def action_notes(self) -> None:
        """F4: show the notes of the person guessing and move into them; F4 in the notes hides them."""
        if self._awaiting is None or self._awaiting[0] != "guess":
            return
        name = self._awaiting[1]
        found = self.query("#wom-notes")
        grid = found.first(NotesGrid) if found else None
        if grid is not None and grid.has_focus:
            self._close_notes()
            self.set_focus(self.query_one("#guess-input", PegInput))
            return
        if grid is None:
            kept = self._notes.get(name) or Notes.empty(self.game.ruleset)
            grid = NotesGrid(kept, self.game.ruleset.palette, id="wom-notes")
            self.query_one("#wom-side").mount(grid, before=self.message_log)
            set_state_classes(self.query_one("#wom-side"), {"-notes": True})
            grid.focus()  # at once: keys sent with F4 go to the notes
        else:
            grid.focus()

    def _close_notes(self) -> None:
        """Take the notes off the screen (the curtain, Done, F4 again); they stay kept for their owner."""
        self.query("#wom-notes").remove()
        set_state_classes(self.query_one("#wom-side"), {"-notes": False})

    def on_notes_grid_changed(self, event: NotesGrid.Changed) -> None:
        event.stop()
        if self._awaiting is not None and self._awaiting[0] == "guess":
            self._notes[self._awaiting[1]] = event.notes

    def on_notes_grid_leave(self, event: NotesGrid.Leave) -> None:
        event.stop()
        guess = self.query_one("#guess-input", PegInput)
        if not guess.disabled:
            self.set_focus(guess)

    def _view_as(self, name: str) -> None:
        """``name`` is at the keyboard: the log shows what they may read, and nothing of the others' moves."""
        if name == self._viewer:
            return
        self._close_notes()  # the notes on show were the last person's
        self._viewer = name
        self.message_log.show_only([(text, kind) for text, kind, author in self._said if self._sees(name, author)])

    # -- guessing -------------------------------------------------------------------------------

    def _show_guessing(self, player: Player) -> None:
        self.query_one(ContentSwitcher).current = "wom-guessing"
        stage = self.query_one("#wom-guessing")
        set_state_classes(stage, {"-computer": player.is_computer})
        self.query_one("#guess-turn", Static).update(
            Content.from_markup("$name's turn to guess the code.", name=player.name)
        )
        guess_input = self.query_one("#guess-input", PegInput)
        guess_input.clear()
        self._set_error("#guess-error", None)
        if player.is_computer:
            guess_input.disabled = True
            self._set_error("#guess-error", Content.from_markup("$name is thinking…", name=player.name), "-info")
        else:
            guess_input.disabled = False
            self.set_focus(guess_input)  # at once: a key typed on its heels must reach it
            self._awaiting = ("guess", player.name)

    def _show_attempts(self, player: Player) -> None:
        board = self.game.board_of(player)
        self.query_one("#guess-attempts", Static).update(
            Text(f"Attempts left: {board.attempts_left} of {board.attempts_allowed}")
        )
        table = self.query_one(HistoryTable)
        table.border_title = Content.from_markup(
            "$name's board · code by $maker", name=player.name, maker=self.game.maker_for(player).name
        )

    def _submit_guess(self, text: str) -> None:
        if self.game.phase != GUESSING or self._move is not None:
            return
        if self.game.current.is_computer:
            return
        # The guess is being played: until it is (a thread, below), the table waits for nobody.
        waited, self._awaiting = self._awaiting, None
        self._person_moving = True
        self._move = self.run_worker(self._play_person(self.game, text, waited), group="move")

    async def _play_person(self, game: WomGame, text: str, waited: tuple[str, str] | None) -> None:
        # In a thread too: the game's last move saves it, and the store may wait for another process.
        try:
            turn = await asyncio.to_thread(game.play_turn, text)
        except InvalidCode as refusal:
            if game is self.game:
                self._awaiting = waited  # refused: the same person is asked again
                self._refuse("#guess-error", refusal.reason)
            return
        finally:
            if game is self.game:
                self._move = None
            self._person_moving = False
            if self._back_pending:
                self._back_pending = False
                self.call_later(self.action_back)
        if self._leaving or game is not self.game:
            return
        self._awaiting = None
        guess_input = self.query_one("#guess-input", PegInput)
        guess_input.clear()
        guess_input.disabled = True
        self._set_error("#guess-error", None)
        self._announce_turn(turn)

    def _announce_turn(self, turn: TurnResult) -> None:
        player = turn.player
        # The board on show is still this player's until the next turn begins: drawn now, so that the
        # guesser sees their key pegs before the curtain drops for the next person.
        self._board_on_show = player.name
        self.publish()
        self._draw()
        kind: Kind = "computer" if player.is_computer else "info"
        author = None if player.is_computer else player.name
        self._say(f"{player.name}'s guess: {turn.guess} → {turn.feedback.text}", kind, author)
        board = self.game.board_of(player)
        for message in turn.messages:
            self._say(message, "success" if board.solved else "warning", author)
        if turn.revealed is not None:
            # That board is over, so its code can be shown: nobody else is breaking it.
            self._say(f"The code was {turn.revealed}.", "warning")
        following = self._player_to_move()
        if (not player.is_computer and self._several_people and following is not None
                and not following.is_computer and following.name != player.name):
            # Another person's turn comes next: the guesser reads their key pegs first, then hands over.
            self._show_seen(player)
            return
        # A pause after every move (not only a computer's), so its key pegs are seen before the
        # board changes hands; the same player moving again goes on at once.
        delay = 0.0 if following is not None and following.name == player.name else self._pace
        self._schedule(self._proceed, delay)

    def _show_seen(self, player: Player) -> None:
        """The guesser's feedback on show until they press Enter (Done); then the curtain for the next."""
        self._awaiting = ("seen", player.name)
        self._close_notes()  # the next person must not find them on show
        seen = self.query_one("#guess-seen", Button)
        seen.remove_class("-active")  # (Textual ignores Enter on a button flashing from its last press)
        seen.label = "Done — next player"
        seen.display = True
        self.set_focus(seen)

    def _seen(self) -> None:
        if self._awaiting is None or self._awaiting[0] != "seen" or self._paused or self._leaving:
            return
        self._awaiting = None
        self.query_one("#guess-seen", Button).display = False
        self._proceed()

    # -- computer players -----------------------------------------------------------------------

    def _computer_move(self) -> None:
        self._move = self.run_worker(self._play_computer(self.game), group="move")

    async def _play_computer(self, game: WomGame) -> None:
        try:
            player = game.mover
            if player is None or not player.is_computer:
                return
            # A strong strategy on a big ruleset can think for a while: keep the screen alive meanwhile.
            result = await asyncio.to_thread(game.move)
            self.post_message(self.ComputerMoved(game, result))
        finally:
            if game is self.game:
                self._move = None

    def on_wom_game_screen_computer_moved(self, message: ComputerMoved) -> None:
        """A computer's code or guess, worked out in a worker: say it and go on."""
        message.stop()
        if self._leaving or message.game is not self.game:
            return  # left, or the game was replaced by a snapshot from elsewhere meanwhile
        result = message.result
        if isinstance(result, MadeCode):
            self._announce_code(result)
            self._board_on_show = result.maker.name  # marked until the next turn is shown
            self.publish()
            self._schedule(self._proceed, self._pace / 2)
        else:
            self._set_error("#guess-error", None)
            self._announce_turn(result)

    # -- hand-over between people ---------------------------------------------------------------

    def _show_handover(self, player: Player) -> None:
        self._waiting_for = player.name
        self._awaiting = ("handover", player.name)
        self.query_one(ContentSwitcher).current = "wom-handover"
        self.message_log.display = False  # behind the curtain nobody reads the last player's feedback
        self._close_notes()
        self.query_one("#handover-title", Static).update(
            Content.from_markup("Pass the keyboard to $name", name=player.name)
        )
        if self.game.phase == MAKING:
            turn = Content(self.game.maker_prompt)
        else:
            turn = Content.from_markup("$name's turn to guess the code.", name=player.name)
        self.query_one("#handover-note", Static).update(
            Content.assemble(turn, "\n", Content.from_markup("Press Enter when you are ready, $name.", name=player.name))
        )
        ready = self.query_one("#handover-ready", Button)
        # The same button serves every hand-over: Textual ignores Enter on a button for 0.2 s after a
        # press (its "-active" flash), so a quick next hand-over swallowed the next person's Enter.
        ready.remove_class("-active")
        ready.label = Content.from_markup("I'm $name — ready", name=player.name)
        ready.refresh(layout=True)  # a label change alone keeps the width of the first name shown
        self.set_focus(ready)  # at once: a key typed on its heels must reach it

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The next person is at the keyboard: show their turn."""
        if event.button.id == "guess-seen":
            event.stop()
            self._seen()
            return
        if event.button.id == "handover-ready":
            event.stop()
            name, self._waiting_for = self._waiting_for, None
            player = self._player_to_move()
            if name is not None and player is not None and player.name == name:
                self._show_turn(player)

    # -- input ----------------------------------------------------------------------------------

    def on_peg_input_submitted(self, message: PegInput.Submitted) -> None:
        """Enter in the code or guess input."""
        message.stop()
        if message.stale:
            return  # already played (a second Enter in the same burst)
        if self._leaving or self._paused:
            return
        if message.peg_input.id == "code-input" and self.game.phase == MAKING:
            self._submit_code(message.text)
        elif message.peg_input.id == "guess-input" and self.game.phase == GUESSING:
            self._submit_guess(message.text)

    def on_peg_input_changed(self, message: PegInput.Changed) -> None:
        """Editing the input clears the last refusal."""
        message.stop()
        target = "#making-error" if message.peg_input.id == "code-input" else "#guess-error"
        error = self.query_one(target, Static)
        if error.has_class("-error"):
            self._set_error(target, None)

    def _refuse(self, target: str, reason: str) -> None:
        """An invalid code or guess: the domain's reason, by the input and in the log; nothing changes."""
        self._set_error(target, Content(reason))
        self._say(reason, "error", self._viewer)
        self.app.bell()

    def _set_error(self, target: str, content: Content | None, kind: str = "-error") -> None:
        widget = self.query_one(target, Static)
        widget.set_class(content is not None and kind == "-error", "-error")
        widget.set_class(content is not None and kind == "-info", "-info")
        widget.update(content if content is not None else "")

    # -- the end, or leaving early --------------------------------------------------------------

    def _show_results(self) -> None:
        if self.game.phase != FINISHED or self._leaving or self._shown_results:
            return
        self._shown_results = True
        self.app.switch_screen(self._results(self.setup, self.game, self.saver))

    def leaving_loses_progress(self) -> bool:
        """Codes are being made or broken: leaving would end the game with no points."""
        return self.game.phase in (MAKING, GUESSING) and not self._leaving

    def action_back(self) -> None:
        """Leaving a game in progress asks first; a left game awards nothing."""
        if self.game.phase == FINISHED:
            self._show_results()
            return
        if self._person_moving:
            # That guess may end the game: decide once it is played (a finished game shows its results).
            self._back_pending = True
            return
        if self._paused or self._leaving:
            return
        self._paused = True
        self.app.push_screen(
            ConfirmScreen("Leave this game?", "A game left early gives nobody any points."),
            self._answer_leave,
        )

    def _answer_leave(self, leave: bool | None) -> None:
        if self.game.phase == FINISHED:
            # The game ended while the dialog was open: nothing is lost, and its results are shown.
            self._paused = False
            self._deferred = None
            self._show_results()
            return
        if not leave:
            self._paused = False
            callback, self._deferred = self._deferred, None
            if callback is not None:
                callback()
            return
        self._leaving = True
        self.saver.cancel()
        if self._timer is not None:
            self._timer.stop()
        self.run_worker(self._leave(), group="leave")

    async def _leave(self) -> None:
        worker = self._move
        if worker is not None and worker.is_running:
            # The game is not thread-safe: let the move in flight finish before abandoning.
            try:
                await worker.wait()
            except (WorkerCancelled, WorkerFailed):
                pass
        if self.game.phase != FINISHED:
            self.game.abandon()
        self.dismiss()
