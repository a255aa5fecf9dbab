"""How long the live games wait for people: the one home of these defaults (``settings.py`` and the
rules both read them here; this module imports nothing, so the command line and the SSH server can read
it without loading the rules).
"""

SEAT_GRACE = 120.0
"""Seconds a dropped person keeps their seat at a live table (``--seat-grace``)."""

FILL_AFTER = 30.0
"""Seconds a quick-match player waits before the computers fill their table (``--fill-after``)."""

REPEAT_PAIRING = 3600.0
"""Seconds after quick match paired two registered names during which it pairs them again only when nobody
else waits (docs/arcade.md, *Fair ratings*); their ratings then count such a repeat for little, over the same
window (``ratings.REPEAT_WINDOW``)."""
