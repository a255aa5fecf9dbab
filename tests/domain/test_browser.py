"""Browser sign-in rules (docs/serve.md, *Who you are in a browser*): tokens, sessions, the limits on tries."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wom_tui.domain.browser import (
    ADDRESS_ATTEMPTS,
    ADDRESS_WINDOW,
    MAX_WRONG_PER_TAB,
    BrowserSession,
    BrowserSignInRefused,
    SignInLimits,
    network_key,
    clean_address,
    hash_session_token,
    keep_sessions,
    looks_like_token,
    new_session_token,
)

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=timezone.utc)


def test_tokens_are_fresh_and_only_their_hash_is_kept() -> None:
    tokens = {new_session_token() for _ in range(100)}
    assert len(tokens) == 100 and all(looks_like_token(token) for token in tokens)
    token = tokens.pop()
    assert len(hash_session_token(token)) == 64 and token not in hash_session_token(token)
    for junk in (None, "", "x" * 43 + "!", "a" * 44, 42):
        assert not looks_like_token(junk)


@given(st.text())
def test_an_address_is_kept_printable_and_short(address: str) -> None:
    kept = clean_address(address)
    assert kept and len(kept) <= 64 and all(" " < ch < "\x7f" for ch in kept)


def test_a_session_round_trips_and_refuses_bad_data() -> None:
    session = BrowserSession.start("Alan", hash_session_token(new_session_token()), "::1", NOW)
    assert BrowserSession.from_json(session.as_json()) == session
    assert session.valid_at(NOW + timedelta(days=29, hours=23)) and not session.valid_at(NOW + timedelta(days=30))
    assert not session.stale_use(NOW + timedelta(seconds=59)) and session.stale_use(NOW + timedelta(minutes=1))
    assert session.used_at(NOW - timedelta(days=1)).last_used == NOW
    for key, value in (("token_hash", "abc"), ("id", "x"), ("name", "[/]"), ("created", "yesterday"), ("address", "a b")):
        with pytest.raises((ValueError, BrowserSignInRefused)):
            BrowserSession.from_json({**session.as_json(), key: value})


def test_keep_sessions_drops_expired_and_keeps_the_most_recently_used_twenty() -> None:
    sessions = [BrowserSession.start("Alan", hash_session_token(new_session_token()), "::1", NOW + timedelta(minutes=i))
                for i in range(25)]
    sessions[0] = sessions[0].used_at(NOW + timedelta(hours=1))
    kept = keep_sessions(sessions, NOW + timedelta(hours=2))
    assert len(kept) == 20 and kept[0] == sessions[0] and sessions[1] not in kept
    assert keep_sessions(sessions, NOW + timedelta(days=31)) == []


def test_a_tab_gets_five_wrong_codes_and_an_address_twenty_tries_per_ten_minutes() -> None:
    limits = SignInLimits()
    for _ in range(MAX_WRONG_PER_TAB):
        limits.attempt("tab1", "192.0.2.1", 0.0)
        limits.wrong("tab1")
    with pytest.raises(BrowserSignInRefused, match="this tab"):
        limits.attempt("tab1", "192.0.2.1", 1.0)
    for tab in range(ADDRESS_ATTEMPTS - MAX_WRONG_PER_TAB):  # new tabs do not get round the address's limit
        limits.attempt(f"tab{tab + 2}", "192.0.2.1", 2.0)
    with pytest.raises(BrowserSignInRefused, match="your address"):
        limits.attempt("fresh", "192.0.2.1", 3.0)
    limits.attempt("fresh", "192.0.2.2", 3.0)  # another address is not held up
    limits.attempt("fresh", "192.0.2.1", ADDRESS_WINDOW + 0.5)  # the first tries have left the window


def test_the_limits_forget_the_oldest_beyond_their_bound() -> None:
    limits = SignInLimits()
    limits.MAX_TRACKED = 3  # type: ignore[misc]
    for n in range(10):
        limits.attempt(f"tab{n}", f"addr{n}", 0.0)
        limits.wrong(f"tab{n}")
    assert len(limits._attempts) == 3 and len(limits._wrong) == 3


@given(st.lists(st.tuples(st.sampled_from("abc"), st.sampled_from("xy"), st.floats(0, 5), st.booleans()), max_size=80))
def test_no_tab_or_address_ever_gets_more_tries_than_allowed(events) -> None:
    limits = SignInLimits(wrong_per_tab=3, address_attempts=4, address_window=10.0)
    now, accepted, wrong = 0.0, [], {}
    for tab, address, step, right in events:
        now += step
        try:
            limits.attempt(tab, address, now)
        except BrowserSignInRefused:
            continue
        accepted.append((address, now))
        if not right:
            limits.wrong(tab)
            wrong[tab] = wrong.get(tab, 0) + 1
    assert all(count <= 3 for count in wrong.values())
    for address, at in accepted:
        assert sum(1 for a, t in accepted if a == address and at - 10.0 < t <= at) <= 4


def test_a_network_and_everyone_together_are_limited_too() -> None:
    # A /24 with an address for every guess: 1,000 guesses in 2.4 s once got through, 20 per address.
    limits = SignInLimits(network_attempts=60, total_attempts=100)
    allowed = 0
    for n in range(1000):
        try:
            limits.attempt(f"tab{n}", f"198.51.100.{n % 250}", n / 400)
        except BrowserSignInRefused as refusal:
            assert "your network" in refusal.reason
            continue
        allowed += 1
    assert allowed == 60
    for n in range(40):  # other networks still get in, up to everyone's ceiling
        limits.attempt(f"other{n}", f"203.0.{n}.1", 3.0)
    with pytest.raises(BrowserSignInRefused, match="this arcade"):
        limits.attempt("late", "192.0.2.77", 3.0)
    limits.attempt("late", "192.0.2.77", 3.0 + ADDRESS_WINDOW)  # the window moves on
    assert network_key("2001:db8::1") == network_key("2001:db8::ffff") == "2001:db8::/64"
    assert network_key("::ffff:198.51.100.7") == "198.51.100.0/24"
