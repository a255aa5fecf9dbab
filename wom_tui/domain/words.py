"""How the game writes a count: ``"1 game"``, ``"2 games"`` — one rule for every screen, message and share line."""

from __future__ import annotations


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``noun`` as it goes with ``count``: ``"game"`` for 1, ``"games"`` for 0, 2 or more.

    ``many`` is the plural when adding ``s`` (``es`` after s, x, sh, ch) is wrong: ``plural(2, "person", "people")``.
    """
    if count == 1:
        return noun
    if many is not None:
        return many
    return noun + ("es" if noun.endswith(("s", "x", "sh", "ch")) else "s")


def counted(count: int, noun: str, many: str | None = None) -> str:
    """The count and its noun: ``"1 game"``, ``"12 games"``, ``"1,204 codes"``."""
    return f"{count:,} {plural(count, noun, many)}"


__all__ = ["counted", "plural"]
