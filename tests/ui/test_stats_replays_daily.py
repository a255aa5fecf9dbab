"""My stats, replays, the daily code, sharing and the goodbye, driven as a person would at 80×24."""

from __future__ import annotations

import base64
import json
from datetime import datetime, timezone

import pytest
from textual.widgets import Sparkline, DataTable, Static

from wom_tui.app import GOODBYE
from wom_tui.domain.codes import WOM_RULESET, Feedback, Ruleset, feedback
from wom_tui.domain.daily import CLASSIC, daily_code, day_of
from wom_tui.domain.records import GameRecord, PlayerRecord
from wom_tui.screens.confirm import ConfirmScreen
from wom_tui.screens.daily import DailyGameScreen, DailyScreen
from wom_tui.screens.errors import StoreErrorScreen
from wom_tui.screens.menu import MenuScreen
from wom_tui.screens.replay import ReplayScreen, ReplaysScreen
from wom_tui.screens.solo_game import HallNameScreen
from wom_tui.screens.stats import StatsScreen
from wom_tui.widgets.bar_chart import BarChart
from wom_tui.widgets.choice import Choice
from wom_tui.widgets.player_select import PlayerChoice

from .conftest import at_both_sizes, build_app, no_blink, wait_for
from .screen_text import screen_lines
from .test_solo import open_setup, play_to_win, start_game

SIZE = (80, 24)
NARROW = (60, 20)
R5 = WOM_RULESET.with_guesses(5)


def text_of(app, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


def breaker(name: str, secret: str, guesses: list[str], *, is_user: bool = True, points: int = 0,
            kept: bool = False) -> PlayerRecord:
    """``kept``: the record keeps the code (a World of Mastermind record since issue 35 item 17)."""
    played = tuple((g, feedback(secret, g)) for g in guesses)
    return PlayerRecord(name, is_user, guesses[-1] == secret, len(guesses), played, points, 0,
                        secret=secret if kept else None)


def seed_games(store) -> list[str]:
    """Alan: a WoM game (broke in 2, 9 points) and two solo games (won in 3, lost); a guest's win."""
    store.register("Alan")
    store.register("Ada")
    ten = Ruleset(4, WOM_RULESET.palette, True, 10)
    ids = [
        store.record_game(GameRecord("wom", R5, (
            breaker("Alan", "RGYB", ["RGBY", "RGYB"], points=9),
            breaker("HAL9000", "BYWR", ["RRGG", "BBYY", "WWKK", "BYWK", "BYWW"], is_user=False),
        ), "2026-11-20T10:00:00+00:00")),
        store.record_game(GameRecord("solo", ten, (breaker("Alan", "KKWW", ["RRGG", "WWKK", "KKWW"]),),
                                     "2026-11-21T10:00:00+00:00")),
        store.record_game(GameRecord("solo", ten, (breaker("Alan", "KKWW", ["RRRR"] * 10),),
                                     "2026-11-22T10:00:00+00:00")),
        store.record_game(GameRecord("solo", ten, (breaker("Alan", "RRRR", ["RRRR"], is_user=False),),
                                     "2026-11-22T11:00:00+00:00")),
    ]
    return ids


async def open_stats(pilot) -> StatsScreen:
    await pilot.press("m")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, StatsScreen) and pilot.app.screen.summaries is not None)
    await pilot.pause()
    return pilot.app.screen


# ---------------------------------------------------------------- My stats


async def test_my_stats_count_what_the_store_recorded(store, app):
    seed_games(store)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_stats(pilot)
        assert screen.query_one("#stats-player", PlayerChoice).value == "Alan"  # the latest user's game
        numbers = text_of(app, "#stats-numbers")
        for expected in ("Games 3", "Wins 2", "Win % 67", "Streak 0", "Best 2", "Avg guesses 2.5"):
            assert expected in numbers
        chart = screen.query_one(BarChart)
        assert [(label, count) for label, count, _ in chart.bars if count] == [("3", 1), ("X", 1)]
        assert [label for label, _, high in chart.bars if high] == ["X"]  # the last game was lost
        # → goes to the other ruleset played (the 5-attempt WoM game), with HAL9000 beside.
        assert chart.border_subtitle.startswith("2 games · 1 won")
        await pilot.press("right")
        assert [(label, count) for label, count, _ in chart.bars if count] == [("2", 1)]
        assert chart.border_subtitle.startswith("1 game · 1 won")  # never "1 games"
        assert len(chart.bars) == 6  # 5 attempts allowed, then X
        compare = text_of(app, "#stats-compare")
        assert "Alan 2.0" in compare and "HAL9000 —" in compare and "VIKI —" in compare
        assert "0 → 9" in text_of(app, "#stats-points-label")
        # One rated game (the WoM game against HAL9000, won): the rating over time, provisional still.
        rating = store.rating_book().rating("Alan")
        assert f"Rating over 1 rated game: 1000 → {rating.value} (provisional)" in text_of(app, "#stats-rating-label")
        assert screen.query_one("#stats-rating", Sparkline).data == [1000, rating.value]
        await pilot.press("right", "right")  # wraps round, one key too many does no harm
        assert [label for label, count, _ in chart.bars if count] == ["2"]


async def test_my_stats_show_the_rating_over_time(store, app):
    store.register("Alan")
    for n in range(6):
        winner, loser = ("Alan", "VIKI") if n % 3 else ("VIKI", "Alan")
        store.record_game(GameRecord("wom", R5, (
            breaker(winner, "RGYB", ["RGYB"], is_user=winner == "Alan", points=5 if winner == "Alan" else 0),
            breaker(loser, "BYWR", ["RRGG"] * 5, is_user=loser == "Alan"),
        ), f"2026-11-2{n}T10:00:00+00:00"))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_stats(pilot)
        rating = store.rating_book().rating("Alan")
        label = text_of(app, "#stats-rating-label")
        assert f"Rating over 6 rated games: 1000 → {rating.value}" in label and "provisional" not in label
        assert screen.query_one("#stats-rating", Sparkline).data == [1000, *rating.history]

        async def on_screen(size) -> None:  # not scrolled away
            await wait_for(pilot, lambda: any("Rating over 6" in line for line in screen_lines(app)), message=f"at {size}")

        await at_both_sizes(pilot, on_screen)


async def test_stats_for_another_user_and_for_a_guest(store, app):
    seed_games(store)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_stats(pilot)
        # From the keyboard: the player selector is focused; Enter opens its list, typing finds a name.
        assert screen.focused is screen.query_one("#stats-player")
        await pilot.press("enter", "a", "d", "a", "enter")
        await wait_for(pilot, lambda: "Games 0" in text_of(app, "#stats-numbers"))
        assert "no recorded games" in text_of(app, "#stats-numbers")
        assert screen.query_one(BarChart).bars == ()
        assert "Ada" in screen_lines(app)[1]
        # With the mouse: click the selector, then the guest entry at the top of its list.
        assert await pilot.click("#stats-player ChoiceRow")
        await wait_for(pilot, lambda: any("Guest" in line for line in screen_lines(app)[2:5]))
        row = next(y for y, line in enumerate(screen_lines(app)) if y > 1 and "Guest" in line)
        x = screen_lines(app)[row].index("Guest")
        assert await pilot.click(offset=(x, row))
        await wait_for(pilot, lambda: "count for nobody" in text_of(app, "#stats-numbers"))
        # Esc closes an open list without choosing, and leaves the screen only when pressed again.
        await pilot.press("enter", "down", "escape")
        await pilot.pause()
        assert isinstance(app.screen, StatsScreen) and "count for nobody" in text_of(app, "#stats-numbers")


async def test_stats_open_from_the_scoreboard_for_the_highlighted_user(store, app):
    seed_games(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        await wait_for(pilot, lambda: app.screen.query("#board-table"))
        table = app.screen.query_one("#board-table", DataTable)
        await pilot.press("down")  # Alan (0 points, by the scoreboard) then Ada: order by name on a tie
        highlighted = str(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value)
        await pilot.press("m")
        await wait_for(pilot, lambda: isinstance(app.screen, StatsScreen))
        assert app.screen.query_one("#stats-player", PlayerChoice).value == highlighted


async def test_a_damaged_record_is_named_and_the_rest_still_counts(store, app, data_dir):
    seed_games(store)
    bad = data_dir / "games" / "20200101T000000000000Z-000000000000.json"
    bad.write_text('{"schema": 1, "id": "20200101T000000000000Z-000000000000", "game": NaN}')
    async with app.run_test(size=SIZE) as pilot:
        # The start-up check reads only what must be valid to play: finished games are read,
        # and a damaged one named, when My stats opens.
        await open_stats(pilot)
        assert "Games 3" in text_of(app, "#stats-numbers")
        left_out = text_of(app, "#stats-left-out")
        assert "games/20200101T000000000000Z-000000000000.json" in left_out and "NaN" in left_out
    assert bad.read_text().endswith("NaN}")


def test_stats_chart_snapshot(snap_compare, data_dir, size=SIZE):
    from wom_tui.domain.store.folder.store import FolderStore as Store

    seed_games(Store(data_dir))

    async def run_before(pilot) -> None:
        await open_stats(pilot)

    assert snap_compare(build_app(data_dir), terminal_size=size, run_before=run_before)


# ---------------------------------------------------------------- Replays


async def test_replays_newest_first_filtered_and_stepped(store, app):
    ids = seed_games(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplaysScreen) and app.screen.summaries is not None)
        table = app.screen.query_one("#replays-table", DataTable)
        assert [str(table.coordinate_to_cell_key((r, 0)).row_key.value) for r in range(table.row_count)] == ids[::-1]
        # The kind filter from the keyboard: back from the table to it, open its list, type "World".
        await pilot.press("shift+tab", "shift+tab", "enter", *"world", "enter")
        await wait_for(pilot, lambda: table.row_count == 1)
        assert app.screen.query_one("#replays-kind", Choice).value == "wom"
        table.focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        screen = app.screen
        # A WoM replay opens before the first guess, as a solo one does; it offers no Share (it has none).
        assert screen.replay.step == 0 and "Before the first guess · 5 rounds" in text_of(app, "#replay-step")
        assert len(screen.query(".replay-board")) == 2  # every player's board
        assert "c Share" not in "\n".join(screen_lines(app))
        await pilot.press("c")
        assert text_of(app, "#replay-share") == "" and not app._notifications
        await pilot.press("right")
        await wait_for(pilot, lambda: "still possible" in text_of(app, "#replay-board-0"))
        assert " 2 " not in text_of(app, "#replay-board-0")
        await pilot.press("right")
        await wait_for(pilot, lambda: "Broke the code!" in text_of(app, "#replay-board-0"))
        assert "Round 2 of 5" in text_of(app, "#replay-step")
        await pilot.press("right", "right", "right", "right", "right")  # one too many
        assert screen.replay.step == 5
        assert "Out of guesses." in text_of(app, "#replay-board-1")
        await pilot.press("left")
        await wait_for(pilot, lambda: "codes still possible" in text_of(app, "#replay-board-1")
                       or "1 code still possible" in text_of(app, "#replay-board-1"))
        assert "Round 4 of 5" in text_of(app, "#replay-step")
        await pilot.press("home")
        assert "Before the first guess" in text_of(app, "#replay-step")
        await pilot.press("left")
        assert screen.replay.step == 0


async def test_a_long_history_is_listed_a_page_at_a_time_as_the_player_reaches_its_end(store, app, monkeypatch):
    from wom_tui.screens import replay

    ten = Ruleset(4, WOM_RULESET.palette, True, 10)
    ids = [
        store.record_game(GameRecord("solo", ten, (breaker("Guest", "RRRR", ["RRRR"], is_user=False),),
                                     f"2026-11-{day:02d}T10:00:00+00:00"))
        for day in range(1, 13)
    ]
    monkeypatch.setattr(replay, "PAGE", 5)
    monkeypatch.setattr(replay, "NEAR_THE_END", 2)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplaysScreen) and app.screen.summaries is not None)
        table = app.screen.query_one("#replays-table", DataTable)
        assert table.row_count == 5 and table.border_subtitle == "5 of 12 · more as you scroll"
        await pilot.press("down", "down", "down")  # two from the end: the next five
        await wait_for(pilot, lambda: table.row_count == 10, message="the second page")
        await pilot.press("end")  # the last listed row: the rest
        await wait_for(pilot, lambda: table.row_count == 12, message="the rest")
        assert table.border_subtitle is None
        listed = [str(table.coordinate_to_cell_key((r, 0)).row_key.value) for r in range(table.row_count)]
        assert listed == ids[::-1], "newest first, each game once"
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen), message="the oldest game replayed")
        assert app.screen.game_id == ids[0]


async def test_a_solo_replay_shares_its_grid_over_osc52(store, app):
    seed_games(store)
    async with app.run_test(size=SIZE) as pilot:
        written: list[str] = []
        original = app._driver.write
        app._driver.write = lambda data: (written.append(data), original(data))[1]
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplaysScreen) and app.screen.summaries is not None)
        app.screen.query_one("#replays-kind", Choice).value = "solo"
        await wait_for(pilot, lambda: app.screen.query_one("#replays-table", DataTable).row_count == 3)
        app.screen.query_one("#replays-table", DataTable).focus()
        await pilot.press("down", "down", "enter")  # the oldest solo game: Alan's win in 3
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        # A solo replay opens where a WoM replay does: before the first guess, and offers Share.
        assert app.screen.replay.step == 0 and "Before the first guess" in text_of(app, "#replay-step")
        await wait_for(pilot, lambda: "c Share" in "\n".join(screen_lines(app)), message="the footer offers Share")
        await pilot.press("c")
        expected = "Mastermind solo · 4 × Classic · 3/10\n····\n○○○○\n●●●●"
        await wait_for(pilot, lambda: expected in text_of(app, "#replay-share"))
        sequence = f"\x1b]52;c;{base64.b64encode(expected.encode()).decode()}\a"
        await wait_for(pilot, lambda: sequence in written, message="the grid is sent to the clipboard")


async def test_a_replay_says_what_each_lifeline_revealed_and_counts_with_it(store, app):
    from wom_tui.domain.clues import Clue

    ten = Ruleset(4, WOM_RULESET.palette, True, 10)
    rows = (("RRGG", feedback("KKWW", "RRGG")), ("LIFELINE", Feedback(0, 0)), ("LIFELINE", Feedback(0, 0)),
            ("LIFELINE", Feedback(0, 0)), ("KKWW", Feedback(4, 0)))
    store.record_game(GameRecord("solo", ten, (PlayerRecord("Guest", False, True, 5, rows,
                                                            clues=((1, Clue("W", 2)), (3, Clue("K"))),),)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplaysScreen) and app.screen.summaries is not None)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press("right", "right", "right", "right")
        await wait_for(pilot, lambda: "still possible" in text_of(app, "#replay-board-0"))
        board = text_of(app, "#replay-board-0")
        assert "LIFELINE: W at position 3" in board and "LIFELINE: contains K" in board
        # RRGG gave 0 black 0 white: no R, no G; W third and some K: 4 symbols, 3 free places hold a K.
        expected = sum(1 for a in "BYWK" for b in "BYWK" for d in "BYWK" if "K" in a + b + d)
        assert f"{expected} codes still possible" in board


# ---------------------------------------------------------------- The daily code


def today() -> str:
    return day_of(datetime.now(timezone.utc)).isoformat()


def a_wrong_guess(store) -> str:
    """A guess that does not break today's code (the code is random: RRGG itself comes up once in 1,296 days)."""
    code = daily_code(store.daily_secret(), day_of(datetime.now(timezone.utc)), CLASSIC)
    return "RRGG" if code != "RRGG" else "GGRR"


async def open_daily(pilot, player: str | None) -> DailyScreen:
    await pilot.press("d")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, DailyScreen) and pilot.app.screen.query("#daily-board"))
    await pilot.pause()
    if player is not None:
        pilot.app.screen.query_one("#daily-player", PlayerChoice).value = player
        await pilot.pause()
    return pilot.app.screen


async def test_a_guest_cannot_play_the_daily_code(store, app, data_dir):
    async with app.run_test(size=SIZE) as pilot:
        await open_daily(pilot, None)
        assert "register" in text_of(app, "#daily-status")
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, DailyScreen)
    assert not (data_dir / "daily" / f"{today()}.json").exists()


async def test_the_attempt_is_spent_at_the_first_guess_and_leaving_gives_no_second_try(store, app, data_dir):
    store.register("Alan")
    async with app.run_test(size=SIZE) as pilot:
        await open_daily(pilot, "Alan")
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, DailyGameScreen))
        await pilot.press(*"RGB", "enter")  # too short: refused, nothing spent
        assert "too short" in text_of(app, "#daily-message")
        assert not (data_dir / "daily" / f"{today()}.json").exists()
        await pilot.press("escape")  # nothing played yet: leaves freely
        await wait_for(pilot, lambda: isinstance(app.screen, DailyScreen))
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, DailyGameScreen))
        await pilot.press(*a_wrong_guess(store), "enter")
        await wait_for(pilot, lambda: (data_dir / "daily" / f"{today()}.json").exists())
        (attempt,) = json.loads((data_dir / "daily" / f"{today()}.json").read_text())["attempts"]
        assert (attempt["player"], attempt["day"], attempt["finished_at"]) == ("Alan", today(), None)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")  # y confirms (Esc would stay)
        await wait_for(pilot, lambda: isinstance(app.screen, DailyScreen))
        assert "no second try" in text_of(app, "#daily-status")
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, DailyScreen)
        table = app.screen.query_one("#daily-board", DataTable)
        assert [str(c) for c in table.get_row_at(0)][1:3] == ["Alan", "did not finish"]


async def test_dropping_the_session_after_the_first_guess_gives_no_second_try(store, data_dir):
    store.register("Alan")
    first = build_app(data_dir)
    async with first.run_test(size=SIZE) as pilot:
        await open_daily(pilot, "Alan")
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(first.screen, DailyGameScreen))
        await pilot.press(*a_wrong_guess(store), "enter")
        await wait_for(pilot, lambda: (data_dir / "daily" / f"{today()}.json").exists())
        first.exit()  # the connection drops: no goodbye, no confirmation
    second = build_app(data_dir)
    async with second.run_test(size=SIZE) as pilot:
        await second.run_action("daily('alan')")  # the identity handed in by name, in any case
        await wait_for(pilot, lambda: isinstance(second.screen, DailyScreen) and second.screen.query("#daily-board"))
        await pilot.pause()
        screen = second.screen
        assert screen.identity == "Alan"
        assert screen.query_one("#daily-play").disabled
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(second.screen, DailyScreen)


async def test_breaking_the_daily_code_leads_the_board_and_shares_over_osc52(store, app, data_dir):
    store.register("Alan")
    code = daily_code(store.daily_secret(), day_of(datetime.now(timezone.utc)), CLASSIC)
    wrong = "".join("R" if ch != "R" else "G" for ch in code)
    async with app.run_test(size=SIZE) as pilot:
        written: list[str] = []
        original = app._driver.write
        app._driver.write = lambda data: (written.append(data), original(data))[1]
        await open_daily(pilot, "Alan")
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, DailyGameScreen))
        await pilot.press(*wrong.lower(), "enter", *code, "enter")
        await wait_for(pilot, lambda: app.screen.share_text is not None)
        pegs = "".join("●" * f.black + "○" * f.white + "·" * (4 - f.black - f.white) for f in [feedback(code, wrong)])
        expected = f"Mastermind daily {today()} · 4 × Classic · 2/10 · streak 1\n{pegs}\n●●●●"
        assert app.screen.share_text == expected
        assert expected in text_of(app, "#daily-share")
        await pilot.press("enter")  # a second Enter after the end changes nothing
        await pilot.press("c")
        osc52 = f"\x1b]52;c;{base64.b64encode(expected.encode()).decode()}\a"
        await wait_for(pilot, lambda: osc52 in written, message="the grid is sent to the clipboard")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, DailyScreen))
        table = app.screen.query_one("#daily-board", DataTable)
        assert [str(c) for c in table.get_row_at(0)][:3] == ["1", "Alan", "2/10"]
    (attempt,) = json.loads((data_dir / "daily" / f"{today()}.json").read_text())["attempts"]
    assert (attempt["guesses"], attempt["broke"]) == (2, True)
    (record,) = store.games()
    assert record.kind == "daily" and record.players[0].guesses[-1] == (code, Feedback(4, 0))


async def test_a_finished_solo_game_shares_its_grid_over_osc52(store, app):
    async with app.run_test(size=SIZE) as pilot:
        written: list[str] = []
        original = app._driver.write
        app._driver.write = lambda data: (written.append(data), original(data))[1]
        await open_setup(pilot)
        screen = await start_game(pilot)
        await pilot.press("f2")  # a lifeline: its row is shared as such
        await wait_for(pilot, lambda: screen.game.guesses_used == 1)
        used = await play_to_win(pilot, screen)
        await wait_for(pilot, lambda: isinstance(app.screen, HallNameScreen))  # the first win is a record
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen and store.games())
        (record,) = store.games()
        pegs = ["lifeline"] + ["●" * f.black + "○" * f.white + "·" * (4 - f.black - f.white)
                               for guess, f in record.players[0].guesses[1:]]
        expected = "\n".join([f"Mastermind solo · 4 × Digits 0–9 · {used}/10", *pegs])
        assert pegs[-1] == "●●●●"
        await pilot.press("c")

        def log_rows() -> list[str]:
            """The message log's rows as the screen shows them."""
            region = screen.messages.content_region
            lines = screen_lines(app)[region.y:region.bottom]
            return [line[region.x:region.right].strip() for line in lines]

        await wait_for(pilot, lambda: log_rows()[-len(pegs):] == pegs, message="the grid shows at the log's foot")
        assert f"Mastermind solo · 4 × Digits 0–9 · {used}/10" in " ".join(log_rows()[:-len(pegs)])  # wrapped
        osc52 = f"\x1b]52;c;{base64.b64encode(expected.encode()).decode()}\a"
        await wait_for(pilot, lambda: osc52 in written, message="the grid is sent to the clipboard")
        # The grid gives nothing away: no guessed symbol is in it.
        assert not set(expected.split("\n", 1)[1]) & set("0123456789")


async def test_the_wait_until_the_next_code(store, app, monkeypatch):
    monkeypatch.setattr(DailyScreen, "clock", staticmethod(lambda: datetime(2026, 11, 23, 21, 52, 30, tzinfo=timezone.utc)))
    async with app.run_test(size=SIZE) as pilot:
        await open_daily(pilot, None)
        assert "Next code in 2 h 07 min" in text_of(app, "#daily-wait")
        assert "2026-11-23" in text_of(app, "#daily-title")


# ---------------------------------------------------------------- the menu and the goodbye


async def test_the_new_entries_fit_the_menu_at_60x20(app):
    async with app.run_test(size=(60, 20)) as pilot:
        for key, screen in (("m", StatsScreen), ("v", ReplaysScreen), ("d", DailyScreen)):
            await pilot.press(key)
            await wait_for(pilot, lambda: isinstance(app.screen, screen))
            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))


async def test_quitting_says_goodbye(app, capsys: pytest.CaptureFixture[str]):
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("x")
        await pilot.pause()
    assert GOODBYE in capsys.readouterr().err


async def test_my_stats_and_replays_show_the_store_error_when_the_games_cannot_be_listed(store, app):
    store.register("Alan")
    async with app.run_test(size=SIZE) as pilot:
        if store.games_dir.is_dir():
            store.games_dir.rmdir()
        store.games_dir.write_text("not a folder", encoding="utf-8")  # the games folder cannot be listed
        for key, screen_type in (("m", StatsScreen), ("v", ReplaysScreen)):
            await pilot.press(key)
            await wait_for(pilot, lambda: isinstance(app.screen, StoreErrorScreen) and app.screen.query("#error-path"))
            assert text_of(app, "#error-path") == str(store.games_dir)
            assert "cannot list the folder" in text_of(app, "#error-reason")
            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, screen_type))
            assert app.screen.summaries is None  # nothing was shown as if there were no games
            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))


# ---------------------------------------------------------------- today's daily games are sealed (docs/play.md)


FP_MAIN = "SHA256:" + "M" * 43
FP_OTHER = "SHA256:" + "O" * 43


def served(data_dir, name: str | None, fingerprint: str):
    from wom_tui.domain.identity import Identity
    from wom_tui.app import WomApp
    from wom_tui.domain.store import open_store
    import random

    from .conftest import make_options

    options = make_options(data_dir, served=True)
    return WomApp(open_store(str(data_dir)), random.Random(options.seed), options, Identity.key(fingerprint, name))


def record_daily(store, player: str, guesses: list[str], code: str, finished_at: str) -> str:
    return store.record_game(GameRecord("daily", CLASSIC.ruleset, (breaker(player, code, guesses),), finished_at))


async def open_first_replay(pilot) -> None:
    await pilot.press("v")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, ReplaysScreen) and pilot.app.screen.summaries is not None)
    await pilot.press("enter")
    await pilot.pause()


@pytest.mark.parametrize("broke", [True, False])
async def test_nobody_else_can_replay_todays_daily_game_until_its_day_is_over_everywhere(store, data_dir, broke):
    """A daily game finished today (broken, or lost with ten guesses and their answers) opens for nobody
    but its player: not for another signed-in name, not on one machine where nobody is proven."""
    from wom_tui.domain.records import utc_now

    store.register("Ada", key=FP_MAIN)
    store.register("Bob", key=FP_OTHER)
    code = daily_code(store.daily_secret(), day_of(datetime.now(timezone.utc)), CLASSIC)
    wrong = "RRGG" if code != "RRGG" else "GGRR"
    record_daily(store, "Ada", [wrong, code] if broke else [wrong] * 10, code, utc_now())
    for app in (served(data_dir, "Bob", FP_OTHER), build_app(data_dir)):
        async with app.run_test(size=SIZE) as pilot:
            await open_first_replay(pilot)
            assert isinstance(app.screen, ReplaysScreen)
            await pilot.press("end", "right", "enter")  # keys that would step a replay change nothing
            assert isinstance(app.screen, ReplaysScreen)
            assert "over everywhere" in " ".join(str(n.message) for n in app._notifications)
            assert "Ada" in "\n".join(screen_lines(app))  # the game is listed, as on the leaderboard
    async with served(data_dir, "Ada", FP_MAIN).run_test(size=SIZE) as pilot:
        await open_first_replay(pilot)
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ReplayScreen))


async def test_a_daily_game_of_a_day_over_everywhere_replays_for_anyone(store, data_dir):
    store.register("Ada", key=FP_MAIN)
    record_daily(store, "Ada", ["RRGG", "RGBY"], "RGBY", "2020-01-01T10:00:00+00:00")
    async with served(data_dir, None, FP_OTHER).run_test(size=SIZE) as pilot:
        await open_first_replay(pilot)
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ReplayScreen))


async def test_losing_the_daily_code_does_not_say_it_before_the_day_is_over(store, app):
    store.register("Alan")
    code = daily_code(store.daily_secret(), day_of(datetime.now(timezone.utc)), CLASSIC)
    wrong = a_wrong_guess(store)
    async with app.run_test(size=SIZE) as pilot:
        await open_daily(pilot, "Alan")
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, DailyGameScreen))
        for _ in range(10):
            await pilot.press(*wrong.lower(), "enter")
        await wait_for(pilot, lambda: app.screen.share_text is not None)
        said = text_of(app, "#daily-message")
        assert "over everywhere" in said and code not in said
        assert code not in "\n".join(screen_lines(app))


async def test_a_keys_second_name_cannot_start_the_puzzle_its_first_name_started(store, data_dir):
    """Over SSH one attempt per key and day: the key's other name finds the puzzle spent, and the store
    refuses it too."""
    store.register("Main", key=FP_MAIN)
    store.register("Alt")
    async with served(data_dir, "Main", FP_MAIN).run_test(size=SIZE) as pilot:
        await open_daily(pilot, None)
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, DailyGameScreen))
        await pilot.press(*a_wrong_guess(store).lower(), "enter")
        await wait_for(pilot, lambda: (data_dir / "daily" / f"{today()}.json").exists())
    async with served(data_dir, "Alt", FP_MAIN).run_test(size=SIZE) as pilot:
        screen = await open_daily(pilot, None)
        assert "This key already played" in text_of(pilot.app, "#daily-status")
        assert screen.query_one("#daily-play").disabled
        await pilot.press("p", "p")
        assert isinstance(pilot.app.screen, DailyScreen)
    (attempt,) = store.daily_attempts()
    assert (attempt.player, attempt.key) == ("Main", FP_MAIN)


async def test_the_daily_screen_says_the_code_of_the_last_day_over_everywhere(store, app, monkeypatch):
    store.register("Alan")
    moment = datetime(2026, 11, 24, 12, 0, 1, tzinfo=timezone.utc)  # 2026-11-23 just ended at UTC−12
    monkeypatch.setattr(DailyScreen, "clock", staticmethod(lambda: moment))
    from datetime import date

    code = daily_code(store.daily_secret(), date(2026, 11, 23), CLASSIC)
    async with app.run_test(size=SIZE) as pilot:
        await open_daily(pilot, "Alan")
        said = text_of(app, "#daily-status")
        from wom_tui.widgets.pegs import code_pegs

        shown = code_pegs(code, CLASSIC.ruleset.palette, gap="").plain
        assert f"The 2026-11-23 code, over everywhere now, was {shown}" in said


# ---------------------------------------------------------------- the same screens at 60×20


def test_stats_chart_snapshot_60x20(snap_compare, data_dir):
    """Stats chart snapshot, at 60×20: everything needed to play shows."""
    test_stats_chart_snapshot(snap_compare, data_dir, size=NARROW)


# ---------------------------------------------------------------- daily and replays, at both sizes


def seed_daily(store) -> None:
    """Alan, Ada and Bartholomew played the 2026-11-23 classic code; Alan the two days before as well."""
    from wom_tui.domain.daily import DailyAttempt

    for name in ("Alan", "Ada", "Bartholomew"):
        store.register(name)
    played = [("2026-11-21", "Alan", 4, True), ("2026-11-22", "Alan", 10, False), ("2026-11-23", "Ada", 3, True),
              ("2026-11-23", "Alan", 5, True), ("2026-11-23", "Bartholomew", 10, False)]
    for day, name, guesses, broke in played:
        store.start_daily(DailyAttempt(day, "classic", name, f"{day}T09:00:00+00:00"))
        store.finish_daily(day, "classic", name, finished_at=f"{day}T09:{guesses:02d}:00+00:00", guesses=guesses,
                           broke=broke, game_id=None)


def seed_replays(store) -> None:
    """The games of :func:`seed_games`, and a three-player WoM game with long names."""
    seed_games(store)
    store.register("Bartholomew")
    store.record_game(GameRecord("wom", R5, (
        breaker("Bartholomew", "RGYB", ["RGBY", "RGYB"], points=9, kept=True),
        breaker("Ada", "KKWW", ["RRGG", "WWKK", "KKWW"], points=8, kept=True),
        breaker("HAL9000", "BYWR", ["RRGG", "BBYY", "WWKK", "BYWK", "BYWW"], is_user=False, kept=True),
    ), "2026-11-23T10:00:00+00:00"))


def test_daily(snap_compare, data_dir, monkeypatch, size=SIZE):
    from wom_tui.domain.store.folder.store import FolderStore as Store

    seed_daily(Store(data_dir))
    monkeypatch.setattr(DailyScreen, "clock", staticmethod(lambda: datetime(2026, 11, 23, 21, 52, 30, tzinfo=timezone.utc)))

    async def run_before(pilot) -> None:
        await open_daily(pilot, "Alan")

    assert snap_compare(build_app(data_dir), terminal_size=size, run_before=run_before)


def test_replays(snap_compare, data_dir, size=SIZE):
    from wom_tui.domain.store.folder.store import FolderStore as Store

    seed_replays(Store(data_dir))

    async def run_before(pilot) -> None:
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ReplaysScreen) and pilot.app.screen.summaries is not None)
        await pilot.pause()

    assert snap_compare(build_app(data_dir), terminal_size=size, run_before=run_before)


def test_replay(snap_compare, data_dir, size=SIZE):
    from wom_tui.domain.store.folder.store import FolderStore as Store

    seed_replays(Store(data_dir))

    async def run_before(pilot) -> None:
        await open_first_replay(pilot)
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ReplayScreen))
        # The last round: HAL9000's code, never broken, shows under his board (issue 35 item 17).
        await pilot.press("right", "right", "end")
        await wait_for(pilot, lambda: "Round 5" in text_of(pilot.app, "#replay-step"))
        await pilot.pause()

    assert snap_compare(build_app(data_dir), terminal_size=size, run_before=run_before)


async def test_a_wom_replay_kept_before_codes_were_says_the_unbroken_code_was_not_kept(store, app):
    seed_games(store)  # Alan's WoM game: HAL9000 never broke his code, and the record does not keep it
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplaysScreen) and app.screen.summaries is not None)
        await pilot.press("end", "enter")  # the oldest game: the WoM one
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press("end")
        await wait_for(pilot, lambda: "Round 5" in text_of(app, "#replay-step"))
        assert "The code: not kept" in text_of(app, "#replay-board-1")
        assert "The code" not in text_of(app, "#replay-board-0")  # Alan broke his: his last guess is it

        async def drawn_whole(size) -> None:
            await wait_for(pilot, lambda: "The code: not kept" in "\n".join(screen_lines(app)), message=f"at {size}")

        await at_both_sizes(pilot, drawn_whole)


def test_daily_game(snap_compare, data_dir, monkeypatch, size=SIZE):
    """The daily game after two guesses (a fixed secret and day, so the same code every run)."""
    from wom_tui.domain.store.documents import encode_secret
    from wom_tui.domain.store.folder.files import DAILY_SECRET_FILE
    from wom_tui.domain.store.folder.store import FolderStore as Store

    seed_daily(Store(data_dir))
    (data_dir / DAILY_SECRET_FILE).write_bytes(encode_secret(bytes(range(32))))
    noon = staticmethod(lambda: datetime(2026, 11, 24, 12, 0, tzinfo=timezone.utc))
    monkeypatch.setattr(DailyScreen, "clock", noon)
    monkeypatch.setattr(DailyGameScreen, "clock", noon)
    monkeypatch.setattr("wom_tui.screens.daily.utc_now", lambda: "2026-11-24T12:00:00+00:00")

    async def run_before(pilot) -> None:
        await open_daily(pilot, "Ada")
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, DailyGameScreen))
        await pilot.press(*"rrgg", "enter")
        await wait_for(pilot, lambda: "Guess #2" in text_of(pilot.app, "#daily-game-rows"))
        await pilot.press(*"bbyy", "enter")
        await wait_for(pilot, lambda: "Guess #3" in text_of(pilot.app, "#daily-game-rows"))
        await no_blink(pilot)

    assert snap_compare(build_app(data_dir), terminal_size=size, run_before=run_before)


def test_daily_game_60x20(snap_compare, data_dir, monkeypatch):
    """The daily game, at 60×20: everything needed to play shows."""
    test_daily_game(snap_compare, data_dir, monkeypatch, size=NARROW)


def test_daily_60x20(snap_compare, data_dir, monkeypatch):
    """Daily code, at 60×20: everything needed to play shows."""
    test_daily(snap_compare, data_dir, monkeypatch, size=NARROW)


def test_replays_60x20(snap_compare, data_dir):
    """Replays, at 60×20: everything needed to play shows."""
    test_replays(snap_compare, data_dir, size=NARROW)


def test_replay_60x20(snap_compare, data_dir):
    """A replay, at 60×20: everything needed to play shows."""
    test_replay(snap_compare, data_dir, size=NARROW)


LONG_NAMES = ("Bartholomewsmith", "Christopherwrenn", "Alexandraquinnes")


@pytest.mark.parametrize(("size", "resized"), [((80, 24), (60, 20)), ((60, 20), (80, 24)), ((120, 30), (80, 24))],
                         ids=["80x24", "60x20", "120x30"])
async def test_the_replay_list_shows_every_players_name_whole_and_never_scrolls_sideways(store, app, size, resized):
    """The Players column takes the width the other columns leave and wraps: four long names show whole
    (they were cut at "Bartholomew ✓2 · A…"), the list needs no sideways scrolling, also after a resize."""
    seed_games(store)
    for name in LONG_NAMES:
        store.register(name)
    store.record_game(GameRecord("wom", R5, (
        breaker(LONG_NAMES[0], "RGYB", ["RGBY", "RGYB"], points=9),
        breaker(LONG_NAMES[1], "KKWW", ["RRGG", "WWKK", "KKWW"], points=8),
        breaker(LONG_NAMES[2], "BYWR", ["RRGG", "BBYY"]),
        breaker("HAL9000", "BYWR", ["RRGG", "BBYY", "WWKK", "BYWK", "BYWW"], is_user=False),
    ), "2026-11-24T10:00:00+00:00"))

    def every_name_whole() -> bool:
        text = "\n".join(screen_lines(app))
        return all(name in text for name in (*LONG_NAMES, "HAL9000"))

    async with app.run_test(size=size) as pilot:
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplaysScreen) and app.screen.summaries is not None)
        table = app.screen.query_one("#replays-table", DataTable)
        await wait_for(pilot, every_name_whole, timeout=10,
                       message=f"every name whole in the list: {screen_lines(app)}")
        assert table.max_scroll_x == 0, "the list scrolls sideways"
        await pilot.resize_terminal(*resized)
        await wait_for(pilot, every_name_whole, timeout=10, message=f"after a resize: {screen_lines(app)}")
        await wait_for(pilot, lambda: table.max_scroll_x == 0, timeout=10, message="no sideways scroll after a resize")
        assert table.cursor_row == 0


async def test_three_boards_side_by_side_keep_each_guess_and_its_key_pegs_on_one_line(data_dir):
    """At 60×20 the key pegs wrapped inside each board ("● ● ○" then "○" alone on the next line)."""
    from wom_tui.domain.store.folder.store import FolderStore as Store

    seed_replays(Store(data_dir))
    app = build_app(data_dir)
    async with app.run_test(size=SIZE) as pilot:
        await open_first_replay(pilot)
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press("end")
        await wait_for(pilot, lambda: "Broke the code!" in text_of(app, "#replay-board-0"))

        async def pegs_on_one_line(size) -> None:
            for _ in range(3):
                await pilot.pause()
            lines = screen_lines(app)
            for board in app.screen.query(".replay-board"):
                region = board.content_region
                inside = [lines[y][region.x:region.right] for y in range(region.y, region.bottom)]
                guesses = [line for line in inside if line[:3].strip().isdigit()]
                assert guesses, f"at {size}, no guess shown in {board.border_title}: {inside}"
                for line in guesses:
                    pegs = sum(line.count(peg) for peg in "●○·")
                    assert pegs == 4, f"at {size}, {board.border_title}: the key pegs of {line!r} are not all on its line"

        await at_both_sizes(pilot, pegs_on_one_line)
