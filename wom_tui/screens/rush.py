"""Rush: three minutes, code after code (docs/play.md, *Rush*); the rules are :mod:`wom_tui.domain.rush`'s.

The clock starts with the first guess and is shown counting down; a run's bonus and a lost code's penalty are
said as they happen. Once time is up the score is kept as the player's personal best if it beats it (the store's
``RushBests``, per identity: a guest's is not kept), and ``a`` plays again.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static

from ..domain.rush import RUSH_RULESET, RushGame, RushMove, RushRefused, RushScore, next_bonus
from ..patches.footer import Footer
from ..widgets.peg_input import PegInput
from ..widgets.pegs import code_pegs, feedback_row
from .base import WomScreen

TICK = 0.25
"""Seconds between two redraws of the clock."""


def clock_text(seconds: float) -> str:
    """``m:ss`` (rounded up: the clock shows 0:00 only once time is up)."""
    whole = max(0, int(seconds + 0.999))
    return f"{whole // 60}:{whole % 60:02d}"


class RushScreen(WomScreen):
    """One Rush: type a guess and Enter; ctrl+n gives the code up (−10 s); ``a`` again once it is over."""

    BINDINGS = [
        Binding("ctrl+n", "skip", "Skip (−10 s)"),
        Binding("a", "again", "Again", show=False),
    ]
    AUTO_FOCUS = "#rush-input"

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(classes="rush-screen")
        self.clock = clock
        self.game = RushGame(0)
        """Drawn again from the app's seeded chance as the screen mounts."""
        self.best: RushScore | None = None
        self.kept: bool | None = None
        """Once over: True if the score became the personal best, False if not, None if not kept (a guest)."""

    def _new_game(self) -> RushGame:
        return RushGame(self.wom.rng.getrandbits(48))

    @property
    def _identity(self) -> str | None:
        return self.wom.identity.preference_key

    def compose(self) -> ComposeResult:
        with Vertical(id="rush-box", classes="panel"):
            yield Static(Text("Rush"), classes="panel-title")
            yield Static(Text(""), id="rush-clock")
            yield Static(Text(""), id="rush-score")
            yield Static(Text(""), id="rush-rows")
            yield PegInput(RUSH_RULESET, label="Your guess", id="rush-input")
            yield Static(Text("Guess to start the clock · ctrl+n: skip a code (−10 s) · Esc: back", style="dim"),
                         id="rush-message")
        yield Footer()

    def on_mount(self) -> None:
        self.game = self._new_game()
        self.set_interval(TICK, self._tick)
        identity = self._identity
        if identity is not None:
            store = self.wom.store
            self.best = self.wom.with_store(lambda: store.rush_best(identity))
        self._show()

    # -- showing ------------------------------------------------------------------------------

    def _tick(self) -> None:
        if self.game.ended_at is None and self.game.tick(self.clock()):
            self._over()
        self._show_clock()

    def _show_clock(self) -> None:
        now = self.clock()
        left = self.game.time_left(now)
        text = Text(clock_text(left), style=Style(bold=True, color="red" if left < 20 and self.game.started_at else None),
                    end="")
        if self.game.started_at is None:
            text.append("  (starts with your first guess)", style="dim")
        self.query_one("#rush-clock", Static).update(text)

    def _show(self) -> None:
        self._show_clock()
        game = self.game
        score = Text(f"Codes broken: {game.broken}", style="bold", end="")
        score.append(f" · run {game.run}", style="dim")
        length, seconds = next_bonus(game.run)
        if game.ended_at is None:
            score.append(f" · +{seconds:g} s at {length} in a row", style="dim")
        if self.best is not None:
            score.append(f" · best {self.best.broken}", style="dim")
        self.query_one("#rush-score", Static).update(score)
        rows = Text(end="")
        board = game.board
        for index, attempt in enumerate(board.history):
            if index:
                rows.append("\n")
            rows.append(f"{index + 1:>2}  ", style="dim")
            rows.append_text(code_pegs(attempt.guess, RUSH_RULESET.palette))
            rows.append("  ")
            rows.append_text(feedback_row(attempt.feedback, RUSH_RULESET.length))
        if not board.history:
            rows.append(f"Code #{len(game.codes) + 1}: {RUSH_RULESET.guesses} guesses, "
                        f"symbols {RUSH_RULESET.palette.listing()}", style="dim")
        self.query_one("#rush-rows", Static).update(rows)

    def _say(self, text: str, style: str = "") -> None:
        self.query_one("#rush-message", Static).update(Text(text, style=style))

    # -- playing --------------------------------------------------------------------------------

    def on_peg_input_submitted(self, message: PegInput.Submitted) -> None:
        message.stop()
        if message.stale or self.game.ended_at is not None:
            return
        try:
            move = self.game.guess(message.text, self.clock())
        except RushRefused as refused:
            self._say(refused.reason, "bold red")
            if self.game.ended_at is not None:
                self._over()
            return
        message.control.clear()
        self._after(move)

    def action_skip(self) -> None:
        """Give the code up: the next one, 10 seconds less."""
        if self.game.ended_at is not None:
            return
        try:
            move = self.game.skip(self.clock())
        except RushRefused as refused:
            self._say(refused.reason, "bold red")
            return
        self._after(move)

    def _after(self, move: RushMove) -> None:
        if move.broke:
            bonus = f" +{move.seconds:g} s for {self.game.run} in a row!" if move.seconds > 0 else ""
            self._say(f"Broken: {move.code}.{bonus}", "bold green")
        elif move.lost:
            self._say(f"Lost: the code was {move.code}. −{-move.seconds:g} s.", "bold red")
        elif move.feedback is not None:
            self._say(f"{move.feedback.black} black, {move.feedback.white} white.")
        if move.over:
            self._over()
        self._show()

    def _over(self) -> None:
        score = self.game.score()
        self.query_one("#rush-input", PegInput).disabled = True
        identity = self._identity
        if identity is not None and self.kept is None:
            store = self.wom.store
            self.kept = self.wom.with_store(lambda: store.submit_rush(identity, score))
            if self.kept:
                self.best = score
        words = f"Time is up: {score.broken} codes broken in {score.guesses} guesses, best run {score.best_run}."
        if self.kept:
            words += " A new personal best!"
        elif identity is None:
            words += " (a guest's best is not kept)"
        self._say(words + "  a: again · Esc: back", "bold")
        self._show()

    def action_again(self) -> None:
        """Another Rush, once this one is over."""
        if self.game.ended_at is None:
            return
        self.game = self._new_game()
        self.kept = None
        entry = self.query_one("#rush-input", PegInput)
        entry.disabled = False
        entry.clear()
        entry.focus()
        self._say("Guess to start the clock · ctrl+n: skip a code (−10 s) · Esc: back", "dim")
        self._show()


__all__ = ["RushScreen", "clock_text"]
