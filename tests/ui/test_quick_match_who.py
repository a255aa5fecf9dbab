"""Local quick match says who you play as, asks when it cannot know (registered users, nobody chosen), and
uses the player chosen last time (issue 35, item 10)."""

from __future__ import annotations

from pathlib import Path

import pytest

from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.screens.quick_match import QuickMatchScreen
from wom_tui.widgets.player_select import PlayerChoice

from .conftest import build_app, wait_for
from .screen_text import screen_text


@pytest.fixture(autouse=True)
def slow_fill(monkeypatch):
    monkeypatch.setattr(QuickMatchScreen, "wave_interval", 0.2)


def queued_as(store: Store) -> list[str]:
    return [ticket.holder.name for ticket in store.live.match_queue().tickets]


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_quick_match_asks_who_you_are_shows_it_and_remembers_it(data_dir: Path, size) -> None:
    store = Store(data_dir)
    for name in ("Alan", "Bea", "Cara"):
        store.register(name)
    app = build_app(data_dir, fill_after=600)
    async with app.run_test(size=size) as pilot:
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, QuickMatchScreen) and app.screen.ticket is not None)
        screen = app.screen
        chooser = screen.query_one("#quick-as", PlayerChoice)
        assert chooser.has_focus, "asked: who is playing?"
        guest = app.together.me().name
        await wait_for(pilot, lambda: f"You: {guest}" in screen_text(app), message="the guest name is said")
        assert "Play as" in screen_text(app)
        chooser.value = "Bea"  # as a person picks it from the list
        await wait_for(pilot, lambda: queued_as(store) == ["Bea"], message="queued again as Bea")
        await wait_for(pilot, lambda: "You: Bea" in screen_text(app))
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, QuickMatchScreen))
        await wait_for(pilot, lambda: queued_as(store) == [])
    again = build_app(data_dir, fill_after=600)
    async with again.run_test(size=size) as pilot:
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(again.screen, QuickMatchScreen) and again.screen.ticket is not None)
        assert again.screen.ticket.holder.name == "Bea", "the player chosen last time"
        await wait_for(pilot, lambda: "You: Bea" in screen_text(again))


async def test_with_nobody_registered_a_guest_is_told_so_and_not_asked(data_dir: Path) -> None:
    app = build_app(data_dir, fill_after=600)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, QuickMatchScreen) and app.screen.ticket is not None)
        guest = app.together.me().name
        await wait_for(pilot, lambda: f"You: {guest}" in screen_text(app))
        assert not app.screen.query("#quick-as")
