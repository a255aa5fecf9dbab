"""Code-breaking strategies for computer players (docs/play.md, *The computer players*).

- ``random``: any valid code not yet tried (the older line-mode game's computer player); the weakest level.
- ``consistent`` (VIKI): a uniformly random code that fits every answer so far.
- ``expert`` (HAL9000): a book on 4 × 6 with repeats (the optimum, 5,625 guesses over the 1,296 codes,
  one of them on the 6th; or, ``within_five``, 5,626 and never more than 5), elsewhere the guess whose answers split a sample of the fitting codes best.

All choices are drawn from the ``random.Random`` passed in, and the search is bounded by counts
(codes drawn, guesses scored), never by the clock, so a seeded game replays the same on a loaded
machine. The only dependence on the clock is a safety net: when no fitting code turned up in
millions of draws, ``expert`` and ``consistent`` scan for one for at most :data:`TIME_BUDGET`
seconds (or play any code). Ordinary play never gets near it.

The package is split by idea:

- :mod:`.space` — the code space as numpy arrays: feedback in bulk, the codes that fit.
- :mod:`.counting` — consistency: fitting codes, how many, which answer is likely wrong.
- :mod:`.simple` — ``random`` and ``consistent``.
- :mod:`.planning` — scoring splits, and the end-game search.
- :mod:`.expert` — HAL9000.
- :mod:`.book` and :mod:`.search` — the books HAL9000 plays from, and the exact search that writes them.
"""

from __future__ import annotations

from .common import TIME_BUDGET, History, Strategy
from .counting import (
    Correction,
    all_codes,
    corrections,
    count_consistent,
    find_inconsistency,
    fitting,
    is_consistent,
    suspects,
)
from .expert import ExpertStrategy
from .simple import ConsistentStrategy, RandomStrategy

STRATEGIES = ("random", "consistent", "expert")


def make_strategy(name: str, *, consistent_only: bool = False, within_five: bool = False) -> Strategy:
    """The strategy called ``name`` (``"random"``, ``"consistent"`` or ``"expert"``).

    ``consistent_only=True`` makes ``expert`` play only codes that fit every answer so far
    (``consistent`` always does; ``random`` ignores it). ``within_five=True`` makes ``expert`` play the
    5-guess book on 4 × 6 (the worst-case-minded setting).
    """
    if name == "random":
        return RandomStrategy()
    if name == "consistent":
        return ConsistentStrategy()
    if name == "expert":
        return ExpertStrategy(consistent_only, within_five)
    raise ValueError(f"unknown strategy {name!r}; choose from {', '.join(STRATEGIES)}")


__all__ = [
    "STRATEGIES",
    "TIME_BUDGET",
    "ConsistentStrategy",
    "Correction",
    "ExpertStrategy",
    "History",
    "RandomStrategy",
    "Strategy",
    "all_codes",
    "corrections",
    "count_consistent",
    "find_inconsistency",
    "fitting",
    "is_consistent",
    "make_strategy",
    "suspects",
]
