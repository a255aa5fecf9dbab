"""Per-identity preferences (the theme, and the choices remembered on each setup form), on both backends."""

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


# ---- remembered choices per form (the setups open with the identity's last choices)


def test_choices_are_kept_per_identity_and_form_and_survive_a_new_store(store_factory):
    store = store_factory()
    assert store.choices("local", "solo") == {}
    store.set_theme("local", "nord")
    store.set_choices("local", "solo", {"length": 5, "palette": "digits8", "repeats": False, "coach": True})
    store.set_choices("local", "wom", {"palette": "wom"})
    store.set_choices("user:alan", "solo", {"length": None})
    store.set_choices("local", "solo", {"length": 6, "palette": "digits8", "repeats": False, "coach": True})
    again = store_factory()
    assert again.choices("local", "solo") == {"length": 6, "palette": "digits8", "repeats": False, "coach": True}
    assert again.choices("local", "wom") == {"palette": "wom"}
    assert again.choices("user:alan", "solo") == {"length": None}
    assert again.choices("user:alan", "wom") == {}
    assert again.theme("local") == "nord"  # the theme beside them is untouched
    again.set_theme("local", "gruvbox")  # and setting the theme keeps the choices
    assert again.choices("local", "solo")["length"] == 6
    assert again.all_choices() == {"local": {"solo": again.choices("local", "solo"), "wom": {"palette": "wom"}},
                                   "user:alan": {"solo": {"length": None}}}
    assert again.totals()["remembered choices"] == 3
    again.check()


@pytest.mark.parametrize("form, values", [
    ("Solo", {"a": 1}), ("", {}), ("solo", {"A": 1}), ("solo", {"a": [1]}), ("solo", {"a": {"b": 1}}),
    ("solo", {"a": 1.5}), ("solo", {"a": "x" * 65}), ("solo", {f"k{n}": n for n in range(25)}), ("solo", [1]),
])
def test_choices_that_are_not_choices_are_refused_and_nothing_is_written(store_factory, form, values):
    store = store_factory()
    store.set_choices("local", "solo", {"length": 4})
    with pytest.raises(ValueError):
        store.set_choices("local", form, values)
    assert store_factory().all_choices() == {"local": {"solo": {"length": 4}}}


def test_damaged_choices_in_preferences_json_read_as_none_and_keep_the_theme(tmp_path):
    (tmp_path / PREFS_FILE).write_text(
        '{"schema": 1, "themes": {"local": "nord"}, "choices": {"local": {"solo": {"length": [4]}, '
        '"wom": {"palette": "wom"}, "BAD FORM": {}}, "key:x": 7}}')
    store = Store(tmp_path)
    store.check()
    assert store.theme("local") == "nord"
    assert store.choices("local", "solo") == {}
    assert store.choices("local", "wom") == {"palette": "wom"}
    store.set_choices("local", "solo", {"length": 5})  # the damaged entry is replaced, the rest kept
    assert Store(tmp_path).all_choices() == {"local": {"solo": {"length": 5}, "wom": {"palette": "wom"}}}
    assert Store(tmp_path).theme("local") == "nord"


def test_a_preferences_json_of_an_older_version_reads_without_choices(tmp_path):
    (tmp_path / PREFS_FILE).write_text('{"schema": 1, "themes": {"local": "nord"}}')
    store = Store(tmp_path)
    assert store.choices("local", "solo") == {}
    store.set_theme("local", "gruvbox")
    assert "choices" not in (tmp_path / PREFS_FILE).read_text()  # an older wom-tui can still read it


def test_a_damaged_choices_row_reads_as_none(postgres_server):
    from wom_tui.domain.store import open_store

    url = postgres_server.new_database()
    store = open_store(url)
    try:
        store.set_choices("local", "solo", {"length": 5})
        store.set_choices("local", "wom", {"palette": "wom"})
        store._transaction(lambda conn, _: conn.execute(
            "UPDATE wom_choices SET choices = '{\"length\": [5]}' WHERE form = 'solo'"))
        assert store.choices("local", "solo") == {}
        assert store.all_choices() == {"local": {"wom": {"palette": "wom"}}}
        store.check()
    finally:
        store.close()
