"""Every key the footer shows is read whole at 80×24, the palette's last."""

from __future__ import annotations

from textual.widgets._footer import FooterKey

from wom_tui.patches.footer import Footer

from .conftest import wait_for
from .screen_text import screen_lines
from .test_leaving import solo_game_under_way


def footer_labels(app) -> list[str]:
    """Each footer key as the player reads it: its key, a space, its description."""
    footer = app.screen.query_one(Footer)
    return [f"{key.key_display} {key.description}".strip() for key in footer.query(FooterKey)]


def footer_line(app) -> str:
    """The bottom row of the screen, with its spacing closed up to single spaces."""
    return " ".join(screen_lines(app)[-1].split())


async def test_a_solo_games_footer_shows_every_key_and_the_palette_whole_at_80x24(app) -> None:
    # Eight keys at the usual spacing need 89 columns: closed up, they fit in 80. (At 60 columns the lifelines
    # and New game, which the panel beside the guess shows with their keys, run past the edge.)
    async with app.run_test(size=(80, 24)) as pilot:
        await solo_game_under_way(pilot)
        await wait_for(pilot, lambda: "palette" in screen_lines(pilot.app)[-1], message="the footer's palette key")
        labels = footer_labels(pilot.app)
        assert any("Help" in label for label in labels) and any("Notes" in label for label in labels)
        line = footer_line(pilot.app)
        for label in labels:
            assert " ".join(label.split()) in line, f"{label!r} is cut from the footer: {line!r}"


async def test_the_footer_opens_out_again_when_the_terminal_grows(app) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await solo_game_under_way(pilot)
        footer = pilot.app.screen.query_one(Footer)
        await wait_for(pilot, lambda: footer.compact, message="a compact footer at 80 columns")
        await pilot.resize_terminal(140, 30)
        await wait_for(pilot, lambda: not footer.compact, message="the usual spacing at 140 columns")
        # The flag turns before the footer's keys are laid out again: the row is read once they are drawn.
        await wait_for(pilot, lambda: "F1 Help" in footer_line(pilot.app), message="F1 Help drawn at 140 columns")


async def test_at_60x20_the_palette_key_gives_up_its_word_for_the_screens_own_keys(app) -> None:
    # The scoreboard's nine keys need 63 columns even closed up: without the palette's word, the tabs'
    # keys show (before: "h H", cut); the last, m Stats, does not fit whole and is left out (it stays on the
    # menu and in F1 Help).
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.press("s")
        await wait_for(pilot, lambda: type(pilot.app.screen).__name__ == "ScoreboardScreen"
                       and "^p" in screen_lines(pilot.app)[-1], message="the scoreboard's footer")
        line = footer_line(pilot.app)
        assert "r Rank h Hall" in line and "palette" not in line
        await pilot.resize_terminal(100, 30)
        await wait_for(pilot, lambda: "palette" in footer_line(pilot.app), message="the palette's word at 100 columns")


def shown_labels(app) -> list[str]:
    """The footer's keys on show but the palette's (those that did not fit are left out), as the player reads them."""
    footer = app.screen.query_one(Footer)
    return [f"{key.key_display} {key.description}".strip() for key in footer.query(FooterKey)
            if key.display and not key.has_class("-command-palette")]


async def test_at_60_columns_no_key_shows_cut_on_either_side_of_the_palettes_key(app) -> None:
    # A solo game's keys need 66 columns closed up. F1 Help ran on beneath the palette's key, which keeps one
    # cell of margin at the edge: the row ended "F4 Notes ▏^pH". Every key shown is whole and the row ends with
    # the palette's key, at 60 columns and at 52, where one key more is left out.
    async with app.run_test(size=(60, 20)) as pilot:
        await solo_game_under_way(pilot)
        shown: dict[int, list[str]] = {}
        for width in (60, 52):
            if width != 60:
                await pilot.resize_terminal(width, 20)
            await wait_for(pilot, lambda: tuple(pilot.app.screen.outer_size) == (width, 20)
                           and screen_lines(pilot.app)[-1].endswith("^p")
                           and footer_line(pilot.app) == " ".join(shown_labels(pilot.app)) + " ▏^p",
                           message=f"every key whole at {width} columns: {footer_line(pilot.app)!r}")
            shown[width] = shown_labels(pilot.app)
        assert "F1 Help" not in shown[60] and "F4 Notes" in shown[60]
        assert shown[52] == shown[60][:-1]
