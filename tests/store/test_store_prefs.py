"""Per-identity preferences (the theme) in preferences.json."""

from __future__ import annotations

import pytest

from wom_tui.domain.store import StoreError
from wom_tui.domain.store.folder.files import PREFS_FILE
from wom_tui.domain.store.folder.store import FolderStore as Store


def test_themes_are_kept_per_identity_and_survive_a_new_store(store_factory):
    store = store_factory()
    assert store.theme("local") is None
    store.set_theme("local", "nord")
    store.set_theme("SHA256:k1", "wom-colourblind")
    store.set_theme("local", "gruvbox")
    store.set_theme("local", "nord")
    again = store_factory()
    assert again.theme("local") == "nord"
    assert again.theme("SHA256:k1") == "wom-colourblind"
    again.check()


@pytest.mark.parametrize("identity", ["", "x" * 201, "tab\there", "Zoë"])
def test_a_bad_identity_is_refused(tmp_path, identity):
    with pytest.raises(ValueError):
        Store(tmp_path).set_theme(identity, "nord")
    assert not (tmp_path / PREFS_FILE).exists()


@pytest.mark.parametrize("theme", ["", "[b]x", "a b", "\x1b[31m"])
def test_a_bad_theme_name_is_refused(tmp_path, theme):
    with pytest.raises(ValueError):
        Store(tmp_path).set_theme("local", theme)


def test_a_damaged_preferences_file_is_reported_and_kept(tmp_path):
    store = Store(tmp_path)
    (tmp_path / PREFS_FILE).write_text('{"schema": 1, "themes": []}')
    with pytest.raises(StoreError, match="preferences.json: 'themes' must be an object"):
        store.check()
    with pytest.raises(StoreError):
        store.set_theme("local", "nord")
    assert (tmp_path / PREFS_FILE).read_text() == '{"schema": 1, "themes": []}'
