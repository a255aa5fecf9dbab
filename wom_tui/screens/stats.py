"""My stats: games, wins, streaks, the guess-distribution chart, points over time.

The screen only binds: the numbers come from :func:`wom_tui.domain.stats.player_stats` over the
store's game summaries. ``player`` is whose statistics open first — a registered name, or None
to start on the player of the latest recorded game (the SSH identity can be passed here later);
``can_switch=False`` hides the player selector.
"""

from __future__ import annotations

import asyncio

from rich.style import Style
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Sparkline, Static

from ..domain.arena import Arena, results_line, results_of
from ..domain.moderation import retired_name_keys
from ..domain.ratings import DISPLAY_BASE, RatingBook
from ..domain.stats import BREAKING_KINDS, GameSummary, PlayerStats, RulesetStats, StatsCache
from ..domain.store import StoreError
from ..domain.users import name_key
from ..domain.words import counted
from ..widgets.bar_chart import BarChart
from ..patches.footer import Footer
from ..widgets.choice import Choice
from ..widgets.player_select import PlayerChoice
from .base import WomScreen

STATS = StatsCache()
"""Statistics already worked out for the store's current summaries (opening My stats again is free)."""

GUEST_NOTE = "Guests' games count for nobody: choose a registered player to see their statistics."


def average_text(value: float | None) -> str:
    """An average to one decimal, or ``"—"`` when there is none."""
    return "—" if value is None else f"{value:.1f}"


def left_out_text(left_out: list[StoreError]) -> Text:
    """``"Left out (damaged): games/….json — reason"`` for each game file that could not be read."""
    text = Text(end="")
    for index, error in enumerate(left_out):
        if index:
            text.append("\n")
        text.append("Left out, damaged: ", style=Style(bold=True))
        text.append(f"{error.path.parent.name}/{error.path.name}: {error.reason}")
    return text


def registered_names(screen: WomScreen) -> list[str]:
    """Registered users' names A–Z, retired names left out (a damaged users file shows the store-error
    screen, then []).
    """
    store = screen.wom.store
    read = screen.wom.with_store(lambda: (store.users(), retired_name_keys(store.retired())))
    users, retired = read if read is not None else ((), frozenset())
    return sorted((user.name for user in users if name_key(user.name) not in retired),
                  key=lambda name: (name.casefold(), name))


class SummariesScreen(WomScreen):
    """A screen over the store's game summaries (My stats, Replays): :meth:`_load` reads them in a
    worker thread, then :meth:`_loaded` shows them (a store failure shows the store-error screen).

    Reading starts when the screen is composed (:meth:`_start_reading`, the first thing ``compose``
    does), so the folder is listed while the widgets are built and styled. ``on_mount`` awaits
    :meth:`_load_before_first_frame`, which holds the screen's first frame until the summaries are
    shown, for at most :attr:`HOLD_FIRST_FRAME` seconds: reading takes a few tens of milliseconds
    once the store's index is known, so the screen usually opens with its numbers (one frame built
    instead of a "Reading…" frame and then another), and the event loop, idle meanwhile, leaves the
    reading thread the whole interpreter. A slower read (a new session's first look at 10,000 games,
    a slow disk) shows "Reading the game records…" after the hold, and the numbers when it ends.
    """

    HOLD_FIRST_FRAME = 0.2
    """Seconds the first frame may wait for the summaries."""

    def __init__(self, player: str | None = None) -> None:
        super().__init__()
        self.player = player
        self.summaries: list[GameSummary] | None = None
        self.left_out: list[StoreError] = []
        self._reading = False
        self._mounted = False
        self._read: tuple[list[GameSummary], list[StoreError]] | None = None
        self._delivered = asyncio.Event()

    def _start_reading(self) -> None:
        """Start reading the summaries in a worker thread (once)."""
        if not self._reading:
            self._reading = True
            self._load()

    async def _load_before_first_frame(self) -> None:
        """Wait until the summaries are read (or the hold is over), and show them."""
        self._start_reading()
        self._mounted = True
        try:
            await asyncio.wait_for(self._delivered.wait(), self.HOLD_FIRST_FRAME)
        except asyncio.TimeoutError:
            pass  # The reading goes on; the numbers are shown when it ends.
        self._show_read()

    @work(thread=True, exclusive=True, group="summaries-load")
    def _load(self) -> None:
        read = self.wom.with_store(self.wom.store.game_summaries, from_thread=True)
        self._read_more()
        self.app.call_from_thread(self._deliver, read)

    def _read_more(self) -> None:
        """What else the screen reads in the same worker thread, after the summaries (nothing here)."""

    def _deliver(self, read: tuple[list[GameSummary], list[StoreError]] | None) -> None:
        self._read = read
        self._delivered.set()
        if self._mounted:
            self._show_read()

    def _show_read(self) -> None:
        read, self._read = self._read, None
        if read is not None and self.is_attached:  # (not if the screen was left meanwhile)
            self._loaded(*read)

    def _loaded(self, summaries: list[GameSummary], left_out: list[StoreError]) -> None:
        raise NotImplementedError


class StatsScreen(SummariesScreen):
    """A player's statistics; ←/→ (or the rules selector) change the ruleset of the chart."""

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("left", "ruleset(-1)", "Rules ←", key_display="←"),
        Binding("right", "ruleset(1)", "Rules →", key_display="→"),
    ]

    def __init__(self, player: str | None = None, *, can_switch: bool = True) -> None:
        super().__init__(player)
        self.ratings: RatingBook | None = None
        self.can_switch = can_switch
        self.stats: PlayerStats | None = None
        self.ruleset_index = 0
        self._names: list[str] = []
        self._wanted_rules: str | None | bool = False
        """The ruleset key this identity looked at last (False: not read from the store yet)."""

    FORM = "stats"
    """Where this identity's last ruleset here is remembered (docs/play.md, *Remembered choices*)."""

    _arenas: list[Arena] = []
    """Every Code Arena kept, read with the summaries (a player's line of results, when they played one)."""

    def _remember_rules(self, key: str) -> None:
        if key != self._wanted_rules:
            self._wanted_rules = key
            self.wom.remember(self.FORM, {"ruleset": key})

    def compose(self) -> ComposeResult:
        self._start_reading()
        with Vertical(id="stats-box", classes="panel"):
            with Horizontal(id="stats-top"):
                yield Static(Text("My stats"), id="stats-title")
                self._names = registered_names(self)
                yield PlayerChoice(self._names, self.player, id="stats-player")
            yield Static(Text("Reading the game records…"), id="stats-numbers")
            with Horizontal(id="stats-rules-row"):
                yield Static(Text("Rules"), classes="stats-label")
                yield Choice[str](id="stats-rules", prompt="no games yet")
            yield BarChart(id="stats-chart")
            yield Static("", id="stats-compare")
            with Horizontal(id="stats-points-row"):
                yield Static("", id="stats-points-label")
                yield Sparkline([], id="stats-points")
            with Horizontal(id="stats-rating-row"):
                yield Static("", id="stats-rating-label")
                yield Sparkline([], id="stats-rating")
            yield Static("", id="stats-left-out")
        yield Footer()

    def _read_more(self) -> None:
        """The ratings (from the store's cache; rated from the records if it is out of date), off the event loop."""
        self.ratings = self.wom.with_store(self.wom.store.rating_book, from_thread=True, on_error=lambda _: None)
        try:
            self._arenas = self.wom.store.live.arenas()
        except Exception:  # noqa: BLE001  (My stats shows without the arena line rather than fail)
            self._arenas = []

    async def on_mount(self) -> None:
        self.query_one("#stats-player", PlayerChoice).display = self.can_switch
        self.query_one("#stats-chart").border_title = "Guess distribution"
        await self._load_before_first_frame()

    def _loaded(self, summaries: list[GameSummary], left_out: list[StoreError]) -> None:
        self.summaries, self.left_out = summaries, left_out
        select = self.query_one("#stats-player", PlayerChoice)
        if self.player is None and self.can_switch:
            latest = self._latest_player(summaries)
            if latest is not None and latest in self._names:
                with self.prevent(Choice.Changed):
                    select.value = latest
        self.query_one("#stats-left-out", Static).update(left_out_text(left_out))
        self._show()

    @staticmethod
    def _latest_player(summaries: list[GameSummary]) -> str | None:
        for summary in reversed(summaries):
            if summary.kind in BREAKING_KINDS:
                for line in summary.players:
                    if line.is_user:
                        return line.name
        return None

    # -- showing ---------------------------------------------------------------------------

    @property
    def chosen(self) -> str | None:
        """The registered user whose statistics are shown, or None for a guest."""
        return self.query_one("#stats-player", PlayerChoice).chosen

    def _show(self) -> None:
        if self.summaries is None:
            return
        numbers = self.query_one("#stats-numbers", Static)
        name = self.chosen
        if name is None:
            self.stats = None
            numbers.update(Text(GUEST_NOTE))
            self._show_ruleset(None)
            return
        stats = self.stats = STATS.player_stats(self.summaries, name)
        text = Text(end="")
        for label, value in (
            ("Games", str(stats.games)),
            ("Wins", str(stats.wins)),
            ("Win %", str(stats.win_percent)),
            ("Streak", str(stats.current_streak)),
            ("Best", str(stats.best_streak)),
            ("Avg guesses", average_text(stats.average)),
        ):
            text.append(f"{label} ", style=Style(dim=True))
            text.append(value, style=Style(bold=True))
            text.append("   ")
        if not stats.games:
            text.append("\n")
            text.append(f"{stats.player} has no recorded games yet.", style=Style(italic=True))
        arena_line = results_line(results_of(self._arenas, stats.player, self.wom.store.live.clock()),
                                  stats.arena_games)
        if arena_line is not None:
            text.append("\n")
            text.append(arena_line, style=Style(dim=True))
        if stats.variants_line is not None:
            text.append("\n")
            text.append(stats.variants_line, style=Style(dim=True))
        numbers.update(text)
        rules: Choice[str] = self.query_one("#stats-rules", Choice)
        with self.prevent(Choice.Changed):
            rules.set_options([(Text(r.ruleset.describe()), r.ruleset.key) for r in stats.rulesets])
            if stats.rulesets:
                if self._wanted_rules is False:
                    wanted = self.wom.remembered(self.FORM).get("ruleset")
                    self._wanted_rules = wanted if isinstance(wanted, str) else None
                keys = [r.ruleset.key for r in stats.rulesets]
                if self._wanted_rules in keys:  # an unknown or damaged key: the first ruleset, as always
                    self.ruleset_index = keys.index(str(self._wanted_rules))
                self.ruleset_index = min(self.ruleset_index, len(stats.rulesets) - 1)
                rules.value = stats.rulesets[self.ruleset_index].ruleset.key
        self._show_ruleset(stats.rulesets[self.ruleset_index] if stats.rulesets else None)
        points_label = self.query_one("#stats-points-label", Static)
        points = self.query_one("#stats-points", Sparkline)
        if stats.points:
            games = counted(len(stats.points), "WoM game")
            points_label.update(Text(f"Points over {games}: 0 → {stats.points[-1]} "))
            points.data = [0, *stats.points]
            points.display = True
        else:
            points_label.update(Text("Points over time: no World of Mastermind games yet.", style=Style(dim=True)))
            points.display = False
        self._show_rating(name)

    def _show_rating(self, name: str) -> None:
        """The rating after each rated game (docs/play.md, *Ratings*), as a line and a sparkline."""
        label = self.query_one("#stats-rating-label", Static)
        line = self.query_one("#stats-rating", Sparkline)
        rating = self.ratings.rating(name) if self.ratings is not None else None
        if rating is None or not rating.history:
            label.update(Text("Rating: no rated games yet.", style=Style(dim=True)))
            line.display = False
            return
        games = counted(rating.games, "rated game")
        now = f"{rating.value} (provisional)" if rating.provisional else str(rating.value)
        label.update(Text(f"Rating over {games}: {DISPLAY_BASE} → {now} "))
        line.data = [DISPLAY_BASE, *rating.history]
        line.display = True

    def _show_ruleset(self, ruleset_stats: RulesetStats | None) -> None:
        chart = self.query_one("#stats-chart", BarChart)
        compare = self.query_one("#stats-compare", Static)
        if ruleset_stats is None:
            chart.bars = ()
            compare.update("")
            self.query_one("#stats-points-label", Static).update("")
            self.query_one("#stats-points", Sparkline).display = False
            self.query_one("#stats-rating-label", Static).update("")
            self.query_one("#stats-rating", Sparkline).display = False
            return
        bars = ruleset_stats.bars
        # Long rule sets (up to 20 guesses) keep to 80×24: bars past the last one used are left off.
        if len(bars) > 11:
            last_used = max((i for i, bar in enumerate(bars[:-1]) if bar.count), default=0)
            bars = (*bars[: max(last_used + 1, 10)], bars[-1])
        chart.bars = tuple((bar.label, bar.count, bar.highlight) for bar in bars)
        games = ruleset_stats.games
        chart.border_subtitle = f"{counted(games, 'game')} · {ruleset_stats.wins} won · ◀ last game"
        text = Text("Average guesses: ", style=Style(dim=True), end="")
        text.append(f"{self.stats.player if self.stats else ''} {average_text(ruleset_stats.average)}", style=Style(bold=True))
        for computer in ruleset_stats.computers:
            text.append(" · ")
            text.append(f"{computer.name} {average_text(computer.average)}", style=Style(bold=True))
            text.append(f" ({counted(computer.games, 'game')})", style=Style(dim=True))
        compare.update(text)

    # -- changing what is shown ------------------------------------------------------------

    def on_choice_changed(self, event: Choice.Changed) -> None:
        event.stop()
        if event.choice.id == "stats-player":
            self.ruleset_index = 0
            self._show()
        elif event.choice.id == "stats-rules" and self.stats is not None:
            keys = [r.ruleset.key for r in self.stats.rulesets]
            if event.value in keys:
                self.ruleset_index = keys.index(event.value)
                self._remember_rules(keys[self.ruleset_index])
                self._show_ruleset(self.stats.rulesets[self.ruleset_index])

    def action_ruleset(self, step: int) -> None:
        """Show the previous (-1) or next (+1) ruleset the player played."""
        if self.stats is None or not self.stats.rulesets:
            return
        self.ruleset_index = (self.ruleset_index + step) % len(self.stats.rulesets)
        rules: Choice[str] = self.query_one("#stats-rules", Choice)
        with self.prevent(Choice.Changed):
            rules.value = self.stats.rulesets[self.ruleset_index].ruleset.key
        self._remember_rules(self.stats.rulesets[self.ruleset_index].ruleset.key)
        self._show_ruleset(self.stats.rulesets[self.ruleset_index])
