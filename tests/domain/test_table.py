"""The table and live-game state machine (domain/table.py), on its own: no store, no clock."""

from __future__ import annotations

import copy
import json

import pytest

from wom_tui.domain.codes import DIGITS8, Feedback, Ruleset
from wom_tui.domain.scoring import breakdown
from wom_tui.domain.table import (
    CLOSED,
    FINISHED,
    GUESSING,
    MAKING,
    OPEN,
    Refused,
    SeatHolder,
    Table,
    TableDataError,
)

ALAN = SeatHolder("Alan", "s-alan", True)
BEA = SeatHolder("Bea", "s-bea", True)
GUEST = SeatHolder("guest 3", "s-guest", False)


def table(seats=2, attempts=5, **kwargs) -> Table:
    kwargs.setdefault("pace", (2.0, 2.0))
    return Table("t1", ALAN, seats=seats, attempts=attempts, seed=11, **kwargs)


def running(*people: SeatHolder, attempts=5, codes=None, now=0.0, **kwargs) -> Table:
    """A table in the guessing phase: ALAN then ``people`` seated, each code set."""
    t = table(seats=1 + len(people), attempts=attempts, **kwargs)
    for index, person in enumerate(people, 1):
        if person in ("HAL9000", "VIKI"):
            t.seat_computer(ALAN, index, person)
        else:
            t.sit(person, index)
    t.start(ALAN, now)
    codes = codes or {}
    for person in (ALAN, *people):
        if isinstance(person, SeatHolder):
            t.set_code(person, codes.get(person.name, "RGBY"), now)
    return t


def refused(action) -> str:
    with pytest.raises(Refused) as info:
        action()
    return info.value.reason


def unchanged(t: Table, action) -> str:
    """``action`` is refused and the table is byte for byte as before; the reason."""
    before = json.dumps(t.to_json())
    reason = refused(action)
    assert json.dumps(t.to_json()) == before
    return reason


# ---------------------------------------------------------------- rules of a table


def test_a_table_has_two_to_four_seats_and_five_to_ten_attempts():
    assert refused(lambda: table(seats=5)) == "A table has 2 to 4 seats."
    assert refused(lambda: table(seats=1)) == "A table has 2 to 4 seats."
    assert refused(lambda: table(attempts=4)) == "Attempts allowed must be between 5 and 10."
    assert refused(lambda: table(attempts=11)) == "Attempts allowed must be between 5 and 10."
    t = table(seats=4, attempts=7)
    assert t.attempts == 7 and t.seat_count == 4 and t.names == ("Alan", None, None, None)


def test_a_guest_is_its_session_a_new_guest_with_the_same_number_does_not_take_a_dropped_guests_seat():
    t = running(GUEST, now=0.0, grace=120.0)
    t.mark_presence({ALAN.session}, 10)  # the guest's connection dropped
    newcomer = SeatHolder(GUEST.name, "s-another-guest", False)  # the next guest online gets the same number
    assert t.seat_of(newcomer) is None and t.resume(newcomer, 20) is None
    assert t.resume(GUEST, 20) == 1  # the same session (a screen re-opened) is the same guest


def test_a_seed_the_store_could_not_keep_is_refused_with_the_reason():
    reason = "A table's seed is a whole number of at most 15 digits (the most a data file keeps)."
    for seed in (10**15, -(10**15), True):
        assert refused(lambda s=seed: Table("t1", ALAN, seed=s)) == reason
    assert Table.from_json(Table("t1", ALAN, seed=10**15 - 1).to_json()).seed == 10**15 - 1


def test_the_advanced_ruleset_is_kept_with_the_attempts():
    t = Table("t1", ALAN, seats=2, attempts=6, ruleset=Ruleset(6, DIGITS8, False, 10))
    assert (t.ruleset.length, t.ruleset.palette.key, t.ruleset.repeats, t.ruleset.guesses) == (6, "digits8", False, 6)
    t.sit(BEA, 1)
    t.start(ALAN, 0)
    assert unchanged(t, lambda: t.set_code(ALAN, "112345", 0)) == "Code may not repeat a symbol; 1 appears more than once."
    t.set_code(ALAN, "123456", 0)


def test_two_people_taking_the_last_seat_exactly_one_gets_it():
    t = table()
    t.sit(BEA, 1)
    assert unchanged(t, lambda: t.sit(GUEST, 1)) == "Seat 2 was just taken by Bea."
    assert t.names == ("Alan", "Bea")


def test_nobody_sits_twice_and_no_two_people_share_a_name():
    t = table(seats=3)
    t.sit(BEA, 1)
    assert unchanged(t, lambda: t.sit(SeatHolder("Bea", "other-session", True), 2)) == "You already have seat 2."
    assert unchanged(t, lambda: t.sit(SeatHolder("bea", "s9", False), 2)) == "bea is already at this table."
    assert unchanged(t, lambda: t.sit(GUEST, 7)) == "There is no seat 7 at this table."


def test_standing_up_before_the_start_frees_the_seat_and_the_creator_closes_instead():
    t = table()
    t.sit(BEA, 1)
    t.stand(BEA)
    assert t.names == ("Alan", None)
    assert unchanged(t, lambda: t.stand(ALAN)) == "You opened this table: close it instead."
    assert unchanged(t, lambda: t.stand(GUEST)) == "You have no seat at this table."


def test_only_the_creator_seats_computers_and_each_only_once():
    t = table(seats=4)
    assert unchanged(t, lambda: t.seat_computer(BEA, 1, "HAL9000")) == "Only Alan, who opened the table, can do that."
    t.seat_computer(ALAN, 1, "hal9000")
    assert t.names[1] == "HAL9000"
    assert unchanged(t, lambda: t.seat_computer(ALAN, 2, "HAL9000")) == "HAL9000 is already at this table."
    assert unchanged(t, lambda: t.seat_computer(ALAN, 2, "Deep Blue")) == "The computer players are HAL9000 and VIKI."
    assert unchanged(t, lambda: t.seat_computer(ALAN, 1, "VIKI")) == "Seat 2 was just taken by HAL9000."
    t.unseat_computer(ALAN, 1)
    assert t.names == ("Alan", None, None, None)


def test_the_creator_starts_only_a_full_table():
    t = table(seats=3)
    t.sit(BEA, 1)
    assert unchanged(t, lambda: t.start(ALAN, 0)) == "Every seat must be filled first (seat 3 is free)."
    t.seat_computer(ALAN, 2, "VIKI")
    assert unchanged(t, lambda: t.start(BEA, 0)) == "Only Alan, who opened the table, can do that."
    t.start(ALAN, 0)
    assert t.phase == MAKING
    assert unchanged(t, lambda: t.sit(GUEST, 1)) == "The codes are still being set."
    assert unchanged(t, lambda: t.stand(BEA)) == "The codes are still being set."


def test_a_closed_table_takes_nobody():
    t = table()
    assert unchanged(t, lambda: t.close(BEA)) == "Only Alan, who opened the table, can do that."
    t.close(ALAN)
    assert t.phase == CLOSED and t.view_for(None).closed_reason == "Alan closed the table."
    assert unchanged(t, lambda: t.sit(BEA, 1)) == "The table is closed."


# ---------------------------------------------------------------- code making and guessing


def test_each_seat_sets_the_code_the_next_must_break_and_computers_at_once():
    t = table(seats=3)
    t.sit(BEA, 1)
    t.seat_computer(ALAN, 2, "HAL9000")
    t.start(ALAN, 0)
    views = {p.name: t.view_for(p) for p in (ALAN, BEA)}
    assert views["Alan"].own.code_for == "Bea" and views["Bea"].own.code_for == "HAL9000"
    assert views["Alan"].own.breaking_code_of == "HAL9000"
    assert [s.code_set for s in views["Alan"].seats] == [False, False, True]
    assert unchanged(t, lambda: t.set_code(ALAN, "RGB", 0)) == "Code too short; it must be exactly 4 symbols."
    assert unchanged(t, lambda: t.guess(ALAN, "RGBY", 0)) == "The codes are still being set."
    t.set_code(ALAN, "r g b y", 0)
    assert unchanged(t, lambda: t.set_code(ALAN, "KKKK", 0)) == "You have already set your code."
    assert t.phase == MAKING
    t.set_code(BEA, "KKKK", 1.0)
    assert t.phase == GUESSING
    assert t.view_for(BEA).own.code_for is None


def test_a_spectator_is_never_told_to_break_a_code_of_their_own():
    t = running(BEA)
    watching = t.view_for(None)
    assert watching.phase == GUESSING and any("Every code is set" in line for line in watching.log)
    assert not any("yours" in line or "your " in line.lower() for line in watching.log), watching.log


def test_everybody_guesses_at_the_same_time_without_turns():
    t = running(BEA, codes={"Alan": "RGBY", "Bea": "KKWW"})
    # Bea breaks Alan's code, Alan breaks Bea's; Bea goes twice before Alan moves at all.
    assert t.guess(BEA, "RGYB", 1) == Feedback(2, 2)
    assert t.guess(BEA, "RGBY", 2) == Feedback(4, 0)
    assert unchanged(t, lambda: t.guess(BEA, "RGBY", 3)) == "Your board is finished; wait for the others."
    assert unchanged(t, lambda: t.guess(ALAN, "KKW", 3)) == "Guess too short; it must be exactly 4 symbols."
    assert t.guess(ALAN, "kkww", 4) == Feedback(4, 0)
    assert t.phase == FINISHED


def test_progress_is_seen_by_all_guesses_only_by_their_owner_and_codes_by_nobody():
    t = running(BEA, GUEST, codes={"Alan": "RGBY", "Bea": "KKWW", "guest 3": "WWYY"})
    t.guess(BEA, "RGYB", 1)
    t.guess(ALAN, "WYWY", 1)
    t.guess(ALAN, "WWYY", 2)
    alan, bea, spectator = t.view_for(ALAN), t.view_for(1), t.view_for(None)
    assert [a.guess for a in alan.own.history] == ["WYWY", "WWYY"]
    assert [a.guess for a in bea.own.history] == ["RGYB"]
    assert spectator.own is None and spectator.you is None
    for view in (alan, bea, spectator):
        assert [(s.attempts_used, s.broke, s.done) for s in view.seats] == [(2, True, True), (1, False, False), (0, False, False)]
    secrets = {"RGBY", "KKWW", "WWYY", "RGYB", "WYWY"}
    for view, own in ((alan, {"WYWY", "WWYY"}), (bea, {"RGYB"}), (spectator, set())):
        assert strings_in(view) & secrets <= own


def strings_in(value) -> set[str]:
    """Every string inside a view (dataclasses, tuples, named tuples), to look for codes."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
            found.update(item.split())
        elif isinstance(item, (tuple, list)):
            stack.extend(item)
        elif hasattr(item, "__dataclass_fields__"):
            stack.extend(getattr(item, name) for name in item.__dataclass_fields__)
    return found


def test_computers_play_at_a_human_pace_on_the_clock_they_are_given():
    t = running("HAL9000", now=1000.0, pace=(3.0, 3.0))
    assert t.next_due() == 1003.0
    t.tick(1002.9)
    assert t.view_for(None).seats[1].attempts_used == 0
    t.tick(1003.0)
    assert t.view_for(None).seats[1].attempts_used == 1
    assert t.next_due() == 1006.0
    t.tick(1012.0)  # a process that looks late catches up every move that was due (1006, 1009, 1012)
    hal = t.view_for(None).seats[1]
    assert hal.attempts_used == 4 or (hal.broke and hal.attempts_used < 4)


def test_the_same_seed_plays_the_same_computer_moves():
    def play():
        t = running("VIKI", pace=(1.0, 4.0))
        t.tick(100.0)
        return t.to_json()["seats"][1]["guesses"], t.to_json()["seats"][0]["code"]

    assert play() == play()


def test_results_follow_spec_scoring_for_registered_people_only():
    t = running(BEA, GUEST, codes={"Alan": "RGBY", "Bea": "KKWW", "guest 3": "WWYY"})
    # Alan breaks guest's code (WWYY) on attempt 2; Bea fails Alan's; the guest breaks Bea's on 1.
    t.guess(ALAN, "WWYK", 1)
    t.guess(ALAN, "WWYY", 2)
    for _ in range(5):
        t.guess(BEA, "RRRR", 3)
    t.guess(GUEST, "KKWW", 4)
    assert t.phase == FINISHED
    results = t.results()
    assert results.players[0].points == breakdown("Alan", 5, 2, True, 5, False)
    assert results.players[0].message == "Alan receives 4 + 5 = 9 points."
    assert results.players[1].points == breakdown("Bea", 5, 5, False, 1, True)
    assert results.players[2].points is None
    record = t.record(registered={"alan", "bea"})
    assert record.points() == {"Alan": 9, "Bea": 0}
    assert [p.is_user for p in record.players] == [True, True, False]
    assert t.record(registered={"alan"}).points() == {"Alan": 9}  # Bea is not in the store: no points


# ---------------------------------------------------------------- dropping out


def test_a_dropped_person_keeps_the_seat_for_the_grace_and_resumes_exactly_there():
    t = running(BEA, codes={"Alan": "RGBY", "Bea": "KKWW"}, grace=120.0)
    t.guess(BEA, "RGYB", 1)
    t.mark_presence({"s-alan"}, 10.0)
    assert t.view_for(None).seats[1].away and t.next_due() == 130.0
    t.tick(129.9)
    assert not t.view_for(None).seats[1].gone
    back = SeatHolder("Bea", "new-session", True)
    assert t.resume(back, 129.9) == 1
    view = t.view_for(back)
    assert not view.seats[1].away and [a.guess for a in view.own.history] == ["RGYB"]
    assert t.sessions() == frozenset({"s-alan", "new-session"})
    assert t.resume(SeatHolder("Bea", "x", False), 130) is None  # a guest called Bea is not Bea


def test_after_the_grace_the_seat_is_gone_its_code_not_broken_and_the_game_goes_on():
    t = running(BEA, codes={"Alan": "RGBY", "Bea": "KKWW"}, grace=60.0)
    t.mark_presence({"s-alan"}, 0.0)
    t.tick(60.0)
    view = t.view_for(None)
    assert view.seats[1].gone and view.seats[1].done and t.phase == GUESSING
    assert t.resume(BEA, 61) is None
    assert unchanged(t, lambda: t.guess(BEA, "RGBY", 61)) == "You have left this game."
    t.guess(ALAN, "KKWW", 62)
    assert t.phase == FINISHED
    assert t.results().players[0].message == "Alan receives 5 + 5 = 10 points."


def test_a_confirmed_leave_during_code_making_draws_the_code_and_goes_on():
    t = table(seats=3)
    t.sit(BEA, 1)
    t.sit(GUEST, 2)
    t.start(ALAN, 0)
    t.set_code(ALAN, "RGBY", 0)
    t.leave(BEA, 1)
    assert t.view_for(None).seats[1].code_set and t.phase == MAKING
    t.set_code(GUEST, "WWWW", 2)
    assert t.phase == GUESSING
    assert any("Bea left the game." in line for line in t.log)


def test_leaving_before_the_start_stands_up_and_the_creator_leaving_closes():
    t = table(seats=3)
    t.sit(BEA, 1)
    t.leave(BEA, 0)
    assert t.names == ("Alan", None, None)
    t.mark_presence(set(), 5.0)
    t.tick(5.0 + 120.0)
    assert t.phase == CLOSED and t.closed_reason == "Alan left, so the table is closed."


def test_when_everybody_is_gone_the_computers_finish_and_the_game_ends():
    t = running("HAL9000", BEA, grace=10.0, pace=(1.0, 1.0))
    t.mark_presence(set(), 0.0)
    t.tick(1000.0)
    assert t.phase == FINISHED
    alan, hal, bea = t.results().players
    assert hal.points is None and 1 <= hal.attempts_used <= 5
    # Alan earns for the code HAL9000 attacked; Bea for hers, which gone Alan never broke.
    assert (alan.breaking, alan.making) == (0, hal.attempts_used - 1 if hal.broke else 5)
    assert (bea.breaking, bea.making) == (0, 5)


# ---------------------------------------------------------------- JSON


def test_every_state_round_trips_through_json():
    t = table(seats=3)
    states = [t.to_json()]
    for step in (lambda: t.sit(BEA, 1), lambda: t.seat_computer(ALAN, 2, "VIKI"), lambda: t.start(ALAN, 0),
                 lambda: t.set_code(ALAN, "RGBY", 0), lambda: t.set_code(BEA, "KKWW", 0),
                 lambda: t.guess(BEA, "RGBY", 1), lambda: t.mark_presence({"s-bea"}, 2), lambda: t.tick(50)):
        step()
        states.append(t.to_json())
    for state in states:
        again = Table.from_json(json.loads(json.dumps(state)))
        assert again.to_json() == state
    assert Table.from_json(states[-1]).view_for(BEA) == t.view_for(BEA)


@pytest.mark.parametrize("damage, reason", [
    (lambda d: d.update(version="3"), "'seed' and 'version' must be whole numbers"),
    (lambda d: d.update(recorded=1), "'recorded' must be true or false"),
    (lambda d: d.update(seed=10**15), "'seed' has more than 15 digits"),
    (lambda d: d.update(phase="paused"), "unknown phase 'paused'"),
    (lambda d: d.update(colour="red"), "unexpected field 'colour'"),
    (lambda d: d.pop("seed"), "missing field 'seed'"),
    (lambda d: d["seats"][1].update(code=1234), "seat 2: the code must be a string"),
    (lambda d: d["seats"][1].update(code="RGBX"), "seat 2: Only R, G, B, Y, W and K are allowed."),
    (lambda d: d["seats"][1].update(guesses=["RGBY", "RGBY", "RRRR"]), "seat 2 guessed after its board was finished"),
    (lambda d: d["seats"][1].update(holder=d["seats"][0]["holder"]), "someone sits twice at the table"),
    (lambda d: d["seats"][2].update(computer="Deep Blue"), "seat 3: 'Deep Blue' is not a computer player"),
    (lambda d: d["seats"][1].update(away_since=True), "seat 2: 'away_since' must be a number"),
    (lambda d: d["seats"][1]["holder"].update(session="a b"), "'a b' is not a session id"),
    (lambda d: d.update(phase="open"), "seat 1 has played before the game started"),
    (lambda d: d.update(phase="finished"), "seat 3: only a computer in a running game has a move due"),
    (lambda d: d.update(phase="finished") or d["seats"][2].update(next_move_at=None),
     "the game is finished but a seat is still playing"),
    (lambda d: d.update(seats=d["seats"][:1]), "a table has 2 to 4 seats"),
])
def test_from_json_refuses_what_is_not_a_table_with_the_reason(damage, reason):
    t = table(seats=3)
    t.sit(BEA, 1)
    t.seat_computer(ALAN, 2, "VIKI")
    t.start(ALAN, 0)
    t.set_code(ALAN, "RGBY", 0)
    t.set_code(BEA, "KKWW", 0)
    data = copy.deepcopy(t.to_json())
    damage(data)
    with pytest.raises(TableDataError) as info:
        Table.from_json(data)
    assert info.value.reason == reason


def test_the_open_phase_is_the_first():
    assert table().phase == OPEN


def test_computer_moves_worked_out_on_a_copy_are_the_moves_the_table_plays():
    t = running("HAL9000", "VIKI", pace=(1.0, 2.0))
    copy = Table.from_json(t.to_json())
    moves = copy.tick(30.0)
    assert moves and all(isinstance(code, str) for code in moves.values())
    t.tick(30.0, moves)
    assert t.to_json() == copy.to_json()


# ---- opening tables: one unstarted per person, a few per address (docs/play.md, *Tables*)


def test_a_person_with_an_unstarted_table_may_not_open_another():
    from wom_tui.domain.table import check_may_open

    mine = Table("t-1", ALAN, seats=2)
    with pytest.raises(Refused, match="already have a table that has not started"):
        check_may_open([mine], SeatHolder("Alan", "s-alan-elsewhere", True), None, 0)
    check_may_open([mine], BEA, None, 0)
    mine.close(ALAN)
    check_may_open([mine], ALAN, None, 0)


def test_an_address_at_its_cap_may_not_open_another_and_is_told_why():
    from wom_tui.domain.table import check_may_open

    guests = [SeatHolder(f"Guest {n}", f"s-g{n}", False) for n in range(4)]
    tables = [Table(f"t-{n}", g, origin="2001:db8::1") for n, g in enumerate(guests[:3])]
    with pytest.raises(Refused, match="already has 3 tables waiting to start \\(at most 3\\)"):
        check_may_open(tables, guests[3], "2001:db8::1", 3)
    check_may_open(tables, guests[3], "2001:db8::2", 3)
    check_may_open(tables, guests[3], "2001:db8::1", 0)  # 0: no cap
    check_may_open(tables, guests[3], None, 3)  # on this machine: no cap


def test_a_tables_origin_is_kept_and_a_table_without_one_still_reads():
    table = Table("t-1", ALAN, origin="192.0.2.1")
    assert Table.from_json(json.loads(json.dumps(table.to_json()))).origin == "192.0.2.1"
    plain = Table("t-2", ALAN).to_json()
    assert "origin" not in plain  # older versions read tables opened on this machine as before
    assert Table.from_json(plain).origin is None
    with pytest.raises(TableDataError):
        Table.from_json({**plain, "origin": 7})


def test_the_final_rows_reveal_each_code_with_attempts_and_points_for_everyone_alike():
    t = running(BEA, GUEST, codes={"Alan": "RGBY", "Bea": "KKWW", "guest 3": "WWYY"})
    with pytest.raises(Refused):
        t.final_rows()
    t.guess(ALAN, "WWYK", 1)
    t.guess(ALAN, "WWYY", 2)
    for _ in range(5):
        t.guess(BEA, "RRRR", 3)
    t.guess(GUEST, "KKWW", 4)
    rows = t.final_rows()
    # Seat i breaks the code seat i-1 set: Alan the guest's, Bea Alan's, the guest Bea's.
    assert [(r.name, r.code, r.broke, r.attempts, r.points) for r in rows] == [
        ("Alan", "WWYY", True, 2, 9), ("Bea", "RGBY", False, 5, 0), (GUEST.name, "KKWW", True, 1, None)]
