"""A live table's results say "—" for a game that will never be rated (a guest against VIKI), instead of
"…" for ever; a rated game's change still comes (issue 35, item 14)."""

from __future__ import annotations

from textual.widgets import Static

from wom_tui.domain.store.folder.store import FolderStore as Store

from .conftest import at_both_sizes, build_app, wait_for
from .screen_text import screen_lines
from .test_together import _focused, _new_table_with, _open_lobby


def results(app) -> str:
    return str(app.screen.query_one("#table-results", Static).render())


async def test_a_guest_against_viki_is_not_rated_and_says_so(data_dir) -> None:
    store = Store(data_dir)
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await _open_lobby(pilot)
        table_id = await _new_table_with(pilot, "v", "VIKI")
        await pilot.press("g")
        await wait_for(pilot, lambda: _focused(app) == "code-input", message="asked for a code")
        await pilot.press(*"RGBY", "enter")
        await wait_for(pilot, lambda: app.screen.view.phase == "guessing" and _focused(app) == "guess-input")
        viki_code = store.live.table(table_id).to_json()["seats"][1]["code"]
        await pilot.press(*viki_code, "enter")
        await wait_for(pilot, lambda: app.screen.view.phase == "finished", message="the game ends")
        await wait_for(pilot, lambda: store.live.table(table_id).recorded, message="recorded")
        await wait_for(pilot, lambda: "VIKI" in results(app))
        viki = next(line for line in results(app).splitlines() if line.startswith("VIKI"))
        assert viki.rstrip().endswith("—") and "…" not in results(app)

        async def said(size) -> None:
            await wait_for(pilot, lambda: any("VIKI" in line and "—" in line for line in screen_lines(app)),
                           message=f"VIKI's unrated line, on screen at {size}")

        await at_both_sizes(pilot, said)
