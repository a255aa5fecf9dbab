"""Users, names and the scoreboard (docs/play.md, *World of Mastermind*)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wom_tui.domain.users import NameRejected, User, UserRegistry, average, check_name


def test_a_new_user_starts_with_nothing():
    alan = User("Alan")
    assert (alan.name, alan.score, alan.games, alan.average) == ("Alan", 0, 0, 0.0)


def test_name_is_read_only_and_data_is_private():
    alan = User("Alan")
    with pytest.raises(AttributeError):
        alan.name = "Bob"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        alan.score = 99  # type: ignore[misc]
    with pytest.raises(AttributeError):
        alan.games = 99  # type: ignore[misc]
    assert not hasattr(alan, "__dict__")


def test_score_only_grows_by_an_asked_amount():
    alan = User("Alan")
    alan.add_points(4)
    alan.add_points(0)
    alan.add_points(5)
    assert alan.score == 9
    with pytest.raises(ValueError):
        alan.add_points(-1)
    with pytest.raises(ValueError):
        alan.add_points(1.5)  # type: ignore[arg-type]
    assert alan.score == 9


def test_games_and_average():
    alan = User("Alan")
    alan.add_points(25)
    for _ in range(3):
        alan.record_game()
    assert alan.games == 3
    assert alan.average == 8.3


@pytest.mark.parametrize(
    "score, games, expected", [(25, 3, 8.3), (1, 4, 0.3), (15, 2, 7.5), (0, 0, 0.0), (5, 0, 0.0), (1, 20, 0.1), (1, 40, 0.0)]
)
def test_average_rounds_half_up_to_one_decimal(score, games, expected):
    assert average(score, games) == expected


@given(st.integers(0, 10_000), st.integers(1, 1_000))
def test_average_is_within_a_twentieth_of_the_ratio(score, games):
    assert abs(average(score, games) - score / games) <= 0.05 + 1e-9


def test_user_json_round_trip():
    alan = User("Alan", 25, 3)
    assert User.from_json(alan.as_json()) == alan
    with pytest.raises(ValueError):
        User.from_json({"name": "Alan", "score": -1, "games": 0})
    with pytest.raises(ValueError):
        User.from_json({"name": "Alan", "score": 1})


@pytest.mark.parametrize("name", ["Alan", "a", "Alan Turing", "x-y_z.1", "A" * 16])
def test_good_names_are_kept_as_typed(name):
    assert check_name(name) == name


@pytest.mark.parametrize(
    "name, reason",
    [
        ("", "Please type a name."),
        ("   ", "Please type a name."),
        (" Alan", "A name cannot start or end with a space."),
        ("Alan ", "A name cannot start or end with a space."),
        ("A" * 17, "A name can be at most 16 characters long."),
        ("HAL9000", "HAL9000 is a computer player's name."),
        ("viki", "VIKI is a computer player's name."),
        ("[b]Al[/b]", None),
        ("Аlan", None),  # Cyrillic А looks like A
        ("Al\x1b[31m", None),
        ("Al\u200ban", None),
    ],
)
def test_bad_names_are_rejected_with_a_reason(name, reason):
    with pytest.raises(NameRejected) as exc:
        check_name(name)
    assert exc.value.reason
    if reason is not None:
        assert exc.value.reason == reason


def test_guest_names_are_at_most_seven():
    assert check_name("Guest12", max_length=7) == "Guest12"
    with pytest.raises(NameRejected):
        check_name("Guest123", max_length=7)


def test_registry_names_are_unique_ignoring_case():
    registry = UserRegistry()
    alan = registry.register("Alan")
    with pytest.raises(NameRejected, match="^Sorry, the name is already taken.$"):
        registry.register("alan")
    assert registry.get("ALAN") is alan
    assert "aLaN" in registry and "Bill" not in registry
    assert registry.get("Bill") is None
    assert len(registry) == 1 and list(registry) == [alan]


def test_registry_refuses_reserved_names():
    with pytest.raises(NameRejected, match="computer player"):
        UserRegistry().register("Hal9000")


def test_scoreboard_is_by_score_then_name():
    alan, steve, elon, bob = User("Alan", 25, 3), User("Steve", 15, 2), User("Elon"), User("bob", 15, 1)
    registry = UserRegistry([elon, steve, alan, bob])
    assert [u.name for u in registry.scoreboard()] == ["Alan", "bob", "Steve", "Elon"]
    assert [(u.score, u.games, u.average) for u in registry.scoreboard()] == [
        (25, 3, 8.3), (15, 1, 15.0), (15, 2, 7.5), (0, 0, 0.0)
    ]


def test_registry_refuses_duplicate_users_when_loaded():
    with pytest.raises(ValueError):
        UserRegistry([User("Alan"), User("ALAN")])
