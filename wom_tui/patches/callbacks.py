"""A workaround for work Textual 8.2 does at every ``call_later``: counting the callback's parameters.

Textual counts a callback's parameters (``inspect.signature``, tens of microseconds) before calling it,
and remembers the count on the callable. But ``call_later(callback, *args)`` wraps the callback in a
new ``functools.partial`` each time, and for a partial the count of the function inside was never
remembered: every ``call_later`` paid for a signature. A key's way through the widgets takes a dozen of
them; in a live game of 24 sessions on 2 cores that was a twentieth of all the CPU (docs/perf/). Here a
partial's count comes from the count of its function, remembered as Textual remembers any other.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import textual._callback as _callback

from .versions import MEASURED

MEASURED_ON = MEASURED
"""The Textual releases this patch was measured on (:func:`wom_tui.patches.install` skips it on others)."""

_original_count_parameters = _callback.count_parameters


def count_parameters(func: Callable[..., Any]) -> int:
    """Textual's ``count_parameters``, remembering the count of a partial's function."""
    if isinstance(func, partial):
        try:
            return func._param_count  # type: ignore[attr-defined]
        except AttributeError:
            pass
        try:
            inner = count_parameters(func.func)
        except (AttributeError, TypeError):
            inner = _callback._count_parameters(func.func)  # a builtin's bound method: Textual's way
        count = inner - (len(func.args) + len(func.keywords))
        try:
            func._param_count = count  # type: ignore[attr-defined]
        except (AttributeError, TypeError):
            pass
        return count
    return _original_count_parameters(func)


def install() -> None:
    """Use the remembering ``count_parameters`` for every callback Textual invokes (idempotent)."""
    _callback.count_parameters = count_parameters
