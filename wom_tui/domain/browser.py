"""Who you are in a browser: one-time sign-in codes, session tokens and the limits on guessing.

For operators: docs/serve.md, *Who you are in a browser*; for players: docs/play.md.

A browser tab starts as a guest. A signed-in SSH session (or the operator's ``wom-tui users
link-browser NAME``) shows a one-time code, made and checked as the codes that link a key
(:mod:`.keys`: ``ABCD-EFGH``, valid :data:`BROWSER_CODE_LIFETIME`, once, only its hash kept) but
kept apart from them, so a code for one cannot be used for the other. A browser that types a
right code gets a session token, the cookie's value: :data:`TOKEN_BYTES` random bytes, of which the
store keeps only the SHA-256 (:func:`hash_session_token`), so reading the data folder or the
database gives nobody a working cookie. A session lasts :data:`SESSION_LIFETIME` from sign-in and
can be revoked at any time (``wom-tui users revoke``).

Codes, tokens and session ids come from :mod:`secrets`: they are credentials, not game
randomness, and must never come from the seeded game RNG (replaying a session with ``--seed``
must not replay a credential).

Guessing is limited (:class:`SignInLimits`): a tab may type :data:`MAX_WRONG_PER_TAB`
wrong codes, and an address may try :data:`ADDRESS_ATTEMPTS` codes, right or wrong, in any
:data:`ADDRESS_WINDOW` seconds, however many tabs it opens; so may a network (its IPv4 /24 or IPv6 /64,
``network_attempts``), and every browser together (``total_attempts``: however many addresses a guesser
has, each holder of a live code faces at most that many guesses a window). The server's settings give the
last two.
"""

from __future__ import annotations

import hashlib
import ipaddress
import re
import secrets
from collections import OrderedDict, deque
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from .game import Refusal
from .keys import LINK_CODE_LIFETIME
from .users import check_name

BROWSER_CODE_LIFETIME = LINK_CODE_LIFETIME
"""How long a code shown for a browser may be typed: ten minutes, as a key's link code (its pending form
is the same :class:`~.users.PendingLink`, kept apart from the keys' codes)."""
SESSION_LIFETIME = timedelta(days=30)
"""How long a browser stays signed in after typing a code (the cookie's Max-Age)."""
TOKEN_BYTES = 32
"""256 random bits per session token: nobody guesses one."""
MAX_WRONG_PER_TAB = 5
"""Wrong codes one browser tab may type; after that it stays a guest (another tab is limited by address)."""
ADDRESS_ATTEMPTS = 20
"""Codes, right or wrong, one address may try per :data:`ADDRESS_WINDOW` (many people may share an address)."""
ADDRESS_WINDOW = 600.0
"""Seconds over which :data:`ADDRESS_ATTEMPTS` are counted."""
MAX_SESSIONS_PER_NAME = 20
"""Browser sessions one name keeps; signing in a 21st browser ends the least recently used."""
LAST_USED_STEP = timedelta(minutes=1)
"""A session's "last used" is written again only when older than this (not at every tab opened)."""
MAX_ADDRESS_LENGTH = 64
"""An address is kept to show the player where a session came from; longer is cut."""

_HASH = re.compile(r"[0-9a-f]{64}")
_SESSION_ID = re.compile(r"[0-9a-f]{12}")
_TOKEN = re.compile(r"[A-Za-z0-9_-]{43}")


class BrowserSignInRefused(Refusal):
    """A browser code or session that cannot be used; ``reason`` is shown to the person."""


WRONG_CODE = "That code is wrong, used or expired."
TOO_MANY_IN_TAB = "Too many wrong codes in this tab. Ask for a new code and open the page again."
TOO_MANY_FROM_ADDRESS = "Too many sign-in attempts from your address. Wait a few minutes and try again."
TOO_MANY_FROM_NETWORK = "Too many sign-in attempts from your network. Wait a few minutes and try again."
TOO_MANY_IN_ALL = "Too many sign-in attempts on this arcade just now. Wait a few minutes and try again."


def network_key(address: str) -> str:
    """The network ``address`` counts in: its IPv4 /24 or IPv6 /64 (an IPv4-mapped IPv6 address as IPv4);
    ``address`` itself if it is not an address.
    """
    try:
        parsed = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        parsed = parsed.ipv4_mapped
    return str(ipaddress.ip_network(f"{parsed}/{24 if parsed.version == 4 else 64}", strict=False))


def new_session_token() -> str:
    """A fresh session token (the cookie's value): 43 URL-safe characters from :mod:`secrets`."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def looks_like_token(token: object) -> bool:
    """True if ``token`` has the shape :func:`new_session_token` gives (anything else is not looked up)."""
    return isinstance(token, str) and _TOKEN.fullmatch(token) is not None


def hash_session_token(token: str) -> str:
    """What the store keeps of a token: its SHA-256, 64 hex digits."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_session_id() -> str:
    """A session's public id (12 hex digits), shown by ``wom-tui users sessions`` to revoke it by; not a secret."""
    return secrets.token_hex(6)


def check_session_id(session_id: str) -> str:
    """``session_id`` if it looks like one (12 hex digits), else BrowserSignInRefused."""
    if not isinstance(session_id, str) or _SESSION_ID.fullmatch(session_id) is None:
        raise BrowserSignInRefused("A browser session id is 12 hex digits, as `wom-tui users sessions` shows it.")
    return session_id


def clean_address(address: str) -> str:
    """An address as kept with a session: printable ASCII only, at most :data:`MAX_ADDRESS_LENGTH` characters."""
    text = "".join(ch for ch in str(address) if " " < ch < "\x7f")
    return text[:MAX_ADDRESS_LENGTH] or "unknown"


def _aware(value: datetime, what: str) -> datetime:
    if not isinstance(value, datetime) or value.tzinfo is None:
        raise ValueError(f"a browser session's {what} must be a time with a time zone")
    return value


@dataclass(frozen=True)
class BrowserSession:
    """One signed-in browser: its public id, whose it is, its token's hash, when and where it began."""

    id: str
    name: str
    token_hash: str
    created: datetime
    last_used: datetime
    expires: datetime
    address: str

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or _SESSION_ID.fullmatch(self.id) is None:
            raise ValueError("a browser session id must be 12 hex digits")
        check_name(self.name)
        if not isinstance(self.token_hash, str) or _HASH.fullmatch(self.token_hash) is None:
            raise ValueError("a browser session's token hash must be 64 hex digits")
        for what in ("created", "last_used", "expires"):
            _aware(getattr(self, what), what.replace("_", " "))
        if not isinstance(self.address, str) or clean_address(self.address) != self.address:
            raise ValueError("a browser session's address must be printable ASCII")

    @classmethod
    def start(cls, name: str, token_hash: str, address: str, now: datetime) -> BrowserSession:
        """A session for ``name`` beginning ``now`` (a new id), lasting :data:`SESSION_LIFETIME`."""
        return cls(new_session_id(), name, token_hash, now, now, now + SESSION_LIFETIME, clean_address(address))

    def valid_at(self, now: datetime) -> bool:
        """True until the session expires."""
        return now < self.expires

    def used_at(self, now: datetime) -> BrowserSession:
        """The session with "last used" moved to ``now`` (never backwards)."""
        return replace(self, last_used=max(self.last_used, now))

    def stale_use(self, now: datetime) -> bool:
        """True if "last used" is worth writing again at ``now`` (more than :data:`LAST_USED_STEP` old)."""
        return now - self.last_used >= LAST_USED_STEP

    def as_json(self) -> dict[str, Any]:
        """Plain JSON data."""
        return {"id": self.id, "name": self.name, "token_hash": self.token_hash, "created": self.created.isoformat(),
                "last_used": self.last_used.isoformat(), "expires": self.expires.isoformat(), "address": self.address}

    @classmethod
    def from_json(cls, data: Any) -> BrowserSession:
        """Rebuild from :meth:`as_json` data; ValueError if it is not one."""
        fields = {"id", "name", "token_hash", "created", "last_used", "expires", "address"}
        if not isinstance(data, dict) or set(data) != fields:
            raise ValueError(f"a browser session must be an object with exactly {', '.join(sorted(fields))}")
        times = {}
        for what in ("created", "last_used", "expires"):
            if not isinstance(data[what], str):
                raise ValueError(f"a browser session's {what} must be an ISO-8601 string")
            times[what] = datetime.fromisoformat(data[what])
        return cls(data["id"], data["name"], data["token_hash"], times["created"], times["last_used"],
                   times["expires"], data["address"])


def keep_sessions(sessions: list[BrowserSession], now: datetime) -> list[BrowserSession]:
    """Of one name's sessions, those still kept at ``now``: unexpired, at most :data:`MAX_SESSIONS_PER_NAME`
    (the most recently used), oldest first.
    """
    valid = [session for session in sessions if session.valid_at(now)]
    newest = sorted(valid, key=lambda session: session.last_used, reverse=True)[:MAX_SESSIONS_PER_NAME]
    return sorted(newest, key=lambda session: session.created)


class SignInLimits:
    """How many codes a tab and an address may still try: counted in memory, by the one server process.

    ``tab`` counts wrong codes; ``address`` counts every attempt in a sliding window. Both tables are
    bounded (:data:`MAX_TRACKED`), forgetting the oldest, so a flood of new tabs or addresses cannot grow
    the server's memory.
    """

    MAX_TRACKED = 10_000

    def __init__(self, *, wrong_per_tab: int = MAX_WRONG_PER_TAB, address_attempts: int = ADDRESS_ATTEMPTS,
                 address_window: float = ADDRESS_WINDOW, network_attempts: int = 0, total_attempts: int = 0) -> None:
        self.wrong_per_tab = wrong_per_tab
        self.address_attempts = address_attempts
        self.address_window = address_window
        self.network_attempts = network_attempts
        """Attempts one network may make per window (0: no limit of its own)."""
        self.total_attempts = total_attempts
        """Attempts all browsers together may make per window (0: no limit)."""
        self._wrong: OrderedDict[str, int] = OrderedDict()
        self._attempts: OrderedDict[str, deque[float]] = OrderedDict()

    def _times(self, key: str, now: float) -> deque[float]:
        times = self._attempts.get(key)
        if times is None:
            times = self._attempts[key] = deque()
        self._attempts.move_to_end(key)
        while times and times[0] <= now - self.address_window:
            times.popleft()
        return times

    def attempt(self, tab: str, address: str, now: float) -> None:
        """Count one attempt from ``tab`` at ``address``; BrowserSignInRefused (not counted) if the tab's, the
        address's, its network's or everyone's attempts are used up.
        """
        if self._wrong.get(tab, 0) >= self.wrong_per_tab:
            raise BrowserSignInRefused(TOO_MANY_IN_TAB)
        counters = [(self._times(f"address {address}", now), self.address_attempts, TOO_MANY_FROM_ADDRESS)]
        if self.network_attempts > 0:
            counters.append((self._times(f"network {network_key(address)}", now), self.network_attempts,
                             TOO_MANY_FROM_NETWORK))
        if self.total_attempts > 0:
            counters.append((self._times("all", now), self.total_attempts, TOO_MANY_IN_ALL))
        for times, limit, refusal in counters:
            if len(times) >= limit:
                raise BrowserSignInRefused(refusal)
        for times, _limit, _refusal in counters:
            times.append(now)
        while len(self._attempts) > self.MAX_TRACKED:
            oldest = next(iter(self._attempts))
            if oldest == "all":
                self._attempts.move_to_end(oldest)
                oldest = next(iter(self._attempts))
            del self._attempts[oldest]

    def wrong(self, tab: str) -> None:
        """A wrong code from ``tab``."""
        self._wrong[tab] = self._wrong.get(tab, 0) + 1
        self._wrong.move_to_end(tab)
        while len(self._wrong) > self.MAX_TRACKED:
            self._wrong.popitem(last=False)

    def wrong_left(self, tab: str) -> int:
        """Wrong codes ``tab`` may still type."""
        return max(0, self.wrong_per_tab - self._wrong.get(tab, 0))


__all__ = [
    "ADDRESS_ATTEMPTS", "ADDRESS_WINDOW", "BROWSER_CODE_LIFETIME", "MAX_SESSIONS_PER_NAME", "MAX_WRONG_PER_TAB",
    "SESSION_LIFETIME", "TOKEN_BYTES", "BrowserSession", "BrowserSignInRefused", "SignInLimits", "check_session_id",
    "clean_address", "hash_session_token", "keep_sessions", "looks_like_token", "network_key", "new_session_id",
    "new_session_token",
]
