"""Help explains every mode a player can pick, and never talks about "the seeds"."""

from __future__ import annotations

from textual.widgets import Markdown

from wom_tui.screens.help import HelpScreen

from .conftest import wait_for
from .screen_text import screen_text


async def help_text(app, pilot) -> str:
    await pilot.press("f1")
    await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen) and app.screen.query(Markdown))
    parts = [markdown.source for markdown in app.screen.query(Markdown)]
    parts.extend(str(static.render()) for static in app.screen.query(".help-examples-title"))
    return "\n".join(parts)


async def test_help_says_nothing_of_seeds(app):
    async with app.run_test(size=(80, 24)) as pilot:
        text = await help_text(app, pilot)
        assert "seed" not in text.casefold()
        assert "seed" not in screen_text(app).casefold()


async def test_help_explains_the_computer_breaking_your_code_scoring_by_hand_and_the_coach(app):
    async with app.run_test(size=(80, 24)) as pilot:
        text = await help_text(app, pilot)
        assert "Computer breaks your code" in text
        assert "by hand" in text and "black and white" in text
        assert "Coach" in text and "could have been the code" in text


async def test_help_lists_the_new_keys(app):
    async with app.run_test(size=(80, 24)) as pilot:
        text = await help_text(app, pilot)
        assert "ctrl+q" in text and "asks first" in text
        assert "reset" in text  # what the seeds' typed words do now
