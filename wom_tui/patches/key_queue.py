"""The key queue: keys and pastes reach the widgets one after another, each once the one before it and
what it set off have been handled, and never a screen that is still being built or an app that is quitting.

Textual hands every key to the screen on show the moment it arrives. Keys packed together (one SSH
packet, or a fast typist) then went to a screen being left, or reached a half-built screen with nothing
focused and were dropped; after quitting, keys still queued reached closed widgets and ended the app
with a traceback. ``bench/textual_races.py`` reproduces the last in a bare Textual app; the tests
``tests/ui/test_peg_input_burst.py`` and ``tests/ui/test_keys_after_quit.py`` hold the rest.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from textual import events
from textual.app import App
from textual.message_pump import MessagePump
from textual.screen import Screen
from textual.widget import Widget

from .versions import MEASURED

MEASURED_ON = MEASURED
"""The Textual releases this queue was measured on."""

FIRST_VIEW_WAIT = 3.0
"""Seconds at most that keys typed into a screen wait for what it shows first (:meth:`KeyQueue.hold_keys_for`):
a screen whose first read is slower than that gets them as it is."""

KEY_WATCHDOG = 0.25
"""Seconds between looks, while a key is on its way through its widgets, for a widget closed with the
key's callback still queued (so that the keys behind it are not held for ever)."""

ReturnT = TypeVar("ReturnT")


class KeyQueue(App[ReturnT]):
    """An App whose keys are delivered in order, each after the one before has been handled (a mixin:
    the app's class derives from it instead of from ``App``).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._held_keys: list[events.Key | events.Paste] = []
        """Keys and pastes typed while a new screen was still being built, delivered in order once it is."""
        self._settled_screen: Screen[Any] | None = None
        """The last screen seen built with its first focus given (keys for it need not wait)."""
        self._in_flight: int | None = None
        """The number of the key on its way through the widgets (None: none); the keys behind it wait."""
        self._flights = 0
        self._drawing_held = False
        """A batch of updates is open while keys typed together are delivered (one frame for them all)."""
        self._unready: dict[Screen[Any], float] = {}
        """Screens still reading what they show first, and until when (the loop's clock) their keys wait for it."""

    def hold_keys_for(self, screen: Screen[Any], seconds: float = FIRST_VIEW_WAIT) -> None:
        """Keys typed while ``screen`` is on show wait (in order, for ``seconds`` at most) until it calls
        :meth:`keys_ready`: a screen that reads what it shows first, and whose widgets (an entry that takes
        a code) depend on it. A live table opened by the lobby's Enter showed its seat list while it read
        the table, and the code typed with that Enter moved the list's highlight instead of being set.
        """
        loop = asyncio.get_running_loop()
        until = self._unready[screen] = loop.time() + seconds

        def expire() -> None:
            if self._unready.get(screen) == until:
                self.keys_ready(screen)

        loop.call_later(seconds, expire)

    def keys_ready(self, screen: Screen[Any]) -> None:
        """``screen`` shows what it read first, or went: the keys held for it go on (a no-op if none wait)."""
        if self._unready.pop(screen, None) is not None:
            self._check_held_keys()

    def _check_held_keys(self) -> None:
        if self._held_keys and self._in_flight is None and self.is_running:
            self.call_later(self._release_held_keys)

    def _waits_for_first_view(self, screen: Screen[Any]) -> bool:
        until = self._unready.get(screen)
        if until is None:
            return False
        if asyncio.get_running_loop().time() < until and screen.is_attached:
            return True
        del self._unready[screen]
        return False

    async def on_event(self, event: events.Event) -> None:
        """Keys (and pastes) are handled one after another: one that arrives while the one before is
        still on its way through the widgets, or while a new screen is still being built, waits and
        is delivered in order once that is done; input that arrives after quitting goes nowhere.

        Keys packed together (one SSH packet, or a fast typist) all went to the screen on show when
        they arrived: ``op1234⏎`` opened the solo setup and started a game, but the guess went to the
        setup being left, and was lost; a key reaching a half-built screen with nothing focused yet was
        dropped. Held keys go exactly where they would have gone had they been typed a moment later.

        After quitting, Textual went on handling keys already queued while it closed the screens: a key
        that opened a screen, or reached a widget whose parts were already gone, ended the app with a
        traceback (the random run, ``bench/fuzz.py``, seeds 1 and 9; ``bench/textual_races.py`` reproduces it
        bare).
        """
        if self._exit and isinstance(event, (events.Key, events.Paste, events.MouseEvent)):
            return
        if isinstance(event, (events.Key, events.Paste)) and not event.is_forwarded:
            if (
                self._held_keys
                or self._in_flight is not None
                or (self.focused is None and self.screen is not self._settled_screen)
                or (self._unready and self._waits_for_first_view(self.screen))
            ):
                self._held_keys.append(event)
                if self._in_flight is not None and self.focused is not None and not self._drawing_held:
                    # Keys typed together are drawn together: one frame once the last has landed, not
                    # one for each key the loop got to between two frames (with many sessions on
                    # few cores, four pegs typed at once drew three frames; docs/perf/).
                    self._drawing_held = True
                    self._begin_batch()
                if self._in_flight is None and len(self._held_keys) == 1:
                    self.call_after_refresh(self._release_held_keys)
                return
            await self._deliver(event)
            return
        await super().on_event(event)

    async def _deliver(self, key: events.Key | events.Paste) -> None:
        """Send a key on (as Textual does: to the focused widget, or the screen), and note it in flight
        until it, and what it set off, has been handled by the widget and each ancestor up to the app.
        """
        target: MessagePump = self.focused or self.screen
        self._flights += 1
        flight = self._in_flight = self._flights
        await super().on_event(key)

        def landed() -> None:
            if self._in_flight == flight:
                self._in_flight = None
                if self._held_keys:
                    self.call_later(self._release_held_keys)
                else:
                    self._draw_held()

        # Twice through the chain: the second pass follows what handling the key posted (a button's
        # Pressed, which opens a screen at the screen's handler) up to where it is handled.
        self._after_handled(target, lambda: self._after_handled(target, landed))

    async def _release_held_keys(self) -> None:
        """Deliver the next held key, once no key is in flight and the screen on show is built."""
        if not self.is_running or not self._held_keys or self._in_flight is not None:
            if self._in_flight is None:
                self._draw_held()
            return
        screen = self.screen
        if self.focused is None and screen is not self._settled_screen:
            self._draw_held()  # a screen being built is drawn (its first focus follows a refresh)
            if screen.is_mounted:
                self._settled_screen = screen  # built; one more refresh lets its first focus land
            self.call_after_refresh(self._release_held_keys)
            return
        if self._unready and self._waits_for_first_view(screen):
            self._draw_held()  # released by keys_ready, or when the wait is up
            return
        await self._deliver(self._held_keys.pop(0))

    def _draw_held(self) -> None:
        """Close the batch opened for keys typed together: the screen draws what they changed."""
        if self._drawing_held:
            self._drawing_held = False
            self._end_batch()
            self.screen.check_idle()

    def _after_handled(self, target: MessagePump, then: Callable[[], None]) -> None:
        """Run ``then`` once what is queued for ``target`` now has been handled by it and by each of its
        ancestors up to the app: a callback queued behind it in each queue in turn. A queue that is
        closed, or closes with the callback still in it (its widget removed), is passed over: a
        watchdog looks every :data:`KEY_WATCHDOG` seconds while the callback is out, and only then.
        """
        chain = [target, *target.ancestors] if isinstance(target, Widget) else [target, self]
        at = -1  # the queue holding the callback
        loop = asyncio.get_running_loop()
        watchdog: asyncio.TimerHandle | None = None

        def step(index: int) -> None:
            nonlocal at, watchdog
            if index != at + 1:
                return  # a late callback from a queue already passed over
            while index < len(chain):
                if chain[index].call_later(step, index + 1):
                    at = index
                    if watchdog is None:
                        watchdog = loop.call_later(KEY_WATCHDOG, watch)
                    return
                index += 1
            at = len(chain)
            if watchdog is not None:
                watchdog.cancel()
            then()

        # Textual counts a callback's parameters (inspect.signature) at each call unless it has been
        # told: a new ``step`` for every key cost more than the rest of the key's way (docs/perf/).
        step._param_count = 1  # type: ignore[attr-defined]

        def watch() -> None:
            nonlocal watchdog
            watchdog = None
            if at >= len(chain):
                return
            pump = chain[at]
            if pump._closing or pump._closed:
                step(at + 1)
            else:
                watchdog = loop.call_later(KEY_WATCHDOG, watch)

        step(0)
