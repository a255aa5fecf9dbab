"""Reading back a setup form's remembered choices (docs/play.md, *Remembered choices*).

A store keeps each identity's last choices on a form as plain JSON values. What it gives back may
be from an older version, a damaged file or a hand edit: :func:`pick` takes a value only if the
form still offers it, and the form's default otherwise. Nothing here decides a game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

T = TypeVar("T")


def pick(saved: Mapping[str, Any], name: str, offered: Sequence[T], default: T) -> T:
    """``saved[name]`` if it is one of ``offered`` (and of the same type: ``True`` is not ``1``), else ``default``."""
    if not isinstance(saved, Mapping) or name not in saved:
        return default
    value = saved[name]
    for choice in offered:
        if type(choice) is type(value) and choice == value:
            return choice
    return default


def pick_index(saved: Mapping[str, Any], name: str, offered: Sequence[Any], default: int) -> int:
    """The index in ``offered`` of ``saved[name]`` (see :func:`pick`), else ``default``."""
    if isinstance(saved, Mapping) and name in saved:
        value = saved[name]
        for index, choice in enumerate(offered):
            if type(choice) is type(value) and choice == value:
                return index
    return default


__all__ = ["pick", "pick_index"]
