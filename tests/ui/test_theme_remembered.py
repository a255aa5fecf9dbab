"""The chosen theme is remembered between launches, per identity, in the data folder."""

from __future__ import annotations

import json

from wom_tui.domain.store.folder.files import PREFS_FILE
from wom_tui.domain.store.folder.store import FolderStore as Store

from .conftest import build_app, wait_for


async def test_a_theme_chosen_is_the_theme_of_the_next_launch(data_dir):
    first = build_app(data_dir)
    async with first.run_test(size=(80, 24)) as pilot:
        default = first.theme
        assert default != "wom-colourblind"
        first.theme = "wom-colourblind"
        await wait_for(pilot, lambda: Store(data_dir).theme("local") == "wom-colourblind")
    second = build_app(data_dir)
    async with second.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: second.theme == "wom-colourblind", message="the theme comes back")
    saved = json.loads((data_dir / PREFS_FILE).read_text())
    assert saved == {"schema": 1, "themes": {"local": "wom-colourblind"}}


async def test_each_identity_keeps_its_own_theme(data_dir):
    Store(data_dir).set_theme("SHA256:abc", "nord")
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.theme != "nord"  # another identity's choice
    Store(data_dir).set_theme("local", "gruvbox")
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.theme == "gruvbox")
    assert Store(data_dir).theme("SHA256:abc") == "nord"


async def test_an_unknown_theme_on_file_is_ignored_and_a_damaged_file_is_reported(data_dir):
    Store(data_dir).set_theme("local", "no-such-theme")
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.is_running and app.theme != "no-such-theme"
    (data_dir / PREFS_FILE).write_text('{"schema": 1, "themes": {"local": "[b]x"}}')
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: type(app.screen).__name__ == "StoreErrorScreen")
    assert (data_dir / PREFS_FILE).read_text() == '{"schema": 1, "themes": {"local": "[b]x"}}'
