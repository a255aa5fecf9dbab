"""Keys per user and link codes: users.json schema 2 upgraded from schema 1, and, on both
stores through ``store_factory``, keys unique across users and single-use link codes."""

from __future__ import annotations

import json
import shutil
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from wom_tui.domain.keys import KeyRejected, hash_link_code
from wom_tui.domain.store import StoreError
from wom_tui.domain.store.folder.store import FolderStore as Store

from .helpers import snapshot

SCHEMA1_FOLDER = Path(__file__).parent / "data" / "schema1"
"""A data folder written by wom-tui before keys per user (commit 3e5f4a9): three users, one game, one record."""

FP_A = "SHA256:" + "A" * 43
FP_B = "SHA256:" + "B" * 43
FP_C = "SHA256:" + "C" * 43
NOW = datetime(2026, 11, 23, 12, 0, tzinfo=timezone.utc)


@pytest.fixture
def old_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    shutil.copytree(SCHEMA1_FOLDER, folder)
    return folder


def test_a_schema_1_folder_is_read_as_users_without_keys_and_left_alone(old_folder: Path) -> None:
    before = snapshot(old_folder)
    store = Store(old_folder)
    store.check()
    assert [(u.name, u.score, u.games, u.keys) for u in store.users()] == [
        ("Alan", 9, 1, ()), ("Bob", 0, 0, ()), ("Ada Lovelace", 0, 0, ()),
    ]
    assert store.user_for_key(FP_A) is None
    assert snapshot(old_folder) == before


def test_the_first_write_upgrades_to_schema_2_and_loses_nothing(old_folder: Path) -> None:
    before = snapshot(old_folder)
    old_users = json.loads((old_folder / "users.json").read_text())
    store = Store(old_folder)
    store.bind_key("alan", FP_A)  # any case finds the name

    new_users = json.loads((old_folder / "users.json").read_text())
    assert old_users["schema"] == 1 and new_users["schema"] == 2
    assert new_users["recent_games"] == old_users["recent_games"]
    assert [{k: v for k, v in user.items() if k != "keys"} for user in new_users["users"]] == old_users["users"]
    assert [user["keys"] for user in new_users["users"]] == [[FP_A], [], []]
    after = snapshot(old_folder)
    assert {name: data for name, data in after.items() if name != "users.json"} == {
        name: data for name, data in before.items() if name != "users.json"
    }
    assert len(Store(old_folder).games()) == 1
    assert Store(old_folder).user_for_key(FP_A).name == "Alan"  # type: ignore[union-attr]


def test_a_key_belongs_to_one_user_and_a_refusal_writes_nothing(store_factory) -> None:
    store = store_factory()
    store.register("Alan", key=FP_A)
    store.register("Bob")
    before = store_factory.state()
    other = store_factory()  # as another process or server would see it
    with pytest.raises(KeyRejected, match="already belongs to Alan"):
        other.bind_key("Bob", FP_A)
    with pytest.raises(KeyRejected, match="already belongs to Alan"):
        store.register("Carol", key=FP_A)
    with pytest.raises(KeyRejected, match="no user called Zed"):
        store.bind_key("Zed", FP_B)
    with pytest.raises(KeyRejected, match="holds no key"):
        store.unbind_key("Bob", FP_A)
    with pytest.raises(KeyRejected):
        store.bind_key("Bob", "SHA256:short")
    assert store_factory.state() == before
    assert store.user("Carol") is None
    assert store.bind_key("alan", FP_A).keys == (FP_A,)  # already hers: nothing to do
    assert store_factory.state() == before

    assert store.unbind_key("Alan", FP_A).keys == ()
    assert other.user_for_key(FP_A) is None
    assert store.bind_key("Bob", FP_A).keys == (FP_A,)
    assert other.user_for_key(FP_A).name == "Bob"  # type: ignore[union-attr]
    store.bind_key("bob", FP_C)
    assert [(u.name, u.keys) for u in other.users()] == [("Alan", ()), ("Bob", (FP_A, FP_C))]


def test_a_file_binding_one_key_to_two_users_is_refused_and_kept(tmp_path: Path) -> None:
    users = {"schema": 2, "users": [
        {"name": "Alan", "score": 0, "games": 0, "keys": [FP_A]},
        {"name": "Bob", "score": 0, "games": 0, "keys": [FP_A]},
    ]}
    path = tmp_path / "users.json"
    path.write_text(json.dumps(users))
    raw = path.read_bytes()
    with pytest.raises(StoreError, match="bound to both"):
        Store(tmp_path).users()
    with pytest.raises(StoreError):
        Store(tmp_path).register("Carol")
    assert path.read_bytes() == raw


def test_a_link_code_works_once_and_only_for_ten_minutes(store_factory) -> None:
    store = store_factory()
    store.register("Alan", key=FP_A)
    with pytest.raises(KeyRejected, match="signed-in"):
        store.issue_link_code(FP_B, now=NOW)

    code = store.issue_link_code(FP_A, now=NOW)
    before = store_factory.state()
    assert code not in repr(before) and code.replace("-", "") not in repr(before)  # only its hash is kept
    other = store_factory()  # the code is typed on another server
    for wrong in ("", "AAAA-AAAA", code[:-1]):
        with pytest.raises(KeyRejected, match="wrong, used or expired"):
            other.redeem_link_code(wrong, FP_B, now=NOW)
    with pytest.raises(KeyRejected, match="wrong, used or expired"):
        other.redeem_link_code(code, FP_B, now=NOW + timedelta(minutes=10))
    with pytest.raises(KeyRejected, match="already belongs to Alan"):
        other.redeem_link_code(code, FP_A, now=NOW)
    assert store_factory.state() == before

    user = other.redeem_link_code(code.lower().replace("-", " "), FP_B, now=NOW + timedelta(minutes=9))
    assert user.name == "Alan" and user.keys == (FP_A, FP_B)
    assert store.user_for_key(FP_B) == user
    after = store_factory.state()
    with pytest.raises(KeyRejected, match="wrong, used or expired"):
        store.redeem_link_code(code, FP_C, now=NOW + timedelta(minutes=9))
    assert store_factory.state() == after


def test_an_expired_code_is_cleared_when_the_next_is_issued(store_factory) -> None:
    store = store_factory()
    store.register("Alan", key=FP_A)
    old = store.issue_link_code(FP_A, now=NOW)
    assert hash_link_code(old) in repr(store_factory.state())
    new = store.issue_link_code(FP_A, now=NOW + timedelta(minutes=11))
    assert hash_link_code(old) not in repr(store_factory.state())  # an expired code is not kept
    with pytest.raises(KeyRejected, match="wrong, used or expired"):
        store.redeem_link_code(old, FP_B, now=NOW + timedelta(minutes=11))
    assert store.redeem_link_code(new, FP_B, now=NOW + timedelta(minutes=12)).keys == (FP_A, FP_B)
