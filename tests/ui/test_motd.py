"""The message of the day (``wom-tui serve --motd``): one line on the main menu, as typed (never markup), with
every menu entry still in view at 80×24 and 60×20."""

from __future__ import annotations

from textual.widgets import OptionList

from wom_tui.screens.menu import MenuScreen

from .conftest import at_both_sizes, wait_for
from .screen_text import screen_lines

MOTD = "[bold]Restart[/] in 5 minutes [@click=app.quit]ok[/]"


async def test_the_motd_is_a_line_of_text_on_the_menu(make_app) -> None:
    app = make_app(motd=MOTD)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen) and app.screen.query("#menu-motd"))
        options = app.screen.query_one("#menu-options", OptionList)
        last = str(options.get_option_at_index(options.option_count - 1).prompt)

        async def a_line(size) -> None:
            await wait_for(pilot, lambda: any(MOTD in line for line in screen_lines(app)), message=f"the line at {size}")
            assert any(last.strip() in line for line in screen_lines(app))  # the whole menu still shows
            await pilot.click("#menu-motd")  # clicking the text runs nothing
            assert app.is_running and isinstance(app.screen, MenuScreen)

        await at_both_sizes(pilot, a_line)


async def test_no_motd_no_line(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        assert not app.screen.query("#menu-motd")
