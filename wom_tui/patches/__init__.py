"""Every workaround for Textual in one place: each module says what it works around, names the Textual
releases it was measured on (``MEASURED_ON``) and, where there is one, the bare reproduction in
``bench/`` meant for upstream.

Two kinds:

- Global patches replace a method of a Textual class for the whole process. :func:`install` puts them
  in, once, before the app runs (``run_app``, the serve warm parent, the tests' conftest); on a Textual
  they were not measured on each is skipped with a logged warning. Importing the app installs nothing.
- Subclasses the app uses in Textual's place (:mod:`.footer`, :mod:`.screens`, :mod:`.key_queue`,
  :mod:`.palette`, :mod:`.select`, :mod:`.driver`, :mod:`.cursor`) and helpers (:mod:`.state_classes`,
  :mod:`.parsed_css`): they touch nothing global; the driver falls back to Textual's own, and the shared
  stylesheet cache stays off, on a Textual they were not measured on.
"""

from __future__ import annotations

from .versions import measured


_installed: tuple[str, ...] | None = None
"""What :func:`install` installed for the installed Textual (a game forked by the serve warm parent finds
them in already, and writes nothing to the classes it shares with the parent)."""


def install(running: str | None = None) -> tuple[str, ...]:
    """Install every global patch measured on the ``running`` Textual (default: the installed one); give
    the names of those installed. Call before the first widget is built.
    """
    global _installed
    if running is None and _installed is not None:
        return _installed
    from . import callbacks, compositor, dispatch, option_list, rule_sets, styling

    installed = []
    # In this order (each ``install`` is idempotent): the list guard and the styling one before any
    # widget is built.
    for name, patch in (("option_list", option_list), ("styling", styling), ("compositor", compositor),
                        ("callbacks", callbacks), ("dispatch", dispatch), ("rule_sets", rule_sets)):
        if measured(f"patches.{name}", patch.MEASURED_ON, running):
            patch.install()
            installed.append(name)
    if running is None:
        _installed = tuple(installed)
    return tuple(installed)
