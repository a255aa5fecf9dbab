"""Help scrolls from the keyboard at once: arrows, Page Up/Down, Home/End (nothing needs the focus first)."""

from __future__ import annotations

from textual.containers import VerticalScroll

from wom_tui.screens.help import HelpScreen

from .conftest import wait_for


async def test_help_scrolls_with_the_keys_as_soon_as_it_opens(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f1", "pagedown")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = app.screen.query_one("#help-scroll", VerticalScroll)
        assert text.max_scroll_y > 0  # more help than fits at 80×24
        await wait_for(pilot, lambda: text.scroll_y > 0)
        await pilot.press("end")
        await wait_for(pilot, lambda: text.scroll_y == text.max_scroll_y)
        await pilot.press("up")
        await wait_for(pilot, lambda: text.scroll_y == text.max_scroll_y - 1)
        await pilot.press("home")
        await wait_for(pilot, lambda: text.scroll_y == 0)
        await pilot.press("down")
        await wait_for(pilot, lambda: text.scroll_y == 1)
        await pilot.press("pageup")
        await wait_for(pilot, lambda: text.scroll_y == 0)


async def test_help_follows_the_terminal_when_it_is_resized(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = app.screen.query_one("#help-scroll", VerticalScroll)
        await wait_for(pilot, lambda: text.size.width > 0)
        tall = text.max_scroll_y
        await pilot.resize_terminal(60, 30)
        await wait_for(pilot, lambda: app.screen.query_one("#help-box").size.width <= 60)
        await wait_for(pilot, lambda: text.size.height > 0 and text.max_scroll_y != tall)
