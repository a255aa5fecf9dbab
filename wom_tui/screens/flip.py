"""Computer breaks your code (flip the script): HAL9000 guesses, the person's code answers (SPEC §4).

The person either types a secret code (hidden, with a peek key) and the app scores every guess,
or scores each guess by hand to play against a real board. By hand, the moment no code fits the
answers given, the screen says so, names the answer most likely wrong, and lets it be corrected.
HAL9000 thinks in a thread worker, so the screen never freezes, and plays at
``options.computer_pace``.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, DataTable, Footer, Input, Static
from textual.worker import get_current_worker

from ..domain.codes import Feedback, InvalidCode, Ruleset
from ..domain.flip import BREAKER, FlipGame, InvalidAnswer
from ..domain.store import StoreError
from ..widgets.message_log import MessageLog
from ..widgets.pegs import code_pegs
from .solo import SoloChoice
from .solo_base import SoloPlayScreen
from .solo_widgets import (
    GuessInput,
    codes_remain,
    guess_cell,
    guesses_word,
    result_cells,
    roomy,
    short_count,
)

Phase = str
"""One of "secret", "thinking", "answer", "fix", "over"."""


class DigitInput(Input):
    """A one-digit box: a typed digit replaces what is there, then :class:`Typed` lets the screen move on."""

    class Typed(Message):
        """A digit was typed."""

        def __init__(self, digit_input: DigitInput) -> None:
            super().__init__()
            self.digit_input = digit_input

    def __init__(self, *, id: str) -> None:
        super().__init__(restrict=r"[0-9]*", max_length=1, id=id, compact=True)

    async def _on_key(self, event: events.Key) -> None:
        character = event.character
        if character is not None and len(character) == 1 and character.isdigit():
            event.stop()
            event.prevent_default()
            self.value = character
            self.cursor_position = 1
            self.post_message(self.Typed(self))
            return
        await super()._on_key(event)


class FlipScreen(SoloPlayScreen):
    """HAL9000 breaks the person's code; the history shows how many codes remain after each answer."""

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("ctrl+n", "new_game", "New", key_display="^n"),
    ]

    PREFIX = "flip"
    INPUT_ID = "flip-secret"
    HISTORY_EXTRA = (("Left", 6),)
    new_game_detail = "HAL9000 stops work on this code."
    leave_detail = "HAL9000 stops work on your code."

    def __init__(self, choice: SoloChoice) -> None:
        super().__init__(choice)
        self.ruleset = self._pick_ruleset()
        self.game: FlipGame | None = None if not choice.by_hand else FlipGame(self.ruleset)
        self.phase: Phase = "answer" if choice.by_hand else "secret"
        self.counts: list[tuple[int, bool] | None] = []
        self.fixing: int | None = None
        self._token = 0
        """Bumped for every new game, so a worker's late answer for an old game is ignored."""

    def _pick_ruleset(self) -> Ruleset:
        return self.choice.setup.pick_ruleset(self.wom.rng)

    # -- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(classes="solo-status"):
            yield Static("", id="flip-turn")
            yield Static("", id="flip-count")
        yield Static("", id="flip-info", classes="solo-info")
        with Horizontal(classes="solo-middle"):
            yield self._history_table()
            yield MessageLog(id="flip-log")
        with Horizontal(classes="solo-bottom"):
            with Vertical(id="flip-entry"):
                yield self._new_input()
                with Vertical(id="flip-answer"):
                    yield Static("", id="flip-question")
                    with Horizontal(id="flip-answer-row"):
                        yield Static("Black", classes="flip-answer-label")
                        yield DigitInput(id="flip-black")
                        yield Static("White", classes="flip-answer-label")
                        yield DigitInput(id="flip-white")
                        yield Button("Answer", id="flip-send", variant="primary", compact=True)
                yield Static("", id="flip-wait")
                yield self._over_panel()
            yield Static("", id="flip-actions")
        yield Footer()

    def _new_input(self) -> GuessInput:
        return GuessInput(
            self.ruleset, commands=False, masked=True, label="Your secret code · ^r peek", id="flip-secret"
        )

    def on_mount(self) -> None:
        self._dress_panels("HAL9000's guesses")
        self.call_after_refresh(self._begin)

    def _begin(self) -> None:
        ruleset = self.ruleset
        symbols = ruleset.palette.listing()
        repeats = "repeats allowed" if ruleset.repeats else "no symbol twice"
        if self.choice.by_hand:
            self.messages.say(
                f"Think of a code of {ruleset.length} symbols from {symbols} ({repeats}); keep it on paper."
            )
            self.messages.say(f"{BREAKER} has {guesses_word(ruleset.guesses)}. Answer each with black and white.")
            self._set_phase("thinking")
            self._next_turn()
        else:
            self.messages.say(f"Set a code of {ruleset.length} symbols from {symbols} ({repeats}).")
            self.messages.say(f"It stays hidden (^r to peek); {BREAKER} has {guesses_word(ruleset.guesses)}.")
            self._set_phase("secret")
            self.query_one("#flip-secret", GuessInput).focus()

    # -- showing ---------------------------------------------------------------------------

    def _set_phase(self, phase: Phase) -> None:
        self.phase = phase
        for name in ("secret", "thinking", "answer", "fix", "over"):
            self.set_class(phase == name, f"-{name}")
        self._show()

    def _show(self) -> None:
        game = self.game
        used = game.guesses_used if game else 0
        turn = self.query_one("#flip-turn", Static)
        if self.phase == "secret":
            turn.update(Text(f"{BREAKER} breaks your code"))
        elif self.phase == "over" and game is not None:
            turn.update(Text("Broken!" if game.broke else "Not broken"))
        else:
            shown = min(used + (0 if self.phase == "fix" else 1), self.ruleset.guesses)
            turn.update(Text(f"{BREAKER}: guess {shown} of {self.ruleset.guesses}"))
        count = self.counts[-1] if self.counts else None
        count_line = Text(end="")
        if self.phase == "fix":
            count_line.append("No code fits the answers given", style=Style(bold=True))
        elif count is not None:
            count_line.append(codes_remain(count))
        elif self.phase == "thinking":
            count_line.append(f"{BREAKER} is thinking…", style=Style(italic=True))
        self.query_one("#flip-count", Static).update(count_line)
        info = Text(self.choice.player, style=Style(bold=True), end="")
        how = "you score each guess by hand" if self.choice.by_hand else "your code is hidden"
        info.append(f" · {self.ruleset.describe()} · {how}")
        self.query_one("#flip-info", Static).update(info)
        self._fill_history()
        self._show_actions()

    def _fill_history(self) -> None:
        table = self.query_one("#flip-history", DataTable)
        table.clear()
        game = self.game
        if game is None:
            return
        grid = self._grid = roomy(self.size.height, self.ruleset)
        for index, (guess, result) in enumerate(game.history):
            count = self.counts[index] if index < len(self.counts) else None
            mark = index == self.fixing
            number = Text(f"{index + 1}{'!' if mark else ''}", justify="right",
                          style=Style(bold=True, reverse=True) if mark else Style())
            table.add_row(
                number,
                *result_cells(guess, result, self.ruleset, grid=grid),
                Text(short_count(count) if count else "", justify="right"),
                height=2 if grid else 1,
            )
        if game.pending is not None:
            table.add_row(
                Text(str(game.guesses_used + 1), justify="right"),
                guess_cell(game.pending, self.ruleset),
                Text("?", justify="center"),
                Text("?", justify="center"),
                "",
                "",
            )
        if self.fixing is not None:
            table.move_cursor(row=self.fixing, animate=False)
        elif table.row_count:
            table.scroll_end(animate=False)

    def _show_actions(self) -> None:
        text = Text(end="")
        if self.phase == "secret":
            text.append("Type it, or ←/→ ↑/↓, or click pegs.\nEnter sets it.\n")
            text.append("^r shows or hides it.", style=Style(dim=True))
        elif self.phase in ("answer", "fix"):
            text.append("● Black", style=Style(bold=True))
            text.append(": right symbol and place\n")
            text.append("○ White", style=Style(bold=True))
            text.append(": symbol in wrong place\n")
            if self.phase == "fix":
                text.append("Or click another row to correct.", style=Style(dim=True))
            else:
                text.append("Type two digits, then Enter.", style=Style(dim=True))
        self.query_one("#flip-actions", Static).update(text)
        wait = Text(f"{BREAKER} is thinking…", style=Style(italic=True), end="")
        if not self.choice.by_hand:
            wait.append("\nYour code: ", style=Style(italic=False))
            wait.append_text(code_pegs("•" * self.ruleset.length, None, gap=""))
        self.query_one("#flip-wait", Static).update(wait)

    # -- the secret ------------------------------------------------------------------------

    def on_peg_input_submitted(self, message: GuessInput.Submitted) -> None:
        message.stop()
        if self.phase != "secret":
            return
        try:
            self.game = FlipGame(self.ruleset, secret=message.text)
        except InvalidCode as invalid:
            self.messages.say(invalid.reason, "error")
            return
        self.messages.say(f"Your code is set. {BREAKER} starts guessing.")
        self._set_phase("thinking")
        self._next_turn()

    # -- HAL9000's turns -------------------------------------------------------------------

    def _next_turn(self) -> None:
        game = self.game
        if game is None or not self.is_attached:
            return
        self._set_phase("thinking")
        self._think(self._token, game.history)

    @work(thread=True, group="flip")
    def _think(self, token: int, history: tuple[tuple[str, Feedback], ...]) -> None:
        assert self.game is not None
        guess = self.game.think(history, self.wom.rng)
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._guessed, token, guess)

    def _guessed(self, token: int, guess: str) -> None:
        if token != self._token or self.game is None or not self.is_attached:
            return
        number = self.game.guesses_used + 1
        result = self.game.offer(guess)
        if result is None:
            self.messages.say(f"{BREAKER}'s guess #{number}: {guess}", "computer")
            self._ask_answer()
            return
        self.messages.say(
            f"{BREAKER}'s guess #{number}: {guess} → {result.black} black, {result.white} white.", "computer"
        )
        self._analyse(len(self.game.history) - 1)

    def _ask_answer(self) -> None:
        assert self.game is not None
        question = Text(f"Guess #{self.game.guesses_used + 1}  ", end="")
        question.append_text(code_pegs(self.game.pending or "", self.ruleset.palette, gap=""))
        self.query_one("#flip-question", Static).update(question)
        self.query_one("#flip-answer").border_title = f"Score {BREAKER}'s guess"
        black, white = self.query_one("#flip-black", Input), self.query_one("#flip-white", Input)
        black.value = white.value = ""
        self._set_phase("answer")
        black.focus()

    def _analyse(self, start: int) -> None:
        """Check the answers (by hand) and count the codes that remain after answers ``start``…"""
        assert self.game is not None
        del self.counts[start:]
        self._set_phase("thinking")
        self._count(self._token, self.game.history, start)

    @work(thread=True, group="flip")
    def _count(self, token: int, history: tuple[tuple[str, Feedback], ...], start: int) -> None:
        assert self.game is not None
        conflict = self.game.blame(history)
        counts = []
        if conflict is None:
            counts = [self.game.remaining(history[: i + 1]) for i in range(start, len(history))]
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._counted, token, conflict, counts)

    def _counted(self, token: int, conflict: tuple[int, str] | None, counts: list[tuple[int, bool]]) -> None:
        if token != self._token or self.game is None or not self.is_attached:
            return
        game = self.game
        if conflict is not None:
            self._ask_fix(conflict[0], announce=conflict[1])
            return
        self.fixing = None
        self.counts.extend(counts)
        if counts:
            self.messages.say(codes_remain(counts[-1]))
        if game.broke or game.out_of_guesses:
            self._finish()
            return
        pace = self.wom.options.computer_pace
        self._set_phase("thinking")
        if pace > 0:
            self.set_timer(pace, self._next_turn)
        else:
            self.call_later(self._next_turn)

    # -- answers by hand -------------------------------------------------------------------

    def _ask_fix(self, index: int, *, announce: str = "") -> None:
        assert self.game is not None
        guess, result = self.game.history[index]
        if announce:
            self.messages.say("No code fits the answers given.", "error")
            self.messages.say(announce, "warning")
        self.fixing = index
        question = Text(f"Guess #{index + 1}  ", end="")
        question.append_text(code_pegs(guess, self.ruleset.palette, gap=""))
        self.query_one("#flip-question", Static).update(question)
        self.query_one("#flip-answer").border_title = f"Correct the answer to guess #{index + 1}"
        black, white = self.query_one("#flip-black", Input), self.query_one("#flip-white", Input)
        black.value, white.value = str(result.black), str(result.white)
        table = self.query_one("#flip-history", DataTable)
        table.cursor_type = "row"
        self._set_phase("fix")
        black.focus()
        black.select_all()

    def on_digit_input_typed(self, message: DigitInput.Typed) -> None:
        message.stop()
        if message.digit_input.id == "flip-black":
            self.query_one("#flip-white", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input.id == "flip-black" and not self.query_one("#flip-white", Input).value:
            self.query_one("#flip-white", Input).focus()
            return
        self._send_answer()

    def _send_answer(self) -> None:
        game = self.game
        if game is None or self.phase not in ("answer", "fix"):
            return
        black_text = self.query_one("#flip-black", Input).value
        white_text = self.query_one("#flip-white", Input).value
        if not black_text or not white_text:
            self.messages.say("Please give both black and white (0 if none).", "error")
            return
        black, white = int(black_text), int(white_text)
        try:
            if self.phase == "fix" and self.fixing is not None:
                index = self.fixing
                result = game.correct(index, black, white)
                self.messages.say(
                    f"Answer to guess #{index + 1} corrected: {result.black} black, {result.white} white."
                )
                self.query_one("#flip-history", DataTable).cursor_type = "none"
                start = index
            else:
                result = game.answer(black, white)
                self.messages.say(f"You answer {result.black} black, {result.white} white.")
                start = game.guesses_used - 1
        except InvalidAnswer as invalid:
            self.messages.say(invalid.reason, "error")
            self.query_one("#flip-black", Input).focus()
            return
        self.fixing = None
        self._analyse(start)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        # Only a person's choice counts (a click or arrows in the table), not the screen's redraws.
        event.stop()
        table = event.data_table
        if (
            self.phase == "fix"
            and table.has_focus
            and self.game is not None
            and event.cursor_row < self.game.guesses_used
            and event.cursor_row != self.fixing
        ):
            self._ask_fix(event.cursor_row)

    # -- the end ---------------------------------------------------------------------------

    def _finish(self) -> None:
        assert self.game is not None
        game = self.game
        message = game.result_message()
        self.messages.say(message, "success" if game.broke else "warning")
        result = Text(message, style=Style(bold=True), end="")
        code = game.reveal()
        if code is not None:
            result.append("\nYour code: ", style=Style(bold=False))
            result.append_text(code_pegs(code, self.ruleset.palette, gap=""))
        self.query_one("#flip-result", Static).update(result)
        self._set_phase("over")
        try:
            self.wom.store.record_game(game.record(self.choice.player, self.choice.is_user))
        except StoreError as error:
            self.wom.show_store_error(error)
            return
        self.query_one("#flip-again", Button).focus()

    # -- new game, leaving -----------------------------------------------------------------

    @property
    def in_progress(self) -> bool:
        """True while HAL9000 is at work on a code (leaving would drop it)."""
        return self.game is not None and self.phase != "over"

    def _new_game(self) -> None:
        self._token += 1
        self.workers.cancel_group(self, "flip")
        self.ruleset = self._pick_ruleset()
        self.game = FlipGame(self.ruleset) if self.choice.by_hand else None
        self.counts = []
        self.fixing = None
        self.query_one("#flip-history", DataTable).cursor_type = "none"
        self._swap_input()

    def _start(self, fresh: GuessInput) -> None:
        self.call_after_refresh(self._begin)

    def _leave(self) -> None:
        # A worker's late answer must not land on the screen once the person has left.
        self._token += 1
        super()._leave()

    def _pressed(self, button: str) -> None:
        if button == "send":
            self._send_answer()
