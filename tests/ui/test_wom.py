"""World of Mastermind at 80×24, played as people would: setup, code making, guessing, results."""

from __future__ import annotations

import threading

from textual import events
from textual.widgets import Button, RadioSet, Static

from wom_tui.domain.store import StoreError
from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.domain.wom import FINISHED, GUESSING, MAKING
from wom_tui.screens.confirm import ConfirmScreen
from wom_tui.screens.menu import MenuScreen
from wom_tui.screens.scoreboard import ScoreboardScreen
from wom_tui.screens.wom_game import WomGameScreen, WomSetup
from wom_tui.screens.wom_setup import DEFAULT_ATTEMPTS, WomSetupScreen
from wom_tui.screens.wom_results import WomResultsScreen, start_game
from wom_tui.widgets.message_log import MessageLog
from wom_tui.widgets.peg_input import PegInput
from wom_tui.widgets.choice import Choice
from wom_tui.widgets.peg_input import PalettePeg, PegSlot

from .conftest import wait_for
from .screen_text import screen_lines


async def until(pilot, predicate, message: str = "") -> None:
    """Wait for a condition; the generous guard only matters on a machine busy with other work."""
    await wait_for(pilot, predicate, timeout=30, message=message)


def shown(widget: Static) -> str:
    """The plain text a Static shows."""
    return str(widget.render())


_LOGS: dict[int, MessageLog] = {}


def said(screen: WomGameScreen) -> list[str]:
    """Every line of the game's message log (still readable once the results replaced the screen)."""
    if id(screen) not in _LOGS:
        _LOGS[id(screen)] = screen.query_one(MessageLog)
    return _LOGS[id(screen)].lines_said


def slot_faces(peg_input: PegInput) -> list[str]:
    """What each slot of a PegInput shows (its peg: the line under it marks the current slot)."""
    return [str(slot.render()).split("\n")[0].strip() for slot in peg_input.query(PegSlot)]


async def open_setup(pilot) -> WomSetupScreen:
    await pilot.press("p")
    await until(pilot, lambda: isinstance(pilot.app.screen, WomSetupScreen))
    await pilot.pause()
    return pilot.app.screen


async def choose(pilot, select_id: str, typed: str) -> None:
    """Open a drop-down with the mouse, type the start of an entry, and press Enter."""
    screen = pilot.app.screen
    select = screen.query_one(select_id, Choice)
    await pilot.click(select_id)
    await until(pilot, lambda: select.expanded)
    await pilot.press(*typed, "enter")
    await until(pilot, lambda: not select.expanded)


async def pick_radio(pilot, radio_set_id: str, label: str) -> None:
    """Click the radio button labelled ``label``."""
    radio_set = pilot.app.screen.query_one(radio_set_id, RadioSet)
    button = next(b for b in radio_set.query("RadioButton") if b.name == label)
    await pilot.click(button)
    await until(pilot, lambda: button.value)


async def start(pilot) -> WomGameScreen:
    await pilot.click("#setup-start")
    await until(pilot, lambda: isinstance(pilot.app.screen, WomGameScreen))
    return pilot.app.screen


async def wait_turn(pilot, screen: WomGameScreen, name: str) -> str:
    """Wait until ``name`` is asked for a code or a guess, passing the keyboard on if the screen asks."""
    await until(pilot, lambda: screen.awaiting is not None and (screen.awaiting[1] == name or screen.awaiting[0] == "seen"),
                message=f"{name}'s turn")
    if screen.awaiting[0] == "seen" and screen.awaiting[1] != name:
        await pilot.press("enter")  # the last guesser has read their key pegs: Done
        await until(pilot, lambda: screen.awaiting is not None and screen.awaiting[1] == name, message=f"{name}'s turn")
    if screen.awaiting[0] == "handover":
        assert "Pass the keyboard to " + name in shown(screen.query_one("#handover-title", Static))
        await pilot.press("enter")
        await until(pilot, lambda: screen.awaiting is not None and screen.awaiting[0] != "handover")
    return screen.awaiting[0]


async def enter_code(pilot, screen: WomGameScreen, name: str, code: str, *, paste: bool = False) -> None:
    """Wait for ``name``'s code, then type it (or paste it) and press Enter."""
    assert await wait_turn(pilot, screen, name) == "code"
    if paste:
        pilot.app.post_message(events.Paste(code.lower()))
        await until(pilot, lambda: screen.query_one("#code-input", PegInput).value == code.upper())
        await pilot.press("enter")
    else:
        await pilot.press(*code.lower(), "enter")


async def enter_guess(pilot, screen: WomGameScreen, name: str, guess: str, *, paste: bool = False) -> None:
    """Wait for ``name``'s guess, then type it (or paste it, as a terminal delivers a paste) and press Enter."""
    assert await wait_turn(pilot, screen, name) == "guess"
    if paste:
        pilot.app.post_message(events.Paste(guess))
        await until(pilot, lambda: screen.query_one("#guess-input", PegInput).value == guess.upper())
        await pilot.press("enter")
    else:
        await pilot.press(*guess, "enter")


def debug_code(screen: WomGameScreen) -> str:
    """The computer's code for the person, from the DEBUG line (the app runs with --debug)."""
    return next(line for line in said(screen) if line.startswith("DEBUG: ")).removeprefix("DEBUG: ")


async def play_out(pilot, screen: WomGameScreen, name: str) -> None:
    """``name`` (the only person, against one computer, under --debug) sets RGBY and breaks the code at once."""
    app = pilot.app
    await enter_code(pilot, screen, name, "RGBY", paste=True)
    await until(pilot, lambda: screen.awaiting == ("guess", name))
    await pilot.press(*debug_code(screen), "enter")
    await until(pilot, lambda: isinstance(app.screen, WomResultsScreen), message="results")


async def seat(pilot, *names: str, attempts: int = DEFAULT_ATTEMPTS) -> WomGameScreen:
    """Sit ``names`` at a table straight from the menu, as the setup's Start does: for the tests of
    the game itself (the setup screen has its own tests, and the whole-game test goes through it)."""
    app = pilot.app
    screen = start_game(app, WomSetup(names, attempts))
    app.push_screen(screen)
    await until(pilot, lambda: app.screen is screen and screen.is_mounted)
    return screen


async def two_people_and_hal(pilot, attempts: str = "5") -> WomGameScreen:
    """Set up Alan, Steve and HAL9000 with ``attempts`` attempts, by clicking, and start."""
    await open_setup(pilot)
    await pick_radio(pilot, "#setup-count", "3")
    await choose(pilot, "#seat-select-1", "al")
    await choose(pilot, "#seat-select-2", "st")
    await choose(pilot, "#seat-select-3", "h")
    await pick_radio(pilot, "#setup-attempts", attempts)
    return await start(pilot)


# ---------------------------------------------------------------- a whole game


async def test_a_whole_game_two_people_and_hal9000(make_app, store: Store):
    store.register("Alan")
    store.register("Steve")
    app = make_app(debug=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await two_people_and_hal(pilot)
        assert [p.name for p in screen.game.players] == ["Alan", "Steve", "HAL9000"]
        # The prompt is written as the first turn is shown, a moment after the screen starts.
        await until(pilot, lambda: "Alan's turn to set the code for Steve to break."
                    in shown(screen.query_one("#making-prompt", Static)))

        await enter_code(pilot, screen, "Alan", "RGBY")
        # One keyboard, two people: the screen hides everything until Steve says he is there.
        await until(pilot, lambda: screen.awaiting == ("handover", "Steve"))
        assert screen.query_one("#wom-switcher").current == "wom-handover"
        assert "Press Enter when you are ready, Steve." in shown(screen.query_one("#handover-note", Static))
        assert not screen.message_log.display  # behind the curtain the messages are hidden too
        await pilot.press("enter")  # Steve is there: the messages come back with his turn
        await until(pilot, lambda: screen.awaiting is None or screen.awaiting[0] != "handover")
        assert screen.message_log.display
        await enter_code(pilot, screen, "Steve", "KKWW")
        await until(pilot, lambda: screen.game.phase == GUESSING)
        debug = [line for line in said(screen) if line.startswith("DEBUG: ")]
        assert len(debug) == 1, "only the computer's code is shown, and only under --debug"
        hal_code = debug[0].removeprefix("DEBUG: ")
        assert said(screen)[:4] == [
            "The code is now set for Steve to break.",
            "The code is now set for HAL9000 to break.",
            f"DEBUG: {hal_code}",
            "The code is now set for Alan to break.",
        ]

        # Alan misses once, then breaks HAL9000's code; Steve never breaks Alan's.
        wrong = "RRRR" if hal_code != "RRRR" else "GGGG"
        await enter_guess(pilot, screen, "Alan", wrong)
        await enter_guess(pilot, screen, "Steve", "GGGG")
        await enter_guess(pilot, screen, "Alan", hal_code)
        await until(pilot, lambda: "Alan broke the code in 2 attempts!" in said(screen))
        for _ in range(4):
            await enter_guess(pilot, screen, "Steve", "gggg", paste=True)
        await until(pilot, lambda: isinstance(app.screen, WomResultsScreen), message="results")

        results = app.screen
        game = results.game
        assert game.phase == FINISHED
        hal_board = game.board_of(game.players[2])
        assert hal_board.solved, "HAL9000 always breaks 4 × 6 within 5 attempts"
        hal_used = hal_board.attempts_used
        assert "Steve failed to break the code." in said(screen)
        assert said(screen)[said(screen).index("Steve failed to break the code.") + 1] == "The code was RGBY."
        assert f"HAL9000 broke the code in {hal_used} attempt" in " ".join(said(screen))

        table = results.query_one("#results-table")
        rows = [[str(cell) for cell in table.get_row_at(index)] for index in range(table.row_count)]
        # Each row's secret is the code that player had to break, and says whose it was.
        assert [(row[0], row[2], row[3], row[4]) for row in rows] == [
            ("Alan", "HAL9000", "✓ broke", "2/5"),
            ("Steve", "Alan", "✗ failed", "5/5"),
            ("HAL9000", "Steve", "✓ broke", f"{hal_used}/5"),
        ]
        assert [row[5:] for row in rows] == [["4", "5", "9"], ["0", str(hal_used - 1), str(hal_used - 1)], ["—"] * 3]
        assert rows[0][1].replace(" ", "") == hal_code, "the results reveal every code"
        points = shown(results.query_one("#results-points", Static))
        assert "Alan receives 4 + 5 = 9 points." in points
        steve = hal_used - 1
        assert f"Steve receives 0 + {steve} = {steve} point" in points
        assert "HAL9000" not in points
        assert "Saved to the scoreboard" in shown(results.query_one("#results-saved", Static))

    after = Store(store.data_dir)
    alan, steve_user = after.user("Alan"), after.user("Steve")
    assert (alan.score, alan.games) == (9, 1)
    assert (steve_user.score, steve_user.games) == (steve, 1)
    assert len(after.games()) == 1


async def test_results_lead_to_play_again_scoreboard_and_menu(make_app, store: Store):
    store.register("Alan")
    app = make_app(debug=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_setup(pilot)  # defaults: Alan against HAL9000
        await pick_radio(pilot, "#setup-attempts", "5")
        screen = await start(pilot)
        await play_out(pilot, screen, "Alan")
        results = app.screen
        await pilot.click("#results-scoreboard")
        await until(pilot, lambda: isinstance(app.screen, ScoreboardScreen))
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is results)
        await pilot.press("escape")  # Esc leaves nothing here: a toast says which keys do ...
        await until(pilot, lambda: any("results stay" in n.title for n in app._notifications))
        await pilot.click("#results-again")
        await until(pilot, lambda: isinstance(app.screen, WomGameScreen) and app.screen is not screen)
        await pilot.pause()
        assert not any("results stay" in n.title for n in app._notifications)  # ... and goes with the results
        again = app.screen
        assert [p.name for p in again.game.players] == ["Alan", "HAL9000"]
        assert again.game.attempts == 5
        assert again.game.phase == MAKING
        await pilot.press("escape", "y")  # leave the new game
        await until(pilot, lambda: isinstance(app.screen, WomSetupScreen))
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen))
    assert Store(store.data_dir).user("Alan").games == 1


# ---------------------------------------------------------------- setup


async def test_setup_seats_nobody_twice_and_only_2_to_4_players(make_app, store: Store):
    for name in ("Alan", "Steve", "Ada"):
        store.register(name)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await open_setup(pilot)

        def seated() -> list[str]:
            return [
                setup.query_one(f"#seat-select-{seat}", Choice).value
                for seat in range(1, 5)
                if setup.query_one(f"#seat-{seat}").display
            ]

        assert [b.name for b in setup.query_one("#setup-count").query("RadioButton")] == ["2", "3", "4"]
        assert [b.name for b in setup.query_one("#setup-attempts").query("RadioButton")] == [
            "5", "6", "7", "8", "9", "10",
        ]
        offered = [value for _, value in setup.query_one("#seat-select-1", Choice).options]
        assert offered[1:] == ["Ada", "Alan", "Steve", "HAL9000", "VIKI"], "registered users, then the computers"
        assert seated() == ["Ada", "HAL9000"]
        await pick_radio(pilot, "#setup-count", "4")
        assert len(seated()) == 4 and len(set(seated())) == 4
        before = seated()
        # Choosing someone who already sits elsewhere swaps the two seats: nobody plays twice.
        await choose(pilot, "#seat-select-1", "hal")
        assert seated() == ["HAL9000", "Ada", *before[2:]]
        error = setup.query_one("#setup-error", Static)
        assert "HAL9000 moved to player 1; player 2 is now Ada." in shown(error)
        await pick_radio(pilot, "#setup-count", "2")
        assert seated() == ["HAL9000", "Ada"]
        await pick_radio(pilot, "#setup-attempts", "7")
        screen = await start(pilot)
        assert [p.name for p in screen.game.players] == ["HAL9000", "Ada"]
        assert screen.game.attempts == 7


async def test_setup_says_which_seat_is_empty_and_domain_reasons_for_slips(make_app, store: Store):
    store.register("Alan")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await open_setup(pilot)
        await pick_radio(pilot, "#setup-count", "3")
        setup.query_one("#seat-select-3", Choice).clear()
        await pilot.pause()
        await pilot.click("#setup-start")
        error = setup.query_one("#setup-error", Static)
        await until(pilot, lambda: shown(error).strip())
        assert shown(error).strip() == "Choose a player for seat 3."
        assert isinstance(app.screen, WomSetupScreen)
        # A user who vanished from the data folder after the screen opened: the domain's reason.
        setup._seats[2] = "Bill"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: shown(error).strip() == "Invalid user name.")
        assert isinstance(app.screen, WomSetupScreen)
        setup._seats[2] = setup._seats[0]
        await pilot.press("ctrl+s")
        await until(pilot, lambda: shown(error).strip() == f"{setup._seats[0]} is already in the game.")
        assert isinstance(app.screen, WomSetupScreen)


async def test_setup_with_nobody_registered_hints_and_lets_computers_play(make_app, store: Store):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await open_setup(pilot)
        assert "No one is registered yet" in shown(setup.query_one("#setup-hint", Static))
        assert setup.query_one("#seat-select-1", Choice).value == "HAL9000"
        assert setup.query_one("#seat-select-2", Choice).value == "VIKI"
        await pick_radio(pilot, "#setup-attempts", "5")
        await pilot.click("#setup-start")
        await until(pilot, lambda: isinstance(app.screen, WomResultsScreen), message="computers finish")
        points = shown(app.screen.query_one("#results-points", Static))
        assert "nobody receives points" in points
    assert Store(store.data_dir).scoreboard() == []


async def test_advanced_rules_change_the_game_and_refuse_impossible_ones(make_app, store: Store):
    store.register("Alan")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await open_setup(pilot)
        await pilot.click("#setup-advanced CollapsibleTitle")
        await until(pilot, lambda: not setup.query_one("#setup-advanced").collapsed)
        await pilot.click("#setup-repeats")
        await until(pilot, lambda: setup.query_one("#setup-repeats").value is False)
        await choose(pilot, "#setup-length", "8")
        error = setup.query_one("#setup-error", Static)
        await until(pilot, lambda: "without repeats" in shown(error))
        assert "needs at least 8 symbols" in shown(error)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, WomSetupScreen), "an impossible ruleset never starts"
        await choose(pilot, "#setup-length", "5")
        await choose(pilot, "#setup-palette", "1")  # Digits 1–8
        await until(pilot, lambda: not shown(error).strip())
        assert "Advanced rules: 5 × Digits 1–8, no repeats" in str(setup.query_one("#setup-advanced").title)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, WomGameScreen))
        screen = app.screen
        ruleset = screen.game.ruleset
        assert (ruleset.length, ruleset.palette.key, ruleset.repeats) == (5, "digits8", False)
        # The top bar names the rules as the setup did, whole at 80 columns (the gaps narrow first).
        await until(pilot, lambda: "10 attempts" in screen_lines(app)[0])
        assert screen_lines(app)[0].strip() == "World of Mastermind · 2 players · 5 × Digits 1–8, no repeats · 10 attempts"
        await enter_code(pilot, screen, "Alan", "11234")
        await until(pilot, lambda: "Code may not repeat a symbol" in " ".join(said(screen)))
        assert screen.game.phase == MAKING
        # The code is hidden as it is typed: its refusal names no symbol, in the log or by the input.
        assert said(screen)[-1] == "Code may not repeat a symbol; one appears more than once."
        assert "1" not in shown(screen.query_one("#making-error", Static))


# ---------------------------------------------------------------- code making and guessing


async def test_masked_code_and_invalid_code_or_guess_cost_nothing(make_app, store: Store):
    store.register("Alan")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await seat(pilot, "Alan", "HAL9000")
        error = screen.query_one("#making-error", Static)
        await wait_turn(pilot, screen, "Alan")
        code_input = screen.query_one("#code-input", PegInput)
        await pilot.press("r", "g", "b")
        assert slot_faces(code_input) == ["•", "•", "•", "·"], "the code is masked as it is typed"
        await pilot.press("ctrl+r")
        assert slot_faces(code_input) == ["R", "G", "B", "·"], "Ctrl+R peeks"
        await pilot.press("ctrl+r")
        assert slot_faces(code_input) == ["•", "•", "•", "·"]
        await pilot.press("enter")
        await until(pilot, lambda: shown(error).strip())
        assert shown(error).strip() == "Code too short; it must be exactly 4 symbols."
        assert screen.game.phase == MAKING and screen.game.maker.name == "Alan"
        await pilot.press("t", "enter")  # RGBT
        await until(pilot, lambda: "Only R, G, B, Y, W and K are allowed." in shown(error))
        assert screen.game.phase == MAKING
        await pilot.press("backspace", "y", "enter")
        await until(pilot, lambda: screen.awaiting == ("guess", "Alan"))

        guess_error = screen.query_one("#guess-error", Static)
        attempts = screen.query_one("#guess-attempts", Static)
        assert shown(attempts) == "Attempts left: 10 of 10"
        await pilot.press("b", "g", "y", "enter")
        await until(pilot, lambda: shown(guess_error).strip())
        assert shown(guess_error).strip() == "Guess too short; it must be exactly 4 symbols."
        await pilot.press("x", "enter")  # BGYX
        await until(pilot, lambda: "Only R, G, B, Y, W and K are allowed." in shown(guess_error))
        assert shown(attempts) == "Attempts left: 10 of 10"
        board = screen.game.board_of(screen.game.players[0])
        assert board.attempts_used == 0
        assert "Guess too short; it must be exactly 4 symbols." in said(screen)


async def test_without_debug_no_code_is_ever_shown(make_app, store: Store):
    # With --debug, the whole-game test sees exactly one DEBUG line: the computer's code.
    store.register("Alan")
    app = make_app(debug=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await seat(pilot, "Alan", "HAL9000")
        await enter_code(pilot, screen, "Alan", "RGBY")
        await until(pilot, lambda: "The code is now set for Alan to break." in said(screen))
        await wait_turn(pilot, screen, "Alan")
        assert not any(line.startswith("DEBUG") for line in said(screen))
        assert not any("RGBY" in line for line in said(screen)), "a person's code never reaches the log"


async def test_arrow_keys_and_mouse_enter_a_guess(make_app, store: Store):
    store.register("Alan")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await seat(pilot, "Alan", "HAL9000")
        await enter_code(pilot, screen, "Alan", "RGBY")
        await wait_turn(pilot, screen, "Alan")
        # Arrows: ↑ on an empty slot gives R, ↑ again G; → moves on; ↓ on an empty slot gives the last (K).
        await pilot.press("up", "right", "up", "up", "right", "down", "right", "up", "up", "up")
        await pilot.press("enter")
        await until(pilot, lambda: any(line.startswith("Alan's guess: RGKB") for line in said(screen)))
        await wait_turn(pilot, screen, "Alan")
        for size in ((120, 40), (80, 24)):  # the table follows the terminal
            await pilot.resize_terminal(*size)
            # laid out again at the new size (a moment after the resize): the entry fits, above the footer
            await until(pilot, lambda: (box := screen.query_one("#guess-input", PegInput).region).right <= size[0]
                        and box.bottom <= size[1] - 1 and box.area > 0)
            assert screen.query_one("#guess-history").row_count == 1
        # The mouse: click palette pegs W, Y, Y, K.
        for symbol in "WYYK":
            peg = next(p for p in screen.query_one("#guess-input").query(PalettePeg) if p.symbol == symbol)
            await pilot.click(peg)
        assert screen.query_one("#guess-input", PegInput).value == "WYYK"
        await pilot.press("enter")
        await until(pilot, lambda: any(line.startswith("Alan's guess: WYYK") for line in said(screen)))
        board = screen.game.board_of(screen.game.players[0])
        assert [guess for guess, _ in board.history] == ["RGKB", "WYYK"]
        table = screen.query_one("#guess-history")
        await wait_turn(pilot, screen, "Alan")
        assert table.row_count == 2


# ---------------------------------------------------------------- leaving, and a store that fails


async def test_leaving_asks_first_and_awards_nothing_even_while_a_computer_thinks(make_app, store: Store):
    store.register("Alan")
    app = make_app()
    release = threading.Event()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_setup(pilot)  # Alan against HAL9000
        screen = await start(pilot)
        await enter_code(pilot, screen, "Alan", "RGBY")
        await enter_guess(pilot, screen, "Alan", "RRRR")
        await wait_turn(pilot, screen, "Alan")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")  # stay: the game goes on
        await until(pilot, lambda: app.screen is screen)

        hal = screen.game.players[1]
        think = hal.strategy.next_guess

        def slow(*args):
            release.wait(30)  # as if searching a huge ruleset
            return think(*args)

        hal.strategy.next_guess = slow
        await enter_guess(pilot, screen, "Alan", "GGGG")
        status = screen.query_one("#guess-error", Static)
        await until(pilot, lambda: "HAL9000 is thinking" in shown(status))
        assert screen.game.board_of(screen.game.players[0]).attempts_used == 2
        # The screen still answers while HAL9000 thinks: Esc asks, y leaves.
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        release.set()
        await until(pilot, lambda: isinstance(app.screen, WomSetupScreen))
        assert screen.game.phase == "abandoned"
    after = Store(store.data_dir)
    assert [(u.name, u.score, u.games) for u in after.scoreboard()] == [("Alan", 0, 0)]
    assert after.games() == []


async def test_a_store_that_cannot_save_says_so_on_the_results(make_app, store: Store):
    store.register("Alan")
    app = make_app(debug=True)

    def refuse(record) -> str:
        raise StoreError(store.users_path, "the disk is full")

    app.store.record_game = refuse  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await seat(pilot, "Alan", "HAL9000", attempts=5)
        await play_out(pilot, screen, "Alan")
        saved = shown(app.screen.query_one("#results-saved", Static))
        assert "The points could not be saved." in saved
        assert "the disk is full" in saved
        assert app.screen.query_one("#results-again", Button)
    assert Store(store.data_dir).user("Alan").games == 0


# ---------------------------------------------------------------- the end of a game is seen


async def alan_and_steve(pilot) -> WomGameScreen:
    """Alan and Steve, no computer: Alan sets RGBY for Steve, Steve sets KKWW for Alan, Alan breaks it at once."""
    screen = await seat(pilot, "Alan", "Steve")
    await enter_code(pilot, screen, "Alan", "RGBY")
    await enter_code(pilot, screen, "Steve", "KKWW")
    await enter_guess(pilot, screen, "Alan", "kkww")
    assert await wait_turn(pilot, screen, "Steve") == "guess"
    return screen


async def test_an_extra_enter_after_the_last_guess_leaves_the_results_on_show(make_app, store: Store):
    store.register("Alan")
    store.register("Steve")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await alan_and_steve(pilot)
        await pilot.press(*"rgby", "enter", "enter")  # the last guess, and one Enter too many
        await until(pilot, lambda: isinstance(app.screen, WomResultsScreen), message="results")
        results = app.screen
        assert app.focused is None or app.focused.id != "results-again", "Enter must not play again"
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is results
        assert screen.game.phase == FINISHED
        await pilot.press("a")  # the deliberate key
        await until(pilot, lambda: isinstance(app.screen, WomGameScreen))


async def test_an_esc_as_the_game_ends_does_not_skip_the_results(make_app, store: Store):
    store.register("Alan")
    store.register("Steve")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await alan_and_steve(pilot)
        await pilot.press(*"rgby", "enter", "escape")  # the last guess, and an Esc on its heels
        await until(pilot, lambda: isinstance(app.screen, (WomResultsScreen, ConfirmScreen)), message="results")
        assert isinstance(app.screen, WomResultsScreen), "the finished game shows its results, not a leave dialog"
    assert Store(store.data_dir).user("Steve").games == 1


async def test_the_next_hand_over_takes_its_enter_however_soon_it_comes(make_app, store: Store):
    """Textual ignores Enter on a button while the flash of its last press lasts (0.2 s): the one
    hand-over button served Steve, then Alan a moment later, and Alan's Enter did nothing."""
    store.register("Alan")
    store.register("Steve")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await seat(pilot, "Alan", "Steve")
        screen.query_one("#handover-ready", Button).active_effect_duration = 60  # a flash that outlasts the game
        await enter_code(pilot, screen, "Alan", "RGBY")
        await enter_code(pilot, screen, "Steve", "KKWW")  # Steve's hand-over: Enter
        assert await wait_turn(pilot, screen, "Alan") == "guess"  # Alan's hand-over: Enter again


async def test_the_hand_over_button_fits_each_name(make_app, store: Store):
    store.register("Al")
    store.register("Maximilian")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await seat(pilot, "Maximilian", "Al")
        ready = screen.query_one("#handover-ready", Button)
        await enter_code(pilot, screen, "Maximilian", "RGBY")
        await until(pilot, lambda: screen.awaiting == ("handover", "Al"))
        await pilot.pause()
        assert ready.size.width >= len("I'm Al — ready") + 2
        await enter_code(pilot, screen, "Al", "KKWW")
        await until(pilot, lambda: screen.awaiting == ("handover", "Maximilian"))
        await pilot.pause()
        label = "I'm Maximilian — ready"
        assert str(ready.label) == label
        assert ready.size.width >= len(label) + 2, "the button grows to the longer name"


# ---------------------------------------------------------------- layout


def fits(app, widget) -> bool:
    """The widget is on show, whole, inside the terminal."""
    region, screen = widget.region, app.screen.region
    return region.width > 0 and region.height > 0 and screen.contains_region(region)


async def test_at_60x20_the_table_keeps_its_players_and_messages(make_app, store: Store):
    store.register("Alan")
    app = make_app(debug=True)
    async with app.run_test(size=(60, 20)) as pilot:
        screen = await seat(pilot, "Alan", "HAL9000")
        await wait_turn(pilot, screen, "Alan")
        await pilot.pause()
        for selector in ("#wom-players", "#wom-log", "#code-input"):
            assert fits(app, screen.query_one(selector)), f"{selector} is cut at 60×20"
        await pilot.press(*"rgby", "enter")
        await until(pilot, lambda: screen.awaiting == ("guess", "Alan"))
        await pilot.pause()
        for selector in ("#wom-players", "#wom-log", "#guess-input", "#guess-history"):
            assert fits(app, screen.query_one(selector)), f"{selector} is cut at 60×20"


async def test_at_160x48_the_code_making_form_sits_in_the_middle(make_app, store: Store):
    store.register("Alan")
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await seat(pilot, "Alan", "HAL9000")
        await wait_turn(pilot, screen, "Alan")
        await pilot.pause()
        stage = screen.query_one("#wom-making").region
        row = screen.query_one("#code-input").parent.region
        prompt = screen.query_one("#making-prompt").region
        assert abs(row.center[0] - stage.center[0]) <= 2, (row, stage)
        assert prompt.x >= stage.x + 10, "the prompt does not hug the left edge"
        assert abs(row.center[1] - stage.center[1]) <= stage.height // 4


async def test_ctrl_s_with_a_seat_list_open_starts_and_the_list_is_closed_on_coming_back(make_app, store: Store):
    """ctrl+s while a seat's list is open starts the game (the seats as their rows show them); back on the
    setup, no list hangs open over the form and the keys move the focus, not a forgotten list."""
    store.register("Alan")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await open_setup(pilot)
        seat = setup.query_one("#seat-select-2", Choice)
        seat.focus()
        await pilot.press("enter")
        await until(pilot, lambda: seat.expanded and app.focused is not seat, message="the seat's list is open")
        await pilot.press("down")  # a highlight moved in the list, never chosen
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, WomGameScreen), message="ctrl+s starts")
        game = app.screen
        assert [p.name for p in game.game.players] == ["Alan", "HAL9000"], "the seats as shown, not the highlighted one"
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await until(pilot, lambda: app.screen is setup, message="back on the setup")
        for _ in range(3):
            await pilot.pause()
        assert not any(choice.expanded for choice in setup.query(Choice)), "a list is still open"
        assert app.focused is seat, f"the focus is on {app.focused}, not the seat whose list was open"
        await pilot.press("tab")
        await until(pilot, lambda: app.focused is not seat, message="Tab moves on from the seat")
