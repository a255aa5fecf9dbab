"""SSH key fingerprints and the one-time codes that link another key to a name (issue 10).

A registered name may hold several keys, named by their SHA256 fingerprints as ``ssh`` prints
them (``SHA256:`` and 43 base64 characters). A signed-in player links a second key with a
one-time code: it is valid for :data:`LINK_CODE_LIFETIME`, works once, and only its hash is
kept, so reading the data folder does not give anyone a working code.

The codes come from :mod:`secrets`, never from the seeded game RNG: replaying a session with
``--seed`` must not replay a credential.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

LINK_CODE_LIFETIME = timedelta(minutes=10)
LINK_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""No 0/O, 1/I/L: a code is read off one screen and typed on another."""
LINK_CODE_LENGTH = 8
"""8 of 31 symbols is about 40 bits; a code lives 10 minutes and input is throttled."""

_FINGERPRINT = re.compile(r"SHA256:[A-Za-z0-9+/]{43}")
_CODE_HASH = re.compile(r"[0-9a-f]{64}")


class KeyRejected(ValueError):
    """A key, fingerprint or link code that cannot be used; ``str(exc)`` is the reason for a person."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def check_fingerprint(fingerprint: str) -> str:
    """Return ``fingerprint`` if it looks like ``SHA256:<43 base64 characters>``, else raise KeyRejected."""
    if not isinstance(fingerprint, str) or _FINGERPRINT.fullmatch(fingerprint) is None:
        raise KeyRejected("A key fingerprint looks like SHA256: followed by 43 letters, digits, + or /.")
    return fingerprint


def new_link_code() -> str:
    """A fresh one-time code, shown as ``ABCD-EFGH``."""
    raw = "".join(secrets.choice(LINK_CODE_ALPHABET) for _ in range(LINK_CODE_LENGTH))
    return f"{raw[:4]}-{raw[4:]}"


def normalise_link_code(typed: str) -> str:
    """What a typed code means: case, spaces and dashes do not matter."""
    return "".join(ch for ch in typed.upper() if ch not in " -")


def hash_link_code(code: str) -> str:
    """The hash kept in the data folder instead of the code."""
    return hashlib.sha256(normalise_link_code(code).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class PendingLink:
    """A one-time code waiting to be typed: whose name it links to, its hash, and when it expires."""

    name: str
    code_hash: str
    expires: datetime

    def __post_init__(self) -> None:
        from .users import check_name

        check_name(self.name)
        if not isinstance(self.code_hash, str) or _CODE_HASH.fullmatch(self.code_hash) is None:
            raise ValueError("a link code hash must be 64 hex digits")
        if not isinstance(self.expires, datetime) or self.expires.tzinfo is None:
            raise ValueError("a link code's expiry must be a time with a time zone")

    @classmethod
    def issue(cls, name: str, now: datetime) -> tuple[str, PendingLink]:
        """A new code for ``name`` and what to keep of it, valid until ``now`` + 10 minutes."""
        code = new_link_code()
        return code, cls(name, hash_link_code(code), now + LINK_CODE_LIFETIME)

    def matches(self, typed: str, now: datetime) -> bool:
        """True if ``typed`` is this code and it has not expired at ``now``."""
        return now < self.expires and secrets.compare_digest(self.code_hash, hash_link_code(typed))

    def as_json(self) -> dict[str, Any]:
        """Plain JSON data."""
        return {"name": self.name, "code_hash": self.code_hash, "expires": self.expires.isoformat()}

    @classmethod
    def from_json(cls, data: Any) -> PendingLink:
        """Rebuild from :meth:`as_json` data; ValueError if it is not one."""
        if not isinstance(data, dict) or set(data) != {"name", "code_hash", "expires"}:
            raise ValueError("a link code must be an object with exactly name, code_hash and expires")
        if not isinstance(data["expires"], str):
            raise ValueError("a link code's expiry must be an ISO-8601 string")
        return cls(data["name"], data["code_hash"], datetime.fromisoformat(data["expires"]))


__all__ = [
    "LINK_CODE_LIFETIME",
    "KeyRejected",
    "PendingLink",
    "check_fingerprint",
    "hash_link_code",
    "new_link_code",
    "normalise_link_code",
]
