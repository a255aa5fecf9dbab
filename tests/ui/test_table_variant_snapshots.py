"""Snapshots of a Quad table being played against HAL9000 (docs/play.md, *Variants*): four answers per guess row
in the left column, at 80×24 and 60×20 (update with --snapshot-update)."""

from __future__ import annotations

from wom_tui.domain.store.folder.store import FolderStore as Store

from .conftest import build_app, no_blink, wait_for
from .test_table_variants import _guess, _open_variant_table
from .test_together import _as

SIZE = (80, 24)
NARROW = (60, 20)


def test_quad_table_guessing(snap_compare, data_dir, size=SIZE):
    Store(data_dir).register("Alan")

    async def run_before(pilot) -> None:
        app = pilot.app
        await _as(pilot, "Alan")
        await _open_variant_table(pilot, "quad")
        await wait_for(pilot, lambda: app.focused is not None and app.focused.id == "code-input", message="code")
        await pilot.press(*"RGBY", "enter")
        await wait_for(pilot, lambda: app.screen.view.phase == "guessing" and app.focused is not None
                       and app.focused.id == "guess-input", message="Alan asked for a guess")
        for number, code in enumerate(("RRGG", "BBYY", "WWKK"), 1):
            await _guess(pilot, code, number)
        await pilot.press(*"KK")
        app.clear_notifications()  # the "Your move" toasts go by themselves; the picture is of the table
        await no_blink(pilot)

    assert snap_compare(build_app(data_dir), terminal_size=size, run_before=run_before)


def test_quad_table_guessing_60x20(snap_compare, data_dir):
    """The same at 60×20."""
    test_quad_table_guessing(snap_compare, data_dir, size=NARROW)
