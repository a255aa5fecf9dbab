"""The driver of a browser tab's game: Textual's web driver, which also repaints on the server's word.

A tab that comes back (a blink of its connection, a reload) has a fresh, empty terminal, and Textual
repaints only what changes; a resize to the same size changes nothing (``App._on_resize`` returns early).
So the server sends the meta packet ``{"type": "repaint"}`` and the game draws its whole screen again.
"""

from __future__ import annotations

from textual.drivers.web_driver import WebDriver


class ServedWebDriver(WebDriver):
    """Textual's :class:`~textual.drivers.web_driver.WebDriver`, plus the ``repaint`` meta packet."""

    def on_meta(self, packet_type: str, payload: dict[str, object]) -> None:
        """Handle the server's meta packets (Textual's own, and ``repaint``)."""
        if packet_type == "repaint":
            # Called on the driver's input thread: the app repaints on its own.
            self._app.call_from_thread(self._app.refresh, repaint=True, layout=True)
        else:
            super().on_meta(packet_type, payload)
