"""Browser sign-in for ``wom-tui serve --web``: one-time codes redeemed for a session cookie.

How it works for operators and players: docs/serve.md and docs/play.md, *Who you are in a browser*.
The rules (code lifetime, tries per tab and per address, token size and lifetime) are in
:mod:`wom_tui.domain.browser`; the codes and sessions are kept by the store
(:class:`~wom_tui.domain.store.api.BrowserSessions`), so every server sharing a store honours them.

The web server asks :meth:`BrowserSignIn.who` for a request's cookie and hands the name it gets
to the game process itself: the page never says who it is. Both methods call the store, which
blocks (a file under a lock, or a database round trip): call them from a thread
(``asyncio.to_thread``), not on the event loop.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime, timezone

from ..domain.browser import (
    SESSION_LIFETIME,
    BrowserSignInRefused,
    SignInLimits,
    hash_session_token,
    looks_like_token,
    new_session_token,
)
from ..domain.store.api import Store

COOKIE = "wom_session"
"""The session cookie's name; set HttpOnly, SameSite=Strict, Secure over HTTPS, Path=/."""
COOKIE_MAX_AGE = int(SESSION_LIFETIME.total_seconds())
"""The cookie's Max-Age in seconds: 30 days, as long as the session it holds."""


class BrowserSignIn:
    """Browser sign-in: one-time link codes redeemed for a session cookie.

    One per server process: the limits on tries (per tab, per address) are counted in its memory.
    """

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time, network_attempts: int = 0,
                 total_attempts: int = 0) -> None:
        self.store = store
        self.clock = clock
        self.limits = SignInLimits(network_attempts=network_attempts, total_attempts=total_attempts)

    def _now(self) -> datetime:
        return datetime.fromtimestamp(self.clock(), timezone.utc)

    def redeem(self, code: str, *, tab: str, address: str) -> str:
        """A new session token (the cookie's value) for the name the code was issued to; Refusal (with the
        reason to show) for a wrong/expired/used code, too many tries in this tab, or too many from this address.

        The token is made here from :mod:`secrets`; the store keeps only its hash. ``StoreError`` if the
        store cannot be used (nothing counted against the tab then).
        """
        self.limits.attempt(tab, address, self.clock())
        token = new_session_token()
        try:
            self.store.redeem_browser_code(code, hash_session_token(token), address, self._now())
        except BrowserSignInRefused:
            self.limits.wrong(tab)
            if self.limits.wrong_left(tab) == 0:
                raise BrowserSignInRefused(
                    "That code is wrong, used or expired, and that was this tab's last try. "
                    "Ask for a new code and open the page again.") from None
            raise
        return token

    def who(self, token: str | None) -> str | None:
        """The registered name a cookie's token signs in as, or None (guest; unknown, expired or revoked).

        A value that is not shaped like a token is not looked up. ``StoreError`` if the store cannot be read.
        """
        if not looks_like_token(token):
            return None
        assert token is not None
        session = self.store.use_browser_session(hash_session_token(token), self._now())
        return None if session is None else session.name


__all__ = ["COOKIE", "COOKIE_MAX_AGE", "BrowserSignIn"]
