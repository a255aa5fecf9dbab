"""Stylesheets parsed once: shared by every App of a process, and kept between local runs.

Textual keeps its parse cache in each App's own Stylesheet (and only 64 sources of it, fewer than a
game's stylesheets and widgets' default CSS: each new screen's widgets made it parse some again). Here
the parsed rules are shared by source and CSS variables (theme) for the whole process: the SSH server's
warm parent fills them once for every game it forks, the tests once per process. A local ``wom-tui``
also keeps the rules it used in the user's cache folder (a pickle for this Textual version, about
100 KB) and reads them back at its next start: parsing the stylesheets was a tenth of a cold start's
CPU time, reading them back a fifth of that. Textual treats parsed rules as read-only (its own cache
hands the same ones out again), so sharing them is safe.
"""

from __future__ import annotations

import gc
import hashlib
import os
import pickle
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .versions import MEASURED, measured, textual_version

if TYPE_CHECKING:
    from textual.css.stylesheet import Stylesheet

MEASURED_ON = MEASURED
"""The Textual releases whose ``Stylesheet._parse_rules`` this shares (on others every App parses its own)."""

_rules: dict[tuple[object, ...], Any] = {}
"""Parsed rules by (source digest, where read from, default CSS, tie breaker, scope, theme digest)."""
_used: set[tuple[object, ...]] = set()
"""Keys looked up or added since the process started (what a save keeps)."""
_adding = True
"""False in a game forked by the warm parent: the shared rules stay as the parent left them (and shared)."""
_changed = False
"""Rules were added that the file on disk does not have."""
_installed = False
_parse_rules_of_textual: Any = None
"""Textual's own ``Stylesheet._parse_rules`` (what a source not shared yet is parsed with)."""
_saving = threading.Lock()
MAX_KEPT = 1000
"""Sources (per theme) a saved cache keeps at most (a run uses about 150 per theme)."""


_digests: dict[str, bytes] = {}


def _digest(text: str) -> bytes:
    """A digest of ``text`` (each source's computed once: the same strings are parsed again and again)."""
    digest = _digests.get(text)
    if digest is None:
        digest = _digests[text] = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
    return digest


def _theme_of(stylesheet: Stylesheet) -> bytes:
    """A digest of the stylesheet's CSS variables (computed once per set of variables)."""
    variables = stylesheet._variables
    known = getattr(stylesheet, "_wom_theme", None)
    if known is None or known[0] is not variables:
        known = (variables, _digest(repr(sorted(variables.items()))))
        stylesheet._wom_theme = known  # type: ignore[attr-defined]
    return known[1]


def share() -> None:
    """Serve every Stylesheet's ``_parse_rules`` from the shared rules (idempotent)."""
    global _installed
    if _installed:
        return
    _installed = True
    if not measured("patches.parsed_css", MEASURED_ON):
        return
    from textual.css.stylesheet import Stylesheet

    global _parse_rules_of_textual
    _parse_rules_of_textual = Stylesheet._parse_rules

    def _parse_rules(
        self: Stylesheet, css: str, read_from: Any, is_default_rules: bool = False, tie_breaker: int = 0,
        scope: str = "",
    ) -> Any:
        global _changed
        key = (_digest(css), read_from, is_default_rules, tie_breaker, scope, _theme_of(self))
        rules = _rules.get(key)
        if rules is None:
            rules = _parse_rules_of_textual(self, css, read_from, is_default_rules, tie_breaker, scope)
            if _adding and not any(rule.errors for rule in rules):
                _rules[key] = rules
                _changed = True
        if _adding:
            _used.add(key)
        return rules

    Stylesheet._parse_rules = _parse_rules  # type: ignore[method-assign]


def stop_adding() -> None:
    """In a forked game: read the shared rules, never add to them (their pages stay shared)."""
    global _adding
    _adding = False


def cache_file(folder: Path) -> Path:
    """The file in ``folder`` for this Textual and this Python."""
    return folder / f"parsed-css-textual-{textual_version()}-py{sys.version_info[0]}.{sys.version_info[1]}.pickle"


def load(path: Path) -> None:
    """Share the rules saved in ``path`` (nothing if it is missing, unreadable or from elsewhere)."""
    global _changed
    share()
    collecting = gc.isenabled()
    gc.disable()  # thousands of new objects: the collector would walk all of the app's modules again and again
    try:
        with open(path, "rb") as file:
            saved = pickle.load(file)  # the user's own cache folder, written by save()
    except Exception:  # noqa: BLE001  (a cache: whatever is wrong with it, parse as if it were not there)
        return
    finally:
        if collecting:
            gc.enable()
    if isinstance(saved, dict):
        for key, rules in saved.items():
            _rules.setdefault(key, rules)
        _changed = False


def changed() -> bool:
    """True if rules were parsed that the cache file does not have yet."""
    return _changed


def save(path: Path) -> None:
    """Write the shared rules to ``path``, if some were parsed that it did not have (errors ignored); if
    there are more than :data:`MAX_KEPT` sources (old themes, old versions of the stylesheets), only
    those used in this run.
    """
    with _saving:
        if _changed:
            _save(path)


def _save(path: Path) -> None:
    global _changed
    _changed = False  # (rules the app adds while this writes mark it changed again)
    kept = dict(_rules) if len(_rules) <= MAX_KEPT else {key: _rules[key] for key in list(_used) if key in _rules}
    partial = path.with_name(f"{path.name}.tmp")  # one name: a write cut short leaves one file, not one per run
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(partial, "wb") as file:
            pickle.dump(kept, file, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(partial, path)
    except Exception:  # noqa: BLE001  (a cache that cannot be written is only a slower next start)
        _changed = True
        try:
            partial.unlink(missing_ok=True)
        except Exception:  # noqa: BLE001
            pass
