"""Cold start of the app to its main menu, and its memory, measured as a player would see it.

Starts ``python -m wom_tui`` on a fresh pseudo-terminal of 80×24, reads the screen with pyte until
the main menu is drawn, then reads the process's resident memory. Prints median and max over runs.

    .venv/bin/python bench/startup.py [--runs 7]
"""

from __future__ import annotations

import argparse
import os
import pty
import select
import signal
import statistics
import sys
import tempfile
import time

import pyte

MENU_TEXT = "World of Mastermind"
READY_TEXT = "Register"


def rss_mb(pid: int) -> float:
    """Resident memory of a process in MiB, from /proc."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def one_run(data_dir: str, timeout: float = 30.0) -> tuple[float, float]:
    """Seconds until the main menu shows, and the app's RSS once it does."""
    screen = pyte.Screen(80, 24)
    stream = pyte.ByteStream(screen)
    env = dict(os.environ, TERM="xterm-256color")
    env.pop("COLUMNS", None)
    env.pop("LINES", None)
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # child
        os.execvpe(sys.executable, [sys.executable, "-m", "wom_tui", "--data-dir", data_dir, "--seed", "1"], env)
    import fcntl
    import struct
    import termios

    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    elapsed = float("nan")
    try:
        while time.perf_counter() - start < timeout:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                try:
                    data = os.read(fd, 65536)
                except OSError:
                    break
                stream.feed(data)
                text = "\n".join(screen.display)
                if MENU_TEXT in text and READY_TEXT in text:
                    elapsed = time.perf_counter() - start
                    break
        memory = rss_mb(pid)
    finally:
        os.kill(pid, signal.SIGTERM)
        os.waitpid(pid, 0)
        os.close(fd)
    return elapsed, memory


def main() -> None:
    """Run the measurement and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    times, memories = [], []
    with tempfile.TemporaryDirectory() as data_dir:
        for _ in range(args.runs):
            elapsed, memory = one_run(data_dir)
            times.append(elapsed)
            memories.append(memory)
    print(f"cold start to main menu over {args.runs} runs (80×24 pty): "
          f"median {statistics.median(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms")
    print(f"resident memory at the main menu: median {statistics.median(memories):.1f} MiB, "
          f"max {max(memories):.1f} MiB")


if __name__ == "__main__":
    main()
