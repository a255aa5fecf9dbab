"""A workaround for work Textual 8.2 does each time it styles a widget: hashing every rule in Python.

``Stylesheet.apply`` picks the rules that may match a widget by keeping, from the whole stylesheet
(about 450 rule sets in a game: its stylesheets and every widget's default CSS), those in a set of
candidates, and ``RuleSet.__hash__`` is a Python method (``return id(self)``): about 450 Python calls
for every widget styled, a thirtieth of a screen test's CPU time. ``object.__hash__`` is the same
identity hash without a Python call; a set lookup compares the objects themselves first, so which
rules match, and in which order, is unchanged (``bench/upstream/textual_dispatch.py`` measures both
this and :mod:`.dispatch`).
"""

from __future__ import annotations

from textual.css.model import RuleSet

from .versions import MEASURED

MEASURED_ON = MEASURED
"""The Textual releases this patch was measured on (:func:`wom_tui.patches.install` skips it on others)."""


def install() -> None:
    """Hash rule sets by identity in C, as Textual does in Python (idempotent)."""
    RuleSet.__hash__ = object.__hash__  # type: ignore[method-assign]
