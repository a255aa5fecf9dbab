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


def test_the_drop_down_list_drops_every_click_as_textual_does_on_a_textual_not_measured(make_app, monkeypatch):
    from wom_tui.patches import select

    app = make_app()
    monkeypatch.setattr(select.DropDownList, "app", property(lambda _self: app))
    listing = select.DropDownList()  # not mounted: no drop-down of its own
    app._mouse_down_widget = object()  # a press on another widget
    listing.suppress_click()
    assert app._mouse_down_widget is not None, "measured: a click elsewhere goes through"
    monkeypatch.setattr(select, "MEASURED_ON", ("99.0.0",))
    listing.suppress_click()
    assert app._mouse_down_widget is None, "not measured: Textual's own suppress_click drops it"
