"""The driver of a browser tab's game: Textual's web driver, which also repaints on the server's word, and
starts with the game focused.

A tab that comes back (a blink of its connection, a reload) has a fresh, empty terminal, and Textual
repaints only what changes; a resize to the same size changes nothing (``App._on_resize`` returns early).
So the server sends the meta packet ``{"type": "repaint"}`` and the game draws its whole screen again.

Textual's web driver posts an ``AppBlur`` as it starts (``start_application_mode``, Textual 8.2.8), for
textual-web's page to send ``focus`` when it has it. Our page gives the terminal the keyboard as it opens
(page.js), so its ``focus`` may reach the game before that late blur: the game then stays blurred, its first
screen gets no focused widget (``Screen._update_auto_focus`` skips a blurred app) and arrow keys do
nothing until a click. :class:`ServedWebDriver` drops that one start-up blur: a game starts focused, as
over SSH, and the page's own ``blur``/``focus`` messages still say when the tab loses and regains it.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.drivers.web_driver import WebDriver


class ServedWebDriver(WebDriver):
    """Textual's :class:`~textual.drivers.web_driver.WebDriver`, plus the ``repaint`` meta packet, started focused."""

    def start_application_mode(self) -> None:
        """Textual's start, without its start-up ``AppBlur`` (see the module's note)."""
        app = self._app
        call_later = app.call_later

        def without_the_start_blur(callback: Any, *args: Any, **kwargs: Any) -> bool:
            if args and isinstance(args[0], events.AppBlur):
                return True
            return call_later(callback, *args, **kwargs)

        app.call_later = without_the_start_blur  # type: ignore[method-assign]
        try:
            super().start_application_mode()
        finally:
            del app.call_later  # the class's method again

    def on_meta(self, packet_type: str, payload: dict[str, object]) -> None:
        """Handle the server's meta packets (Textual's own, and ``repaint``)."""
        if packet_type == "repaint":
            # Called on the driver's input thread: the app repaints on its own. The fresh terminal has the
            # cursor hidden (web.TERMINAL_MODES): the app says again whether it shows it (patches/cursor.py).
            reset = getattr(self._app, "cursor_reset", None)
            if reset is not None:
                self._app.call_from_thread(reset)
            self._app.call_from_thread(self._app.refresh, repaint=True, layout=True)
        else:
            super().on_meta(packet_type, payload)
