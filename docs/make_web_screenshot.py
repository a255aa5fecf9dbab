"""Draw the README's browser screenshot: a solo game in a real browser tab of ``wom-tui serve --web``.

    .venv/bin/python docs/make_web_screenshot.py [--out docs/screenshots/browser.png]

A server with a fixed seed on loopback (temp data folder) serves the page; Debian's chromium-headless-shell
(through Playwright) opens it at 1000×640, starts a solo game and types two guesses, as a player would.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

from playwright.async_api import async_playwright

from wom_tui.serve.server import GameServer
from wom_tui.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from web.conftest import BROWSER_FLAGS, chromium_path, open_tab  # noqa: E402


async def draw(out: Path) -> None:
    """Serve, open the page, play two guesses and save the tab as a PNG at ``out``."""
    with tempfile.TemporaryDirectory(prefix="wom-web-shot-") as folder:
        server = GameServer(Settings(data_dir=Path(folder), seed=2026, port=0, web="127.0.0.1:0"))
        await server.start()
        try:
            assert server.web is not None
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=chromium_path(), args=BROWSER_FLAGS)
                tab = await open_tab(browser, f"http://127.0.0.1:{server.web.port}/", width=1000, height=640)
                await tab.wait_for_text("Welcome to the World of Mastermind!")
                await tab.type("o")
                await tab.wait_for_text("Solo game")
                await tab.type("p")
                await tab.wait_for_text("Your guess")
                for guess in ("0123", "4567"):
                    await tab.type(guess)
                    await tab.press("Enter")
                    await tab.wait_until(lambda t, g=guess: " ".join(g) in " ".join(t.text.split()))
                await tab.page.wait_for_timeout(500)  # xterm.js draws on its next animation frame
                out.parent.mkdir(parents=True, exist_ok=True)
                await tab.page.screenshot(path=str(out))
                await browser.close()
        finally:
            await server.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots" / "browser.png")
    asyncio.run(draw(parser.parse_args().out))
