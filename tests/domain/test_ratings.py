"""Ratings: OpenSkill's Plackett-Luce updates, rated games, and rating again giving the same numbers."""

from __future__ import annotations

import random
from datetime import datetime, timezone

from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from wom_tui.domain.codes import WOM_RULESET
from wom_tui.domain.ratings import (
    MU, SIGMA, RatingBook, catch_up, plackett_luce, rate_games, rated_game, shown,
)
from wom_tui.domain.stats import GameSummary, PlayerLine

RULES = WOM_RULESET.with_guesses(5)


def game(game_id: str, at: str, *lines: tuple[str, bool, bool, int]) -> GameSummary:
    """A WoM summary; each line (name, is_user, broke, attempts); points as the rules give them."""
    return GameSummary(game_id, "wom", RULES, at, tuple(PlayerLine(n, u, b, a, 0) for n, u, b, a in lines))


def test_one_game_moves_ratings_exactly_as_openskill_rate_does():
    model = PlackettLuce()
    ours = plackett_luce([(MU, SIGMA), (MU, SIGMA), (30.0, 4.0)], [9, 4, 4])
    theirs = model.rate([[model.rating()], [model.rating()], [model.rating(mu=30.0, sigma=4.0)]], ranks=[0, 1, 1])
    for (mu, sigma), (reference,) in zip(ours, theirs, strict=True):
        assert abs(mu - reference.mu) < 1e-9 and abs(sigma - reference.sigma) < 1e-9
    # The winner goes up, the two tied below move the same way for the same start.
    assert ours[0][0] > MU > ours[1][0]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 60), st.floats(0.3, 9), st.integers(0, 20)), min_size=2, max_size=4))
def test_every_update_is_openskills(players):
    model = PlackettLuce()
    points = [p for _, _, p in players]
    ranks = [sum(1 for other in points if other > mine) for mine in points]
    theirs = model.rate([[model.rating(mu=mu, sigma=sigma)] for mu, sigma, _ in players], ranks=ranks)
    ours = plackett_luce([(mu, sigma) for mu, sigma, _ in players], points)
    for (mu, sigma), (reference,) in zip(ours, theirs, strict=True):
        assert abs(mu - reference.mu) < 1e-7 and abs(sigma - reference.sigma) < 1e-7


def test_guests_are_not_rated_and_computers_are():
    # Alan breaks in 2 (4 + making), Guest 1 is left out, HAL9000 fails: its points come from the rules.
    summary = game("g1", "2026-01-01T00:00:00+00:00", ("Alan", True, True, 2), ("Guest 1", False, True, 1),
                   ("HAL9000", False, False, 5))
    rated = rated_game(summary)
    assert rated is not None
    assert [name for name, _ in rated.players] == ["Alan", "HAL9000"]
    # Alan: 5-2+1 = 4 breaking, making: Guest 1 broke in 1 -> 0. HAL9000: 0 breaking, making: Alan broke in 2 -> 1.
    assert dict(rated.players) == {"Alan": 4, "HAL9000": 1}
    assert rated_game(game("g2", "2026-01-01T00:00:00+00:00", ("Alan", True, True, 2), ("Guest 1", False, True, 1))) is None
    solo = GameSummary("g3", "solo", RULES, "2026-01-01T00:00:00+00:00", (PlayerLine("Alan", True, True, 2, 0),))
    assert rated_game(solo) is None


def random_games(seed: int, count: int) -> list[GameSummary]:
    rng = random.Random(seed)
    names = ["Alan", "Betty", "Cara", "Dan", "HAL9000", "VIKI", "Guest 1"]
    games = []
    for number in range(count):
        seated = rng.sample(names, rng.randint(2, 4))
        lines = []
        for name in seated:
            attempts = rng.randint(1, 5)
            lines.append((name, not name.startswith(("HAL", "VIKI", "Guest")), rng.random() < 0.6, attempts))
        # Several games finish in the same second: the id orders them.
        games.append(game(f"2026{number:06d}-{rng.randrange(16**6):06x}", f"2026-01-01T00:{number // 60 % 60:02d}:00+00:00", *lines))
    return games


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 60))
def test_rating_again_in_any_input_order_gives_the_same_book_as_one_game_at_a_time(seed, count):
    games = random_games(seed, count)
    once = rate_games(games)
    shuffled = list(games)
    random.Random(seed).shuffle(shuffled)
    assert rate_games(shuffled).as_json() == once.as_json()
    book = RatingBook()
    for index in range(len(games) + 1):
        book = catch_up(book, games[:index])
    assert book.as_json() == once.as_json()


def test_a_game_recorded_out_of_order_rates_everything_again():
    games = random_games(3, 20)
    late = games.pop(5)
    book = rate_games(games)
    assert catch_up(book.copy(), games + [late]).as_json() == rate_games(games + [late]).as_json()


def test_shown_rating_and_provisional_and_the_board():
    assert shown(MU, SIGMA) == 1000
    games = [game(f"g{n:03d}", f"2026-03-01T00:{n:02d}:00+00:00", ("Alan", True, True, 1), ("VIKI", False, n % 3 == 0, 5))
             for n in range(12)]
    book = rate_games(games)
    alan = book.rating("alan")
    assert alan is not None and alan.games == 12 and len(alan.history) == 12
    assert alan.change_in("g011") == alan.history[-1] - alan.history[-2]
    early = rate_games(games[:2]).rating("Alan")
    assert early is not None and early.provisional and early.label == f"{early.value}?"  # its number, marked
    board = book.board(datetime(2026, 3, 10, tzinfo=timezone.utc))
    assert [r.name for r in board] == ["Alan", "VIKI"][: len(board)]
    assert all(not r.provisional for r in board)
    assert book.board(datetime(2026, 5, 1, tzinfo=timezone.utc)) == []  # nobody played in the last 30 days
    assert RatingBook.from_json(book.as_json()).as_json() == book.as_json()


def test_the_cycle_collector_is_paused_for_bulk_work_and_left_as_it_was():
    import gc

    from wom_tui.domain.ratings import collector_paused

    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # a caller that had paused it keeps it paused
    finally:
        gc.enable()
    try:
        with collector_paused():
            raise ValueError("bad game")
    except ValueError:
        pass
    assert gc.isenabled()


def live_game(game_id: str, at: str, *lines: tuple[str, bool, bool, int]) -> GameSummary:
    """A game at a live table (the record says it was not hot-seat)."""
    return game(game_id, at, *lines)._replace(hot_seat=False)


def test_thrown_games_with_a_second_name_hardly_move_a_rating():
    # Alan and Bob are one person: Bob sets a code and leaves without a guess, twelve times in a row.
    games = [live_game(f"g{n:02d}", f"2026-01-01T00:{n * 4:02d}:00+00:00",
                       ("Alan", True, True, 2), ("Bob", True, False, 0)) for n in range(12)]
    farmed = rate_games(games).rating("Alan")
    assert farmed is not None and farmed.value < 1100, farmed.value  # it was 1444 when every game counted
    # Games played for real (both guess, days apart) count in full, as before.
    fair = [live_game(f"f{n:02d}", f"2026-01-{n + 1:02d}T00:00:00+00:00",
                      ("Alan", True, True, 2), ("Bob", True, False, 5)) for n in range(12)]
    assert rate_games(fair).rating("Alan").value > 1400  # type: ignore[union-attr]
    # The same twelve real games within an hour: each after the first counts for little too.
    rushed = [live_game(f"r{n:02d}", f"2026-01-01T00:{n * 4:02d}:00+00:00",
                        ("Alan", True, True, 2), ("Bob", True, False, 5)) for n in range(12)]
    assert rate_games(rushed).rating("Alan").value < 1200  # type: ignore[union-attr]
    # The book kept as a cache rates on exactly as rating everything again.
    book = rate_games(rushed[:6])
    again = RatingBook.from_json(book.as_json())
    assert catch_up(again, rushed).as_json() == rate_games(rushed).as_json()


def arena_game(game_id: str, at: str, *lines: tuple[str, bool, bool, int]) -> GameSummary:
    """A game a Code Arena paired (the record names the arena)."""
    return live_game(game_id, at, *lines)._replace(arena="arena-1")


def test_an_arena_game_is_exempt_from_the_repeat_rule_but_not_from_the_others():
    # Twelve real games within an hour: at tables each after the first counts a tenth; paired by an arena
    # (the system chose the pairing) each counts in full, exactly as the same games days apart.
    at_tables = [live_game(f"r{n:02d}", f"2026-01-01T00:{n * 4:02d}:00+00:00",
                           ("Alan", True, True, 2), ("Bob", True, False, 5)) for n in range(12)]
    in_arena = [game._replace(arena="arena-1") for game in at_tables]
    apart = [live_game(f"r{n:02d}", f"2026-01-{n + 1:02d}T00:00:00+00:00",
                       ("Alan", True, True, 2), ("Bob", True, False, 5)) for n in range(12)]
    assert rate_games(at_tables).rating("Alan").value < 1200  # type: ignore[union-attr]
    book = rate_games(in_arena)
    assert [r.history for r in book.players.values()] == [r.history for r in rate_games(apart).players.values()]
    # A loser who never guessed still makes an arena game count a tenth.
    thrown = [arena_game(f"t{n:02d}", f"2026-01-01T00:{n * 4:02d}:00+00:00",
                         ("Alan", True, True, 2), ("Bob", True, False, 0)) for n in range(12)]
    assert rate_games(thrown).rating("Alan").value < 1100  # type: ignore[union-attr]
    # An arena meeting is still noted: a table game right after it counts a tenth, as after any meeting.
    after = live_game("s00", "2026-01-01T00:50:00+00:00", ("Alan", True, True, 2), ("Bob", True, False, 5))
    assert rated_game(after).weight == 1.0  # type: ignore[union-attr]
    full, tenth = rate_games([in_arena[0]]), rate_games([in_arena[0], after])
    first = full.rating("Alan").value  # type: ignore[union-attr]
    assert 0 < tenth.rating("Alan").value - first < (first - 1000) / 5  # type: ignore[union-attr]
    # A hot-seat summary naming an arena (no such record can be made) is not an arena game.
    assert not rated_game(in_arena[0]._replace(hot_seat=True)).arena  # type: ignore[union-attr]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Alan", "Bob", "Cy"]), st.sampled_from(["Alan", "Bob", "Cy"]),
                          st.integers(0, 5), st.integers(0, 5), st.integers(1, 30)).filter(lambda g: g[0] != g[1]),
                min_size=1, max_size=12))
def test_an_arena_games_rating_never_depends_on_when_its_players_met_before(games):
    # Whatever the order of meetings and minutes between them, arena games rate as the same games a day apart
    # would (no repeat-pairing tenth), while a player who never guessed still makes one count a tenth.
    minute, dense, apart = 0, [], []
    for number, (first, second, used_first, used_second, gap) in enumerate(games):
        minute += gap
        lines = ((first, True, used_first > 0 and used_first < 5, used_first),
                 (second, True, used_second > 0 and used_second < 5, used_second))
        stamp = datetime(2026, 1, 1, tzinfo=timezone.utc).timestamp() + 60 * minute
        at = datetime.fromtimestamp(stamp, timezone.utc).isoformat()
        later = datetime.fromtimestamp(stamp + 86_400 * number, timezone.utc).isoformat()
        dense.append(live_game(f"g{number:02d}", at, *lines)._replace(arena="arena-1"))
        apart.append(live_game(f"g{number:02d}", later, *lines))
    assert [r.history for r in rate_games(dense).players.values()] == \
        [r.history for r in rate_games(apart).players.values()]
