"""Every public class, function, method and property of the game-rule modules has a docstring."""

from __future__ import annotations

import importlib
import inspect

import pytest

MODULES = ["board", "players", "scoring", "wom", "solo", "codes", "users", "records", "table", "live", "pglive"]


def public_things(module):
    for name, obj in vars(module).items():
        if name.startswith("_") or getattr(obj, "__module__", None) != module.__name__:
            continue
        if inspect.isfunction(obj):
            yield name, obj
        elif inspect.isclass(obj):
            yield name, obj
            for attr, value in vars(obj).items():
                if attr.startswith("_"):
                    continue
                target = value.fget if isinstance(value, property) else getattr(value, "__func__", value)
                if inspect.isfunction(target):
                    yield f"{name}.{attr}", target


@pytest.mark.parametrize("module_name", MODULES)
def test_public_things_have_docstrings(module_name):
    module = importlib.import_module(f"wom_tui.domain.{module_name}")
    assert module.__doc__
    missing = [name for name, obj in public_things(module) if not inspect.getdoc(obj)]
    assert missing == []
