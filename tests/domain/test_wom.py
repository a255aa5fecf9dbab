"""World of Mastermind games (docs/play.md, *World of Mastermind*): setup, code making, round-robin guessing, results."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wom_tui.domain.codes import WOM_RULESET, InvalidCode
from wom_tui.domain.game import GameStateError
from wom_tui.domain.players import ComputerPlayer, HumanPlayer, hal9000, viki
from wom_tui.domain.users import UserRegistry
from wom_tui.domain.wom import SetupError, WomGame, player_for_name, players_from_names
from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.domain.strategies import make_strategy

from .doubles import ScriptedComputer


def registry(*names):
    reg = UserRegistry()
    for name in names:
        reg.register(name)
    return reg


def random_computer(name):
    return ComputerPlayer(name, make_strategy("random"))


# -- setup -----------------------------------------------------------------------------------


def test_players_from_typed_names():
    reg = registry("Alan", "Steve")
    players = players_from_names(["alan", "hal9000", "Viki", " Steve "], reg)
    assert [p.name for p in players] == ["Alan", "HAL9000", "VIKI", "Steve"]
    assert [p.is_computer for p in players] == [False, True, True, False]


@pytest.mark.parametrize(
    "typed, reason",
    [("Bill", "Invalid user name."), ("", "Invalid user name."), ("ALAN", "Alan is already in the game."),
     ("hal9000", "HAL9000 is already in the game.")],
)
def test_player_names_that_cannot_join(typed, reason):
    reg = registry("Alan")
    already = [player_for_name("Alan", reg), player_for_name("HAL9000", reg)]
    with pytest.raises(SetupError) as exc:
        player_for_name(typed, reg, already)
    assert exc.value.reason == reason


@pytest.mark.parametrize("count", [0, 1, 5])
def test_two_to_four_players(count):
    players = [HumanPlayer(f"P{i}") for i in range(count)]
    with pytest.raises(SetupError, match="2 to 4 players"):
        WomGame(players, 5, random.Random(0))


def test_nobody_twice_ignoring_case():
    with pytest.raises(SetupError, match="^alan is already in the game.$"):
        WomGame([HumanPlayer("Alan"), hal9000(), HumanPlayer("alan")], 5, random.Random(0))


@pytest.mark.parametrize("attempts", [4, 11, 0, "5", 5.0])
def test_attempts_five_to_ten(attempts):
    with pytest.raises(SetupError, match="between 5 and 10"):
        WomGame([HumanPlayer("Alan"), hal9000()], attempts, random.Random(0))


@pytest.mark.parametrize("attempts", [5, 7, 10])
def test_attempts_set_the_ruleset(attempts):
    game = WomGame([HumanPlayer("Alan"), hal9000()], attempts, random.Random(0))
    assert game.attempts == attempts and game.ruleset == WOM_RULESET.with_guesses(attempts)
    assert game.phase == "making"


# -- the seed 004 transcript -----------------------------------------------------------------


def test_seed_004_transcript_replayed(tmp_path):
    store = Store(tmp_path)
    store.register("Alan")
    alan = HumanPlayer("Alan")
    hal = ScriptedComputer("HAL9000", "BKRW", ["BRWG", "GWKG", "WGWK", "BYWG", "RYWG"])
    records = []

    def on_finish(record):
        records.append(record)
        store.record_game(record)

    game = WomGame([alan, hal], 5, random.Random(2026), on_finish=on_finish)

    assert game.maker is alan
    assert game.maker_prompt == "Alan's turn to set the code for HAL9000 to break."
    with pytest.raises(InvalidCode) as exc:
        game.make_code("BTWRA")
    assert str(exc.value) == "Only R, G, B, Y, W and K are allowed."
    assert game.maker is alan and game.phase == "making"
    made = game.make_code("BYWR")
    assert made.message == "The code is now set for HAL9000 to break."
    assert made.debug_code is None  # a person's code never leaves the board

    assert game.maker_prompt == "HAL9000's turn to set the code for Alan to break."
    made = game.make_code()
    assert made.message == "The code is now set for Alan to break."
    assert made.debug_code == "BKRW"
    assert game.phase == "guessing"

    assert game.current is alan and game.board_of(alan).attempts_left == 5
    with pytest.raises(InvalidCode, match="^Guess too short"):
        game.play_turn("BGY")
    assert game.board_of(alan).attempts_used == 0
    turns = [game.play_turn("BGYY")]
    assert game.current is hal
    turns.append(game.play_turn())
    assert game.current is alan and game.board_of(alan).history == (("BGYY", (1, 0)),)
    turns.append(game.play_turn("bkrw"))
    while game.phase == "guessing":
        assert game.current is hal  # Alan is finished and skipped
        turns.append(game.play_turn("RRRR"))  # typing is ignored for a computer

    assert [(t.player.name, t.guess, t.feedback.text) for t in turns] == [
        ("Alan", "BGYY", "K"),
        ("HAL9000", "BRWG", "K K W"),
        ("Alan", "BKRW", "K K K K"),
        ("HAL9000", "GWKG", "W"),
        ("HAL9000", "WGWK", "K"),
        ("HAL9000", "BYWG", "K K K"),
        ("HAL9000", "RYWG", "K K W"),
    ]
    assert turns[2].messages == ("Alan broke the code in 2 attempts!",)
    assert turns[-1].messages == ("HAL9000 failed to break the code.",)
    assert all(t.messages == () for t in turns[3:-1])
    assert [t.game_finished for t in turns] == [False] * 6 + [True]

    results = game.results()
    assert results.messages == ("The game is now finished.", "Alan receives 4 + 5 = 9 points.")
    alan_result, hal_result = results.players
    assert (alan_result.broke, alan_result.attempts_used) == (True, 2)
    assert (alan_result.breaking, alan_result.making, alan_result.total) == (4, 5, 9)
    assert (hal_result.broke, hal_result.attempts_used, hal_result.total, hal_result.message) == (False, 5, 0, None)

    assert len(records) == 1 and records[0] is game.record()
    record = records[0]
    assert record.kind == "wom" and record.ruleset.guesses == 5
    assert record.points() == {"Alan": 9}
    assert [(p.name, p.is_user, p.broke, p.attempts) for p in record.players] == [
        ("Alan", True, True, 2), ("HAL9000", False, False, 5)
    ]
    assert record.players[1].guesses[-1] == ("RYWG", (2, 1))
    # Each board's code is kept, HAL9000's never broken too: the replay shows it (issue 35 item 17).
    assert [p.secret for p in record.players] == ["BKRW", "BYWR"]

    saved = Store(tmp_path).user("Alan")
    assert (saved.score, saved.games) == (9, 1)
    assert game.board_of(alan).reveal() == "BKRW" and game.board_of(hal).reveal() == "BYWR"


# -- order and state -------------------------------------------------------------------------


def test_three_players_make_codes_in_order_and_guess_round_robin():
    a, b, c = HumanPlayer("Ann"), HumanPlayer("Bob"), HumanPlayer("Cy")
    game = WomGame([a, b, c], 5, random.Random(1))
    assert [game.breaker_for(p).name for p in (a, b, c)] == ["Bob", "Cy", "Ann"]
    assert [game.maker_for(p).name for p in (a, b, c)] == ["Cy", "Ann", "Bob"]
    prompts = []
    for code in ("RRRR", "GGGG", "BBBB"):
        prompts.append(game.maker_prompt)
        game.make_code(code)
    assert prompts == [
        "Ann's turn to set the code for Bob to break.",
        "Bob's turn to set the code for Cy to break.",
        "Cy's turn to set the code for Ann to break.",
    ]
    # Ann breaks Cy's BBBB, Bob breaks Ann's RRRR, Cy breaks Bob's GGGG
    order = []
    plan = {"Ann": ["KKKK", "BBBB"], "Bob": ["RRRR"], "Cy": ["KKKK", "KKKK", "GGGG"]}
    while game.phase == "guessing":
        player = game.current
        order.append(player.name)
        game.play_turn(plan[player.name].pop(0))
    assert order == ["Ann", "Bob", "Cy", "Ann", "Cy", "Cy"]
    # breaking: allowed - used + 1; making: the next player's attempts - 1
    assert [(r.breaking, r.making) for r in game.results().players] == [(4, 0), (5, 2), (3, 1)]


def test_a_computer_code_is_random_and_shown_only_as_debug():
    game = WomGame([viki(), HumanPlayer("Alan")], 5, random.Random(4))
    made = game.make_code("KKKK")  # typing is ignored for a computer
    assert made.maker.name == "VIKI" and made.breaker.name == "Alan"
    assert WOM_RULESET.parse(made.debug_code) == made.debug_code
    assert game.make_code("RGBY").debug_code is None


def test_the_same_seed_replays_the_same_game():
    def play(seed):
        game = WomGame([random_computer("HAL9000"), random_computer("VIKI")], 6, random.Random(seed))
        codes = [game.make_code().debug_code for _ in range(2)]
        turns = []
        while game.phase == "guessing":
            turns.append(game.play_turn().guess)
        return codes, turns

    assert play(9) == play(9)


def test_actions_out_of_phase_are_errors():
    game = WomGame([HumanPlayer("Alan"), HumanPlayer("Bea")], 5, random.Random(0))
    with pytest.raises(GameStateError):
        game.current
    with pytest.raises(GameStateError):
        game.play_turn("RGBY")
    with pytest.raises(GameStateError):
        game.results()
    with pytest.raises(GameStateError):
        game.record()
    game.make_code("RGBY")
    game.make_code("RGBY")
    with pytest.raises(GameStateError):
        game.maker
    with pytest.raises(GameStateError):
        game.make_code("RGBY")
    with pytest.raises(ValueError):
        game.board_of(HumanPlayer("Zed"))  # not a player in this game (players are known by name)


def test_abandoning_awards_nothing_and_never_calls_on_finish():
    calls = []
    game = WomGame([HumanPlayer("Alan"), HumanPlayer("Bea")], 5, random.Random(0), on_finish=calls.append)
    game.make_code("RGBY")
    game.make_code("KKKK")
    game.play_turn("KKKK")
    game.abandon()
    assert game.phase == "abandoned"
    with pytest.raises(GameStateError):
        game.play_turn("RGBY")
    with pytest.raises(GameStateError):
        game.results()
    assert calls == []


def test_a_finished_game_cannot_be_abandoned_and_on_finish_ran_once():
    calls = []
    game = WomGame([HumanPlayer("Alan"), HumanPlayer("Bea")], 5, random.Random(0), on_finish=calls.append)
    game.make_code("RGBY")
    game.make_code("KKKK")
    game.play_turn("KKKK")
    game.play_turn("RGBY")
    assert game.phase == "finished" and len(calls) == 1
    with pytest.raises(GameStateError):
        game.abandon()
    game.results(), game.record()
    assert len(calls) == 1
    assert calls[0].points() == {"Alan": 5 + 0, "Bea": 5 + 0}


def test_both_fail_gives_each_the_making_points():
    game = WomGame([HumanPlayer("Alan"), HumanPlayer("Bea")], 10, random.Random(0))
    game.make_code("RGBY")
    game.make_code("KKKK")
    while game.phase == "guessing":
        game.play_turn("WWWW")
    assert [r.message for r in game.results().players] == [
        "Alan receives 0 + 10 = 10 points.", "Bea receives 0 + 10 = 10 points."
    ]


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.booleans(), min_size=2, max_size=4),
    st.integers(5, 10),
    st.integers(0, 2**32 - 1),
)
def test_every_game_terminates_with_every_board_finished(humans, attempts, seed):
    rng, typing = random.Random(seed), random.Random(seed + 1)
    players = [HumanPlayer(f"P{i}") if human else random_computer(f"C{i}") for i, human in enumerate(humans)]
    finished = []
    game = WomGame(players, attempts, rng, on_finish=finished.append)
    while game.phase == "making":
        game.make_code(WOM_RULESET.random_code(typing))
    turns = 0
    while game.phase == "guessing":
        game.play_turn(WOM_RULESET.random_code(typing))
        turns += 1
        assert turns <= len(players) * attempts
    assert game.phase == "finished"
    assert all(game.board_of(p).solved or game.board_of(p).out_of_attempts for p in players)
    assert turns == sum(game.board_of(p).attempts_used for p in players)
    assert len(finished) == 1
    results = game.results()
    assert finished[0].points() == {r.player.name: r.total for r in results.players if not r.player.is_computer}
    for r in results.players:
        assert r.total == r.breaking + r.making
        assert 0 <= r.total <= 2 * attempts


def test_hal9000_and_viki_play_a_whole_game_with_their_real_strategies():
    alan = HumanPlayer("Alan")
    game = WomGame([alan, hal9000(), viki()], 10, random.Random(7))
    game.make_code("RGBY")
    game.make_code()
    game.make_code()
    while game.phase == "guessing":
        game.play_turn("KKKK" if game.current is alan else None)
    results = {r.player.name: r for r in game.results().players}
    assert results["HAL9000"].broke and results["VIKI"].broke  # both strategies stay consistent
    assert results["HAL9000"].attempts_used <= 6
    assert results["Alan"].message == f"Alan receives 0 + {results['HAL9000'].attempts_used - 1} = " \
        f"{results['HAL9000'].attempts_used - 1} point{'s' if results['HAL9000'].attempts_used != 2 else ''}."
