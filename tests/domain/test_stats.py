"""My stats: computed from game records only, equal to a plain recomputation (docs/play.md, *My stats and replays*)."""

from __future__ import annotations


from hypothesis import given, settings
from hypothesis import strategies as st

from wom_tui.domain.codes import DIGITS10, WOM, Feedback, Ruleset
from wom_tui.domain.records import GameRecord, PlayerRecord
from wom_tui.domain.stats import GameSummary, StatsCache, player_stats, players_in


R4 = Ruleset(4, WOM, True, 10)
R5 = Ruleset(4, WOM, True, 5)
RD = Ruleset(4, DIGITS10, True, 10)


def line(name: str, broke: bool, attempts: int, *, is_user: bool = True, points: int = 0) -> PlayerRecord:
    guesses = (("RRRR", Feedback(0, 0)),) * (attempts - 1) + (("RGBY", Feedback(4 if broke else 0, 0)),)
    return PlayerRecord(name, is_user, broke, attempts, guesses, points, 0)


def game(kind: str, ruleset: Ruleset, *players: PlayerRecord, at: str) -> GameRecord:
    return GameRecord(kind, ruleset, players, at)


def summaries(*records: GameRecord) -> list[GameSummary]:
    return [GameSummary.of(f"20261123T0000{i:08d}Z-{i:012x}", r) for i, r in enumerate(records)]


def test_a_small_history_reads_as_a_player_would_count_it():
    games = summaries(
        game("wom", R5, line("Alan", True, 2, points=9), line("HAL9000", False, 5, is_user=False), at="2026-11-20T10:00:00+00:00"),
        game("solo", R4, line("alan", True, 4), at="2026-11-21T10:00:00+00:00"),
        game("solo", R4, line("Alan", False, 10), at="2026-11-22T10:00:00+00:00"),
        game("solo", R4, line("Alan", True, 3), at="2026-11-22T11:00:00+00:00"),
        game("solo", R4, line("Alan", True, 5), at="2026-11-23T09:00:00+00:00"),
        # A guest called Alan and a flip game are not Alan's code-breaking games.
        game("solo", R4, line("Alan", True, 1, is_user=False), at="2026-11-23T10:00:00+00:00"),
        game("flip", R4, line("Alan", False, 0), line("HAL9000", True, 4, is_user=False), at="2026-11-23T11:00:00+00:00"),
    )
    stats = player_stats(games, "ALAN")
    assert (stats.games, stats.wins, stats.win_percent) == (5, 4, 80)
    assert (stats.current_streak, stats.best_streak) == (2, 2)
    assert stats.average == (2 + 4 + 3 + 5) / 4
    assert stats.points == (9,)
    latest = stats.rulesets[0]
    assert latest.ruleset == R4 and latest.games == 4 and latest.wins == 3
    counts = {bar.label: bar.count for bar in latest.bars}
    assert counts == {**{str(n): 0 for n in range(1, 11)}, "3": 1, "4": 1, "5": 1, "X": 1}
    assert [bar.label for bar in latest.bars if bar.highlight] == ["5"]
    hal = {c.name: c for c in latest.computers}["HAL9000"]
    assert (hal.games, hal.wins, hal.average) == (1, 1, 4.0)
    assert {c.name: c.games for c in stats.for_ruleset(R5.key).computers} == {"HAL9000": 1, "VIKI": 0}


def test_the_loss_bar_is_highlighted_after_a_loss():
    stats = player_stats(summaries(game("solo", RD, line("Ada", False, 10), at="2026-11-23T09:00:00+00:00")), "Ada")
    assert [bar.label for bar in stats.rulesets[0].bars if bar.highlight] == ["X"]
    assert stats.average is None and stats.win_percent == 0


def test_a_guest_or_stranger_has_no_games():
    games = summaries(game("solo", R4, line("Guest", True, 3, is_user=False), at="2026-11-23T09:00:00+00:00"))
    stats = player_stats(games, "Guest")
    assert (stats.games, stats.wins, stats.rulesets, stats.points) == (0, 0, (), ())
    assert players_in(games) == []


def test_games_are_taken_in_the_order_they_finished_not_as_given():
    early = game("solo", R4, line("Ada", False, 10), at="2026-11-01T09:00:00+00:00")
    late = game("solo", R4, line("Ada", True, 2), at="2026-11-02T09:00:00+00:00")
    stats = player_stats(list(reversed(summaries(early, late))), "Ada")
    assert stats.current_streak == 1
    assert [bar.label for bar in stats.rulesets[0].bars if bar.highlight] == ["2"]


NAMES = ["Alan", "alan", "Ada", "HAL9000", "VIKI", "Guest"]


@st.composite
def records(draw) -> list[GameRecord]:
    out = []
    for _ in range(draw(st.integers(0, 25))):
        kind = draw(st.sampled_from(["wom", "solo", "flip", "daily"]))
        ruleset = draw(st.sampled_from([R4, R5, RD]))
        names = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=4, unique_by=str.casefold))
        players = []
        for name in names:
            broke = draw(st.booleans())
            attempts = draw(st.integers(1, ruleset.guesses)) if broke else ruleset.guesses
            is_user = name not in ("HAL9000", "VIKI") and draw(st.booleans())
            players.append(line(name, broke, attempts, is_user=is_user, points=draw(st.integers(0, 20))))
        stamp = f"2026-11-{draw(st.integers(1, 28)):02d}T{draw(st.integers(0, 23)):02d}:00:00+00:00"
        out.append(game(kind, ruleset, *players, at=stamp))
    return out


def recompute(records: list[tuple[str, GameRecord]], who: str):
    """The statistics the slow, obvious way, straight from the full records."""
    mine = []
    for game_id, record in sorted(records, key=lambda item: (item[1].finished_at, item[0])):
        if record.kind == "flip":
            continue
        for p in record.players:
            if p.is_user and p.name.lower() == who.lower():
                mine.append((record, p))
    results = [p.broke for _, p in mine]
    best = current = 0
    for won in results:
        current = current + 1 if won else 0
        best = max(best, current)
    wins = [p.attempts for _, p in mine if p.broke]
    totals, total = [], 0
    for record, p in mine:
        if record.kind == "wom":
            total += p.breaking + p.making
            totals.append(total)
    per_ruleset = {}
    for record, p in mine:
        key = record.ruleset.key
        bars = per_ruleset.setdefault(key, {})
        label = str(p.attempts) if p.broke else "X"
        bars[label] = bars.get(label, 0) + 1
    return len(mine), len(wins), current, best, (sum(wins) / len(wins) if wins else None), tuple(totals), per_ruleset


@settings(max_examples=150, deadline=None)
@given(records(), st.sampled_from(["Alan", "Ada", "Guest", "HAL9000"]))
def test_stats_equal_a_recomputation_from_the_records(games, who):
    ids = [f"20261123T0000{i:08d}Z-{i:012x}" for i in range(len(games))]
    stats = player_stats([GameSummary.of(i, g) for i, g in zip(ids, games)], who)
    games_, wins, current, best, average, points, per_ruleset = recompute(list(zip(ids, games)), who)
    assert (stats.games, stats.wins, stats.current_streak, stats.best_streak) == (games_, wins, current, best)
    assert stats.average == average
    assert stats.points == points
    assert {r.ruleset.key: {b.label: b.count for b in r.bars if b.count} for r in stats.rulesets} == per_ruleset
    for ruleset_stats in stats.rulesets:
        assert sum(bar.highlight for bar in ruleset_stats.bars) == 1
        assert sum(bar.count for bar in ruleset_stats.bars) == ruleset_stats.games


def test_the_cache_gives_what_a_fresh_computation_gives_and_follows_a_new_game():
    first = [
        game("solo", R4, line("Alan", True, 3), at="2026-11-21T10:00:00+00:00"),
        game("solo", R4, line("Ada", False, 10), at="2026-11-22T10:00:00+00:00"),
    ]
    cache = StatsCache()
    games = summaries(*first)
    alan = cache.player_stats(games, "Alan")
    assert alan == player_stats(games, "Alan") and alan.games == 1
    assert cache.player_stats(list(games), "Alan") is alan  # the same summaries: not worked out again
    assert cache.player_stats(games, "Ada") == player_stats(games, "Ada")
    # A game recorded since: the store hands over new summaries, and the numbers follow them.
    more = summaries(*first, game("solo", R4, line("Alan", False, 10), at="2026-11-23T10:00:00+00:00"))
    assert cache.player_stats(more, "Alan") == player_stats(more, "Alan")
    assert cache.player_stats(more, "Alan").games == 2
    # Summaries equal in value but made afresh (another store) are computed for, never mixed up.
    again = summaries(*first)
    assert cache.player_stats(again, "Alan") == alan
