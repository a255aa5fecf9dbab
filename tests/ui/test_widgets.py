"""PegInput, MessageLog and ConfirmScreen, driven by keys and clicks in a tiny host app."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.color import Color
from textual.containers import Container
from textual.widgets import Footer, Static

from wom_tui.domain.codes import DIGITS10, WOM, Feedback, Ruleset
from wom_tui.paths import stylesheets
from wom_tui.screens.confirm import ConfirmScreen
from wom_tui.widgets.message_log import MessageLog
from wom_tui.widgets.peg_input import PegInput
from wom_tui.widgets.pegs import code_pegs, feedback_grid, feedback_row
from wom_tui.widgets.peg_input import PalettePeg, PegSlot
from wom_tui.patches.state_classes import reached_by, set_state_classes
from wom_tui.widgets.pegs import COLOURBLIND, COLOURBLIND_THEME, PLAIN, STANDARD
from wom_tui.widgets.themes import THEMES

from .conftest import wait_for

WOM4 = Ruleset(4, WOM, True, 10)
DIGITS8_LONG = Ruleset(8, DIGITS10, True, 10)


class Host(App[None]):
    """A bare app holding one PegInput and a log of what it submitted."""

    CSS_PATH = [str(p) for p in stylesheets()]

    def __init__(self, ruleset: Ruleset = WOM4, *, masked: bool = False) -> None:
        super().__init__()
        self.ruleset = ruleset
        self.masked = masked
        self.submitted: list[str] = []
        self.confirmed: list[bool] = []

    def compose(self) -> ComposeResult:
        yield PegInput(self.ruleset, masked=self.masked, id="pegs")
        yield MessageLog(id="log")
        yield Static("", id="status")
        yield Footer()

    def on_peg_input_submitted(self, message: PegInput.Submitted) -> None:
        self.submitted.append(message.text)

    def on_mount(self) -> None:
        self.query_one(PegInput).focus()


async def test_typing_fills_slots_case_insensitively_and_enter_submits():
    host = Host()
    async with host.run_test(size=(80, 24)) as pilot:
        await pilot.press("r", "g", "B", "y", "enter")
        await wait_for(pilot, lambda: host.submitted)
        assert host.submitted == ["RGBY"]
        assert host.query_one(PegInput).value == "RGBY"


async def test_arrows_pick_a_slot_and_cycle_its_symbol():
    host = Host()
    async with host.run_test(size=(80, 24)) as pilot:
        peg_input = host.query_one(PegInput)
        await pilot.press("up")  # slot 1: empty -> first symbol R
        await pilot.press("right", "up", "up")  # slot 2: R -> G
        await pilot.press("right", "down")  # slot 3: empty -> last symbol K
        await pilot.press("right", "up", "up", "up", "up", "down")  # slot 4: R G B Y then back to B
        assert peg_input.slots == ("R", "G", "K", "B")
        await pilot.press("left", "delete")
        assert peg_input.slots == ("R", "G", None, "B")
        await pilot.press("enter")
        await wait_for(pilot, lambda: host.submitted)
        assert host.submitted == ["RGB"]  # a gap reads as too short for the domain


async def test_enter_on_an_empty_entry_submits_nothing_and_then_a_code_still_goes():
    host = Host()
    async with host.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "r", "backspace", "enter")  # nothing typed, then typed and erased
        await pilot.press(*"RGBY", "enter")
        await wait_for(pilot, lambda: host.submitted)
        assert host.submitted == ["RGBY"]


async def test_backspace_erases_backwards():
    host = Host()
    async with host.run_test(size=(80, 24)) as pilot:
        peg_input = host.query_one(PegInput)
        await pilot.press("r", "g", "b", "y")
        assert peg_input.value == "RGBY"
        await pilot.press("backspace", "backspace")
        assert peg_input.slots == ("R", "G", None, None)
        await pilot.press("backspace", "backspace", "backspace")
        assert peg_input.value == "" and peg_input.cursor == 0


async def test_a_typo_is_kept_so_the_domain_can_explain_it():
    host = Host()
    async with host.run_test(size=(80, 24)) as pilot:
        await pilot.press("r", "x", "b", "y", "enter")
        await wait_for(pilot, lambda: host.submitted)
        assert host.submitted == ["RXBY"]


async def test_clicking_palette_pegs_and_slots_enters_a_code():
    host = Host()
    async with host.run_test(size=(80, 24)) as pilot:
        peg_input = host.query_one(PegInput)
        pegs = {p.symbol: p for p in host.query(PalettePeg)}
        for symbol in "KWYB":
            assert await pilot.click(pegs[symbol])
        assert peg_input.value == "KWYB"
        slots = list(host.query(PegSlot))
        assert await pilot.click(slots[1])
        assert peg_input.cursor == 1
        assert await pilot.click(pegs["G"])
        assert peg_input.value == "KGYB"
        await pilot.press("enter")
        await wait_for(pilot, lambda: host.submitted)
        assert host.submitted == ["KGYB"]


async def test_eight_slots_and_ten_symbols_fit_at_80_columns():
    host = Host(DIGITS8_LONG)
    async with host.run_test(size=(80, 24)) as pilot:
        peg_input = host.query_one(PegInput)
        for widget in [*host.query(PegSlot), *host.query(PalettePeg)]:
            region = widget.region
            assert region.width == 3 and region.right <= 80, widget
        await pilot.press(*"12345678", "enter")
        await wait_for(pilot, lambda: host.submitted)
        assert host.submitted == ["12345678"]
        assert peg_input.cursor == 7


async def test_masked_input_hides_symbols_until_peek():
    host = Host(masked=True)
    async with host.run_test(size=(80, 24)) as pilot:
        peg_input = host.query_one(PegInput)
        await pilot.press("r", "g", "b", "y")
        shown = "".join(str(slot.render()) for slot in host.query(PegSlot))
        assert "•" in shown and not any(ch in shown for ch in "RGBY")
        await pilot.press("ctrl+r")
        shown = "".join(str(slot.render()) for slot in host.query(PegSlot))
        assert all(ch in shown for ch in "RGBY")
        await pilot.press("ctrl+r")
        shown = "".join(str(slot.render()) for slot in host.query(PegSlot))
        assert not any(ch in shown for ch in "RGBY")
        assert peg_input.value == "RGBY"
        await pilot.press("ctrl+r")  # peeking when the code is cleared for the next player...
        peg_input.clear()
        assert peg_input.value == "" and not peg_input.revealed
        assert not peg_input.has_class("-revealed")
        await pilot.press("k", "w")  # ...must not leave the next player's code on show
        shown = "".join(str(slot.render()) for slot in host.query(PegSlot))
        assert "•" in shown and not any(ch in shown for ch in "KW")


async def test_message_log_keeps_markup_as_text():
    host = Host()
    async with host.run_test(size=(80, 24)) as pilot:
        log = host.query_one(MessageLog)
        log.say("[@click=app.quit]Alan[/] broke the code", "success")
        log.write("[b]x[/]")
        await pilot.pause()
        lines = [strip.text for strip in log.lines]
        assert any("[@click=app.quit]Alan[/] broke the code" in line for line in lines)
        assert any("[b]x[/]" in line for line in lines)


async def test_message_log_never_splits_key_pegs_across_lines():
    host = Host()
    async with host.run_test(size=(80, 24)) as pilot:
        log = host.query_one(MessageLog)
        log.styles.width = 31  # a line breaks inside the key pegs unless kept together
        await pilot.pause()
        log.say("HAL9000's guess: RRGB → K K K K")
        await wait_for(pilot, lambda: log.lines)
        lines = [strip.text.replace("\u00a0", " ").strip() for strip in log.lines]
        assert any(line.endswith("K K K K") for line in lines), lines
        assert log.lines_said == ["HAL9000's guess: RRGB → K K K K"]


async def test_confirm_screen_y_goes_ahead_and_esc_stays():
    host = Host()
    async with host.run_test(size=(80, 24)) as pilot:
        host.push_screen(ConfirmScreen(), host.confirmed.append)
        await wait_for(pilot, lambda: isinstance(host.screen, ConfirmScreen) and host.screen.query("#confirm-ok"))
        await pilot.press("enter")  # the Stay button has focus: a stray Enter is harmless
        await wait_for(pilot, lambda: host.confirmed)
        assert host.confirmed == [False]
        host.push_screen(ConfirmScreen(), host.confirmed.append)
        await wait_for(pilot, lambda: isinstance(host.screen, ConfirmScreen) and host.screen.query("#confirm-ok"))
        await pilot.press("escape")  # Esc cancels, in this dialog as in every other
        await wait_for(pilot, lambda: len(host.confirmed) == 2)
        assert host.confirmed == [False, False]
        host.push_screen(ConfirmScreen(), host.confirmed.append)
        await wait_for(pilot, lambda: isinstance(host.screen, ConfirmScreen) and host.screen.query("#confirm-ok"))
        await pilot.press("y")
        await wait_for(pilot, lambda: len(host.confirmed) == 3)
        assert host.confirmed == [False, False, True]
        host.push_screen(ConfirmScreen(), host.confirmed.append)
        await wait_for(pilot, lambda: isinstance(host.screen, ConfirmScreen) and host.screen.query("#confirm-ok"))
        await pilot.click("#confirm-ok")
        await wait_for(pilot, lambda: len(host.confirmed) == 4)
        assert host.confirmed[-1] is True


def test_pegs_always_show_their_symbol_in_every_scheme():
    for scheme in (STANDARD, COLOURBLIND, PLAIN):
        assert code_pegs("RGBYWK", WOM, scheme=scheme).plain == " R   G   B   Y   W   K "
        assert code_pegs("0123456789", DIGITS10, gap="", scheme=scheme).plain.split() == list("0123456789")


def test_colour_schemes_give_each_symbol_its_own_colour():
    for scheme in (STANDARD, COLOURBLIND):
        colours = {scheme.style_for(symbol, DIGITS10).bgcolor for symbol in DIGITS10.symbols}
        assert len(colours) == 10
    assert all(PLAIN.style_for(s, WOM).bgcolor is None for s in WOM.symbols)


def test_feedback_grid_counts_without_positions():
    grid = feedback_grid(Feedback(1, 2), 4, scheme=STANDARD).plain
    assert grid.splitlines() == ["● ○", "○ ·"]
    assert feedback_row(Feedback(3, 0), 4, scheme=STANDARD).plain == "● ● ● ·"
    eight = feedback_grid(Feedback(2, 3), 8, scheme=STANDARD).plain.splitlines()
    assert eight == ["● ● ○ ○", "○ · · ·"]
    five = feedback_grid(Feedback(0, 0), 5, scheme=STANDARD).plain.splitlines()
    assert len(five[0]) == len(five[1])


def peg_background(widget) -> str:
    """The background colour a peg widget paints, as ``#rrggbb``."""
    segment = next(iter(widget.render_line(0)))
    return segment.style.bgcolor.triplet.hex


async def test_colourblind_theme_repaints_pegs():
    host = Host()
    for theme in THEMES:
        host.register_theme(theme)
    async with host.run_test(size=(80, 24)) as pilot:
        red = host.query(PalettePeg).first()
        await wait_for(pilot, lambda: peg_background(red) == STANDARD.colours["Red"][0])
        host.theme = COLOURBLIND_THEME
        await wait_for(pilot, lambda: peg_background(red) == COLOURBLIND.colours["Red"][0])
        assert "R" in red.render_line(0).text


class _StateApp(App[None]):
    CSS = """
    Screen.-over #shown-when-over { display: block; }
    #shown-when-over { display: none; }
    Screen.-over #box Static { color: red; }
    .-lit { background: blue; }
    """

    def compose(self) -> ComposeResult:
        yield Static("over", id="shown-when-over")
        yield Container(id="bystander")
        with Container(id="box"):
            yield Static("inside", id="inside")


async def test_a_state_class_restyles_what_its_rules_reach_and_no_more():
    app = _StateApp()
    async with app.run_test(size=(40, 10)) as pilot:
        screen = app.screen
        over, inside = (screen.query_one(f"#{name}", Static) for name in ("shown-when-over", "inside"))
        assert reached_by(app.stylesheet, frozenset({"-over"})) == ("#shown-when-over", "Static")
        styled: list[str] = []
        apply = app.stylesheet.apply

        def counting(node, *args, **kwargs):
            styled.append(node.id or type(node).__name__)
            return apply(node, *args, **kwargs)

        app.stylesheet.apply = counting  # type: ignore[method-assign]
        set_state_classes(screen, {"-over": True})
        await pilot.pause()
        assert over.display and inside.styles.color.rgb == (255, 0, 0)
        assert "bystander" not in styled, "a widget no rule about the class names is left alone"
        set_state_classes(screen, {"-over": False})
        await pilot.pause()
        assert not over.display and inside.styles.color.rgb != (255, 0, 0)
        # A class that styles a node itself: everything is restyled, as Textual would.
        assert reached_by(app.stylesheet, frozenset({"-lit"})) is None
        styled.clear()
        set_state_classes(screen.query_one("#box"), {"-lit": True})
        await pilot.pause()
        assert screen.query_one("#box").styles.background.rgb == (0, 0, 255) and "inside" in styled
        styled.clear()
        set_state_classes(screen, {"-over": False})
        assert styled == [], "no change, no styling"


async def test_the_current_slot_is_marked_in_the_accent_colour_only_while_the_input_has_focus():
    host = Host()
    async with host.run_test(size=(80, 24)) as pilot:
        peg_input = host.query_one(PegInput)

        def marks() -> list[str | None]:
            """Per slot, as drawn: the colour of the mark on its second line (None: no mark)."""
            found: list[str | None] = []
            for slot in host.query(PegSlot):
                mark = [segment for segment in slot.render_line(1) if "━" in segment.text]
                colour = mark[0].style.color if mark and mark[0].style else None
                found.append(colour.get_truecolor().hex.lower() if colour is not None else None)
            return found

        accent = Color.parse(host.theme_variables["accent"]).hex.lower()
        quiet = Color.parse(host.theme_variables["panel-lighten-3"]).hex.lower()
        peg_input.focus()
        await pilot.press("r")
        await wait_for(pilot, lambda: marks() == [None, accent, None, None])
        host.set_focus(None)
        await wait_for(pilot, lambda: marks() == [None, quiet, None, None])
        peg_input.focus()
        await wait_for(pilot, lambda: marks() == [None, accent, None, None])


class BoardHost(App[None]):
    """A bare app holding one HistoryTable, shorter than a full board (so that it scrolls)."""

    CSS = "HistoryTable { height: 12; width: 46; }"

    def compose(self) -> ComposeResult:
        from wom_tui.widgets.wom_board import HistoryTable

        yield HistoryTable(id="board")


async def _board_screens(guesses: list[str], *, one_by_one: bool) -> list[str]:
    """Screenshots of a board shown attempt by attempt (one after each), or all at once (one)."""
    import re

    from wom_tui.domain.board import DecodingBoard
    from wom_tui.widgets.wom_board import HistoryTable

    app = BoardHost()
    shots = []
    async with app.run_test(size=(60, 16)) as pilot:
        table = app.query_one(HistoryTable)
        board = DecodingBoard(WOM4)
        board.set_secret("YYYY")
        for index, guess in enumerate(guesses):
            board.guess(guess)
            if one_by_one or index == len(guesses) - 1:
                table.show_board(board, owner=0)
                await pilot.pause()
                await pilot.pause()
                shots.append(re.sub(r"terminal-\d+", "terminal", app.export_screenshot()))
    return shots


async def test_a_board_drawn_attempt_by_attempt_looks_as_drawn_at_once():
    # The board keeps what it drew across new attempts (a live game drew every line again
    # for each guess): what it shows must be what a board drawn afresh shows, scrolled to the end.
    guesses = ["RGBY", "WWWW", "RRGG", "BYRG", "GGGG", "YBRW", "RGYB", "WRGB", "BBBB", "RGBW"]
    one_by_one = await _board_screens(guesses, one_by_one=True)
    for count in (1, 3, 5, 6, 10):
        assert one_by_one[count - 1] == (await _board_screens(guesses[:count], one_by_one=False))[0], count


async def test_a_board_scrolled_back_with_the_wheel_shows_its_first_attempts():
    # The board keeps the lines it drew; scrolled back up with the mouse wheel, it shows the
    # first attempts as a board drawn afresh and scrolled to its top does.
    import re

    from textual import events

    from wom_tui.domain.board import DecodingBoard
    from wom_tui.widgets.wom_board import HistoryTable

    guesses = ["RGBY", "WWWW", "RRGG", "BYRG", "GGGG", "YBRW", "RGYB", "WRGB"]

    async def top(one_by_one: bool) -> str:
        app = BoardHost()
        async with app.run_test(size=(60, 16)) as pilot:
            table = app.query_one(HistoryTable)
            board = DecodingBoard(WOM4)
            board.set_secret("YYYY")
            for index, guess in enumerate(guesses):
                board.guess(guess)
                if one_by_one or index == len(guesses) - 1:
                    table.show_board(board, owner=0)
                    await pilot.pause()
            assert table.scroll_y > 0, "the board is scrolled to its last attempt"
            if one_by_one:
                for _ in range(10):
                    table.post_message(events.MouseScrollUp(table, 5, 5, 0, 0, 0, False, False, False))
                await wait_for(pilot, lambda: table.scroll_y == 0, message="scrolled back to the top")
            else:
                table.scroll_home(animate=False, immediate=True)
            await pilot.pause()
            await pilot.pause()
            assert table.render_line(1).text.split()[:2] == ["1", "R"], "the first attempt shows under the header"
            return re.sub(r"terminal-\d+", "terminal", app.export_screenshot())

    assert await top(one_by_one=True) == await top(one_by_one=False)


async def test_radio_buttons_and_ticks_differ_in_shape_on_and_off(app, monkeypatch):
    """Under NO_COLOR (two greys) a chosen option must still look chosen: ● and ○, X and an empty box."""
    from textual.widgets import Checkbox, RadioButton

    monkeypatch.setenv("NO_COLOR", "1")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("p")  # the WoM setup: radio buttons and the repeats tick
        await wait_for(pilot, lambda: pilot.app.screen.query(RadioButton) and pilot.app.screen.query(Checkbox))
        marks = {button.value: str(button.render()).strip()[1] for button in pilot.app.screen.query(RadioButton)}
        assert marks == {True: "●", False: "○"}
        tick = pilot.app.screen.query_one(Checkbox)
        shown = str(tick.render())
        tick.value = not tick.value
        await pilot.pause()
        assert str(tick.render()) != shown  # on and off are told apart by more than colour
