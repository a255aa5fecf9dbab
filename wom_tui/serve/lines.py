"""Line mode over SSH (``ssh -t -p 2222 host line``): the line engine as a task of the server, no game process.

A line session costs no fork and no Textual: its :class:`~..line.engine.LineSession` runs on the server's own event
loop and reaches the store through the server's one :class:`~..domain.store.remote.HubStore` (the hub, as
every game does; docs/serve.md, *Line mode*). This module is the SSH side: :class:`LineEditor` turns what
the client sends into whole lines (echoing them when the client's terminal is raw, ``ssh -t``, with only
backspaces and line ends: no cursor addressing), and :class:`LineFront` runs the engine for one channel,
bounded in what it keeps (a line of :data:`~..line.words.MAX_INPUT` characters, :data:`QUEUED` lines
waiting, :data:`OUTPUT_LIMIT` bytes the client has not read).

Whether an identity chose line mode is kept in its remembered choices (form ``line``), so that a plain
``ssh host`` asks it one question first (:data:`OFFER`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..domain.identity import Identity
from ..domain.store.api import StoreError
from ..line.words import LINE_FORM, MAX_INPUT, clean

if TYPE_CHECKING:
    from ..domain.store.api import Store
    from ..line.engine import LineSession
    from ..settings import Settings

log = logging.getLogger("wom_tui.serve")

QUEUED = 8
"""Lines typed ahead while the engine answers an earlier one; more are dropped (and the player told)."""
OUTPUT_LIMIT = 1 << 20
"""Bytes of output a client may leave unread before its session is ended (it is not reading)."""
OFFER = "You chose line mode last time. Press Enter for line mode, or f for the full screen."
"""The one question a plain ``ssh host`` asks an identity that chose line mode (answered by one key)."""
NOT_READING = "not reading its output"


class LineEditor:
    """What an SSH client sends, as whole lines: printable characters kept (at most ``limit``), backspace and
    Ctrl-U to correct, Enter to send; escape sequences (arrows, function keys) and other controls ignored.

    ``echo``: the client's terminal is raw (``ssh -t``), so what is kept is written back as it is typed.
    """

    def __init__(self, echo: bool, limit: int = MAX_INPUT) -> None:
        self.echo = echo
        self.limit = limit
        self.buffer: list[str] = []
        self.too_long = False
        self._escape = 0
        """0: ground; 1: after ESC; 2: in a CSI or SS3 sequence (until its final byte)."""
        self._after_cr = False

    def feed(self, text: str) -> tuple[list[str], str, bool]:
        """The lines completed, the echo to write back, and whether Ctrl-C or Ctrl-D (on an empty line) was typed."""
        lines: list[str] = []
        echo: list[str] = []
        stop = False
        for char in text:
            code = ord(char)
            if self._escape == 1:
                self._escape = 2 if char in "[O" else 0
                continue
            if self._escape == 2:
                if 0x40 <= code <= 0x7E:
                    self._escape = 0
                continue
            after_cr, self._after_cr = self._after_cr, char == "\r"
            if char == "\x1b":
                self._escape = 1
            elif char in "\r\n":
                if char == "\n" and after_cr:
                    continue
                line = "".join(self.buffer)
                lines.append(line + "…" * (self.limit + 1 - len(line)) if self.too_long else line)
                self.buffer.clear()
                self.too_long = False
                echo.append("\r\n")
            elif char in "\x7f\x08":
                if self.buffer:
                    self.buffer.pop()
                    echo.append("\b \b")
            elif char == "\x15":
                echo.append("\b \b" * len(self.buffer))
                self.buffer.clear()
                self.too_long = False
            elif char == "\x03" or (char == "\x04" and not self.buffer):
                stop = True
            elif code < 0x20 or 0x7F <= code < 0xA0:
                continue
            elif len(self.buffer) < self.limit:
                clean_char = clean(char)
                self.buffer.append(clean_char)
                echo.append(clean_char)
            else:
                self.too_long = True
        return lines, "".join(echo) if self.echo else "", stop

    @property
    def pending(self) -> str:
        """What is typed so far on the current line."""
        return "".join(self.buffer)


class LineFront:
    """One SSH channel's line mode: the editor, the engine, and what travels between them and the client."""

    def __init__(self, store: Store, settings: Settings, fingerprint: str | None, *, echo: bool,
                 send: Callable[[str], None], buffered: Callable[[], int], on_end: Callable[[str], None],
                 remember: bool) -> None:
        self.store = store
        self.settings = settings
        self.fingerprint = fingerprint
        self.editor = LineEditor(echo)
        self._send = send
        self._buffered = buffered
        self._on_end = on_end
        self._remember = remember
        self._queue: asyncio.Queue[str] = asyncio.Queue(QUEUED)
        self.session: LineSession | None = None
        self.name: str | None = None
        self._dropped = False

    async def run(self) -> None:
        """Sign in as the verified key's name, run the engine until the player quits, then close it."""
        from ..line.engine import LineSession  # (the engine and the rules it plays by: once a line session starts)

        identity = await identify(self.store, self.fingerprint)
        self.name = identity.name
        session = self.session = LineSession(self.store, self.settings, identity, self._write,
                                             rng=random.Random(self.settings.seed))
        if self._remember:
            await remember_line(self.store, identity, True)
        await session.start()
        try:
            while not session.ended.is_set():
                taker = asyncio.ensure_future(self._queue.get())
                ended = asyncio.ensure_future(session.ended.wait())
                await asyncio.wait({taker, ended}, return_when=asyncio.FIRST_COMPLETED)
                ended.cancel()
                if not taker.done():
                    taker.cancel()
                    break
                await session.feed(taker.result())
                self._dropped = False
        finally:
            await session.close()
            if self._remember and session.identity != identity:
                await remember_line(self.store, session.identity, True)  # registered: remembered for the name too

    def received(self, text: str) -> None:
        """What the client typed (throttled and decoded by the session)."""
        lines, echo, stop = self.editor.feed(text)
        if echo:
            self._send(echo)
        for line in lines:
            try:
                self._queue.put_nowait(line)
            except asyncio.QueueFull:
                if not self._dropped:
                    self._dropped = True
                    self._write(f"Too many lines at once: wait for the answers before typing more "
                                f"(at most {QUEUED} wait their turn).")
        if stop:
            if self.session is not None:
                self.session.say("Goodbye, thanks for playing World of Mastermind!")
                self.session.ended.set()
            else:
                self._on_end("client asked to stop")

    def _write(self, line: str) -> None:
        if self._buffered() > OUTPUT_LIMIT:
            self._on_end(NOT_READING)
            return
        pending = self.editor.pending if self.editor.echo else ""
        # A line said while the player is typing: their line goes on below it, as typed so far.
        self._send(("\r\n" if pending else "") + line + "\r\n" + pending)


async def identify(store: Store, fingerprint: str | None) -> Identity:
    """The identity of a verified key (its registered name, if any), or a guest without one."""
    if fingerprint is None:
        return Identity.guest()
    try:
        user = await asyncio.to_thread(store.user_for_key, fingerprint)
    except StoreError:
        user = None
    return Identity.key(fingerprint, user.name if user is not None else None)


async def chose_line(store: Store, fingerprint: str | None) -> bool:
    """True if the identity of this verified key chose line mode last (a store that fails: False)."""
    if fingerprint is None:
        return False
    with contextlib.suppress(StoreError, OSError, ValueError):
        identity = await identify(store, fingerprint)
        key = identity.preference_key
        if key is not None:
            return bool((await asyncio.to_thread(store.choices, key, LINE_FORM)).get("line"))
    return False


async def remember_line(store: Store, identity: Identity, line: bool) -> None:
    """Keep whether ``identity`` plays in line mode (nothing for a guest; a store that fails: nothing)."""
    key = identity.preference_key
    if key is None:
        return
    with contextlib.suppress(StoreError, OSError, ValueError):
        await asyncio.to_thread(store.set_choices, key, LINE_FORM, {"line": line})


__all__ = ["NOT_READING", "OFFER", "OUTPUT_LIMIT", "QUEUED", "LineEditor", "LineFront", "chose_line", "identify",
           "remember_line"]
