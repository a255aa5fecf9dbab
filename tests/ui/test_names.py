"""One palette, one name: the setups, the replay list, a replay, My stats, the daily screen and the share line
say a palette and a ruleset the same way (docs/play.md, *Palettes*), whole, at 80×24 and 60×20."""

from __future__ import annotations

from textual.widgets import DataTable

from wom_tui.domain.codes import PALETTES, RAINBOW, WOM, Ruleset, feedback
from wom_tui.domain.daily import PUZZLES
from wom_tui.domain.records import GameRecord, PlayerRecord
from wom_tui.screens.daily import DailyScreen
from wom_tui.screens.replay import ReplayScreen, ReplaysScreen
from wom_tui.screens.solo_setup import PALETTE_CHOICES
from wom_tui.screens.stats import StatsScreen
from wom_tui.screens.wom_setup import WomSetupScreen
from wom_tui.widgets.choice import Choice

from .conftest import at_both_sizes, wait_for
from .screen_text import screen_lines, screen_text
from .test_solo import open_setup

RULES = Ruleset(4, RAINBOW, False, 12)
"""A ruleset whose every part shows in its name: the palette, no repeats, 12 guesses."""

OLD_NAMES = ("WoM colours", "R G B Y W K", "× World of Mastermind", "Ten digits", "Eight digits", "4×", " nr")
"""What the same palettes and rules were called before they had one name each."""


def seed(store) -> None:
    store.register("Alan")
    played = tuple((guess, feedback("ROYG", guess)) for guess in ("BVRO", "ROYG"))
    store.record_game(GameRecord("solo", RULES, (PlayerRecord("Alan", True, True, 2, played, 0, 0),),
                                 "2026-11-21T10:00:00+00:00"))


def no_old_name(app) -> bool:
    text = screen_text(app)
    return not any(old in text for old in OLD_NAMES)


async def test_the_solo_setup_offers_each_palette_by_its_one_name(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await open_setup(pilot)
        labels = [str(button.label) for button in app.screen.query("#solo-palette RadioButton")]
        assert labels == ["Digits 0–9", "Digits 1–8", "Rainbow", "Classic"]
        assert labels == [palette.title for palette in PALETTE_CHOICES]

        async def whole(size) -> None:
            await wait_for(pilot, lambda: all(label in screen_text(app) for label in labels),
                           message=f"every palette whole, on screen at {size}")
            assert no_old_name(app)

        await at_both_sizes(pilot, whole)


async def test_the_wom_setup_names_palettes_and_rules_as_the_solo_setup_does(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, WomSetupScreen))
        palettes = app.screen.query_one("#setup-palette", Choice)
        assert [str(prompt) for prompt, _ in palettes.options] == [p.title for p in PALETTES.values()]
        assert str(app.screen.query_one("#setup-advanced").title) == "Advanced rules: 4 × Classic"

        async def named(size) -> None:
            await wait_for(pilot, lambda: "Advanced rules: 4 × Classic" in screen_text(app), message=f"at {size}")
            assert no_old_name(app)

        await at_both_sizes(pilot, named)


async def test_the_replay_list_the_replay_and_its_share_line_say_the_same_rules(store, app):
    seed(store)
    head = "Mastermind solo · 4 × Rainbow, no repeats · 2/12"

    async with app.run_test(size=(80, 24)) as pilot:
        async def shows(text: str, joined: bool = False):
            async def check(size) -> None:
                await wait_for(pilot, lambda: text in (" ".join(screen_lines(app)) if joined else screen_text(app)),
                               message=f"{text!r} whole at {size}")
                assert no_old_name(app)
            return check

        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplaysScreen) and app.screen.summaries is not None)
        table = app.screen.query_one("#replays-table", DataTable)
        await wait_for(pilot, lambda: table.row_count == 1)
        assert str(table.get_row_at(0)[2]) == "4 × Rainbow, no repeats" == RULES.title
        await at_both_sizes(pilot, await shows(RULES.title))  # the rules cell is whole
        table.focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await at_both_sizes(pilot, await shows("4 × Rainbow, no repeats, 12 guesses"))
        await pilot.press("c")
        await at_both_sizes(pilot, await shows(head, joined=True))  # the share line names its rules


async def test_my_stats_name_the_rules_as_the_replay_does(store, app):
    seed(store)
    classic = Ruleset(4, WOM, True, 10)
    played = (("RGBY", feedback("RGBK", "RGBY")),)
    store.record_game(GameRecord("solo", classic, (PlayerRecord("Alan", True, False, 1, played, 0, 0),),
                                 "2026-11-20T10:00:00+00:00"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("m")
        await wait_for(pilot, lambda: isinstance(app.screen, StatsScreen) and app.screen.summaries is not None)
        rules = app.screen.query_one("#stats-rules", Choice)
        await wait_for(pilot, lambda: rules.options)
        assert sorted(str(prompt) for prompt, _ in rules.options) == ["4 × Classic, 10 guesses",
                                                                      "4 × Rainbow, no repeats, 12 guesses"]
        rules.value = RULES.key

        async def named(size) -> None:
            await wait_for(pilot, lambda: "4 × Rainbow, no repeats, 12 guesses" in screen_text(app), message=f"at {size}")
            assert app.screen.query_one("#stats-chart").border_subtitle.startswith("1 game · 1 won")
            assert no_old_name(app)

        await at_both_sizes(pilot, named)


async def test_the_daily_screen_names_each_puzzle_by_its_rules(store, app):
    store.register("Alan")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, DailyScreen) and app.screen.query("#daily-board"))
        puzzles = app.screen.query_one("#daily-puzzle", Choice)
        assert [str(prompt) for prompt, _ in puzzles.options] == [
            "4 × Classic", "5 × Digits 1–8", "Quad, 4 × Classic", "Devious, 4 × Classic", "Strict, 4 × Classic",
            "Liar, 4 × Classic"]  # then each variant's daily code, named the same way everywhere
        assert [p.title for p in PUZZLES.values()] == [p.ruleset.title for p in PUZZLES.values()]
        assert PUZZLES["classic"].ruleset.palette is WOM

        async def named(size) -> None:
            await wait_for(pilot, lambda: "4 × Classic" in screen_text(app), message=f"at {size}")
            assert no_old_name(app)

        await at_both_sizes(pilot, named)


async def test_the_solo_setup_and_game_say_one_guess_not_one_guesses(app):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_setup(pilot)
        screen.query_one("#solo-guesses", Choice).value = 1
        await wait_for(pilot, lambda: "4 of 10 symbols, repeats, 1 guess" in screen_text(app))
        assert "1 guesses" not in screen_text(app)
        await pilot.press("p")
        await wait_for(pilot, lambda: "Guest · 4 × Digits 0–9, 1 guess ·" in screen_text(app))
        assert "1 guesses" not in screen_text(app)


async def test_the_lobby_and_quick_match_name_the_rules_as_the_wom_setup_does(app, store):
    """A table's row in the lobby and the quick match screen say "4 × Classic, 10 attempts", not pegs and colours."""
    from wom_tui.domain.codes import WOM_RULESET
    from wom_tui.domain.table import SeatHolder
    from wom_tui.screens.lobby import LobbyScreen
    from wom_tui.screens.quick_match import QuickMatchScreen

    store.register("Betty")
    store.live.create_table(SeatHolder("Betty", "s-betty", True), seats=3, attempts=7,
                            ruleset=Ruleset(5, WOM_RULESET.palette, False, 7))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))

        async def in_the_lobby(size) -> None:
            await wait_for(pilot, lambda: "Betty's table" in screen_text(app), message=f"Betty's table at {size}")
            if size == (80, 24):  # (at 60 columns the row ends in an ellipsis after the seats)
                assert "5 × Classic, no repeats, 7 attempts" in screen_text(app)
            assert "pegs" not in screen_text(app) and no_old_name(app)

        await at_both_sizes(pilot, in_the_lobby)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "MenuScreen", message="back at the menu")
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, QuickMatchScreen))

        async def quick_match(size) -> None:
            await wait_for(pilot, lambda: "players" in screen_text(app), message=f"the quick match's rules at {size}")
            assert "4 × Classic, 10 attempts, 2–4 players" in screen_text(app)
            assert "colours" not in screen_text(app)

        await at_both_sizes(pilot, quick_match)
        await pilot.press("escape")
