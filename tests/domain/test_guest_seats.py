"""Guest seats in World of Mastermind: a person without a registered name plays and earns nothing."""

from __future__ import annotations

import random

from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.domain.users import User, UserRegistry
from wom_tui.domain.wom import GUEST_SEATS, WomGame, players_from_names


def play_out(game: WomGame, codes: dict[str, str]) -> None:
    """Every person sets the code ``codes`` names for them, then breaks theirs on the first guess."""
    while game.phase == "making":
        game.make_code(codes.get(game.maker.name))
    while game.phase == "guessing":
        breaker = game.current
        maker = game.maker_for(breaker)
        game.play_turn(codes.get(maker.name) if not breaker.is_computer else None)


def test_a_guest_seat_plays_but_earns_and_records_no_points(tmp_path):
    store = Store(tmp_path)
    store.register("Alan")
    players = players_from_names(["Alan", "Guest 1"], store.users())
    assert [(p.name, p.is_user, p.is_guest) for p in players] == [("Alan", True, False), ("Guest 1", False, True)]
    records = []
    game = WomGame(players, 5, random.Random(1), on_finish=records.append)
    play_out(game, {"Alan": "RGBY", "Guest 1": "YBGR"})

    alan, guest = game.results().players
    assert alan.points is not None and alan.total > 0
    assert guest.points is None and guest.total == 0
    assert [(p.name, p.is_user) for p in records[0].players] == [("Alan", True), ("Guest 1", False)]
    store.record_game(records[0])
    assert store.user("Alan").games == 1  # type: ignore[union-attr]
    assert store.user("Guest 1") is None


def test_a_registered_user_named_like_a_guest_seat_is_that_user():
    registry = UserRegistry([User("Guest 2")])
    (player,) = players_from_names(["Guest 2"], registry)
    assert player.is_user and not player.is_guest
    assert "Guest 2" in GUEST_SEATS
