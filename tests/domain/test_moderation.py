"""Moderation's rules on their own: durations, what a ban target is, CIDR ranges (IPv4, IPv6, IPv4 mapped into
IPv6), expiry, retired names and the one line a client is told."""

from __future__ import annotations

import ipaddress
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wom_tui.domain.moderation import (
    Ban, ModerationRefused, Retirement, Verdicts, parse_duration, parse_target, retired_name_keys,
)

NOW = datetime(2026, 11, 27, 12, 0, tzinfo=timezone.utc)
FP = "SHA256:" + "k" * 43


@pytest.mark.parametrize("text, seconds", [("30m", 1800), ("2h", 7200), ("7d", 7 * 86400), ("1w", 604800),
                                           ("45s", 45), (" 3h ", 10800)])
def test_durations(text: str, seconds: int) -> None:
    assert parse_duration(text) == timedelta(seconds=seconds)


@pytest.mark.parametrize("text", ["", "30", "m", "0m", "-5m", "2 hours", "1.5h", "30x", "99999w", "3h30m"])
def test_bad_durations_say_what_a_duration_is(text: str) -> None:
    with pytest.raises(ModerationRefused) as caught:
        parse_duration(text)
    assert caught.value.reason


@pytest.mark.parametrize("text, expected", [
    ("Alan", ("name", "Alan")),
    ("J.R. Hacker", ("name", "J.R. Hacker")),
    ("name:10.0.0.1", ("name", "10.0.0.1")),
    (FP, ("key", FP)),
    ("192.0.2.7", ("address", "192.0.2.7/32")),
    ("192.0.2.7/24", ("address", "192.0.2.0/24")),
    ("2001:db8::1/48", ("address", "2001:db8::/48")),
    ("::ffff:192.0.2.9", ("address", "192.0.2.9/32")),
    ("::ffff:192.0.2.0/120", ("address", "192.0.2.0/24")),
])
def test_targets(text: str, expected: tuple[str, str]) -> None:
    assert parse_target(text) == expected


@pytest.mark.parametrize("text", ["SHA256:short", "192.0.2.0/33", "2001:db8::/129", "fe80::zz", "a" * 40, "[bob]", ""])
def test_bad_targets_are_refused(text: str) -> None:
    with pytest.raises(ModerationRefused):
        parse_target(text)


def test_a_range_covers_its_addresses_v4_v6_and_mapped() -> None:
    v4 = Ban.make("192.0.2.0/24", "spam", NOW)
    assert v4.covers(name=None, fingerprint=None, address="192.0.2.200")
    assert v4.covers(name=None, fingerprint=None, address="::ffff:192.0.2.1")  # a dual-stack listener's view
    assert not v4.covers(name=None, fingerprint=None, address="192.0.3.1")
    assert not v4.covers(name=None, fingerprint=None, address="?")
    v6 = Ban.make("2001:db8:1::/48", "spam", NOW)
    assert v6.covers(name=None, fingerprint=None, address="2001:db8:1:ffff::5")
    assert v6.covers(name=None, fingerprint=None, address="2001:db8:1::5%eth0")
    assert not v6.covers(name=None, fingerprint=None, address="2001:db8:2::5")
    assert not v6.covers(name=None, fingerprint=None, address="192.0.2.1")


@given(st.ip_addresses(), st.ip_addresses(), st.integers(0, 128))
def test_a_range_covers_exactly_the_addresses_in_it(address, base, prefix) -> None:
    prefix = min(prefix, base.max_prefixlen)
    network = ipaddress.ip_network(f"{base}/{prefix}", strict=False)
    ban = Ban.make(str(network), "", NOW)
    mapped = getattr(address, "ipv4_mapped", None) or address
    expected_network = ipaddress.ip_network(ban.target)
    assert ban.covers(name=None, fingerprint=None, address=str(address)) == (
        mapped.version == expected_network.version and mapped in expected_network)


def test_a_ban_runs_out_and_says_until_when() -> None:
    ban = Ban.make(FP, "flooding the lobby", NOW, parse_duration("2h"))
    assert ban.active(NOW) and ban.active(NOW + timedelta(minutes=119))
    assert not ban.active(NOW + timedelta(hours=2))
    assert ban.line == "You are banned from this arcade until 2026-11-27 14:00 UTC: flooding the lobby"
    assert Ban.make("Alan", "", NOW).line == "You are banned from this arcade for good."


def test_names_are_judged_without_case_and_keys_by_their_name() -> None:
    verdicts = Verdicts((Ban.make("Alan", "rude", NOW),), (Retirement("Grace", "asked to leave", NOW),),
                        {FP: "alan", "SHA256:" + "g" * 43: "Grace"})
    assert verdicts.refusal(fingerprint=FP, address="192.0.2.1", now=NOW) == "You are banned from this arcade for good: rude"
    assert verdicts.refusal(fingerprint="SHA256:" + "g" * 43, address="192.0.2.1", now=NOW) == (
        "The name Grace is retired: asked to leave")
    assert verdicts.refusal(fingerprint="SHA256:" + "x" * 43, address="192.0.2.1", now=NOW) is None
    assert verdicts.refusal(fingerprint=None, address="192.0.2.1", now=NOW) is None  # a guest
    assert retired_name_keys(verdicts.retired) == {"grace"}


def test_bans_and_retirements_round_trip_and_refuse_nonsense() -> None:
    for ban in (Ban.make("10.1.0.0/16", "x", NOW, timedelta(days=7)), Ban.make("name:1.2.3.4", "", NOW)):
        assert Ban.from_json(ban.as_json()) == ban
    retirement = Retirement("Alan", "left", NOW)
    assert Retirement.from_json(retirement.as_json()) == retirement
    good = Ban.make(FP, "x", NOW).as_json()
    for broken in ({**good, "kind": "name"}, {**good, "id": "X"}, {**good, "until": good["created"]},
                   {**good, "reason": "two\nlines"}, {**good, "extra": 1}):
        with pytest.raises((ValueError, TypeError)):
            Ban.from_json(broken)
    with pytest.raises(ModerationRefused):
        Ban.make(FP, "\x1b[2Jwipe", NOW)
