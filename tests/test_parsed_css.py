"""The stylesheets a local run parsed are read back at the next start: the same rules, and a damaged or
foreign cache file is ignored (the app then parses as before)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import App
from textual.css.stylesheet import Stylesheet

from wom_tui.patches import parsed_css
from wom_tui.paths import stylesheets


@pytest.fixture
def fresh_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """An empty shared cache for this test (the tests' process shares one: see conftest)."""
    parsed_css.share()
    monkeypatch.setattr(parsed_css, "_rules", {})
    monkeypatch.setattr(parsed_css, "_used", set())
    monkeypatch.setattr(parsed_css, "_changed", False)


def app_rules(theme: str = "textual-dark") -> list[str]:
    """Every rule of the app's stylesheets, as CSS text, for ``theme``'s variables."""
    app = App()
    app.theme = theme
    sheet = Stylesheet(variables=app.get_css_variables())
    sheet.read_all(stylesheets())
    sheet.parse()
    return [rule.css for rule in sheet.rules]


def test_rules_read_back_are_the_rules_parsed(fresh_cache: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parsed = app_rules()
    path = parsed_css.cache_file(tmp_path)
    parsed_css.save(path)
    assert path.is_file()

    monkeypatch.setattr(parsed_css, "_rules", {})
    parsed_css.load(path)
    parses: list[str] = []
    original = parsed_css._parse_rules_of_textual
    monkeypatch.setattr(parsed_css, "_parse_rules_of_textual", lambda *args: parses.append(args[1]) or original(*args))
    assert app_rules() == parsed
    assert parses == [], "the read-back rules were parsed again"
    assert app_rules("textual-light") != parsed  # another theme is parsed anew, with its own colours
    assert parses


def test_a_damaged_cache_is_ignored(fresh_cache: None, tmp_path: Path) -> None:
    path = parsed_css.cache_file(tmp_path)
    path.write_bytes(b"not a pickle")
    parsed_css.load(path)
    assert app_rules() == [rule.css for rule in parse_without_cache()]  # type: ignore[attr-defined]


def parse_without_cache() -> list[object]:
    """The app's rules parsed by Textual alone."""
    app = App()
    app.theme = "textual-dark"
    sheet = Stylesheet(variables=app.get_css_variables())
    sheet.read_all(stylesheets())
    rules: list[object] = []
    for read_from, (css, is_defaults, tie_breaker, scope) in sheet.source.items():
        rules.extend(parsed_css._parse_rules_of_textual(sheet, css, read_from, is_defaults, tie_breaker, scope))
    return rules
