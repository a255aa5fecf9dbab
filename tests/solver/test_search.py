"""The exact search that writes the books agrees with trying every guess everywhere, on small games."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest

from wom_tui.domain.strategies.search import INF, Search, ideal_bounds
from wom_tui.domain.strategies.space import Shape


def brute_force(search: Search, consistent_only: bool):
    """The optimum by plain recursion: no bounds, no symmetry, every guess at every position."""
    table, win, n = search.table, search.win, search.n

    @lru_cache(maxsize=None)
    def cost(subset: frozenset, depth: int) -> int:
        if len(subset) == 1:
            return 1
        if depth <= 1:
            return INF
        codes = np.array(sorted(subset))
        best = INF
        for g in codes if consistent_only else range(n):
            row = table[g, codes]
            parts = [frozenset(codes[row == k].tolist()) for k in np.unique(row) if k != win]
            if len(parts) == 1 and len(parts[0]) == len(subset):
                continue  # learns nothing
            best = min(best, len(subset) + sum(cost(p, depth - 1) for p in parts))
        return best

    return cost(frozenset(range(n)), search.depth)


@pytest.mark.parametrize(
    ("length", "colours", "depth"),
    [(2, 3, 3), (2, 4, 3), (2, 4, 4), (3, 3, 3), (3, 3, 4), (2, 5, 4), (3, 4, 3)],
)
@pytest.mark.parametrize("consistent_only", [False, True], ids=["any", "consistent"])
def test_the_search_finds_the_same_optimum_as_trying_everything(length, colours, depth, consistent_only):
    search = Search(Shape(length, colours, True), depth=depth, consistent_only=consistent_only)
    assert search.solve() == brute_force(search, consistent_only)


@pytest.mark.parametrize("consistent_only", [False, True], ids=["any", "consistent"])
def test_the_tree_the_search_returns_costs_what_it_says(consistent_only):
    search = Search(Shape(3, 4, True), depth=5, consistent_only=consistent_only)
    total = search.solve()
    tree = search.tree()
    played = []
    for secret in range(search.n):
        path: tuple = ()
        while True:
            guess = tree[path]
            if consistent_only:
                assert all(search.table[g, guess] == k for g, k in path)
            played.append(1)
            key = int(search.table[guess, secret])
            if key == search.win:
                break
            path = (*path, (guess, key))
        assert len(path) < search.depth
    assert len(played) == total


def test_the_ideal_bound_never_exceeds_what_a_set_costs():
    # 13 answers: a code and 13 singletons cost 1 + 13·2; one more code needs a third guess.
    f = ideal_bounds(20, 13, 4)
    assert f[3][14] == 14 + 13
    assert f[3][15] == 15 + 12 * 1 + 3
    assert f[1][2] == INF


@pytest.mark.parametrize(("length", "colours", "depth"), [(2, 4, 3), (3, 3, 4), (3, 4, 3)])
def test_without_the_table_and_symmetry_the_search_finds_the_same_optimum(monkeypatch, length, colours, depth):
    # How 5 × 8 is searched: answers computed per set, and a code splitting ideally is taken at once.
    from wom_tui.domain.strategies import search as search_module

    monkeypatch.setattr(search_module, "TABLE_UP_TO", 0)
    wide = Search(Shape(length, colours, True), depth=depth)
    assert wide.table is None and wide.perms is None
    total = wide.solve()
    monkeypatch.setattr(search_module, "TABLE_UP_TO", 10_000)
    assert total == brute_force(Search(Shape(length, colours, True), depth=depth), False)


def test_the_shallow_tree_costs_the_same_and_needs_the_last_guess_no_more_often():
    search = Search(Shape(3, 4, True), depth=6)
    total = search.solve()

    def lengths(tree):
        out = []
        for secret in range(search.n):
            path: tuple = ()
            while int(search.table[tree[path], secret]) != search.win:
                path = (*path, (tree[path], int(search.table[tree[path], secret])))
            out.append(len(path) + 1)
        return out

    plain, shallow = lengths(search.tree()), lengths(search.tree(shallow=True))
    assert sum(plain) == sum(shallow) == total
    assert max(shallow) == max(plain) == 4
    assert shallow.count(4) < plain.count(4)  # 21 codes on the 4th guess instead of 22
