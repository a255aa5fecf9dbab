"""The terminal driver of ``wom-tui`` (and of every served game): Textual's own, with an input thread that
sleeps while nobody types.

Textual 8's :class:`~textual.drivers.linux_driver.LinuxDriver` reads the terminal in a thread that
wakes ten times a second (``select`` with a 0.1 s timeout) whether or not anything was typed: to see
whether the app is closing, and to let its key parser give up on a lone Esc once the escape delay
(``ESCDELAY``) has passed. For one player at a terminal that costs nothing anyone notices; for a
server with many players idle in the lobby it is most of what they cost together (twenty idle
sessions, 3 % of a core; docs/perf/).

:class:`QuietDriver` replaces only that thread. It waits in ``select`` without a timeout while the
parser holds nothing half-read, and only while it does (an Esc that may yet be the start of an arrow
key's ``ESC [ A``) until that sequence's deadline, the parser's own. Closing (and suspending) the
app wakes the thread through a pipe that it waits on beside the terminal: setting the driver's
``exit_event``, as Textual's ``disable_input`` does just before it joins the thread, writes to that
pipe. Everything else (the terminal modes, the writer thread, SIGWINCH, suspend and resume) is
Textual's.

A terminal that hangs up (its window closed, its connection dropped) is a hang-up: the thread sends the game
SIGHUP, which the kernel sends only to the leader of the terminal's session; a game started by a program that
waits for it (``make play``) is not that leader, and ran on with no terminal.

Input that is not UTF-8 (a Latin-1 terminal, 8-bit meta keys, a client sending ``0xff``) is data, not an
error: each invalid byte becomes U+FFFD, where Textual's strict decoder raised and ended the app with a
traceback (https://github.com/Textualize/textual/issues/6456). :func:`tolerate_invalid_input` does the
same for Textual's own drivers, where the app falls back to them. Anything else that fails in the input
thread goes to the app's own error handling (a served game logs it and apologises), not to a traceback
on the player's screen.
"""

from __future__ import annotations

import codecs
import contextlib
import functools
import os
import selectors
import signal
import threading
from typing import Any

from textual import constants
from textual._parser import ParseError
from textual._time import get_time
from textual._xterm_parser import XTermParser
from textual.drivers.linux_driver import LinuxDriver

from .versions import MEASURED

MEASURED_ON = MEASURED
"""The Textual releases this driver was measured on (the app uses Textual's own on others) was measured on."""


class _WakingEvent(threading.Event):
    """A :class:`threading.Event` that, when set, also writes a byte to the driver's wake-up pipe (so
    that an input thread asleep in ``select`` sees it at once).
    """

    def __init__(self, driver: QuietDriver) -> None:
        super().__init__()
        self._driver = driver

    def set(self) -> None:
        super().set()
        self._driver._wake()


class QuietDriver(LinuxDriver):
    """Textual's Linux/macOS driver whose input thread wakes only for input, a pending escape sequence's
    deadline, or the app closing.
    """

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self._wake_pipe: tuple[int, int] | None = None
        """The pipe the input thread waits on beside the terminal: a byte in it means "look at exit_event"."""
        self.exit_event = _WakingEvent(self)

    def _wake(self) -> None:
        pipe = self._wake_pipe
        if pipe is not None:
            with contextlib.suppress(OSError):  # full (it is already awake) or closed (no thread)
                os.write(pipe[1], b"\0")

    def start_application_mode(self) -> None:
        """Start application mode (Textual's), with a fresh wake-up pipe for the input thread it starts."""
        self._close_wake_pipe()
        read, write = os.pipe()
        os.set_blocking(read, False)
        os.set_blocking(write, False)
        self._wake_pipe = (read, write)
        super().start_application_mode()

    def disable_input(self) -> None:
        """Disable further input (Textual's: set ``exit_event``, which wakes the thread, and join it)."""
        super().disable_input()
        if self._key_thread is None or not self._key_thread.is_alive():
            self._close_wake_pipe()

    def _close_wake_pipe(self) -> None:
        pipe, self._wake_pipe = self._wake_pipe, None
        if pipe is not None:
            for fd in pipe:
                with contextlib.suppress(OSError):
                    os.close(fd)

    def _run_input_thread(self) -> None:
        """The input thread: on failure the app handles the exception as any other of its own (Textual's
        thread printed a Rich traceback on the terminal instead).
        """
        try:
            self.run_input_thread()
        except Exception as error:  # noqa: BLE001 - any failure is the app's to handle, as its own
            self._app.call_later(self._app._handle_exception, error)

    def run_input_thread(self) -> None:
        """Wait for input and dispatch events; sleep without a timeout while nothing is half-read."""
        assert self._wake_pipe is not None, "start_application_mode makes the wake-up pipe"
        wake = self._wake_pipe[0]
        fileno = self.fileno
        selector = selectors.SelectSelector()  # as Textual: select() works on every tty, kqueue not on macOS's
        selector.register(fileno, selectors.EVENT_READ)
        selector.register(wake, selectors.EVENT_READ)

        parser = XTermParser(self._debug)
        feed = parser.feed
        tick = parser.tick
        decode = codecs.getincrementaldecoder("utf-8")(errors="replace").decode
        exit_event = self.exit_event
        process_message = self.process_message
        hung_up_means_sighup = self.input_tty

        # The parser's deadline for the sequence it holds: Parser.feed sets _timeout_time when it waits for
        # the next character with a timeout (only after an ESC, for ESCDELAY), Parser.tick clears it once
        # the deadline has passed. A Textual without it: wait at most the delay, as Textual's thread did.
        knows_deadline = hasattr(parser, "_timeout_time")

        def timeout() -> float | None:
            if not knows_deadline:
                return constants.ESCAPE_DELAY
            deadline: float | None = parser._timeout_time
            return None if deadline is None else max(0.0, deadline - get_time())

        try:
            while not exit_event.is_set():
                for key, _mask in selector.select(timeout()):
                    if key.fd == wake:
                        with contextlib.suppress(OSError):
                            os.read(wake, 64)
                        continue
                    raw = os.read(fileno, 1024 * 4)
                    if not raw:
                        # End of input: nothing more will come. From a pipe, wait for the exit; from a terminal,
                        # the terminal hung up (its window closed, its connection dropped).
                        selector.unregister(fileno)
                        if hung_up_means_sighup:
                            _hang_up()
                        continue
                    data = decode(raw)
                    if data:  # "" only while a character's UTF-8 bytes are still arriving
                        for event in feed(data):
                            process_message(event)
                for event in tick():
                    process_message(event)
            # Closing: an Esc whose delay ran out just now still goes to the app, as in Textual's thread.
            for event in tick():
                process_message(event)
        finally:
            selector.close()
            try:
                for _event in feed(""):
                    pass
            except (EOFError, ParseError):
                pass



def _hang_up() -> None:
    """The game's terminal hung up: SIGHUP the game, as the kernel does only when the game leads the terminal's
    session. Started by another program that waits for it (``make play``, a script), the game is not the
    leader and got no signal: without this it ran on, with no terminal, and so did its parent. A game that
    handles SIGHUP (a served one parts its session) handles this one alike; any other ends, as its leader
    would have.
    """
    os.kill(os.getpid(), signal.SIGHUP)


def _replacing_decoder(encoding: str) -> Any:
    """``codecs.getincrementaldecoder``, whose decoders replace invalid bytes by default."""
    return functools.partial(codecs.getincrementaldecoder(encoding), errors="replace")


def tolerate_invalid_input() -> None:
    """Make Textual's own terminal drivers replace invalid UTF-8 input (U+FFFD) rather than raise.

    Their input threads build a strict decoder with the module's ``getincrementaldecoder``
    (https://github.com/Textualize/textual/issues/6456); this gives those modules one whose decoders
    replace. It changes nothing else, on any Textual, so it is not gated on the measured versions: it
    matters most where the app falls back to Textual's driver, on a Textual :class:`QuietDriver` was not
    measured on.
    """
    import importlib

    for name in ("textual.drivers.linux_driver", "textual.drivers.linux_inline_driver", "textual.drivers.web_driver"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if getattr(module, "getincrementaldecoder", None) is codecs.getincrementaldecoder:
            module.getincrementaldecoder = _replacing_decoder  # type: ignore[attr-defined]
