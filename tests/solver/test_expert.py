"""HAL9000 on the classic game: every one of the 1296 secrets, and the book it plays from."""

import itertools
import random

from wom_tui.domain.codes import RAINBOW, WOM, Ruleset
from wom_tui.domain.strategies import book, make_strategy

from .helpers import play


def test_expert_breaks_every_4x6_secret_in_at_most_5_and_436_on_average():
    rules = Ruleset(4, WOM, True, 10)
    expert = make_strategy("expert")
    lengths = [
        len(play(expert, rules, "".join(s), random.Random(0)))
        for s in itertools.product(WOM.symbols, repeat=4)
    ]
    assert len(lengths) == 1296
    assert max(lengths) <= 5
    assert sum(lengths) / 1296 <= 4.36


def test_the_book_serves_every_six_symbol_palette():
    rules = Ruleset(4, RAINBOW, True, 10)
    expert = make_strategy("expert")
    lengths = [len(play(expert, rules, "".join(s), random.Random(0))) for s in itertools.product("ROYGBV", repeat=4)]
    assert max(lengths) <= 5


def test_regenerating_the_book_gives_the_shipped_book():
    assert book.build_book() == book.load_book()
