"""The input throttle and the log's cleaning, on their own (issue 10)."""

from __future__ import annotations

import logging

from hypothesis import given
from hypothesis import strategies as st

from wom_tui.serve.logsafe import SafeFormatter, clean
from wom_tui.serve.throttle import BURST, InputThrottle

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


def test_a_flood_is_cut_to_the_burst_and_a_big_paste_passes_whole() -> None:
    throttle = InputThrottle(clock=FrozenClock())
    assert len(throttle.feed(b"x" * 256 * 1024)) == BURST
    paste = b"\x1b[200~" + b"y" * (1 << 20) + b"\x1b[201~"
    fresh = InputThrottle(clock=FrozenClock())
    assert b"".join(fresh.feed(paste[i:i + 4096]) for i in range(0, len(paste), 4096)) == paste


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
