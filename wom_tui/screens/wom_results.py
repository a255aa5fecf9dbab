"""The results of a World of Mastermind game (who broke what, and the points each user receives), and
the start of a game, which ends on them.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Button, DataTable, Static

from ..domain.wom import SetupError, WomGame
from ..domain.words import counted
from ..patches.footer import Footer
from ..widgets.pegs import code_pegs
from ..widgets.themes import rich_colour
from .base import WomScreen
from .host import WomHost
from .wom_game import GameSaver, WomGameScreen, WomSetup


def start_game(app: WomHost, setup: WomSetup) -> WomGameScreen:
    """A game screen for ``setup`` on the app's store and RNG, ending on its results; SetupError /
    StoreError if it cannot start.
    """
    # The last move saves the game in a worker thread: the error is shown on the results, not in a dialog.
    saver = GameSaver(lambda record: app.save_game(record, show_error=False))
    game = setup.new_game(app.store.users(), app.rng, saver)
    return WomGameScreen(setup, game, saver, results=WomResultsScreen)


class WomResultsScreen(WomScreen):
    """The finished game: a table per player, the points lines, and play again / scoreboard / menu."""

    BINDINGS = [
        Binding("escape", "what_next", "Menu?", show=False),
        Binding("a", "again", "Play again"),
        Binding("s", "scoreboard", "Scoreboard"),
        Binding("m", "app.menu", "Menu"),
    ]
    # Nothing focused: an Enter or Esc typed just as the game ended must not skip the results.
    AUTO_FOCUS = None

    def __init__(self, setup: WomSetup, game: WomGame, saver: GameSaver) -> None:
        super().__init__(classes="wom-screen")
        self.setup = setup
        self.game = game
        self.saver = saver
        self.results = game.results()

    def compose(self) -> ComposeResult:
        with Vertical(id="results-box", classes="panel"):
            yield Static(Text("The game is now finished."), classes="panel-title", id="results-title")
            yield DataTable(id="results-table", cursor_type="none", zebra_stripes=True, show_cursor=False)
            yield Static(self._points_lines(), id="results-points")
            yield Static(self._saved_line(), id="results-saved", classes="-error" if self.saver.error else "")
            with Horizontal(id="results-buttons"):
                yield Button("Play again", id="results-again", variant="primary")
                yield Button("Scoreboard", id="results-scoreboard")
                yield Button("Main menu", id="results-menu")
        yield Footer()

    def on_mount(self) -> None:
        """Fill the table, one row per player in seating order."""
        table = self.query_one("#results-table", DataTable)
        table.can_focus = False
        game = self.game
        # Pegs side by side: with the maker's column every column still fits 80 wide.
        gap = ""
        # Under 80 columns (60×20) the points are one column, "5+2=7", and "Attempts" is "Tries":
        # eight columns were cut after "Brea".
        narrow = self.app.size.width < 80
        labels = ("Player", "Secret", "By", "Result", "Tries", "Points") if narrow else \
            ("Player", "Secret", "By", "Result", "Attempts", "Breaking", "Making", "Total")
        for label in labels:
            table.add_column(Text(label, justify="right" if label in ("Breaking", "Making", "Total", "Points") else "left"))
        theme = self.app.current_theme
        for row in self.results.players:
            board = game.board_of(row.player)
            if row.broke:
                result = Text("✓ broke", style=Style(color=None if self.app.no_color else rich_colour(theme.success), bold=True))
            else:
                result = Text("✗ failed", style=Style(color=None if self.app.no_color else rich_colour(theme.error), bold=True))
            if row.points is None:
                points = [Text("—", justify="right")] * (1 if narrow else 3)
            elif narrow:
                points = [Text(f"{row.breaking}+{row.making}={row.total}", justify="right")]
            else:
                points = [
                    Text(str(row.breaking), justify="right"),
                    Text(str(row.making), justify="right"),
                    Text(str(row.total), justify="right", style="bold"),
                ]
            table.add_row(
                Text(row.player.name),
                code_pegs(board.reveal(), game.ruleset.palette, gap=gap),
                Text(game.maker_for(row.player).name),
                result,
                Text(f"{row.attempts_used}/{board.attempts_allowed}"),
                *points,
            )

    def _points_lines(self) -> Text:
        lines = [message for message in self.results.messages[1:]]
        if not lines:
            lines = ["No people played, so nobody receives points."]
        return Text("\n".join(lines))

    def _saved_line(self) -> Content:
        error = self.saver.error
        if error is not None:
            return Content.assemble(("The points could not be saved. ", "bold"), str(error))
        if not self.saver.saved:
            return Content("")
        totals: list[str] = []
        for row in self.results.players:
            if row.player.is_computer:
                continue
            name = row.player.name
            # A total that cannot be read now (the store failed) is left out; the points were saved.
            user = self.wom.with_store(lambda: self.wom.store.user(name), on_error=lambda _error: None)
            if user is not None:
                totals.append(f"{user.name} {counted(user.score, 'point')} in {counted(user.games, 'game')}")
        if not totals:
            return Content("Saved. Computers earn no points.")
        return Content("Saved to the scoreboard: " + ", ".join(totals) + ".")

    # -- what next -------------------------------------------------------------------------------

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Play again, scoreboard or menu."""
        event.stop()
        if event.button.id == "results-again":
            self.action_again()
        elif event.button.id == "results-scoreboard":
            self.action_scoreboard()
        elif event.button.id == "results-menu":
            self.wom.action_menu()

    def action_again(self) -> None:
        """A new game with the same players, attempts and rules."""
        try:
            screen = self.wom.with_store(lambda: start_game(self.wom, self.setup))
        except SetupError as refusal:
            self.notify(refusal.reason, title="Cannot play again", severity="error", markup=False)
            return
        if screen is not None:
            self.app.switch_screen(screen)

    def action_what_next(self) -> None:
        """Esc (perhaps typed as the game ended) leaves nothing: say which keys do."""
        self.notify("a: play again · s: scoreboard · m: main menu", title="The results stay until you choose")

    def action_scoreboard(self) -> None:
        """Show the scoreboard (Esc comes back here)."""
        self.wom.action_scoreboard()
