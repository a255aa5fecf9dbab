"""The local game (``wom-tui``, as ``make play`` runs it) on a real terminal, when the terminal goes away.

Each test here runs the game as a process of its own on a pty of its own: what is tested is how the game and
the program that started it end when that pty's other side closes.
"""

from __future__ import annotations

import fcntl
import os
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

WAIT = 60.0

WAITING_PARENT = """
import fcntl, os, signal, subprocess, sys, termios
fcntl.ioctl(0, termios.TIOCSCTTY, 0)  # the pty is this session's terminal, and this process its leader
signal.signal(signal.SIGHUP, lambda *_: None)  # as make does on a hang-up: it waits for its child
status = subprocess.call(sys.argv[1:])
os._exit(128 - status if status < 0 else status)
"""
"""Leads the terminal's session and runs the game as its child, waiting for it, as ``make play`` (or a
shell script) does: the kernel's SIGHUP for a closed terminal reaches this process, not the game."""


def _read_until(master: int, text: bytes) -> bytes:
    """What the game writes to its terminal, read until ``text`` appears (a failure after WAIT seconds)."""
    seen = b""
    deadline = time.monotonic() + WAIT
    while text not in seen:
        left = deadline - time.monotonic()
        assert left > 0, f"{text!r} never appeared on the terminal:\n{seen[-2000:]!r}"
        ready, _, _ = select.select([master], [], [], left)
        if ready:
            seen += os.read(master, 65536)
    return seen


def test_closing_the_terminal_ends_a_game_that_another_program_started(tmp_path: Path) -> None:
    """The player closes the terminal window of a game ``make play`` started: the game ends, and so does
    ``make`` (both ran on, with no terminal, orphaned, until this was fixed)."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "WOM_DATA_DIR": str(tmp_path / "data"),
           "XDG_CACHE_HOME": str(tmp_path / "cache")}
    parent = subprocess.Popen([sys.executable, "-c", WAITING_PARENT, sys.executable, "-m", "wom_tui"],
                              stdin=slave, stdout=slave, stderr=slave, start_new_session=True, env=env)
    os.close(slave)
    try:
        _read_until(master, b"Welcome")
        os.close(master)
        master = -1
        try:
            parent.wait(WAIT)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"the game and its parent ran on {WAIT:g} s after the terminal closed") from None
        assert parent.returncode == 128 + signal.SIGHUP, "the game ended as a hang-up ends it"
    finally:
        if master >= 0:
            os.close(master)
        if parent.poll() is None:
            os.killpg(parent.pid, signal.SIGKILL)
            parent.wait()
