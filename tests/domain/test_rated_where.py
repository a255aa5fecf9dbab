"""Which games are rated, as transcripts of real games: hot-seat games need two registered users, a live
table two rated players (HAL9000 and VIKI count), guests never; a record older than the marker is read as
it always was (docs/play.md, *Ratings*)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from wom_tui.domain.ratings import rate_games, rated_game
from wom_tui.domain.records import GameRecord
from wom_tui.domain.stats import GameSummary
from wom_tui.domain.table import FINISHED, SeatHolder, Table
from wom_tui.domain.users import User, UserRegistry
from wom_tui.domain.wom import WomGame, players_from_names

REGISTRY = UserRegistry([User("Alan"), User("Betty")])
CODES = {"Alan": "RGBY", "Betty": "YBGR", "Guest 1": "WWKK", "Guest 2": "KKWW"}


def play_out(game: WomGame) -> None:
    """Every person sets their code; a person breaks a person's code at once and guesses RRRR at a computer's."""
    while game.phase == "making":
        game.make_code(CODES.get(game.maker.name))
    while game.phase == "guessing":
        breaker = game.current
        game.play_turn(None if breaker.is_computer else CODES.get(game.maker_for(breaker).name, "RRRR"))


def hot_seat(*names: str) -> GameRecord:
    """A hot-seat World of Mastermind game of ``names`` played to its end, as the screen records it."""
    records: list[GameRecord] = []
    game = WomGame(players_from_names(list(names), REGISTRY), 5, random.Random(3), on_finish=records.append)
    play_out(game)
    (record,) = records
    return record


def live_table(*seats: SeatHolder | str) -> GameRecord:
    """A live table of people (SeatHolder) and computers (their names), played to its end."""
    creator = next(s for s in seats if isinstance(s, SeatHolder))
    table = Table("t-rated", creator, seats=len(seats), seed=2, now=0.0, pace=(0.0, 0.0))
    for index, seat in enumerate(seats):
        if isinstance(seat, str):
            table.seat_computer(creator, index, seat)
        elif seat is not creator:
            table.sit(seat, index)
    table.start(creator, 0.0)
    for seat in seats:
        if isinstance(seat, SeatHolder):
            table.set_code(seat, CODES[seat.name], 0.0)
    for seat in seats:
        if isinstance(seat, SeatHolder):
            table.leave(seat, 1.0)  # the people go; the computers play on, and the table finishes
    table.tick(1000.0)
    assert table.phase == FINISHED
    return table.record({"alan", "betty"})


def rated(record: GameRecord) -> list[str] | None:
    game = rated_game(GameSummary.of("g1", record))
    return None if game is None else [name for name, _ in game.players]


ALAN, BETTY = SeatHolder("Alan", "s-alan", True), SeatHolder("Betty", "s-betty", True)
GUEST = SeatHolder("Guest 1", "s-guest", False)


def test_hot_seat_one_registered_user_against_hal_is_not_rated():
    record = hot_seat("Alan", "HAL9000")
    assert record.hot_seat is True and record.table_id is None
    assert rated(record) is None
    assert rated(hot_seat("Alan", "HAL9000", "VIKI")) is None  # two computers do not make it a rated game


def test_hot_seat_two_registered_users_are_rated_and_a_computer_with_them_too():
    assert rated(hot_seat("Alan", "Betty")) == ["Alan", "Betty"]
    assert rated(hot_seat("Alan", "HAL9000", "Betty")) == ["Alan", "HAL9000", "Betty"]


def test_a_live_table_with_one_registered_user_and_viki_is_rated():
    record = live_table(ALAN, "VIKI")
    assert record.hot_seat is False and record.table_id == "t-rated"
    assert rated(record) == ["Alan", "VIKI"]
    assert rated(live_table(ALAN, BETTY)) == ["Alan", "Betty"]


def test_guests_are_never_rated_nor_counted():
    assert rated(hot_seat("Alan", "Guest 1", "HAL9000")) is None
    assert rated(hot_seat("Alan", "Guest 1", "Betty")) == ["Alan", "Betty"]
    assert rated(live_table(ALAN, GUEST)) is None
    assert rated(live_table(GUEST, "HAL9000")) is None
    assert rated(live_table(GUEST, ALAN, "VIKI")) == ["Alan", "VIKI"]


def test_the_marker_survives_json_and_an_older_record_is_read_as_it_always_was():
    for record in (hot_seat("Alan", "HAL9000"), live_table(ALAN, "VIKI")):
        again = GameRecord.from_json(record.as_json())
        assert (again.hot_seat, again.table_id) == (record.hot_seat, record.table_id)
        assert GameSummary.of("g1", again).hot_seat == record.hot_seat
    older = hot_seat("Alan", "HAL9000").as_json()
    del older["hot_seat"]
    old = GameRecord.from_json(older)
    assert old.hot_seat is None
    assert rated(old) == ["Alan", "HAL9000"]  # before the marker: rated, as it was when it was recorded


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["Alan", "Betty", "HAL9000", "VIKI", "Guest 1", "Guest 2"]),
                min_size=2, max_size=4, unique=True))
def test_a_hot_seat_game_is_rated_exactly_when_two_registered_users_played(names):
    record = hot_seat(*names)
    users = [n for n in names if n in ("Alan", "Betty")]
    expected = [n for n in names if not n.startswith("Guest")] if len(users) >= 2 else None
    assert rated(record) == expected
    book = rate_games([GameSummary.of("g1", record)])
    assert book.rated == (1 if expected else 0)
