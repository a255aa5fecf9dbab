"""Quad, Devious and Liar at a live table through the screens (docs/play.md, *Variants*): Alan opens each from
the lobby's form against HAL9000, plays it out with keys, and reads the variant in the title and the lobby, Quad's
four answers per guess, Liar's warning and its lie revealed, Devious's fitted code; the store keeps each game."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.screens.live_table import LiveTableScreen
from wom_tui.screens.lobby import LobbyScreen, NewTableScreen, table_line

from .conftest import build_app, no_blink, wait_for
from .screen_text import screen_text
from .test_together import _as, _seats


def _text(app, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


async def _open_variant_table(pilot, variant: str, attempts: int = 5) -> str:
    app = pilot.app
    await pilot.press("n")
    await wait_for(pilot, lambda: isinstance(app.screen, NewTableScreen) and app.screen.query("#new-create"),
                   message="the form")
    app.screen.query_one("#new-variant").value = variant
    app.screen.query_one("#new-attempts").value = attempts
    await wait_for(pilot, lambda: _text(app, "#new-problem").startswith(variant.capitalize() + ":"),
                   message="the variant said in one line")
    assert await pilot.click("#new-create")
    await wait_for(pilot, lambda: isinstance(app.screen, LiveTableScreen) and app.screen.view is not None,
                   message="at the new table")
    await pilot.press("h")
    await wait_for(pilot, lambda: "HAL9000" in _seats(app)[1], message="HAL9000 seated")
    await pilot.press("g")
    return app.screen.table_id


async def _guess(pilot, code: str, number: int) -> None:
    await pilot.press(*code, "enter")
    await wait_for(pilot, lambda: f"{number}/" in _seats(pilot.app)[0], message=f"guess #{number} played")


async def test_quad_devious_and_liar_tables_through_the_screens(data_dir: Path) -> None:
    store = Store(data_dir)
    store.register("Alan")
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await _as(pilot, "Alan")
        # Quad: nine guesses, four answers each.
        tid = await _open_variant_table(pilot, "quad")
        assert "Quad · " in _text(app, "#table-title") and "9 attempts" in _text(app, "#table-title")
        await wait_for(pilot, lambda: app.focused is not None and app.focused.id == "code-input", message="code")
        await pilot.press(*"WWKK", "enter")
        await wait_for(pilot, lambda: app.screen.view.phase == "guessing", message="guessing")
        assert "Break the four codes" in _text(app, "#table-message")
        guesses = ["RRGG", "BBYY", "WWKK", "RGBY", "GRYB", "YBGR", "KWRG", "BYRW", "GGRR"]
        for number, code in enumerate(guesses, 1):
            if app.screen.view.own.done:
                break
            await _guess(pilot, code, number)
        rows = _text(app, "#quad-rows-text").splitlines()
        assert rows[0].split()[-4:] == ["1", "2", "3", "4"]
        assert rows[1].split()[:5] == ["1", "R", "R", "G", "G"] and len(rows[1].split()) == 9  # four answers
        await wait_for(pilot, lambda: app.screen.view.phase == "finished", message="Quad over")
        await wait_for(pilot, lambda: "Alan's four codes were" in screen_text(app), message="the codes revealed")
        # The results' code column: Bea's code and three more (the grid is laid out a frame after its text is set).
        await wait_for(pilot, lambda: "+3" in screen_text(app), message="the results' codes")
        quad = store.live.table(tid)
        assert quad.variant.value == "quad" and quad.recorded
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), message="back in the lobby")
        assert "Quad, 4 × Classic, 9 attempts" in str(table_line(quad.view_for(None), False))  # a lobby's row names the variant
        # Devious: no code to set; five guesses do not corner it, and the end shows a code that fitted.
        await _open_variant_table(pilot, "devious")
        await wait_for(pilot, lambda: app.screen.view.phase == "guessing", message="straight to guessing")
        assert "Corner Devious" in _text(app, "#table-message") and "Devious · " in _text(app, "#table-title")
        for number, code in enumerate(["RRGG", "BBYY", "RGBY", "GRYB", "YBGR"], 1):
            if not app.screen.view.own.done:
                await _guess(pilot, code, number)
        await wait_for(pilot, lambda: app.screen.view.phase == "finished", message="Devious over")
        await wait_for(pilot, lambda: "fitted every answer" in screen_text(app) or "cornered Devious" in screen_text(app),
                       message="Devious's code shown")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), message="back in the lobby")
        # Liar: warned at the start; Alan breaks HAL9000's code after three guesses; the end names the lie.
        tid = await _open_variant_table(pilot, "liar")
        await wait_for(pilot, lambda: app.focused is not None and app.focused.id == "code-input", message="code")
        await pilot.press(*"WWKK", "enter")
        await wait_for(pilot, lambda: app.screen.view.phase == "guessing", message="guessing")
        assert "one of the first 3 answers lies" in _text(app, "#table-message")
        assert any("is a lie" in line for line in app.screen.view.log)
        hal_code = store.live.table(tid)._seats[1].code
        for number, code in enumerate(["RRGG", "BBYY", "WWKK", hal_code], 1):
            await _guess(pilot, code, number)
        await wait_for(pilot, lambda: app.screen.view.phase == "finished", message="Liar over")
        await wait_for(pilot, lambda: "Alan's board lied at guess" in screen_text(app)
                       or "the one that was to lie" in screen_text(app), message="the lie revealed")
        lied = app.screen.view.own.lied_row
        if lied is not None:  # the row that lied is marked on Alan's board
            assert "← the lie" in app.screen.query_one("#table-board").get_cell(str(lied + 1), "text").plain
        await no_blink(pilot)
    assert len(store.games()) == 3
