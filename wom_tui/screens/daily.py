"""The daily code: today's puzzles, who played, the leaderboard and the wait.

:class:`DailyScreen` shows the day (UTC), the time until the next code, each player's standing
and the leaderboard; ``p`` opens :class:`DailyGameScreen`. The rules (one attempt per identity
and day, recorded at the first guess; the code from the folder's secret) are in
:mod:`wom_tui.domain.daily`; this module only binds them. ``player`` is the identity the screen
starts on (a registered name, or None for a guest) and ``can_switch=False`` hides the selector:
that is where a signed-in SSH identity can be passed later.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import date, datetime, timezone

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, DataTable, Static

from ..domain.codes import InvalidCode
from ..domain.daily import (
    CLASSIC,
    GUEST_REFUSAL,
    KNOWN_PUZZLES,
    VARIANT_PUZZLES,
    DailyAttempt,
    DailyPuzzle,
    DailyRefused,
    DayMark,
    Streak,
    check_can_start,
    daily_code,
    daily_share,
    day_of,
    find_attempt,
    format_wait,
    is_over,
    last_over,
    leaderboard,
    over_everywhere,
    streak,
    until_next,
)
from ..domain.game import GameKind
from ..domain.records import utc_now
from ..domain.solo import LifelinePolicy, SoloGame, SoloSetup
from ..domain.variant_game import daily_variant_game
from ..domain.variants import Variant
from ..domain.words import counted
from ..patches.footer import Footer
from ..widgets.peg_input import PegInput
from ..widgets.pegs import code_pegs, feedback_row
from .base import WomScreen
from ..widgets.choice import Choice
from ..widgets.player_select import PlayerChoice
from .stats import registered_names

Clock = Callable[[], datetime]


def _now() -> datetime:
    return datetime.now(timezone.utc)


_MARK_STYLES = {
    DayMark.BROKE: Style(color="green", bold=True),
    DayMark.NOT_BROKEN: Style(color="red", bold=True),
    DayMark.MISSED: Style(dim=True),
    DayMark.TO_PLAY: Style(bold=True),
}


_MARK_WORDS = {DayMark.BROKE: "broke", DayMark.NOT_BROKEN: "lost", DayMark.MISSED: "missed", DayMark.TO_PLAY: "to play"}
"""What each mark means, in the legend after the row (only the marks the row shows)."""


def streak_text(result: Streak) -> Text:
    """``Streak 3 · best 7 · the last 30 days:`` then the row of marks and, under it, what the marks shown
    mean (shapes, not only colours: they read the same under NO_COLOR).
    """
    text = Text("Streak ", style=Style(dim=True), end="")
    text.append(str(result.current), style=Style(bold=True))
    text.append(" · best ", style=Style(dim=True))
    text.append(str(result.best), style=Style(bold=True))
    text.append(f" · the last {counted(len(result.history), 'day')}:\n", style=Style(dim=True))
    for mark in result.history:
        text.append(mark.value, style=_MARK_STYLES[mark])
    shown = set(result.history)
    legend = " ".join(f"{mark.value} {_MARK_WORDS[mark]}" for mark in DayMark if mark in shown)
    text.append(f"\n{legend}", style=Style(dim=True))  # a line of its own: whole at 60 columns too
    return text


class DailyScreen(WomScreen):
    """Today's daily codes: choose the player and the puzzle, see the leaderboard, ``p`` to play."""

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("p", "play", "Play"),
        Binding("p", "why_not", show=False),  # when Play is not offered: p says why
    ]

    clock: Clock = staticmethod(_now)
    """Where the screen reads the time (tests replace it)."""

    def __init__(self, player: str | None = None, *, can_switch: bool = True) -> None:
        super().__init__()
        self.player = player
        self.can_switch = can_switch
        self.day = day_of(self.clock())
        self._why_not: str | None = None
        """Why the chosen player cannot play the chosen puzzle today (None: they can)."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """P plays only when Play is offered; otherwise it says why (no key in the footer for it)."""
        if action == "play":
            return self._why_not is None
        if action == "why_not":
            return self._why_not is not None
        return super().check_action(action, parameters)

    def action_why_not(self) -> None:
        """Say why this player cannot play today's code (p with Play not offered)."""
        if self._why_not is not None:
            self.notify(self._why_not, severity="warning", markup=False)

    def compose(self) -> ComposeResult:
        with Vertical(id="daily-box", classes="panel"):
            with Horizontal(id="daily-top"):
                yield Static(Text(f"Daily code · {self.day.isoformat()}"), id="daily-title")
                yield Static("", id="daily-wait")
            with Horizontal(id="daily-choose"):
                yield PlayerChoice(registered_names(self), self.player, id="daily-player")
                # The classic puzzles, then each variant's daily code (docs/play.md, *Variants*).
                yield Choice([(Text(p.title), p.key) for p in KNOWN_PUZZLES.values()], value="classic", id="daily-puzzle")
                yield Button("Play", id="daily-play", variant="primary", compact=True)
            yield Static("", id="daily-status")
            yield Static("", id="daily-streak")
            yield DataTable(id="daily-board", cursor_type="none", zebra_stripes=True)
            yield Static("", id="daily-empty", classes="empty-state")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#daily-player", PlayerChoice).display = self.can_switch
        table = self.query_one("#daily-board", DataTable)
        for key, label in (("place", "#"), ("player", "Player"), ("result", "Guesses"), ("time", "Time (UTC)")):
            table.add_column(Text(label), key=key)
        table.border_title = "Today's leaderboard"
        self._tick()
        self.set_interval(1, self._tick)
        self._refresh()
        if self.identity is None and self.can_switch:
            self.query_one("#daily-player", PlayerChoice).focus()
        else:
            self.query_one("#daily-play", Button).focus()

    def on_screen_resume(self) -> None:
        self._refresh()

    @property
    def puzzle(self) -> DailyPuzzle:
        """The puzzle chosen."""
        return KNOWN_PUZZLES[str(self.query_one("#daily-puzzle", Choice).value)]

    @property
    def identity(self) -> str | None:
        """The registered user chosen, or None for a guest."""
        return self.query_one("#daily-player", PlayerChoice).chosen

    def _tick(self) -> None:
        now = self.clock()
        text = Text("Next code in ", style=Style(dim=True), end="")
        text.append(format_wait(until_next(now)), style=Style(bold=True))
        self.query_one("#daily-wait", Static).update(text)
        if day_of(now) != self.day:
            self.day = day_of(now)
            self.query_one("#daily-title", Static).update(Text(f"Daily code · {self.day.isoformat()}"))
            self._refresh()

    def _refresh(self) -> None:
        day, puzzle, who = self.day.isoformat(), self.puzzle, self.identity
        attempts = self.wom.with_store(lambda: self.wom.store.daily_attempts_on(day))
        if attempts is None:
            return
        status = self.query_one("#daily-status", Static)
        play = self.query_one("#daily-play", Button)
        mine = find_attempt(attempts, day, puzzle.key, who) if who else None
        refusal = None
        if who is not None and mine is None:
            try:
                check_can_start(attempts, day, puzzle.key, who, self.wom.identity.fingerprint)
            except DailyRefused as refused:
                refusal = refused.reason
        if who is None:
            said = Text(GUEST_REFUSAL)
        elif refusal is not None:
            said = Text(refusal)
        elif mine is None:
            said = Text(f"{who}: today's {puzzle.title} code is waiting. One attempt — p to play.")
        elif not mine.finished:
            said = Text(f"{mine.player} started today's {puzzle.title} code and left: no second try today.")
        elif mine.broke:
            said = Text(f"{mine.player} broke today's {puzzle.title} code in {mine.guesses}/{puzzle.ruleset.guesses}.")
        else:
            said = Text(f"{mine.player} did not break today's {puzzle.title} code (X/{puzzle.ruleset.guesses}).")
        past = self._past_code()
        if past is not None:
            said.append("\n")
            said.append_text(past)
        status.update(said)
        self._show_streak(who, puzzle)
        if who is None:
            why_not: str | None = GUEST_REFUSAL
        elif refusal is not None:
            why_not = refusal
        elif mine is not None:
            done = "played" if mine.finished else "started"
            why_not = f"{mine.player} has already {done} today's {puzzle.title} code: one attempt a day."
        else:
            why_not = None
        if why_not != self._why_not:
            self._why_not = why_not
            self.refresh_bindings()
        play.disabled = why_not is not None
        play.display = why_not is None  # no Play button for a player who cannot play: the status says why
        table = self.query_one("#daily-board", DataTable)
        table.clear()
        rows = leaderboard(attempts, day, puzzle.key)
        for row in rows:
            table.add_row(Text(str(row.place or "")), Text(row.player), Text(row.result), Text(row.time))
        table.display = bool(rows)
        empty = self.query_one("#daily-empty", Static)
        empty.update(Text("Nobody has played today's code yet: be the first!"))
        empty.display = not rows

    def _show_streak(self, who: str | None, puzzle: DailyPuzzle) -> None:
        shown = self.query_one("#daily-streak", Static)
        mine = None if who is None else self.wom.with_store(lambda: self.wom.store.daily_attempts_of(who),
                                                            on_error=lambda _error: None)
        shown.display = mine is not None
        if mine is not None:
            shown.update(streak_text(streak(mine, puzzle.key, self.day)))

    def _past_code(self) -> Text | None:
        """The chosen puzzle's code of the latest day that is over everywhere (None before any secret)."""
        secret = self.wom.with_store(self.wom.store.daily_secret_kept, on_error=lambda _error: None)
        if not secret:
            return None
        day = last_over(self.clock())
        puzzle = self.puzzle
        if puzzle.key in VARIANT_PUZZLES:
            codes = daily_variant_game(secret, day, Variant(puzzle.key), CLASSIC.ruleset).secrets
            if not codes:
                return Text(f"Devious held no code on {day.isoformat()}: it answers each guess as it goes.",
                            style=Style(dim=True))
        else:
            codes = (daily_code(secret, day, puzzle),)
        text = Text(f"The {day.isoformat()} {'codes' if len(codes) > 1 else 'code'}, over everywhere now, "
                    f"{'were' if len(codes) > 1 else 'was'} ", style=Style(dim=True), end="")
        for index, code in enumerate(codes):
            if index:
                text.append(" ")
            text.append_text(code_pegs(code, puzzle.ruleset.palette, gap=""))
        return text

    def on_choice_changed(self, event: Choice.Changed) -> None:
        event.stop()
        self._refresh()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "daily-play":
            self.action_play()

    def action_play(self) -> None:
        """Play today's chosen puzzle, if this identity still may."""
        who = self.identity
        store, day, puzzle = self.wom.store, self.day.isoformat(), self.puzzle.key
        key = self.wom.identity.fingerprint

        def allowed_secret() -> bytes:
            check_can_start(store.daily_attempts_on(day), day, puzzle, who, key)
            return store.daily_secret()

        try:
            secret = self.wom.with_store(allowed_secret)
        except DailyRefused as refusal:
            self.notify(refusal.reason, severity="warning")
            return
        if secret is None:
            return
        assert who is not None
        if puzzle in VARIANT_PUZZLES:
            from .solo_choice import SoloChoice
            from .variant_game import DailyVariant, VariantGameScreen

            variant = Variant(puzzle)
            base = CLASSIC.ruleset
            game = daily_variant_game(secret, self.day, variant, base, who, True)
            setup = SoloSetup(base.length, base.palette, base.repeats, base.guesses, LifelinePolicy.NONE)
            self.app.push_screen(VariantGameScreen(SoloChoice(who, True, setup, variant=variant), game,
                                                   daily=DailyVariant(self.day, self.puzzle)))
            return
        code = daily_code(secret, self.day, self.puzzle)
        self.app.push_screen(DailyGameScreen(who, self.puzzle, self.day, code))


class DailyGameScreen(WomScreen):
    """One attempt at a daily code; the attempt is recorded at the first guess (with the SSH key, if any).

    No guess is taken once the day is over everywhere, and a lost attempt's screen does not say the
    code before then (docs/play.md, *The daily code*).
    """

    BINDINGS = [Binding("escape", "back", "Back"), Binding("c", "share", "Share")]

    leave_question = "Leave today's code?"
    leave_detail = "Your attempt is spent: there is no second try today."

    def __init__(self, player: str, puzzle: DailyPuzzle, day: date, code: str) -> None:
        super().__init__()
        self.player = player
        self.puzzle = puzzle
        self.day = day
        # No lifelines in the daily code, so the random source is never drawn from.
        self.game = SoloGame(puzzle.ruleset, code, self.wom.rng, LifelinePolicy.NONE)
        self.started = False
        self.share_text: str | None = None

    clock: Clock = staticmethod(_now)
    """Where the screen reads the time (tests replace it)."""

    def compose(self) -> ComposeResult:
        ruleset = self.puzzle.ruleset
        with Vertical(id="daily-game-box", classes="panel"):
            head = Text(f"Daily code {self.day.isoformat()} · {self.puzzle.title} · ", end="")
            head.append(self.player, style=Style(bold=True))
            yield Static(head, id="daily-game-head")
            with Horizontal(id="daily-game-main"):
                yield Static("", id="daily-game-rows")
                yield Static("", id="daily-share")
            yield PegInput(ruleset, label="Your guess", id="daily-input")
            yield Static("", id="daily-message")
        yield Footer()

    def on_mount(self) -> None:
        self._show()
        self.query_one("#daily-input", PegInput).focus()

    def _show(self) -> None:
        game, ruleset = self.game, self.puzzle.ruleset
        text = Text(end="")
        for number, row in enumerate(game.history, start=1):
            text.append(f"{number:>2} ", style=Style(dim=True))
            text.append_text(code_pegs(row.guess, ruleset.palette, gap=""))
            text.append("  ")
            text.append_text(feedback_row(row.feedback, ruleset.length))
            text.append("\n")
        left = game.guesses_left
        if not game.over:
            text.append(f"Guess #{game.guess_number} of {ruleset.guesses}", style=Style(bold=True))
            text.append(f" · {left} left · symbols {ruleset.palette.listing()}", style=Style(dim=True))
        self.query_one("#daily-game-rows", Static).update(text)

    def _say(self, message: str, style: str = "") -> None:
        self.query_one("#daily-message", Static).update(Text(message, style=style))

    def on_peg_input_submitted(self, message: PegInput.Submitted) -> None:
        message.stop()
        if message.stale:
            return  # already played (a second Enter in the same burst)
        if self.game.over:
            return
        if is_over(self.day, self.clock()):
            self._say(f"The {self.day.isoformat()} code is over everywhere: no more guesses.", "bold red")
            self.query_one("#daily-input", PegInput).disabled = True
            return
        try:
            guess = self.puzzle.ruleset.parse(message.text)
        except InvalidCode as invalid:
            self._say(invalid.reason, "bold red")
            return
        if not self.started:
            attempt = DailyAttempt(self.day.isoformat(), self.puzzle.key, self.player, utc_now(),
                                   key=self.wom.identity.fingerprint)
            try:
                store = self.wom.store

                def start() -> bool:
                    store.start_daily(attempt)
                    return True

                started = self.wom.with_store(start)
            except DailyRefused as refusal:
                self._say(refusal.reason, "bold red")
                self.query_one("#daily-input", PegInput).disabled = True
                return
            if started is None:
                return
            self.started = True
        result = self.game.guess(guess)
        message.control.clear()
        self._say(f"Guess #{self.game.guesses_used}: {result.black} black, {result.white} white.")
        self._show()
        if self.game.over:
            self._finish()

    def _finish(self) -> None:
        game = self.game
        self.query_one("#daily-input", PegInput).display = False
        record = dataclasses.replace(game.record(self.player, True), kind=GameKind.DAILY)
        try:
            saved = self.wom.save_daily(
                record, self.day.isoformat(), self.puzzle.key, guesses=game.guesses_used, broke=game.won
            )
        except DailyRefused as refusal:
            self._say(refusal.reason, "bold red")
            return
        if not saved:
            return
        results = [row.feedback for row in game.history if row.feedback is not None]
        # The streak is counted with this attempt finished (a store that cannot say leaves it out).
        mine = self.wom.with_store(lambda: self.wom.store.daily_attempts_of(self.player), on_error=lambda _error: None)
        run = None if mine is None else streak(mine, self.puzzle.key, self.day)
        self.share_text = daily_share(self.day, self.puzzle, results, game.won, run)
        if game.won:
            self._say(f"You broke today's code in {game.guesses_used}!", "bold green")
        elif is_over(self.day, self.clock()):
            self._say(f"Out of guesses. {game.reveal_message}", "bold")
        else:
            # Anyone may still play this code under another name (a new key registers one; on one
            # machine any name that has not played, or a new one): the code waits for the day's end.
            self._say(f"Out of guesses. The code is shown once the day is over everywhere: "
                      f"{over_everywhere(self.day):%Y-%m-%d %H:%M} UTC, on the daily screen.", "bold")
        share = Text(self.share_text)
        share.append("\nc: copy to your clipboard · Esc: back", style=Style(dim=True))
        self.query_one("#daily-share", Static).update(share)

    def action_share(self) -> None:
        """Copy the spoiler-free grid to the player's clipboard (OSC 52; reaches SSH clients too)."""
        if self.share_text is None:
            self.notify("The grid can be shared once the game is over.", severity="warning")
            return
        self.app.copy_to_clipboard(self.share_text)
        self.notify("Copied to your clipboard.", title="Share")

    def leaving_loses_progress(self) -> bool:
        """Once the first guess is played and until the game is over, leaving spends the day's attempt."""
        return self.started and not self.game.over

    def action_back(self) -> None:
        """Back to the daily screen; an attempt under way asks first (the attempt stays spent)."""
        if self.leaving_loses_progress():
            self.ask_to_leave(self._leave)
        else:
            self._leave()

    def _leave(self) -> None:
        self.dismiss()
