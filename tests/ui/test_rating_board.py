"""The rating board: a tab beside the points scoreboard, best first, only settled players active lately."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from textual.widgets import DataTable
from textual.widgets import TabbedContent as TabbedContentLookup

from wom_tui.domain.codes import WOM_RULESET, Feedback
from wom_tui.domain.records import GameRecord, PlayerRecord
from wom_tui.screens.scoreboard import ScoreboardScreen
from wom_tui.widgets.rating_list import RatingList

from .conftest import at_both_sizes, wait_for
from .screen_text import screen_text



def duel(winner: str, loser: str, days_ago: int, n: int) -> GameRecord:
    def line(name: str, broke: bool) -> PlayerRecord:
        user = name not in ("HAL9000", "VIKI")
        guesses = (("RGBY", Feedback(4, 0)),) if broke else (("RRRR", Feedback(0, 0)),) * 5
        return PlayerRecord(name, user, broke, len(guesses), guesses, (5 if broke else 0) if user else 0, 0)
    at = (datetime.now(timezone.utc) - timedelta(days=days_ago, seconds=100 - n)).replace(microsecond=0)
    return GameRecord("wom", WOM_RULESET.with_guesses(5), (line(winner, True), line(loser, False)), at.isoformat())


def ratings_rows(screen: ScoreboardScreen) -> list[list[str]]:
    """What the board shows, row by row: place, name, rating, games (from the screen's own lines)."""
    lines = screen.query_one("#ratings-table", RatingList).ratings
    return [[str(place), r.name, r.label, str(r.games)] for place, r in enumerate(lines, 1)]


async def test_r_opens_the_rating_board_best_first_provisional_players_last_marked_and_no_idle_players(make_app, store):
    for name in ("Alan", "Betty", "Old", "Cara"):
        store.register(name)
    for n in range(8):
        store.record_game(duel("Alan", "VIKI", 1, n))
        store.record_game(duel("VIKI", "Betty", 1, n))
        store.record_game(duel("Old", "HAL9000", 40, n))
    store.record_game(duel("HAL9000", "Betty", 1, 9))
    store.record_game(duel("Cara", "VIKI", 0, 1))  # Cara: two games, provisional
    store.record_game(duel("Cara", "Betty", 0, 2))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, ScoreboardScreen) and app.screen.query(DataTable))
        screen = app.screen
        await pilot.press("r", "r")  # one key too many changes nothing
        await wait_for(pilot, lambda: len(ratings_rows(screen)) == 5)
        rows = ratings_rows(screen)
        # Old last played 40 days ago; Cara is provisional: listed last, marked; HAL9000 is rated like anyone.
        assert [row[1] for row in rows] == ["Alan", "VIKI", "HAL9000", "Betty", "Cara"]
        assert [row[0] for row in rows] == ["1", "2", "3", "4", "5"]
        assert int(rows[0][2]) > int(rows[1][2]) > int(rows[2][2]) > int(rows[3][2])
        assert rows[4][2].endswith("?") and rows[4][2][:-1].isdigit()

        async def drawn(size) -> None:
            await wait_for(pilot, lambda: "? provisional" in screen_text(app), message=f"the board at {size}")
            text = screen_text(app)
            assert "Last played" in text
            assert "? provisional" in text, "the mark is explained under the board"
            for place, row in enumerate(rows, 1):  # each row as drawn: place, name, rating, games, day
                assert any(line.strip("│ ").split()[:4] == [str(place), *row[1:]] for line in text.splitlines()
                           if line.strip("│ ").startswith(str(place))), text

        await at_both_sizes(pilot, drawn)
        await pilot.press("b")
        await wait_for(pilot, lambda: screen.query_one(TabbedContentLookup).active == "board")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ScoreboardScreen))


async def test_an_empty_rating_board_says_how_to_get_on_it(make_app, store):
    store.register("Alan")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, ScoreboardScreen) and app.screen.query(DataTable))
        await pilot.press("r")
        await wait_for(pilot, lambda: "No ratings to show yet" in screen_text(app))

