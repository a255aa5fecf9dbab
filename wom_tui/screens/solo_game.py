"""The solo game: break the computer's code, with lifelines, a hint mask and the hall of fame.

docs/play.md, *Solo: break the computer's code*.

The screen binds a :class:`~wom_tui.domain.solo.SoloGame`: the coach's verdict, the end of the game and
its hall-of-fame entry all come from the domain; the coach thinks in a thread worker.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, DataTable, Input, Static

from ..domain.codes import Feedback, InvalidCode, Ruleset
from ..domain.daily import solo_share
from ..domain.halloffame import HallEntry
from ..domain.clues import lifeline_cell
from ..domain.solo import LIFELINE_COSTS, LifelineResult, SoloGame
from ..domain.users import MAX_GUEST_NAME, NameRejected, check_guest_name
from ..domain.words import counted
from ..patches.footer import Footer
from ..widgets.line_input import LineInput
from ..widgets.message_log import MessageLog
from ..widgets.notes_grid import NotesGrid
from ..widgets.pegs import code_pegs
from ..patches.state_classes import set_state_classes
from ..widgets.solo_history import (
    GuessInput,
    guesses_word,
    result_cells,
    roomy,
)
from .solo_base import Coached, KeptToResume, SoloPlayScreen
from .solo_choice import SoloChoice

LIFELINE_LABELS = {1: "Reveal a symbol", 2: "Reveal a position"}
LIFELINE_KEYS = {1: "F2", 2: "F3"}


class HallNameScreen(ModalScreen[str | None]):
    """A guest set a record: ask for a name of 1–7 characters (the domain decides what is valid)."""

    BINDINGS = [Binding("escape", "skip", "Skip")]
    AUTO_FOCUS = "#hall-name"

    def __init__(self, entry_for: Callable[[str], object], headline: str) -> None:
        super().__init__()
        self._entry_for = entry_for
        self._headline = headline

    def compose(self) -> ComposeResult:
        with Vertical(id="hall-dialog"):
            yield Static(Text("A new record!"), id="hall-title")
            yield Static(Text(self._headline), id="hall-headline")
            yield Static(Text(f"Your name for the hall of fame (1–{MAX_GUEST_NAME} characters):"))
            yield LineInput(placeholder="Name", id="hall-name")
            yield Static("", id="hall-reason")
            with Horizontal(id="hall-buttons"):
                yield Button("Enter the hall", id="hall-ok", variant="success", compact=True)
                yield Button("Skip", id="hall-skip", compact=True)

    def _submit(self) -> None:
        name = self.query_one("#hall-name", Input).value
        try:
            check_guest_name(name)  # never cut or trimmed: refused with the reason
            self._entry_for(name)
        except NameRejected as refusal:
            self.query_one("#hall-reason", Static).update(Text(refusal.reason))
            return
        self.dismiss(name)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "hall-ok":
            self._submit()
        else:
            self.dismiss(None)

    def action_skip(self) -> None:
        """Leave the record unclaimed."""
        self.dismiss(None)


class SoloGameScreen(SoloPlayScreen, Coached, KeptToResume):
    """One person against a hidden code: "Guess #3 of 10", the hint mask, the history, lifelines."""

    AUTO_FOCUS = ""
    """No focus from Textual (it picked the history table, so a guess typed ahead lost its first symbol;
    and on coming back to a finished game it would focus the hidden guess field): :meth:`on_mount`
    focuses the guess field, and keys typed while the screen is built are held by the app until then."""

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("f2", "lifeline(1)", "Symbol", key_display="F2"),
        Binding("f3", "lifeline(2)", "Position", key_display="F3"),
        # When a lifeline cannot act the footer hides it (check_action); the key still says why.
        Binding("f2", "lifeline_refused(1)", show=False),
        Binding("f3", "lifeline_refused(2)", show=False),
        Binding("ctrl+n", "new_game", "New", key_display="^n"),
        Binding("f4", "notes", "Notes", key_display="F4"),
        Binding("c", "share", "Share"),
    ]

    PREFIX = "solo"
    INPUT_ID = "solo-input"
    new_game_detail = "This one is dropped, not recorded."
    abandon_message = "Game abandoned."
    leave_detail = "It is abandoned and not recorded."

    def __init__(self, choice: SoloChoice, game: SoloGame | None = None) -> None:
        super().__init__(choice)
        self.game: SoloGame = game if game is not None else self._fresh_game()
        self._resumed = game is not None and game.guesses_used > 0
        """True for a game resumed where it was left: its messages are said again first."""
        self._games = 1
        self._record_text: str | None = None
        self.share_text: str | None = None
        """The finished game's spoiler-free grid (None while a game is under way)."""

    def _fresh_game(self) -> SoloGame:
        return self.choice.setup.new_game(self.wom.rng, self.choice.player, self.choice.is_user)

    def _game_from_json(self, data: dict[str, Any]) -> SoloGame:
        return SoloGame.from_json(data, self.wom.rng)

    @property
    def ruleset(self) -> Ruleset:  # type: ignore[override]
        """The rules of the game being played."""
        return self.game.ruleset

    # -- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="solo-status", classes="solo-status"):
            yield Static("", id="solo-turn")
            yield Static("", id="solo-mask")
            yield Static("", id="solo-known")
        yield Static("", id="solo-info", classes="solo-info")
        with Horizontal(id="solo-middle", classes="solo-middle"):
            yield self._history_table()
            notes = NotesGrid(self.game.notes, self.game.ruleset.palette, id="solo-notes")
            notes.display = bool(self.game.notes)  # a resumed game shows the notes it was left with
            yield notes
            yield MessageLog(id="solo-log")
        with Horizontal(id="solo-bottom", classes="solo-bottom"):
            with Vertical(id="solo-entry"):
                yield self._new_input()
                yield self._over_panel()
            with Vertical(id="solo-actions"):
                yield Button(self._lifeline_label(1), id="solo-lifeline-1", compact=True)
                yield Button(self._lifeline_label(2), id="solo-lifeline-2", compact=True)
                yield Button("^n New game", id="solo-new", compact=True)
                yield Static("", id="solo-no-lifelines")
                yield Static(Text("or type lifeline#1 / lifeline#2"), id="solo-hint")
        yield Footer()

    def _new_input(self) -> GuessInput:
        return GuessInput(self.game.ruleset, label="Your guess", id="solo-input")

    def _over_buttons(self) -> list[Button]:
        return [Button("c Share", id="solo-share", compact=True)]

    @staticmethod
    def _lifeline_label(number: int) -> str:
        cost = LIFELINE_COSTS[number]
        return f"{LIFELINE_KEYS[number]} {LIFELINE_LABELS[number]} −{cost}"

    def on_mount(self) -> None:
        self._dress_panels("History")
        self.publish()
        self.query_one("#solo-input", GuessInput).focus()
        self.call_after_refresh(self._announce_game)

    # -- what the screen shows -------------------------------------------------------------

    def _announce_game(self) -> None:
        if self not in self.app.screen_stack:
            return  # left before the welcome was due (ctrl+n then Esc in one burst; random run, seed 10)
        ruleset = self.game.ruleset
        self.messages.say(f"Game {self._games}: the hidden code is {counted(ruleset.length, 'symbol')} long.")
        self.messages.say(f"You have {guesses_word(ruleset.guesses)}. Symbols: {ruleset.palette.listing()}.")
        if not ruleset.repeats:
            self.messages.say("No symbol appears twice in the code.")
        if self._resumed:
            self._resumed = False
            for line, kind in self.game.transcript():
                self.messages.say(line, kind)
            self.messages.say(f"Resumed where you left it: guess #{self.game.guess_number} is next.")

    def _info_line(self) -> Text:
        game = self.game
        text = Text(self.choice.player, style=Style(bold=True), end="")
        text.append(f" · {game.ruleset.describe()} · lifelines: {game.lifeline_policy.label.lower()}")
        if self.choice.coach:
            text.append(" · coach on")
        return text

    def _show(self) -> None:
        """Bring every part of the screen up to date with the game."""
        game = self.game
        turn = self.query_one("#solo-turn", Static)
        if game.won:
            turn.update(Text(f"Broken in {guesses_word(game.guesses_used)}!"))
        elif game.lost:
            turn.update(Text("Out of guesses"))
        else:
            turn.update(Text(f"Guess #{game.guess_number} of {game.ruleset.guesses}"))
        mask = Text("Code ", style=Style(dim=True), end="")
        shown = game.reveal() if game.over else game.hint_mask
        mask.append_text(code_pegs(shown, game.ruleset.palette, gap=""))
        self.query_one("#solo-mask", Static).update(mask)
        known = Text(end="")
        if game.revealed_symbols:
            known.append("Contains ", style=Style(dim=True))
            known.append_text(code_pegs("".join(game.revealed_symbols), game.ruleset.palette, gap=""))
        self.query_one("#solo-known", Static).update(known)
        self.query_one("#solo-info", Static).update(self._info_line())
        notes = self.query_one("#solo-notes", NotesGrid)
        if notes.notes is not game.notes:  # a new game: its own, empty notes
            notes.palette = game.ruleset.palette
            notes.notes = game.notes
        self.query_one("#solo-middle").set_class(notes.display, "-notes")
        self._fill_history()
        # Only the lifelines that can be used now are listed; when none can, the panel says why.
        usable = game.usable_lifelines
        for number in LIFELINE_COSTS:
            button = self.query_one(f"#solo-lifeline-{number}", Button)
            button.set_class(number not in usable, "-unusable")
            button.tooltip = f"Costs {guesses_word(LIFELINE_COSTS[number])}."
        none_left = self.query_one("#solo-no-lifelines", Static)
        none_left.update(Text(game.no_lifeline_note))
        none_left.set_class(bool(usable), "-unusable")
        hint = self.query_one("#solo-hint", Static)
        hint.update(Text("or type " + " / ".join(f"lifeline#{number}" for number in usable)))
        hint.set_class(not usable, "-unusable")
        set_state_classes(self, {"-over": game.over})
        if game.over:
            self._show_result()
        self.refresh_bindings()

    def _fill_history(self) -> None:
        table = self.query_one("#solo-history", DataTable)
        table.clear()
        ruleset = self.game.ruleset
        grid = self._grid = roomy(self.size.height, ruleset)
        clues = dict(self.game.clue_rows())
        for index, row in enumerate(self.game.history):
            number = Text(str(index + 1), justify="right")
            if row.is_lifeline:
                # What it told ("lifeline: has 4"; the replay says "LIFELINE: contains 4"), not a bare word.
                lifeline = Text(lifeline_cell(clues.get(index), narrow=self._narrow), style=Style(italic=True, dim=True))
                table.add_row(number, lifeline, "", "", "", height=2 if grid else 1)
                continue
            result: Feedback = row.feedback
            table.add_row(
                number, *result_cells(row.guess, result, ruleset, grid=grid, narrow=self._narrow), height=2 if grid else 1
            )
        if table.row_count:
            table.scroll_end(animate=False)

    def _show_result(self) -> None:
        game = self.game
        result = Text(end="")
        if game.won:
            result.append(f"You broke the code in {guesses_word(game.guesses_used)}!", style=Style(bold=True))
        else:
            result.append("The code was ", style=Style(bold=True))
            result.append_text(code_pegs(game.reveal(), game.ruleset.palette, gap=""))
        if self._record_text:
            result.append("\n")
            result.append(self._record_text, style=Style(italic=True))
        self.query_one("#solo-result", Static).update(result)

    # -- playing ---------------------------------------------------------------------------

    def on_peg_input_submitted(self, message: GuessInput.Submitted) -> None:
        message.stop()
        if message.stale:
            return  # already played (a second Enter in the same burst)
        if self.game.over:
            return
        text = message.text
        try:
            outcome = self.game.submit(text)
        except InvalidCode as invalid:
            self.messages.say(invalid.reason, "error")
            return
        if isinstance(outcome, LifelineResult):
            self._lifeline_said(outcome)
            message.control.clear()
            self._after_move()
            return
        self.messages.say(self.game.guess_line(self.game.guesses_used))
        message.control.clear()
        if self.choice.coach and not self.game.won:
            self._coach(self.game, self.game.guesses_used, self._games)
        self._after_move()

    def _lifeline_said(self, result: LifelineResult) -> None:
        if result.ok:
            self.messages.say(f"{result.message} That cost {guesses_word(result.cost)}.", "warning")
        else:
            self.messages.say(result.message, "error")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A lifeline the game would refuse (spent, off, or the game over) leaves the footer."""
        if action == "lifeline" and parameters:
            return not self.game.over and self.game.lifeline_refusal(int(parameters[0])) is None  # type: ignore[call-overload]
        if action == "share":
            return self.game.over
        return True

    def action_lifeline_refused(self, number: int) -> None:
        """F2/F3 while that lifeline cannot act: say why."""
        self.action_lifeline(number)

    def action_lifeline(self, number: int) -> None:
        """Ask for lifeline #1 (reveal a symbol) or #2 (reveal a position)."""
        if self.game.over:
            self.messages.say("The game is over.", "error")
            return
        self._lifeline_said(self.game.lifeline(number))
        self._after_move()

    def _after_move(self) -> None:
        self.publish()
        if self.game.over:
            self._finish()

    # -- the end of a game -----------------------------------------------------------------

    def _finish(self) -> None:
        game = self.game
        self.messages.say(game.result_message(), "success" if game.won else "error")
        record = game.record()
        self.share_text = solo_share(record.ruleset, record.players[0].guesses, game.won)
        if self.wom.save_game(record) is not None:
            return
        if game.won:
            self._consider_record()
        # Nothing focused: an Enter typed on the heels of the last move must not start the next game.
        self.set_focus(None)

    def _consider_record(self) -> None:
        game = self.game
        ruleset, used = game.ruleset, game.guesses_used
        hall = self.wom.with_store(self.wom.store.hall_of_fame)
        if hall is None:
            return
        if not hall.would_set_record(ruleset, used):
            held = game.record_message(hall)
            if held is not None:
                self._record_text = held
                self.messages.say(held)
                self._show_result()
            return
        if game.is_user:
            self._enter_hall(game.hall_entry())
            return

        def named(name: str | None) -> None:
            if name is None:
                self.messages.say("The record is left unclaimed.")
                return
            self._enter_hall(game.hall_entry(name))

        self.app.push_screen(HallNameScreen(game.hall_entry, f"{guesses_word(used)} on {ruleset.describe()}."), named)

    def _enter_hall(self, entry: HallEntry) -> None:
        entered = self.wom.with_store(lambda: self.wom.store.submit_hall_entry(entry))
        if entered is None:
            return
        if entered:
            self._record_text = f"A new record! {entry.name} is in the hall of fame."
            self.messages.say(
                f"A new record for {entry.ruleset.describe()}: {guesses_word(entry.guesses)}! "
                f"{entry.name} is in the hall of fame.",
                "success",
            )
        else:
            self.messages.say("Someone set a better record a moment ago; no new record this time.", "warning")
        self._show_result()

    # -- new game, leaving -----------------------------------------------------------------

    @property
    def in_progress(self) -> bool:
        """True while a game has moves in it and is not over (leaving would lose them)."""
        return not self.game.over and self.game.guesses_used > 0

    def _new_game(self) -> None:
        self.workers.cancel_group(self, "coach")
        if not self.game.over:
            self.game.abandon()
        self.game = self._fresh_game()
        self._games += 1
        self._record_text = None
        self.share_text = None
        self._swap_input()

    def publish(self) -> None:
        """Show the game, and keep it to resume after a crash (forgotten once over)."""
        super().publish()
        self.keep_progress()

    def _leave(self) -> None:
        self.forget_progress()
        super()._leave()

    # -- kept to resume after a crash (:mod:`.solo_resume` offers it at the next start) ------------

    def keepable(self) -> bool:
        return bool(self.game.keepable)

    def _start(self, fresh: GuessInput) -> None:
        self.publish()
        fresh.focus()
        self.call_after_refresh(self._announce_game)

    def _pressed(self, button: str) -> None:
        if button.startswith("lifeline-"):
            self.action_lifeline(int(button.rsplit("-", 1)[1]))
        elif button == "new":
            self.action_new_game()
        elif button == "share":
            self.action_share()

    # -- the player's notes (never read by the game) --------------------------------------------

    def action_notes(self) -> None:
        """F4: show the notes and move into them; F4 in the notes hides them again."""
        notes = self.query_one("#solo-notes", NotesGrid)
        if notes.has_focus:
            notes.display = False
            self._back_to_guess()
        else:
            notes.display = True
            notes.focus()
        self.query_one("#solo-middle").set_class(notes.display, "-notes")

    def on_notes_grid_changed(self, event: NotesGrid.Changed) -> None:
        event.stop()
        self.game.notes = event.notes
        self.keep_progress()

    def on_notes_grid_leave(self, event: NotesGrid.Leave) -> None:
        event.stop()
        self._back_to_guess()

    def _back_to_guess(self) -> None:
        guess = self.query("#solo-input")
        if guess and guess.first().display and not guess.first().disabled:
            guess.first().focus()

    def action_share(self) -> None:
        """Show the finished game's spoiler-free grid in the log and copy it (OSC 52; reaches SSH clients too)."""
        if self.share_text is None:
            return
        for line in self.share_text.splitlines():
            self.messages.say(line)
        self.app.copy_to_clipboard(self.share_text)
        self.notify("Copied to your clipboard.", title="Share")
