"""Names that look alike are one name to a registration: case, spaces, punctuation and look-alike
characters (1/I/l, 0/O, 5/S …) are folded away (docs/play.md, *Names*)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wom_tui.domain.users import NameRejected, User, UserRegistry, fold_name

LOOKS = {"0": "oO", "1": "iIlL", "2": "zZ", "3": "eE", "4": "aA", "5": "sS", "6": "gG", "7": "tT", "8": "bB",
         "9": "qQ", "i": "1lIL", "l": "1iIL", "o": "0O", "s": "5S"}


@pytest.mark.parametrize(("name", "reason"), [
    ("Guest 1", "kept for players without a name"),
    ("guest12", "kept for players without a name"),
    ("Guest", "kept for players without a name"),
    ("HAL 9000", "looks like HAL9000, a computer player's name"),
    ("HAL9000.", "looks like HAL9000, a computer player's name"),
    ("hal-9OOO", "looks like HAL9000, a computer player's name"),
    ("V1KI", "looks like VIKI, a computer player's name"),
    ("v.i.k.l", "looks like VIKI, a computer player's name"),
])
def test_names_like_reserved_ones_are_refused_with_the_reason(name, reason):
    registry = UserRegistry()
    with pytest.raises(NameRejected, match=reason):
        registry.register(name)
    assert len(registry) == 0


def test_a_name_like_a_taken_one_is_refused_naming_it():
    registry = UserRegistry([User("Alan"), User("Sol")])
    for lookalike in ("A1an", "a lan", "AIan.", "ALAN_"):
        with pytest.raises(NameRejected, match="looks like Alan, which is taken"):
            registry.register(lookalike)
    with pytest.raises(NameRejected, match="looks like Sol"):
        registry.register("50l")
    with pytest.raises(NameRejected, match="the name is already taken"):
        registry.register("alan")
    assert registry.register("Alana").name == "Alana"
    assert registry.register("Guestbook").name == "Guestbook"  # not a guest's label
    assert len(registry) == 4


def test_names_registered_alike_before_the_rule_still_load_and_block_a_third():
    registry = UserRegistry([User("Bob"), User("B0B"), User("b o b")])
    assert [u.name for u in registry] == ["Bob", "B0B", "b o b"]
    with pytest.raises(NameRejected, match="looks like Bob"):
        registry.register("BOB.")


names = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", min_size=1, max_size=12)


@given(names, st.data())
def test_case_punctuation_spaces_and_lookalikes_never_change_the_fold(name, data):
    disguised = []
    for ch in name:
        choice = data.draw(st.sampled_from(["same", "case", "look", "punct"]))
        if choice == "case":
            ch = ch.swapcase()
        elif choice == "look" and ch in LOOKS:
            ch = data.draw(st.sampled_from(LOOKS[ch]))
        elif choice == "punct":
            ch = ch + data.draw(st.sampled_from([" ", ".", "-", "_"]))
        disguised.append(ch)
    assert fold_name("".join(disguised)) == fold_name(name)


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ._-", max_size=20))
def test_a_fold_is_lower_case_letters_only_and_folds_to_itself(name):
    folded = fold_name(name)
    assert folded == fold_name(folded)
    assert all(ch.isalpha() and ch.islower() for ch in folded) and "i" not in folded


@given(names, names)
def test_names_that_differ_in_a_letter_that_has_no_lookalike_fold_apart(left, right):
    if fold_name(left) != fold_name(right):
        return
    plain = str.maketrans("0123456789iIlLoOsSzZeEaAgGtTbBqQ", "##########" + "#" * 22)
    assert left.translate(plain).casefold() == right.translate(plain).casefold()
