"""Moderation's rules: bans (a name, a key or an address range; for a while or for good), retired names,
and who of a connecting client is turned away, with the one line they are told (docs/serve.md, *Moderating
the arcade*).

Pure data and rules: the store keeps :class:`Ban` and :class:`Retirement`, the server asks
:class:`Verdicts` about each session it holds or admits.
"""

from __future__ import annotations

import ipaddress
import re
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any, Literal

from .game import Refusal
from .keys import KeyRejected, check_fingerprint
from .users import NameRejected, check_name, name_key

BanKind = Literal["name", "key", "address"]
BAN_KINDS: tuple[BanKind, ...] = ("name", "key", "address")
MAX_REASON = 200
"""Characters of a reason kept (one line on a client's terminal)."""
RETIRED_LABEL = "retired player"
"""What a board or a replay shows where a game must name a retired player."""

_DURATION = re.compile(r"\s*(\d{1,6})\s*([smhdw])\s*")
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
_BAN_ID = re.compile(r"[0-9a-f]{8}")
MAX_DURATION = timedelta(days=3650)


class ModerationRefused(Refusal):
    """A ban, unban or retirement that cannot be done; ``reason`` says why, for a person."""


MAX_MOTD = 200
"""Characters of the message of the day (one line on the menu)."""


def check_motd(text: str) -> str:
    """The message of the day as shown: one line of printable text (a file's final newline dropped), at most
    :data:`MAX_MOTD` characters; ``ModerationRefused`` with the reason if not.
    """
    text = text.removesuffix("\n").removesuffix("\r").strip()
    if "\n" in text or "\r" in text:
        raise ModerationRefused("the message of the day is one line")
    if not text.isprintable():
        raise ModerationRefused("the message of the day is printable text (no control characters or escapes)")
    if len(text) > MAX_MOTD:
        raise ModerationRefused(f"the message of the day is at most {MAX_MOTD} characters")
    return text


def parse_duration(text: str) -> timedelta:
    """``30m``, ``2h``, ``7d``, ``1w``, ``45s`` (one number, one unit) → a positive duration of at most ten years."""
    match = _DURATION.fullmatch(text)
    if match is None:
        raise ModerationRefused(f"{text!r} is not a duration: a number and a unit, s, m, h, d or w (30m, 2h, 7d)")
    seconds = int(match.group(1)) * _UNITS[match.group(2)]
    if seconds <= 0:
        raise ModerationRefused("a ban lasts more than 0 seconds (leave --for out for a ban without end)")
    if seconds > MAX_DURATION.total_seconds():
        raise ModerationRefused("a ban lasts at most ten years (leave --for out for a ban without end)")
    return timedelta(seconds=seconds)


def check_reason(text: str) -> str:
    """A reason as kept: one line of printable text, at most :data:`MAX_REASON` characters (may be empty)."""
    if not isinstance(text, str):
        raise ModerationRefused("a reason is text")
    if len(text) > MAX_REASON:
        raise ModerationRefused(f"a reason is at most {MAX_REASON} characters")
    if not text.isprintable():
        raise ModerationRefused("a reason is one line of printable text (no control characters)")
    return text.strip()


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """A client's address as one network counts it: an IPv6 zone dropped, an IPv4-mapped IPv6 as IPv4."""
    try:
        address = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def parse_target(text: str) -> tuple[BanKind, str]:
    """What ``wom-tui users ban TARGET`` means: a key (``SHA256:…``), an address or CIDR range (IPv4 or IPv6;
    written as its network, ``192.0.2.0/24``), else a player's name (``name:1.2.3.4`` for a name that looks like an
    address). ``ModerationRefused`` if none of them.
    """
    text = text.strip()
    if text.startswith("name:"):
        return "name", _name(text[len("name:"):])
    if text.startswith("SHA256:"):
        try:
            return "key", check_fingerprint(text)
        except KeyRejected as exc:
            raise ModerationRefused(exc.reason) from None
    if any(mark in text for mark in ".:/"):
        try:
            network = ipaddress.ip_network(text.split("%", 1)[0], strict=False)
        except ValueError:
            if "/" in text or ":" in text:
                raise ModerationRefused(f"{text!r} is neither an address, a range (192.0.2.0/24, 2001:db8::/32), "
                                        "a key fingerprint (SHA256:…) nor a name") from None
        else:
            if isinstance(network, ipaddress.IPv6Network) and network.prefixlen >= 96:
                mapped = _address(str(network.network_address))
                if isinstance(mapped, ipaddress.IPv4Address):
                    network = ipaddress.ip_network(f"{mapped}/{network.prefixlen - 96}", strict=False)
            return "address", str(network)
    return "name", _name(text)


def _name(text: str) -> str:
    try:
        return check_name(text)
    except NameRejected as exc:
        raise ModerationRefused(exc.reason) from None


def new_ban_id() -> str:
    """A short id an operator types to lift one ban (``wom-tui users unban ID``)."""
    return secrets.token_hex(4)


def _utc(moment: datetime) -> datetime:
    if moment.tzinfo is None:
        raise ValueError("a moment needs its time zone")
    return moment.astimezone(timezone.utc)


def when(moment: datetime) -> str:
    """A moment as a person reads it: ``2026-11-28 15:00 UTC``."""
    return _utc(moment).strftime("%Y-%m-%d %H:%M UTC")


@dataclass(frozen=True)
class Ban:
    """One ban: a name, a key's fingerprint or an address range, from ``created`` until ``until`` (None: for
    good), with the reason the client is told.
    """

    id: str
    kind: BanKind
    target: str
    reason: str
    created: datetime
    until: datetime | None = None

    def __post_init__(self) -> None:
        if not _BAN_ID.fullmatch(self.id):
            raise ValueError(f"bad ban id {self.id!r}")
        if self.kind not in BAN_KINDS:
            raise ValueError(f"bad ban kind {self.kind!r}")
        prefix = "name:" if self.kind == "name" else ""
        if parse_target(prefix + self.target) != (self.kind, self.target):
            raise ValueError(f"bad {self.kind} ban target {self.target!r}")
        check_reason(self.reason)
        _utc(self.created)
        if self.until is not None and _utc(self.until) <= _utc(self.created):
            raise ValueError("a ban ends after it starts")

    @classmethod
    def make(cls, target: str, reason: str, now: datetime, duration: timedelta | None = None) -> Ban:
        """A new ban of ``target`` (see :func:`parse_target`) from ``now``, for ``duration`` (None: for good)."""
        kind, value = parse_target(target)
        return cls(new_ban_id(), kind, value, check_reason(reason), _utc(now),
                   None if duration is None else _utc(now) + duration)

    def active(self, now: datetime) -> bool:
        """True while the ban holds."""
        return self.until is None or _utc(now) < self.until

    def covers(self, *, name: str | None, fingerprint: str | None, address: str | None) -> bool:
        """True if a client signed in as ``name`` with ``fingerprint`` from ``address`` falls under this ban."""
        if self.kind == "name":
            return name is not None and name_key(name) == name_key(self.target)
        if self.kind == "key":
            return fingerprint == self.target
        client = _address(address) if address else None
        return client is not None and client in ipaddress.ip_network(self.target)

    def answers_to(self, which: str) -> bool:
        """True if ``which`` names this ban: its id, or its target as :func:`parse_target` reads it."""
        if which.strip() == self.id:
            return True
        try:
            kind, target = parse_target(which)
        except ModerationRefused:
            return False
        if kind != self.kind:
            return False
        return name_key(target) == name_key(self.target) if kind == "name" else target == self.target

    @property
    def line(self) -> str:
        """The one line a banned client reads: the reason, and until when."""
        until = "for good" if self.until is None else f"until {when(self.until)}"
        return f"You are banned from this arcade {until}" + (f": {self.reason}" if self.reason else ".")

    def as_json(self) -> dict[str, Any]:
        """The ban as JSON data."""
        return {"id": self.id, "kind": self.kind, "target": self.target, "reason": self.reason,
                "created": _utc(self.created).isoformat(),
                "until": None if self.until is None else _utc(self.until).isoformat()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Ban:
        """A ban :meth:`as_json` wrote (``ValueError``/``TypeError`` if it is not one)."""
        if set(data) != {"id", "kind", "target", "reason", "created", "until"}:
            raise ValueError(f"a ban has exactly id, kind, target, reason, created and until, not {sorted(data)}")
        until = data["until"]
        return cls(data["id"], data["kind"], data["target"], data["reason"], datetime.fromisoformat(data["created"]),
                   None if until is None else datetime.fromisoformat(until))


@dataclass(frozen=True)
class Retirement:
    """A retired name: kept with its records and reserved, shown nowhere, and no key of it signs in."""

    name: str
    reason: str
    at: datetime

    def __post_init__(self) -> None:
        check_name(self.name)
        check_reason(self.reason)
        _utc(self.at)

    @property
    def line(self) -> str:
        """The one line a key of a retired name reads at sign-in."""
        return f"The name {self.name} is retired" + (f": {self.reason}" if self.reason else ".")

    def as_json(self) -> dict[str, Any]:
        """The retirement as JSON data."""
        return {"name": self.name, "reason": self.reason, "at": _utc(self.at).isoformat()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Retirement:
        """A retirement :meth:`as_json` wrote."""
        if set(data) != {"name", "reason", "at"}:
            raise ValueError(f"a retirement has exactly name, reason and at, not {sorted(data)}")
        return cls(data["name"], data["reason"], datetime.fromisoformat(data["at"]))


KICK_KEPT = timedelta(minutes=1)
"""How long a kick is kept: every server ends the session within seconds, then it means nothing."""
MAX_BROADCAST = 120
"""Characters of an operator's broadcast line (one line on every screen, at 60 columns two thirds of it)."""
_SESSION_ID = re.compile(r"[A-Za-z0-9_.:\-]{1,64}")


@dataclass(frozen=True)
class Kick:
    """An operator ended one session (its presence id): every server holding it ends it with :attr:`line`."""

    session: str
    reason: str
    at: datetime

    def __post_init__(self) -> None:
        if not isinstance(self.session, str) or not _SESSION_ID.fullmatch(self.session):
            raise ValueError(f"bad session id {self.session!r}")
        check_reason(self.reason)
        _utc(self.at)

    @classmethod
    def make(cls, session: str, reason: str, now: datetime) -> Kick:
        """A kick of ``session`` now (``ModerationRefused`` if the reason is not one printable line)."""
        return cls(session, check_reason(reason), _utc(now))

    def fresh(self, now: datetime) -> bool:
        """True while the kick is kept (:data:`KICK_KEPT`)."""
        return _utc(now) - _utc(self.at) < KICK_KEPT

    @property
    def line(self) -> str:
        """The one line the kicked client reads."""
        return "An operator ended your session" + (f": {self.reason}" if self.reason else ".")

    def as_json(self) -> dict[str, Any]:
        """The kick as JSON data."""
        return {"session": self.session, "reason": self.reason, "at": _utc(self.at).isoformat()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Kick:
        """A kick :meth:`as_json` wrote."""
        if set(data) != {"session", "reason", "at"}:
            raise ValueError(f"a kick has exactly session, reason and at, not {sorted(data)}")
        return cls(data["session"], data["reason"], datetime.fromisoformat(data["at"]))


def check_broadcast(text: str) -> str:
    """An operator's broadcast line as shown: one line of printable text, 1 to :data:`MAX_BROADCAST`
    characters; ``ModerationRefused`` with the reason if not.
    """
    if not isinstance(text, str):
        raise ModerationRefused("a broadcast is text")
    text = text.strip()
    if not text:
        raise ModerationRefused("a broadcast says something")
    if not text.isprintable():
        raise ModerationRefused("a broadcast is one line of printable text (no control characters or escapes)")
    if len(text) > MAX_BROADCAST:
        raise ModerationRefused(f"a broadcast is at most {MAX_BROADCAST} characters")
    return text


@dataclass(frozen=True)
class Broadcast:
    """The line an operator shows on every session's screen until they clear or replace it."""

    text: str
    by: str
    """Who sent it: the operator's name, or their key's fingerprint."""
    at: datetime

    def __post_init__(self) -> None:
        check_broadcast(self.text)
        if not isinstance(self.by, str) or not self.by.isprintable() or len(self.by) > 64:
            raise ValueError(f"bad broadcast sender {self.by!r}")
        _utc(self.at)

    @classmethod
    def make(cls, text: str, by: str, now: datetime) -> Broadcast:
        """A broadcast of ``text`` now (``ModerationRefused`` with the reason if it is not one)."""
        return cls(check_broadcast(text), by, _utc(now))

    def as_json(self) -> dict[str, Any]:
        """The broadcast as JSON data."""
        return {"text": self.text, "by": self.by, "at": _utc(self.at).isoformat()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Broadcast:
        """A broadcast :meth:`as_json` wrote."""
        if set(data) != {"text", "by", "at"}:
            raise ValueError(f"a broadcast has exactly text, by and at, not {sorted(data)}")
        return cls(data["text"], data["by"], datetime.fromisoformat(data["at"]))


@dataclass(frozen=True)
class Verdicts:
    """What the server knows of moderation at one moment: the bans, the retired names, and the keys of the
    names concerned (so that a key is judged without asking the store).
    """

    bans: tuple[Ban, ...] = ()
    retired: tuple[Retirement, ...] = ()
    names_of_keys: Mapping[str, str] | None = None
    """Fingerprint → the name it signs in as, for the keys of banned or retired names."""
    kicks: tuple[Kick, ...] = ()
    broadcast: Broadcast | None = None

    def kicked(self, session: str | None, now: datetime) -> str | None:
        """The line a session an operator kicked (its presence id) is ended with, or None."""
        if session is None:
            return None
        for kick in self.kicks:
            if kick.session == session and kick.fresh(now):
                return kick.line
        return None

    def refusal(self, *, fingerprint: str | None, address: str | None, now: datetime,
                name: str | None = None) -> str | None:
        """The line a client with this key from this address is turned away with, or None to let it in."""
        if name is None and fingerprint is not None and self.names_of_keys:
            name = self.names_of_keys.get(fingerprint)
        if name is not None:
            key = name_key(name)
            for retirement in self.retired:
                if name_key(retirement.name) == key:
                    return retirement.line
        for ban in self.bans:
            if ban.active(now) and ban.covers(name=name, fingerprint=fingerprint, address=address):
                return ban.line
        return None

    def names_concerned(self) -> set[str]:
        """The names whose keys the server must know: banned or retired."""
        return {ban.target for ban in self.bans if ban.kind == "name"} | {r.name for r in self.retired}


def retired_name_keys(retired: Iterable[Retirement]) -> frozenset[str]:
    """The :func:`~.users.name_key` of every retired name (to leave them out of a board or a list)."""
    return frozenset(name_key(retirement.name) for retirement in retired)


def shown_name(name: str, retired: frozenset[str]) -> str:
    """``name`` as a board or a replay shows it: :data:`RETIRED_LABEL` for a retired name (``retired``: their
    :func:`retired_name_keys`).
    """
    return RETIRED_LABEL if name_key(name) in retired else name


__all__ = [
    "BAN_KINDS", "KICK_KEPT", "MAX_BROADCAST", "MAX_REASON", "RETIRED_LABEL", "Ban", "BanKind", "Broadcast", "Kick",
    "ModerationRefused", "Retirement", "Verdicts", "check_broadcast", "check_motd", "check_reason", "new_ban_id", "parse_duration", "parse_target", "retired_name_keys", "shown_name", "when",
]
