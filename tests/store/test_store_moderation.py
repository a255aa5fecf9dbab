"""Bans and retired names in the store, on both stores: kept, listed, lifted, refused when they name nobody,
copied, and announced on the change feed (every server sharing the store hears of them)."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta, timezone

import pytest

from wom_tui.domain.moderation import Ban, ModerationRefused
from wom_tui.domain.store import copy as store_copy

NOW = datetime(2026, 11, 27, 12, 0, tzinfo=timezone.utc)
FP = "SHA256:" + "A" * 43


def test_bans_are_kept_listed_and_lifted_by_id_or_target(store_factory) -> None:
    store = store_factory()
    store.register("Alan", key=FP)
    by_name = store.add_ban(Ban.make("alan", "rude", NOW, timedelta(hours=2)))
    assert by_name.target == "Alan"  # as registered
    by_range = store.add_ban(Ban.make("192.0.2.9/24", "spam", NOW))
    by_key = store.add_ban(Ban.make(FP, "", NOW + timedelta(seconds=1)))
    other = store_factory()  # another process or server
    assert other.bans() == [by_name, by_range, by_key]
    assert other.lift_bans(by_range.id) == [by_range]
    assert other.lift_bans("ALAN") == [by_name]
    assert other.lift_bans("nobody") == [] and other.lift_bans("ffffffff") == []
    assert store.bans() == [by_key]


def test_a_name_ban_of_nobody_changes_nothing(store_factory) -> None:
    store = store_factory()
    store.register("Alan")
    before = store_factory.state()
    with pytest.raises(ModerationRefused, match="no user called 'Bob'"):
        store.add_ban(Ban.make("Bob", "", NOW))
    assert store_factory.state() == before


def test_retired_names_keep_their_records_and_stay_taken(store_factory) -> None:
    store = store_factory()
    store.register("Alan", key=FP)
    retirement = store.retire("alan", "asked to leave", NOW)
    assert retirement.name == "Alan"
    assert [r.name for r in store_factory().retired()] == ["Alan"]
    assert store.user("Alan") is not None and store.user_for_key(FP) is not None  # records and keys kept
    before = store_factory.state()
    with pytest.raises(ModerationRefused, match="retired already"):
        store.retire("ALAN", "again", NOW)
    with pytest.raises(ModerationRefused, match="no user called"):
        store.retire("Bob", "", NOW)
    with pytest.raises(Exception):  # the name stays taken
        store.register("alan")
    assert store_factory.state() == before


def test_a_copy_carries_bans_and_retired_names(store_factory) -> None:
    store = store_factory()
    store.register("Alan", key=FP)
    store.add_ban(Ban.make("2001:db8::/32", "spam", NOW, timedelta(days=7)))
    store.retire("Alan", "left", NOW)
    location = store_factory._new_location(spare=True)
    source_totals, target_totals = store_copy.copy_arcade(store_factory.location, location)
    assert source_totals == target_totals and target_totals["bans"] == 1
    target = store_factory(location)
    assert target.bans() == store.bans() and target.retired() == store.retired()
    assert target.totals()["bans"] == 1 and target.totals()["retired names"] == 1
    assert store.totals() == target.totals()


async def test_the_change_feed_reports_a_ban_from_another_process(store_factory) -> None:
    store = store_factory()
    store.register("Alan")
    stop, ready = asyncio.Event(), asyncio.Event()
    seen: list[bool] = []

    async def listen() -> None:
        async for change in store.live.feed().changes(stop, ready):
            if change.moderation:
                seen.append(True)
                stop.set()

    task = asyncio.ensure_future(listen())
    await asyncio.wait_for(ready.wait(), 10)
    other = store_factory()
    await asyncio.to_thread(other.add_ban, Ban.make("Alan", "", NOW))
    await asyncio.wait_for(task, 10)
    assert seen == [True]
