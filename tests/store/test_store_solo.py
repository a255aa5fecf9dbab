"""A solo game in progress, kept per identity so that it survives a crash, on both stores."""

from __future__ import annotations

import random

import pytest

from wom_tui.domain.codes import DIGITS10, Ruleset
from wom_tui.domain.solo import SoloGame
from wom_tui.domain.store import StoreError


def _game(secret: str = "1234", guesses: tuple[str, ...] = ("1111", "5678")) -> SoloGame:
    game = SoloGame(Ruleset(4, DIGITS10, True, 10), secret, random.Random(7), player="Alan", is_user=True)
    for guess in guesses:
        game.guess(guess)
    return game


def test_a_game_kept_after_a_move_is_read_back_by_another_store_and_plays_on(store_factory):
    store = store_factory()
    assert store.solo_in_progress("user:alan") is None
    game = _game()
    store.keep_solo("user:alan", game.as_json())
    game.guess("1243")
    store.keep_solo("user:alan", game.as_json())  # every move replaces what was kept
    store.keep_solo("local", _game("9999", ()).as_json())
    kept = store_factory().solo_in_progress("user:alan")
    back = SoloGame.from_json(kept, random.Random(1))
    assert [row.guess for row in back.history] == ["1111", "5678", "1243"]
    assert back.guess("1234").black == 4  # the same secret
    assert store_factory().solo_in_progress("local")["secret"] == "9999"
    assert store.solo_in_progress("key:SHA256:nobody") is None


def test_dropping_a_game_forgets_it_for_that_identity_only(store_factory):
    store = store_factory()
    store.keep_solo("user:alan", _game().as_json())
    store.keep_solo("user:bea", _game("4321").as_json())
    store.drop_solo("user:alan")
    store.drop_solo("user:alan")  # dropping twice is harmless
    assert store_factory().solo_in_progress("user:alan") is None
    assert store_factory().solo_in_progress("user:bea")["secret"] == "4321"


def test_a_finished_or_forged_game_and_a_bad_identity_are_refused_and_nothing_is_kept(store_factory):
    store = store_factory()
    won = _game(guesses=("1234",))
    forged = _game().as_json()
    forged["rows"][0] = ["1111", 4, 0]  # a feedback the secret does not give
    before = store_factory.state()
    for bad in (won.as_json(), forged, {"kind": "solo"}, []):
        with pytest.raises(ValueError):
            store.keep_solo("local", bad)
    with pytest.raises(ValueError):
        store.keep_solo("tab\there", _game().as_json())
    assert store_factory.state() == before
    assert store.solo_in_progress("local") is None


def test_a_damaged_solo_file_is_named_moved_aside_and_the_next_game_starts_afresh(tmp_path):
    from wom_tui.domain.store.folder.store import FolderStore as Store

    store = Store(tmp_path)
    store.keep_solo("local", _game().as_json())
    (path,) = (tmp_path / "solo").glob("*.json")
    path.write_text('{"schema": 1, "identity": "local", "game": {"kind": "solo"}}')
    with pytest.raises(StoreError) as info:
        store.solo_in_progress("local")
    assert path.name in str(info.value) and "kept as" in str(info.value)
    (kept,) = (tmp_path / "solo" / "damaged").glob("*.json")
    assert kept.read_text() == '{"schema": 1, "identity": "local", "game": {"kind": "solo"}}'
    assert store.solo_in_progress("local") is None
    store.check()


def test_the_coach_notes_and_the_lifelines_clues_are_kept_and_recorded(store_factory):
    """A resumed game shows the coach's notes again; a finished game's record says what each lifeline told."""
    from wom_tui.domain.clues import Clue
    from wom_tui.domain.solo import LifelinePolicy

    store = store_factory()
    store.register("Alan")
    game = SoloGame(Ruleset(4, DIGITS10, True, 10), "1234", random.Random(7), LifelinePolicy.EACH_ONCE,
                    player="Alan", is_user=True)
    game.guess("5678")
    game.coach_notes[1] = "Coach: 5678 could have been the code. 1,296 codes remain possible."
    assert game.lifeline(2).ok
    store.keep_solo("user:alan", game.as_json())
    back = SoloGame.from_json(store_factory().solo_in_progress("user:alan"), random.Random(1))
    assert back.coach_notes == game.coach_notes and back.clues == game.clues
    assert [kind for _, kind in back.transcript()] == ["info", "computer", "warning"]
    back.guess("1234")
    game_id = store.record_game(back.record())
    (index, clue), = store_factory().game(game_id).players[0].clues
    assert index == 1 and clue == back.clues[0] and isinstance(clue, Clue) and clue.position is not None


def test_a_variants_game_in_progress_is_kept_and_read_back_and_a_finished_one_refused(store_factory):
    """The kept solo game may be a variant's (docs/play.md, *Variants*): its rows are played again on reading."""
    from wom_tui.domain.variant_game import VariantGame
    from wom_tui.domain.variants import Variant

    store = store_factory()
    game = VariantGame.new(Variant.QUAD, Ruleset(4, DIGITS10, True, 10), random.Random(3), "Alan", True)
    game.guess(game.secrets[2])
    store.keep_solo("user:alan", game.as_json())
    back = VariantGame.from_json(store_factory().solo_in_progress("user:alan"))
    assert back.secrets == game.secrets and back.broken(2) and back.guesses_used == 1
    for code in game.secrets:
        if not game.over:
            game.guess(code)
    with pytest.raises(ValueError, match="over"):
        store.keep_solo("user:alan", game.as_json())
    assert store_factory().solo_in_progress("user:alan")["rows"] == back.as_json()["rows"]
