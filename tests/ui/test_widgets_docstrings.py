"""Every public class and function of the shell and shared widgets says what it is (house rules)."""

from __future__ import annotations

import ast
from pathlib import Path

import wom_tui

PACKAGE = Path(wom_tui.__file__).parent
SHELL_FILES = [
    PACKAGE / "app.py",
    PACKAGE / "paths.py",
    *sorted((PACKAGE / "widgets").glob("*.py")),
    *(PACKAGE / "screens" / f"{name}.py" for name in ("base", "confirm", "errors", "help", "menu", "register", "scoreboard")),
]
# Textual calls these by name; what they do is said by the class docstring.
HANDLER_PREFIXES = ("on_", "_on_", "watch_", "validate_", "compose", "check_action", "get_default_screen", "restricted")


def missing(path: Path) -> list[str]:
    """Public classes, functions and methods in ``path`` without a docstring."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    gaps = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
            if ast.get_docstring(node) is None:
                gaps.append(f"{path.name}:{node.name}")
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if (
                        isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
                        and not item.name.startswith("_")
                        and not item.name.startswith(HANDLER_PREFIXES)
                        and ast.get_docstring(item) is None
                        and not any(isinstance(d, ast.Attribute) and d.attr == "setter" for d in item.decorator_list)
                    ):
                        gaps.append(f"{path.name}:{node.name}.{item.name}")
    return gaps


def test_shell_and_widgets_have_docstrings():
    gaps = [gap for path in SHELL_FILES for gap in missing(path)]
    assert gaps == []
