"""At 60×20 the game screens stay usable: WoM's board shows its four columns and the messages wrap
inside their panel; the solo lifeline buttons show their whole labels and work."""

from __future__ import annotations

from textual.geometry import Region
from textual.widgets import Button, DataTable

from wom_tui.screens.wom_game import WomGameScreen
from wom_tui.widgets.message_log import MessageLog

from .conftest import wait_for
from .screen_text import screen_lines
from .test_solo import guess, open_setup as open_solo_setup, said, start_game
from .test_wom import open_setup, until, wait_turn

SIZE = (60, 20)


def shown_whole(app, widget) -> bool:
    """On screen, above the footer row, not cut."""
    screen = app.screen.region
    above_footer = Region(0, 0, screen.width, screen.height - 1)
    return widget.region.width > 0 and above_footer.contains_region(widget.region)


def text_in(app, region: Region) -> str:
    lines = screen_lines(app)
    return " ".join(line[region.x:region.right] for line in lines[region.y:region.bottom])


def words_in(app, region: Region) -> str:
    """What ``region`` shows, its words one space apart."""
    return " ".join(text_in(app, region).split())


def no_sideways_scroll(widget) -> bool:
    return widget.virtual_size.width <= widget.scrollable_content_region.width


async def alans_board(pilot):
    """Alan's turn in a three-player game (Alan, Steve, HAL9000, both registered; codes set): his board's table,
    and a board on HAL9000's code for the test to fill and show in it."""
    from wom_tui.domain.board import DecodingBoard
    from wom_tui.domain.codes import WOM_RULESET

    from .test_wom import enter_code
    from .test_wom_snapshots import seat

    screen = await seat(pilot, "Alan", "Steve", "HAL9000")
    await enter_code(pilot, screen, "Alan", "RGBY", paste=True)
    await enter_code(pilot, screen, "Steve", "KKWW", paste=True)
    await wait_turn(pilot, screen, "Alan")
    board = DecodingBoard(WOM_RULESET)
    board.set_secret("RGBY")
    return screen.query_one("#guess-history", DataTable), board


async def test_at_60x20_the_wom_board_shows_every_column_and_the_messages_wrap(make_app, store):
    store.register("Alan")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_setup(pilot)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, WomGameScreen))
        screen = app.screen
        await wait_turn(pilot, screen, "Alan")
        await pilot.press(*"rgby", "enter")
        await until(pilot, lambda: screen.awaiting == ("guess", "Alan"))
        table = screen.query_one("#guess-history", DataTable)
        for code in ("rrgg", "bbyy"):
            rows = table.row_count
            await pilot.press(*code, "enter")
            await until(pilot, lambda: table.row_count > rows)
        await pilot.pause()
        log = screen.query_one("#wom-log", MessageLog)
        for widget in (table, log, screen.query_one("#guess-input")):
            assert shown_whole(app, widget), f"{widget.id} is cut at 60×20: {widget.region}"
        assert no_sideways_scroll(table), f"the board scrolls sideways: {table.virtual_size} in {table.scrollable_content_region}"
        header = text_in(app, table.region)
        for column in ("#", "Guess", "Keys", "Feedback"):
            assert column in header, f"{column!r} is not shown whole: {header!r}"
        assert no_sideways_scroll(log), f"messages are cut, not wrapped: {log.virtual_size} in {log.scrollable_content_region}"
        assert "Alan's guess:" in text_in(app, log.region)


async def test_at_60x20_the_solo_lifelines_show_whole_labels_and_work(app):
    async with app.run_test(size=SIZE) as pilot:
        await open_solo_setup(pilot)
        screen = await start_game(pilot)
        await guess(pilot, screen, "0123")
        await pilot.pause()
        for selector in ("#solo-lifeline-1", "#solo-lifeline-2", "#solo-new"):
            button = screen.query_one(selector, Button)
            assert shown_whole(app, button), f"{selector} is cut at 60×20: {button.region}"
            words = " ".join(text_in(app, button.region).split())
            assert words == " ".join(str(button.label).split()), f"{selector} shows {words!r} of {button.label}"
        before = len(said(screen))
        await pilot.click("#solo-lifeline-1")
        await until(pilot, lambda: len(said(screen)) > before, "the lifeline button answers a click")


async def test_a_squeezed_lifeline_column_keeps_room_for_its_buttons(app):
    """Random run, seed 10 (56×43): the lifeline column was squeezed to 2 columns, its buttons had no
    room for a letter and Textual's text wrap failed (ValueError), ending the game."""
    from wom_tui.screens.solo_game import SoloGameScreen
    from wom_tui.screens.solo_setup import SoloSetupScreen

    async with app.run_test(size=(56, 43)) as pilot:
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(app.screen, SoloSetupScreen) and app.screen.is_mounted)
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, SoloGameScreen) and app.screen.is_mounted)
        app.screen.query_one("#solo-entry").styles.width = 54  # the entry takes nearly the whole row
        await wait_for(pilot, lambda: app._exception is not None or app.screen.query_one("#solo-entry").region.width == 54)
        for _ in range(3):
            await pilot.pause()
        assert app._exception is None
        assert app.screen.query_one("#solo-actions").region.width >= 8


async def test_a_terminal_made_narrower_mid_game_wraps_the_messages_again(app):
    """The messages were wrapped once, as they were written: from 80×24 to 60×20 mid-game, the log
    cut every line at its old width."""
    async with app.run_test(size=(80, 24)) as pilot:
        await open_solo_setup(pilot)
        screen = await start_game(pilot)
        await guess(pilot, screen, "0123")
        log = screen.messages
        await pilot.resize_terminal(*SIZE)
        await wait_for(pilot, lambda: log.region.right <= SIZE[0] and log.size.width > 0)
        await pilot.pause()
        assert no_sideways_scroll(log), f"messages are cut, not wrapped: {log.virtual_size} in {log.scrollable_content_region}"
        shown = " ".join(" ".join(text_in(app, log.region).split()).replace("│", " ").split())
        for line in said(screen)[-2:]:  # the latest messages, on show at the log's end
            assert " ".join(line.split()) in shown, f"{line!r} is not shown whole at 60×20: {shown!r}"
        await guess(pilot, screen, "4567")  # and what comes next wraps at the new width
        await pilot.pause()
        assert no_sideways_scroll(log)


async def test_the_solo_history_shows_every_column_at_60x20_and_its_roomy_columns_when_wider(app):
    """Under 72 columns the history's columns close up (B, W, pegs without gaps) so that the key pegs
    are on show without scrolling sideways; made wider again, they open up."""
    async with app.run_test(size=(80, 24)) as pilot:
        await open_solo_setup(pilot)
        screen = await start_game(pilot)
        await guess(pilot, screen, "0123")
        table = screen.query_one("#solo-history", DataTable)
        assert "Black" in text_in(app, table.region) and no_sideways_scroll(table)
        for size, heading in ((SIZE, "B  W  Pegs"), ((80, 24), "Black  White  Pegs"), (SIZE, "B  W  Pegs")):
            await pilot.resize_terminal(*size)
            await wait_for(pilot, lambda: heading in text_in(app, table.region), message=f"{heading} at {size}")
            await pilot.pause()
            assert no_sideways_scroll(table), f"the history scrolls sideways at {size}"
            assert table.region.right <= size[0]
        await guess(pilot, screen, "4567")
        await wait_for(pilot, lambda: table.row_count == 2)
        await pilot.pause()
        shown = text_in(app, table.region)
        assert "4  5  6  7" in shown and no_sideways_scroll(table), shown


async def test_at_60x20_the_wom_board_shows_four_blacks_and_its_header_whole_once_it_scrolls(make_app, data_dir):
    """Alan's board in a three-player game at 60×20, long enough to scroll, ending on his code broken:
    the board still says "Feedback" whole and shows all four blacks (its pegs close up to fit)."""
    from .test_wom_snapshots import register

    register(data_dir, "Alan", "Steve")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        table, board = await alans_board(pilot)
        for attempt in ("RRGG", "YYBB", "WWWW", "KKBB", "RGYB", "RGBY"):
            board.guess(attempt)
        table.show_board(board, owner=0)
        await until(pilot, lambda: table.row_count == 6, message="six rows")
        # The board scrolls to its last row at once, or after the next frame when it was not measured yet (on a
        # loaded machine): wait for that frame, not for one pause.
        await until(pilot, lambda: any(blacks in text_in(app, table.region) for blacks in ("K K K K", "KKKK")),
                    message="the last row, four blacks, shown")
        assert table.max_scroll_y > 0, "the board is long enough to scroll"
        shown = text_in(app, table.region)
        assert "Feedback" in shown, shown
        assert no_sideways_scroll(table), f"the board scrolls sideways: {table.virtual_size} in {table.scrollable_content_region}"


async def test_at_60x20_computer_breaks_shows_the_codes_left_and_the_whole_legend(app):
    """Scoring HAL9000 by hand at 60×20: the history's "Left" column and the black/white legend beside
    the answer are shown whole (the key pegs give way: B and W say the same)."""
    from wom_tui.screens.computer_breaks import ComputerBreaksScreen

    async with app.run_test(size=SIZE) as pilot:
        await open_solo_setup(pilot)
        for option in ("#solo-mode-1", "#solo-scoring-1"):
            app.screen.query_one(option).scroll_visible(animate=False)
            await pilot.pause()
            await pilot.click(option)
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, ComputerBreaksScreen))
        screen = app.screen
        await wait_for(pilot, lambda: screen.phase == "answer")
        await pilot.press("0", "2", "enter")
        await wait_for(pilot, lambda: screen.phase == "answer" and screen.game.guesses_used == 1)
        table = screen.query_one("#computer-breaks-history", DataTable)
        await wait_for(pilot, lambda: "1,896" in text_in(app, table.region), message="the codes left shown whole")
        assert "Left" in text_in(app, table.region) and no_sideways_scroll(table)
        legend = screen.query_one("#computer-breaks-actions")
        assert shown_whole(app, legend)
        shown = text_in(app, legend.region)
        for words in ("Black", "right place", "White", "wrong place", "Enter"):
            assert words in shown, f"{words!r} not in {shown!r}"


async def test_at_60x20_the_daily_screen_shows_its_play_button_whole(app, store):
    """The player and puzzle choices give way so that Play reads "Play", not "Pl"."""
    from .test_stats_replays_daily import open_daily

    store.register("Alan")
    async with app.run_test(size=SIZE) as pilot:
        await open_daily(pilot, "Alan")
        button = app.screen.query_one("#daily-play", Button)
        await wait_for(pilot, lambda: "Play" in text_in(app, button.region), message="Play shown whole")
        assert shown_whole(app, button)


async def test_a_board_that_shrinks_keeps_its_last_attempt_in_view(make_app, data_dir):
    """A long board seen whole on a tall terminal, then the terminal shrinks to 60×20: the board still shows
    its last attempt (as a chat log does), not its first rows with the newest below the edge. Scrolled up
    by the wheel, it stays where the player put it until the next attempt."""
    from textual import events

    from .test_wom_snapshots import register

    register(data_dir, "Alan", "Steve")
    app = make_app()
    async with app.run_test(size=(80, 44)) as pilot:
        table, board = await alans_board(pilot)
        for attempt in ("RRGG", "YYBB", "WWWW", "KKBB", "RGYB"):
            board.guess(attempt)
        table.show_board(board, owner=0)
        await until(pilot, lambda: "5 R G Y B" in words_in(app, table.region) and table.max_scroll_y == 0,
                    message="the whole board shown")
        await pilot.resize_terminal(*SIZE)
        await until(pilot, lambda: app.size == SIZE and table.max_scroll_y > 0, message="the board shrunk")
        await until(pilot, lambda: "5 R G Y B" in words_in(app, table.region), message="the last attempt still shown")

        table.post_message(events.MouseScrollUp(table, 5, 5, 0, 0, 0, False, False, False))  # the wheel, once
        await until(pilot, lambda: table.scroll_y < table.max_scroll_y, message="scrolled up")
        scrolled = table.scroll_y
        await pilot.resize_terminal(60, 21)
        await until(pilot, lambda: app.screen.size == (60, 21), message="one row taller")
        await pilot.pause()
        assert table.scroll_y == scrolled, "a board the player scrolled up stays where they put it"
        board.guess("RGBY")
        table.show_board(board, owner=0)
        await until(pilot, lambda: "6 R G B Y" in words_in(app, table.region),
                    message="the new attempt shown")
