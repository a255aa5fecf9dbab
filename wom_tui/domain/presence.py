"""Who is online: a session's presence, its guest label and how often it says it is still there.

The rules of presence, whatever keeps it (:mod:`wom_tui.domain.store`'s data folder or database):
a session writes its record once and then beats every :data:`HEARTBEAT_INTERVAL` seconds; one
whose last beat is older than :data:`PRESENCE_STALE` is gone.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable
from dataclasses import dataclass

from .table import SeatHolder

HEARTBEAT_INTERVAL = 2.0
"""Seconds between two heartbeats of a session."""
PRESENCE_STALE = 6.0
"""A session whose heartbeat is older than this is gone."""


def new_session_id() -> str:
    """A fresh, unique session id."""
    return uuid.uuid4().hex


@dataclass(frozen=True)
class Presence:
    """A session that is online: its name (a registered user's or a guest label) and since when."""

    session: str
    name: str
    registered: bool
    since: float
    seen: float
    """The last heartbeat (the record's modification time)."""

    def holder(self) -> SeatHolder:
        """The person of this session, as they sit at a table."""
        return SeatHolder(self.name, self.session, self.registered)


_GUEST_LABEL = re.compile(r"Guest (\d+)")


def guest_label(online: Iterable[Presence], session: str) -> str:
    """``Guest N``: the smallest N that no other online guest session uses."""
    taken = set()
    for presence in online:
        match = _GUEST_LABEL.fullmatch(presence.name)
        if match and not presence.registered and presence.session != session:
            taken.add(int(match.group(1)))
    number = 1
    while number in taken:
        number += 1
    return f"Guest {number}"



__all__ = ["HEARTBEAT_INTERVAL", "PRESENCE_STALE", "Presence", "guest_label", "new_session_id"]
