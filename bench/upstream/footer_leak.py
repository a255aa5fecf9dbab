"""Minimal reproduction for a report to Textual: a closed screen's FooterKeys are never freed.

A bare Textual app (nothing of wom-tui) pushes and pops a screen with a ``Footer`` N times, then
collects garbage and counts the FooterKey and Screen objects still alive, and the process's
memory growth. With Textual 8.2 every FooterKey of every closed screen stays alive; without the
Footer on the pushed screen (``--no-footer``) the app's own Footer still keeps two keys per push:
it recomposes on every change of bindings, and each FooterKey's ``data_bind`` leaves a watcher in the
Footer's watcher list that Textual prunes only when ``compact`` changes.

A second, bounded retention shows in the StylesCache count: ``StylesCache.get_inner_outer`` is an
``lru_cache(1024)`` on an instance method, so it keeps up to 1,024 closed widgets' style caches.

    .venv/bin/python bench/upstream/footer_leak.py [--opens 200] [--no-footer]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys

import textual
from textual._styles_cache import StylesCache
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Label
from textual.widgets._footer import FooterKey


def rss_mib() -> float:
    """Resident memory of this process in MiB (Linux /proc)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


class Closed(Screen[None]):
    BINDINGS = [Binding("escape", "app.pop_screen", "Back"), Binding("x", "bell", "Bell")]

    def __init__(self, footer: bool) -> None:
        super().__init__()
        self.footer = footer

    def compose(self) -> ComposeResult:
        yield Label("a screen")
        if self.footer:
            yield Footer()


class Bare(App[None]):
    BINDINGS = [Binding("o", "open", "Open")]

    def __init__(self, footer: bool) -> None:
        super().__init__()
        self.footer = footer

    def compose(self) -> ComposeResult:
        yield Label("main")
        yield Footer()


def alive(kind: type) -> int:
    return sum(1 for obj in gc.get_objects() if isinstance(obj, kind))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opens", type=int, default=200)
    parser.add_argument("--no-footer", action="store_true")
    args = parser.parse_args()
    footer = not args.no_footer
    app = Bare(footer)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(5):  # warm up caches
            await app.push_screen(Closed(footer))
            await pilot.pause()
            await app.pop_screen()
            await pilot.pause()
        gc.collect()
        before_keys, before_screens, before_rss = alive(FooterKey), alive(Closed), rss_mib()
        before_caches = alive(StylesCache)
        for _ in range(args.opens):
            await app.push_screen(Closed(footer))
            await pilot.pause()
            await app.pop_screen()
            await pilot.pause()
        await pilot.pause()
        gc.collect()
        after_keys, after_screens, after_rss = alive(FooterKey), alive(Closed), rss_mib()
        after_caches = alive(StylesCache)
    print(f"Textual {textual.__version__}, Python {sys.version.split()[0]}, footer on the pushed screen: {footer}")
    print(f"{args.opens} push/pop of a screen: FooterKey alive {before_keys} -> {after_keys}, "
          f"closed screens alive {before_screens} -> {after_screens}, StylesCache alive {before_caches} -> {after_caches}, "
          f"RSS +{after_rss - before_rss:.1f} MiB")


if __name__ == "__main__":
    asyncio.run(main())
