"""Several processes and sudden death: the store's promises (docs/develop.md) under SIGKILL and contention.

Contention runs on both stores (``store_factory``); SIGKILL in the middle of a file write is the
data folder's own concern.
"""

from __future__ import annotations

from random import Random

from wom_tui.domain.store.folder.store import FolderStore as Store

from .workers import (
    kill_at_random_moments,
    race_redeem,
    race_same_name,
    record_forever,
    register_forever,
    run_concurrently,
    verify_recorded,
    verify_registered,
)


def test_a_registering_writer_killed_at_random_moments_always_leaves_a_valid_file(tmp_path):
    stats = kill_at_random_moments(tmp_path, register_forever, verify_registered, 50, Random(1))
    assert stats["valid"] == stats["kills"] == 50


def test_a_game_recorder_killed_at_random_moments_never_applies_points_twice_or_partly(tmp_path):
    Store(tmp_path).register("Alan")
    stats = kill_at_random_moments(tmp_path, record_forever, verify_recorded, 50, Random(2))
    assert stats["valid"] == stats["kills"] == 50


def test_eight_processes_recording_games_for_one_user_lose_nothing(store_factory):
    store_factory().register("Alan")
    store_factory.close()
    run_concurrently(store_factory.location, "record", 8, 50)
    store = store_factory()
    store.check()
    alan = store.user("Alan")
    assert (alan.score, alan.games) == (400, 400)
    assert len(store.games()) == 400


def test_eight_processes_registering_distinct_users_lose_nobody(store_factory):
    run_concurrently(store_factory.location, "register", 8, 50)
    names = {u.name for u in store_factory().users()}
    assert names == {f"p{w}x{n}" for w in range(8) for n in range(50)}


def test_two_processes_registering_the_same_name_exactly_one_wins(store_factory):
    for round_ in range(10):
        place = store_factory.fresh()
        where = getattr(place, "url", None) or str(place.data_dir)
        store_factory.close()
        outcomes = race_same_name(where, "Alan" if round_ % 2 else "alan")
        assert sorted(outcomes) == ["Sorry, the name is already taken.", "registered"]
        assert len(store_factory(where).users()) == 1


def test_two_processes_typing_one_link_code_at_once_exactly_one_gets_the_name(store_factory):
    fp = ["SHA256:" + letter * 43 for letter in "ABC"]
    for _ in range(4):
        place = store_factory.fresh()
        where = getattr(place, "url", None) or str(place.data_dir)
        place.register("Alan", key=fp[0])
        code = place.issue_link_code(fp[0])
        store_factory.close()
        outcomes = race_redeem(where, code, fp[1:])
        assert sorted(outcomes.values()) == ["Alan", "That code is wrong, used or expired."], outcomes
        [winner] = [key for key, said in outcomes.items() if said == "Alan"]
        assert store_factory(where).user("Alan").keys == (fp[0], winner)
