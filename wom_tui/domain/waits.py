"""How long the live games wait for people: the one home of these defaults (``settings.py`` and the
rules both read them here; this module imports nothing, so the command line and the SSH server can read
it without loading the rules).
"""

SEAT_GRACE = 120.0
"""Seconds a dropped person keeps their seat at a live table (``--seat-grace``)."""

CODE_CLOCK = 90.0
"""Seconds the seated people of a started live table have to set their codes: then the table draws a code from
its seed for each who has not (docs/play.md, *Playing together*). A rule of the tables, applied by their
``tick``, so that every process that brings a table up to date (a server's hub, a local game, another server on
the same database) sets the same code at the same moment."""

FILL_AFTER = 30.0
"""Seconds a quick-match player waits before the computers fill their table (``--fill-after``)."""

REPEAT_PAIRING = 3600.0
"""Seconds after quick match paired two registered names during which it pairs them again only when nobody
else waits (docs/arcade.md, *Fair ratings*); their ratings then count such a repeat for little, over the same
window (``ratings.REPEAT_WINDOW``)."""
