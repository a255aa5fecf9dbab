"""The input throttle and the log's cleaning, on their own."""

from __future__ import annotations

import logging
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from wom_tui.serve.logsafe import SafeFormatter, clean
from wom_tui.serve.throttle import BURST, InputThrottle
from wom_tui.settings import Settings

KEYSTROKES = st.sampled_from([
    b"x", b"\r", b"\x7f", "é".encode(), b"\x1b[A", b"\x1b[<35;10;5M", b"\x1bOP", b"\x1b[15~", b"\x1ba",
    b"\x1b]11;rgb:0000/0000/0000\x07", b"\x1b[200~pasted\r\ntext\x1b[201~",
])


class FrozenClock:
    """Time stands still: no tokens come back, so what the bucket allows is exact."""

    def __call__(self) -> float:
        return 0.0


@given(st.lists(KEYSTROKES, max_size=40), st.integers(1, 8), st.integers(0, 45))
def test_whole_keystrokes_pass_in_order_whatever_the_chunking(keys: list[bytes], chunk: int, burst: int) -> None:
    data = b"".join(keys)
    throttle = InputThrottle(rate=0, burst=burst, clock=FrozenClock())
    out = b"".join(throttle.feed(data[i:i + chunk]) for i in range(0, len(data), chunk))
    # Each keystroke (a character, an escape sequence, a whole paste) takes one token while any are left.
    assert out == b"".join(keys[:burst])
    assert throttle.dropped == max(0, len(keys) - burst)


def test_a_flood_is_cut_to_the_burst_and_a_paste_up_to_its_bound_passes_whole() -> None:
    throttle = InputThrottle(clock=FrozenClock())
    assert len(throttle.feed(b"x" * 256 * 1024)) == BURST
    paste = b"\x1b[200~" + "é".encode() * 16 * 1024 + b"\x1b[201~"  # 32 KiB, under max_paste
    fresh = InputThrottle(clock=FrozenClock())
    assert b"".join(fresh.feed(paste[i:i + 4095]) for i in range(0, len(paste), 4095)) == paste
    assert fresh.pastes_cut == 0


def test_an_endless_paste_is_cut_at_its_bound_and_the_rest_dropped() -> None:
    settings = Settings(data_dir=Path("."), seed=1)
    throttle = InputThrottle(clock=FrozenClock(), max_paste=settings.max_paste,
                             paste_bytes_per_key=settings.paste_bytes_per_key)
    seen = bytearray(throttle.feed(b"\x1b[200~"))
    for _ in range(1000):  # 16 MiB and no end marker: a client that never ends its paste
        seen += throttle.feed("ü".encode() * 8192)
    assert len(seen) <= 6 + settings.max_paste + 6
    assert seen.startswith(b"\x1b[200~") and seen.endswith(b"\x1b[201~")  # the game's paste ends at the cut
    seen[6:-6].decode("utf-8")  # never half a character
    assert throttle.pastes_cut == 1
    # The real end marker comes at last: keys pass again (while tokens are left).
    assert throttle.feed(b"\x1b[201~q") == b"q"


def test_pasted_bytes_cost_keystrokes() -> None:
    throttle = InputThrottle(clock=FrozenClock(), burst=100, paste_bytes_per_key=128, max_paste=1 << 20)
    out = throttle.feed(b"\x1b[200~" + b"z" * 100_000 + b"\x1b[201~")
    assert len(out) == 6 + 100 * 128 + 6  # the start's token pays for 128 bytes, each other token 128 more
    assert throttle.feed(b"abc") == b""  # the paste used the whole budget


def test_a_lone_escape_is_passed_at_once() -> None:
    assert InputThrottle().feed(b"\x1b") == b"\x1b"


def test_clean_keeps_one_printable_line() -> None:
    forged = "xterm\n2026-01-01 INFO wom_tui.serve: FORGED\x1b[2J"
    assert clean(forged) == "xterm\\n2026-01-01 INFO wom_tui.serve: FORGED\\x1b[2J"
    assert clean("a" * 500).endswith("…") and len(clean("a" * 500)) == 121


def test_the_formatter_escapes_whatever_slips_through() -> None:
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "term %s", ("vt100\n\x1b[31mFAKE",), None)
    line = SafeFormatter("%(levelname)s %(message)s").format(record)
    assert line == "INFO term vt100\\n\\x1b[31mFAKE"


def test_failed_accepts_are_logged_once_per_interval_without_a_traceback(caplog) -> None:
    import asyncio

    from wom_tui.serve.server import _quiet_exception_handler

    handler = _quiet_exception_handler()
    loop = asyncio.new_event_loop()
    try:
        with caplog.at_level(logging.INFO, logger="wom_tui.serve"):
            for _ in range(1000):
                handler(loop, {"message": "socket.accept() out of system resource", "exception": OSError(24, "Too many open files")})
    finally:
        loop.close()
    lines = [record for record in caplog.records if record.name == "wom_tui.serve"]
    assert len(lines) == 1 and lines[0].exc_info is None
    assert "could not accept 1 connection(s)" in lines[0].getMessage() and "Too many open files" in lines[0].getMessage()


def test_connections_signing_in_never_take_more_than_a_quarter_of_the_descriptors(monkeypatch, tmp_path) -> None:
    from wom_tui.serve import server as server_module

    server = server_module.GameServer(Settings(data_dir=tmp_path, seed=1, port=0))
    for limit, caps in ((1024, (256, 32)), (100_000, (256, 32)), (64, (16, 16)), (10, (8, 8))):
        monkeypatch.setattr(server_module, "_descriptor_limit", lambda limit=limit: limit)
        assert server.unauthenticated_caps == caps


async def test_a_game_that_logs_and_leaves_before_the_server_reads_is_logged_line_by_line() -> None:
    """The game wrote a traceback and exited before the server's reader ran: the pipe holds every line and
    then its end. Each line is still one log line (they were logged as one, newlines escaped, which
    happened in CI when the machine was busy)."""
    import asyncio
    import os

    from wom_tui.serve.events import Who
    from wom_tui.serve.session import GameSession

    logged: list[str] = []

    class Events:
        def game_log(self, who: Who, line: str) -> None:
            logged.append(line)

    read, write = os.pipe()
    os.write(write, b"ERROR wom_tui.session: the game failed\nTraceback (most recent call last):\n"
                    b"ZeroDivisionError: division by zero\nno newline at the end")
    os.close(write)
    os.set_blocking(read, False)
    session = GameSession.__new__(GameSession)
    session._log_fd, session._log_buffer, session._log_budget, session._reports = read, bytearray(), 1 << 20, 0
    session._events, session.who, session.label = Events(), Who("1"), "session #1"  # type: ignore[assignment]
    session._loop = asyncio.get_running_loop()
    session._read_game_log()
    assert logged == ["ERROR wom_tui.session: the game failed", "Traceback (most recent call last):",
                      "ZeroDivisionError: division by zero", "no newline at the end"]
    assert session._log_fd is None
