"""Send keys or a paste to a running app in one burst, the way a terminal (or one SSH packet) delivers them.

``pilot.press`` waits for the app to go idle after every key, which hides any fault that only shows
when several keys are queued before the first is handled. These helpers queue every event first.
"""

from __future__ import annotations

import unicodedata

from textual import events
from textual.app import App
from textual.keys import REPLACED_KEYS, _character_to_key, _get_unicode_name_from_key


def key_event(key: str) -> events.Key:
    """The Key event a terminal sends for ``key`` (a name like ``"backspace"`` or one character)."""
    if len(key) == 1 and not key.isalnum():
        key = _character_to_key(key)
    original = REPLACED_KEYS.get(key, key)
    try:
        character: str | None = unicodedata.lookup(_get_unicode_name_from_key(original))
    except KeyError:
        character = key if len(key) == 1 else None
    return events.Key(key, character)


def send_burst(app: App[object], *keys: str) -> None:
    """Queue every key event at once, without letting the app run in between."""
    driver = app._driver
    assert driver is not None
    for key in keys:
        event = key_event(key)
        event.set_sender(app)
        driver.send_message(event)


def send_paste(app: App[object], text: str) -> None:
    """Queue a bracketed paste of ``text``."""
    driver = app._driver
    assert driver is not None
    event = events.Paste(text)
    event.set_sender(app)
    driver.send_message(event)


async def terminal_click(pilot, widget) -> None:
    """Click the middle of ``widget``'s first line as a terminal does: a press, then a release, through the
    app's own mouse handling (which makes the Click of a press and release on one widget, and which a
    widget may tell to drop that Click). ``pilot.click`` posts a Click itself and never hears of that.
    """
    app = pilot.app
    region = widget.region
    x, y = region.x + region.width // 2, region.y
    driver = app._driver
    assert driver is not None
    for kind in (events.MouseDown, events.MouseUp):
        event = kind(None, x, y, 0, 0, 1, False, False, False, screen_x=x, screen_y=y)
        event.set_sender(app)
        driver.send_message(event)
        for _ in range(3):  # a person's press and release are milliseconds apart: the app runs between
            await pilot.pause()
