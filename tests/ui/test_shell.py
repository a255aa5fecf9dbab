"""The app shell at 80×24, driven as a person would: menu, register, scoreboard, help, store errors."""

from __future__ import annotations


import pytest
import json

from textual import events
from textual.command import CommandPalette
from textual.widgets import DataTable, Input, OptionList, Static

from wom_tui.domain.codes import SOLO_RULESET, Ruleset
from wom_tui.domain.halloffame import HallEntry
from wom_tui.domain.store.documents import encode_users
from wom_tui.domain.store.folder.files import atomic_write
from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.domain.users import User, UserRegistry
from wom_tui.screens.errors import StoreErrorScreen
from wom_tui.screens.help import HelpScreen
from wom_tui.screens.menu import MenuScreen
from wom_tui.screens.register import RegisterScreen
from wom_tui.screens.scoreboard import ScoreboardScreen

from .conftest import wait_for


def shown(widget: Static) -> str:
    """The plain text a Static shows."""
    return str(widget.render())


def seed_users(store: Store, *users: User) -> None:
    """Write users.json through the store's own encoder, as if these games had been played."""
    atomic_write(store.users_path, encode_users(UserRegistry(users)))


async def open_register(pilot) -> RegisterScreen:
    await pilot.press("r")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, RegisterScreen) and pilot.app.screen.query(Input))
    return pilot.app.screen


async def register(pilot, name: str) -> str:
    """Type ``name`` into the register field, press Enter, and return the result line."""
    screen = pilot.app.screen
    field = screen.query_one(Input)
    field.clear()
    await pilot.press(*name, "enter")
    result = screen.query_one("#register-result", Static)
    await wait_for(pilot, lambda: shown(result).strip() != "")
    return shown(result).strip()


# ---------------------------------------------------------------- main menu


async def test_menu_shows_title_welcome_and_every_choice(app):
    async with app.run_test(size=(80, 24)):
        screen = app.screen
        assert isinstance(screen, MenuScreen)
        assert "MASTERMIND" in shown(screen.query_one("#menu-title", Static)).replace(" ", "")
        assert shown(screen.query_one("#menu-welcome", Static)) == "Welcome to the World of Mastermind!"
        prompts = [str(option.prompt) for option in screen.query_one(OptionList).options]
        assert [p.split()[0] for p in prompts] == ["r", "s", "p", "o", "l", "q", "d", "u", "m", "v", "?", "x"]


async def test_menu_by_arrows_and_enter_and_by_mouse(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ScoreboardScreen))
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        options = app.screen.query_one(OptionList)
        # The first option sits on the list's first line.
        assert await pilot.click(options, offset=(4, 0))
        await wait_for(pilot, lambda: isinstance(app.screen, RegisterScreen))
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))


async def test_x_quits_from_the_menu(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("x")
        await wait_for(pilot, lambda: not app.is_running)


async def test_every_mode_key_opens_its_setup_screen(app):
    from wom_tui.modes import MODES

    assert [(mode.key, mode.title) for mode in MODES] == [("p", "Play World of Mastermind"), ("o", "Solo game")]
    async with app.run_test(size=(80, 24)) as pilot:
        for mode in MODES:
            await pilot.press(mode.key)
            await wait_for(pilot, lambda: not isinstance(app.screen, MenuScreen))
            assert f"{type(app.screen).__module__}:{type(app.screen).__name__}" == mode.setup
            app.action_menu()
            await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))


# ---------------------------------------------------------------- register


async def test_register_welcomes_and_saves_at_once(app, store):
    async with app.run_test(size=(80, 24)) as pilot:
        await open_register(pilot)
        assert await register(pilot, "Alan") == "Welcome, Alan!"
        assert store.user("Alan") is not None
        assert app.screen.query_one(Input).value == ""  # ready for the next name
        assert await register(pilot, "Ada Lovelace") == "Welcome, Ada Lovelace!"
        assert [u.name for u in store.scoreboard()] == ["Ada Lovelace", "Alan"]


async def test_register_refuses_a_taken_name_in_another_case(app, store):
    store.register("Alan")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_register(pilot)
        assert await register(pilot, "aLAN") == "Sorry, the name is already taken."
        assert [u.name for u in store.scoreboard()] == ["Alan"]


async def test_a_refused_name_is_replaced_by_the_next_one_typed(app, store):
    store.register("Alan")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_register(pilot)
        await pilot.press(*"alan", "enter")
        await wait_for(pilot, lambda: "already taken" in shown(screen.query_one("#register-result", Static)))
        assert screen.query_one(Input).value == "alan"  # still there to be corrected ...
        await pilot.press(*"Betty", "enter")  # ... but typing replaces it, never appends
        await wait_for(pilot, lambda: "Welcome" in shown(screen.query_one("#register-result", Static)))
        assert [u.name for u in store.scoreboard()] == ["Alan", "Betty"]


async def test_register_refuses_computer_names(app, store):
    async with app.run_test(size=(80, 24)) as pilot:
        await open_register(pilot)
        assert await register(pilot, "hal9000") == "HAL9000 is a computer player's name."
        assert await register(pilot, "Viki") == "VIKI is a computer player's name."
        assert store.scoreboard() == []


async def test_register_refuses_markup_and_escapes_typed_or_pasted(app, store):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_register(pilot)
        field = screen.query_one(Input)
        result = screen.query_one("#register-result", Static)
        for pasted in ("[b]x[/]", "[@click=app.quit]", "Zoë", "bad!"):
            field.clear()
            app.post_message(events.Paste(pasted))
            await wait_for(pilot, lambda: field.value == pasted, message=f"{pasted!r} is shown as pasted")
            await wait_for(pilot, lambda: "may use only" in shown(result))
            await pilot.press("enter")
            await wait_for(pilot, lambda: "may use only" in shown(result) and "-error" in result.classes)
            assert store.scoreboard() == [], f"{pasted!r} was refused, nothing registered"
        for pasted in ("\x1b[31mEvil", "tab\there", "two\nlines"):
            field.clear()
            result.update("")
            app.post_message(events.Paste(pasted))
            await wait_for(pilot, lambda: "nothing was pasted" in shown(result))
            assert field.value == ""
        field.clear()
        await pilot.press("[", "@", "]", "/")
        assert field.value == "[@]/"
        assert "may use only" in shown(result)
        field.clear()
        app.post_message(events.Paste("Grace H."))
        await wait_for(pilot, lambda: field.value == "Grace H.")
        await pilot.press("enter")
        await wait_for(pilot, lambda: "Welcome" in shown(result))
        assert shown(result) == "Welcome, Grace H.!"
        assert app.is_running
        assert [u.name for u in store.scoreboard()] == ["Grace H."]


@pytest.mark.parametrize("name", ["Zoë", "[b]x[/b]", "bad!"])
async def test_a_typed_name_that_breaks_a_rule_is_refused_whole_never_trimmed(app, store, name):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_register(pilot)
        result = screen.query_one("#register-result", Static)
        await pilot.press(*name)
        assert screen.query_one(Input).value == name
        await pilot.press("enter")
        await wait_for(pilot, lambda: "-error" in result.classes)
        assert shown(result).startswith("A name may use only the letters A-Z, digits, spaces")
        assert store.scoreboard() == []


async def test_register_explains_spaces_and_length(app, store):
    async with app.run_test(size=(80, 24)) as pilot:
        await open_register(pilot)
        assert await register(pilot, " Alan") == "A name cannot start or end with a space."
        field = app.screen.query_one(Input)
        field.clear()
        await pilot.press(*"abcdefghijklmnopq")  # 17 keys: all kept, and refused with the reason
        assert field.value == "abcdefghijklmnopq"
        result = app.screen.query_one("#register-result", Static)
        assert shown(result) == "A name can be at most 16 characters long."
        await pilot.press("enter")
        await wait_for(pilot, lambda: "-error" in result.classes)
        assert shown(result) == "A name can be at most 16 characters long."
        assert store.scoreboard() == []


# ---------------------------------------------------------------- scoreboard


def board_rows(screen: ScoreboardScreen) -> list[list[str]]:
    table = screen.query_one("#board-table", DataTable)
    return [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]


def header_offset(table: DataTable, key: str) -> tuple[int, int]:
    """Where a person clicks to hit the header of column ``key``."""
    x = 0
    for column in table.ordered_columns:
        width = column.get_render_width(table)
        if column.key.value == key:
            return (x + 1, 0)
        x += width
    raise KeyError(key)


async def test_scoreboard_orders_by_score_then_name_with_averages(make_app, store):
    seed_users(store, User("bob", 9, 1), User("Alan", 25, 3), User("Cy", 1, 4), User("Ada", 9, 2), User("Dee"))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, ScoreboardScreen) and app.screen.query(DataTable))
        screen = app.screen
        await wait_for(pilot, lambda: screen.query_one("#board-table", DataTable).row_count == 5)
        assert board_rows(screen) == [
            ["Alan", "25", "3", "8.3"],
            ["Ada", "9", "2", "4.5"],
            ["bob", "9", "1", "9.0"],
            ["Cy", "1", "4", "0.3"],
            ["Dee", "0", "0", "0.0"],
        ]
        table = screen.query_one("#board-table", DataTable)
        assert await pilot.click(table, offset=header_offset(table, "name"))
        await wait_for(pilot, lambda: board_rows(screen)[0][0] == "Ada")
        assert [row[0] for row in board_rows(screen)] == ["Ada", "Alan", "bob", "Cy", "Dee"]
        table = screen.query_one("#board-table", DataTable)
        assert await pilot.click(table, offset=header_offset(table, "name"))
        await wait_for(pilot, lambda: board_rows(screen)[0][0] == "Dee")
        table = screen.query_one("#board-table", DataTable)
        assert await pilot.click(table, offset=header_offset(table, "average"))
        await wait_for(pilot, lambda: board_rows(screen)[0][0] == "bob")
        assert [row[3] for row in board_rows(screen)] == ["9.0", "8.3", "4.5", "0.3", "0.0"]
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))


async def test_scoreboard_and_hall_of_fame_empty_states(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, ScoreboardScreen) and app.screen.query("#board-empty"))
        screen = app.screen
        assert screen.query_one("#board-empty").display
        assert "No players yet" in shown(screen.query_one("#board-empty", Static))
        await pilot.press("h")
        assert "No records yet" in shown(screen.query_one("#hall-empty", Static))
        assert screen.query_one("#hall-empty").display


async def test_hall_of_fame_tab_lists_records(make_app, store):
    store.submit_hall_entry(HallEntry(SOLO_RULESET, 5, "Ada", False, "2026-11-20T10:00:00+00:00"))
    store.submit_hall_entry(HallEntry(Ruleset(6, SOLO_RULESET.palette, False, 10), 7, "Gus", True, "2026-11-19T10:00:00+00:00"))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, ScoreboardScreen) and app.screen.query(DataTable))
        await pilot.click("#scores-tabs Tab#--content-tab-hall")
        table = app.screen.query_one("#hall-table", DataTable)
        await wait_for(pilot, lambda: table.display and table.row_count == 2)
        rows = [[str(cell) for cell in table.get_row_at(i)] for i in range(2)]
        assert rows[0] == ["4 × Digits 0–9", "5 of 10", "Ada", "2026-11-20"]
        assert rows[1][:3] == ["6 × Digits 0–9, no repeats", "7 of 10", "Gus (guest)"]


# ---------------------------------------------------------------- help, palette, themes


async def test_help_opens_with_f1_and_question_mark_and_esc_returns(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = " ".join(shown(s) for s in app.screen.query(".help-example"))
        assert "1 black, 2 white" in text and "3 black, 0 white" in text
        await pilot.press("f1")
        assert len(app.screen_stack) == 2  # help does not stack on itself
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))


async def test_command_palette_offers_main_actions_but_no_screenshot(app):
    async with app.run_test(size=(80, 24)) as pilot:
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert {"Register", "Scoreboard", "Play World of Mastermind", "Solo game", "Help", "Theme"} <= set(titles)
        assert "Screenshot" not in titles
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.press(*"scoreboard")
        await wait_for(pilot, lambda: app.screen.query("CommandList") and app.screen.query_one("CommandList").option_count > 0)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ScoreboardScreen))


async def test_served_app_takes_no_screenshot(make_app, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app = make_app(served=True)
    async with app.run_test(size=(80, 24)) as pilot:
        app.action_screenshot(path=str(tmp_path))
        await pilot.pause()
        assert list(tmp_path.glob("*.svg")) == []


async def test_no_color_shows_letters_only(make_app, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.no_color
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen) and app.screen.query(".help-example"))
        example = app.screen.query(".help-example").first()
        assert "V   V   O   G" in shown(example)


# ---------------------------------------------------------------- store errors


async def test_a_damaged_file_gets_a_clear_screen_and_no_action(make_app, store):
    # A hand-edited name that would be markup (and an action) if it were ever interpreted.
    store.users_path.write_text(
        json.dumps({"schema": 1, "users": [{"name": "[@click=app.quit]x[/]", "score": 0, "games": 0}]}),
        encoding="utf-8",
    )
    before = store.users_path.read_bytes()
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StoreErrorScreen) and app.screen.query("#error-reason"))
        screen = app.screen
        assert shown(screen.query_one("#error-path", Static)) == str(store.users_path)
        assert "[@click=app.quit]x[/]" in shown(screen.query_one("#error-reason", Static))
        assert await pilot.click("#error-reason")
        await pilot.pause()
        assert app.is_running
        await pilot.press("r")  # still damaged: stays
        await pilot.pause()
        assert isinstance(app.screen, StoreErrorScreen)
        assert store.users_path.read_bytes() == before  # never overwritten
        atomic_write(store.users_path, encode_users(UserRegistry([User("Alan")])))
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))


async def test_registering_on_a_damaged_store_shows_the_error(app, store):
    async with app.run_test(size=(80, 24)) as pilot:
        await open_register(pilot)
        store.users_path.write_text("{not json", encoding="utf-8")
        await pilot.press(*"Alan", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, StoreErrorScreen) and app.screen.query("#error-reason"))
        assert "not valid JSON" in shown(app.screen.query_one("#error-reason", Static))
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, RegisterScreen))


# ---------------------------------------------------------------- sizes


def fits(app, size: tuple[int, int]) -> bool:
    width, height = size
    return all(
        w.region.right <= width and w.region.bottom <= height for w in app.screen.query("*") if w.display and w.region
    )


async def test_resize_to_120x40_and_back(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.resize_terminal(120, 40)
        await wait_for(pilot, lambda: app.size == (120, 40))
        box = app.screen.query_one("#menu-box")
        await wait_for(pilot, lambda: box.region.x > 20)
        assert abs((box.region.x) - (120 - box.region.right)) <= 1  # still centred
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, RegisterScreen))
        await pilot.resize_terminal(80, 24)
        await wait_for(pilot, lambda: app.size == (80, 24) and fits(app, (80, 24)), message="the register screen fits 80×24 again")
        assert await register(pilot, "Alan") == "Welcome, Alan!"
