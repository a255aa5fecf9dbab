"""The scoreboard (Name, Score, Games, Average), the rating board and the hall of fame, as three tabs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Static, TabbedContent, TabPane

from ..domain.moderation import retired_name_keys, shown_name
from ..domain.ratings import ACTIVE_DAYS, PROVISIONAL_GAMES, PROVISIONAL_MARK, PROVISIONAL_NOTE
from ..patches.footer import Footer
from ..widgets.rating_list import RatingList
from .base import WomScreen

if TYPE_CHECKING:
    from ..domain.halloffame import HallEntry
    from ..domain.ratings import Rating
    from ..domain.users import User

COLUMNS = (("name", "Name"), ("score", "Score"), ("games", "Games"), ("average", "Average"))
NUMERIC = {"score", "games", "average"}


def sort_users(users: list[User], column: str, reverse: bool) -> list[User]:
    """Users ordered by ``column`` (numbers highest first, names A–Z), ties by name; ``reverse`` flips."""
    by_name = sorted(users, key=lambda user: (user.name.casefold(), user.name))
    if column == "name":
        ordered = by_name
    else:
        ordered = sorted(by_name, key=lambda user: getattr(user, column), reverse=True)
    return list(reversed(ordered)) if reverse else ordered


class ScoreboardScreen(WomScreen):
    """Every registered user, best first; click a header to sort by it (again to reverse)."""

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("n", "sort('name')", "Name"),
        Binding("s", "sort('score')", "Score"),
        Binding("g", "sort('games')", "Games"),
        Binding("a", "sort('average')", "Avg"),
        Binding("r", "show_tab('ratings')", "Rank"),
        Binding("h", "show_tab('hall')", "Hall"),
        Binding("b", "show_tab('board')", "Scoreboard"),
        Binding("m", "stats", "Stats"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.sort_column = "score"
        self.sort_reverse = False
        self._users: list[User] = []
        self._ratings: list[Rating] | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="scores-box", classes="panel"):
            yield Static(Text("Scores and records"), classes="panel-title")
            with TabbedContent(initial="board", id="scores-tabs"):
                with TabPane("Scoreboard", id="board"):
                    yield DataTable(id="board-table", cursor_type="row", zebra_stripes=True)
                    yield Static(
                        Text("No players yet.\nPress r on the main menu to register the first one."),
                        id="board-empty",
                        classes="empty-state",
                    )
                with TabPane("Ratings", id="ratings"):
                    yield RatingList(id="ratings-table")
                    yield Static(Text(PROVISIONAL_NOTE, style="dim"), id="ratings-note")
                    yield Static(
                        Text(f"No ratings to show yet.\nA player is listed after a rated game (World of Mastermind "
                             f"with two or more rated players) in the last {ACTIVE_DAYS} days, marked "
                             f"{PROVISIONAL_MARK} for the first {PROVISIONAL_GAMES}."),
                        id="ratings-empty",
                        classes="empty-state",
                    )
                with TabPane("Hall of fame", id="hall"):
                    yield DataTable(id="hall-table", cursor_type="row", zebra_stripes=True)
                    yield Static(
                        Text("No records yet.\nWin a solo game to enter the hall of fame."),
                        id="hall-empty",
                        classes="empty-state",
                    )
        yield Footer()

    def on_mount(self) -> None:
        store = self.wom.store
        read = self.wom.with_store(lambda: (store.scoreboard(), store.hall_of_fame().entries(),
                                            retired_name_keys(store.retired())))
        self._users, entries, self._retired = read if read is not None else ([], [], frozenset())
        self._fill_board()
        self._fill_hall(entries)
        self.query_one("#board-table", DataTable).focus()

    def _fill_board(self) -> None:
        table = self.query_one("#board-table", DataTable)
        table.clear(columns=True)
        for key, label in COLUMNS:
            marker = ""
            if key == self.sort_column:
                numeric_desc = key in NUMERIC
                marker = " ▼" if numeric_desc != self.sort_reverse else " ▲"
            table.add_column(Text(label + marker), key=key)
        for user in sort_users(self._users, self.sort_column, self.sort_reverse):
            table.add_row(
                Text(user.name),
                Text(str(user.score), justify="right"),
                Text(str(user.games), justify="right"),
                Text(f"{user.average:.1f}", justify="right"),
                key=user.name,
            )
        empty = not self._users
        table.display = not empty
        self.query_one("#board-empty").display = empty

    def _fill_ratings(self) -> None:
        """The rating board, read and filled when its tab first opens (10,000 rows are not read in vain)."""
        if self._ratings is not None:
            return
        book = self.wom.with_store(self.wom.store.rating_book)
        self._ratings = book.board() if book is not None else []
        table = self.query_one("#ratings-table", RatingList)
        table.show(self._ratings)
        empty = not self._ratings
        table.display = not empty
        self.query_one("#ratings-empty").display = empty
        self.query_one("#ratings-note").display = any(rating.provisional for rating in self._ratings)

    def _fill_hall(self, entries: list[HallEntry]) -> None:
        table = self.query_one("#hall-table", DataTable)
        table.clear(columns=True)
        for key, label in (("ruleset", "Ruleset"), ("guesses", "Guesses"), ("name", "Name"), ("date", "Date")):
            table.add_column(Text(label), key=key)
        for entry in entries:
            name = Text(entry.name if entry.guest else shown_name(entry.name, self._retired))
            if entry.guest:
                name.append(" (guest)", style="dim")
            table.add_row(
                Text(entry.ruleset.title),
                Text(f"{entry.guesses} of {entry.ruleset.guesses}", justify="right"),
                name,
                Text(entry.day),
            )
        empty = not entries
        table.display = not empty
        self.query_one("#hall-empty").display = empty

    def on_data_table_header_selected(self, event: DataTable.HeaderSelected) -> None:
        if event.data_table.id != "board-table":
            return
        event.stop()
        self.action_sort(str(event.column_key.value))

    def action_sort(self, column: str) -> None:
        """Sort the scoreboard by ``column``; the same column again reverses the order."""
        if column == self.sort_column:
            self.sort_reverse = not self.sort_reverse
        else:
            self.sort_column, self.sort_reverse = column, False
        self._fill_board()

    def action_stats(self) -> None:
        """Open My stats for the highlighted user (of the scoreboard, or of the rating board)."""
        player = None
        if self._tab() == "ratings" and self._ratings:
            highlighted = self.query_one("#ratings-table", RatingList).highlighted
            player = highlighted.name if highlighted is not None else None
        else:
            table = self.query_one("#board-table", DataTable)
            if table.display and table.row_count:
                player = str(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value)
        self.wom.action_stats(player)

    def _tab(self) -> str:
        tabs = self.query("#scores-tabs").results(TabbedContent)
        return next((tabbed.active for tabbed in tabs), "board")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Sort keys only on the scoreboard tab; each tab key only away from its tab (a short footer)."""
        tab = self._tab()
        if action == "sort":
            return tab == "board"
        if action == "show_tab":
            return parameters[0] != tab if parameters else True
        return True

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        if event.pane.id == "ratings":
            self._fill_ratings()
        self.refresh_bindings()

    def action_show_tab(self, tab: str) -> None:
        """Switch to the scoreboard, the rating board or the hall-of-fame tab."""
        if tab == "ratings":
            self._fill_ratings()
        self.query_one(TabbedContent).active = tab
        self.query_one(f"#{tab}-table").focus()
        self.refresh_bindings()
