"""Replays: finished games newest first (filter by kind and player), then one game guess by guess.

:class:`ReplaysScreen` lists the store's game summaries; Enter (or a click) opens
:class:`ReplayScreen`, which binds a :class:`wom_tui.domain.replay.Replay`: ←/→ step a round,
Home/End jump, every board is shown as it was, with the coach's count under it. Solo and daily
games can be shared from there (``c``). ``player`` is whose games the list starts on (a name, or
None for everyone's); it can be wired to the signed-in identity later.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import DataTable, Static
from textual.worker import get_current_worker

from ..domain.arena import arena_title
from ..domain.codes import Feedback, Palette, Ruleset
from ..domain.daily import PUZZLES, daily_share, daily_title, day_of, sealed_until, share_text, variant_share, SOLO_TITLE
from ..domain.game import GameKind
from ..domain.moderation import retired_name_keys, shown_name
from ..domain.records import GameRecord
from ..domain.replay import Replay, quad_answers, remaining_text
from ..domain.stats import GameSummary
from ..domain.store import StoreError
from ..domain.users import name_key
from ..domain.variants import Variant
from ..widgets.choice import Choice
from ..patches.footer import Footer
from ..widgets.pegs import code_pegs, current_scheme, feedback_row
from ..widgets.player_select import PlayerChoice
from ..widgets.quad_rows import answer_cell
from .base import WomScreen
from .stats import SummariesScreen, left_out_text, registered_names

KINDS: tuple[tuple[str, str], ...] = (
    ("", "All kinds"),
    (GameKind.WOM.value, "World of Mastermind"),
    (GameKind.SOLO.value, "Solo"),
    (GameKind.DAILY.value, "Daily"),
    (GameKind.COMPUTER_BREAKS.value, "Computer breaks"),
)
KIND_LABELS = {
    GameKind.WOM.value: "WoM",
    GameKind.SOLO.value: "Solo",
    GameKind.DAILY.value: "Daily",
    GameKind.COMPUTER_BREAKS.value: "Computer breaks",
}


def when(stamp: str, *, short: bool = False) -> str:
    """``"2026-11-23 09:41"`` (UTC) from a record's ISO time; ``short``: ``"11-23 09:41"``."""
    moment = datetime.fromisoformat(stamp)
    if moment.tzinfo is not None:
        moment = moment.astimezone(timezone.utc)
    return moment.strftime("%m-%d %H:%M" if short else "%Y-%m-%d %H:%M")


SHORT_KIND_LABELS = {**KIND_LABELS, GameKind.COMPUTER_BREAKS.value: "HAL breaks"}
"""The kinds on a narrow terminal (the filter still says "Computer breaks")."""
ARENA_LABEL = "Arena"
"""The kind shown for a game a Code Arena paired (a World of Mastermind game; the filter's World of Mastermind)."""


def kind_label(summary: GameSummary, *, short: bool = False) -> str:
    """The list's Kind cell: ``Arena`` for an arena's game, the variant for a variant's (``Quad``), else the
    kind's label.
    """
    if summary.arena is not None:
        return ARENA_LABEL
    if summary.variant is not Variant.CLASSIC:
        return summary.variant.label
    return (SHORT_KIND_LABELS if short else KIND_LABELS).get(summary.kind, summary.kind)
SHORT_AT = 16
"""Under this many columns for the players, the list's dates lose their year and the kinds shorten."""


def players_cell(summary: GameSummary, retired: frozenset[str] = frozenset()) -> Text:
    """Each player with ✓ and their guesses if they broke their code, ✗ if not (a retired name as "retired player")."""
    text = Text(end="")
    for index, line in enumerate(summary.players):
        if index:
            text.append(" · ")
        text.append(shown_name(line.name, retired) if line.is_user else line.name)
        if summary.kind == GameKind.COMPUTER_BREAKS and line.attempts == 0:
            text.append(" (code)", style=Style(dim=True))
        elif line.broke:
            text.append(f" ✓{line.attempts}", style=Style(bold=True))
        else:
            text.append(" ✗", style=Style(dim=True))
    return text


COLUMNS: tuple[tuple[str, str], ...] = (
    ("when", "Finished (UTC)"), ("kind", "Kind"), ("rules", "Rules"), ("players", "Players"),
)
"""The replay list's columns (key, heading); the players take the width the others leave and wrap."""
MIN_PLAYERS_WIDTH = 12
"""The narrowest the Players column gets (on a terminal too narrow for the others, the list scrolls)."""

PAGE = 200
"""Games listed at a time in Replays (the next page is listed as the player nears the end)."""
NEAR_THE_END = 20
"""Rows from the end of the list at which the next page is listed."""


class GamesTable(DataTable[object]):
    """The list of games: Home and End go to the first and the last game (the rows, not the columns)."""

    BINDINGS = [
        Binding("home", "scroll_top", "First", show=False),
        Binding("end", "to_the_end", "Last", show=False),
    ]

    class ToTheEnd(Message):
        """End was pressed: the screen lists every game, then the cursor goes to the last."""

    def action_to_the_end(self) -> None:
        """Ask for every game to be listed, then go to the last."""
        self.post_message(self.ToTheEnd())


class ReplaysScreen(SummariesScreen):
    """Finished games, newest first; choose a kind and a player, Enter replays the highlighted one."""

    BINDINGS = [Binding("escape", "back", "Back"), Binding("enter", "open", "Replay", show=True)]

    def compose(self) -> ComposeResult:
        self._start_reading()
        with Vertical(id="replays-box", classes="panel"):
            with Horizontal(id="replays-top"):
                yield Static(Text("Replays"), id="replays-title")
                yield Choice([(Text(label), key) for key, label in KINDS], value="", id="replays-kind")
                yield PlayerChoice(registered_names(self), self.player, guest="Everyone", id="replays-player")
            yield GamesTable(id="replays-table", cursor_type="row", zebra_stripes=True)
            yield Static(Text("Reading the game records…"), id="replays-empty", classes="empty-state")
            yield Static("", id="replays-left-out")
        yield Footer()

    async def on_mount(self) -> None:
        table = self.query_one("#replays-table", DataTable)
        self._players_width = 0
        self._short = False
        """Narrow (60 columns): dates without the year, short kinds, so the players keep their room."""
        self._add_columns(table, MIN_PLAYERS_WIDTH)
        table.display = False
        self._unlisted: list[GameSummary] = []
        self._listed: list[GameSummary] = []
        store = self.wom.store
        self._retired = retired_name_keys(self.wom.with_store(store.retired) or ())
        self.watch(table, "scroll_y", self._scrolled, init=False)
        await self._load_before_first_frame()

    def _loaded(self, summaries: list[GameSummary], left_out: list[StoreError]) -> None:
        self.summaries, self.left_out = summaries, left_out
        self.query_one("#replays-left-out", Static).update(left_out_text(left_out))
        self._fill()

    def shown(self) -> list[GameSummary]:
        """The games the filters let through, newest first."""
        kind = self.query_one("#replays-kind", Choice).value
        player = self.query_one("#replays-player", PlayerChoice).chosen
        games = []
        for summary in reversed(self.summaries or []):
            if kind and summary.kind != kind:
                continue
            if player is not None and not any(name_key(line.name) == name_key(player) and line.is_user
                                  for line in summary.players):
                continue
            games.append(summary)
        return games

    # -- the Players column takes the width left over, and wraps ---------------------------------

    def _add_columns(self, table: DataTable[object], players_width: int) -> None:
        self._players_width = players_width
        for key, label in COLUMNS:
            label = "When (UTC)" if key == "when" and self._short else label
            table.add_column(Text(label), key=key, width=players_width if key == "players" else None)

    def _fitting_players_width(self, games: list[GameSummary]) -> int:
        """The Players column's width: what the table's width leaves beside the other columns (as wide as
        their headings and every listed game's cells), so the players wrap instead of being cut.
        """
        table = self.query_one("#replays-table", DataTable)
        box = self.query_one("#replays-box")
        width = box.content_region.width or max(min(self.size.width or self.app.size.width, 90) - 4, 0)
        width -= table.styles.scrollbar_size_vertical  # kept for the scroll bar a long list shows
        padding = 2 * table.cell_padding
        rules = {game.ruleset.title for game in games}

        def left(short: bool) -> int:
            kinds = {kind_label(game, short=short) for game in games}
            others = [
                len("When (UTC)") if short else max(cell_len("Finished (UTC)"), len("2026-11-23 09:41")),
                max([cell_len("Kind"), *map(cell_len, kinds)]),
                max([cell_len("Rules"), *map(cell_len, rules)]),
            ]
            return width - sum(other + padding for other in others) - padding

        self._short = left(False) < SHORT_AT
        return max(MIN_PLAYERS_WIDTH, left(self._short))

    def on_resize(self, _event: events.Resize) -> None:
        self.call_after_refresh(self._refit)

    def _refit(self) -> None:
        """After a resize: the same games listed again with the Players column fitted, the cursor kept."""
        if self.summaries is None or not self.is_mounted:
            return
        games = [*self._listed, *self._unlisted]
        was_short = self._short
        width = self._fitting_players_width(games)
        if width == self._players_width and self._short == was_short:
            return
        table = self.query_one("#replays-table", DataTable)
        row = table.cursor_row
        listed, self._listed = self._listed, []
        table.clear(columns=True)
        self._add_columns(table, width)
        self._add_rows(table, listed)
        if table.row_count:
            table.move_cursor(row=min(row, table.row_count - 1), animate=False)

    def _fill(self) -> None:
        if self.summaries is None:
            return
        table = self.query_one("#replays-table", DataTable)
        self._unlisted = self.shown()
        self._listed = []
        was_short = self._short
        width = self._fitting_players_width(self._unlisted)
        if width != self._players_width or self._short != was_short:
            table.clear(columns=True)
            self._add_columns(table, width)
        else:
            table.clear()
        self._add_page(table)
        empty = table.row_count == 0
        table.display = not empty
        self.query_one("#replays-empty", Static).update(Text("No finished games to show."))
        self.query_one("#replays-empty").display = empty
        if not empty:
            table.focus()

    def _add_page(self, table: DataTable[object]) -> None:
        """List the next :data:`PAGE` games: a long history is listed as the player reaches its end
        (10,000 rows at once took over a second to open), so opening costs the same for every player.
        """
        page, self._unlisted = self._unlisted[:PAGE], self._unlisted[PAGE:]
        self._add_rows(table, page)
        self._show_count(table)

    def _add_rows(self, table: DataTable[object], games: list[GameSummary]) -> None:
        for summary in games:
            players = players_cell(summary, self._retired)
            table.add_row(
                Text(when(summary.finished_at, short=self._short)),
                Text(kind_label(summary, short=self._short)),
                Text(summary.ruleset.title),
                players,
                key=summary.game_id,
                # As many lines as the players need; a row that fits is one line without measuring it
                # (measuring every row made Replays slower to open by half, bench/stats.py).
                height=None if players.cell_len > self._players_width else 1,
            )
        self._listed.extend(games)

    def _show_count(self, table: DataTable[object]) -> None:
        listed = table.row_count
        total = listed + len(self._unlisted)
        table.border_subtitle = f"{listed:,} of {total:,} · more as you scroll" if self._unlisted else None

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """Near the end of what is listed (a cursor key, Page Down, End): list the next page."""
        event.stop()
        table = event.data_table
        if self._unlisted and event.cursor_row >= table.row_count - NEAR_THE_END:
            self._add_page(table)

    def on_games_table_to_the_end(self, event: GamesTable.ToTheEnd) -> None:
        """End: list every game left, and go to the last."""
        event.stop()
        table = self.query_one("#replays-table", DataTable)
        while self._unlisted:
            self._add_page(table)
        table.action_scroll_bottom()

    def _scrolled(self, scroll_y: float) -> None:
        """Scrolled (wheel or scroll bar) near the end of what is listed: list the next page."""
        table = self.query_one("#replays-table", DataTable)
        if self._unlisted and scroll_y >= table.max_scroll_y - NEAR_THE_END:
            self._add_page(table)

    def on_choice_changed(self, event: Choice.Changed) -> None:
        event.stop()
        self._fill()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self._open(str(event.row_key.value))

    def action_open(self) -> None:
        """Replay the highlighted game."""
        table = self.query_one("#replays-table", DataTable)
        if not table.display or table.row_count == 0:
            return
        self._open(str(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value))

    def _open(self, game_id: str) -> None:
        record = self.wom.with_store(lambda: self.wom.store.game(game_id), on_error=self._cannot_replay)
        if record is None:
            return
        if record.players:
            # A daily game's guesses are its player's alone until its day is over everywhere; nobody is
            # proven on one machine (docs/play.md, *The daily code*).
            identity = self.wom.identity
            viewer = identity.name if identity.served else None
            until = sealed_until(record.kind, record.players[0].name, record.finished_at, viewer,
                                 datetime.now(timezone.utc))
            if until is not None:
                self.notify(f"A daily game's guesses are shown once its day is over everywhere: "
                            f"{until:%Y-%m-%d %H:%M} UTC.", title="Not yet", severity="warning")
                return
        self.app.push_screen(ReplayScreen(record, game_id, self._retired))

    def _cannot_replay(self, error: StoreError) -> None:
        self.notify(str(error), title="This game cannot be replayed", severity="error")


def quad_board_text(rows: list[tuple[str, tuple[Feedback | None, ...]]], ruleset: Ruleset, numbered: bool) -> Text:
    """A Quad board in a replay: a header naming the four codes, then each guess (one cell per symbol) with each
    code's answer in four columns (``2B1W``, ``✓`` broken now, ``·`` broken before: the cells of
    :mod:`..widgets.quad_rows`); without row numbers where two boards share 60 columns.
    """
    text = Text(end="")
    lead = 3 if numbered else 0
    text.append(" " * (lead + ruleset.length) + " " + " ".join(f" {n}  " for n in range(1, 5)) + "\n",
                style=Style(bold=True))
    for number, (guess, answers) in enumerate(rows, 1):
        if numbered:
            text.append(f"{number:>2} ", style=Style(dim=True))
        text.append_text(small_code(guess, ruleset.palette))
        for answer in answers:
            cell = answer_cell(answer, ruleset)
            cell.right_crop(1)
            text.append(" ")
            text.append_text(cell)
        text.append("\n")
    return text


def small_code(code: str, palette: Palette) -> Text:
    """A code as one coloured cell per symbol (for boards side by side)."""
    scheme = current_scheme()
    text = Text(end="")
    for symbol in code:
        text.append(symbol, style=scheme.style_for(symbol, palette))
    return text


class ReplayScreen(WomScreen):
    """One finished game, a round at a time: ←/→ step, Home/End jump, ``c`` shares a solo or daily game."""

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("left", "step(-1)", "Back a guess", key_display="←"),
        Binding("right", "step(1)", "Next guess", key_display="→"),
        Binding("home", "jump(0)", "Start", show=False),
        Binding("end", "jump(-1)", "End", show=False),
        Binding("c", "share", "Share"),
    ]

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (80, "-wide")]
    """Under 80 columns the boards lose their inner padding (three boards side by side at 60 columns)."""

    def __init__(self, record: GameRecord, game_id: str = "", retired: frozenset[str] = frozenset()) -> None:
        super().__init__()
        self.retired = retired
        """The retired names (their :func:`~..domain.moderation.retired_name_keys`), shown as "retired player"."""
        self.record = record
        self.game_id = game_id
        self.replay = Replay(record)

    def compose(self) -> ComposeResult:
        record = self.record
        with Vertical(id="replay-box", classes="panel"):
            head = Text(f"{KIND_LABELS.get(record.kind, record.kind)} · ", end="")
            if record.variant is not Variant.CLASSIC:
                head.append(f"{record.variant.label} · ")
            if record.arena is not None:
                head.append(f"{arena_title(record.arena)} · ")
            head.append(f"{record.ruleset.describe()} · ")
            head.append(when(record.finished_at))
            yield Static(head, id="replay-head")
            yield Static("", id="replay-step")
            with Horizontal(id="replay-boards"):
                for index, player in enumerate(self.replay.boards):
                    board = Static("", id=f"replay-board-{index}", classes="replay-board")
                    board.border_title = shown_name(player.name, self.retired)
                    yield board
            yield Static("", id="replay-share")
        yield Footer()

    def on_mount(self) -> None:
        self._show()

    def on_resize(self, _event: events.Resize) -> None:
        self.call_after_refresh(self._show)

    def _board_width(self) -> int:
        """The width inside one board (its border and padding taken off), laid out or foreseen."""
        board = self.query_one("#replay-board-0")
        if board.content_region.width:
            return board.content_region.width
        width = self.size.width or self.app.size.width
        padding = 0 if width < 80 else 2
        return max(min(width, 90) - 4, 0) // max(1, len(self.replay.boards)) - 2 - padding

    @property
    def wide(self) -> bool:
        """True when the boards have room for full pegs (else one cell per symbol)."""
        per_board = (self.size.width or 80) // max(1, len(self.replay.boards))
        return per_board >= self.record.ruleset.length * 4 + self.record.ruleset.length * 2 + 12

    def _board_text(self, index: int, counts_ready: bool) -> Text:
        replay, ruleset = self.replay, self.record.ruleset
        text = Text(end="")
        rows = replay.rows(index)
        wide, room = self.wide, self._board_width()
        quad = replay.quad_rows(index)
        if quad:
            text.append_text(quad_board_text(list(quad), ruleset, numbered=room >= 3 + ruleset.length + 20))
        lied = replay.lied_row(index)
        for row in rows if not quad else ():
            text.append(f"{row.number:>2} ", style=Style(dim=True))
            if row.is_lifeline:
                text.append(row.lifeline_text, style=Style(italic=True, dim=True))
            else:
                code = code_pegs(row.guess, ruleset.palette, gap="") if wide else small_code(row.guess, ruleset.palette)
                text.append_text(code)
                text.append(" ")
                # The key pegs close up where a spaced row would wrap inside the board ("● ● ○" / "○").
                spaced = 3 + code.cell_len + 1 + 2 * ruleset.length - 1
                text.append_text(feedback_row(row.feedback, ruleset.length, gap=" " if spaced <= room else ""))
                if lied == row.number - 1:  # Liar: the answer that lied (docs/play.md, *Variants*)
                    text.append(" ← the lie", style=Style(bold=True, color="red"))
            text.append("\n")
        shown, secret = replay.secret_shown(index)
        if not rows:
            text.append("No guess.\n" if shown else "no guess yet: → steps\n", style=Style(dim=True, italic=True))
        if replay.broke_by(index):
            text.append("Broke all four codes!" if quad else "Broke the code!", style=Style(bold=True))
        elif rows and len(rows) == len(replay.boards[index].guesses):
            text.append("Out of guesses.", style=Style(dim=True))
        elif quad:
            still = sum(1 for answer in quad[-1][1] if answer is not None and not answer.solves(ruleset.length))
            text.append(f"{still} of 4 codes open", style=Style(italic=True))
        elif rows:
            count = replay.count_after(index, len(rows)) if counts_ready else None
            text.append(remaining_text(count) if count else "counting…", style=Style(italic=True))
        if shown:
            # The code nobody broke (docs/play.md, *My stats and replays*); a record kept before codes were says so.
            codes = replay.boards[index].codes
            if codes:  # Quad: the four codes
                text.append("\nThe codes: " if rows else "The codes: ", style=Style(bold=True))
                for number, kept in enumerate(codes):
                    text.append(" " if number else "")
                    text.append_text(small_code(kept, ruleset.palette))
                return text
            label = replay.secret_label
            text.append(f"\n{label}" if rows else label, style=Style(bold=True))
            if secret is None:
                text.append("not kept", style=Style(dim=True, italic=True))
            else:
                text.append_text(code_pegs(secret, ruleset.palette, gap="") if wide else small_code(secret, ruleset.palette))
        return text

    def _show(self) -> None:
        replay = self.replay
        self.query_one("#replay-step", Static).update(
            Text(f"{replay.title()}   ←/→ step · Home/End jump", end="")
        )
        for index in range(len(replay.boards)):
            self.query_one(f"#replay-board-{index}", Static).update(self._board_text(index, self._counted()))
        if not self._counted():
            self._count(replay.step)

    def _counted(self) -> bool:
        return self.replay.counted_now()

    @work(thread=True, exclusive=True, group="replay-count")
    def _count(self, step: int) -> None:
        self.replay.counts_now()
        if get_current_worker().is_cancelled:
            return
        self.app.call_from_thread(self._show)

    def action_step(self, step: int) -> None:
        """One round back (-1) or on (+1)."""
        moved = self.replay.forward() if step > 0 else self.replay.back()
        if moved:
            self._show()

    def action_jump(self, step: int) -> None:
        """To the start (0) or the end (-1)."""
        self.replay.go_to(self.replay.rounds if step < 0 else 0)
        self._show()

    @property
    def shareable(self) -> bool:
        """True for the games that have a share grid (solo and daily): only they offer ``c``."""
        return self.record.kind in ("solo", "daily") and bool(self.record.players)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``c Share`` is offered only where it works."""
        if action == "share":
            return self.shareable
        return True

    def share(self) -> str | None:
        """The spoiler-free grid of this game (solo and daily games only), or None."""
        record = self.record
        if not self.shareable:
            return None
        player = record.players[0]
        if record.variant is not Variant.CLASSIC:  # each board's answers a row, as the game's own share
            rows = ([answers for _, answers in quad_answers(player.codes, [g for g, _ in player.guesses])]
                    if player.codes else [(fb,) for _, fb in player.guesses])
            title = daily_title(self._daily_day()) if record.kind == "daily" else SOLO_TITLE
            return variant_share(title, f"{record.variant.label}, {record.ruleset.title}", rows, record.ruleset,
                                 player.broke)
        results = [None if guess == "LIFELINE" else fb for guess, fb in player.guesses]
        if record.kind == "daily":
            puzzle = next((p for p in PUZZLES.values() if p.ruleset == record.ruleset), None)
            if puzzle is not None:
                return daily_share(self._daily_day(), puzzle, [r for r in results if r is not None], player.broke)
        return share_text(SOLO_TITLE, results, record.ruleset, player.broke)

    def _daily_day(self) -> str:
        # The attempt's day is the day the game finished or the one before (started before midnight);
        # without it (the store failed), the day the game finished.
        finished = day_of(datetime.fromisoformat(self.record.finished_at))
        for day in (finished, finished - timedelta(days=1)):
            attempts = self.wom.with_store(lambda: self.wom.store.daily_attempts_on(day.isoformat()),
                                           on_error=lambda _error: None)
            for attempt in attempts or ():
                if attempt.game_id == self.game_id:
                    return attempt.day
        return finished.isoformat()

    def action_share(self) -> None:
        """Show this game's share grid and copy it to the clipboard (OSC 52)."""
        text = self.share()
        if text is None:
            self.notify("Only solo and daily games can be shared.", severity="warning")
            return
        self.query_one("#replay-share", Static).update(Text(text))
        self.app.copy_to_clipboard(text)
        self.notify("Copied to your clipboard.", title="Share")
