"""The session's messages: every notice shown (a toast, an invitation, "your move", the operator's line)
kept in order, to read again as plain lines (F8, the Messages screen; docs/play.md, *Messages*).

A toast goes after a few seconds and a screen reader may never have reached it; here it stays for the
session. Only plain text is kept: a notice written with markup is kept as the words it showed.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterator
from typing import NamedTuple

HISTORY_LENGTH = 200
"""Messages kept per session (the oldest go first)."""


class Said(NamedTuple):
    """One message: when (seconds since the epoch), what kind (information, warning, error, broadcast),
    its title (may be empty) and its words.
    """

    at: float
    kind: str
    title: str
    text: str

    def line(self) -> str:
        """The message as one plain line: ``12:04 Your move: Set your code …``."""
        clock = time.strftime("%H:%M", time.localtime(self.at))
        words = " ".join(self.text.split())
        title = " ".join(self.title.split())
        warning = {"warning": "Warning: ", "error": "Error: "}.get(self.kind, "")
        return f"{clock} {warning}{title}: {words}" if title else f"{clock} {warning}{words}"


class MessageHistory:
    """The messages of one session, oldest first (at most :data:`HISTORY_LENGTH`)."""

    def __init__(self, length: int = HISTORY_LENGTH) -> None:
        self._said: deque[Said] = deque(maxlen=length)
        self.count = 0
        """Messages kept since the session began (also those gone from a full history)."""

    def add(self, text: str, *, title: str = "", kind: str = "information", at: float | None = None) -> Said:
        """Keep one message (plain text)."""
        said = Said(time.time() if at is None else at, kind, title, text)
        self._said.append(said)
        self.count += 1
        return said

    def __iter__(self) -> Iterator[Said]:
        return iter(self._said)

    def __len__(self) -> int:
        return len(self._said)

    def lines(self) -> list[str]:
        """Every message kept, one plain line each, oldest first."""
        return [said.line() for said in self._said]


__all__ = ["HISTORY_LENGTH", "MessageHistory", "Said"]
