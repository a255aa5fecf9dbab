"""The shapes of the JSON the store keeps, checked by msgspec, and told in the words a person should read.

Each document, record or table says its fields, their types and their sizes as a :class:`msgspec.Struct`;
:func:`shaped` converts parsed JSON to it (nothing is coerced: ``1.0`` is not a whole number, ``true``
not a number, no field may be missing or unknown) and turns msgspec's error into the reason a person
reads: ``missing field 'seed'``, ``unexpected field 'colour'``, ``'recorded' must be true or false``,
``unknown phase 'paused'``. The game's own rules (valid names, codes that fit a ruleset, feedback that
matches its code) stay with each type. A pure library: no I/O.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from typing import Annotated, Any, TypeVar

import msgspec

Count = Annotated[int, msgspec.Meta(ge=0)]
"""A whole number of at least 0."""
Number = Annotated[float, msgspec.Meta(ge=-sys.float_info.max, le=sys.float_info.max)]
"""A finite number (a whole number is taken as one)."""

T = TypeVar("T")

_ERROR = re.compile(r"(?P<what>.*?)(?: - at `\$(?P<path>[^`]*)`)?")
_KINDS = {"int": "a whole number", "str": "a string", "bool": "true or false", "float": "a number",
          "array": "a list", "object": "an object"}


def shaped(data: Any, shape: type[T], messages: Mapping[str, str] | None = None, what: str = "it") -> T:
    """``data`` as ``shape``; ``ValueError`` with the reason a person should read if it is not one.

    ``messages`` words the reasons of a part of the shape: its path (``seats[].code``: the code of any
    seat) → the reason, where ``{n}`` is the number of the first item on the path (1 for ``[0]``) and
    ``{reason}`` the reason as :func:`shaped` words it. A path ending in ``[]`` words everything inside
    those items, and the empty path everything; the longest path that fits wins. ``what`` names the whole
    (``a table must be an object``).
    """
    try:
        return msgspec.convert(data, shape, strict=True)
    except msgspec.ValidationError as exc:
        raise ValueError(_reason(str(exc), messages or {}, what)) from None


def _reason(error: str, messages: Mapping[str, str], whole: str) -> str:
    match = _ERROR.fullmatch(error)
    said, path = (match["what"], match["path"] or "") if match else (error, "")
    field = re.findall(r"\.(\w+)", path)
    subject = (f"an item of {field[-1]!r}" if path.endswith("]") else repr(field[-1])) if field else whole
    quoted = said.split("`") + ["", ""]  # "Expected `int` >= 0": what was expected, then its bounds
    if said.startswith("Object missing required field"):
        reason = f"missing field {quoted[1]!r}"
    elif said.startswith("Object contains unknown field"):
        reason = f"unexpected field {quoted[1]!r}"
    elif said.startswith("Invalid enum value"):
        reason = f"unknown {field[-1] if field else 'value'} {said.removeprefix('Invalid enum value ')}"
    else:
        expected = " or ".join(_KINDS[kind] for kind in re.findall(r"\w+", quoted[1]) if kind in _KINDS)
        bound = "" if quoted[2].startswith(",") or "e+308" in quoted[2] else quoted[2]  # " of length 3, got 2"
        reason = f"{subject} must be {expected or 'something else'}{bound}"
    general, numbers = re.sub(r"\[(\d+|\.\.\.)\]", "[]", path).lstrip("."), re.findall(r"\[(\d+)\]", path)
    for key in sorted(messages, key=len, reverse=True):
        if general == key or (key.endswith("[]") or not key) and general.startswith(key):
            return messages[key].format(n=int(numbers[0]) + 1 if numbers else "", reason=reason)
    return reason


__all__ = ["Count", "Number", "shaped"]
