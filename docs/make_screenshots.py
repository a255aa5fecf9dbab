"""Draw the README's screenshot from the real app: a solo game in the Classic palette after two guesses, 80×24.

    .venv/bin/python docs/make_screenshots.py [--out docs/screenshots]

The app runs headless on a fresh data folder with a fixed seed, is driven by key presses and clicks as a
player would, and saves its screen as SVG (``solo.svg``; the same keys draw the same file). ``make test``
runs this script too (``tests/test_bench.py``), so it keeps working as the screens change; run it again
after a visual change of the solo game and commit the new file.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
from pathlib import Path

from textual.widgets import DataTable, Input

from wom_tui.app import WomApp
from wom_tui.domain.store.folder.store import FolderStore
from wom_tui import patches
from wom_tui.settings import Settings
from wom_tui.screens.solo_game import SoloGameScreen
from wom_tui.screens.solo_setup import SoloSetupScreen

SIZE = (80, 24)
SEED = 2026
WOM_COLOURS = "#solo-palette-3"
"""The solo setup's radio button for Classic (R G B Y W K): the most colourful palette."""
GUESSES = ("RRGG", "BYWK")


async def until(pilot, predicate) -> None:
    """Let the app run until ``predicate()`` holds (a guard of 60 s against a hung app)."""
    for _ in range(6000):
        if predicate():
            return
        await pilot.pause(0.01)
    raise RuntimeError(f"the app never reached {predicate}")


async def solo_game_svg(data_dir: Path) -> str:
    """The SVG of a solo game in WoM colours after two guesses, drawn by the app on ``data_dir``."""
    patches.install()  # as run_app does before it builds the app
    options = Settings(data_dir=data_dir, seed=SEED, computer_pace=0)
    app = WomApp(FolderStore(data_dir), random.Random(SEED), options)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("o")
        await until(pilot, lambda: isinstance(app.screen, SoloSetupScreen))
        await pilot.click(WOM_COLOURS)
        await pilot.press("p")
        await until(pilot, lambda: isinstance(app.screen, SoloGameScreen))
        table = app.screen.query_one("#solo-history", DataTable)
        for guess in GUESSES:
            before = table.row_count
            await pilot.press(*guess.lower(), "enter")
            await until(pilot, lambda: table.row_count > before)
        for field in app.screen.query(Input):
            field.cursor_blink = False
        await pilot.pause()
        return app.export_screenshot(title="World of Mastermind")


def write_screenshots(out: Path) -> list[Path]:
    """Draw every screenshot into ``out``; the files written."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="wom-screenshot-") as folder:
        svg = asyncio.run(solo_game_svg(Path(folder)))
    path = out / "solo.svg"
    path.write_text(svg, encoding="utf-8")
    return [path]


def main() -> None:
    """Write the screenshots and name them."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "screenshots",
                        help="the folder to write into (default: docs/screenshots)")
    for path in write_screenshots(parser.parse_args().out):
        print(path)


if __name__ == "__main__":
    main()
