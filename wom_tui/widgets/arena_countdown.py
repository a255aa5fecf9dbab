"""One line saying a coming or running Code Arena's countdown, ticking each second (docs/play.md, *Code Arena*).

One timer, each second: it redraws this line only, and only when its words change (no layout: the line's size
is fixed), and every :data:`ARENA_LOOK` seconds reads the arena again (in a thread). No arena, or one over: the
line is hidden.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from rich.text import Text
from textual.widgets import Static

from ..domain.arena import OVER, RUNNING, Arena

ARENA_LOOK = 15.0
"""Seconds between two reads of the arena (its countdown is redrawn every second from the last read)."""


def arena_words(arena: Arena | None, now: float, key: str = "c") -> str | None:
    """``Code Arena: 12:34 left — press c to join`` / ``Code Arena starts in 4:05 — press c to see it``, or
    None when there is no arena or it is over.
    """
    if arena is None or arena.phase(now) == OVER:
        return None
    action = "join" if arena.phase(now) == RUNNING else "see it"
    return f"{arena.countdown(now)} — press {key} to {action}"


class ArenaCountdown(Static):
    """The arena's countdown line; ``read`` gives the newest arena (a store call, run in a thread), ``clock``
    the store's time.
    """

    DEFAULT_CSS = """
    ArenaCountdown {
        width: 100%;
        height: 1;
        color: $accent;
        text-style: bold;
    }
    """

    def __init__(self, read: Callable[[], Arena | None], clock: Callable[[], float], *, id: str | None = None) -> None:
        super().__init__(Text(""), id=id)
        self._read = read
        self._clock = clock
        self.arena: Arena | None = None
        self.words: str | None = None
        self.display = False

    _seconds = 0

    def on_mount(self) -> None:
        self._look()
        self.set_interval(1.0, self._second)

    def _second(self) -> None:
        self._seconds += 1
        if self._seconds % int(ARENA_LOOK) == 0:
            self._look()
        else:
            self.tick()

    def _look(self) -> None:
        self.run_worker(self._fetch, group="arena-countdown",  # type: ignore[arg-type]  # (Textual's ResultType)
                        exclusive=True, exit_on_error=False)

    async def _fetch(self) -> None:
        try:
            self.arena = await asyncio.to_thread(self._read)
        except Exception:  # noqa: BLE001  (no line rather than fail; the arena's screen says why)
            self.arena = None
        self.tick()

    def tick(self) -> None:
        """Redraw the line if its words changed (each second); show or hide it as an arena comes and goes."""
        words = arena_words(self.arena, self._clock())
        if words == self.words:
            return
        self.words = words
        if words is None:
            self.display = False
            return
        self.update(Text(words), layout=False)
        self.display = True
