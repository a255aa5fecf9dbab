"""Names a package imports on first use (PEP 562): the package's ``__getattr__`` and ``__dir__``.

A package lists where each public name lives and gets both functions from :func:`lazy_names`, so that a
screen importing one module of the domain or the widgets does not pay for all of them at start-up.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_names(
    package: str, namespace: dict[str, Any], sources: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package`` (whose globals are ``namespace``): a name in
    ``sources`` is imported from ``package.<module>`` the first time it is asked for, then kept.
    """

    def __getattr__(name: str) -> Any:
        """Import ``name`` from its module the first time it is asked for."""
        try:
            module = sources[name]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        value = getattr(importlib.import_module(f".{module}", package), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        """Every public name, imported or not yet."""
        return sorted([*namespace, *sources])

    return __getattr__, __dir__
