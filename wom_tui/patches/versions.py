"""Which Textual is running, and whether a patch was measured on it."""

from __future__ import annotations

import functools
import logging

log = logging.getLogger("wom_tui.patches")

MEASURED = ("8.2.8",)
"""The Textual releases every patch in this package was measured on (a patch names its own if it differs)."""


@functools.cache
def textual_version() -> str:
    """The running Textual's version (read once: Textual looks it up in the package metadata)."""
    import textual

    return str(textual.__version__)


def measured(patch: str, versions: tuple[str, ...], running: str | None = None) -> bool:
    """True if ``running`` (default: the installed Textual) is one of ``versions``; else log that ``patch``
    is skipped and give False: the internals it replaces may have changed, so it is measured again first.
    """
    running = running if running is not None else textual_version()
    if running in versions:
        return True
    log.warning(
        "Textual %s: %s skipped (measured on Textual %s only; see docs/develop.md on patches)",
        running, patch, ", ".join(versions),
    )
    return False
