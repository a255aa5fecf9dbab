"""The computer breaks your code: HAL9000 guesses, the person's code answers.

docs/play.md, *Solo: the computer breaks your code*.

The screen binds a :class:`~wom_tui.domain.computer_breaks.ComputerBreaksGame`: what it shows follows the
game's ``awaiting`` (the code, HAL9000 at work, an answer, a correction, or nothing once over). HAL9000's
work (:meth:`~wom_tui.domain.computer_breaks.ComputerBreaksGame.think`) runs in a thread worker that
posts :class:`ComputerBreaksScreen.Worked` with the result, so the screen never freezes, and HAL9000
plays at ``options.computer_pace``.
"""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, DataTable, Input, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from ..domain.codes import Feedback, InvalidCode, Ruleset
from ..domain.computer_breaks import (
    BREAKER,
    Analysis,
    ComputerBreaksGame,
    InvalidAnswer,
    Played,
)
from ..domain.strategies import Correction
from ..domain.game import Move
from ..domain.words import counted, plural
from ..patches.footer import Footer
from ..widgets.digit_input import DigitInput
from ..widgets.message_log import MessageLog
from ..widgets.pegs import code_pegs
from ..patches.state_classes import set_state_classes
from ..widgets.solo_history import (
    GuessInput,
    codes_remain,
    guess_cell,
    guesses_word,
    result_cells,
    roomy,
    short_count,
)
from .solo_base import SoloPlayScreen
from .solo_choice import SoloChoice

Phase = str
"""One of "secret", "thinking", "answer", "fix", "over": what the screen shows, from the game's ``awaiting``."""

PHASES = {Move.CODE: "secret", Move.GUESS: "thinking", Move.ANSWER: "answer", Move.CORRECTION: "fix"}

FIX_KEYS = "↑/↓ Enter or click · Tab: type"
"""How the person picks a correction, said above the list."""


def fix_label(guess: str, fix: Correction) -> Text:
    """``"#1 RRGB → 0●1○ · 4 codes"``: an offered correction, short enough for the side panel."""
    n, exact = fix.codes
    count = f"{n:,}" if exact else f"~{n:,}"
    text = Text(f"#{fix.index + 1} {guess} → ", end="")
    text.append(f"{fix.feedback.black}● {fix.feedback.white}○", style=Style(bold=True))
    text.append(f" · {count} {plural(n if exact else 2, 'code')}", style=Style(dim=True))
    return text


class FixList(OptionList):
    """The corrections offered, likeliest first: ↑/↓ and Enter (or a click) pick; Tab goes to typing one."""

    BINDINGS = [Binding("tab", "type_instead", "Type", show=False)]

    class TypeInstead(Message):
        """The person would rather type the corrected answer."""

    def action_type_instead(self) -> None:
        """Hand the keyboard to the black and white fields."""
        self.post_message(self.TypeInstead())


class ComputerBreaksScreen(SoloPlayScreen):
    """HAL9000 breaks the person's code; the history shows how many codes remain after each answer."""

    AUTO_FOCUS = ""
    """No focus from Textual: a code typed ahead waits for the screen to be built (the app holds it), and
    when the game is over nothing is focused, so a stray Enter starts nothing; :meth:`on_mount` focuses."""

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("ctrl+n", "new_game", "New", key_display="^n"),
    ]

    PREFIX = "computer-breaks"
    INPUT_ID = "computer-breaks-secret"
    HISTORY_EXTRA = (("Left", 6),)
    NARROW_PEGS = False
    """Under 72 columns (60×20) the key pegs give way to "Left", the codes that remain: the B and W
    counts, which are what the person answers with, say the same."""
    new_game_detail = "HAL9000 stops work on this code."
    leave_detail = "HAL9000 stops work on your code."

    class Worked(Message):
        """HAL9000's work for game ``token`` is done: a guess, or an analysis of the answers."""

        def __init__(self, token: int, result: str | Analysis) -> None:
            super().__init__()
            self.token = token
            self.result = result

    def __init__(self, choice: SoloChoice) -> None:
        super().__init__(choice)
        self.game = self._fresh_game()
        self._token = 0
        """Bumped for every new game, so a worker's late answer for an old game is ignored."""

    def _fresh_game(self) -> ComputerBreaksGame:
        choice = self.choice
        return ComputerBreaksGame(
            choice.setup.pick_ruleset(self.wom.rng), by_hand=choice.by_hand, player=choice.player,
            is_user=choice.is_user,
        )

    def _game_from_json(self, data: dict[str, Any]) -> ComputerBreaksGame:
        return ComputerBreaksGame.from_json(data)

    @property
    def ruleset(self) -> Ruleset:  # type: ignore[override]
        """The rules of the game being played."""
        return self.game.ruleset

    @property
    def phase(self) -> Phase:
        """What the screen shows now: ``"secret"``, ``"thinking"``, ``"answer"``, ``"fix"`` or ``"over"``."""
        awaiting = self.game.awaiting
        return "over" if awaiting is None else PHASES[awaiting.move]

    # -- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(classes="solo-status"):
            yield Static("", id="computer-breaks-turn")
            yield Static("", id="computer-breaks-count")
        yield Static("", id="computer-breaks-info", classes="solo-info")
        with Horizontal(classes="solo-middle"):
            yield self._history_table()
            yield MessageLog(id="computer-breaks-log")
        with Horizontal(classes="solo-bottom"):
            with Vertical(id="computer-breaks-entry"):
                yield self._new_input()
                with Vertical(id="computer-breaks-answer"):
                    yield Static("", id="computer-breaks-question")
                    with Horizontal(id="computer-breaks-answer-row"):
                        yield Static("Black", classes="computer-breaks-answer-label")
                        yield DigitInput(id="computer-breaks-black")
                        yield Static("White", classes="computer-breaks-answer-label")
                        yield DigitInput(id="computer-breaks-white")
                        yield Button("Answer", id="computer-breaks-send", variant="primary", compact=True)
                yield Static("", id="computer-breaks-wait")
                yield self._over_panel()
            yield Static("", id="computer-breaks-actions")
            with Vertical(id="computer-breaks-fixes"):
                yield Static(Text(FIX_KEYS), id="computer-breaks-fix-keys")
                yield FixList(id="computer-breaks-fix-list")
        yield Footer()

    def _new_input(self) -> GuessInput:
        return GuessInput(
            self.ruleset, commands=False, masked=True, label="Your secret code · ^r peek", id="computer-breaks-secret"
        )

    def on_mount(self) -> None:
        self._dress_panels("HAL9000's guesses")
        if not self.choice.by_hand:
            # The secret's field has the focus from the start: a code typed on the heels of the key
            # that opened the screen went to the history table and lost its first symbol.
            self.query_one("#computer-breaks-secret", GuessInput).focus()
        self.call_after_refresh(self._begin)

    def _begin(self) -> None:
        if self not in self.app.screen_stack:
            return  # left before the game was due to begin (a key then Esc in one burst)
        ruleset = self.ruleset
        symbols = ruleset.palette.listing()
        repeats = "repeats allowed" if ruleset.repeats else "no symbol twice"
        if self.choice.by_hand:
            self.messages.say(
                f"Think of a code of {counted(ruleset.length, 'symbol')} from {symbols} ({repeats}); keep it on paper."
            )
            self.messages.say(f"{BREAKER} has {guesses_word(ruleset.guesses)}. Answer each with black and white.")
            self._step()
        else:
            self.messages.say(f"Set a code of {counted(ruleset.length, 'symbol')} from {symbols} ({repeats}).")
            self.messages.say(f"It stays hidden (^r to peek); {BREAKER} has {guesses_word(ruleset.guesses)}.")
            self.publish()
            self.query_one("#computer-breaks-secret", GuessInput).focus()

    # -- showing ---------------------------------------------------------------------------

    def _show(self) -> None:
        """Bring every part of the screen up to date with the game."""
        phase = self.phase
        states = {f"-{name}": phase == name for name in ("secret", "thinking", "answer", "fix", "over")}
        states["-offered"] = phase == "fix" and bool(self.game.offered)
        set_state_classes(self, states)
        game = self.game
        turn = self.query_one("#computer-breaks-turn", Static)
        if phase == "secret":
            turn.update(Text(f"{BREAKER} breaks your code"))
        elif phase == "over":
            turn.update(Text("Broken!" if game.broke else "Not broken"))
        else:
            turn.update(Text(f"{BREAKER}: guess {game.turn_number} of {self.ruleset.guesses}"))
        count = game.remaining_count
        count_line = Text(end="")
        if phase == "fix":
            count_line.append("No code fits the answers given", style=Style(bold=True))
        elif count is not None:
            count_line.append(codes_remain(count))
        elif phase == "thinking":
            count_line.append(f"{BREAKER} is thinking…", style=Style(italic=True))
        self.query_one("#computer-breaks-count", Static).update(count_line)
        info = Text(self.choice.player, style=Style(bold=True), end="")
        how = "you score by hand" if self.choice.by_hand else "your code is hidden"
        info.append(f" · {self.ruleset.describe()} · {how}")
        self.query_one("#computer-breaks-info", Static).update(info)
        self._fill_history()
        self._show_actions()

    def _fill_history(self) -> None:
        table = self.query_one("#computer-breaks-history", DataTable)
        table.clear()
        game = self.game
        grid = self._grid = roomy(self.size.height, self.ruleset)
        for index, (guess, result) in enumerate(game.history):
            count = game.counts[index] if index < len(game.counts) else None
            mark = index == game.fixing
            number = Text(f"{index + 1}{'!' if mark else ''}", justify="right",
                          style=Style(bold=True, reverse=True) if mark else Style())
            cells = result_cells(guess, result, self.ruleset, grid=grid, narrow=self._narrow)
            table.add_row(
                number,
                *(cells[:3] if self._narrow else cells),
                Text(short_count(count) if count else "", justify="right"),
                height=2 if grid else 1,
            )
        if game.pending is not None:
            table.add_row(
                Text(str(game.guesses_used + 1), justify="right"),
                guess_cell(game.pending, self.ruleset, narrow=self._narrow),
                Text("?", justify="center"),
                Text("?", justify="center"),
                *([] if self._narrow else [""]),
                "",
            )
        if game.fixing is not None:
            table.move_cursor(row=game.fixing, animate=False)
        elif table.row_count:
            table.scroll_end(animate=False)

    def on_resize(self) -> None:
        super().on_resize()
        self._show_actions()  # the legend has a narrow form

    def _show_actions(self) -> None:
        phase = self.phase
        text = Text(end="")
        if phase == "secret":
            text.append("Type it, or ←/→ ↑/↓, or click pegs.\nEnter sets it.\n")
            text.append("^r shows or hides it.", style=Style(dim=True))
        elif phase in ("answer", "fix") and self._narrow:
            # Beside the answer panel at 60 columns: the same legend in the 14 columns left.
            text.append("● Black", style=Style(bold=True))
            text.append(":\nright place\n")
            text.append("○ White", style=Style(bold=True))
            text.append(":\nwrong place\n")
            text.append("Or click a row" if phase == "fix" else "Digits, Enter", style=Style(dim=True))
        elif phase in ("answer", "fix"):
            text.append("● Black", style=Style(bold=True))
            text.append(": right symbol and place\n")
            text.append("○ White", style=Style(bold=True))
            text.append(": symbol in wrong place\n")
            if phase == "fix":
                text.append("Or pick a row: click it, or Shift+Tab to the table.", style=Style(dim=True))
            else:
                text.append("Type two digits, then Enter.", style=Style(dim=True))
        self.query_one("#computer-breaks-actions", Static).update(text)
        wait = Text(f"{BREAKER} is thinking…", style=Style(italic=True), end="")
        if not self.choice.by_hand:
            wait.append("\nYour code: ", style=Style(italic=False))
            wait.append_text(code_pegs("•" * self.ruleset.length, None, gap=""))
        self.query_one("#computer-breaks-wait", Static).update(wait)

    # -- the secret ------------------------------------------------------------------------

    def on_peg_input_submitted(self, message: GuessInput.Submitted) -> None:
        message.stop()
        if message.stale:
            return  # already played (a second Enter in the same burst)
        if self.phase != "secret":
            return
        try:
            self.game.set_secret(message.text)
        except InvalidCode as invalid:
            self.messages.say(invalid.reason, "error")
            return
        self.messages.say(f"Your code is set. {BREAKER} starts guessing.")
        self._step()

    # -- HAL9000's turns -------------------------------------------------------------------

    def _step(self) -> None:
        """Show the game; when HAL9000 moves next, set it to work."""
        if not self.is_attached:
            return
        self.publish()
        if self.game.thinking:
            self._think(self._token, self.game)

    @work(thread=True, group="computer-breaks")
    def _think(self, token: int, game: ComputerBreaksGame) -> None:
        result = game.think(rng=self.wom.rng)
        if not get_current_worker().is_cancelled:
            self.post_message(self.Worked(token, result))

    def on_computer_breaks_screen_worked(self, message: Worked) -> None:
        """HAL9000's work is done: apply it to the game and say what it means."""
        message.stop()
        if message.token != self._token or not self.is_attached:
            return
        outcome = self.game.apply(message.result)
        if isinstance(outcome, Played):
            self._played(outcome)
        else:
            self._analysed(outcome)

    def _played(self, played: Played) -> None:
        result = played.feedback
        if result is None:
            self.messages.say(f"{BREAKER}'s guess #{played.number}: {played.guess}", "computer")
            self._ask_answer()
            return
        self.messages.say(
            f"{BREAKER}'s guess #{played.number}: {played.guess} → {result.black} black, {result.white} white.",
            "computer",
        )
        self._step()

    def _ask_answer(self) -> None:
        game = self.game
        question = Text(f"Guess #{game.guesses_used + 1}  ", end="")
        question.append_text(code_pegs(game.pending or "", self.ruleset.palette, gap=""))
        self.query_one("#computer-breaks-question", Static).update(question)
        self.query_one("#computer-breaks-answer").border_title = f"Score {BREAKER}'s guess"
        black, white = self.query_one("#computer-breaks-black", Input), self.query_one("#computer-breaks-white", Input)
        black.value = white.value = ""
        self.publish()
        black.focus()

    def _analysed(self, analysis: Analysis) -> None:
        if analysis.conflict is not None:
            self._fill_fixes()
            self._ask_fix(announce=analysis.blame(self.game.history))
            return
        if analysis.counts:
            self.messages.say(codes_remain(analysis.counts[-1]))
        if self.phase == "over":
            self._finish()
            return
        self.publish()
        pace = self.wom.options.computer_pace
        if pace > 0:
            self.set_timer(pace, self._step)
        else:
            self.call_later(self._step)

    # -- answers by hand -------------------------------------------------------------------

    def _fill_fixes(self) -> None:
        """List every correction offered, the likeliest first (highlighted)."""
        fixes = self.query_one("#computer-breaks-fix-list", FixList)
        fixes.clear_options()
        history = self.game.history
        fixes.add_options([Option(fix_label(history[fix.index][0], fix), id=str(number))
                           for number, fix in enumerate(self.game.offered)])
        if self.game.offered:
            fixes.highlighted = 0

    def _ask_fix(self, *, announce: str = "", proposed: tuple[int, int] | None = None) -> None:
        game = self.game
        assert game.fixing is not None
        index = game.fixing
        guess, result = game.history[index]
        if announce:
            self.messages.say("No code fits the answers given.", "error")
            self.messages.say(announce, "warning")
        question = Text(f"Guess #{index + 1}  ", end="")
        question.append_text(code_pegs(guess, self.ruleset.palette, gap=""))
        self.query_one("#computer-breaks-question", Static).update(question)
        self.query_one("#computer-breaks-answer").border_title = f"Correct the answer to guess #{index + 1}"
        black, white = self.query_one("#computer-breaks-black", Input), self.query_one("#computer-breaks-white", Input)
        black.value, white.value = (str(n) for n in (proposed or (result.black, result.white)))
        table = self.query_one("#computer-breaks-history", DataTable)
        table.cursor_type = "row"
        self.publish()
        if announce and game.offered:
            # The offered corrections have the keyboard: ↑/↓ and Enter pick, Tab goes to typing one.
            self.query_one("#computer-breaks-fix-list", FixList).focus()
        elif proposed is None:
            black.focus()
            black.select_all()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """A correction highlighted: its answer is the one shown for correcting, with the proposed score."""
        event.stop()
        game = self.game
        if self.phase != "fix" or event.option.id is None:
            return
        fix = game.offered[int(event.option.id)]
        game.choose_correction(fix.index)
        self._ask_fix(proposed=(fix.feedback.black, fix.feedback.white))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """A correction picked (Enter or a click): the answer is corrected and HAL9000 goes on."""
        event.stop()
        if self.phase != "fix" or event.option.id is None:
            return
        index = self.game.offered[int(event.option.id)].index
        result = self.game.take(int(event.option.id))
        self._corrected(index, result)

    def on_fix_list_type_instead(self, event: FixList.TypeInstead) -> None:
        """Tab in the corrections: type the answer to the highlighted guess instead."""
        event.stop()
        black = self.query_one("#computer-breaks-black", Input)
        black.focus()
        black.select_all()

    def _corrected(self, index: int, result: Feedback) -> None:
        self.messages.say(f"Answer to guess #{index + 1} corrected: {result.black} black, {result.white} white.")
        self.query_one("#computer-breaks-history", DataTable).cursor_type = "none"
        self._step()

    def on_digit_input_typed(self, message: DigitInput.Typed) -> None:
        message.stop()
        if message.digit_input.id == "computer-breaks-black":
            self.query_one("#computer-breaks-white", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input.id == "computer-breaks-black" and not self.query_one("#computer-breaks-white", Input).value:
            self.query_one("#computer-breaks-white", Input).focus()
            return
        self._send_answer()

    def _send_answer(self) -> None:
        game = self.game
        phase = self.phase
        if phase not in ("answer", "fix"):
            return
        black_text = self.query_one("#computer-breaks-black", Input).value
        white_text = self.query_one("#computer-breaks-white", Input).value
        if not black_text or not white_text:
            self.messages.say("Please give both black and white (0 if none).", "error")
            return
        black, white = int(black_text), int(white_text)
        try:
            if phase == "fix" and game.fixing is not None:
                index = game.fixing
                result = game.correct(index, black, white)
                self._corrected(index, result)
                return
            else:
                result = game.answer(black, white)
                self.messages.say(f"You answer {result.black} black, {result.white} white.")
        except InvalidAnswer as invalid:
            self.messages.say(invalid.reason, "error")
            self.query_one("#computer-breaks-black", Input).focus()
            return
        self._step()

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        # Only a person's choice counts (a click or arrows in the table), not the screen's redraws.
        event.stop()
        table = event.data_table
        game = self.game
        if (
            self.phase == "fix"
            and table.has_focus
            and event.cursor_row < game.guesses_used
            and event.cursor_row != game.fixing
        ):
            game.choose_correction(event.cursor_row)
            self._ask_fix()

    # -- the end ---------------------------------------------------------------------------

    def _finish(self) -> None:
        game = self.game
        message = game.result_message()
        self.messages.say(message, "success" if game.broke else "warning")
        result = Text(message, style=Style(bold=True), end="")
        code = game.reveal()
        if code is not None:
            result.append("\nYour code: ", style=Style(bold=False))
            result.append_text(code_pegs(code, self.ruleset.palette, gap=""))
        self.query_one("#computer-breaks-result", Static).update(result)
        self.publish()
        if self.wom.save_game(game.record()) is None:
            # Nothing focused: an Enter typed on the heels of the last move must not start the next game.
            self.set_focus(None)

    # -- new game, leaving -----------------------------------------------------------------

    @property
    def in_progress(self) -> bool:
        """True while HAL9000 is at work on a code (leaving would drop it)."""
        return self.phase not in ("secret", "over")

    def _new_game(self) -> None:
        self._token += 1
        self.workers.cancel_group(self, "computer-breaks")
        self.game.abandon()
        self.game = self._fresh_game()
        self.query_one("#computer-breaks-history", DataTable).cursor_type = "none"
        self._swap_input()

    def _start(self, fresh: GuessInput) -> None:
        self.call_after_refresh(self._begin)

    def _leave(self) -> None:
        # A worker's late answer must not land on the screen once the person has left.
        self._token += 1
        self.game.abandon()
        super()._leave()

    def _pressed(self, button: str) -> None:
        if button == "send":
            self._send_answer()
