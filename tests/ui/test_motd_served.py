"""With ``--motd``, the signed-in SSH menu (Link another key, Sign in a browser, an operator's entry) still fits
80×24 and 60×20: every entry, Quit last, and the box's bottom border in view (issue 35, item 12)."""

from __future__ import annotations

import random

import pytest
from textual.widgets import OptionList

from wom_tui.app import WomApp
from wom_tui.domain.identity import Identity
from wom_tui.domain.store import open_store
from wom_tui.screens.menu import MenuScreen

from .conftest import make_options, wait_for
from .screen_text import screen_lines

FP = "SHA256:" + "M" * 43
MOTD = "Tournament tonight at 8: quick match (q) counts double for the ladder"


def served(data_dir, *, operator: bool, name: str | None = "Alan") -> WomApp:
    store = open_store(data_dir)
    if name is not None:
        store.register(name, key=FP)
    options = make_options(data_dir, served=True, operator=operator, motd=MOTD, session_id="s1",
                           client_address="192.0.2.1", transport="ssh")
    identity = Identity.key(FP) if name is None else Identity.key(FP).signed_in_as(name)
    return WomApp(store, random.Random(1), options, identity)


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("who", ["player", "operator", "new key"])
async def test_the_served_menu_with_a_motd_fits(data_dir, size, who) -> None:
    app = served(data_dir, operator=who == "operator", name=None if who == "new key" else "Alan")
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen) and app.screen.query("#menu-motd"))
        options = app.screen.query_one("#menu-options", OptionList)
        await wait_for(pilot, lambda: options.region.height == options.option_count)
        lines = screen_lines(app)
        text = "\n".join(lines)
        assert "Tournament tonight" in text
        for index in range(options.option_count):
            label = str(options.get_option_at_index(index).prompt).strip()
            assert label in text, f"{label!r} in view"
        assert "x   Quit" in text
        assert any(line.strip().startswith("╰") for line in lines), "the box's bottom border shows"
        assert not options.scrollbars_enabled[0]
        if who != "new key":
            assert "Alan" in text  # the greeting says who you are
        await pilot.press("x")  # the last entry's key still works
        await wait_for(pilot, lambda: not app.is_running or type(app.screen).__name__ != "MenuScreen")
