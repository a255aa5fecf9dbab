"""A compact drop-down choice that looks and works like a compact Textual Select, built for less.

Textual's Select is six widgets (a row of three Statics in a Horizontal, and the option list of
its pop-up, which is built, styled and filled even if it is never opened): on My stats its two
Selects were a fifth of the cost of opening the screen (``bench/stats.py``). A :class:`Choice`
is two widgets: its row, drawn as one line of text, and the pop-up list, made the first time it
is opened (Textual's own ``SelectOverlay``, so the list behaves exactly as a Select's does).

What a player can do is the same as with a compact Select: Enter, Space, ↓ or ↑ (or a click)
opens the list; ↑/↓, Home/End, PgUp/PgDn and typing part of an entry move in it; Enter or a
click chooses; Esc (or moving the focus away) closes it without choosing.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import Any, Generic, TypeVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import var
from textual.widget import Widget
from textual.content import Content
from textual.widgets import Checkbox, RadioButton
from textual.widgets._option_list import Option
from textual.widgets._select import SelectOverlay

from ..patches.select import DropDownList

T = TypeVar("T", bound=Hashable)

Prompt = str | Text
"""What an entry shows (a str is shown as it is, never read as markup)."""


class ChoiceRow(Widget):
    """The closed row of a :class:`Choice`: the chosen entry (or the dimmed prompt) and an arrow."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"choice-row--arrow", "choice-row--prompt"}
    DEFAULT_CSS = """
    ChoiceRow {
        width: 1fr;
        height: 1;
        padding: 0 1 0 0;
        color: $foreground;
        background: $surface;
        pointer: pointer;
        & > .choice-row--arrow {
            color: $foreground 50%;
        }
        & > .choice-row--prompt {
            color: $foreground 50%;
        }
    }
    """

    class Toggle(Message):
        """The row was clicked: open or close the list."""

    def __init__(self, label: Text | None, prompt: str) -> None:
        super().__init__()
        self.label = label
        self.prompt = prompt
        self.expanded = False

    def render(self) -> Text:
        arrow = "▲" if self.expanded else "▼"
        width = max(0, self.size.width - 2)
        if self.label is None:
            text = Text(self.prompt, style=self.get_component_rich_style("choice-row--prompt"), end="")
        else:
            text = self.label.copy()
            text.end = ""
        text.truncate(width, pad=True)
        text.append(" ")
        text.append(arrow, style=self.get_component_rich_style("choice-row--arrow"))
        return text

    async def _on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Toggle())


class Choice(Generic[T], Vertical, can_focus=True):
    """One value out of ``options`` (``(prompt, value)`` pairs), shown compact like ``Select(compact=True)``.

    ``value`` is the chosen value (None only while there are no options, or with ``allow_blank``
    while nothing is chosen); setting it to one of the options' values shows that entry and posts
    :class:`Choice.Changed`, as a person's choice does. With nothing chosen the row shows ``prompt``
    dimmed; with ``allow_blank`` the list offers ``prompt`` first, to choose nothing (as a Select's
    blank entry does).
    """

    BINDINGS = [Binding("enter,down,space,up", "show_overlay", "Show menu", show=False)]
    ALLOW_SELECT = False
    DEFAULT_CSS = """
    Choice {
        height: auto;
        color: $foreground;
        &:focus > ChoiceRow {
            background-tint: $foreground 5%;
        }
        & > SelectOverlay {
            width: 1fr;
            display: none;
            height: auto;
            max-height: 12;
            overlay: screen;
            constrain: none inside;
            color: $foreground;
            border: tall $border-blurred;
            background: $surface;
            &:focus {
                background-tint: $foreground 5%;
            }
            & > .option-list--option {
                padding: 0 1;
            }
        }
        &.-expanded > SelectOverlay {
            display: block;
        }
    }
    """

    expanded: var[bool] = var(False, init=False)
    """True while the list is open."""

    class Changed(Message):
        """The value changed (by a person or by code)."""

        def __init__(self, choice: Choice[Any], value: Any) -> None:
            super().__init__()
            self.choice = choice
            self.value = value

        @property
        def control(self) -> Choice[Any]:
            """The Choice that changed."""
            return self.choice

    def __init__(
        self,
        options: Iterable[tuple[Prompt, T]] = (),
        *,
        value: T | None = None,
        prompt: str = "",
        allow_blank: bool = False,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.prompt = prompt
        self.allow_blank = allow_blank
        self._options: list[tuple[Text, T | None]] = []
        self._value: T | None = None
        self._set_options(options)
        if value is not None:
            self._check(value)
            self._value = value
        self._row = ChoiceRow(self._label(), prompt)
        self._overlay: SelectOverlay | None = None

    # -- the options and the value ------------------------------------------------------------

    @property
    def options(self) -> Sequence[tuple[Text, T | None]]:
        """The entries, in order: ``(prompt, value)`` (with ``allow_blank``, first ``(prompt, None)``)."""
        return tuple(self._options)

    @property
    def value(self) -> T | None:
        """The chosen value (None while there are no options, or nothing is chosen)."""
        return self._value

    @value.setter
    def value(self, value: T | None) -> None:
        self._check(value)
        if value == self._value:
            return
        self._value = value
        self._shown_changed()
        self.post_message(self.Changed(self, value))

    def set_options(self, options: Iterable[tuple[Prompt, T]]) -> None:
        """Replace the entries; the first is chosen (as a Select without a blank entry does)."""
        before = self._value
        self._set_options(options)
        if self._overlay is not None:
            self._fill(self._overlay)
        self._shown_changed()
        if self._value != before:
            self.post_message(self.Changed(self, self._value))

    def clear(self) -> None:
        """Choose nothing (``allow_blank`` only): the row shows the prompt."""
        self.value = None

    def _set_options(self, options: Iterable[tuple[Prompt, T]]) -> None:
        blank: list[tuple[Text, T | None]] = [(Text(self.prompt, style="dim"), None)] if self.allow_blank else []
        self._options = blank + [
            (Text(prompt) if isinstance(prompt, str) else prompt, value) for prompt, value in options
        ]
        self._value = self._options[0][1] if self._options else None

    def _check(self, value: T | None) -> None:
        if all(value != known for _, known in self._options):
            raise ValueError(f"{value!r} is not one of the choices")

    def _index(self) -> int | None:
        return next((i for i, (_, known) in enumerate(self._options) if known == self._value), None)

    def _label(self) -> Text | None:
        index = self._index()
        return None if index is None or self._value is None else self._options[index][0]

    def _shown_changed(self) -> None:
        self._row.label = self._label()
        self._row.refresh()
        if self._overlay is not None:
            self._overlay.highlighted = self._index()

    # -- the widgets ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield self._row

    def _fill(self, overlay: SelectOverlay) -> None:
        overlay.clear_options()
        overlay.add_options([Option(prompt) for prompt, _ in self._options])
        overlay.highlighted = self._index()

    async def action_show_overlay(self) -> None:
        """Open the list on the chosen entry (made the first time)."""
        if not self._options:
            return
        if self._overlay is None:
            self._overlay = DropDownList()
            self._overlay.compact = True  # as a compact Select's list: no border
            await self.mount(self._overlay)
            self._fill(self._overlay)
        self.expanded = True

    def _watch_expanded(self, expanded: bool) -> None:
        self.set_class(expanded, "-expanded")
        self._row.expanded = expanded
        self._row.refresh()
        if expanded and self._overlay is not None:
            self._overlay.focus(scroll_visible=False)
            self._overlay.select(self._index())

    @on(ChoiceRow.Toggle)
    async def _toggle(self, event: ChoiceRow.Toggle) -> None:
        event.stop()
        if self.expanded:
            self.expanded = False
        else:
            await self.action_show_overlay()

    @on(SelectOverlay.Dismiss)
    def _dismiss(self, event: SelectOverlay.Dismiss) -> None:
        event.stop()
        self.expanded = False
        if not event.lost_focus:
            self.focus()

    @on(SelectOverlay.UpdateSelection)
    def _chosen(self, event: SelectOverlay.UpdateSelection) -> None:
        event.stop()
        self.value = self._options[event.option_index][1]
        self.focus()
        self.expanded = False


class Radio(RadioButton):
    """A radio button whose on and off differ in shape (● and ○), not only in colour.

    Textual draws the same ● either way and tells them apart by colour alone: under ``NO_COLOR``
    (or to a player who cannot tell the two colours apart) every option looked chosen.
    """

    @property
    def _button(self) -> Content:
        self.BUTTON_INNER = RADIO_ON if self.value else RADIO_OFF
        return super()._button


class Tick(Checkbox):
    """A checkbox whose box is empty when off (Textual's shows the same X, only dimmer)."""

    @property
    def _button(self) -> Content:
        self.BUTTON_INNER = "X" if self.value else " "
        return super()._button


RADIO_ON = "●"
"""A chosen radio button."""
RADIO_OFF = "○"
"""A radio button not chosen."""
