"""A seeded random run of keys, clicks, pastes and resizes over every screen.

:func:`run_fuzz` drives the real app on a data folder with ``events`` random events drawn from one
seed: single keys and bursts of keys (sent without waiting, as one SSH packet), clicks anywhere,
pastes of random text (markup, escapes and non-ASCII included) and terminal resizes from 40×12 to
160×50. Quitting (q, ctrl+q) is allowed: a new app is started on the same folder and the run goes
on. It stops at the first crash. The data folder must pass ``Store.check()`` at the end.
"""

from __future__ import annotations

import random
import string
import time
import traceback
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from textual.errors import NoWidget
from textual.pilot import OutOfBounds

from wom_tui.app import WomApp
from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.settings import Settings

from .burst import send_burst, send_paste

KEYS = (
    list(string.ascii_lowercase)
    + list(string.digits)
    + ["R", "G", "B", "Y", "W", "K", "#", "[", "]", "?", " "]
    + ["enter"] * 6
    + ["escape"] * 4
    + ["tab"] * 4
    + ["shift+tab", "up", "down", "left", "right", "home", "end", "backspace", "delete", "space"] * 2
    + ["f1", "f2", "f3", "ctrl+n", "ctrl+s", "ctrl+r", "ctrl+p", "ctrl+q", "pageup", "pagedown"]
)
PASTES = (
    "rgby", "ROYGBV", "12345678", "1234", "lifeline#1", "lifeline#3", "reset", "quit", "Alan", "Zoë",
    "[b]x[/b]", "[@click=app.quit]q[/]", "\x1b[31mred", "tab\there", "two\nlines", "Grace H.", "🙂🙂", "",
)


@dataclass
class FuzzReport:
    """What a run did: events sent by kind, screens reached, launches, and the first crash if any."""

    seed: int
    events: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    screens: Counter[str] = field(default_factory=Counter)
    launches: int = 0
    crash: str | None = None
    recent: deque[str] = field(default_factory=lambda: deque(maxlen=8))
    """The last events sent (what led to a crash)."""
    trace: str | None = None
    """The crash's traceback (innermost frames last), for bench/fuzz.py to print."""


def _app(data_dir: Path, seed: int) -> WomApp:
    options = Settings(data_dir=data_dir, seed=seed, debug=False, served=False, computer_pace=0)
    return WomApp(Store(data_dir), random.Random(seed), options)


def _paste_text(rng: random.Random) -> str:
    if rng.random() < 0.7:
        return rng.choice(PASTES)
    alphabet = string.printable + "ëß漢\u200b\x00\x07"
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 30)))


async def run_fuzz(
    data_dir: Path,
    events: int,
    seed: int,
    *,
    users: tuple[str, ...] = ("Alan", "Grace", "Ada"),
    progress: Callable[[FuzzReport], None] | None = None,
    deadline: float | None = None,
) -> FuzzReport:
    """Send ``events`` random events to the app on ``data_dir``; see the module's docstring.

    ``progress`` (if given) is called with the report every 500 events. With a ``deadline`` (a
    ``time.monotonic()`` value) the run also stops there, after fewer events.
    """
    store = Store(data_dir)
    for name in users:
        if store.user(name) is None:
            store.register(name)
    rng = random.Random(seed)
    report = FuzzReport(seed)
    size = (80, 24)
    def more() -> bool:
        return report.events < events and (deadline is None or time.monotonic() < deadline)

    while more() and report.crash is None:
        app = _app(data_dir, rng.randrange(1 << 30))
        report.launches += 1
        try:
            async with app.run_test(size=size) as pilot:
                while more() and app.is_running:
                    report.events += 1
                    roll = rng.random()
                    if roll < 0.55:
                        report.kinds["key"] += 1
                        keys = [rng.choice(KEYS)]
                        report.recent.append(f"{type(app.screen).__name__}: key {keys[0]}")
                        send_burst(app, *keys)
                    elif roll < 0.75:
                        report.kinds["burst"] += 1
                        keys = [rng.choice(KEYS) for _ in range(rng.randint(2, 8))]
                        report.recent.append(f"{type(app.screen).__name__}: burst {' '.join(keys)}")
                        send_burst(app, *keys)
                    elif roll < 0.90:
                        report.kinds["click"] += 1
                        width, height = app.size
                        offset = (rng.randrange(width), rng.randrange(height))
                        report.recent.append(f"{type(app.screen).__name__}: click {offset}")
                        try:
                            await pilot.click(offset=offset)
                        except (NoWidget, OutOfBounds):
                            # The pilot finds its target with get_widget_at, which fails while a
                            # screen is between layouts (a terminal would send the click anyway).
                            report.kinds["click missed"] += 1
                    elif roll < 0.96:
                        report.kinds["paste"] += 1
                        text = _paste_text(rng)
                        report.recent.append(f"{type(app.screen).__name__}: paste {text!r}")
                        send_paste(app, text)
                    else:
                        report.kinds["resize"] += 1
                        size = (rng.randint(40, 160), rng.randint(12, 50))
                        report.recent.append(f"{type(app.screen).__name__}: resize {size}")
                        await pilot.resize_terminal(*size)
                    await pilot.pause()
                    if app.is_running:
                        report.screens[type(app.screen).__name__] += 1
                    if progress is not None and report.events % 500 == 0:
                        progress(report)
                    if app._exception is not None:
                        break
        except Exception as error:  # noqa: BLE001 - any crash is what the run looks for
            report.crash = f"event {report.events}: {type(error).__name__}: {error}"
            report.trace = "".join(traceback.format_exception(error))
        if report.crash is None and app._exception is not None:
            report.crash = f"event {report.events}: {type(app._exception).__name__}: {app._exception}"
            report.trace = "".join(traceback.format_exception(app._exception))
    return report
