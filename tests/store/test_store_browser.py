"""Browser sign-in in the store (docs/serve.md, *Who you are in a browser*), on both stores: one-time codes
that work once for ten minutes, sessions kept as their tokens' hashes for 30 days, listed and revoked."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from wom_tui.domain.keys import KeyRejected
from wom_tui.domain.browser import BrowserSignInRefused, hash_session_token, new_session_token

from .workers import race_redeem_browser

FP_A = "SHA256:" + "A" * 43
NOW = datetime(2026, 11, 23, 12, 0, tzinfo=timezone.utc)


def token_hash() -> str:
    return hash_session_token(new_session_token())


def test_a_browser_code_works_once_for_ten_minutes_and_only_its_hash_is_kept(store_factory) -> None:
    store = store_factory()
    store.register("Alan", key=FP_A)
    with pytest.raises(BrowserSignInRefused, match="no user called Bob"):
        store.issue_browser_code("Bob", now=NOW)
    code = store.issue_browser_code("alan", now=NOW)
    before = store_factory.state()
    assert code not in repr(before) and code.replace("-", "") not in repr(before)
    other = store_factory()  # typed in a browser served by another server
    for wrong in ("", "AAAA-AAAA", code[:-1], store.issue_link_code(FP_A, now=NOW)):
        with pytest.raises(BrowserSignInRefused, match="wrong, used or expired"):
            other.redeem_browser_code(wrong, token_hash(), "192.0.2.1", now=NOW)
    with pytest.raises(BrowserSignInRefused, match="wrong, used or expired"):
        other.redeem_browser_code(code, token_hash(), "192.0.2.1", now=NOW + timedelta(minutes=10))
    with pytest.raises(KeyRejected, match="wrong, used or expired"):  # nor does a browser code link a key
        other.redeem_link_code(code, "SHA256:" + "B" * 43, now=NOW)
    assert store.user_for_key("SHA256:" + "B" * 43) is None

    token = new_session_token()
    session = other.redeem_browser_code(code.lower(), hash_session_token(token), "192.0.2.1\x1b[2J",
                                        now=NOW + timedelta(minutes=9))
    assert session.name == "Alan" and session.address == "192.0.2.1[2J"
    assert session.expires == NOW + timedelta(minutes=9, days=30)
    kept = repr(store_factory.state())
    assert token not in kept and hash_session_token(token) in kept
    with pytest.raises(BrowserSignInRefused, match="wrong, used or expired"):
        store.redeem_browser_code(code, token_hash(), "192.0.2.1", now=NOW + timedelta(minutes=9))
    assert [s.id for s in store.browser_sessions("ALAN", now=NOW)] == [session.id]


def test_a_session_signs_in_until_it_expires_or_is_revoked(store_factory) -> None:
    store = store_factory()
    store.register("Alan")
    store.register("Bob")
    hashes = {}
    for minute, name in ((0, "Alan"), (1, "Alan"), (2, "Bob")):
        hashes[minute] = token_hash()
        code = store.issue_browser_code(name, now=NOW)
        store.redeem_browser_code(code, hashes[minute], "198.51.100.7", now=NOW + timedelta(minutes=minute))
    later = NOW + timedelta(days=3)
    used = store_factory().use_browser_session(hashes[0], now=later)
    assert used is not None and used.name == "Alan" and used.last_used == later
    first, second = store.browser_sessions("Alan", now=later)
    assert first.last_used == later and second.last_used == NOW + timedelta(minutes=1)
    assert first.address == "198.51.100.7"
    assert store.use_browser_session(token_hash(), now=later) is None
    assert store.use_browser_session(hashes[0], now=NOW + timedelta(days=30)) is None  # expired
    assert store.browser_sessions("Alan", now=NOW + timedelta(days=31)) == []

    before = store_factory.state()
    with pytest.raises(BrowserSignInRefused, match="Alan has no browser session 000000000000"):
        store.revoke_browser_sessions("Alan", "000000000000")
    with pytest.raises(BrowserSignInRefused, match="12 hex digits"):
        store.revoke_browser_sessions("Alan", "nope")
    with pytest.raises(BrowserSignInRefused, match="no user called Carol"):
        store.revoke_browser_sessions("Carol")
    with pytest.raises(BrowserSignInRefused, match="Alan has no browser session"):  # Bob's is not Alan's
        store.revoke_browser_sessions("Alan", store.browser_sessions("Bob", now=later)[0].id)
    assert store_factory.state() == before

    assert store.revoke_browser_sessions("alan", first.id) == 1
    assert store.use_browser_session(hashes[0], now=later) is None
    assert store.use_browser_session(hashes[1], now=later) is not None
    assert store.revoke_browser_sessions("Alan") == 1
    assert store.revoke_browser_sessions("Alan") == 0
    assert store.use_browser_session(hashes[1], now=later) is None
    assert store.use_browser_session(hashes[2], now=later).name == "Bob"  # type: ignore[union-attr]


def test_a_name_keeps_its_twenty_most_recently_used_sessions(store_factory) -> None:
    store = store_factory()
    store.register("Alan")
    hashes = []
    for minute in range(21):
        hashes.append(token_hash())
        code = store.issue_browser_code("Alan", now=NOW)
        store.redeem_browser_code(code, hashes[-1], "192.0.2.1", now=NOW + timedelta(seconds=minute))
        if minute == 0:
            store.use_browser_session(hashes[0], now=NOW + timedelta(minutes=5))  # the first is used again
    kept = store.browser_sessions("Alan", now=NOW + timedelta(minutes=6))
    assert len(kept) == 20
    assert store.use_browser_session(hashes[1], now=NOW + timedelta(minutes=6)) is None
    assert store.use_browser_session(hashes[0], now=NOW + timedelta(minutes=6)) is not None


def test_two_processes_typing_one_browser_code_at_once_exactly_one_is_signed_in(store_factory) -> None:
    for _ in range(3):
        place = store_factory.fresh()
        where = getattr(place, "url", None) or str(place.data_dir)
        place.register("Alan")
        code = place.issue_browser_code("Alan")
        tokens = [token_hash(), token_hash()]
        store_factory.close()
        outcomes = race_redeem_browser(where, code, tokens)
        assert sorted(outcomes.values()) == ["Alan", "That code is wrong, used or expired."], outcomes
        [winner] = [token for token, said in outcomes.items() if said == "Alan"]
        assert [s.token_hash for s in store_factory(where).browser_sessions("Alan")] == [winner]


def test_a_damaged_browser_file_is_named_and_left_alone(tmp_path) -> None:
    from wom_tui.domain.store import StoreError
    from wom_tui.domain.store.folder.store import FolderStore

    store = FolderStore(tmp_path)
    store.register("Alan")
    damaged = b'{"schema": 1, "codes": [], "sessions": [{"id": "x"}]}'
    (tmp_path / "browser.json").write_bytes(damaged)
    for attempt in (store.check, lambda: store.issue_browser_code("Alan"),
                    lambda: store.use_browser_session(token_hash())):
        with pytest.raises(StoreError, match="browser.json"):
            attempt()
    assert (tmp_path / "browser.json").read_bytes() == damaged


def test_revoking_voids_every_unused_code_of_the_name(store_factory) -> None:
    store = store_factory()
    store.register("Alan")
    store.register("Bob")
    thief = token_hash()
    store.redeem_browser_code(store.issue_browser_code("Alan", now=NOW), thief, "203.0.113.66", now=NOW)
    made_by_thief = store.issue_browser_code("Alan", now=NOW + timedelta(minutes=1))  # `b` in the stolen tab
    bobs = store.issue_browser_code("Bob", now=NOW + timedelta(minutes=1))
    assert store.revoke_browser_sessions("Alan") == 1
    assert store.use_browser_session(thief, now=NOW + timedelta(minutes=2)) is None
    with pytest.raises(BrowserSignInRefused, match="wrong, used or expired"):
        store_factory().redeem_browser_code(made_by_thief, token_hash(), "203.0.113.66", now=NOW + timedelta(minutes=2))
    # Another name's code is not touched.
    assert store.redeem_browser_code(bobs, token_hash(), "192.0.2.1", now=NOW + timedelta(minutes=2)).name == "Bob"
