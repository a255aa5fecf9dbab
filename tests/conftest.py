"""Fixtures and settings for the whole suite: one throwaway PostgreSQL server per test session
(started when first needed), and no hypothesis deadlines."""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import settings

from throwaway_pg import ThrowawayPostgres

# Timing is measured in bench/, never asserted: no per-example deadline, so a busy machine cannot fail a test.
settings.register_profile("wom", deadline=None)
settings.load_profile("wom")


@pytest.fixture(scope="session")
def postgres_server():
    """A PostgreSQL server for this test session (see tests/throwaway_pg.py); stopped and removed at the end."""
    server = ThrowawayPostgres()
    try:
        server.start()
        yield server
    finally:
        server.remove()


LONG_FIRST = ("tests/web/", "tests/test_bench.py", "tests/serve/", "tests/store/", "tests/solver/", "tests/test_",
              "tests/ui/", "tests/domain/")
"""The order the suite runs in: the tests that take seconds each (browsers, benches, servers) first, the
hundreds that take milliseconds last, so that the workers (pytest-xdist, each taking from the others' queues
once its own is empty) run out of work at nearly the same moment rather than one finishing a browser test
alone while the others wait."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Sort the tests by :data:`LONG_FIRST` (stable: a module's tests stay together and in their order)."""

    def rank(item: pytest.Item) -> int:
        return next((i for i, prefix in enumerate(LONG_FIRST) if item.nodeid.startswith(prefix)), len(LONG_FIRST))

    items.sort(key=rank)


def _collect_cycles_less_often() -> None:
    """Python's cycle collector runs after every 700 new objects by default; a Textual test makes millions
    (styles, messages, strips), and those collections were about a tenth of a screen test's CPU time.
    Collecting after 100,000 keeps a worker's memory bounded and what the tests mean unchanged."""
    import gc

    gc.set_threshold(100_000, 50, 1000)


def _quicker_idle_checks() -> None:
    """Let the pilot notice sooner that the app has gone idle.

    Textual's pilot waits after every key until the process is idle, checking every 20 ms; most of a
    screen test's time was spent in those sleeps. Checking every 5 ms (idle: under 1 ms of CPU in that
    time) keeps the same meaning of "idle" and makes typing-heavy tests several times quicker.
    """
    import textual._wait

    textual._wait.SLEEP_GRANULARITY = 0.005
    textual._wait.SLEEP_IDLE = 0.001


def _parse_each_stylesheet_once() -> None:
    """Parse the app's stylesheets once per test process, as the SSH server's warm parent does for its
    games (``wom_tui/serve/warmup.py``): Textual keeps its parse cache in each App's own Stylesheet, so
    every test's app parsed all the CSS again (about a tenth of a screen test's CPU time).
    """
    from wom_tui.patches import parsed_css

    parsed_css.share()


def _install_the_patches() -> None:
    """Textual's global workarounds, as ``run_app`` installs them (the tests build the app themselves)."""
    from wom_tui import patches

    patches.install()


def _draw_only_frames_that_can_be_seen() -> None:
    """In a headless test app, draw a screen's frame when it becomes current or the terminal is resized,
    and skip the partial frames in between.

    Textual draws every change into a frame and its headless driver throws the frame away; that drawing
    was about 30 % of the screen tests' CPU time. Nothing a test asserts reads those frames: a test that
    looks at the screen takes a screenshot (``export_screenshot``, the snapshots), which draws the whole
    screen as it is then. Every screen a test reaches, and every size it is shown at, is still drawn once
    by Textual's own path, so a widget that cannot render fails the test. Apps with a real terminal (the
    SSH tests' game processes, ``wom-tui`` itself) draw every frame as always.
    """
    import weakref

    from textual.screen import Screen

    draw = Screen._compositor_refresh

    def refresh(self: Screen) -> None:
        app = self.app
        if not app.is_headless or app.is_inline or self is not app.screen:
            draw(self)
            return
        seen = (weakref.ref(self), app.size)  # the screen drawn last in this app, and at what size
        if getattr(app, "_test_frame_drawn", None) != seen:
            app._test_frame_drawn = seen  # type: ignore[attr-defined]
            draw(self)
            return
        self._compositor._dirty_regions.clear()
        self._dirty_widgets.clear()
        app._update_mouse_over(self)

    Screen._compositor_refresh = refresh  # type: ignore[method-assign]


def _click_only_what_is_on_screen() -> None:
    """A pilot's click (or hover) on a widget waits until that widget is laid out on the screen.

    Textual's pilot reads the widget's place at once: right after a screen is pushed (a dialog that
    has just opened) the widget has no place yet, and the click landed at the screen's corner, on
    whatever is there; right after the terminal is resized, the widget still has its place at the old
    size until the screen is laid out again. A person clicks what they see; so does the pilot now (bounded:
    after 30 s it clicks as Textual would, and the test sees what that does).
    """
    import time

    from textual.css.query import NoMatches
    from textual.pilot import Pilot
    from textual.widget import Widget

    post = Pilot._post_mouse_events

    async def post_when_shown(self: Pilot, events: Any, widget: Any = None, *args: Any, **kwargs: Any) -> bool:
        if widget is not None:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                screen = self.app.screen
                try:
                    target = widget if isinstance(widget, Widget) else screen.query_one(widget)
                except NoMatches:
                    target = None
                if target is not None and target.region.area and not screen._layout_required \
                        and screen.outer_size == self.app.size \
                        and _seen_at(screen, target, kwargs.get("offset", (0, 0))):
                    break
                await self.pause()
        return await post(self, events, widget, *args, **kwargs)

    def _seen_at(screen: Any, target: Widget, offset: tuple[int, int]) -> bool:
        """The point the pilot will press shows ``target`` (or a widget inside it), not something over it
        or a part scrolled out of sight (a scroll asked for just before is not always done yet)."""
        from textual.errors import NoWidget

        x, y = target.region.x + offset[0], target.region.y + offset[1]
        try:
            shown, _ = screen.get_widget_at(x, y)
        except NoWidget:
            return False
        return shown is target or target in shown.ancestors

    Pilot._post_mouse_events = post_when_shown  # type: ignore[method-assign]


def _keep_warm_parents_between_servers() -> None:
    """A test's game server hands its warm parent to the next test's server rather than ending it
    (:meth:`WarmParent.keep_between_servers`): each of the suite's hundred servers imported everything
    anew in a fresh warm parent, about 0.6 CPU-seconds each. Servers whose warm parent must be new (the
    tests of the warm parent itself) end it on purpose, and ``wom-tui serve`` as a process never keeps one.
    """
    from wom_tui.serve.warmparent import WarmParent

    WarmParent.keep_between_servers()


def _games_one_step_nicer() -> None:
    """Served games run a step nicer than their server here, not the ten a real server gives them
    (``WOM_GAME_NICENESS``, wom_tui/serve/forkserver.py; inherited by every server and bench the tests
    start). A real server's games wait only for one another; here they would also wait behind the other
    workers' screen tests, which run at the servers' priority: ten steps down, a game got a twentieth of a
    core and a browser tab its first frame after half a minute.
    """
    os.environ["WOM_GAME_NICENESS"] = "1"


_games_one_step_nicer()
_collect_cycles_less_often()
_quicker_idle_checks()
_parse_each_stylesheet_once()
_install_the_patches()
_draw_only_frames_that_can_be_seen()
_click_only_what_is_on_screen()
_keep_warm_parents_between_servers()
