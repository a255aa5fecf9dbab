"""Round trips: whatever the store writes, it reads back equal (hypothesis)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wom_tui.domain.codes import PALETTES, Feedback, Ruleset, feedback
from wom_tui.domain.halloffame import HallEntry, HallOfFame
from wom_tui.domain.records import GameRecord, PlayerRecord
from wom_tui.domain.store.documents import (
    decode_game,
    decode_hall,
    decode_users,
    encode_game,
    encode_hall,
    encode_users,
    parse_document,
)
from wom_tui.domain.users import (
    COMPUTER_NAMES,
    NAME_CHARACTERS,
    NameRejected,
    User,
    UserRegistry,
    check_guest_name,
    check_new_name,
    computer_name,
    fold_name,
)


def _passes(check, name: str) -> bool:
    try:
        check(name)
    except NameRejected:
        return False
    return True


def names(guest: bool = False):
    """Names the domain's own rules accept: a guest's hall-of-fame name, or one a player may register
    (no look-alike of a computer's name or of a guest's label such as GUEST or Guest 12)."""
    check = check_guest_name if guest else (lambda name: check_new_name(name, lambda _: None))
    return st.from_regex(f"{NAME_CHARACTERS}{{1,16}}", fullmatch=True).filter(lambda name: _passes(check, name))


counts = st.integers(min_value=0, max_value=10**9)

registries = st.lists(st.tuples(names(), counts, counts), max_size=30,
                      unique_by=lambda t: fold_name(t[0])).map(
    lambda rows: UserRegistry(User(n, s, g) for n, s, g in rows))

rulesets = st.builds(
    lambda length, palette, repeats, guesses: Ruleset(
        length if repeats else min(length, len(PALETTES[palette])), PALETTES[palette], repeats, guesses),
    st.integers(1, 8), st.sampled_from(sorted(PALETTES)), st.booleans(), st.integers(1, 20),
)

dates = st.datetimes(timezones=st.just(__import__("datetime").timezone.utc)).map(
    lambda d: d.replace(microsecond=0).isoformat())


@st.composite
def hall_entries(draw, ruleset=None):
    ruleset = ruleset or draw(rulesets)
    guest = draw(st.booleans())
    return HallEntry(ruleset, draw(st.integers(1, ruleset.guesses)), draw(names(guest)), guest,
                     draw(dates))


halls = st.lists(hall_entries(), max_size=12, unique_by=lambda e: e.ruleset.key).map(HallOfFame)


@st.composite
def game_records(draw):
    ruleset = draw(rulesets)
    kind = draw(st.sampled_from(["wom", "solo"]))
    player_names = draw(st.lists(st.one_of(names(), st.sampled_from(COMPUTER_NAMES)), min_size=1, max_size=4,
                                 unique_by=str.casefold))
    code = st.text(ruleset.palette.symbols, min_size=ruleset.length, max_size=ruleset.length)
    players = []
    for name in player_names:
        secret = draw(code)
        guesses = draw(st.lists(st.one_of(code, st.just("LIFELINE")), max_size=ruleset.guesses))
        rows = tuple((g, Feedback(0, 0) if g == "LIFELINE" else feedback(secret, g)) for g in guesses)
        is_user = computer_name(name) is None and draw(st.booleans())
        players.append(PlayerRecord(name, is_user, draw(st.booleans()), len(rows), rows,
                                    draw(st.integers(0, 20)), draw(st.integers(0, 20))))
    return GameRecord(kind, ruleset, tuple(players), draw(dates))


@given(registries, st.lists(st.just("20261120T120000000000Z-0123456789ab"), max_size=1))
def test_users_round_trip(registry, recent):
    again, recent_again = decode_users(parse_document(encode_users(registry, recent)))
    assert list(again) == list(registry)
    assert recent_again == recent


@given(halls)
def test_hall_of_fame_round_trips(hall):
    again = decode_hall(parse_document(encode_hall(hall)))
    assert again == hall
    assert again.entries() == hall.entries()


@given(game_records())
def test_game_records_round_trip(record):
    game_id = "20261120T120000000000Z-0123456789ab"
    assert decode_game(parse_document(encode_game(game_id, record))) == (game_id, record)


# No deadline: on PostgreSQL each example opens a store in a new schema (round trips, not computing).
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(names(), max_size=8, unique_by=fold_name), halls)
def test_what_a_store_writes_it_reads_back(store_factory, users, hall):
    # Each example's store is closed at its end: a PostgreSQL store's pool, left open, may still be
    # growing in a thread while hypothesis draws the next example, and psycopg_pool takes the jitter of
    # a new connection's lifetime from the global random module (a HypothesisDeprecationWarning).
    store = store_factory.fresh()
    try:
        for name in users:
            store.register(name)
        for entry in hall.entries():
            assert store.submit_hall_entry(entry)
        assert [u.name for u in store.users()] == users
        assert store.hall_of_fame() == hall
        store.check()
    finally:
        store.close()
