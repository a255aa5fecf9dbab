"""The shapes of the JSON the store keeps (a game record, a solo game, a table) as msgspec Structs, checked
strictly (nothing coerced, no field missing or unknown) and told in the words a person should read.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from typing import Annotated, Any, Literal, TypeVar

import msgspec

from .variants import Variant

Count = Annotated[int, msgspec.Meta(ge=0)]
"""A whole number of at least 0."""
Number = Annotated[float, msgspec.Meta(ge=-sys.float_info.max, le=sys.float_info.max)]
"""A finite number (a whole number is taken as one)."""

T = TypeVar("T")
_KINDS = {"int": "a whole number", "str": "a string", "bool": "true or false", "float": "a number",
          "array": "a list", "object": "an object"}


def shaped(data: Any, shape: type[T], messages: Mapping[str, str] = {}, what: str = "it") -> T:  # read only
    """``data`` as ``shape``, or ``ValueError`` with the reason: ``missing field 'seed'``, ``unexpected field
    'colour'``, ``'recorded' must be true or false``, ``unknown phase 'paused'``; ``what`` names the whole.

    ``messages`` words a part otherwise: its path (``seats[].code``, the code of any seat) → the reason, where
    ``{n}`` is the number of the first item on the path and ``{reason}`` the reason as worded here. A path
    ending in ``[]`` covers all inside those items, the empty path everything; the longest that fits wins.
    """
    try:
        return msgspec.convert(data, shape, strict=True)
    except msgspec.ValidationError as exc:
        said, _, where = str(exc).partition(" - at `")  # "…`$.seats[1].code`", "…`key` in `$`"
        path = (["", ""] + where.split("`"))[-2].lstrip("$")
    field = re.findall(r"\.(\w+)", path)
    quoted = said.split("`") + ["", ""]  # "Expected `int` >= 0": what was expected, then its bounds
    if said.startswith(("Object missing", "Object contains")):
        reason = f"{'missing' if 'missing' in said else 'unexpected'} field {quoted[1]!r}"
    elif said.startswith("Invalid enum value"):
        reason = f"unknown {field[-1] if field else 'value'} {said.removeprefix('Invalid enum value ')}"
    else:
        name = repr(field[-1]) if field else what
        subject = f"a key of {name}" if where.startswith("key`") else (
            f"an item of {name}" if path.endswith("]") else name)
        expected = " or ".join(_KINDS[kind] for kind in re.findall(r"\w+", quoted[1]) if kind in _KINDS)
        bound = "" if quoted[2].startswith(",") or "e+308" in quoted[2] else quoted[2]  # " of length 3, got 2"
        reason = f"{subject} must be {expected or 'something else'}{bound}"
    general, numbers = re.sub(r"\[(\d+|\.\.\.)\]", "[]", path).lstrip("."), re.findall(r"\[(\d+)\]", path)
    for key in sorted(messages, key=len, reverse=True):
        if general == key or (key.endswith("[]") or not key) and general.startswith(key):
            reason = messages[key].format(n=int(numbers[0]) + 1 if numbers else "", reason=reason)
            break
    raise ValueError(reason)


class VariantGameShape(msgspec.Struct, forbid_unknown_fields=True):
    """A variant's solo game as the store keeps it (``VariantGame.as_json``, docs/play.md, *Variants*)."""

    kind: Literal["variant"]
    variant: Variant
    ruleset: Any  # Ruleset.from_json
    secrets: list[str]
    seed: Count
    lie_at: Count | None
    rows: list[tuple[str, list[tuple[Count, Count] | None]]]
    abandoned: bool
    player: str
    is_user: bool
    coach: bool
    coach_notes: dict[str, Annotated[str, msgspec.Meta(max_length=500)]]


__all__ = ["Count", "Number", "VariantGameShape", "shaped"]
