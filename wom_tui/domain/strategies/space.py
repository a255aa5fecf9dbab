"""Code spaces as numpy arrays: feedback in bulk, and the set of codes that fit a history.

A code is a row of symbol indices (``uint8``). Feedback is packed into one small integer,
``black * (length + 1) + common`` where ``common = black + white``, so that a whole table of
feedback is one matrix product of position features and colour-count threshold features
(``min(a, b) = Σₖ [a ≥ k][b ≥ k]``).

Small spaces (up to :data:`ENUM_LIMIT` codes) are enumerated once and filtered guess by guess.
Larger ones (up to 8 × 10 = 10⁸) are never enumerated: every code is split into two halves,
halves are joined on the black pegs they must contribute to each answer, and the colour
condition is checked only on joined pairs — all of them when there are few enough, otherwise a
uniform sample. Uniform indeed: each fitting code is exactly one black-compatible pair, pairs are drawn
uniformly and kept only if the colours fit. Checked by drawing 50 codes per fitting code and comparing
the counts with the full list (6 × 8 after one and two guesses, 7 × 8 after two, 8 × 10 after three:
chi-square per degree of freedom 1.01, 1.06, 1.00, 0.98).
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..codes import Feedback, Ruleset

ENUM_LIMIT = 250_000
"""Spaces up to this many codes are enumerated; larger ones are joined from halves."""

PAIR_LIMIT = 1_500_000
"""At most this many half-pairs are checked exhaustively at once; more are sampled."""

CHUNK = 250_000


@dataclass(frozen=True)
class Shape:
    """What the solver needs of a ruleset: length, number of symbols, repeats."""

    length: int
    colours: int
    repeats: bool

    @classmethod
    def of(cls, ruleset: Ruleset) -> Shape:
        """The shape of ``ruleset``."""
        return cls(ruleset.length, len(ruleset.palette), ruleset.repeats)

    @property
    def size(self) -> int:
        """How many secrets the shape allows."""
        if self.repeats:
            return self.colours**self.length
        return int(np.prod(range(self.colours - self.length + 1, self.colours + 1), dtype=np.int64))

    @property
    def outcomes(self) -> int:
        """How many packed feedback values there can be (an upper bound)."""
        return (self.length + 1) ** 2

    def pack(self, fb: Feedback) -> int:
        """Pack a feedback into its integer key."""
        return fb.black * (self.length + 1) + fb.black + fb.white

    @property
    def win_key(self) -> int:
        """The packed feedback of a solved code."""
        return self.length * (self.length + 1) + self.length


def to_array(codes: list[str] | tuple[str, ...], symbols: str) -> np.ndarray:
    """Strings of palette symbols → ``uint8`` rows of indices."""
    lookup = {s: i for i, s in enumerate(symbols)}
    return np.array([[lookup[ch] for ch in code] for code in codes], dtype=np.uint8).reshape(len(codes), -1)


def to_string(row: np.ndarray, symbols: str) -> str:
    """A row of indices → the code as palette symbols."""
    return "".join(symbols[int(i)] for i in row)


def colour_counts(codes: np.ndarray, colours: int) -> np.ndarray:
    """How many times each colour appears in each code: ``(n, colours)`` ``uint8``."""
    counts = np.zeros((codes.shape[0], colours), dtype=np.uint8)
    for c in range(colours):
        counts[:, c] = (codes == c).sum(axis=1)
    return counts


def _features(codes: np.ndarray, colours: int, black_weight: int) -> np.ndarray:
    """Position one-hots (weighted) then colour-count thresholds, as float32 rows."""
    n, length = codes.shape
    pos = np.zeros((n, length, colours), dtype=np.float32)
    pos[np.arange(n)[:, None], np.arange(length)[None, :], codes] = black_weight
    counts = colour_counts(codes, colours)
    thresh = (counts[:, :, None] >= np.arange(1, length + 1)[None, None, :]).astype(np.float32)
    return np.concatenate([pos.reshape(n, -1), thresh.reshape(n, -1)], axis=1)


def guess_features(guesses: np.ndarray, colours: int) -> np.ndarray:
    """The guess-side features :func:`feedback_keys` multiplies (precompute to reuse)."""
    return _features(guesses, colours, guesses.shape[1] + 1)


@lru_cache(maxsize=4)
def space_guess_features(length: int, colours: int, repeats: bool) -> np.ndarray:
    """Guess-side features of every code of a shape, cached (for scoring the whole space as guesses)."""
    return guess_features(enumerate_codes(length, colours, repeats), colours)


def feedback_keys(
    guesses: np.ndarray, secrets: np.ndarray, colours: int, features: np.ndarray | None = None
) -> np.ndarray:
    """Packed feedback of every guess (rows) against every secret (columns), ``uint8``.

    ``features`` may carry :func:`guess_features` of ``guesses`` already computed.
    """
    g = guess_features(guesses, colours) if features is None else features
    s = _features(secrets, colours, 1)
    out = g @ s.T
    return np.rint(out).astype(np.uint8)


def keys_against(guess: np.ndarray, codes: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Packed feedback of one guess against many codes (with their colour counts precomputed)."""
    length = codes.shape[1]
    black = (codes == guess[None, :]).sum(axis=1, dtype=np.int16)
    gcount = np.bincount(guess, minlength=counts.shape[1]).astype(np.uint8)
    common = np.minimum(counts, gcount[None, :]).sum(axis=1, dtype=np.int16)
    return (black * (length + 1) + common).astype(np.uint8)


def partition_counts(keys: np.ndarray, outcomes: int) -> np.ndarray:
    """For each guess row of packed keys, how many secrets give each feedback."""
    rows = keys.shape[0]
    flat = keys.astype(np.int64) + (np.arange(rows, dtype=np.int64) * outcomes)[:, None]
    return np.bincount(flat.ravel(), minlength=rows * outcomes).reshape(rows, outcomes)


@lru_cache(maxsize=16)
def enumerate_codes(length: int, colours: int, repeats: bool) -> np.ndarray:
    """Every code of a shape, in palette order, as ``uint8`` rows (read-only)."""
    if repeats:
        grid = np.indices((colours,) * length, dtype=np.uint8).reshape(length, -1).T
        codes = np.ascontiguousarray(grid)
    else:
        codes = np.array(list(itertools.permutations(range(colours), length)), dtype=np.uint8).reshape(-1, length)
    codes.flags.writeable = False
    return codes


@lru_cache(maxsize=16)
def enumerate_counts(length: int, colours: int, repeats: bool) -> np.ndarray:
    """Colour counts of :func:`enumerate_codes`."""
    counts = colour_counts(enumerate_codes(length, colours, repeats), colours)
    counts.flags.writeable = False
    return counts


HistoryKey = tuple[tuple[bytes, int, int], ...]
"""A hashable history: (guess as index bytes, black, white) per step."""

ClueKey = tuple[tuple[int, int], ...]
"""Hashable lifeline clues: (symbol index, position or -1 for "the code contains it"), sorted, no repeats."""


def clue_key(clues, symbols: str) -> ClueKey:
    """Make lifeline clues (:class:`wom_tui.domain.clues.Clue`) hashable, symbols as indices."""
    lookup = {s: i for i, s in enumerate(symbols)}
    return tuple(sorted({(lookup[c.symbol], -1 if c.position is None else c.position) for c in clues}))


def clue_mask(codes: np.ndarray, counts: np.ndarray, clues: ClueKey) -> np.ndarray:
    """The rows of ``codes`` (with their colour counts) that agree with every clue."""
    keep = np.ones(len(codes), bool)
    for symbol, position in clues:
        if position < 0:
            keep &= counts[:, symbol] >= 1
        elif position < codes.shape[1]:
            keep &= codes[:, position] == symbol
        else:
            keep[:] = False
    return keep


def history_key(history, symbols: str) -> HistoryKey:
    """Make a (guess, feedback) history hashable, guesses as index bytes."""
    lookup = {s: i for i, s in enumerate(symbols)}
    return tuple((bytes(lookup[ch] for ch in guess), fb.black, fb.white) for guess, fb in history)


class Candidates:
    """The codes that fit a history: all of them (``exact``), or a way to draw them uniformly."""

    def __init__(self, shape: Shape, codes: np.ndarray | None, sampler: _PairSampler | None = None) -> None:
        self.shape = shape
        self.codes = codes
        self.sampler = sampler

    @property
    def exact(self) -> bool:
        """True when every fitting code is held in :attr:`codes`."""
        return self.codes is not None

    @property
    def all_codes(self) -> np.ndarray:
        """Every fitting code (only when :attr:`exact`)."""
        if self.codes is None:
            raise ValueError("the fitting codes are drawn, not listed")
        return self.codes

    @property
    def drawn(self) -> _PairSampler:
        """The way to draw fitting codes (only when not :attr:`exact`)."""
        if self.sampler is None:
            raise ValueError("the fitting codes are listed, not drawn")
        return self.sampler

    def count(self) -> tuple[int, bool]:
        """How many codes fit, and whether the number is exact."""
        if self.codes is not None:
            return len(self.codes), True
        return self.drawn.estimate(), False

    def sample(self, n: int, gen: np.random.Generator, *, distinct: bool = True) -> np.ndarray:
        """Up to ``n`` fitting codes drawn uniformly (all of them if there are fewer)."""
        if self.codes is not None:
            if len(self.codes) <= n:
                return self.codes
            idx = gen.choice(len(self.codes), size=n, replace=False)
            return self.codes[np.sort(idx)]
        return self.drawn.draw(n, gen, distinct=distinct)

    def any(self) -> bool:
        """True if at least one code fits (exact, possibly slow on a huge empty join)."""
        if self.codes is not None:
            return len(self.codes) > 0
        return self.drawn.find_one() is not None


def _hist_arrays(hist: HistoryKey, length: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    guesses = np.frombuffer(b"".join(g for g, _, _ in hist), dtype=np.uint8).reshape(len(hist), length)
    blacks = np.array([b for _, b, _ in hist], dtype=np.int16)
    commons = np.array([b + w for _, b, w in hist], dtype=np.int16)
    return guesses, blacks, commons


def filter_codes(codes: np.ndarray, counts: np.ndarray, guess: bytes, black: int, white: int, shape: Shape):
    """The rows of ``codes`` that give (black, white) to ``guess``."""
    g = np.frombuffer(guess, dtype=np.uint8)
    keys = keys_against(g, codes, counts)
    keep = keys == black * (shape.length + 1) + black + white
    return codes[keep], counts[keep]


@lru_cache(maxsize=64)
def _enumerated(shape: Shape, hist: HistoryKey, clues: ClueKey = ()) -> tuple[np.ndarray, np.ndarray]:
    if not hist:
        codes = enumerate_codes(shape.length, shape.colours, shape.repeats)
        counts = enumerate_counts(shape.length, shape.colours, shape.repeats)
        if clues:
            keep = clue_mask(codes, counts, clues)
            return codes[keep], counts[keep]
        return codes, counts
    codes, counts = _enumerated(shape, hist[:-1], clues)
    return filter_codes(codes, counts, *hist[-1], shape)


@lru_cache(maxsize=24)
def _joined(shape: Shape, hist: HistoryKey, clues: ClueKey = ()) -> Candidates:
    if hist:
        before = _joined(shape, hist[:-1], clues)
        if before.exact:
            codes = before.all_codes
            counts = colour_counts(codes, shape.colours)
            return Candidates(shape, filter_codes(codes, counts, *hist[-1], shape)[0])
    sampler = _PairSampler(shape, hist, clues)
    if sampler.pairs <= PAIR_LIMIT:
        return Candidates(shape, sampler.all_codes())
    return Candidates(shape, None, sampler)


def candidates(shape: Shape, hist: HistoryKey, clues: ClueKey = ()) -> Candidates:
    """The codes of ``shape`` that fit ``hist`` and agree with the lifeline ``clues`` (cached, extended
    one guess at a time).
    """
    if shape.size <= ENUM_LIMIT:
        return Candidates(shape, _enumerated(shape, hist, clues)[0])
    return _joined(shape, hist, clues)


@lru_cache(maxsize=8)
def _halves(length: int, colours: int, repeats: bool, first: int) -> tuple[np.ndarray, np.ndarray]:
    a = enumerate_codes(first, colours, repeats)
    b = enumerate_codes(length - first, colours, repeats)
    return a, b


def _past(deadline: float | None) -> bool:
    return deadline is not None and time.monotonic() > deadline


class _PairSampler:
    """Codes as (first half, second half) pairs whose blacks add up to every answer.

    The colour condition (``common``) does not split over halves, so it is checked on each
    joined pair; pairs are drawn uniformly, hence accepted codes are uniform over the fitting ones.
    """

    def __init__(self, shape: Shape, hist: HistoryKey, clues: ClueKey = ()) -> None:
        self.shape = shape
        length, colours = shape.length, shape.colours
        first = (length + 1) // 2
        self.first = first
        a, b = _halves(length, colours, shape.repeats, first)
        # A revealed position narrows its half; "the code contains" is checked on joined pairs.
        for symbol, position in clues:
            if 0 <= position < first:
                a = a[a[:, position] == symbol]
            elif position >= first:
                b = b[b[:, position - first] == symbol] if position < length else b[:0]
        self.contains = [symbol for symbol, position in clues if position < 0]
        if hist:
            guesses, blacks, commons = _hist_arrays(hist, length)
        else:
            guesses = np.zeros((0, length), dtype=np.uint8)
            blacks = commons = np.zeros(0, dtype=np.int16)
        self.guesses, self.blacks, self.commons = guesses, blacks, commons
        self.gcounts = colour_counts(guesses, colours) if len(hist) else np.zeros((0, colours), np.uint8)
        m = len(hist)
        second = length - first
        ca, cb = colour_counts(a, colours), colour_counts(b, colours)
        ba = np.stack([(a == g[None, :first]).sum(1) for g in guesses], axis=1) if m else np.zeros((len(a), 0))
        bb = np.stack([(b == g[None, first:]).sum(1) for g in guesses], axis=1) if m else np.zeros((len(b), 0))
        ba, bb = ba.astype(np.int16), bb.astype(np.int16)
        # A half can only be used if its blacks and colour matches leave the other half a possible share.
        oka = np.ones(len(a), bool)
        okb = np.ones(len(b), bool)
        for i in range(m):
            coma = np.minimum(ca, self.gcounts[i]).sum(1, dtype=np.int16)
            comb = np.minimum(cb, self.gcounts[i]).sum(1, dtype=np.int16)
            need_b = blacks[i] - ba[:, i]
            oka &= (need_b >= 0) & (need_b <= second) & (coma <= commons[i]) & (commons[i] - coma <= second)
            need_a = blacks[i] - bb[:, i]
            okb &= (need_a >= 0) & (need_a <= first) & (comb <= commons[i]) & (commons[i] - comb <= first)
        ia, ib = np.nonzero(oka)[0], np.nonzero(okb)[0]
        self.a, self.b, self.ca, self.cb = a[ia], b[ib], ca[ia], cb[ib]
        if m:
            want = (blacks[None, :] - ba[ia]).astype(np.int16)
            have = bb[ib]
            both = np.concatenate([want, have], axis=0)
            _, inverse = np.unique(both, axis=0, return_inverse=True)
            inverse = inverse.reshape(-1)
            ga, gb = inverse[: len(ia)], inverse[len(ia) :]
        else:
            ga, gb = np.zeros(len(ia), np.int64), np.zeros(len(ib), np.int64)
        order = np.argsort(gb, kind="stable")
        self.b_sorted = order
        groups = int(max(ga.max(initial=-1), gb.max(initial=-1))) + 1
        sizes = np.bincount(gb, minlength=groups)
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        self.per_a = sizes[ga].astype(np.int64)
        self.start_a = starts[ga].astype(np.int64)
        self.cum = np.cumsum(self.per_a)
        self.pairs = int(self.cum[-1]) if len(self.cum) else 0
        self._estimate: int | None = None

    def _codes_of(self, ai: np.ndarray, bj: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Join pair indices into codes and keep those meeting the colour condition."""
        cnt = self.ca[ai] + self.cb[bj]
        ok = np.ones(len(ai), bool)
        if not self.shape.repeats:
            ok &= (cnt <= 1).all(axis=1)
        for symbol in self.contains:
            ok &= cnt[:, symbol] >= 1
        for i in range(len(self.guesses)):
            ok &= np.minimum(cnt, self.gcounts[i]).sum(1, dtype=np.int16) == self.commons[i]
        codes = np.concatenate([self.a[ai[ok]], self.b[bj[ok]]], axis=1)
        return codes, ok

    def _pairs_range(self, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
        """Pair numbers ``lo..hi-1`` as (first-half index, second-half index)."""
        r = np.arange(lo, hi, dtype=np.int64)
        return self._pairs_at(r)

    def _pairs_at(self, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        ai = np.searchsorted(self.cum, r, side="right")
        offset = r - (self.cum[ai] - self.per_a[ai])
        bj = self.b_sorted[self.start_a[ai] + offset]
        return ai, bj

    def all_codes(self) -> np.ndarray:
        """Every fitting code (only sensible when :attr:`pairs` is small)."""
        parts = [np.zeros((0, self.shape.length), np.uint8)]
        for lo in range(0, self.pairs, CHUNK):
            ai, bj = self._pairs_range(lo, min(self.pairs, lo + CHUNK))
            parts.append(self._codes_of(ai, bj)[0])
        return np.ascontiguousarray(np.concatenate(parts, axis=0))

    def draw(
        self,
        n: int,
        gen: np.random.Generator,
        *,
        distinct: bool = True,
        max_draws: int = 4_000_000,
        deadline: float | None = None,
    ) -> np.ndarray:
        """Up to ``n`` fitting codes, uniformly at random; fewer only if they are very rare.

        Drawing is bounded by work (``max_draws`` pairs), never by the clock, so a seeded game replays
        the same however loaded the machine. Only when no fitting code turned up in all those draws is
        one looked for in pair order, and that scan stops at ``deadline`` (``time.monotonic()``): the
        one place the clock can change a choice, and only when fitting codes are extremely rare.
        """
        if self.pairs == 0:
            return np.zeros((0, self.shape.length), np.uint8)
        got: list[np.ndarray] = []
        total = drawn = accepted = 0
        batch = max(4 * n, 20_000)
        while total < n and drawn < max_draws:
            r = gen.integers(0, self.pairs, size=batch, dtype=np.int64)
            codes, ok = self._codes_of(*self._pairs_at(r))
            drawn += batch
            accepted += int(ok.sum())
            got.append(codes)
            total += len(codes)
            if accepted == 0:
                batch = min(batch * 4, 1_000_000)
        out = np.concatenate(got, axis=0) if got else np.zeros((0, self.shape.length), np.uint8)
        if distinct and len(out):
            _, first = np.unique(out, axis=0, return_index=True)
            out = out[np.sort(first)]
        if len(out) == 0:
            one = self.find_one(deadline)
            if one is not None:
                out = one[None, :]
        return out[:n]

    def estimate(self) -> int:
        """An estimate of how many codes fit: pairs × the share of drawn pairs that fit."""
        if self._estimate is None:
            # A fixed seed keeps the estimate the same however often and in whatever order it is asked.
            gen = np.random.default_rng(0)
            drawn = accepted = 0
            while drawn < 1_000_000 and accepted < 2_000:
                r = gen.integers(0, self.pairs, size=200_000, dtype=np.int64)
                accepted += int(self._codes_of(*self._pairs_at(r))[1].sum())
                drawn += len(r)
            self._estimate = max(1, round(self.pairs * accepted / drawn)) if accepted else 0
            if self._estimate == 0 and self.find_one() is not None:
                self._estimate = 1
        return self._estimate

    def find_one(self, deadline: float | None = None) -> np.ndarray | None:
        """The first fitting code in pair order, or None when none fits (or the deadline passed)."""
        for lo in range(0, self.pairs, CHUNK):
            if _past(deadline):
                return None
            ai, bj = self._pairs_range(lo, min(self.pairs, lo + CHUNK))
            codes = self._codes_of(ai, bj)[0]
            if len(codes):
                return codes[0]
        return None
