"""Who is playing: local trust, a served key and its name, or a guest; keys on users.

For players: docs/serve.md, *Who you are: your SSH key*.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wom_tui.domain.identity import Identity
from wom_tui.domain.keys import KeyRejected, check_fingerprint, normalise_link_code
from wom_tui.domain.users import PendingLink, User, UserRegistry

FP_A = "SHA256:" + "a" * 43
FP_B = "SHA256:" + "b+/" * 14 + "b"


def test_local_play_trusts_the_keyboard() -> None:
    local = Identity.local()
    assert not local.served and local.may_register and not local.is_guest
    assert local.seatable(["Alan", "Bob"]) == ["Alan", "Bob"]


def test_a_served_key_seats_only_its_own_name_and_the_computers() -> None:
    alan = Identity.key(FP_A, "Alan")
    assert alan.seatable(["Bob", "Alan", "Carol"]) == ["Alan"]
    assert alan.may_seat("aLAN") and alan.may_seat("HAL9000") and alan.may_seat("viki")
    assert not alan.may_seat("Bob")
    assert not alan.may_register and alan.label == "Alan"


def test_a_new_key_registers_and_a_guest_does_not() -> None:
    new = Identity.key(FP_A)
    assert new.may_register and not new.signed_in and new.label == "New player"
    assert new.seatable(["Alan"]) == [] and new.may_seat("HAL9000")
    assert new.signed_in_as("Alan").may_seat("Alan")
    guest = Identity.guest()
    assert guest.is_guest and not guest.may_register and guest.label == "Guest"
    assert guest.seatable(["Alan"]) == [] and not guest.may_play_solo_as("Alan")


def test_an_identity_cannot_be_built_inconsistent() -> None:
    with pytest.raises(ValueError):
        Identity(served=False, fingerprint=FP_A)
    with pytest.raises(ValueError):
        Identity(served=True, name="Alan")
    with pytest.raises(KeyRejected):
        Identity.key("SHA256:tooshort")


@pytest.mark.parametrize("bad", ["", "MD5:aa", "SHA256:" + "a" * 42, "SHA256:" + "a" * 44, "SHA256:" + "a" * 42 + "\n"])
def test_fingerprints_are_checked(bad: str) -> None:
    with pytest.raises(KeyRejected):
        check_fingerprint(bad)


def test_users_carry_keys_through_json_and_schema_1_users_have_none() -> None:
    alan = User("Alan", 9, 1, [FP_A, FP_B])
    assert User.from_json(alan.as_json()) == alan
    assert User.from_json({"name": "Alan", "score": 9, "games": 1}).keys == ()
    for bad in ({"name": "A", "score": 0, "games": 0, "keys": FP_A}, {"name": "A", "score": 0, "games": 0, "keys": [FP_A, FP_A]}):
        with pytest.raises(ValueError):
            User.from_json(bad)


def test_the_registry_keeps_a_key_to_one_user() -> None:
    registry = UserRegistry([User("Alan", keys=[FP_A]), User("Bob")])
    assert registry.holder_of(FP_A).name == "Alan"  # type: ignore[union-attr]
    with pytest.raises(KeyRejected, match="already belongs to Alan"):
        registry.bind_key("Bob", FP_A)
    with pytest.raises(KeyRejected, match="already belongs to Alan"):
        registry.register("Carol", FP_A)
    assert "Carol" not in registry and registry.get("Bob").keys == ()  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="bound to both"):
        UserRegistry([User("Alan", keys=[FP_A]), User("Bob", keys=[FP_A])])


@given(st.text(alphabet="abcdefghjkmnpqrstuvwxyz23456789- ", max_size=12))
def test_typing_a_code_ignores_case_spaces_and_dashes(typed: str) -> None:
    assert normalise_link_code(typed) == normalise_link_code(typed.upper().replace("-", " "))


def test_each_code_is_new() -> None:
    from datetime import datetime, timezone

    now = datetime(2026, 1, 1, tzinfo=timezone.utc)
    codes = {PendingLink.issue("Alan", now)[0] for _ in range(200)}
    assert len(codes) == 200


def test_a_browser_tab_signed_in_by_its_cookie_is_the_name_without_a_key():
    tab = Identity.browser_tab("Ada")
    assert tab.signed_in and not tab.is_guest and tab.label == "Ada"
    assert tab.fingerprint is None and not tab.may_register
    assert tab.preference_key == Identity.key("SHA256:" + "A" * 43, "Ada").preference_key
    assert tab.may_seat("Ada") and not tab.may_seat("Bob")
    with pytest.raises(ValueError):
        Identity(served=False, name="Ada", browser=True)  # only the server signs a browser in
    with pytest.raises(ValueError):
        Identity(served=True, name="Ada")  # a name without a key or a browser session
