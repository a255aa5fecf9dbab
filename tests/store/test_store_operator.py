"""What the Operator screen keeps, on both stores: each session's whereabouts in its presence (gone when its
heartbeat stops, as when its server dies), kicks, and the broadcast line, all on the change feed."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import datetime, timedelta, timezone

import pytest

from wom_tui.domain.moderation import Broadcast, Kick, ModerationRefused
from wom_tui.domain.presence import Whereabouts

from .test_live import backdate

NOW = datetime(2026, 11, 27, 12, 0, tzinfo=timezone.utc)
FP = "SHA256:" + "B" * 43


def test_presence_keeps_where_a_session_is_and_its_screen_as_it_changes(store_factory) -> None:
    store = store_factory()
    store.register("Alan", key=FP)
    where = Whereabouts("192.0.2.7", FP, "ssh", "Menu")
    alan = store.live.join("Alan", True, "s-alan", where)
    guest = store.live.join_guest("s-guest", Whereabouts("2001:db8::1", None, "web", "Lobby"))
    other = store_factory()  # another server sharing the store
    seen = {p.session: p.where for p in other.live.sessions()}
    assert seen == {"s-alan": where, "s-guest": guest.where}
    other.live.report_screen(replace(alan, where=replace(where, screen="SoloGame")))
    assert {p.session: p.where.screen for p in store.live.sessions()} == {"s-alan": "SoloGame", "s-guest": "Lobby"}


def test_the_online_record_expires_when_its_heartbeat_stops(store_factory) -> None:
    """A server that dies takes its sessions' heartbeats with it: they leave the list within the staleness limit."""
    store = store_factory()
    store.live.join("Alan", True, "s-alan", Whereabouts("192.0.2.7", None, "ssh", "Menu"))
    store.live.join_guest("s-guest", Whereabouts(transport="ssh"))
    backdate(store.live, "s-alan")
    assert [p.session for p in store_factory().live.sessions()] == ["s-guest"]


def test_bad_whereabouts_are_refused_before_anything_is_written() -> None:
    for bad in ({"address": "1.2.3.4\x1b[2J"}, {"key": "SHA256:short"}, {"transport": "carrier pigeon"},
                {"screen": "[red]x[/]"}):
        with pytest.raises(ValueError):
            Whereabouts(**bad)


def test_kicks_are_kept_a_minute_and_seen_by_every_server(store_factory) -> None:
    store = store_factory()
    first = store.kick(Kick.make("s-old", "spam", NOW))
    assert store_factory().kicks() == [first]
    later = store.kick(Kick.make("s-new", "flooding the lobby", NOW + timedelta(minutes=2)))
    assert store_factory().kicks() == [later]  # the old one went as the new one was written
    assert later.line == "An operator ended your session: flooding the lobby"
    with pytest.raises(ModerationRefused):
        Kick.make("s-x", "two\nlines", NOW)


def test_the_broadcast_is_set_replaced_and_cleared(store_factory) -> None:
    store = store_factory()
    assert store.broadcast() is None
    line = Broadcast.make("restart in 5 minutes", "Root", NOW)
    store.set_broadcast(line)
    assert store_factory().broadcast() == line
    store.set_broadcast(Broadcast.make("[b]restart[/b] now", "Root", NOW))
    assert store_factory().broadcast().text == "[b]restart[/b] now"  # data, kept as typed
    store.set_broadcast(None)
    assert store_factory().broadcast() is None
    for bad in ("", "   ", "a\nb", "\x1b[2J", "x" * 121):
        with pytest.raises(ModerationRefused):
            Broadcast.make(bad, "Root", NOW)


async def test_a_kick_and_a_broadcast_are_on_the_change_feed(store_factory) -> None:
    store = store_factory()
    stop, ready = asyncio.Event(), asyncio.Event()
    seen: list[bool] = []

    async def listen() -> None:
        async for change in store.live.feed().changes(stop, ready):
            if change.moderation:
                seen.append(True)
                if (await asyncio.to_thread(store.broadcast)) is not None:
                    stop.set()

    task = asyncio.ensure_future(listen())
    await asyncio.wait_for(ready.wait(), 10)
    other = store_factory()
    await asyncio.to_thread(other.kick, Kick.make("s-1", "", datetime.now(timezone.utc)))
    await asyncio.to_thread(other.set_broadcast, Broadcast.make("hello", "Root", datetime.now(timezone.utc)))
    await asyncio.wait_for(task, 10)
    assert seen and store.kicks()[0].session == "s-1"
