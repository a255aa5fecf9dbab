"""STAND-IN, to be replaced at merge by the browser sign-in built on its own branch (webauth).

Only the interface the web door (:mod:`.web`) calls, with no sign-in at all: every code is refused and
every cookie is a guest's. The lead keeps the real module at merge.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..domain.game import Refusal
from ..domain.store import Store

COOKIE = "wom_session"
COOKIE_MAX_AGE = 30 * 24 * 3600


class BrowserSignIn:
    """Browser sign-in: one-time link codes redeemed for a session cookie (stand-in: refuses every code)."""

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time) -> None:
        self._store = store
        self._clock = clock

    def redeem(self, code: str, *, tab: str, address: str) -> str:
        """A new session token for the name the code was issued to; Refusal with the reason to show."""
        raise Refusal("Browser sign-in is not available on this server yet.")

    def who(self, token: str | None) -> str | None:
        """The registered name a cookie's token signs in as, or None (a guest)."""
        return None
