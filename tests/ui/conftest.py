"""Fixtures for UI tests: an app on a fresh data folder with a fixed seed, and wait_for()."""

from __future__ import annotations

import random
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from memory_tmp import tmp_path, tmp_path_factory  # data folders in memory, as the store and SSH tests'
from wom_tui.app import WomApp
from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.settings import Settings

__all__ = ["tmp_path", "tmp_path_factory"]

SEED = 2026
"""The seed every UI test runs with, so computer players and codes repeat."""


def make_options(data_dir: Path, **overrides: object) -> Settings:
    """Settings for a test session: tmp data folder, fixed seed, computers play instantly."""
    values: dict[str, object] = {"data_dir": data_dir, "seed": SEED, "debug": False, "served": False, "computer_pace": 0}
    values.update(overrides)
    return Settings(**values)  # type: ignore[arg-type]


def build_app(data_dir: Path, **overrides: object) -> WomApp:
    """A WomApp on ``data_dir`` as the entry point would build it (Store, seeded Random, Settings)."""
    options = make_options(data_dir, **overrides)
    return WomApp(Store(options.data_dir), random.Random(options.seed), options)


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """An empty data folder for one test."""
    folder = tmp_path / "data"
    folder.mkdir()
    return folder


@pytest.fixture
def store(data_dir: Path) -> Store:
    """A store on the test's data folder, for seeding users and checking what the app saved."""
    return Store(data_dir)


@pytest.fixture
def make_app(data_dir: Path) -> Callable[..., WomApp]:
    """Build an app on the test's data folder; keyword arguments override Settings fields."""

    def factory(**overrides: object) -> WomApp:
        return build_app(data_dir, **overrides)

    return factory


@pytest.fixture
def app(make_app: Callable[..., WomApp]) -> WomApp:
    """An app with the default test options."""
    return make_app()


async def wait_for(
    pilot: Pilot[object],
    predicate: Callable[[], object],
    timeout: float = 60.0,
    message: str = "",
) -> None:
    """Let the app run until ``predicate()`` is true; fail with ``message`` after ``timeout`` seconds.

    The timeout is only a guard against a hung test, never part of what is asserted.
    """
    deadline = time.monotonic() + timeout
    while True:
        if predicate():
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not met within {timeout} s: {message or predicate}\n{_what_is_shown(pilot)}")
        await pilot.pause()


def _what_is_shown(pilot: Pilot[object]) -> str:
    """The screen a failed wait left, as a person would have seen it, with where the focus was."""
    from .screen_text import screen_text

    app = pilot.app
    try:
        shown = screen_text(app)
    except Exception as error:  # noqa: BLE001 - a failure report must not fail in its turn
        shown = f"(not drawn: {error!r})"
    focused = app.focused.id if app.focused is not None else None
    return f"screen {type(app.screen).__name__}, focus on {focused!r}:\n{shown}"


BOTH_SIZES = ((80, 24), (60, 20))
"""The sizes every screen is tested at."""


async def at_both_sizes(pilot: Pilot[object], check: Callable[[tuple[int, int]], Awaitable[object]]) -> None:
    """``await check(size)`` at 80×24, then again at 60×20, the terminal resized to each in turn (as a person
    resizes a window): one app and one way to the scene for both sizes, where a second app at 60×20 cost the
    whole test again. It ends at 60×20."""
    for size in BOTH_SIZES:
        if tuple(pilot.app.size) != size:
            await pilot.resize_terminal(*size)
            try:
                await wait_for(pilot, lambda: tuple(pilot.app.screen.outer_size) == size, message=f"laid out at {size}")
            except AssertionError as failed:
                raise AssertionError(f"{failed}\n{_resize_state(pilot.app)}") from None
        await check(size)


def _resize_state(app) -> str:
    """Where a resize stands in Textual, for a failure that a screen never took its new size (seen once in some
    hundreds of runs under heavy load, not understood yet)."""
    screen = app.screen
    return (f"app size {app.size}, pending resize {app._resize_event}, resize timer {app._resize_timer}; "
            f"{type(screen).__name__} size {screen.size}, resumed {screen.stack_updates} times, first resize seen "
            f"{getattr(screen, '_wom_first_resize_seen', None)}, {screen._message_queue.qsize()} messages queued; "
            f"screens {[type(each).__name__ for each in app.screen_stack]}")


async def no_blink(pilot: Pilot[object]) -> None:
    """Turn off the cursor blink of the screen's fields so every snapshot run draws the same frame."""
    from textual.widgets import Input

    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False
    await pilot.pause()
