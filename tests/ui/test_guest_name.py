"""The hall-of-fame name prompt refuses, with the reason, what it used to cut or keep."""

from __future__ import annotations

from textual.widgets import Input, Static

from wom_tui.domain.codes import WOM_RULESET
from wom_tui.domain.halloffame import HallEntry
from wom_tui.screens.solo_game import HallNameScreen

from .conftest import wait_for


async def test_a_long_or_spaced_guest_name_is_refused_not_cut(app):
    chosen: list[str | None] = []
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(
            HallNameScreen(lambda name: HallEntry(WOM_RULESET.with_guesses(10), 3, name, guest=True), "You won."),
            chosen.append,
        )
        await wait_for(pilot, lambda: isinstance(app.screen, HallNameScreen) and app.screen.query("#hall-reason"))
        dialog = app.screen
        field = dialog.query_one("#hall-name", Input)
        reason = dialog.query_one("#hall-reason", Static)
        await pilot.press(*"Annabell")
        assert field.value == "Annabell"  # all eight kept, not cut to seven
        await pilot.press("enter")
        await wait_for(pilot, lambda: "at most 7" in str(reason.render()))
        assert app.screen is dialog and chosen == []
        field.clear()
        await pilot.press(*"Al Bo", "enter")
        await wait_for(pilot, lambda: "cannot contain spaces" in str(reason.render()))
        assert app.screen is dialog and chosen == []
        field.clear()
        await pilot.press(*"Ann", "enter")
        await wait_for(pilot, lambda: chosen == ["Ann"])
