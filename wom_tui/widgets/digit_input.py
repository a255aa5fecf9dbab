"""A one-digit box for scoring a guess by hand (black, white)."""

from __future__ import annotations

from textual import events
from textual.message import Message

from .line_input import LineInput


class DigitInput(LineInput):
    """A one-digit box: a typed digit replaces what is there, then :class:`Typed` lets the screen move on."""

    class Typed(Message):
        """A digit was typed."""

        def __init__(self, digit_input: DigitInput) -> None:
            super().__init__()
            self.digit_input = digit_input

    def __init__(self, *, id: str) -> None:
        super().__init__(restrict=r"[0-9]*", max_length=1, id=id, compact=True)

    async def _on_key(self, event: events.Key) -> None:
        character = event.character
        if character is not None and len(character) == 1 and character.isdigit():
            event.stop()
            event.prevent_default()
            self.value = character
            self.cursor_position = 1
            self.post_message(self.Typed(self))
            return
        await super()._on_key(event)
