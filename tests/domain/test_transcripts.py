"""Whole games as transcripts, driven only through the domain: what each game waits for, each move's
result, and the JSON round trip at every step (any process can pick a game up where another left it).

These are the game flows the screens only show; they take milliseconds.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wom_tui.domain.codes import DIGITS10, WOM_RULESET, InvalidCode, Ruleset
from wom_tui.domain.game import Awaiting, GameKind, Move, Refusal, Status
from wom_tui.domain.players import HumanPlayer, hal9000, viki
from wom_tui.domain.solo import LifelinePolicy, SoloGame
from wom_tui.domain.computer_breaks import Analysis, ComputerBreaksGame, InvalidAnswer, Played
from wom_tui.domain.users import NameRejected
from wom_tui.domain.wom import MadeCode, SetupError, TurnResult, WomGame


def reloaded_wom(game: WomGame, rng: random.Random) -> WomGame:
    """The game written to JSON text and read back, as another process would."""
    data = json.loads(json.dumps(game.as_json()))
    copy = WomGame.from_json(data, rng)
    assert copy.as_json() == game.as_json()
    return copy


def test_every_refusal_carries_its_reason():
    for refusal in (InvalidCode("a"), SetupError("b"), InvalidAnswer("c"), NameRejected("d")):
        assert isinstance(refusal, Refusal) and refusal.reason == str(refusal)


def test_a_wom_game_for_two_people_and_hal9000_as_a_transcript():
    rng = random.Random(1)
    alan, ada = HumanPlayer("Alan"), HumanPlayer("Ada")
    game = WomGame([alan, ada, hal9000()], 5, rng)
    transcript: list[str] = []

    # Code making: each player in turn, a person's code typed, the computer's drawn.
    assert game.awaiting == Awaiting(Move.CODE, "Alan")
    with pytest.raises(InvalidCode) as refused:
        game.move("RGB")
    assert "4" in refused.value.reason and game.awaiting == Awaiting(Move.CODE, "Alan")
    for typed in ("RGBY", "WWKK", None):
        made = game.move(typed)
        assert isinstance(made, MadeCode)
        transcript.append(made.message)
        game = reloaded_wom(game, rng)
    assert transcript == [
        "The code is now set for Ada to break.",
        "The code is now set for HAL9000 to break.",
        "The code is now set for Alan to break.",
    ]
    assert game.status == Status.GUESSING
    assert [s.standing for s in game.standings()] == ["playing"] * 3

    # Guessing: round-robin; Alan guesses the same code every time, Ada breaks Alan's on her second try.
    ada_guesses = iter(["RRRR", "RGBY"])
    while game.awaiting is not None:
        awaiting = game.awaiting
        assert awaiting.move == Move.GUESS
        if awaiting.computer:
            turn = game.move()
        elif awaiting.player == "Alan":
            turn = game.move("KKKK")
        else:
            turn = game.move(next(ada_guesses))
        assert isinstance(turn, TurnResult)
        game = reloaded_wom(game, rng)
        if turn.player.name != "HAL9000":
            transcript.append(f"{turn.player.name}: {turn.guess} → {turn.feedback.text}")
        transcript.extend(turn.messages)
        if turn.revealed:
            transcript.append(f"The code was {turn.revealed}.")
    assert "Ada: RGBY → K K K K" in transcript
    assert "Ada broke the code in 2 attempts!" in transcript
    assert game.status == Status.FINISHED and game.awaiting is None
    results = {r.player.name: r for r in game.results().players}
    assert results["Ada"].breaking == 4
    if not results["Alan"].broke:
        assert "Alan failed to break the code." in transcript
        assert f"The code was {game.board_of(alan).reveal()}." in transcript
    assert game.record().kind == GameKind.WOM
    again = reloaded_wom(game, rng)
    assert again.record() == game.record()


def test_a_wom_game_read_back_mid_game_plays_on_exactly_as_the_original():
    def play(game: WomGame, rng: random.Random, steps: int | None = None) -> None:
        while game.awaiting is not None and steps != 0:
            game.move()
            steps = None if steps is None else steps - 1

    original_rng = random.Random(7)
    original = WomGame([hal9000(), viki()], 6, original_rng)
    play(original, original_rng, steps=5)
    copy_rng = random.Random()
    copy_rng.setstate(original_rng.getstate())
    copy = reloaded_wom(original, copy_rng)
    play(original, original_rng)
    play(copy, copy_rng)
    assert copy.record().players == original.record().players


@pytest.mark.parametrize(
    "change, reason",
    [
        (lambda d: d.update(kind="solo"), "World of Mastermind"),
        (lambda d: d.update(turn=9), "turn"),
        (lambda d: d.update(status="sleeping"), "status"),
        (lambda d: d["boards"][0]["history"].append(["RGBY", 4, 0]), "board"),
        (lambda d: d.pop("boards"), "needs exactly"),
    ],
)
def test_a_wom_game_that_is_not_one_is_refused_when_read(change, reason):
    rng = random.Random(3)
    game = WomGame([hal9000(), viki()], 5, rng)
    data = game.as_json()
    change(data)
    with pytest.raises(ValueError, match=reason):
        WomGame.from_json(data, rng)


def test_a_solo_game_as_a_transcript():
    rng = random.Random(5)
    ruleset = Ruleset(4, DIGITS10, True, 10)
    game = SoloGame(ruleset, "6843", rng, LifelinePolicy.EACH_ONCE, player="Ann")
    assert game.awaiting == Awaiting(Move.GUESS, "Ann") and game.status == Status.GUESSING
    steps = ["1234", "lifeline#2", "lifeline#1", "6843"]
    said = []
    for typed in steps:
        outcome = game.submit(typed)
        said.append(outcome.message if hasattr(outcome, "message") else f"{outcome.black}/{outcome.white}")
        copy = SoloGame.from_json(json.loads(json.dumps(game.as_json())), rng)
        assert copy.as_json() == game.as_json()
        game = copy
    assert said[0] == "0/2" and said[1].startswith("The code has") and said[2].startswith("The code contains")
    assert game.status == Status.FINISHED and game.awaiting is None
    assert game.guesses_used == 5 and [row.is_lifeline for row in game.history] == [False, True, True, True, False]
    assert game.result_message() == "You broke the code in 5 guesses!"
    record = game.record()
    assert record.kind == GameKind.SOLO and record.players[0].name == "Ann" and record.players[0].broke
    entry = game.hall_entry("Ann")
    assert (entry.name, entry.guest, entry.guesses) == ("Ann", True, 5)
    with pytest.raises(NameRejected):
        game.hall_entry("Annabella")


def test_a_solo_game_lost_says_the_code_and_an_abandoned_one_waits_for_nothing():
    rng = random.Random(2)
    ruleset = Ruleset(4, DIGITS10, True, 5)
    lost = SoloGame(ruleset, "1111", rng)
    for _ in range(5):
        lost.guess("2222")
    assert lost.result_message() == "Out of guesses. The code was 1111."
    left = SoloGame(ruleset, "1111", rng)
    left.guess("2222")
    left.abandon()
    assert left.status == Status.ABANDONED and left.awaiting is None
    assert SoloGame.from_json(left.as_json(), rng).status == Status.ABANDONED


def test_the_computer_breaks_a_code_scored_by_hand_with_a_slip_as_a_transcript():
    rng = random.Random(11)
    game = ComputerBreaksGame(Ruleset(4, DIGITS10, True, 10), player="Ann")
    secret = "7307"
    slipped = False
    transcript: list[str] = []
    for _ in range(60):
        awaiting = game.awaiting
        if awaiting is None:
            break
        if awaiting.computer:
            work = game.think(rng=rng)
            outcome = game.apply(work)
            if isinstance(outcome, Analysis) and outcome.conflict is not None:
                transcript.append(f"conflict at {outcome.conflict}")
        elif awaiting.move == Move.ANSWER:
            from wom_tui.domain.codes import feedback

            right = feedback(secret, game.pending)
            if not slipped:  # the first answer is a slip: one black too many
                slipped = True
                black, white = (right.black + 1, 0) if right.black < 3 else (right.black, right.white)
                game.answer(black, white)
            else:
                game.answer(*right)
        else:
            assert awaiting.move == Move.CORRECTION and awaiting.index is not None
            game.choose_correction(0)
            guess = game.history[0].guess
            game.correct(0, *feedback(secret, guess))
            transcript.append("corrected")
        copy = ComputerBreaksGame.from_json(json.loads(json.dumps(game.as_json())))
        assert copy.as_json() == game.as_json()
        game = copy
    assert game.status == Status.FINISHED and game.broke
    assert game.history[-1].guess == secret
    assert game.result_message() == f"HAL9000 broke your code in {game.guesses_used} guesses."
    # The contradiction is found, the person corrects the slip they know of (not the one named), and it is over.
    assert len(transcript) == 2 and transcript[0].startswith("conflict at") and transcript[1] == "corrected"
    assert game.remaining_count == (1, True)
    record = game.record()
    assert record.kind == GameKind.COMPUTER_BREAKS and record.players[1].name == "Ann"


def test_the_computer_breaks_a_typed_code_waiting_for_it_first():
    rng = random.Random(4)
    game = ComputerBreaksGame(Ruleset(4, DIGITS10, True, 10), by_hand=False)
    assert game.awaiting == Awaiting(Move.CODE, "Guest") and game.status == Status.MAKING
    with pytest.raises(InvalidCode):
        game.set_secret("12")
    game.set_secret("1234")
    played = []
    while game.awaiting is not None:
        assert game.awaiting.computer
        outcome = game.apply(game.think(rng=rng))
        if isinstance(outcome, Played):
            assert outcome.feedback is not None
            played.append(outcome.guess)
    assert played[-1] == "1234" and game.reveal() == "1234"
    assert len(game.counts) == len(played)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), people=st.integers(0, 2), attempts=st.integers(5, 7),
       cut=st.integers(0, 30))
def test_any_wom_game_read_back_at_any_step_ends_the_same(seed, people, attempts, cut):
    def drive(game, rng, typing, steps=None):
        while game.awaiting is not None and steps != 0:
            awaiting = game.awaiting
            game.move(None if awaiting.computer else WOM_RULESET.random_code(typing))
            steps = None if steps is None else steps - 1

    players = [hal9000(), viki(), HumanPlayer("Ann"), HumanPlayer("Bob")][: 2 + people]
    rng, typing = random.Random(seed), random.Random(seed + 1)
    game = WomGame(players, attempts, rng)
    drive(game, rng, typing, cut)
    copy_rng, copy_typing = random.Random(), random.Random()
    copy_rng.setstate(rng.getstate())
    copy_typing.setstate(typing.getstate())
    copy = WomGame.from_json(json.loads(json.dumps(game.as_json())), copy_rng)
    drive(game, rng, typing)
    drive(copy, copy_rng, copy_typing)
    # The two games end at two moments of the wall clock: everything but that time is the same.
    ended, copy_ended = game.as_json(), copy.as_json()
    assert isinstance(ended.pop("finished_at"), str) and isinstance(copy_ended.pop("finished_at"), str)
    assert copy_ended == ended
