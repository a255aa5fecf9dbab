"""The pty plumbing a served game relies on: its window size and its environment."""

from __future__ import annotations

import fcntl
import os
import struct
import termios

import pytest

from wom_tui.serve.session import MAX_COLUMNS, MAX_ROWS, child_environment, set_window_size


def window_size(fd: int) -> tuple[int, int]:
    rows, columns, _, _ = struct.unpack("HHHH", fcntl.ioctl(fd, termios.TIOCGWINSZ, b"\0" * 8))
    return columns, rows


@pytest.mark.parametrize(
    ("asked", "given"),
    [((80, 24), (80, 24)), ((100, 30), (100, 30)), ((0, 0), (80, 24)), ((10**6, 10**6), (MAX_COLUMNS, MAX_ROWS))],
)
def test_the_game_gets_the_clients_size_within_reason(asked: tuple[int, int], given: tuple[int, int]) -> None:
    master, slave = os.openpty()
    try:
        set_window_size(master, *asked, xpixels=10**9, ypixels=-1)
        assert window_size(slave) == given
    finally:
        os.close(master)
        os.close(slave)


def test_the_game_sees_the_clients_terminal_not_the_servers(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in {"COLUMNS": "200", "LINES": "60", "TERM": "screen", "TMUX": "/tmp/x", "COLORTERM": "x"}.items():
        monkeypatch.setenv(name, value)
    env = child_environment("xterm-kitty", {"COLORTERM": "truecolor", "LD_PRELOAD": "/evil.so"})
    assert "COLUMNS" not in env and "LINES" not in env and "TMUX" not in env
    assert env["TERM"] == "xterm-kitty"
    assert env["COLORTERM"] == "truecolor"
    assert env.get("LD_PRELOAD") == os.environ.get("LD_PRELOAD")


@pytest.mark.parametrize("term", ["", "x" * 65, "xterm\nrm", "vt100 x", "xtérm"])
def test_a_strange_term_falls_back_to_xterm(term: str) -> None:
    assert child_environment(term, {})["TERM"] == "xterm-256color"
