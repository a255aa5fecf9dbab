"""The variants as domain transcripts (Quad, Devious, Strict, Liar): what each game waits for, each guess's
answers, the end's reveal, the JSON round trip at every step, and hypothesis properties of each one's rules.
"""

from __future__ import annotations

import json
import random
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wom_tui.domain.codes import WOM, Feedback, InvalidCode, Ruleset, feedback
from wom_tui.domain.game import Awaiting, GameStateError, Move, Refusal, Status
from wom_tui.domain.strategies import fitting, is_consistent
from wom_tui.domain.strategies.variants import inconsistency, liar_mask
from wom_tui.domain.variant_game import VariantGame, check_variant_json, daily_variant_game
from wom_tui.domain.variants import LIE_WITHIN, Variant, possible_answers

CLASSIC = Ruleset(4, WOM, True, 10)
CODES = [a + b + c + d for a in WOM.symbols for b in WOM.symbols for c in WOM.symbols for d in WOM.symbols]


def reloaded(game: VariantGame) -> VariantGame:
    """The game written to JSON text and read back, as another process would."""
    copy = VariantGame.from_json(json.loads(json.dumps(game.as_json())))
    assert copy.as_json() == game.as_json()
    return copy


def test_the_variants_are_one_registry_named_the_same_everywhere():
    assert [v.value for v in Variant] == ["classic", "quad", "devious", "strict", "liar"]
    assert [v.label for v in Variant] == ["Classic", "Quad", "Devious", "Strict", "Liar"]
    assert Variant.from_json("liar") is Variant.LIAR
    with pytest.raises(ValueError, match="unknown variant 'sneaky': one of classic, quad"):
        Variant.from_json("sneaky")
    assert Variant.QUAD.ruleset(CLASSIC).guesses == 9 and Variant.LIAR.ruleset(CLASSIC).guesses == 12
    assert Variant.STRICT.ruleset(CLASSIC) == CLASSIC


def test_quad_as_a_transcript_one_guess_goes_to_every_open_board():
    game = VariantGame(Variant.QUAD, Variant.QUAD.ruleset(CLASSIC), ("RRGG", "BBYY", "RGBY", "WWKK"), seed=1)
    assert game.awaiting == Awaiting(Move.GUESS, "Guest") and game.open_boards == (0, 1, 2, 3)
    said = []
    for typed in ("rrgg", "RGBY", "BBYY", "WWKK"):
        turn = game.guess(typed)
        said.extend(turn.lines)
        game = reloaded(game)
    assert said == [
        "Guess #1: RRGG broke the code on board 1!",
        "Guess #1: RRGG → 0 black, 0 white on board 2.",
        "Guess #1: RRGG → 1 black, 1 white on board 3.",
        "Guess #1: RRGG → 0 black, 0 white on board 4.",
        "Guess #2: RGBY → 1 black, 1 white on board 2.",
        "Guess #2: RGBY broke the code on board 3!",
        "Guess #2: RGBY → 0 black, 0 white on board 4.",
        "Guess #3: BBYY broke the code on board 2!",
        "Guess #3: BBYY → 0 black, 0 white on board 4.",
        "Guess #4: WWKK broke the code on board 4!",
    ]
    assert game.status == Status.FINISHED and game.won and game.awaiting is None
    assert game.transcript()[-2:] == ("You broke all four codes in 4 guesses!", "The codes were RRGG, BBYY, RGBY, WWKK.")
    assert [len(game.history(b)) for b in range(4)] == [1, 3, 2, 4]


def test_quad_lost_after_nine_guesses_says_how_many_codes_were_left():
    game = VariantGame(Variant.QUAD, Variant.QUAD.ruleset(CLASSIC), ("RRGG", "BBYY", "RGBY", "WWKK"))
    for _ in range(8):
        game.guess("RRGG")
    with pytest.raises(GameStateError):
        game.reveal()
    game.guess("KKKK")
    assert game.over and not game.won
    assert game.result_message() == "Out of guesses: 3 of 4 codes left unbroken."
    with pytest.raises(GameStateError):
        game.guess("BBYY")


def test_strict_refuses_a_guess_that_does_not_fit_with_the_reason_and_changes_nothing():
    game = VariantGame(Variant.STRICT, CLASSIC, ("RGBY",))
    game.guess("RRGG")
    before = game.as_json()
    with pytest.raises(Refusal) as refused:
        game.guess("WWKK")
    assert refused.value.reason == (
        "Strict: WWKK does not fit guess #1 (RRGG got 1 black, 1 white; WWKK would get 0 black, 0 white). "
        "Every guess must fit every answer so far."
    )
    assert game.as_json() == before
    with pytest.raises(InvalidCode):
        game.guess("RGB")  # a code that cannot be played is refused as in any game
    assert game.guess("RGYW").answers == (Feedback(2, 1),)  # it fits: 1 black, 1 white against RRGG
    assert game.as_json() != before


def test_a_stored_strict_game_with_a_guess_that_does_not_fit_is_refused():
    game = VariantGame(Variant.STRICT, CLASSIC, ("RGBY",))
    game.guess("RRGG")
    data = game.as_json()
    data["rows"].append(["WWKK", [[0, 0]]])
    with pytest.raises(ValueError, match="guess #2: Strict: WWKK does not fit"):
        VariantGame.from_json(data)


def test_liar_as_a_transcript_one_lie_revealed_at_the_end():
    game = VariantGame(Variant.LIAR, Variant.LIAR.ruleset(CLASSIC), ("RGBY",), seed=7, lie_at=1)
    assert "One of the first 3 answers is a lie" in game.told
    answers = [game.guess(typed).answers[0] for typed in ("RRGG", "BBYY", "RGYB")]
    assert answers[1] != feedback("RGBY", "BBYY")  # the lie
    assert answers[0] == feedback("RGBY", "RRGG") and answers[2] == feedback("RGBY", "RGYB")
    game = reloaded(game)
    with pytest.raises(GameStateError):
        game.lie_line()
    game.guess("RGBY")
    assert game.transcript()[-3:] == (
        "You broke the code in 4 guesses!",
        "The code was RGBY.",
        "The lie was the answer to guess #2: it said 1 black, 3 white; the truth was 1 black, 1 white.",
    )


def test_liar_never_hides_a_win_and_says_so_when_the_code_came_before_the_lie():
    game = VariantGame(Variant.LIAR, Variant.LIAR.ruleset(CLASSIC), ("RGBY",), seed=7, lie_at=0)
    assert game.guess("RGBY").broke == (0,)
    assert game.reveal_lines()[-1] == "You broke the code before the lie came (it was to be the answer to guess #1)."


def test_devious_answers_as_a_transcript_and_is_cornered():
    game = VariantGame(Variant.DEVIOUS, CLASSIC, (), seed=7)
    history = []
    for typed in ("RRGG", "BBYY", "RBWK"):
        answer = game.guess(typed).answers[0]
        assert answer is not None
        history.append((typed, answer))
        assert fitting(CLASSIC, history).count()[0] >= 1
        game = reloaded(game)
    assert [(fb.black, fb.white) for _, fb in history] == [(1, 0), (1, 1), (1, 1)]
    while not game.over:
        left = fitting(CLASSIC, [(a.guess, a.feedback) for a in game.history()]).all_codes
        game.guess("".join(WOM.symbols[i] for i in left[0]))
    assert game.won
    assert game.result_message().startswith("You broke Devious into a corner in ")


def test_a_lost_devious_game_shows_a_code_that_fitted_every_answer():
    game = VariantGame(Variant.DEVIOUS, Ruleset(4, WOM, True, 2), (), seed=3)
    game.guess("RRGG")
    game.guess("BBYY")
    (stand_in,) = game.reveal()
    assert is_consistent(stand_in, [(a.guess, a.feedback) for a in game.history()])
    assert game.reveal_lines() == (f"Devious held no code; {stand_in} fitted every answer.",)


def test_a_stored_game_whose_answer_was_changed_is_refused():
    for variant, secrets in ((Variant.CLASSIC, ("RGBY",)), (Variant.DEVIOUS, ()), (Variant.QUAD, ("RGBY",) * 4)):
        game = VariantGame(variant, variant.ruleset(CLASSIC), secrets, seed=2)
        game.guess("RRGG")
        data = game.as_json()
        data["rows"][0][1][0] = [3, 0]
        with pytest.raises(ValueError, match="the answer to guess #1 does not match"):
            VariantGame.from_json(data)
    with pytest.raises(ValueError, match="not a variant game: unknown variant 'sneaky'"):
        VariantGame.from_json({**game.as_json(), "variant": "sneaky"})
    with pytest.raises(ValueError, match="not a variant game: missing field 'seed'"):
        VariantGame.from_json({k: v for k, v in game.as_json().items() if k != "seed"})


def test_only_a_game_in_progress_is_kept_to_resume():
    game = VariantGame(Variant.STRICT, CLASSIC, ("RGBY",))
    game.guess("RRGG")
    assert check_variant_json(game.as_json()) == game.as_json()
    game.guess("RGBY")
    with pytest.raises(ValueError, match="not a variant game in progress: it is over"):
        check_variant_json(game.as_json())


def test_devious_and_liar_refuse_a_ruleset_too_big_to_count():
    with pytest.raises(Refusal, match="Devious needs a ruleset of at most 250,000 codes"):
        VariantGame.new(Variant.DEVIOUS, Ruleset(8, WOM, True, 10), random.Random(1))
    assert VariantGame.new(Variant.QUAD, Ruleset(8, WOM, True, 10), random.Random(1)).boards == 4


def test_the_daily_variant_is_the_same_game_for_everyone_that_day():
    secret = b"s" * 32
    day = date(2026, 11, 29)
    for variant in Variant:
        one = daily_variant_game(secret, day, variant, CLASSIC, "Ada", True)
        two = daily_variant_game(secret, day, variant, CLASSIC, "Alan", True)
        assert (one.secrets, one.seed, one.lie_at) == (two.secrets, two.seed, two.lie_at)
        other_day = daily_variant_game(secret, date(2026, 11, 30), variant, CLASSIC)
        assert (one.secrets, one.seed) != (other_day.secrets, other_day.seed)


def test_the_coach_knows_each_variants_rules():
    liar = VariantGame(Variant.LIAR, Variant.LIAR.ruleset(CLASSIC), ("RGBY",), seed=7, lie_at=0)
    liar.guess("RRGG")  # the lie
    liar.guess("RRGG")  # the truth: it contradicts the first answer, and one lie allows it
    assert liar.coach_line(2).startswith("Coach: RRGG could not have been the code (allowing one lie).")
    liar.coach, liar.coach_notes[2] = True, liar.coach_line(2)
    assert reloaded(liar).transcript()[-1] == liar.coach_notes[2]  # a resumed game shows it again
    assert inconsistency(Variant.LIAR, liar.ruleset, [(a.guess, a.feedback) for a in liar.history()]) is None
    assert inconsistency(Variant.CLASSIC, liar.ruleset, [(a.guess, a.feedback) for a in liar.history()]) is not None
    quad = VariantGame(Variant.QUAD, Variant.QUAD.ruleset(CLASSIC), ("RRGG", "BBYY", "RGBY", "WWKK"))
    quad.guess("RRGG")
    quad.guess("RGBY")
    assert quad.coach_line(2) == (
        "Coach: RGBY could have been the code on 1 of 3 boards. Codes left: board 2: 42, board 4: 16."
    )


def test_two_lies_are_a_contradiction_in_a_liar_game():
    rules = Variant.LIAR.ruleset(CLASSIC)
    history = [("RRGG", Feedback(0, 0)), ("RRGG", Feedback(2, 0)), ("RRGG", Feedback(1, 0))]
    assert inconsistency(Variant.LIAR, rules, history) == 2


# ---------------------------------------------------------------- properties

GUESS = st.sampled_from(CODES)


@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(list(Variant)), seed=st.integers(0, 2**32 - 1), guesses=st.lists(GUESS, max_size=12))
def test_any_game_of_any_variant_follows_its_rules_and_reads_back_at_every_step(variant, seed, guesses):
    game = VariantGame.new(variant, CLASSIC, random.Random(seed))
    for typed in guesses:
        if game.over:
            break
        if variant is Variant.STRICT and game.refusal(typed) is not None:
            with pytest.raises(Refusal):
                game.guess(typed)
            continue
        turn = game.guess(typed)
        for board, answer in enumerate(turn.answers):
            if variant is Variant.DEVIOUS:
                assert answer is not None and fitting(game.ruleset, [(a.guess, a.feedback) for a in game.history()]).any()
            elif answer is None:
                assert game.broken(board) and board not in turn.broke
            elif variant is not Variant.LIAR or game.guesses_used - 1 != game.lie_at:
                assert answer == feedback(game.secrets[board], typed)
        game = reloaded(game)
    if variant is Variant.STRICT:
        rows = [(a.guess, a.feedback) for a in game.history()]
        assert all(is_consistent(g, rows[:i]) for i, (g, _) in enumerate(rows))
    if variant is Variant.LIAR and game.guesses_used > game.lie_at and not game.won:
        told = game.rows[game.lie_at].answers[0]
        truth = feedback(game.secrets[0], game.rows[game.lie_at].guess)
        assert told != truth and told in possible_answers(game.ruleset)
    if variant is Variant.LIAR:
        code = game.secrets[0]
        index = CODES.index(code)
        assert liar_mask(game.ruleset, [(a.guess, a.feedback) for a in game.history()])[index]


@settings(max_examples=25, deadline=None)
@given(variant=st.sampled_from(list(Variant)), seed=st.integers(0, 2**32 - 1))
def test_a_game_drawn_from_a_seed_is_the_same_game_again(variant, seed):
    one, two = (VariantGame.new(variant, CLASSIC, random.Random(seed)) for _ in range(2))
    for typed in ("RRGG", "BBYY", "WKWK"):
        if one.over:  # a drawn code guessed at once (seed 6432679: a classic game's RRGG)
            break
        if one.refusal(typed) is None:  # Strict
            assert one.guess(typed) == two.guess(typed)
    assert one.as_json() == two.as_json()
    assert len(one.secrets) == (0 if variant is Variant.DEVIOUS else variant.boards)
    assert (one.lie_at is not None) == (variant is Variant.LIAR) and (one.lie_at or 0) < LIE_WITHIN


def test_a_variants_daily_code_is_a_puzzle_whose_attempts_are_kept_and_checked_as_the_others():
    from wom_tui.domain.daily import KNOWN_PUZZLES, PUZZLES, DailyAttempt, check_can_start, finished

    assert list(PUZZLES) == ["classic", "digits"]  # the daily screen's, unchanged
    assert [(k, p.title, p.ruleset.guesses) for k, p in KNOWN_PUZZLES.items() if k not in PUZZLES] == [
        ("quad", "Quad, 4 × Classic", 9), ("devious", "Devious, 4 × Classic", 10),
        ("strict", "Strict, 4 × Classic", 10), ("liar", "Liar, 4 × Classic", 12),
    ]
    attempt = DailyAttempt("2026-11-29", "liar", "Ada", "2026-11-29T08:00:00")
    check_can_start([], "2026-11-29", "liar", "Ada")
    done = attempt.finish("2026-11-29T08:05:00", 12, True, None)
    assert DailyAttempt.from_json(done.as_json()) == done
    (kept,) = finished([attempt], "2026-11-29", "liar", "Ada", finished_at="2026-11-29T08:05:00", guesses=12,
                       broke=True, game_id=None)
    assert kept == done


def test_each_variants_solo_game_has_a_record_its_replay_reads_the_truth_from():
    """A finished solo game of each variant → its record → JSON text and back, whole; the replay shows Quad's
    four answers a row and its codes, Liar's lie, Devious's fitted code; a daily code's replay hides the lie."""
    from wom_tui.domain.game import GameKind
    from wom_tui.domain.records import GameRecord
    from wom_tui.domain.replay import Replay

    def recorded(game: VariantGame, **how) -> GameRecord:
        record = game.record(**how)
        again = GameRecord.from_json(json.loads(json.dumps(record.as_json())))
        assert again == record and again.variant is game.variant
        return again

    quad_codes = ("RRGG", "BYWK", "GGBB", "WKRY")
    quad = VariantGame(Variant.QUAD, Ruleset(4, WOM, True, 3), quad_codes)
    for guess in ("RRGG", "BYWK", "YYYY"):
        quad.guess(guess)
    with pytest.raises(GameStateError):
        VariantGame(Variant.QUAD, Ruleset(4, WOM, True, 3), quad_codes).record()  # not over: no record
    record = recorded(quad, name="Ada", is_user=True)
    (ada,) = record.players
    assert (record.kind, ada.name, ada.is_user, ada.broke, ada.attempts) == (GameKind.SOLO, "Ada", True, False, 3)
    assert ada.codes == quad_codes and [g for g, _ in ada.guesses] == ["RRGG", "BYWK", "YYYY"]  # every guess
    replay = Replay(record)
    assert replay.quad_rows(0, 3) == tuple((row.guess, row.answers) for row in quad.rows)  # what the boards showed
    assert replay.secret_shown(0, 3)[0] and not replay.secret_shown(0, 2)[0]  # the four codes at the end

    liar = VariantGame(Variant.LIAR, Variant.LIAR.ruleset(CLASSIC), ("RRGG",), seed=5, lie_at=1)
    for guess in ("BBYY", "GGBB", "RRGG"):
        liar.guess(guess)
    record = recorded(liar)
    assert (record.players[0].name, record.players[0].is_user, record.players[0].broke) == ("Guest", False, True)
    assert record.players[0].lied == 1 and record.players[0].guesses[1].feedback != feedback("RRGG", "GGBB")
    assert Replay(record).lied_row(0, 2) == 1 and Replay(record).lied_row(0, 1) is None
    daily = recorded(liar, name="Ada", is_user=True, kind=GameKind.DAILY)
    assert daily.kind == GameKind.DAILY and daily.players[0].lied == 1
    assert Replay(daily).lied_row(0, 3) is None  # the day's code may still be played under another name

    devious = VariantGame(Variant.DEVIOUS, Ruleset(4, WOM, True, 2), (), seed=3)
    devious.guess("RRGG")
    devious.guess("BBYY")
    record = recorded(devious)
    fitted = devious.reveal()[0]
    assert record.players[0].secret == fitted and not record.players[0].broke
    assert all(feedback(fitted, g) == fb for g, fb in record.players[0].guesses)
    assert Replay(record).secret_shown(0, 2) == (True, fitted) and Replay(record).secret_label.startswith("Fitted")

    strict = VariantGame(Variant.STRICT, CLASSIC, ("RGBY",))
    strict.guess("RRGG")
    strict.guess("RGBY")
    record = recorded(strict)
    assert record.variant is Variant.STRICT and record.players[0].broke and record.players[0].secret == "RGBY"
    assert record.players[0].guesses == strict.history(0)
