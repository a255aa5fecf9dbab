"""Cold start of the app to its main menu, its memory, and the first paint of help and of a solo game,
measured as a player would see them.

Starts ``python -m wom_tui`` on a fresh pseudo-terminal of 80×24 and reads the screen with pyte until
the main menu is drawn (then reads the process's resident memory). Then, once the app has gone quiet,
it opens help (F1) until the rules show, goes back, opens the solo setup (o) and starts a game (p)
until its first guess row shows. For each step it prints the median and max over runs of the time
(wall clock, which depends on what else the machine runs) and of the app's CPU time for that step
(user + system: the load-independent figure).

    .venv/bin/python bench/startup.py [--runs 7]

The package's bytecode is compiled first (``compileall`` into its ``__pycache__``, as ``pip install``
does for an installed wom-tui): an environment with ``PYTHONDONTWRITEBYTECODE=1`` (the build machine's)
otherwise compiles every module of wom-tui from source at every start, about 40 ms of CPU a user never
pays. The cold start as measured before (without that bytecode) is printed on the last line.
"""

from __future__ import annotations

import argparse
import compileall
import fcntl
import os
import pty
import select
import shutil
import signal
import statistics
import struct
import sys
import tempfile
import termios
import time
from pathlib import Path

import pyte

MENU_TEXT = "World of Mastermind"
READY_TEXT = "Register"
STEPS = (
    # (name, keys, text that shows the step's first paint)
    ("help (F1)", b"\x1bOP", "How to play"),
    ("back to the menu (Esc)", b"\x1b", READY_TEXT),
    ("solo setup (o)", b"o", "Lifelines"),  # ("Solo game" is on the menu too)
    ("solo game (p)", b"p", "Guess #1"),
)


def rss_mb(pid: int) -> float:
    """Resident memory of a process in MiB, from /proc."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) the process has used so far, from /proc."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class App:
    """``python -m wom_tui`` on its own 80×24 pty, its screen read with pyte."""

    def __init__(self, data_dir: str) -> None:
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        env = dict(os.environ, TERM="xterm-256color")
        env.pop("COLUMNS", None)
        env.pop("LINES", None)
        self.started = time.perf_counter()
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # child
            os.execvpe(sys.executable, [sys.executable, "-m", "wom_tui", "--data-dir", data_dir, "--seed", "1"], env)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))

    def shows(self, *texts: str) -> bool:
        shown = "\n".join(self.screen.display)
        return all(text in shown for text in texts)

    def wait_for(self, *texts: str, timeout: float = 30.0) -> float:
        """Read output until all ``texts`` show; the moment they did (perf_counter), NaN on timeout."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            ready, _, _ = select.select([self.fd], [], [], 0.05)
            if ready:
                try:
                    self.stream.feed(os.read(self.fd, 65536))
                except OSError:
                    break
                if self.shows(*texts):
                    return time.perf_counter()
        return float("nan")

    def settle(self, quiet: float = 0.3, timeout: float = 10.0) -> None:
        """Read output until the app has used no CPU for ``quiet`` seconds (its background work done)."""
        deadline = time.perf_counter() + timeout
        used, since = cpu_seconds(self.pid), time.perf_counter()
        while time.perf_counter() < deadline and time.perf_counter() - since < quiet:
            ready, _, _ = select.select([self.fd], [], [], 0.05)
            if ready:
                self.stream.feed(os.read(self.fd, 65536))
            now = cpu_seconds(self.pid)
            if now != used:
                used, since = now, time.perf_counter()

    def close(self) -> None:
        os.kill(self.pid, signal.SIGTERM)
        os.waitpid(self.pid, 0)
        os.close(self.fd)


def one_run(data_dir: str) -> dict[str, tuple[float, float]]:
    """Per step: (seconds until it showed, CPU seconds the app used for it); and the RSS at the menu."""
    app = App(data_dir)
    results: dict[str, tuple[float, float]] = {}
    try:
        shown = app.wait_for(MENU_TEXT, READY_TEXT)
        results["main menu (cold start)"] = (shown - app.started, cpu_seconds(app.pid))
        results["rss"] = (rss_mb(app.pid), 0.0)
        for name, keys, text in STEPS:
            app.settle()
            before, started = cpu_seconds(app.pid), time.perf_counter()
            os.write(app.fd, keys)
            shown = app.wait_for(text)
            results[name] = (shown - started, cpu_seconds(app.pid) - before)
    finally:
        app.close()
    return results


def cold_start_from_source(data_dir: str) -> tuple[float, float]:
    """Seconds and CPU seconds to the main menu with no bytecode of wom-tui cached, if Python may not
    write it (``PYTHONDONTWRITEBYTECODE``): the figure this bench printed before it compiled first.
    """
    app = App(data_dir)
    try:
        shown = app.wait_for(MENU_TEXT, READY_TEXT)
        return shown - app.started, cpu_seconds(app.pid)
    finally:
        app.close()


def package_caches() -> list[Path]:
    """The ``__pycache__`` folders of the wom_tui package this bench starts."""
    import wom_tui

    return sorted(Path(wom_tui.__file__).parent.rglob("__pycache__"))


def main() -> None:
    """Run the measurement and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    runs = []
    from_source: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory() as data_dir:
        if sys.dont_write_bytecode:
            for cache in package_caches():
                shutil.rmtree(cache, ignore_errors=True)
            for _ in range(min(args.runs, 3)):
                from_source.append(cold_start_from_source(data_dir))
        import wom_tui

        compileall.compile_dir(str(Path(wom_tui.__file__).parent), quiet=1)
        for _ in range(args.runs):
            runs.append(one_run(data_dir))
    print(f"wom-tui on an 80×24 pty, {args.runs} runs: median (max) wall time | median (max) CPU time of the app")
    for name in ("main menu (cold start)", *(step[0] for step in STEPS)):
        walls = [run[name][0] * 1000 for run in runs]
        cpus = [run[name][1] * 1000 for run in runs]
        print(f"  {name:<24} {statistics.median(walls):6.0f} ms ({max(walls):5.0f}) | "
              f"{statistics.median(cpus):5.0f} ms ({max(cpus):5.0f}) CPU")
    memories = [run["rss"][0] for run in runs]
    print(f"resident memory at the main menu: median {statistics.median(memories):.1f} MiB, max {max(memories):.1f} MiB")
    if from_source:
        walls = [wall * 1000 for wall, _ in from_source]
        cpus = [cpu * 1000 for _, cpu in from_source]
        print(f"main menu without wom-tui's bytecode cached ({len(from_source)} runs, as measured before): "
              f"{statistics.median(walls):.0f} ms ({max(walls):.0f}) | {statistics.median(cpus):.0f} ms ({max(cpus):.0f}) CPU")


if __name__ == "__main__":
    main()
