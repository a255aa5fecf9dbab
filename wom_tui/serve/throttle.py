"""Input throttling for a served game: no client may type faster than a person.

Input is cut into *keystrokes*: a plain byte, one escape sequence (a function key, a mouse
report, a terminal's answer), or a whole bracketed paste however long. Each keystroke takes one
token from a bucket holding :data:`BURST` tokens and refilled at :data:`RATE` per second.
A keystroke that finds the bucket empty is dropped whole, so the game never sees half an escape
sequence. A person typing, holding a key (about 30 repeats a second) or moving the mouse stays
under the rate; 256 KiB of ``x`` sent at once is cut down to a few hundred keystrokes.

A bracketed paste costs one keystroke per ``paste_bytes_per_key`` bytes and is cut at ``max_paste``
bytes (or where the bucket runs dry): the game gets the paste's end marker there and nothing more of it,
however long the client goes on (an unterminated paste is endless), and :attr:`InputThrottle.pastes_cut`
counts it for the session to tell the player.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

RATE = 150.0
"""Keystrokes per second a client may keep up."""
BURST = 600
"""Keystrokes a client may send at once (after a pause)."""

_ESC = 0x1B
_PASTE_START = b"[200~"
_PASTE_END = b"\x1b[201~"
_CONTINUATION = bytes(range(0x80, 0xC0))
_MAX_SEQUENCE = 64
"""An escape sequence longer than this is not one a terminal sends: it ends there."""

# States of the cutter.
_GROUND, _ESCAPE, _CSI, _SS3, _STRING, _STRING_ESC, _PASTE = range(7)


class InputThrottle:
    """Feed it what the client sent; it returns what the game may see."""

    def __init__(self, rate: float = RATE, burst: int = BURST, clock: Callable[[], float] = time.monotonic, *,
                 max_paste: int = 64 * 1024, paste_bytes_per_key: int = 128) -> None:
        self.rate = rate
        self.burst = burst
        self.max_paste = max_paste
        self.paste_bytes_per_key = max(1, paste_bytes_per_key)
        self._paste_size = 0
        """Bytes of the current paste the game has seen."""
        self._paste_credit = 0
        """Bytes of the current paste already paid for (its start marker's token)."""
        self._paste_cut = False
        """The current paste was cut: the rest is dropped up to its end marker."""
        self.pastes_cut = 0
        """Pastes cut so far."""
        self._clock = clock
        self._tokens = float(burst)
        self._refilled = clock()
        self._state = _GROUND
        self._sequence = bytearray()
        self._passing = True
        """Whether the keystroke being read was let through (decided at its first byte)."""
        self._paste_tail = b""
        self._char_passed = True
        """Whether the last plain character went through (its continuation bytes follow it)."""
        self.dropped = 0
        """Keystrokes dropped so far."""

    def _take(self) -> bool:
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._refilled) * self.rate)
        self._refilled = now
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        self.dropped += 1
        return False

    def feed(self, data: bytes) -> bytes:
        """The part of ``data`` the game may see."""
        out = bytearray()
        view = memoryview(data)
        i, n = 0, len(data)
        while i < n:
            state = self._state
            if state == _GROUND:
                esc = data.find(b"\x1b", i)
                end = n if esc < 0 else esc
                if end > i:
                    self._ground_run(view[i:end], out)
                    i = end
                    continue
                # An ESC starts a keystroke; its bytes go through as they come (a lone Esc must not wait).
                self._start_sequence(out)
                i += 1
            elif state == _PASTE:
                i = self._paste(data, i, out)
            else:
                byte = data[i]
                i += 1
                self._sequence.append(byte)
                if self._passing:
                    out.append(byte)
                self._step(byte, out)
        return bytes(out)

    def _ground_run(self, run: memoryview, out: bytearray) -> None:
        """Plain bytes: one keystroke per character (a UTF-8 character's continuation bytes share its fate)."""
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._refilled) * self.rate)
        self._refilled = now
        head = 0
        while head < len(run) and 0x80 <= run[head] < 0xC0:
            head += 1
        if head and self._char_passed:
            out += run[:head]
        rest = bytes(run[head:])
        if not rest:
            return
        starts = len(rest.translate(None, _CONTINUATION))
        allowed = int(self._tokens)
        if starts <= allowed:
            self._tokens -= starts
            self._char_passed = True
            out += rest
            return
        # Let the first `allowed` characters through, cut on a character boundary.
        if starts == len(rest):
            cut = allowed
        else:
            cut, seen = len(rest), 0
            for index, byte in enumerate(rest):
                if not 0x80 <= byte < 0xC0:
                    if seen == allowed:
                        cut = index
                        break
                    seen += 1
        self._tokens -= allowed
        self.dropped += starts - allowed
        self._char_passed = False
        out += rest[:cut]

    def _start_sequence(self, out: bytearray) -> None:
        self._passing = self._take()
        if self._passing:
            out.append(_ESC)
        self._sequence = bytearray(b"\x1b")
        self._state = _ESCAPE

    def _emit_sequence(self, out: bytearray) -> None:
        """The keystroke is complete (its bytes already went through, or were dropped)."""
        self._sequence = bytearray()
        self._state = _GROUND

    def _step(self, byte: int, out: bytearray) -> None:
        state = self._state
        if state == _ESCAPE:
            if byte == ord("["):
                self._state = _CSI
            elif byte == ord("O"):
                self._state = _SS3
            elif byte in b"]P_^X":
                self._state = _STRING
            elif byte == _ESC:
                # ESC ESC: the first was a keystroke (Esc) of its own; the second starts another.
                if self._passing:
                    del out[-1]  # _step's caller already passed this ESC as part of the first keystroke
                self._emit_sequence(out)
                self._start_sequence(out)
            else:
                self._emit_sequence(out)  # Alt+key
        elif state == _CSI:
            if 0x40 <= byte <= 0x7E:
                if bytes(self._sequence[1:]) == _PASTE_START:
                    self._sequence = bytearray()
                    self._paste_tail = b""
                    self._paste_size = 0
                    self._paste_credit = self.paste_bytes_per_key  # the start marker's token pays for these
                    self._paste_cut = False
                    self._state = _PASTE
                else:
                    self._emit_sequence(out)
            elif len(self._sequence) >= _MAX_SEQUENCE:
                self._emit_sequence(out)
        elif state == _SS3:
            self._emit_sequence(out)
        elif state == _STRING:
            if byte == 0x07:
                self._emit_sequence(out)
            elif byte == _ESC:
                self._state = _STRING_ESC
            elif len(self._sequence) >= _MAX_SEQUENCE * 16:
                self._emit_sequence(out)
        elif state == _STRING_ESC:
            if byte == ord("\\"):
                self._emit_sequence(out)
            else:
                self._state = _STRING

    def _paste(self, data: bytes, i: int, out: bytearray) -> int:
        """Inside a bracketed paste: pass (or drop) everything up to and including ESC[201~, cutting the paste
        at ``max_paste`` bytes or where the bucket runs dry (the game then gets the end marker at once).
        """
        window = self._paste_tail + data[i:]
        end = window.find(_PASTE_END)
        carried = len(self._paste_tail)
        if end < 0:
            keep = len(_PASTE_END) - 1
            self._paste_tail = window[-keep:] if len(window) >= keep else window
            stop, marker = len(data), 0
        else:
            stop = i + end + len(_PASTE_END) - carried  # index in data just after the end marker
            marker = min(stop - i, len(_PASTE_END))
            self._paste_tail = b""
            self._state = _GROUND
        if self._passing and not self._paste_cut:
            body = data[i:stop - marker]
            take = self._paste_allowance(len(body))
            if take < len(body):
                while take > 0 and 0x80 <= body[take] < 0xC0:
                    take -= 1  # never half a character
                out += body[:take]
                out += _PASTE_END
                self._paste_cut = True
                self.pastes_cut += 1
                self.dropped += 1
            else:
                out += data[i:stop]
        return stop

    def _paste_allowance(self, size: int) -> int:
        """Of ``size`` more pasted bytes, how many the game may have (tokens taken for them)."""
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._refilled) * self.rate)
        self._refilled = now
        room = max(0, self.max_paste - self._paste_size)
        free = min(size, room, self._paste_credit)
        self._paste_credit -= free
        paid = min(size - free, room - free, int(self._tokens * self.paste_bytes_per_key))
        self._tokens -= paid / self.paste_bytes_per_key
        take = free + paid
        self._paste_size += take
        return take


class Coalescer:
    """A burst of values (a window being dragged: dozens of resizes) reaches the game as few: the first at
    once, then at most one per ``window`` seconds, always the latest (the last one in a window wins).
    """

    def __init__(self, window: float, apply: Callable[[object], None],
                 loop: asyncio.AbstractEventLoop | None = None) -> None:
        self._window = window
        self._apply = apply
        self._loop = loop or asyncio.get_running_loop()
        self._last = -float("inf")
        self._pending: object = None
        self._handle: asyncio.TimerHandle | None = None
        self.applied = 0
        """Values passed on so far."""

    def push(self, value: object) -> None:
        """A new value: passed on now if none was within the window, else when the window ends (if still the latest)."""
        self._pending = value
        if self._handle is not None:
            return
        now = self._loop.time()
        if self._window <= 0 or now - self._last >= self._window:
            self._fire()
        else:
            self._handle = self._loop.call_at(self._last + self._window, self._fire)

    def _fire(self) -> None:
        self._handle = None
        value, self._pending = self._pending, None
        self._last = self._loop.time()
        self.applied += 1
        self._apply(value)

    def cancel(self) -> None:
        """Drop what waits (the session ended)."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
