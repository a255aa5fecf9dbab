"""Quick match, as transcripts: waves, widening closeness, filling with computers, never a double seat."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from wom_tui.domain.matchmaking import (
    pair_key,
    CLOSENESS,
    MATCHED_KEEP,
    STRAGGLER_HOLD,
    WAVE_INTERVAL,
    WIDENING,
    MatchQueue,
    Ticket,
    match_table,
    pair,
    run_wave,
    wave_due,
)
from wom_tui.domain.codes import WOM_RULESET
from wom_tui.domain.table import MAKING, SeatHolder, TableDataError

import pytest


def person(name: str, registered: bool = True) -> SeatHolder:
    return SeatHolder(name, f"s-{name.replace(' ', '_')}", registered)


def ticket(name: str, since: float = 0.0, **kw) -> Ticket:
    return Ticket(person(name), since, **kw)


def queue(*tickets: Ticket, last_wave: float = 0.0) -> MatchQueue:
    return MatchQueue(tuple(tickets), last_wave)


ids = (f"t{n}" for n in itertools.count())


def make(group):
    return match_table(next(ids), group, seed=7, now=100.0)


def test_a_wave_is_due_every_ten_seconds_or_at_once_when_four_wait():
    two = queue(ticket("Ann", 100.0), ticket("Bob", 101.0), last_wave=100.0)
    assert not wave_due(two, 105.0)
    assert wave_due(two, 100.0 + WAVE_INTERVAL)
    alone = queue(ticket("Ann", 100.0), last_wave=100.0)
    assert not wave_due(alone, 109.0) and wave_due(alone, 110.0)  # a wave of one starts the next interval
    four = queue(*(ticket(n, 100.0) for n in ("Ann", "Bob", "Cy", "Di")), last_wave=100.0)
    assert wave_due(four, 100.5)
    assert not wave_due(queue(last_wave=0.0), 1000.0)  # nobody waits


def test_four_of_a_kind_of_attempts_only_trigger_a_wave_together():
    mixed = queue(ticket("Ann", 100.0), ticket("Bob", 100.0), ticket("Cy", 100.0, attempts=8),
                  ticket("Di", 100.0, attempts=8), last_wave=100.0)
    assert not wave_due(mixed, 101.0)
    groups = pair(mixed, {}, 101.0)
    assert sorted(sorted(t.holder.name for t in g.tickets) for g in groups) == [["Ann", "Bob"], ["Cy", "Di"]]
    assert {g.attempts for g in groups} == {10, 8}


def test_four_close_players_make_one_table_of_four_that_starts():
    q = queue(*(ticket(n, 100.0) for n in ("Ann", "Bob", "Cy", "Di")))
    new, tables = run_wave(q, {}, 101.0, new_table=make)
    assert len(tables) == 1
    table = tables[0]
    assert table.phase == MAKING
    assert sorted(table.names) == ["Ann", "Bob", "Cy", "Di"]
    assert table.attempts == 10 and table.ruleset == WOM_RULESET.with_guesses(10)
    assert all(t.table_id == table.table_id for t in new.tickets)
    assert new.last_wave == 101.0 and not new.waiting


def test_far_ratings_wait_then_the_closeness_widens():
    q = queue(ticket("Ann", 100.0), ticket("Bob", 100.0))
    ratings = {"s-Ann": 1000.0, "s-Bob": 1600.0}
    assert pair(q, ratings, 101.0) == []  # 600 apart, nobody has waited
    seconds = (600 - CLOSENESS) / WIDENING
    assert pair(q, ratings, 100.0 + seconds - 1) == []
    [group] = pair(q, ratings, 100.0 + seconds)
    assert {t.holder.name for t in group.tickets} == {"Ann", "Bob"}


def test_the_closest_ratings_sit_together():
    q = queue(ticket("Ann", 100.0), ticket("Bob", 100.0), ticket("Cy", 100.0), ticket("Di", 100.0))
    ratings = {"s-Ann": 1000.0, "s-Bob": 1900.0, "s-Cy": 1050.0, "s-Di": 1950.0}
    groups = pair(q, ratings, 100.0)
    assert sorted(sorted(t.holder.name for t in g.tickets) for g in groups) == [["Ann", "Cy"], ["Bob", "Di"]]


def test_a_guest_counts_as_the_middle_of_the_scale():
    q = queue(ticket("Guest 1", 100.0, ), Ticket(person("Guest 2", False), 100.0))
    from wom_tui.domain.matchmaking import RATING_MIDDLE

    assert len(pair(q, {"s-Guest_1": RATING_MIDDLE + 50}, 100.0)) == 1  # within the closeness of the middle


def test_alone_after_the_fill_time_the_nearest_computer_fills_the_table():
    q = queue(ticket("Ann", 100.0, fill_after=30.0))
    assert pair(q, {"s-Ann": 1800.0}, 129.0, {"HAL9000": 1400.0, "VIKI": 1900.0}) == []
    [group] = pair(q, {"s-Ann": 1800.0}, 130.0, {"HAL9000": 1400.0, "VIKI": 1900.0})
    assert group.computers == ("VIKI",)
    [group] = pair(q, {"s-Ann": 1300.0}, 130.0, {"HAL9000": 1400.0, "VIKI": 1900.0})
    assert group.computers == ("HAL9000",)
    table = make(group)
    assert table.names == ("Ann", "HAL9000") and table.phase == MAKING


def test_a_player_who_chose_the_computers_at_once_is_filled_at_the_next_wave():
    q = queue(ticket("Ann", 100.0, fill_after=0.0))
    assert wave_due(queue(ticket("Ann", 100.0, fill_after=0.0), last_wave=100.0), 100.0)
    [group] = pair(q, {}, 100.0)
    assert group.computers


def test_more_than_four_close_players_make_several_tables_and_nobody_is_left_alone():
    q = queue(*(ticket(f"P{n}", 100.0 + n) for n in range(9)))
    new, tables = run_wave(q, {}, 110.0, new_table=make, hold=0)
    assert sorted(t.seat_count for t in tables) == [2, 3, 4]  # not 4 + 4 and the ninth left waiting
    assert new.waiting == ()
    # With the straggler hold: the four sit at once, the three and the two once the hold is over.
    new, tables = run_wave(q, {}, 110.0, new_table=make)
    assert [t.seat_count for t in tables] == [4] and sorted(map(len, new.held.values())) == [2, 3]
    assert not wave_due(new, 110.0 + STRAGGLER_HOLD - 0.1) and wave_due(new, 110.0 + STRAGGLER_HOLD)
    new, tables = run_wave(new, {}, 110.0 + STRAGGLER_HOLD, new_table=make)
    assert sorted(t.seat_count for t in tables) == [2, 3] and new.waiting == ()
    five = queue(*(ticket(f"P{n}", 100.0) for n in range(5)))
    assert sorted(len(g.tickets) for g in pair(five, {}, 100.0)) == [2, 3]


def test_a_player_too_far_from_everyone_is_still_left_to_wait():
    q = queue(*(ticket(f"P{n}", 100.0) for n in range(4)), ticket("Far", 100.0))
    groups = pair(q, {"s-Far": 2500.0}, 100.0)
    assert [len(g.tickets) for g in groups] == [4]


def test_a_dropped_player_leaves_the_queue_and_seated_tickets_expire():
    q = queue(ticket("Ann", 100.0), ticket("Bob", 100.0),
              Ticket(person("Cy"), 10.0, table_id="old", matched_at=20.0))
    new, tables = run_wave(q, {}, 20.0 + MATCHED_KEEP + 1, new_table=make, live={"s-Ann"})
    assert tables == [] and [t.holder.name for t in new.tickets] == ["Ann"]


def test_a_seated_ticket_is_never_paired_again():
    q = queue(Ticket(person("Ann"), 100.0, table_id="t-old", matched_at=100.0), ticket("Bob", 100.0))
    assert pair(q, {}, 101.0) == []


def test_the_queue_keeps_one_ticket_per_person():
    q = queue(ticket("Ann", 100.0)).with_ticket(Ticket(SeatHolder("ann", "other", True), 120.0))
    assert [t.session for t in q.tickets] == ["other"]


def test_tickets_and_queues_round_trip_and_bad_data_is_refused():
    q = queue(ticket("Ann", 100.0, attempts=7), Ticket(person("Bob"), 1.5, table_id="t1", matched_at=2.0),
              last_wave=3.0)
    assert MatchQueue.from_json(q.as_json()) == q
    for bad in ({}, {"tickets": [{}], "last_wave": 0}, {"tickets": [], "last_wave": "x"},
                {"tickets": [dict(ticket("Ann").as_json(), attempts=99)], "last_wave": 0}):
        with pytest.raises(TableDataError):
            MatchQueue.from_json(bad)


names = st.sampled_from([f"P{n}" for n in range(12)])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(names, st.floats(0, 60), st.sampled_from([8, 10]), st.floats(0, 40),
                          st.floats(800, 2200)), max_size=14),
       st.floats(0, 120))
def test_no_player_ever_sits_at_two_tables(entries, now):
    q = MatchQueue()
    ratings = {}
    for name, since, attempts, fill_after, rating in entries:
        q = q.with_ticket(ticket(name, since, attempts=attempts, fill_after=fill_after))
        ratings[f"s-{name}"] = rating
    groups = pair(q, ratings, now)
    seated = [t.session for g in groups for t in g.tickets]
    assert len(seated) == len(set(seated))
    for g in groups:
        assert 2 <= len(g.tickets) + len(g.computers) <= 4
        assert all(t.attempts == g.attempts for t in g.tickets)
    new, tables = run_wave(q, ratings, now, new_table=make)
    held = {t.session for members in new.held.values() for t in members}
    assert not set(seated) & ({t.session for t in new.waiting} - held)
    # Later waves (one at once, one once the holds are over) seat nobody who is already seated, and
    # everyone pairing put in a group is seated in the end.
    people = [n for t in tables for n in t.names if n not in ("HAL9000", "VIKI")]
    for later in (now, now + STRAGGLER_HOLD):
        new, again = run_wave(new, ratings, later, new_table=make)
        people += [n for t in again for n in t.names if n not in ("HAL9000", "VIKI")]
    assert len(people) == len(set(people))
    assert set(seated) <= {f"s-{n}" for n in people}  # (later waves may hold new groups of their own)


# ---- stragglers: a wave's group of two or three is held a moment for one more


def test_a_straggler_just_after_a_wave_joins_the_held_group_instead_of_waiting_alone():
    q = queue(ticket("Ann", 100.0), ticket("Bob", 101.0), last_wave=100.0)
    held, tables = run_wave(q, {}, 110.0, new_table=make)
    assert tables == [] and list(held.held.values()) == [held.waiting]  # Ann and Bob, held together
    assert {t.held_until for t in held.waiting} == {110.0 + STRAGGLER_HOLD}
    # Cy arrives a second later: a wave is due at once (not ten seconds on), and Cy joins them.
    late = held.with_ticket(ticket("Cy", 111.0))
    assert wave_due(late, 111.0)
    joined, tables = run_wave(late, {}, 111.0, new_table=make)
    assert tables == [] and [len(m) for m in joined.held.values()] == [3]
    assert not wave_due(joined, 112.0)  # nobody else to join: the hold runs out
    done, tables = run_wave(joined, {}, 110.0 + STRAGGLER_HOLD, new_table=make)
    [table] = tables
    assert table.names == ("Ann", "Bob", "Cy") and table.phase == MAKING
    assert done.waiting == () and all(t.table_id == table.table_id for t in done.tickets)


def test_a_held_group_that_fills_to_four_sits_at_once():
    q = queue(ticket("Ann", 100.0), ticket("Bob", 100.0), ticket("Cy", 100.0), last_wave=90.0)
    held, tables = run_wave(q, {}, 100.0, new_table=make)
    assert tables == []
    [table] = run_wave(held.with_ticket(ticket("Di", 100.5)), {}, 100.5, new_table=make)[1]
    assert table.names == ("Ann", "Bob", "Cy", "Di")


def test_a_straggler_too_far_in_rating_does_not_join_and_waits_by_the_usual_rules():
    ratings = {"s-Ann": 1000.0, "s-Bob": 1000.0, "s-Far": 2200.0}
    held, _ = run_wave(queue(ticket("Ann", 100.0), ticket("Bob", 100.0)), ratings, 100.0, new_table=make)
    late = held.with_ticket(ticket("Far", 100.5))
    after, tables = run_wave(late, ratings, 100.5, new_table=make)
    assert tables == [] and [t.holder.name for t in after.waiting if t.free] == ["Far"]
    [table] = run_wave(after, ratings, 100.0 + STRAGGLER_HOLD, new_table=make)[1]
    assert table.names == ("Ann", "Bob")


def test_a_held_group_whose_other_player_leaves_goes_back_to_waiting():
    held, _ = run_wave(queue(ticket("Ann", 100.0), ticket("Bob", 100.0)), {}, 100.0, new_table=make)
    alone, tables = run_wave(held.without({"s-Bob"}), {}, 101.0, new_table=make)
    assert tables == [] and alone.held == {} and [t.holder.name for t in alone.waiting if t.free] == ["Ann"]
    gone, _ = run_wave(held, {}, 101.0, new_table=make, live={"s-Ann"})  # Bob's connection dropped
    assert gone.held == {} and [t.free for t in gone.waiting] == [True]


def test_a_computer_table_and_a_table_of_four_are_never_held():
    q = queue(ticket("Ann", 100.0, fill_after=0.0))
    [table] = run_wave(q, {}, 100.0, new_table=make)[1]
    assert table.seat_count == 2
    four = queue(*(ticket(n, 100.0) for n in ("Ann", "Bob", "Cy", "Di")))
    assert len(run_wave(four, {}, 100.0, new_table=make)[1]) == 1


def test_held_tickets_round_trip_and_older_tickets_still_read():
    held, _ = run_wave(queue(ticket("Ann", 100.0), ticket("Bob", 100.0)), {}, 100.0, new_table=make)
    assert MatchQueue.from_json(held.as_json()) == held
    plain = ticket("Ann", 100.0).as_json()
    assert "group" not in plain and Ticket.from_json(plain) == ticket("Ann", 100.0)
    with pytest.raises(TableDataError):
        Ticket.from_json(dict(plain, group="s-Ann"))  # a group without when its hold ends


def test_a_quick_match_table_has_a_guess_clock_so_a_stalling_loser_cannot_keep_it_from_finishing():
    from wom_tui.domain.table import FINISHED, GUESSING
    from wom_tui.settings import Settings

    from wom_tui.domain.table import GUESS_CLOCKS

    clock = Settings(data_dir=".", seed=1).quick_match_clock
    assert clock in GUESS_CLOCKS  # the server's default is one a table accepts
    alan, bob = person("Alan"), person("Bob")
    group = pair(queue(ticket("Alan"), ticket("Bob")), {}, 20.0)[0]
    table = match_table("tq", group, seed=7, now=100.0, guess_clock=clock)
    table.set_code(alan, "RGBY", 101.0)
    table.set_code(bob, "WWKK", 102.0)
    assert table.phase == GUESSING
    table.guess(bob, "RGBY", 103.0)  # Bob breaks Alan's code at once
    # Alan never guesses and only presses keys that do nothing: his clock runs out, and the game ends.
    table.tick(102.0 + clock - 1)
    assert table.phase == GUESSING
    table.tick(102.0 + clock)
    assert table.phase == FINISHED
    assert [r.broke for r in table.results().players] == [False, True]


def test_two_names_from_one_network_are_paired_only_when_nobody_else_waits_and_then_unrated():
    from wom_tui.domain.matchmaking import UNRATED_LINE

    # Alan and Bob: two keys of one person at one address. Carol comes from elsewhere.
    alan = Ticket(person("Alan"), 0.0, network="198.51.100.0/24")
    bob = Ticket(person("Bob"), 0.0, network="198.51.100.0/24")
    carol = Ticket(person("Carol"), 0.0, network="203.0.113.0/24")
    # Somebody else waits: not together (Alan plays Carol; Bob waits for the next one).
    groups = pair(queue(alan, bob, carol), {}, 5.0)
    assert [[t.holder.name for t in g.tickets] for g in groups] == [["Alan", "Carol"]]
    assert groups[0].rated
    # Nobody else: they play each other, but the game is unrated, and the table says so.
    (group,) = pair(queue(alan, bob), {}, 5.0)
    assert [t.holder.name for t in group.tickets] == ["Alan", "Bob"] and not group.rated
    table = match_table("tn", group, seed=7, now=100.0)
    assert not table.rated and UNRATED_LINE in table.view_for(None).log
    assert not table.view_for(None).rated  # the results then show no rating change to wait for
    assert Ticket.from_json(alan.as_json()) == alan


def test_a_repeat_pairing_waits_while_others_wait_and_is_allowed_when_nobody_else_does():
    from wom_tui.domain.matchmaking import REPEAT_PAIRING

    first, tables = run_wave(queue(ticket("Alan"), ticket("Bob")), {}, 10.0, new_table=make, hold=0)
    assert [sorted(t.names) for t in tables] == [["Alan", "Bob"]]
    assert first.paired == (("alan bob", 10.0),)
    # Back in the queue a minute later, with Carol waiting too: Alan and Bob are not paired again.
    again = MatchQueue((ticket("Alan", 70.0), ticket("Bob", 70.0), ticket("Carol", 70.0)), first.last_wave, first.paired)
    groups = pair(again, {}, 71.0)
    assert [[t.holder.name for t in g.tickets] for g in groups] == [["Alan", "Carol"]]
    # Alone together: they are (the ratings count the repeat for little: test_ratings).
    alone = MatchQueue((ticket("Alan", 70.0), ticket("Bob", 70.0)), first.last_wave, first.paired)
    assert [[t.holder.name for t in g.tickets] for g in pair(alone, {}, 71.0)] == [["Alan", "Bob"]]
    # Guests are not kept apart (they are never rated); a pairing older than the window is forgotten.
    guests = MatchQueue((ticket("Guest 1", 70.0), ticket("Guest 2", 70.0), ticket("Carol", 70.0, attempts=8)))
    assert len(pair(guests, {}, 71.0)) == 1
    later = 10.0 + REPEAT_PAIRING
    crowd = MatchQueue((ticket("Alan", later), ticket("Bob", later), ticket("Carol", later)), first.last_wave,
                       first.paired)
    new, tables = run_wave(crowd, {"s-Carol": 2000.0}, later, new_table=make, hold=0)
    assert [sorted(t.names) for t in tables] == [["Alan", "Bob"]]
    assert new.paired == (("alan bob", later),)  # the old one forgotten, the new one kept
    assert MatchQueue.from_json(new.as_json()) == new


networks = st.sampled_from([None, "198.51.100.0/24", "203.0.113.0/24"])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(names, st.floats(0, 60), st.sampled_from([8, 10]), networks, st.booleans()), max_size=10),
       st.sets(st.tuples(names, names)), st.floats(0, 120))
def test_one_network_and_repeat_pairs_sit_together_only_without_a_crowd(entries, recent, now):
    q = MatchQueue()
    for name, since, attempts, network, registered in entries:
        q = q.with_ticket(Ticket(person(name, registered), since, attempts=attempts, fill_after=0.0, network=network))
    paired = tuple((key, 0.0) for a, b in recent if (key := pair_key(person(a), person(b))) is not None)
    q = MatchQueue(q.tickets, 0.0, paired)
    crowd = {}
    for t in q.waiting:
        crowd[t.attempts] = crowd.get(t.attempts, 0) + 1
    recent_keys = {key for key, _ in paired}
    new, tables = run_wave(q, {}, now, new_table=make, hold=0)  # (no group held: every group is a table)
    by_session = {t.session: t for t in q.tickets}
    for table in tables:
        seated = [by_session[s.holder.session] for s in table._seats if s.holder is not None]
        shared = any(a.network is not None and a.network == b.network for a, b in itertools.combinations(seated, 2))
        repeat = any(pair_key(a.holder, b.holder) in recent_keys for a, b in itertools.combinations(seated, 2))
        if shared or repeat:
            assert crowd[table.attempts] <= 2  # only when nobody else waited
        assert table.rated == (not shared)  # one network's players: unrated; anyone else: rated
    for table in tables:
        people = [s.holder for s in table._seats if s.holder is not None]
        for a, b in itertools.combinations(people, 2):
            if (key := pair_key(a, b)) is not None:
                assert (key, now) in new.paired  # remembered for the next waves


def test_an_unrated_quick_match_is_recorded_unrated_and_moves_no_rating():
    from wom_tui.domain.ratings import rate_games
    from wom_tui.domain.records import GameRecord
    from wom_tui.domain.stats import GameSummary

    alan, bob = person("Alan"), person("Bob")
    (group,) = pair(queue(Ticket(alan, 0.0, network="198.51.100.0/24"), Ticket(bob, 0.0, network="198.51.100.0/24")),
                    {}, 5.0)
    table = match_table("tu", group, seed=7, now=100.0)
    table.set_code(alan, "RGBY", 101.0)
    table.set_code(bob, "WWKK", 102.0)
    table.guess(alan, "WWKK", 103.0)
    table.leave(bob, 104.0)  # Bob leaves without a guess
    again = type(table).from_json(table.to_json())
    assert not again.rated and again.to_json() == table.to_json()
    record = again.record({"alan", "bob"})
    assert not record.rated and GameRecord.from_json(record.as_json()) == record
    summary = GameSummary.of("g1", record)
    assert not summary.rated
    assert rate_games([summary]).rating("Alan") is None  # no rated game at all
    assert rate_games([summary._replace(rated=True)]).rating("Alan") is not None


def test_a_ticket_names_the_players_network_but_never_loopback():
    from wom_tui.domain.matchmaking import pairing_network

    assert pairing_network("198.51.100.7") == pairing_network("198.51.100.200") == "198.51.100.0/24"
    assert pairing_network("2001:db8::1") == "2001:db8::/64"
    # The machine's own users, or everyone behind a proxy not declared with --trusted-proxy: not held apart.
    assert pairing_network("127.0.0.1") is None and pairing_network("::1") is None and pairing_network(None) is None
