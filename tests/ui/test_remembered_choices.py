"""Each setup opens with the identity's last choices (solo, WoM, a new table, the stats' ruleset)."""

from __future__ import annotations

import random

import pytest
from textual.widgets import Checkbox, RadioButton, RadioSet

from wom_tui.app import WomApp
from wom_tui.domain.identity import Identity
from wom_tui.domain.store.folder.files import PREFS_FILE
from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.patches.select import Select
from wom_tui.screens.lobby import NewTableScreen
from wom_tui.screens.solo_setup import SoloSetupScreen
from wom_tui.screens.wom_game import WomGameScreen
from wom_tui.widgets.choice import Choice

from .conftest import build_app, make_options, wait_for
from .test_setup_layout import open_wom_setup
from .test_solo import open_setup, start_game
from .test_stats_replays_daily import open_stats, seed_games

SIZES = [(80, 24), (60, 20)]
SOLO_SETS = ("solo-mode", "solo-length", "solo-palette", "solo-repeats", "solo-lifelines", "solo-coach")


def pressed(screen, *ids: str) -> dict[str, int]:
    return {set_id: screen.query_one(f"#{set_id}", RadioSet).pressed_index for set_id in ids}


@pytest.mark.parametrize("size", SIZES)
async def test_the_solo_setup_opens_with_the_last_choices(data_dir, size):
    app = build_app(data_dir)
    async with app.run_test(size=size) as pilot:
        setup = await open_setup(pilot)
        assert pressed(setup, *SOLO_SETS) == dict(zip(SOLO_SETS, (0, 0, 0, 0, 1, 0)))  # the defaults
        for button in ("#solo-length-2", "#solo-palette-2", "#solo-repeats-1", "#solo-lifelines-2", "#solo-coach-1"):
            setup.query_one(button).scroll_visible(animate=False)
            await pilot.pause()
            assert await pilot.click(button)
        await start_game(pilot)
    assert Store(data_dir).choices("local", "solo") == {
        "mode": "break", "length": 6, "palette": "rainbow", "repeats": False, "guesses": 10,
        "lifelines": "each", "coach": True, "scoring": "typed", "variant": "classic"}
    again = build_app(data_dir)
    async with again.run_test(size=size) as pilot:
        setup = await open_setup(pilot)
        assert pressed(setup, *SOLO_SETS) == dict(zip(SOLO_SETS, (0, 2, 2, 1, 2, 1)))
        game = await start_game(pilot)
        assert (game.game.ruleset.length, game.game.ruleset.palette.key, game.game.ruleset.repeats) == (6, "rainbow", False)


async def test_choices_that_are_no_longer_offered_or_damaged_open_the_defaults(data_dir):
    Store(data_dir).set_choices("local", "solo", {"length": 99, "palette": "no-such", "repeats": 1, "guesses": "ten",
                                                  "lifelines": "all", "mode": "computer"})
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await open_setup(pilot)
        assert pressed(setup, *SOLO_SETS) == dict(zip(SOLO_SETS, (1, 0, 0, 0, 1, 0)))  # only the mode was valid
        assert setup.query_one("#solo-guesses", Choice).value == 10
    (data_dir / PREFS_FILE).write_text('{"schema": 1, "themes": {}, "choices": {"local": {"solo": [1, 2]}}}')
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await open_setup(pilot)
        assert pressed(setup, *SOLO_SETS) == dict(zip(SOLO_SETS, (0, 0, 0, 0, 1, 0)))
        assert app.is_running


async def test_a_guests_choices_are_not_kept(data_dir):
    options = make_options(data_dir, served=True)
    app = WomApp(Store(data_dir), random.Random(options.seed), options, Identity.guest())
    async with app.run_test(size=(80, 24)) as pilot:
        await open_setup(pilot)
        assert await pilot.click("#solo-length-2")
        await start_game(pilot)
    assert Store(data_dir).all_choices() == {}


async def test_each_identity_keeps_its_own_choices(data_dir):
    Store(data_dir).set_choices("key:SHA256:abc", "solo", {"length": 8})
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await open_setup(pilot)
        assert isinstance(setup, SoloSetupScreen)
        assert setup.query_one("#solo-length", RadioSet).pressed_index == 0


@pytest.mark.parametrize("size", SIZES)
async def test_the_wom_setup_opens_with_the_last_players_attempts_and_rules(data_dir, store, size):
    store.register("Alan")
    app = build_app(data_dir)
    async with app.run_test(size=size) as pilot:
        screen = await open_wom_setup(pilot)
        seven = next(b for b in screen.query_one("#setup-attempts", RadioSet).query(RadioButton) if b.name == "7")
        seven.scroll_visible(animate=False)
        await pilot.pause()
        assert await pilot.click(seven)
        screen.query_one("#seat-select-2", Choice).value = "VIKI"
        screen.query_one("#setup-length", Choice).value = 5
        await pilot.pause()
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, WomGameScreen))
    assert Store(data_dir).choices("local", "wom") == {
        "players": 2, "seat1": "Alan", "seat2": "VIKI", "attempts": 7, "length": 5, "palette": "wom", "repeats": True}
    again = build_app(data_dir)
    async with again.run_test(size=size) as pilot:
        screen = await open_wom_setup(pilot)
        assert screen.query_one("#setup-attempts", RadioSet).pressed_button.name == "7"
        assert screen.query_one("#seat-select-2", Choice).value == "VIKI"
        assert screen.query_one("#setup-length", Choice).value == 5
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(again.screen, WomGameScreen))
        assert again.screen.game.ruleset.length == 5


async def test_a_seat_whose_player_is_gone_opens_the_default_seats(data_dir, store):
    store.register("Alan")
    Store(data_dir).set_choices("local", "wom", {"players": 2, "seat1": "Zed", "seat2": "VIKI", "attempts": 6})
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_wom_setup(pilot)
        assert screen.query_one("#seat-select-1", Choice).value == "Alan"
        assert screen.query_one("#setup-attempts", RadioSet).pressed_button.name == "6"


@pytest.mark.parametrize("size", SIZES)
async def test_the_new_table_form_opens_with_the_last_rules(data_dir, size):
    app = build_app(data_dir)
    async with app.run_test(size=size) as pilot:
        app.push_screen(NewTableScreen())
        await wait_for(pilot, lambda: isinstance(app.screen, NewTableScreen) and app.screen.query("#new-create"))
        app.screen.query_one("#new-seats", Select).value = 3
        app.screen.query_one("#new-length", Select).value = 6
        app.screen.query_one("#new-repeats", Checkbox).value = False
        await pilot.pause()
        assert await pilot.click("#new-create")
        await wait_for(pilot, lambda: not isinstance(app.screen, NewTableScreen))
    assert Store(data_dir).choices("local", "table") == {"seats": 3, "attempts": 10, "length": 6, "repeats": False,
                                                        "variant": "classic"}
    again = build_app(data_dir)
    async with again.run_test(size=size) as pilot:
        again.push_screen(NewTableScreen())
        await wait_for(pilot, lambda: isinstance(again.screen, NewTableScreen) and again.screen.query("#new-create"))
        form = again.screen
        assert (form.query_one("#new-seats", Select).value, form.query_one("#new-length", Select).value,
                form.query_one("#new-repeats", Checkbox).value) == (3, 6, False)


async def test_the_stats_open_on_the_ruleset_looked_at_last(data_dir, store):
    seed_games(store)
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_stats(pilot)
        first = screen.query_one("#stats-rules", Choice).value
        await pilot.press("right")
        chosen = screen.query_one("#stats-rules", Choice).value
        assert chosen != first
    assert Store(data_dir).choices("local", "stats") == {"ruleset": chosen}
    again = build_app(data_dir)
    async with again.run_test(size=(80, 24)) as pilot:
        screen = await open_stats(pilot)
        assert screen.query_one("#stats-rules", Choice).value == chosen


async def test_hal9000s_play_is_chosen_in_the_palette_remembered_and_played(data_dir, store):
    # ctrl+p → HAL9000's play: the 5-guess book, remembered for this identity; the next hot-seat game's HAL9000
    # plays it, and the next session starts with it; choosing again goes back to the optimum.
    store.register("Alan")
    app = build_app(data_dir)

    def hal(game):
        return next(p for p in game.players if p.name == "HAL9000").strategy

    async def choose(pilot) -> None:
        await pilot.press("ctrl+p", *"HAL9000's play")
        await wait_for(pilot, lambda: app.screen.query("CommandList") and app.screen.query("CommandList").first()
                       .option_count and "HAL9000's play" in str(app.screen.query("CommandList").first()
                                                                 .get_option_at_index(0).prompt), message="found")
        await pilot.press("enter")

    async with app.run_test(size=(80, 24)) as pilot:
        await choose(pilot)
        await wait_for(pilot, lambda: store.choices("local", "hal") == {"book": "within_five"}, message="kept")
        await open_wom_setup(pilot)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, WomGameScreen), message="a game with HAL9000")
        assert hal(app.screen.game).within_five
        assert build_app(data_dir).hal_within_five  # the next session's choice
        await choose(pilot)
        await wait_for(pilot, lambda: store.choices("local", "hal") == {"book": "optimal"}, message="back")
        assert not app.hal_within_five
