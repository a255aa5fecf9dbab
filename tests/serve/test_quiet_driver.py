"""The terminal driver of every game (wom_tui/patches/driver.py) on a real pty: keys typed into the terminal still
arrive as the same keys (a lone Esc after the escape delay, a sequence split across two reads as one key,
mouse, paste), its input thread sleeps while nobody types, and closing or suspending ends the thread.

The driver runs here on a pty of its own: its terminal is the pty's slave, and the test types into the
master as an SSH client's bytes reach a served game. What it reads goes to an inbox standing in for the app.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import threading
import time
from io import TextIOWrapper
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
import textual.constants
from textual import events
from textual.message import Message

from wom_tui.app import WomApp
from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.patches.driver import QuietDriver
from wom_tui.settings import Settings

from .conftest import until

WAIT = 30.0


class Inbox:
    """Stands in for the app: keeps what the driver sends it."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.changed = asyncio.Event()

    async def _post_message(self, message: Message) -> bool:
        self.messages.append(message)
        self.changed.set()
        return True

    def call_later(self, callback: Callable[..., Any], *args: Any) -> None:
        raise AssertionError(f"the input thread failed: {args}")  # LinuxDriver._run_input_thread's panic

    def keys(self) -> list[str]:
        return [m.key for m in self.messages if isinstance(m, events.Key)]

    async def until(self, condition: Callable[[], bool]) -> None:
        async def watch() -> None:
            while not condition():
                self.changed.clear()
                await self.changed.wait()

        await asyncio.wait_for(watch(), WAIT)


class Terminal:
    """A pty with the driver on its slave side; ``type`` writes to the master as a client does."""

    def __init__(self, driver: QuietDriver, inbox: Inbox, master: int) -> None:
        self.driver = driver
        self.inbox = inbox
        self.master = master

    def type(self, data: bytes) -> None:
        os.write(self.master, data)

    async def read_all(self) -> None:
        """Wait until the driver's input thread has read everything typed so far."""
        await poll(lambda: not _unread(self.driver.fileno))


async def poll(condition: Callable[[], bool]) -> None:
    """Wait for a condition that nothing announces (the state of a thread or of a terminal), looking
    every millisecond (the escape delay is timed against it)."""
    await until(condition, WAIT, every=0.001)


def _unread(fd: int) -> int:
    import fcntl
    import struct
    import termios

    return struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0]


def saved_signals() -> dict[int, Any]:
    """The handlers the driver replaces (suspend, resume, resize), to put back after a test."""
    return {number: signal.getsignal(number) for number in (signal.SIGTSTP, signal.SIGCONT, signal.SIGWINCH)}


def quiet_driver(fd: int, *, tty: bool, out: TextIOWrapper) -> tuple[QuietDriver, Inbox]:
    """A driver reading ``fd`` (a terminal, or not) and writing to ``out``, sending what it reads to an inbox."""
    inbox = Inbox()
    driver = QuietDriver(inbox)  # type: ignore[arg-type]
    driver.fileno = fd
    driver.input_tty = tty
    driver._file = out
    return driver, inbox


@pytest.fixture
async def terminal(tmp_path: Path) -> AsyncIterator[Terminal]:
    signals = saved_signals()
    master, slave = os.openpty()
    # The driver's output goes to the same terminal.
    driver, inbox = quiet_driver(slave, tty=True, out=open(os.dup(slave), "w"))
    drain = threading.Thread(target=_drain, args=(master,), daemon=True)
    drain.start()
    driver.start_application_mode()
    term = Terminal(driver, inbox, master)
    try:
        yield term
    finally:
        close(term, _close)
        driver._file.close()
        os.close(slave)
        drain.join()  # the terminal hung up; only then may its number go to another file
        os.close(master)
        for number, handler in signals.items():
            signal.signal(number, handler)


def _drain(master: int) -> None:
    """Read what the driver writes to its terminal (as the server relays a game's screen)."""
    try:
        while os.read(master, 65536):
            pass
    except OSError:
        pass


def _close(driver: QuietDriver) -> None:
    driver.stop_application_mode()
    driver.close()


def close(terminal: Terminal, how: Callable[[QuietDriver], None]) -> None:
    """Stop the driver ``how`` (in this, the main thread, as the app does: Textual's ``disable_input`` sets
    signal handlers), which joins the input thread. Should the thread not notice on its own, a key typed
    after WAIT seconds wakes it, and the test fails rather than hangs.
    """
    nudged: list[bool] = []

    def nudge() -> None:
        nudged.append(True)
        with contextlib.suppress(OSError):
            os.write(terminal.master, b"!")

    watchdog = threading.Timer(WAIT, nudge)
    watchdog.start()
    try:
        how(terminal.driver)
    finally:
        watchdog.cancel()
    assert not nudged, "the input thread did not end until a key was typed"


def input_thread(driver: QuietDriver) -> threading.Thread:
    assert driver._key_thread is not None
    return driver._key_thread


def waits_without_timeout(thread: threading.Thread) -> bool:
    """The thread is in ``select`` (pselect6 underneath) with no timeout: nothing but input or the
    wake-up pipe can wake it (the kernel's record of the system call it sleeps in; the 5th argument
    is the timeout, 0 for none)."""
    fields = Path(f"/proc/self/task/{thread.native_id}/syscall").read_text().split()
    return fields[0] not in ("running", "-1") and len(fields) > 5 and int(fields[5], 16) == 0


def asleep(thread: threading.Thread) -> bool:
    """The thread sleeps in a system call, and not on a lock (say, the GIL, on its way back to ``select``)."""
    task = Path(f"/proc/self/task/{thread.native_id}")
    state = (task / "stat").read_text().rsplit(")", 1)[1].split()[0]
    return state == "S" and "futex" not in (task / "wchan").read_text()


async def test_the_app_runs_on_the_quiet_driver(tmp_path: Path) -> None:
    """Where Textual would choose its Linux driver, the app takes ours."""
    app = WomApp(Store(tmp_path), random.Random(0), Settings(data_dir=tmp_path, seed=0))
    assert app.driver_class is QuietDriver


async def test_a_lone_esc_arrives_after_the_delay(terminal: Terminal, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(textual.constants, "ESCAPE_DELAY", 0.2)
    terminal.type(b"x")
    await terminal.inbox.until(lambda: terminal.inbox.keys() == ["x"])
    typed = time.monotonic()
    terminal.type(b"\x1b")
    await terminal.inbox.until(lambda: len(terminal.inbox.keys()) == 2)
    assert terminal.inbox.keys() == ["x", "escape"]
    assert time.monotonic() - typed >= 0.2  # not before: it might have been the start of a sequence


async def test_esc_pressed_twice_is_two_escs(terminal: Terminal, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(textual.constants, "ESCAPE_DELAY", 0.1)
    terminal.type(b"\x1b\x1b")
    await terminal.inbox.until(lambda: len(terminal.inbox.keys()) == 2)
    terminal.type(b"y")
    await terminal.inbox.until(lambda: len(terminal.inbox.keys()) == 3)
    assert terminal.inbox.keys() == ["escape", "escape", "y"]


async def test_a_sequence_split_across_two_reads_is_one_key(terminal: Terminal, monkeypatch: pytest.MonkeyPatch) -> None:
    # A delay far longer than this test takes between its two writes, on any machine.
    monkeypatch.setattr(textual.constants, "ESCAPE_DELAY", WAIT)
    for first, second, key in ((b"\x1b", b"[A", "up"), (b"\x1b[", b"B", "down"), (b"\x1b[1;5", b"C", "ctrl+right")):
        before = len(terminal.inbox.keys())
        terminal.type(first)
        await terminal.read_all()  # the driver has read the first part on its own
        terminal.type(second)
        await terminal.inbox.until(lambda before=before: len(terminal.inbox.keys()) > before)
        assert terminal.inbox.keys()[before:] == [key]
    terminal.type(b"z")
    await terminal.inbox.until(lambda: terminal.inbox.keys()[-1:] == ["z"])
    assert terminal.inbox.keys() == ["up", "down", "ctrl+right", "z"]


async def test_mouse_paste_and_utf8_split_across_reads(terminal: Terminal) -> None:
    inbox = terminal.inbox
    terminal.type(b"\x1b[<0;5;3M\x1b[<0;5;3m")
    await inbox.until(lambda: any(isinstance(m, events.MouseUp) for m in inbox.messages))
    down = next(m for m in inbox.messages if isinstance(m, events.MouseDown))
    assert (down.x, down.y, down.button) == (4, 2, 1)
    terminal.type(b"\x1b[200~Hello \xc3")
    await terminal.read_all()
    terminal.type(b"\xa9t\xc3\xa9\x1b[201~")
    await inbox.until(lambda: any(isinstance(m, events.Paste) for m in inbox.messages))
    assert [m.text for m in inbox.messages if isinstance(m, events.Paste)] == ["Hello été"]
    terminal.type("é".encode()[:1])
    await terminal.read_all()
    terminal.type("é".encode()[1:])
    await inbox.until(lambda: any(isinstance(m, events.Key) and m.character == "é" for m in inbox.messages))


async def test_the_input_thread_sleeps_while_nobody_types(terminal: Terminal, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(textual.constants, "ESCAPE_DELAY", 0.05)
    thread = input_thread(terminal.driver)
    for typed in (b"a", b"\x1b"):  # after a key, and after a lone Esc's delay ran out
        count = len(terminal.inbox.keys())
        terminal.type(typed)
        await terminal.inbox.until(lambda count=count: len(terminal.inbox.keys()) > count)
        await poll(lambda: asleep(thread))
        # With no input it stays asleep: no timeout (Textual's thread woke every 0.1 s).
        assert waits_without_timeout(thread)
    assert terminal.inbox.keys() == ["a", "escape"]


async def test_closing_ends_the_input_thread_and_suspending_starts_a_new_one(terminal: Terminal) -> None:
    driver = terminal.driver
    first = input_thread(driver)
    close(terminal, QuietDriver.suspend_application_mode)
    assert not first.is_alive()
    driver.resume_application_mode()
    second = input_thread(driver)
    assert second is not first and second.is_alive()
    terminal.type(b"q")
    await terminal.inbox.until(lambda: terminal.inbox.keys() == ["q"])
    close(terminal, _close)
    assert not second.is_alive()
    assert not [t for t in threading.enumerate() if t.name == "textual-input"]


async def test_input_that_ends_leaves_the_thread_asleep_until_closed() -> None:
    """Input from a pipe that its writer closes (no terminal): the keys before the end arrive, then the thread
    sleeps (Textual's read the ended input again and again, a core's worth) until the driver is closed.
    """
    signals = saved_signals()
    read, write = os.pipe()
    driver, inbox = quiet_driver(read, tty=False, out=open(os.devnull, "w"))
    driver.start_application_mode()
    terminal = Terminal(driver, inbox, write)
    try:
        thread = input_thread(driver)
        os.write(write, b"ok")
        os.close(write)
        await inbox.until(lambda: inbox.keys() == ["o", "k"])
        await poll(lambda: asleep(thread))
        assert waits_without_timeout(thread), "after the end of input the thread stays asleep"
        close(terminal, _close)
        assert not thread.is_alive()
    finally:
        driver._file.close()
        os.close(read)
        for number, handler in signals.items():
            signal.signal(number, handler)


async def test_bytes_that_are_not_utf8_arrive_as_replacement_characters(terminal: Terminal) -> None:
    """0xff, a lone 0xc0, a character cut short: each is data (U+FFFD), and the keys after it still arrive."""
    inbox = terminal.inbox
    for typed in (b"\xff", b"\xc0", b"\xc3x", b"\xfe\xfe"):
        terminal.type(typed)
    terminal.type(b"k")
    await inbox.until(lambda: "k" in inbox.keys())
    characters = [m.character for m in inbox.messages if isinstance(m, events.Key)]
    assert characters == ["\ufffd", "\ufffd", "\ufffd", "x", "\ufffd", "\ufffd", "k"]
    assert input_thread(terminal.driver).is_alive()


async def test_textuals_own_driver_takes_such_bytes_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the app falls back to Textual's driver (a Textual the quiet one was not measured on), it
    replaces invalid bytes as well once ``tolerate_invalid_input`` ran (as ``run_app`` does)."""
    from textual.drivers import linux_driver

    from wom_tui.patches.driver import tolerate_invalid_input

    monkeypatch.setattr(linux_driver, "getincrementaldecoder", linux_driver.getincrementaldecoder)
    tolerate_invalid_input()
    signals = saved_signals()
    master, slave = os.openpty()
    inbox = Inbox()
    driver = linux_driver.LinuxDriver(inbox)  # type: ignore[arg-type]
    driver.fileno = slave
    driver.input_tty = True
    driver._file = open(os.dup(slave), "w")
    drain = threading.Thread(target=_drain, args=(master,), daemon=True)
    drain.start()
    driver.start_application_mode()
    try:
        os.write(master, b"\xff\xc0k")
        await inbox.until(lambda: "k" in inbox.keys())
        characters = [m.character for m in inbox.messages if isinstance(m, events.Key)]
        assert characters == ["\ufffd", "\ufffd", "k"]
    finally:
        driver.stop_application_mode()
        driver.close()
        driver._file.close()
        os.close(slave)
        drain.join()
        os.close(master)
        for number, handler in signals.items():
            signal.signal(number, handler)


async def test_a_terminal_that_hangs_up_is_a_hang_up() -> None:
    """The terminal's far end goes (its window closed, its SSH connection dropped): the game is sent SIGHUP,
    as the kernel sends it only to the leader of the terminal's session. A game started by a program that
    waits for it (``make play``) does not lead it: it ran on with no terminal, and ``make`` waited for it.
    """
    signals = saved_signals()
    loop = asyncio.get_running_loop()
    hung_up = asyncio.Event()
    loop.add_signal_handler(signal.SIGHUP, hung_up.set)
    master, slave = os.openpty()
    driver, inbox = quiet_driver(slave, tty=True, out=open(os.devnull, "w"))
    driver.start_application_mode()
    try:
        thread = input_thread(driver)
        os.write(master, b"ok")
        await inbox.until(lambda: inbox.keys() == ["o", "k"])
        assert not hung_up.is_set()
        os.close(master)
        master = -1
        await asyncio.wait_for(hung_up.wait(), WAIT)
        assert inbox.keys() == ["o", "k"]
        _close(driver)
        assert not thread.is_alive()
    finally:
        loop.remove_signal_handler(signal.SIGHUP)
        driver._file.close()
        os.close(slave)
        if master >= 0:
            os.close(master)
        for number, handler in signals.items():
            signal.signal(number, handler)
