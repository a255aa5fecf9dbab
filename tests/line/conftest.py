"""Line mode's engine driven like a front end: lines fed, lines read back (no server, no screen)."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Callable

import pytest

from memory_tmp import tmp_path, tmp_path_factory  # data folders in memory (memory_tmp.py)
from wom_tui.domain.identity import Identity
from wom_tui.domain.store import open_store
from wom_tui.line.engine import LineSession
from wom_tui.line.words import MAX_LINE
from wom_tui.settings import Settings

ESCAPE = re.compile(r"[\x00-\x1f\x7f-\x9f]")


class Player:
    """One line-mode player: ``await player.send("solo")`` feeds a line; ``player.lines`` is all it read."""

    def __init__(self, store, settings: Settings, identity: Identity, seed: int = 1) -> None:
        self.lines: list[str] = []
        self.session = LineSession(store, settings, identity, self._write, rng=random.Random(seed))
        self.session.wave_interval = 0.0
        self.session.straggler_hold = 0.0
        self._seen = asyncio.Event()

    def _write(self, line: str) -> None:
        assert "\n" not in line and len(line) <= MAX_LINE and not ESCAPE.search(line), repr(line)
        self.lines.append(line)
        self._seen.set()

    async def send(self, line: str) -> list[str]:
        """Feed ``line``; the lines it answered with."""
        before = len(self.lines)
        await self.session.feed(line)
        return self.lines[before:]

    async def wait_for(self, pattern: str, timeout: float = 20.0) -> str:
        """The first line (from the start) matching ``pattern``, waiting for it to come."""
        regex = re.compile(pattern)

        async def find() -> str:
            while True:
                for line in self.lines:
                    if regex.search(line):
                        return line
                self._seen.clear()
                await self._seen.wait()

        try:
            return await asyncio.wait_for(find(), timeout)
        except asyncio.TimeoutError:
            raise AssertionError(f"no line matching {pattern!r} in:\n" + "\n".join(self.lines)) from None


__all__ = ["tmp_path", "tmp_path_factory"]


@pytest.fixture
def settings(tmp_path_factory) -> Settings:
    return Settings(data_dir=tmp_path_factory.mktemp("line"), seed=7, computer_pace=0.0, fill_after=0.0, quick_match_clock=120.0)


@pytest.fixture
def store(settings: Settings):
    opened = open_store(settings.data_dir)
    yield opened
    opened.close()


@pytest.fixture
def make_player(store, settings) -> Callable[..., Player]:
    made: list[Player] = []

    def make(identity: Identity | None = None, seed: int = 1) -> Player:
        player = Player(store, settings, identity or Identity.local(), seed)
        made.append(player)
        return player

    yield make
