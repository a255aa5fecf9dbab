"""SSH key fingerprints and the one-time codes that link another key to a name.

For players: docs/serve.md, *Who you are: your SSH key*.

A registered name may hold several keys, named by their SHA256 fingerprints as ``ssh`` prints
them (``SHA256:`` and 43 base64 characters). A signed-in player links a second key with a
one-time code: it is valid for :data:`LINK_CODE_LIFETIME`, works once, and only its hash is
kept, so reading the data folder does not give anyone a working code (the code waiting for a
name is :class:`~wom_tui.domain.users.PendingLink`, beside the users whose names it checks).

The codes come from :mod:`secrets`, never from the seeded game RNG: replaying a session with
``--seed`` must not replay a credential.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from datetime import timedelta

from .game import Refusal

LINK_CODE_LIFETIME = timedelta(minutes=10)
LINK_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""No 0/O, 1/I/L: a code is read off one screen and typed on another."""
LINK_CODE_LENGTH = 8
"""8 of 31 symbols is about 40 bits; a code lives 10 minutes and input is throttled."""

_FINGERPRINT = re.compile(r"SHA256:[A-Za-z0-9+/]{43}")


class KeyRejected(Refusal):
    """A key, fingerprint or link code that cannot be used; ``reason`` (and ``str(exc)``) is shown to the person."""


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


__all__ = [
    "LINK_CODE_LIFETIME",
    "KeyRejected",
    "check_fingerprint",
    "hash_link_code",
    "new_link_code",
    "normalise_link_code",
]


_KEY_TYPES = (b"ssh-ed25519", b"ssh-rsa", b"ssh-dss", b"ecdsa-sha2-", b"sk-ssh-ed25519", b"sk-ecdsa-sha2-")


def fingerprints_in(authorized_keys: str) -> set[str]:
    """The SHA256 fingerprints (as ssh shows them) of the public keys in OpenSSH ``authorized_keys`` text
    (options, comments and lines that hold no key are passed over).
    """
    import base64
    import binascii

    found = set()
    for line in authorized_keys.splitlines():
        if line.lstrip().startswith("#"):
            continue
        for token in line.split():
            if len(token) < 60 or not token.startswith("AAAA"):
                continue
            try:
                blob = base64.b64decode(token, validate=True)
            except (binascii.Error, ValueError):
                continue
            size = int.from_bytes(blob[:4], "big")
            if blob[4:4 + size].startswith(_KEY_TYPES):
                digest = base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")
                found.add(f"SHA256:{digest}")
    return found
