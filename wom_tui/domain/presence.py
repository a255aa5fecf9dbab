"""Who is online: a session's presence, its guest label and how often it says it is still there.

The rules of presence, whatever keeps it (:mod:`wom_tui.domain.store`'s data folder or database):
a session writes its record once and then beats every :data:`HEARTBEAT_INTERVAL` seconds; one
whose last beat is older than :data:`PRESENCE_STALE` is gone.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .table import SeatHolder
from .users import name_key

HEARTBEAT_INTERVAL = 2.0
"""Seconds between two heartbeats of a session."""
PRESENCE_STALE = 6.0
"""A session whose heartbeat is older than this is gone."""


def new_session_id() -> str:
    """A fresh, unique session id."""
    return uuid.uuid4().hex


TRANSPORTS = ("", "local", "ssh", "web")
"""How a session reaches the arcade ("": not said, a record written before it was kept)."""
MAX_SCREEN = 40
"""Characters of a screen's name kept in a presence record."""
_SCREEN = re.compile(r"[A-Za-z0-9 _.-]{0,40}")
_FINGERPRINT = re.compile(r"SHA256:[A-Za-z0-9+/]{43}")


@dataclass(frozen=True)
class Whereabouts:
    """What an operator sees of a session besides its name (docs/serve.md, *The Operator screen*): the
    address it came from, the key the server verified, how it came (ssh, web, local) and the screen it shows.
    """

    address: str | None = None
    key: str | None = None
    """The SHA256 fingerprint of the key the server verified; None for a guest or a browser tab."""
    transport: str = ""
    screen: str = ""

    def __post_init__(self) -> None:
        if self.address is not None and not (isinstance(self.address, str) and 0 < len(self.address) <= 64
                                             and self.address.isprintable() and " " not in self.address):
            raise ValueError(f"bad address {self.address!r}")
        if self.key is not None and not (isinstance(self.key, str) and _FINGERPRINT.fullmatch(self.key)):
            raise ValueError(f"bad key fingerprint {self.key!r}")
        if self.transport not in TRANSPORTS:
            raise ValueError(f"bad transport {self.transport!r}")
        if not isinstance(self.screen, str) or not _SCREEN.fullmatch(self.screen):
            raise ValueError(f"bad screen name {self.screen!r}")

    def as_json(self) -> dict[str, Any]:
        """The whereabouts as JSON data."""
        return {"address": self.address, "key": self.key, "transport": self.transport, "screen": self.screen}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Whereabouts:
        """Whereabouts :meth:`as_json` wrote (missing fields: unknown); ``ValueError`` if bad."""
        return cls(data.get("address"), data.get("key"), data.get("transport", ""), data.get("screen", ""))


_SCREEN_WORDS = {
    "Menu": "Main menu", "SoloGame": "Solo game", "SoloSetup": "Solo setup", "Resume": "Resume a solo game",
    "HallName": "Hall of fame name", "ComputerBreaks": "Computer breaks a code", "WomSetup": "Hot-seat setup",
    "WomGame": "Hot-seat game", "WomResults": "Hot-seat results", "Lobby": "Lobby", "LiveTable": "At a table",
    "NewTable": "Lobby: new table", "Invite": "Lobby: inviting", "QuickMatch": "Quick match",
    "Daily": "Daily code", "DailyGame": "Daily game", "Stats": "My stats", "Replays": "Replays",
    "Replay": "Watching a replay", "Scoreboard": "Scoreboard", "Help": "Help", "Register": "Registering",
    "LinkKey": "Linking a key", "BrowserCode": "Browser sign-in code", "Operator": "Operator",
    "StoreError": "Store error",
}
"""The words an operator reads for each screen the sessions report."""


def screen_words(label: str) -> str:
    """What an operator reads for a reported screen (:func:`screen_label`'s ``SoloGame``): ``Solo game``;
    a screen without words of its own has its name split into words (``FooBar`` → ``Foo bar``).
    """
    if label in _SCREEN_WORDS:
        return _SCREEN_WORDS[label]
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", label).split()
    return " ".join([words[0], *(word.lower() for word in words[1:])]) if words else label


def screen_label(name: str) -> str:
    """A screen's class name as an operator reads it: ``SoloGameScreen`` → ``SoloGame``, cut to fit."""
    name = name.removesuffix("Screen")
    return "".join(ch for ch in name if ch.isascii() and (ch.isalnum() or ch in " _.-"))[:MAX_SCREEN]


@dataclass(frozen=True)
class Presence:
    """A session that is online: its name (a registered user's or a guest label) and since when."""

    session: str
    name: str
    registered: bool
    since: float
    seen: float
    """The last heartbeat (the record's modification time)."""
    where: Whereabouts = field(default_factory=Whereabouts)
    """Its address, key, transport and screen (what the Operator screen lists)."""

    def holder(self) -> SeatHolder:
        """The person of this session, as they sit at a table."""
        return SeatHolder(self.name, self.session, self.registered)


def online_names(sessions: Iterable[Presence]) -> list[str]:
    """Who is online, each person once, in the order they came: a registered player on SSH and in a
    browser at once (two sessions) is one person; each guest is their own.
    """
    seen: set[str] = set()
    names: list[str] = []
    for presence in sessions:
        key = name_key(presence.name) if presence.registered else f"guest:{presence.session}"
        if key not in seen:
            seen.add(key)
            names.append(presence.name)
    return names


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



__all__ = [
    "HEARTBEAT_INTERVAL", "PRESENCE_STALE", "TRANSPORTS", "Presence", "Whereabouts", "guest_label", "new_session_id",
    "screen_label",
    "screen_words", "online_names",
]
