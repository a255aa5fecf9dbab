"""Solo setup and the solo game at 80×24, played as a person would: keys, arrows, clicks."""

from __future__ import annotations

import random

from textual.widgets import Button, DataTable, Input, Static
from textual.widgets._footer import FooterKey

from wom_tui.domain.codes import SOLO_RULESET, WOM_RULESET, Feedback, Ruleset, feedback
from wom_tui.domain.solo import NO_GUESS_LEFT, ONE_USED
from wom_tui.domain.store.documents import encode_users
from wom_tui.domain.store.folder.files import atomic_write
from wom_tui.domain.strategies import make_strategy
from wom_tui.domain.users import User, UserRegistry
from wom_tui.screens.confirm import ConfirmScreen
from wom_tui.screens.solo_setup import SoloSetupScreen
from wom_tui.screens.solo_game import HallNameScreen, SoloGameScreen
from wom_tui.widgets.choice import Choice
from wom_tui.widgets.peg_input import PalettePeg, PegSlot
from wom_tui.widgets.player_select import PlayerChoice

from .conftest import wait_for
from .screen_text import screen_text


def shown(widget: Static) -> str:
    """The plain text a Static shows."""
    return str(widget.render())


def highlighted_rows(setup: SoloSetupScreen) -> list[str]:
    """The labels of the setup's rows drawn in another colour than most (the focused row's)."""
    labels = list(setup.query(".solo-label").results(Static))
    colours = [label.styles.color for label in labels]
    usual = max(colours, key=colours.count)
    return [shown(label) for label, colour in zip(labels, colours) if colour != usual]


async def open_setup(pilot) -> SoloSetupScreen:
    await pilot.press("o")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, SoloSetupScreen))
    return pilot.app.screen


async def start_game(pilot) -> SoloGameScreen:
    await pilot.press("p")
    await wait_for(
        pilot,
        lambda: isinstance(pilot.app.screen, SoloGameScreen) and pilot.app.screen.messages.lines_said,
        message="the solo game opens and greets the player",
    )
    return pilot.app.screen


def said(screen) -> list[str]:
    return screen.messages.lines_said


def rows(screen: SoloGameScreen) -> list[tuple[str, str, str]]:
    """The history as the table shows it: (guess, black, white); lifelines read ("LIFELINE", "", "")."""
    table = screen.query_one("#solo-history", DataTable)
    out = []
    for index in range(table.row_count):
        cells = table.get_row_at(index)
        guess = "".join(str(cells[1]).split())
        guess = "LIFELINE" if guess.startswith(("lifeline", "(lifeline)", "⚑")) else guess  # (what it told: test_small_things.py)
        out.append((guess, str(cells[2]).strip(), str(cells[3]).strip()))
    return out


def answered(screen: SoloGameScreen) -> list[tuple[str, Feedback]]:
    return [(g, Feedback(int(b), int(w))) for g, b, w in rows(screen) if g != "LIFELINE"]


def footer_keys(screen) -> list[str]:
    """The keys the footer offers."""
    return [key.key for key in screen.query(FooterKey)]


def turn(screen: SoloGameScreen) -> str:
    return shown(screen.query_one("#solo-turn", Static))


async def guess(pilot, screen: SoloGameScreen, code: str) -> None:
    before = len(rows(screen))
    await pilot.press(*code, "enter")
    await wait_for(pilot, lambda: len(rows(screen)) > before, message=f"guess {code} shows in the history")


async def play_to_win(pilot, screen: SoloGameScreen, ruleset: Ruleset = SOLO_RULESET) -> int:
    """Guess like a careful player: each guess chosen from what the history table shows."""
    strategy, rng = make_strategy("expert"), random.Random(7)
    while "Broken" not in turn(screen):
        assert "Out of guesses" not in turn(screen)
        await guess(pilot, screen, strategy.next_guess(ruleset, answered(screen), rng))
    return len(rows(screen))


# -- setup -----------------------------------------------------------------------------------


async def test_setup_lists_users_and_refuses_no_repeats_longer_than_the_palette(app, store):
    atomic_write(store.users_path, encode_users(UserRegistry([User("bob", 3, 1), User("Ada"), User("Alan", 9, 2)])))
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await open_setup(pilot)
        player = setup.query_one("#solo-player", PlayerChoice)
        assert [str(prompt) for prompt, _ in player.options] == ["Guest", "Ada", "Alan", "bob"]
        assert "No record yet" in shown(setup.query_one("#solo-summary", Static))
        # The row that has the focus has its label highlighted, and the highlight follows the focus.
        assert highlighted_rows(setup) == ["Mode"]
        await pilot.press("tab")
        assert highlighted_rows(setup) == ["Length"]
        # Rainbow has six symbols: eight without repeats cannot be.
        await pilot.click("#solo-length-4")
        await pilot.click("#solo-palette-2")
        await pilot.click("#solo-repeats-1")
        reason = shown(setup.query_one("#solo-error", Static))
        assert reason == "Without repeats a code can be at most 6 long with 6 symbols."
        assert setup.query_one("#solo-play", Button).disabled
        await pilot.press("p")
        assert isinstance(pilot.app.screen, SoloSetupScreen)
        await pilot.click("#solo-length-2")  # six fits
        assert shown(setup.query_one("#solo-error", Static)) == ""
        game = await start_game(pilot)
        assert game.game.ruleset == Ruleset(6, game.game.ruleset.palette, False, 10)
        assert game.game.ruleset.palette.key == "rainbow"


# -- winning, losing, the hall of fame --------------------------------------------------------


async def test_a_guest_wins_sets_a_record_and_names_it(app, store):
    async with app.run_test(size=(80, 24)) as pilot:
        await open_setup(pilot)
        await pilot.click("#solo-palette-3")  # Classic
        screen = await start_game(pilot)
        assert turn(screen) == "Guess #1 of 10"
        used = await play_to_win(pilot, screen, WOM_RULESET)
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, HallNameScreen), message="a guest is asked a name")
        dialog = pilot.app.screen
        await pilot.press(*"[/]", "enter")
        assert "may use only" in shown(dialog.query_one("#hall-reason", Static))
        dialog.query_one("#hall-name", Input).clear()
        await pilot.press(*"Ann", "enter")
        await wait_for(pilot, lambda: pilot.app.screen is screen)
        assert f"You broke the code in {used} guesses!" in said(screen)
        assert any("Ann is in the hall of fame" in line for line in said(screen))
        assert "Ann is in the hall of fame" in shown(screen.query_one("#solo-result", Static))
        best = store.hall_of_fame().best(WOM_RULESET)
        assert best is not None and (best.name, best.guest, best.guesses) == ("Ann", True, used)
        records = store.games()
        assert len(records) == 1 and records[0].kind == "solo"
        assert records[0].players[0].name == "Guest" and records[0].players[0].broke


async def test_a_registered_user_record_uses_their_name(app, store):
    store.register("Maximilian")
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await open_setup(pilot)
        setup.query_one("#solo-player", PlayerChoice).focus()
        await pilot.press("enter", "down", "enter")
        await wait_for(pilot, lambda: setup.query_one("#solo-player", PlayerChoice).value == "Maximilian")
        await pilot.click("#solo-palette-3")  # Classic: letters as pegs
        screen = await start_game(pilot)
        # Alan guesses right at once (the code read from the game's snapshot; playing to win is the guest's test).
        await guess(pilot, screen, screen.snapshot["secret"].lower())
        used = 1
        await wait_for(pilot, lambda: any("Maximilian is in the hall of fame" in line for line in said(screen)))
        assert not isinstance(pilot.app.screen, HallNameScreen)
        # The finished game's panel shows the whole line at 80×24.
        result = screen.query_one("#solo-result", Static)
        line = "A new record! Maximilian is in the hall of fame."
        await wait_for(pilot, lambda: line in shown(result))
        await pilot.pause()
        assert result.content_region.width >= len(line) and screen.region.contains_region(result.region)
        best = store.hall_of_fame().best(WOM_RULESET)
        assert best is not None and (best.name, best.guest, best.guesses) == ("Maximilian", False, used)
        assert store.games()[0].players[0].name == "Maximilian"


async def test_a_tied_record_names_its_holder(app, store):
    from wom_tui.domain.halloffame import HallEntry

    store.register("Alan")
    store.submit_hall_entry(HallEntry(WOM_RULESET, 1, "Ada", guest=True))
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await open_setup(pilot)
        setup.query_one("#solo-player", PlayerChoice).focus()
        await pilot.press("enter", "down", "enter")
        await wait_for(pilot, lambda: setup.query_one("#solo-player", PlayerChoice).value == "Alan")
        await pilot.click("#solo-palette-3")  # Classic
        screen = await start_game(pilot)
        await guess(pilot, screen, screen.snapshot["secret"].lower())
        tied = "The record is 1 guess, held by Ada; you tied it."
        await wait_for(pilot, lambda: tied in said(screen), message="the holder is named")
        assert tied in shown(screen.query_one("#solo-result", Static))
        assert store.hall_of_fame().best(WOM_RULESET).name == "Ada"


async def test_invalid_guesses_cost_nothing_and_losing_reveals_the_code(app, store):
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await open_setup(pilot)
        setup.query_one("#solo-guesses", Choice).focus()
        await pilot.press("enter", "3", "enter")  # type to find 3 guesses
        await wait_for(pilot, lambda: setup.query_one("#solo-guesses", Choice).value == 3)
        screen = await start_game(pilot)
        await pilot.press(*"12", "enter")
        await wait_for(pilot, lambda: said(screen)[-1] == "Guess too short; it must be exactly 4 symbols.")
        await pilot.press("backspace", "backspace", *"12x4", "enter")
        await wait_for(pilot, lambda: said(screen)[-1] == "Only 0, 1, 2, 3, 4, 5, 6, 7, 8 and 9 are allowed.")
        assert rows(screen) == [] and turn(screen) == "Guess #1 of 3"
        await pilot.press(*["backspace"] * 4)
        for _ in range(2):
            await guess(pilot, screen, "9999")
        await pilot.press(*"9999", "enter", "enter")  # the last guess, and one Enter too many
        await wait_for(pilot, lambda: turn(screen) == "Out of guesses")
        await pilot.pause()
        assert not any(line.startswith("Game 2:") for line in said(screen)), "the extra Enter starts nothing"
        assert turn(screen) == "Out of guesses"
        last = said(screen)[-1]
        assert last.startswith("Out of guesses. The code was ") and last.endswith(".")
        code = last.removeprefix("Out of guesses. The code was ").rstrip(".")
        assert all(feedback(code, g) == fb for g, fb in answered(screen))
        assert "".join(shown(screen.query_one("#solo-result", Static)).split()) == f"Thecodewas{code}"
        record = store.games()[0].players[0]
        assert not record.broke and record.attempts == 3
        assert pilot.app.focused is not screen.query_one("#solo-again", Button)
        await pilot.press("enter")
        await pilot.pause()
        assert turn(screen) == "Out of guesses", "Enter on a finished game changes nothing"
        await wait_for(pilot, lambda: "f2" not in footer_keys(screen), message="no lifeline once the game is over")
        assert "f3" not in footer_keys(screen)
        await pilot.press("ctrl+n")  # the deliberate key: play again
        await wait_for(pilot, lambda: not rows(screen) and turn(screen) == "Guess #1 of 3")
        assert any(line.startswith("Game 2:") for line in said(screen))


# -- lifelines --------------------------------------------------------------------------------


async def test_one_lifeline_per_game_by_key_and_button_and_the_refusal(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await open_setup(pilot)
        screen = await start_game(pilot)
        await pilot.press("f2")
        await wait_for(pilot, lambda: rows(screen))
        assert said(screen)[-1].startswith("The code contains ") and said(screen)[-1].endswith("That cost 1 guess.")
        assert rows(screen) == [("LIFELINE", "", "")]
        assert turn(screen) == "Guess #2 of 10"
        assert "Contains" in shown(screen.query_one("#solo-known", Static))
        # The side panel lists only usable lifelines: none are left, and it says so.
        for number in (1, 2):
            assert not screen.query_one(f"#solo-lifeline-{number}", Button).display
        assert shown(screen.query_one("#solo-no-lifelines", Static)) == "No lifelines left: used up."
        assert not screen.query_one("#solo-hint", Static).display
        # The footer no longer offers lifelines that cannot act; F3 still says why.
        await wait_for(pilot, lambda: "f2" not in footer_keys(screen), message="F2 leaves the footer")
        assert "f3" not in footer_keys(screen) and "ctrl+n" in footer_keys(screen)
        screen.messages.say("")
        await pilot.press("f3")
        await wait_for(pilot, lambda: said(screen)[-1] == ONE_USED)
        assert len(rows(screen)) == 1


async def test_typed_lifelines_each_once_and_the_no_guess_left_refusal(app):
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await open_setup(pilot)
        await pilot.click("#solo-lifelines-2")  # each once
        setup.query_one("#solo-guesses", Choice).focus()
        await pilot.press("enter", "3", "enter")  # type to find 3 guesses
        await wait_for(pilot, lambda: setup.query_one("#solo-guesses", Choice).value == 3)
        screen = await start_game(pilot)
        peg_input = screen.query_one("#solo-input")
        await pilot.press(*"life")  # "l" is never a peg: it starts a command
        assert peg_input.command == "life" and peg_input.value == ""
        await pilot.press(*"line#2", "enter")
        await wait_for(pilot, lambda: len(rows(screen)) == 2)
        message = said(screen)[-1]
        assert message.startswith("The code has ") and message.endswith("That cost 2 guesses.")
        # "The code has 8 at position 3." fills the hint mask there.
        symbol, position = message.split()[3], int(message.split()[6].rstrip("."))
        mask = shown(screen.query_one("#solo-mask", Static)).split()[1:]
        assert mask[position - 1] == symbol and mask.count("*") == 3
        assert turn(screen) == "Guess #3 of 3"
        await pilot.press(*"LIFELINE#2", "enter")
        await wait_for(pilot, lambda: said(screen)[-1] == "You already used lifeline #2 in this game.")
        # One guess left: lifeline #1 would use it up, so it is not listed, and refused by key.
        assert not screen.query_one("#solo-lifeline-1", Button).display
        assert not screen.query_one("#solo-lifeline-2", Button).display
        assert shown(screen.query_one("#solo-no-lifelines", Static)) == "No lifeline can help now."
        await pilot.press("f2")
        await wait_for(pilot, lambda: said(screen)[-1] == NO_GUESS_LEFT)
        assert len(rows(screen)) == 2
        # A half-typed command is erased with Backspace; the slots come back.
        await pilot.press(*"li", "backspace", "backspace", *"1234", "enter")
        await wait_for(pilot, lambda: len(rows(screen)) == 3)
        assert rows(screen)[2][0] == "1234"


# -- entering guesses, new game, leaving -------------------------------------------------------


async def test_arrow_keys_and_mouse_enter_guesses(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await open_setup(pilot)
        screen = await start_game(pilot)
        await pilot.press("up", "right", "up", "up", "right", "down", "right", "down", "down", "enter")
        await wait_for(pilot, lambda: rows(screen))
        assert rows(screen)[0][0] == "0198"
        pegs = {p.symbol: p for p in screen.query(PalettePeg)}
        for symbol in "5371":
            assert await pilot.click(pegs[symbol])
        slots = list(screen.query(PegSlot))
        assert await pilot.click(slots[2])
        assert await pilot.click(pegs["6"])
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(rows(screen)) == 2)
        assert rows(screen)[1][0] == "5361"


async def test_new_game_mid_game_asks_first(app, store):
    async with app.run_test(size=(80, 24)) as pilot:
        await open_setup(pilot)
        screen = await start_game(pilot)
        await guess(pilot, screen, "0123")
        await pilot.press("ctrl+n")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))
        await pilot.press("n")  # stay
        await wait_for(pilot, lambda: pilot.app.screen is screen)
        assert len(rows(screen)) == 1
        await pilot.press("ctrl+n")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))
        hint = shown(pilot.app.screen.query_one("#confirm-hint", Static))
        assert "Esc" in hint and "keep playing" in hint and "Esc again" not in hint
        await pilot.press("escape")  # Esc cancels, as everywhere
        await wait_for(pilot, lambda: pilot.app.screen is screen)
        assert len(rows(screen)) == 1 and turn(screen) == "Guess #2 of 10"
        await pilot.click("#solo-new")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))
        await pilot.click("#confirm-ok")
        await wait_for(pilot, lambda: pilot.app.screen is screen and not rows(screen))
        await wait_for(pilot, lambda: any(line.startswith("Game 2:") for line in said(screen)))
        assert turn(screen) == "Guess #1 of 10"
        assert store.games() == []  # an abandoned game is not recorded
        await guess(pilot, screen, "4567")  # the fresh input takes guesses
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))
        assert "Esc or n: stay" in shown(pilot.app.screen.query_one("#confirm-hint", Static))
        await pilot.press("escape")  # Esc stays here too: one rule for every dialog
        await wait_for(pilot, lambda: pilot.app.screen is screen)
        assert len(rows(screen)) == 1
        await pilot.press("escape", "y")  # y leaves
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, SoloSetupScreen))


async def test_coach_says_whether_a_guess_could_have_been_the_code(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await open_setup(pilot)
        await pilot.click("#solo-coach-1")
        screen = await start_game(pilot)
        await guess(pilot, screen, "0123")
        await wait_for(pilot, lambda: any(line.startswith("Coach:") for line in said(screen)))
        coach = [line for line in said(screen) if line.startswith("Coach:")]
        assert coach[0].startswith("Coach: 0123 could have been the code.")
        assert coach[0].endswith("codes remain possible.")
        first = answered(screen)[0][1]
        if first.black + first.white < 4:
            # A repeat of a guess that was not the code cannot be it.
            await guess(pilot, screen, "0123")
            await wait_for(pilot, lambda: len([x for x in said(screen) if x.startswith("Coach:")]) == 2)
            coach = [line for line in said(screen) if line.startswith("Coach:")]
            assert "could not have been the code" in coach[1]


async def test_the_side_panel_lists_only_the_lifelines_that_can_be_used(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await open_setup(pilot)
        await pilot.click("#solo-lifelines-0")  # none
        screen = await start_game(pilot)
        assert not screen.query_one("#solo-lifeline-1", Button).display
        assert not screen.query_one("#solo-lifeline-2", Button).display
        assert shown(screen.query_one("#solo-no-lifelines", Static)) == "No lifelines in this game."
        assert "lifeline#" not in screen_text(app)


async def test_the_side_panel_drops_each_lifeline_once_spent(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await open_setup(pilot)
        await pilot.click("#solo-lifelines-2")  # each once
        screen = await start_game(pilot)
        assert screen.query_one("#solo-lifeline-1", Button).display
        assert screen.query_one("#solo-lifeline-2", Button).display
        assert not screen.query_one("#solo-no-lifelines", Static).display
        await pilot.press("f2")
        await wait_for(pilot, lambda: rows(screen))
        # #1 spent: only #2 is listed, and typed only as lifeline#2.
        assert not screen.query_one("#solo-lifeline-1", Button).display
        assert screen.query_one("#solo-lifeline-2", Button).display
        assert shown(screen.query_one("#solo-hint", Static)) == "or type lifeline#2"
        await pilot.press("f3")
        await wait_for(pilot, lambda: len(rows(screen)) == 3)
        assert shown(screen.query_one("#solo-no-lifelines", Static)) == "No lifelines left: used up."
        assert screen.query_one("#solo-no-lifelines", Static).display


async def test_the_coach_counts_with_what_the_lifelines_told(app):
    """After F2 and F3 the coach's count is the number of codes that fit the answers and both clues."""
    from wom_tui.domain.strategies import all_codes

    async with app.run_test(size=(80, 24)) as pilot:
        await open_setup(pilot)
        await pilot.click("#solo-lifelines-2")  # each once
        await pilot.click("#solo-coach-1")
        screen = await start_game(pilot)
        await pilot.press("f2")
        await wait_for(pilot, lambda: len(rows(screen)) == 1)
        await pilot.press("f3")
        await wait_for(pilot, lambda: len(rows(screen)) == 3)
        contains = next(line for line in said(screen) if line.startswith("The code contains "))[18]
        at = next(line for line in said(screen) if line.startswith("The code has ")).split()
        symbol, position = at[3], int(at[6].rstrip(".")) - 1
        await guess(pilot, screen, "0123")
        await wait_for(pilot, lambda: any(line.startswith("Coach:") for line in said(screen)))
        history = answered(screen)
        expected = sum(1 for code in all_codes(screen.game.ruleset)
                       if all(feedback(code, g) == fb for g, fb in history)
                       and contains in code and code[position] == symbol)
        coach = next(line for line in said(screen) if line.startswith("Coach:"))
        words = f"{expected:,} codes remain possible." if expected != 1 else "1 code remains possible."
        assert coach.endswith(words), (coach, expected)


async def test_at_60x20_the_solo_game_keeps_every_part(app):
    async with app.run_test(size=(60, 20)) as pilot:
        await open_setup(pilot)
        screen = await start_game(pilot)
        await guess(pilot, screen, "0123")
        await pilot.pause()
        whole = screen.region
        for selector in ("#solo-history", "#solo-log", "#solo-input", "#solo-lifeline-1", "#solo-turn"):
            region = screen.query_one(selector).region
            assert region.width > 0 and whole.contains_region(region), f"{selector} is cut at 60×20: {region}"
