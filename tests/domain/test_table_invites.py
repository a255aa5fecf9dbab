"""Invitations and rematch at a live table, as transcripts: invite, accept (the table starts once full),
decline, refusals; "again" at a finished table opens the same seats, computers seated, people invited."""

from __future__ import annotations

import pytest

from wom_tui.domain.table import FINISHED, MAKING, OPEN, Refused, SeatHolder, Table

ANN = SeatHolder("Ann", "s-ann", True)
BOB = SeatHolder("Bob", "s-bob", True)
CY = SeatHolder("Cy", "s-cy", True)


def test_invite_accept_and_the_table_starts_once_full():
    table = Table("t1", ANN, seats=3, now=0.0)
    table.auto_start = True
    table.invite(ANN, "Bob")
    table.invite(ANN, "cy")
    with pytest.raises(Refused, match="already invited"):
        table.invite(ANN, "BOB")
    with pytest.raises(Refused, match="no free seat left"):
        table.invite(ANN, "Dee")
    with pytest.raises(Refused, match="Only Ann"):
        table.invite(BOB, "Dee")
    assert table.view_for(None).invited == ("Bob", "cy")
    assert table.accept(BOB, 1.0) == 1 and table.phase == OPEN
    assert table.accept(BOB, 1.0) == 1  # a second accept: nothing more
    table.accept(CY, 2.0)
    assert table.phase == MAKING and table.names == ("Ann", "Bob", "Cy")
    assert Table.from_json(table.to_json()).to_json() == table.to_json()


def test_decline_frees_the_seat_and_a_stranger_cannot_accept():
    table = Table("t1", ANN, seats=2, now=0.0)
    table.invite(ANN, "Bob")
    with pytest.raises(Refused, match="not invited"):
        table.accept(CY, 1.0)
    table.decline(BOB)
    assert table.invited == [] and "Bob declined the invitation." in table.log
    with pytest.raises(Refused, match="not invited"):
        table.decline(BOB)


def finished() -> Table:
    table = Table("t1", ANN, seats=3, seed=2, now=0.0, pace=(0.0, 0.0))
    table.sit(BOB, 1)
    table.seat_computer(ANN, 2, "HAL9000")
    table.start(ANN, 0.0)
    table.set_code(ANN, "RGBY", 0.0)
    table.set_code(BOB, "WWKK", 0.0)
    table.leave(ANN, 1.0)
    table.leave(BOB, 1.0)
    table.tick(1000.0)
    assert table.phase == FINISHED
    return table


def test_again_opens_the_same_seats_with_the_proposer_first_and_starts_when_all_accept():
    table = finished()
    new = table.rematch(BOB, "t2", seed=5, now=10.0)
    assert table.rematch_id == "t2"
    assert new.names == ("Bob", "HAL9000", None) and new.invited == ["Ann"] and new.auto_start
    assert new.attempts == table.attempts
    with pytest.raises(Refused, match="already offered"):
        table.rematch(ANN, "t3", seed=5, now=10.0)
    with pytest.raises(Refused, match="Only the players"):
        finished().rematch(CY, "t4", seed=1, now=1.0)
    new.accept(ANN, 11.0)
    assert new.phase == MAKING
    again = Table.from_json(table.to_json())
    assert again.rematch_id == "t2"
