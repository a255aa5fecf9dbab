"""Textual's global workarounds go in by one call, only on the Textual they were measured on."""

from __future__ import annotations

import logging
import subprocess
import sys

from textual import on
from textual.app import App, ComposeResult
from textual.css.model import RuleSet
from textual.message import Message
from textual.message_pump import MessagePump
from textual.widget import Widget
from textual._compositor import Compositor
from textual.dom import DOMNode
from textual.widgets import Button, OptionList

from wom_tui import patches
from wom_tui.patches import compositor, dispatch, option_list, styling
from wom_tui.patches.versions import MEASURED, textual_version


def test_the_installed_textual_is_the_measured_one():
    assert textual_version() in MEASURED, "a new Textual: measure the patches again and name it in MEASURED"
    assert patches.install(textual_version()) == (
        "option_list", "styling", "compositor", "callbacks", "dispatch", "rule_sets"
    )


def test_on_a_textual_not_measured_every_patch_is_skipped_with_a_warning(monkeypatch, caplog):
    monkeypatch.setattr(OptionList, "_move_page", option_list._original_move_page)
    monkeypatch.setattr(DOMNode, "update_node_styles", styling._original_update_node_styles)
    monkeypatch.setattr(Compositor, "_get_renders", compositor._original_get_renders)
    monkeypatch.setattr(MessagePump, "_get_dispatch_methods", dispatch._original_get_dispatch_methods)
    rule_hash = RuleSet.__dict__["__hash__"]
    monkeypatch.setattr(RuleSet, "__hash__", lambda self: id(self))
    with caplog.at_level(logging.WARNING, logger="wom_tui.patches"):
        assert patches.install("99.0.0") == ()
    assert OptionList._move_page is option_list._original_move_page
    assert DOMNode.update_node_styles is styling._original_update_node_styles
    assert Compositor._get_renders is compositor._original_get_renders
    assert MessagePump._get_dispatch_methods is dispatch._original_get_dispatch_methods
    assert RuleSet.__dict__["__hash__"] is not rule_hash
    skipped = [record.getMessage() for record in caplog.records]
    assert len(skipped) == 6
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


class Pressed(Message):
    """A message two classes of a hierarchy handle, by name and by ``@on``."""

    def __init__(self, sender: Widget | None) -> None:
        super().__init__()
        self.sender = sender

    @property
    def control(self) -> Widget | None:
        return self.sender


class Base(Widget):
    def __init__(self, heard: list[str], **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.heard = heard

    def on_pressed(self, message: Pressed) -> None:
        self.heard.append("Base.on_pressed")

    @on(Pressed, "#left")
    def left_only(self, message: Pressed) -> None:
        self.heard.append("Base.left_only")


class Middle(Base):
    @on(Pressed)
    def any_press(self, message: Pressed) -> None:
        self.heard.append("Middle.any_press")


class Top(Middle):
    def on_pressed(self, message: Pressed) -> None:
        self.heard.append("Top.on_pressed")
        if self.id == "left":
            message.prevent_default()  # the classes below Top hear nothing more


async def test_handlers_are_found_and_called_as_textual_finds_them(make_app):
    """The handlers found once per class: a name handler and ``@on`` handlers in each class, a selector
    matched against the message's widget, ``prevent_default`` stopping the classes after it; and for
    every message of a game's start, the same handlers in the same order as Textual's own walk."""
    heard: list[str] = []

    class Host(App[None]):
        def compose(self) -> ComposeResult:
            yield Top(heard, id="left")
            yield Top(heard, id="right")
            yield Button("ok")

    async with Host().run_test(size=(80, 24)) as pilot:
        left, right = pilot.app.query_one("#left", Top), pilot.app.query_one("#right", Top)
        for widget in (left, right):
            await widget._on_message(Pressed(widget))
        assert heard == [
            "Top.on_pressed",
            "Top.on_pressed", "Middle.any_press", "Base.on_pressed",
        ]

    differ: list[str] = []
    walk = dispatch._get_dispatch_methods

    def both(self: MessagePump, method_name: str, message: Message):  # type: ignore[no-untyped-def]
        textuals = [(cls, method.__func__) for cls, method in
                    dispatch._original_get_dispatch_methods(self, method_name, message)]
        ours = [(cls, method.__func__) for cls, method in walk(self, method_name, message)]
        if ours != textuals:
            differ.append(f"{type(self).__name__} {type(message).__name__}: {ours} != {textuals}")
        for cls, method in ours:
            yield cls, method.__get__(self, cls)

    MessagePump._get_dispatch_methods = both  # type: ignore[method-assign]
    try:
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("s", "enter", *"RGBY", "enter", "tab", "escape")
            await pilot.pause()
    finally:
        MessagePump._get_dispatch_methods = walk  # type: ignore[method-assign]
    assert not differ, differ[:3]
