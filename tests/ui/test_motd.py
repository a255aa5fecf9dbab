"""The message of the day (``wom-tui serve --motd``): one line on the main menu, as typed (never markup), with
every menu entry still in view at 80×24 and 60×20."""

from __future__ import annotations

import pytest
from textual.widgets import OptionList

from wom_tui.screens.menu import MenuScreen

from .conftest import wait_for
from .screen_text import screen_lines

MOTD = "[bold]Restart[/] in 5 minutes [@click=app.quit]ok[/]"


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_the_motd_is_a_line_of_text_on_the_menu(make_app, size) -> None:
    app = make_app(motd=MOTD)
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen) and app.screen.query("#menu-motd"))
        lines = screen_lines(app)
        assert any(MOTD in line for line in lines), lines
        options = app.screen.query_one("#menu-options", OptionList)
        last = str(options.get_option_at_index(options.option_count - 1).prompt)
        assert any(last.strip() in line for line in lines)  # the whole menu still shows
        await pilot.click("#menu-motd")  # clicking the text runs nothing
        assert app.is_running and isinstance(app.screen, MenuScreen)


async def test_no_motd_no_line(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        assert not app.screen.query("#menu-motd")
