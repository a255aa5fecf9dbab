"""A variant's solo game and a variant's daily code: Quad, Devious, Strict, Liar (docs/play.md, *Variants*).

The screen binds a :class:`~wom_tui.domain.variant_game.VariantGame` and asks it everything: the answers
on each board, Strict's refusal, the coach's line (in a thread worker), the result and what the end
reveals (the codes, Liar's lie, a code that fitted Devious's answers). One guess per row, each board's
answer side by side, so Quad's four boards fit at 60×20.

Solo (``daily=None``): kept to resume after every move like a classic solo game (:mod:`.solo_resume`),
Play again, Setup, Menu at the end; its record (:meth:`~wom_tui.domain.variant_game.VariantGame.record`, a
guest's too, as a classic solo game's) is saved at the end for Replays and My stats. Daily (:class:`DailyVariant`): the attempt is recorded at the first
guess the rules take, with the SSH key, and finished in the store at the end with the game's record (kind
daily) and its id, as the classic daily code's; a lost attempt says nothing
of the code until the day is over everywhere, as the classic daily code (docs/play.md, *The daily code*).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timezone

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Static

from ..domain.codes import InvalidCode, Palette
from ..domain.daily import (
    SOLO_TITLE,
    DailyAttempt,
    DailyPuzzle,
    DailyRefused,
    daily_title,
    is_over,
    over_everywhere,
    streak,
    variant_share,
)
from ..domain.game import GameKind, Refusal
from ..domain.records import utc_now
from ..domain.variant_game import VariantGame
from ..domain.variants import Variant
from ..patches.footer import Footer
from ..patches.state_classes import set_state_classes
from ..widgets.message_log import MessageLog
from ..widgets.peg_input import PegInput
from ..widgets.pegs import code_pegs, current_scheme, feedback_row
from .base import WomScreen
from .confirm import ConfirmScreen
from .solo_base import Coached, KeptToResume
from .solo_choice import SoloChoice

BROKEN = "✓"
"""A board's mark in the header once its code is broken."""


def _now() -> datetime:
    return datetime.now(timezone.utc)


@dataclass(frozen=True)
class DailyVariant:
    """A variant's daily code: the day and the puzzle the attempt is recorded under."""

    day: date
    puzzle: DailyPuzzle


def _guess(code: str, palette: Palette, narrow: bool) -> Text:
    """The guess as pegs: three cells each, or one coloured letter each when room is short."""
    if not narrow:
        return code_pegs(code, palette, gap="")
    scheme = current_scheme()
    text = Text(end="")
    for symbol in code:
        text.append(symbol, style=scheme.style_for(symbol, palette))
    return text


def boards_text(game: VariantGame, *, narrow: bool, reveal: bool = True) -> Text:
    """The game's rows: the guess, then each board's answer (blank once that board was broken before it); once
    over, and if the end may be revealed, Liar's lie is marked on its row.
    """
    ruleset = game.ruleset
    length, boards = ruleset.length, game.boards
    guess_width = length if narrow else 3 * length
    lied = game.lie_row() if reveal and game.over and game.variant is Variant.LIAR else None
    text = Text(end="")
    if boards > 1:
        text.append(" " * (3 + guess_width), style=Style(dim=True))
        for board in range(boards):
            label = f"{board + 1}{BROKEN if game.broken(board) else ''}"
            text.append(f" {label:<{length}}", style=Style(bold=True, color="green") if game.broken(board)
                        else Style(dim=True))
        text.append("\n")
    for number, row in enumerate(game.rows, start=1):
        text.append(f"{number:>2} ", style=Style(dim=True))
        text.append_text(_guess(row.guess, ruleset.palette, narrow))
        for answer in row.answers:
            text.append(" ")
            if answer is None:
                text.append(" " * length)
            elif answer.solves(length):
                text.append(BROKEN * length, style=Style(bold=True, color="green"))
            else:
                text.append_text(feedback_row(answer, length, gap=""))
        if number - 1 == lied:
            text.append(" ← the lie", style=Style(bold=True, color="red"))
        text.append("\n")
    if not game.over:
        text.append(f"Guess #{game.guesses_used + 1} of {ruleset.guesses}", style=Style(bold=True))
        text.append(f" · {game.guesses_left} left", style=Style(dim=True))
    return text


class VariantGameScreen(WomScreen, Coached, KeptToResume):
    """One person against a variant's code(s); ``daily`` for a variant's daily code, else a solo game."""

    AUTO_FOCUS = ""
    """:meth:`on_mount` focuses the guess (Textual would pick the first focusable: the log)."""
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (72, "-roomy")]
    """Under 72 columns a guess's pegs are one cell each, so four boards fit beside the messages."""

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("ctrl+n", "new_game", "New", key_display="^n"),
        Binding("c", "share", "Share"),
    ]

    leave_detail = "It is abandoned and not recorded."
    clock: Callable[[], datetime] = staticmethod(_now)
    """Where the daily game reads the time (tests replace it)."""

    def __init__(self, choice: SoloChoice, game: VariantGame | None = None, *,
                 daily: DailyVariant | None = None) -> None:
        super().__init__()
        self.choice = choice
        self.daily = daily
        self.game: VariantGame = game if game is not None else self._fresh_game()
        self._resumed = game is not None and game.guesses_used > 0
        self._games = 1
        self.started = False
        self.share_text: str | None = None
        """The finished game's spoiler-free grid (None while a game is under way)."""
        """Daily: True once the attempt is recorded (the first guess the rules took)."""
        self._narrow = False
        if daily is not None:
            self.leave_question = "Leave today's code?"
            self.leave_detail = "Your attempt is spent: there is no second try today."

    def _fresh_game(self) -> VariantGame:
        return VariantGame.new(self.choice.variant, self.choice.setup.pick_ruleset(self.wom.rng), self.wom.rng,
                               self.choice.player, self.choice.is_user)

    # -- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="variant-status", classes="solo-status"):
            yield Static("", id="variant-turn")
        yield Static("", id="variant-info", classes="solo-info")
        with Horizontal(id="variant-middle", classes="solo-middle"):
            with VerticalScroll(id="variant-boards-box") as box:
                box.can_focus = False
                yield Static("", id="variant-boards")
            yield MessageLog(id="variant-log")
        with Vertical(id="variant-entry"):
            yield PegInput(self.game.ruleset, label="Your guess", id="variant-input")
            with Vertical(id="variant-over"):
                yield Static("", id="variant-result")
                with Horizontal(id="variant-over-buttons"):
                    if self.daily is None:
                        yield Button("Play again", id="variant-again", variant="primary", compact=True)
                        yield Button("Setup", id="variant-setup", compact=True)
                    else:
                        yield Button("Daily code", id="variant-setup", variant="primary", compact=True)
                    yield Button("Menu", id="variant-menu", compact=True)
                    yield Button("c Share", id="variant-share", compact=True)
        yield Footer()

    @property
    def messages(self) -> MessageLog:
        """The game's message log."""
        return self.query_one("#variant-log", MessageLog)

    def on_mount(self) -> None:
        self.query_one("#variant-boards-box").border_title = self.game.variant.label
        self.messages.border_title = "Messages"
        self.messages.min_width = 12
        self._show()
        self.query_one("#variant-input", PegInput).focus()
        self.call_after_refresh(self._announce)

    def on_resize(self) -> None:
        if self.has_class("-narrow") != self._narrow:
            self._show()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A daily code has no new game."""
        if action == "new_game":
            return self.daily is None
        if action == "share":
            return self.share_text is not None
        return True

    # -- what the screen shows -------------------------------------------------------------

    def _announce(self) -> None:
        if self not in self.app.screen_stack:
            return
        game = self.game
        self.messages.say(game.told, "warning" if game.variant is Variant.LIAR else "info")
        self.messages.say(f"Symbols: {game.ruleset.palette.listing()}.")
        if self._resumed:
            self._resumed = False
            for line in game.transcript()[1:]:
                self.messages.say(line)
            self.messages.say(f"Resumed where you left it: guess #{game.guesses_used + 1} is next.")

    def _show(self) -> None:
        game = self.game
        self._narrow = self.has_class("-narrow")
        turn = Text(f"{game.variant.label} · ", end="")
        if game.won:
            turn.append(f"broken in {game.guesses_used}!")
        elif game.over:
            turn.append("out of guesses")
        else:
            turn.append(f"guess #{game.guesses_used + 1} of {game.ruleset.guesses}")
        if game.boards > 1:
            turn.append(f" · {len(game.open_boards)} of {game.boards} boards open", style=Style(dim=True))
        self.query_one("#variant-turn", Static).update(turn)
        info = Text(self.choice.player, style=Style(bold=True), end="")
        info.append(f" · {game.ruleset.describe()}")
        if self.daily is not None:
            info.append(f" · daily code {self.daily.day.isoformat()}")
        elif self.choice.coach:
            info.append(" · coach on")
        self.query_one("#variant-info", Static).update(info)
        self.query_one("#variant-boards", Static).update(boards_text(game, narrow=self._narrow and game.boards > 1, reveal=self._may_reveal()))
        self.query_one("#variant-boards-box", VerticalScroll).scroll_end(animate=False)
        set_state_classes(self, {"-over": game.over})
        self.refresh_bindings()

    # -- playing ---------------------------------------------------------------------------

    def on_peg_input_submitted(self, message: PegInput.Submitted) -> None:
        message.stop()
        if message.stale or self.game.over:
            return  # a second Enter in the same burst, or after the end
        game = self.game
        try:
            code = game.ruleset.parse(message.text)
            reason = game.refusal(code)
        except InvalidCode as invalid:
            self.messages.say(invalid.reason, "error")
            return
        if reason is not None:
            self.messages.say(reason, "error")  # Strict: refused, nothing spent
            return
        if self.daily is not None and not self._daily_may_guess():
            return
        try:
            turn = game.guess(code)
        except Refusal as refusal:
            self.messages.say(refusal.reason, "error")
            return
        message.control.clear()
        self._say_turn(turn.lines)
        if self.choice.coach and self.daily is None and not game.over:
            self._coach(game, game.guesses_used, self._games)
        self._after_move()

    def _say_turn(self, lines: tuple[str, ...]) -> None:
        """A guess's lines in the log; Quad's answers on the boards not broken by it in one line (the boards
        beside the log show each answer), so that four boards do not flood the messages.
        """
        broke = [line for line in lines if "broke the code" in line]
        rest = [line for line in lines if line not in broke]
        for line in broke:
            self.messages.say(line, "success")
        if len(rest) > 1:
            head = rest[0].split(" → ")[0]
            self.messages.say(head + " → " + "; ".join(line.split(" → ", 1)[1].rstrip(".") for line in rest) + ".")
        elif rest:
            self.messages.say(rest[0])

    def _after_move(self) -> None:
        self._show()
        self.keep_progress()
        if self.game.over:
            self._finish()

    # -- the daily code's attempt ----------------------------------------------------------

    def _daily_may_guess(self) -> bool:
        """Before a daily guess: the day still open, and the attempt recorded at the first (False: not played)."""
        daily = self.daily
        assert daily is not None
        if is_over(daily.day, self.clock()):
            self.messages.say(f"The {daily.day.isoformat()} code is over everywhere: no more guesses.", "error")
            self.query_one("#variant-input", PegInput).disabled = True
            return False
        if self.started:
            return True
        attempt = DailyAttempt(daily.day.isoformat(), daily.puzzle.key, self.choice.player, utc_now(),
                               key=self.wom.identity.fingerprint)
        store = self.wom.store

        def start() -> bool:
            store.start_daily(attempt)
            return True

        try:
            started = self.wom.with_store(start)
        except DailyRefused as refusal:
            self.messages.say(refusal.reason, "error")
            self.query_one("#variant-input", PegInput).disabled = True
            return False
        self.started = started is not None
        return self.started

    def _finish_daily(self) -> bool:
        """Save the game (kind daily, its variant) and close the daily attempt with its id; False if the store
        refused or failed (said on screen).
        """
        daily, game = self.daily, self.game
        assert daily is not None
        record = game.record(self.choice.player, True, GameKind.DAILY)
        try:
            return self.wom.save_daily(record, daily.day.isoformat(), daily.puzzle.key, guesses=game.guesses_used,
                                       broke=game.won)
        except DailyRefused as refusal:
            self.messages.say(refusal.reason, "error")
            return False

    # -- the end ---------------------------------------------------------------------------

    def _finish(self) -> None:
        game = self.game
        said = [game.result_message()]
        if self.daily is not None:
            self._finish_daily()
        else:
            self.wom.save_game(game.record())  # a guest's too, as a classic solo game (no hall of fame: docs/play.md)
        if self.daily is None or self._may_reveal():
            said.extend(game.reveal_lines())
        else:
            # Anyone may still play this code under another name: nothing of it is told before the day ends.
            said.append(f"The code is shown once the day is over everywhere: "
                        f"{over_everywhere(self.daily.day):%Y-%m-%d %H:%M} UTC, on the daily screen.")
        for line in said:
            self.messages.say(line, "success" if game.won else "warning")
        self.share_text = self._share()
        self.refresh_bindings()
        result = Text(said[0], style=Style(bold=True), end="")
        for line in said[1:]:
            result.append("\n" + line)
        self.query_one("#variant-result", Static).update(result)
        # Nothing focused: an Enter typed on the heels of the last guess must not start the next game.
        self.set_focus(None)

    def _may_reveal(self) -> bool:
        """A solo game's end says all; a lost daily attempt nothing of the code (nor the lie) until its day is
        over everywhere: anyone may still play it under another name (docs/play.md, *The daily code*).
        """
        return self.daily is None or self.game.won or is_over(self.daily.day, self.clock())

    def _share(self) -> str:
        game, daily = self.game, self.daily
        rows = [row.answers for row in game.rows]
        if daily is None:
            return variant_share(SOLO_TITLE, f"{game.variant.label}, {game.ruleset.title}", rows, game.ruleset,
                                 game.won)
        # The streak is counted with this attempt finished (a store that cannot say leaves it out).
        mine = self.wom.with_store(lambda: self.wom.store.daily_attempts_of(self.choice.player),
                                   on_error=lambda _error: None)
        run = None if mine is None else streak(mine, daily.puzzle.key, daily.day)
        return variant_share(daily_title(daily.day), daily.puzzle.title, rows, game.ruleset, game.won, run)

    def action_share(self) -> None:
        """Show the finished game's spoiler-free grid in the log and copy it (OSC 52; reaches SSH clients too)."""
        if self.share_text is None:
            return
        for line in self.share_text.splitlines():
            self.messages.say(line)
        self.app.copy_to_clipboard(self.share_text)
        self.notify("Copied to your clipboard.", title="Share")

    # -- new game, leaving -----------------------------------------------------------------

    @property
    def in_progress(self) -> bool:
        """True while a game has guesses in it (or a daily attempt is recorded) and is not over."""
        if self.game.over:
            return False
        return self.started if self.daily is not None else self.game.guesses_used > 0

    def leaving_loses_progress(self) -> bool:
        """A game under way would be lost (a daily attempt spent)."""
        return self.in_progress

    def action_back(self) -> None:
        """Back to the setup (or the daily screen); a game under way asks first."""
        if self.in_progress:
            self.ask_to_leave(self._leave)
        else:
            self.dismiss()

    def _leave(self) -> None:
        self.forget_progress()
        self.dismiss()

    def action_new_game(self) -> None:
        """Solo: start again with the same choices (asking first while a game is under way)."""
        if self.daily is not None:
            return
        if not self.in_progress:
            self._new_game()
            return

        def answered(go: bool | None) -> None:
            if go:
                self.messages.say("Game abandoned.", "warning")
                self._new_game()

        self.app.push_screen(ConfirmScreen("Start a new game?", "This one is dropped, not recorded.",
                                           confirm_label="New game", cancel_label="Keep playing",
                                           hint="y: new game · Esc or n: keep playing"), answered)

    def _new_game(self) -> None:
        self.workers.cancel_group(self, "coach")
        if not self.game.over:
            self.game.abandon()
        old = self.query_one("#variant-input", PegInput)
        self.game = self._fresh_game()
        self._games += 1
        self.share_text = None
        self.keep_progress()

        async def swap() -> None:
            await old.remove()
            fresh = PegInput(self.game.ruleset, label="Your guess", id="variant-input")
            await self.query_one("#variant-entry", Vertical).mount(fresh, before=0)
            self.messages.say("")
            self._show()
            fresh.focus()
            self._announce()

        self.call_later(swap)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "variant-again":
            self.action_new_game()
        elif event.button.id == "variant-setup":
            self.dismiss()
        elif event.button.id == "variant-menu":
            self.wom.action_menu()
        elif event.button.id == "variant-share":
            self.action_share()

    # -- kept to resume (solo only; :mod:`.solo_resume` offers it at the next start) --------------

    def keeps_games(self) -> bool:
        """A registered player's solo game is kept (a daily attempt is not: it is one attempt, played through)."""
        return self.daily is None and bool(self.game.is_user)


__all__ = ["DailyVariant", "VariantGameScreen", "boards_text"]
