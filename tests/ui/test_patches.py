"""Textual's global workarounds go in by one call, only on the Textual they were measured on."""

from __future__ import annotations

import logging
import subprocess
import sys

from textual._compositor import Compositor
from textual.dom import DOMNode
from textual.widgets import OptionList

from wom_tui import patches
from wom_tui.patches import compositor, option_list, styling
from wom_tui.patches.versions import MEASURED, textual_version


def test_the_installed_textual_is_the_measured_one():
    assert textual_version() in MEASURED, "a new Textual: measure the patches again and name it in MEASURED"
    assert patches.install(textual_version()) == ("option_list", "styling", "compositor", "callbacks")


def test_on_a_textual_not_measured_every_patch_is_skipped_with_a_warning(monkeypatch, caplog):
    monkeypatch.setattr(OptionList, "_move_page", option_list._original_move_page)
    monkeypatch.setattr(DOMNode, "update_node_styles", styling._original_update_node_styles)
    monkeypatch.setattr(Compositor, "_get_renders", compositor._original_get_renders)
    with caplog.at_level(logging.WARNING, logger="wom_tui.patches"):
        assert patches.install("99.0.0") == ()
    assert OptionList._move_page is option_list._original_move_page
    assert DOMNode.update_node_styles is styling._original_update_node_styles
    assert Compositor._get_renders is compositor._original_get_renders
    skipped = [record.getMessage() for record in caplog.records]
    assert len(skipped) == 4
    assert all("Textual 99.0.0" in message and "skipped" in message for message in skipped)


def test_the_driver_falls_back_to_textuals_own_on_a_textual_not_measured(make_app, monkeypatch, caplog):
    from textual.drivers.linux_driver import LinuxDriver

    from wom_tui.patches import driver

    app = make_app()
    assert app.get_driver_class() is driver.QuietDriver
    monkeypatch.setattr(driver, "MEASURED_ON", ("99.0.0",))
    with caplog.at_level(logging.WARNING, logger="wom_tui.patches"):
        assert app.get_driver_class() is LinuxDriver
    assert "patches.driver skipped" in caplog.text


def test_importing_the_app_patches_nothing():
    code = (
        "from textual.widgets import OptionList\n"
        "original = OptionList._move_page\n"
        "import wom_tui.app\n"
        "assert OptionList._move_page is original, 'importing the app patched Textual'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_drop_down_list_leaves_the_blur_to_textual_on_a_textual_not_measured(monkeypatch):
    from textual import events

    from wom_tui.patches import select

    monkeypatch.setattr(select, "MEASURED_ON", ("99.0.0",))
    blur = events.Blur()
    select.DropDownList()._on_blur(blur)
    assert not blur._no_default_action, "Textual's own blur handler must run"
