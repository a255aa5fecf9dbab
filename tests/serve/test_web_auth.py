"""serve/web_auth.py: a browser code redeemed for a session token, and the token looked up (docs/serve.md)."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from wom_tui.domain.browser import BrowserSignInRefused
from wom_tui.domain.game import Refusal
from wom_tui.domain.store.folder.store import FolderStore
from wom_tui.serve.web_auth import COOKIE, COOKIE_MAX_AGE, BrowserSignIn

START = datetime(2026, 11, 23, 12, 0, tzinfo=timezone.utc).timestamp()


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def signin(tmp_path: Path) -> tuple[BrowserSignIn, FolderStore, Clock]:
    store = FolderStore(tmp_path)
    store.register("Alan")
    clock = Clock()
    return BrowserSignIn(store, clock=clock), store, clock


def test_a_code_signs_a_browser_in_for_thirty_days(signin) -> None:
    auth, store, clock = signin
    assert (COOKIE, COOKIE_MAX_AGE) == ("wom_session", 30 * 24 * 3600)
    code = store.issue_browser_code("Alan", now=datetime.fromtimestamp(clock.now, timezone.utc))
    token = auth.redeem(code, tab="t1", address="192.0.2.1")
    assert auth.who(token) == "Alan"
    assert token not in (Path(store.data_dir) / "browser.json").read_text()
    with pytest.raises(Refusal, match="wrong, used or expired"):
        auth.redeem(code, tab="t2", address="192.0.2.1")
    clock.now += COOKIE_MAX_AGE - 1
    assert auth.who(token) == "Alan"
    clock.now += 1
    assert auth.who(token) is None


def test_who_is_a_guest_for_no_junk_unknown_or_revoked_tokens(signin) -> None:
    auth, store, clock = signin
    token = auth.redeem(store.issue_browser_code("Alan", now=datetime.fromtimestamp(clock.now, timezone.utc)),
                        tab="t1", address="::1")
    for junk in (None, "", "not a token", "'; DROP TABLE wom_users; --", token[:-1] + ("A" if token[-1] != "A" else "B")):
        assert auth.who(junk) is None
    store.revoke_browser_sessions("Alan")
    assert auth.who(token) is None


def test_five_wrong_codes_end_a_tabs_tries_and_the_right_code_then_too(signin) -> None:
    auth, store, clock = signin
    code = store.issue_browser_code("Alan", now=datetime.fromtimestamp(clock.now, timezone.utc))
    for n in range(4):
        with pytest.raises(BrowserSignInRefused, match="wrong, used or expired.$"):
            auth.redeem("AAAA-AAAA", tab="t1", address="192.0.2.1")
    with pytest.raises(BrowserSignInRefused, match="last try"):
        auth.redeem("AAAA-AAAA", tab="t1", address="192.0.2.1")
    with pytest.raises(BrowserSignInRefused, match="Too many wrong codes in this tab"):
        auth.redeem(code, tab="t1", address="192.0.2.1")
    assert auth.who(auth.redeem(code, tab="t2", address="192.0.2.1")) == "Alan"  # the code was not used up


def test_an_address_cannot_get_round_the_tab_limit_with_new_tabs(signin) -> None:
    auth, store, clock = signin
    for n in range(20):
        with pytest.raises(BrowserSignInRefused, match="wrong"):
            auth.redeem("AAAA-AAAA", tab=f"t{n}", address="203.0.113.9")
    code = store.issue_browser_code("Alan", now=datetime.fromtimestamp(clock.now, timezone.utc))
    with pytest.raises(BrowserSignInRefused, match="your address"):
        auth.redeem(code, tab="new", address="203.0.113.9")
    clock.now += 600  # the tries leave the window (and the code expires: a new one)
    code = store.issue_browser_code("Alan", now=datetime.fromtimestamp(clock.now, timezone.utc))
    assert auth.who(auth.redeem(code, tab="new", address="203.0.113.9")) == "Alan"
