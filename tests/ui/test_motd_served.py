"""With ``--motd``, the signed-in SSH menu (Link another key, Sign in a browser, an operator's entry, Rush and a
running Code Arena's countdown) still fits 80×24 and 60×20: every entry, Quit last, in view (issue 35, item 12;
the box's bottom border gives way last, on the fullest menu at 60×20). Rush opens by its key and by a click."""

from __future__ import annotations

import random

import pytest
from textual.widgets import OptionList

from wom_tui.app import WomApp
from wom_tui.domain.arena import ArenaRules
from wom_tui.domain.identity import Identity
from wom_tui.domain.store import open_store
from wom_tui.screens.menu import MenuScreen
from wom_tui.screens.rush import RushScreen

from .conftest import at_both_sizes, make_options, wait_for
from .screen_text import screen_lines

FP = "SHA256:" + "M" * 43
MOTD = "Tournament tonight at 8: quick match (q) counts double for the ladder"


def served(data_dir, *, operator: bool, name: str | None = "Alan", motd: str = MOTD, **more) -> WomApp:
    store = open_store(data_dir)
    store.live.start_arena("arena-1", 30, ArenaRules())
    if name is not None:
        store.register(name, key=FP)
    options = make_options(data_dir, served=True, operator=operator, motd=motd, session_id="s1",
                           client_address="192.0.2.1", transport="ssh", **more)
    identity = Identity.key(FP) if name is None else Identity.key(FP).signed_in_as(name)
    return WomApp(store, random.Random(1), options, identity)


@pytest.mark.parametrize("who", ["player", "operator", "new key"])
async def test_the_served_menu_with_a_motd_fits(data_dir, who) -> None:
    app = served(data_dir, operator=who == "operator", name=None if who == "new key" else "Alan")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen) and app.screen.query("#menu-motd"))
        menu = app.screen
        options = menu.query_one("#menu-options", OptionList)

        async def fits(size) -> None:
            await wait_for(pilot, lambda: options.region.height == options.option_count
                           and "Code Arena: 29:" in "\n".join(screen_lines(app)), message=f"the arena's countdown at {size}")
            lines = screen_lines(app)
            text = "\n".join(lines)
            assert "Tournament tonight" in text
            for index in range(options.option_count):
                label = str(options.get_option_at_index(index).prompt).strip()
                assert label in text, f"{label!r} in view at {size}"
            assert "x   Quit" in text and "u   Rush" in text
            bordered = any(line.strip().startswith("╰") for line in lines)
            assert bordered == (size == (80, 24) or who != "operator"), "the bottom border gives way last"
            assert not options.scrollbars_enabled[0]
            if who != "new key":
                assert "Alan" in text  # the greeting says who you are
            if who == "player":  # a click on Rush opens it
                rush = next(i for i in range(options.option_count) if options.get_option_at_index(i).id == "rush")
                await pilot.click(options, offset=(8, rush))
            else:
                await pilot.press("u")
            await wait_for(pilot, lambda: isinstance(app.screen, RushScreen), message=f"Rush opened at {size}")
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.screen is menu, message="back at the menu")

        await at_both_sizes(pilot, fits)
        await pilot.press("x")  # the last entry's key still works
        await wait_for(pilot, lambda: not app.is_running or type(app.screen).__name__ != "MenuScreen")


async def test_a_long_menu_with_the_longest_motd_fits_60x20(data_dir) -> None:
    # A player signed in over SSH (Link another key), an arena on, and a message of the day as long as --motd
    # takes (200 characters, four lines): the greeting gives way last (the corner badge, on the box's top border,
    # still names Alan); every entry and the whole message stay in view.
    from wom_tui.domain.moderation import MAX_MOTD

    words = "Tournament tonight at 8 in the arena: join with c, berserk with b, and good luck to all of you "
    motd = (words * 3)[:MAX_MOTD].strip()
    app = served(data_dir, operator=False, motd=motd)
    async with app.run_test(size=(60, 20)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen) and "Code Arena: 29:" in "\n".join(screen_lines(app)),
                       message="the arena's entry")
        options = app.screen.query_one("#menu-options", OptionList)
        await wait_for(pilot, lambda: options.region.height == options.option_count, message="laid out")
        text = "\n".join(screen_lines(app))
        assert " ".join(text.split()).count("good luck") == 2, text  # the message whole
        for index in range(options.option_count):
            assert str(options.get_option_at_index(index).prompt).strip() in text
        assert "x   Quit" in text and "Alan" in screen_lines(app)[0] and "╭" in screen_lines(app)[0]
