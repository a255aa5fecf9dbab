"""Guest names for the hall of fame: 1–7 characters, no spaces, refused with the reason, never cut."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wom_tui.domain.users import GUEST_SPACE, NameRejected, check_guest_name, check_name


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("Annabell", "A name can be at most 7 characters long."),
        ("Al Bo", GUEST_SPACE),
        (" Ann", GUEST_SPACE),
        ("Ann ", GUEST_SPACE),
        ("", "Please type a name."),
        ("Zoë", "may use only"),
        ("viki", "VIKI is a computer player's name."),
    ],
)
def test_a_bad_guest_name_is_refused_with_the_reason(name, reason):
    with pytest.raises(NameRejected) as refusal:
        check_guest_name(name)
    assert reason in refusal.value.reason


def test_a_good_guest_name_is_returned_unchanged():
    assert check_guest_name("Ann") == "Ann"
    assert check_guest_name("G_7.x-1") == "G_7.x-1"


@given(st.text(max_size=12))
def test_a_guest_name_is_accepted_exactly_when_it_is_a_short_spaceless_player_name(name):
    try:
        accepted = check_guest_name(name) == name
    except NameRejected:
        accepted = False
    try:
        valid = check_name(name, max_length=7) == name and " " not in name
    except NameRejected:
        valid = False
    assert accepted == valid
