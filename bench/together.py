"""Playing together, measured through the screens: app instances on one data folder.

    .venv/bin/python bench/together.py [--tables 8] [--players 3] [--guesses 5] [--think 0]
                                       [--guess-in processes|one-process|both] [--over-ssh] [--lobbies 50]
                                       [--idle 20] [--idle-seconds 30] [--in-processes]
                                       [--only guess|lobby|idle] [--json] [--profile FILE]

* ``guess_to_panel_p95_ms``: ``--tables`` tables of ``--players`` people each, **every player its own
  process on its own pseudo-terminal**, the app run as ``wom-tui`` runs it (Textual's terminal
  driver, keys typed into the terminal, every frame written out and read by this process, as the
  server relays a game's screen). At every table each player in turn (when their own panel shows
  the previous seat's guess, after ``--think`` seconds ×0.5–1.5, default 0: as fast as the tables
  go) types a wrong guess; the time runs from the Enter to the first frame every other player's
  app writes after taking the new attempt in (p95 over all; p50, max, the CPU seconds of all
  player processes and the wall time of the guessing beside it);
* with ``--over-ssh``, the guessing is measured instead through a real ``wom-tui serve`` (temp data
  folder; ``--max-sessions`` and ``--max-per-ip`` raised to every player, who all come from 127.0.0.1;
  at most 32 sign in at once from one address, a cap the 24 stay under) and one asyncssh client per
  player (its own key, registered with its fingerprint; an 80×24 pty; a pyte screen), all in this
  process: ``ssh_guess_to_panel_p95_ms`` (and ``_p50_ms``, ``_max_ms``). Each table is made in the
  store for its players, whose lobby then says they still have a seat; Enter takes them to it, they
  type their codes, then guess as above (a different wrong guess each round, typed; Enter sent once
  the entry shows it). The time runs from the client sending the Enter to every other player's client
  screen showing the new attempt count on that seat's row ("n/10"), stamped as the bytes that draw it
  arrive (``ssh_guess_to_each_panel_p95_ms``: each other screen on its own;
  ``ssh_guess_to_own_panel_*``: the guesser's own screen). Beside them the CPU seconds used while
  guessing: ``ssh_server_side_cpu_seconds`` (the SSH server, the warm parent and the games:
  ``ssh_server_cpu_seconds``, ``ssh_warm_parent_cpu_seconds``, ``ssh_games_cpu_seconds``),
  ``ssh_clients_cpu_seconds`` (this process: the clients' SSH and pyte, which a player's own machine
  would do, but here on the same cores, so the times include it) and ``ssh_other_cpu_seconds``
  (whatever else kept the machine's cores busy meanwhile), and ``ssh_guessing_seconds``. The clients
  are kept cheap: pyte is fed as bytes come, and only the lines it marks changed are read again;
* ``one_process_guess_to_panel_p95_ms``: the same tables with every app headless (``run_test``) in
  this one process, a guess's Enter posted to the app, until every other player's screen took the
  new view in: the figure this bench gave first, kept beside the other;
* ``lobby_update_max_ms``: ``--lobbies`` apps in the lobby; another process opens a table; the
  longest time until a lobby lists it;
* ``idle_cpu_percent``: ``--idle`` apps idle in the lobby (heartbeats, sweeps, change feed) for
  ``--idle-seconds``: CPU time of the whole process as a percent of one core (and in seconds:
  ``idle_cpu_seconds``, which other load on the machine inflates less);
* with ``--in-processes``, the lobby and idle figures again with each session its own process on its
  own pty: ``processes_lobby_update_max_ms`` (to the first frame a lobby writes listing the table)
  and ``processes_idle_cpu_percent`` / ``processes_idle_cpu_seconds`` (every session's CPU time
  together: each process pays for its own change feed, which one process shares among its apps).

Why one process per player: the goal is about SSH terminals, and ``wom-tui serve`` forks one
game process per connection; the store's change feed tells each process. Every app in one process
puts 24 apps on one Python thread and one core, and leaves out what each process pays on its own (a
watcher per process, every write waking all of them, the lock shared between processes, the terminal
driver). Left out of that figure: SSH itself (encryption, the server relaying each frame), which
``--over-ssh`` adds (as bench/ssh_load.py and bench/two_servers.py do; it replaces ``--guess-in``'s
figures, and with ``--profile`` py-spies the SSH server and six games). The lobby and idle figures
keep their first way (every app in this one process; ``processes`` says so), and are measured again,
each session its own process, with ``--in-processes``. With ``--json``, one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import fcntl
import json
import multiprocessing
import os
import random
import re
import selectors
import signal
import statistics
import struct
import sys
import tempfile
import termios
import time
import traceback
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # ssh_load (the SSH client's screen, --over-ssh)

import asyncssh
from ssh_load import Terminal, screen_line, start_server, tree_cpu
from textual import events

from wom_tui.app import WomApp
from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.domain.table import SeatHolder
from wom_tui.settings import Settings
from wom_tui.screens.live_table import LiveTableScreen
from wom_tui.screens.lobby import LobbyScreen

CTX = multiprocessing.get_context("fork")


def make_app(folder: Path, seed: int) -> WomApp:
    options = Settings(data_dir=folder, seed=seed, computer_pace=0)
    return WomApp(Store(folder), random.Random(seed), options)


def open_in(app: WomApp, make) -> None:
    """Push a screen from inside the app's own task (Textual finds "the app" through a context variable)."""
    app.call_later(lambda: app.push_screen(make()))


async def until(predicate, timeout: float = 60.0, step: float = 0.002, what=None) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(f"a condition was not met in time: {what() if what else ''}")
        await asyncio.sleep(step)


async def guess_to_panel(folder: Path, tables: int, players: int, guesses: int) -> tuple[list[float], float]:
    """Milliseconds from a guess's Enter to every other player's panel at the table showing it, and
    the CPU seconds the guessing took (start-up not counted)."""
    store = Store(folder)
    names = [[f"P{t}x{p}" for p in range(players)] for t in range(tables)]
    for row in names:
        for name in row:
            store.register(name)
    samples: list[float] = []
    async with contextlib.AsyncExitStack() as stack:
        pilots = []
        for t, row in enumerate(names):
            table_pilots = []
            for p, name in enumerate(row):
                app = make_app(folder, 1000 + t * 10 + p)
                pilot = await stack.enter_async_context(app.run_test(size=(80, 24)))
                await until(lambda a=app: getattr(a, "together", None) is not None)
                app.together.local_name = name
                await until(lambda a=app, n=name: a.together.presence is not None and a.together.presence.name == n)
                table_pilots.append(pilot)
            pilots.append(table_pilots)
        # Each table: the first player opens it, the others sit, the creator starts, codes are set.
        for t, row in enumerate(pilots):
            creator = row[0].app
            me = creator.together.me()
            table = store.live.create_table(me, seats=players, attempts=10, seed=t)
            for p, pilot in enumerate(row):
                if p:
                    holder = pilot.app.together.me()
                    store.live.update_table(table.table_id, lambda tb, h=holder, i=p: tb.sit(h, i))
            store.live.act(table.table_id, lambda tb, now: tb.start(me, now))
            for pilot in row:
                open_in(pilot.app, lambda tid=table.table_id: LiveTableScreen(tid))
            for pilot in row:
                await until(lambda a=pilot.app: isinstance(a.screen, LiveTableScreen) and a.screen.view is not None
                            and a.focused is not None and a.focused.id == "code-input",
                            what=lambda a=pilot.app: (a.screen, getattr(a.screen, "view", None), a.focused))
                await pilot.press(*"RGBY", "enter")
            for pilot in row:
                await until(lambda a=pilot.app: a.screen.view.phase == "guessing" and a.focused is not None
                            and a.focused.id == "guess-input")
        # Guessing: a wrong guess ("WWWW" never breaks "RGBY"), player after player, all tables at once.
        # A table's screens say when they show a new view (no polling: the bench adds no load of its own).
        shown: dict[int, asyncio.Event] = {}
        table_of = {id(pilot.app): t for t, row in enumerate(pilots) for pilot in row}
        real_show = LiveTableScreen.show

        def show(screen: LiveTableScreen, data) -> None:
            real_show(screen, data)
            event = shown.get(table_of.get(id(screen.app), -1))
            if event is not None:
                event.set()

        LiveTableScreen.show = show  # type: ignore[method-assign]

        async def play_table(t: int, row) -> None:
            event = shown[t] = asyncio.Event()
            for round_ in range(guesses):
                for p, pilot in enumerate(row):
                    others = [other.app for other in row if other is not pilot]
                    want = round_ + 1
                    # As a person waits to see the entry ready (their last guess counted, the keys on it, the
                    # entry emptied): an Enter sent while it was still being redrawn was lost once, and a guess
                    # set just before the screen emptied the entry after the last one (under load) another time;
                    # each time the bench waited 60 s.
                    await until(lambda a=pilot.app, n=round_: a.focused is not None and a.focused.id == "guess-input"
                                and a.screen.view.seats[p].attempts_used == n and not a.focused.value,
                                what=lambda a=pilot.app: (a.screen, a.focused))
                    entry = pilot.app.screen.query_one("#guess-input")
                    entry.value = "WWWW"
                    start = time.perf_counter()
                    pilot.app.post_message(events.Key("enter", "\r"))  # as the terminal sends it, without the pilot's waits
                    while not all(o.screen.view.seats[p].attempts_used >= want for o in others):
                        event.clear()
                        await asyncio.wait_for(event.wait(), 60)
                    samples.append((time.perf_counter() - start) * 1000)

        cpu = time.process_time()
        await asyncio.gather(*(play_table(t, row) for t, row in enumerate(pilots)))
        rounds_cpu = time.process_time() - cpu
    return samples, rounds_cpu


# ---------------------------------------------------------------- one process per player (the SSH setting)


def _send(fd: int, **message) -> None:
    os.write(fd, (json.dumps(message) + "\n").encode())


async def _run_with_control(app: WomApp, control: int) -> tuple[asyncio.Future[Any], asyncio.StreamReader]:
    """Start ``app`` in a session process, and read the parent's commands from the ``control`` pipe."""
    running = asyncio.ensure_future(app.run_async())
    lines = asyncio.StreamReader()
    loop = asyncio.get_running_loop()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(lines), os.fdopen(control, "rb"))
    return running, lines


def _child_main(run, slave: int, report: int) -> None:
    """A forked session process: the pty ``slave`` as its terminal (fds 0–2, controlling terminal),
    then ``run()`` (a coroutine running the app as ``wom-tui`` runs it: Textual's terminal driver)."""
    try:
        os.setsid()
        for fd in (0, 1, 2):
            os.dup2(slave, fd)
        os.close(slave)
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
        sys.stdin = sys.__stdin__ = open(0, "r", closefd=False)
        sys.stdout = sys.__stdout__ = open(1, "w", closefd=False)
        sys.stderr = sys.__stderr__ = open(2, "w", closefd=False)
        os.environ["TERM"] = "xterm-256color"
        asyncio.run(run())
        status = 0
    except BaseException:  # noqa: BLE001 - the parent reports it
        _send(report, error=traceback.format_exc())
        status = 1
    os._exit(status)


class Fleet:
    """Session processes forked from this one, each on its own pty (as ``wom-tui serve`` forks a game
    per SSH connection): this process drains every terminal (as the server relays a game's screen)
    and reads each one's reports (JSON lines on a pipe); it writes lines to each one's control pipe.
    """

    def __init__(self) -> None:
        self.children: dict[object, dict] = {}
        self.selector = selectors.DefaultSelector()

    def spawn(self, key: object, name: str, run) -> None:
        """Fork a session: ``run(master, report, control)`` makes its coroutine (``master``: its
        terminal's other side, to type into; ``report``/``control``: its pipes)."""
        master, slave = os.openpty()
        fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        report_r, report_w = os.pipe()
        control_r, control_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            for other in self.children.values():
                for fd in (other["master"], other["report"], other["control"]):
                    with contextlib.suppress(OSError):
                        os.close(fd)
            os.close(report_r)
            os.close(control_w)
            _child_main(lambda: run(master, report_w, control_r), slave, report_w)
        os.close(slave)
        os.close(report_w)
        os.close(control_r)
        self.children[key] = {"pid": pid, "master": master, "report": report_r, "control": control_w,
                              "buffer": b"", "messages": [], "name": name}
        self.selector.register(master, selectors.EVENT_READ, (key, "screen"))
        self.selector.register(report_r, selectors.EVENT_READ, (key, "report"))

    def pump(self, until_all: str, timeout: float = 180.0) -> None:
        """Drain every terminal and read the reports until each session has sent ``until_all``."""
        deadline = time.monotonic() + timeout
        children = self.children.values()
        while not all(any(until_all in m for m in c["messages"]) for c in children):
            if time.monotonic() > deadline:
                missing = [c["name"] for c in children if not any(until_all in m for m in c["messages"])]
                raise TimeoutError(f"no {until_all!r} from {missing}")
            self._read(1.0)

    def drain(self, seconds: float) -> None:
        """Drain every terminal for ``seconds``."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            self._read(left)

    def _read(self, timeout: float) -> None:
        for key, _ in self.selector.select(timeout):
            (who, kind) = key.data
            child = self.children[who]
            try:
                data = os.read(key.fd, 65536)
            except OSError:
                data = b""
            if not data:
                self.selector.unregister(key.fd)
                continue
            if kind == "report":
                child["buffer"] += data
                *done, child["buffer"] = child["buffer"].split(b"\n")
                for line in done:
                    message = json.loads(line)
                    if "error" in message:
                        raise RuntimeError(f"session {child['name']} failed:\n{message['error']}")
                    child["messages"].append(message)

    def tell(self, key: object, line: str) -> None:
        """Write a line to a session's control pipe."""
        os.write(self.children[key]["control"], line.encode() + b"\n")

    def message(self, key: object, field: str):
        """The first report of a session holding ``field``: its value."""
        return next(m[field] for m in self.children[key]["messages"] if field in m)

    def close(self) -> None:
        """Close the control pipes (each session then ends), wait for them (killed after 30 s)."""
        for child in self.children.values():
            with contextlib.suppress(OSError):
                os.close(child["control"])
        deadline = time.monotonic() + 30
        for child in self.children.values():
            while True:
                done, _ = os.waitpid(child["pid"], os.WNOHANG)
                if done:
                    break
                if time.monotonic() > deadline:
                    os.kill(child["pid"], signal.SIGKILL)
                    os.waitpid(child["pid"], 0)
                    break
                with contextlib.suppress(RuntimeError):
                    self._read(0.05)  # keep draining while they close
        for child in self.children.values():
            for fd in (child["master"], child["report"]):
                with contextlib.suppress(OSError, KeyError):
                    self.selector.unregister(fd)
                with contextlib.suppress(OSError):
                    os.close(fd)


async def _player(folder: str, table: int, seat: int, players: int, guesses: int, think: float, name: str,
                  master: int, report: int, control: int) -> None:
    app = make_app(Path(folder), 1000 + table * 10 + seat)
    pace = random.Random(2000 + table * 10 + seat)
    # When each seat's attempt count first reaches n on this player's panel: stamped at the first frame
    # written to the terminal after the screen took the new view in.
    reached: dict[int, int] = {}
    pending: list[tuple[int, int]] = []
    seen: dict[str, float] = {}
    changed = asyncio.Event()
    real_show, real_display = LiveTableScreen.show, WomApp._display

    def show(screen: LiveTableScreen, data) -> None:
        real_show(screen, data)
        view = screen.view
        if view is not None and view.phase != "making":
            for s in view.seats:
                for n in range(reached.get(s.index, 0) + 1, s.attempts_used + 1):
                    pending.append((s.index, n))
                reached[s.index] = max(reached.get(s.index, 0), s.attempts_used)
        changed.set()

    def display(self, screen, renderable) -> None:
        real_display(self, screen, renderable)
        if pending and renderable is not None:
            now = time.monotonic()
            for s, n in pending:
                seen[f"{s}:{n}"] = now
            pending.clear()
            changed.set()

    LiveTableScreen.show = show  # type: ignore[method-assign]
    WomApp._display = display  # type: ignore[method-assign]
    running, lines = await _run_with_control(app, control)

    async def until(predicate, timeout: float = 120.0, what=lambda: "") -> None:
        deadline = time.monotonic() + timeout
        while not predicate():
            if running.done():
                running.result()
                raise RuntimeError("the app ended")
            if time.monotonic() > deadline:
                raise TimeoutError(f"player {name}: a condition was not met in time ({app.screen!r} {what()})")
            await asyncio.sleep(0.02)

    def typed(keys: str) -> None:
        os.write(master, keys.encode())

    await until(lambda: getattr(app, "together", None) is not None and app.together.presence is not None)
    app.together.local_name = name
    await until(lambda: app.together.presence.name == name)
    _send(report, joined=app.together.presence.session)
    table_id = (await lines.readline()).decode().strip()
    app.call_later(lambda: app.push_screen(LiveTableScreen(table_id)))
    await until(lambda: isinstance(app.screen, LiveTableScreen) and app.screen.view is not None
                and app.focused is not None and app.focused.id == "code-input")
    typed("RGBY\r")
    await until(lambda: app.screen.view.phase == "guessing" and app.focused is not None
                and app.focused.id == "guess-input")
    _send(report, ready=True)
    await lines.readline()  # go
    cpu, began = time.process_time(), time.monotonic()
    starts: dict[str, float] = {}
    screen = app.screen
    entry = screen.query_one("#guess-input")

    async def until_shown(predicate) -> None:
        while not predicate():
            changed.clear()
            await asyncio.wait_for(changed.wait(), 120)

    before = (seat - 1) % players
    for round_ in range(guesses):
        want = round_ + 1 if seat else round_  # the seat before mine has made its guess of this round
        await until_shown(lambda w=want: reached.get(before, 0) >= w)
        if think:
            await asyncio.sleep(think * pace.uniform(0.5, 1.5))  # a person reads the board, then types
        await until(lambda r=round_: entry.clears >= r, timeout=60)  # my last guess is played and cleared
        typed("WWWW")
        await until(lambda: entry.value == "WWWW", timeout=60,
                    what=lambda: (entry.value, entry.clears, app.focused, round_, screen.view.phase))
        starts[f"{seat}:{round_ + 1}"] = time.monotonic()
        typed("\r")
    # Every seat's last guess shown here (and drawn).
    await until_shown(lambda: all(reached.get(s, 0) >= guesses for s in range(players)) and not pending)
    _send(report, starts=starts, seen=seen, cpu=time.process_time() - cpu, began=began, ended=time.monotonic())
    app.exit()
    await running


def guess_to_panel_processes(folder: Path, tables: int, players: int, guesses: int,
                             think: float = 0.0, profile: str | None = None) -> tuple[list[float], float, float]:
    """As :func:`guess_to_panel`, each player its own process on its own pseudo-terminal (as
    ``wom-tui serve`` forks a game per SSH connection): milliseconds from the Enter typed into a
    player's terminal to the first frame every other player's app writes to its terminal after taking
    the new attempt in; and the CPU seconds all player processes used while guessing.
    """
    store = Store(folder)
    names = [[f"P{t}x{p}" for p in range(players)] for t in range(tables)]
    for row in names:
        for name in row:
            store.register(name)
    fleet = Fleet()
    for t, row in enumerate(names):
        for p, name in enumerate(row):
            fleet.spawn((t, p), name, lambda master, report, control, t=t, p=p, name=name: _player(
                str(folder), t, p, players, guesses, think, name, master, report, control))
    try:
        fleet.pump("joined")
        for t, row in enumerate(names):
            holders = [SeatHolder(name, fleet.message((t, p), "joined"), True) for p, name in enumerate(row)]
            table = store.live.create_table(holders[0], seats=players, attempts=10, seed=t)
            for p, holder in enumerate(holders[1:], start=1):
                store.live.update_table(table.table_id, lambda tb, h=holder, i=p: tb.sit(h, i))
            store.live.act(table.table_id, lambda tb, now, h=holders[0]: tb.start(h, now))
            for p in range(players):
                fleet.tell((t, p), table.table_id)
        fleet.pump("ready")
        spies = []
        if profile:
            # py-spy on the players of the first two tables while they guess (collapsed stacks, one file
            # each). Under load py-spy counts a thread waiting for a core as busy: read its shares as
            # wall time spent in each place, not CPU time.
            import subprocess
            for (t, p), child in fleet.children.items():
                if t < 2:
                    spies.append(subprocess.Popen(
                        ["py-spy", "record", "--pid", str(child["pid"]), "--rate", "250", "--format", "raw",
                         "--output", f"{profile}.{t}.{p}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            fleet.drain(1.5)  # py-spy attaches
        for key in fleet.children:
            fleet.tell(key, "go")
        fleet.pump("seen")
        for spy in spies:
            spy.send_signal(signal.SIGINT)
            spy.wait()
    finally:
        fleet.close()
    samples, cpu = [], 0.0
    keys = list(fleet.children)
    wall = max(fleet.message(k, "ended") for k in keys) - min(fleet.message(k, "began") for k in keys)
    for t in range(tables):
        for p in range(players):
            cpu += fleet.message((t, p), "cpu")
            for key, start in fleet.message((t, p), "starts").items():
                others = [fleet.message((t, o), "seen")[key] for o in range(players) if o != p]
                samples.append((max(others) - start) * 1000)
    return samples, cpu, wall


# ---------------------------------------------------------------- over SSH: a real server, real clients

SEAT_ROW = re.compile(r"\b(\d+)\. P\d+x\d+\s+(\d+)/\d+\b")
"""A seat's row on the progress panel, as a client's screen shows it: "2. P0x1  3/10  … guessing"."""
WRONG_GUESSES = ("RRRR", "GGGG", "BBBB", "YYYY", "KKKK", "RRGG", "BBYY", "WWWW", "KKWW", "GGBB")
"""Guesses that never break "RGBY" (every code), a different one each round so that the entry's echo
of the one being typed is never an earlier one on the board."""


class PanelTerminal(Terminal):
    """An SSH client's 80×24 screen (pyte, as bench/ssh_load.py's) that notes when each seat's attempt
    count first shows.

    Kept cheap (the client runs on the same two cores as the server): the lines pyte marks changed are
    read again once per chunk of data received, and the time a count first shows is stamped right
    there: when the bytes that draw it arrive.
    """

    def __init__(self) -> None:
        super().__init__()
        self.closed = False
        self.counts: dict[int, int] = {}
        """Each seat's (0-based) attempt count as this screen shows it."""
        self.seen: dict[tuple[int, int], float] = {}
        """(seat, count) → when this screen first showed that count on that seat's row (monotonic)."""

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self.changed.set()

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:  # type: ignore[override]
        self.stream.feed(data)
        screen = self.screen
        now = time.monotonic()
        for y in screen.dirty:
            if y < screen.lines:
                line = self.lines[y] = screen_line(screen, y)
                if "/" in line and (match := SEAT_ROW.search(line)):
                    seat, count = int(match.group(1)) - 1, int(match.group(2))
                    for n in range(self.counts.get(seat, 0) + 1, count + 1):
                        self.seen.setdefault((seat, n), now)
                    self.counts[seat] = max(self.counts.get(seat, 0), count)
        screen.dirty.clear()
        self.changed.set()

    def type(self, keys: str) -> None:
        assert self.chan is not None
        self.chan.write(keys.encode())

    async def until(self, predicate, what: str, timeout: float = 120.0) -> None:
        """Wait until ``predicate()`` holds, looking again each time data came in."""
        deadline = time.monotonic() + timeout
        while not predicate():
            if self.closed:
                raise RuntimeError(f"the session closed while waiting for {what}:\n" + "\n".join(self.lines))
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), max(0.0, deadline - time.monotonic()))
            except asyncio.TimeoutError:
                raise TimeoutError(f"no {what} in {timeout} s; the screen:\n" + "\n".join(self.lines)) from None

    async def until_text(self, text: str, timeout: float = 120.0) -> None:
        await self.until(lambda: self.shows(text), repr(text), timeout)

    def entry_shows(self, pegs: str) -> bool:
        """Whether the guess entry (the line under "Your guess") shows ``pegs`` ("RRRR"; "····" empty)."""
        for y, line in enumerate(self.lines[:-1]):
            if "Your guess" in line:
                return self.lines[y + 1].split()[1:1 + len(pegs)] == list(pegs)
        return False


def machine_busy_seconds() -> float:
    """CPU seconds every core of the machine has been busy so far (Linux /proc/stat: all but idle and iowait)."""
    fields = [int(f) for f in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(fields[:8]) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


async def guess_to_panel_ssh(folder: Path, tables: int, players: int, guesses: int,
                             think: float = 0.0, profile: str | None = None) -> dict[str, float]:
    """As :func:`guess_to_panel_processes`, through a real ``wom-tui serve`` and real SSH clients (one
    key each, an 80×24 pty, a pyte screen): milliseconds from the guess's Enter sent by its player's
    client to every other player's client screen showing the new attempt count on that seat's row;
    and the CPU seconds the server side and these clients used while guessing.
    """
    sessions = tables * players
    folder.mkdir(parents=True)
    # Every client comes from 127.0.0.1: --max-per-ip (default 4) and --max-sessions (32) raised to
    # all of them; signing in, at most 32 from one address at once (max_unauthenticated_per_ip, not an
    # option) is above 24. The seats wait for their players (--seat-grace) and nobody idles out.
    server, port, _metrics = await start_server(str(folder), sessions, "--seat-grace", "600")
    store = Store(folder)
    names = [[f"P{t}x{p}" for p in range(players)] for t in range(tables)]
    keys = {name: asyncssh.generate_private_key("ssh-ed25519") for row in names for name in row}
    for name, key in keys.items():
        store.register(name, key=key.get_fingerprint())
    connections: list[asyncssh.SSHClientConnection] = []
    spies: list[Any] = []
    try:
        async def arrive(name: str) -> PanelTerminal:
            conn = await asyncssh.connect("127.0.0.1", port, username=name.lower(), client_keys=[keys[name]],
                                          known_hosts=None, agent_path=None)
            connections.append(conn)
            _chan, terminal = await conn.create_session(PanelTerminal, term_type="xterm-256color",
                                                        term_size=(80, 24), encoding=None)
            await terminal.until_text("Welcome to the World of Mastermind!")
            terminal.type("l")
            await terminal.until_text("Lobby: play together")
            return terminal

        flat = await asyncio.wait_for(asyncio.gather(*(arrive(name) for row in names for name in row)), 600)
        terms = [flat[t * players:(t + 1) * players] for t in range(tables)]
        # Each table made in the store for its three players (as if opened, sat at and started on an
        # earlier connection): each player's lobby says they still have a seat, and Enter goes to it.
        for t, row in enumerate(names):
            holders = [SeatHolder(name, f"bench-{t}-{p}", True) for p, name in enumerate(row)]
            table = store.live.create_table(holders[0], seats=players, attempts=10, seed=t)
            for p, holder in enumerate(holders[1:], start=1):
                store.live.update_table(table.table_id, lambda tb, h=holder, i=p: tb.sit(h, i))
            store.live.act(table.table_id, lambda tb, now, h=holders[0]: tb.start(h, now))

        async def sit_and_set(terminal: PanelTerminal) -> None:
            # The lobby says "You still have a seat" and highlights that table's row; the line may give way at once
            # to "X is back" (the others arrive too), the row's mark and the footer's "x Leave seat" stay.
            await terminal.until(lambda: any(terminal.shows(sign) for sign in ("still have a seat", "← your seat",
                                                                               "Leave seat")), "the seat offered")
            terminal.type("\r")
            await terminal.until_text("Your code")
            terminal.type("RGBY\r")
            await terminal.until(lambda: terminal.shows("Your guess") and terminal.entry_shows("····")
                                 and len(terminal.counts) == players, "the guess entry and every seat's row")

        await asyncio.wait_for(asyncio.gather(*(sit_and_set(terminal) for terminal in flat)), 600)
        starts: dict[tuple[int, int, int], float] = {}

        async def play(t: int, p: int) -> None:
            terminal = terms[t][p]
            pace = random.Random(2000 + t * 10 + p)
            before = (p - 1) % players
            for round_ in range(guesses):
                want = round_ + 1 if p else round_  # the seat before mine has made its guess of this round
                await terminal.until(lambda w=want, r=round_: terminal.counts.get(before, 0) >= w
                                     and terminal.counts.get(p, 0) >= r and terminal.entry_shows("····"),
                                     f"seat {before + 1}'s guess {want}")
                if think:
                    await asyncio.sleep(think * pace.uniform(0.5, 1.5))
                guess = WRONG_GUESSES[round_ % len(WRONG_GUESSES)]
                terminal.type(guess)
                await terminal.until(lambda g=guess: terminal.entry_shows(g), f"{guess} in the entry")
                starts[(t, p, round_ + 1)] = time.monotonic()
                terminal.type("\r")
            await terminal.until(lambda: all(terminal.counts.get(s, 0) >= guesses for s in range(players)),
                                 "every seat's last guess")

        if profile:
            # py-spy on the SSH server and on six games (two tables' worth of players: which table a
            # game serves does not matter, they all do the same) while everyone guesses; collapsed
            # stacks into FILE.server and FILE.game<n>. Read the shares as wall time (py-spy counts a
            # thread waiting for a core as busy), and the figures of such a run as slowed by py-spy.
            import subprocess
            spy = Path(sys.executable).with_name("py-spy")
            games = sorted(tree_cpu(server.pid)[2])[:2 * players]
            for label, pid in (("server", server.pid), *((f"game{n}", pid) for n, pid in enumerate(games))):
                spies.append(subprocess.Popen(
                    [str(spy) if spy.exists() else "py-spy", "record", "--pid", str(pid), "--rate", "250",
                     "--format", "raw", "--output", f"{profile}.{label}"],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            await asyncio.sleep(1.5)  # py-spy attaches
        busy_before = machine_busy_seconds()
        cpu_before, bench_before, began = tree_cpu(server.pid), time.process_time(), time.monotonic()
        await asyncio.wait_for(asyncio.gather(*(play(t, p) for t in range(tables) for p in range(players))), 600)
        cpu_after, bench_after, ended = tree_cpu(server.pid), time.process_time(), time.monotonic()
        busy = machine_busy_seconds() - busy_before
    finally:
        for spying in spies:
            spying.send_signal(signal.SIGINT)
            spying.wait()
        for conn in connections:
            conn.close()
        server.terminate()
        await server.wait()
    to_all, to_each, to_own = [], [], []
    for (t, p, n), start in starts.items():
        shown = [terms[t][o].seen[(p, n)] - start for o in range(players) if o != p]
        to_all.append(max(shown) * 1000)
        to_each.extend(s * 1000 for s in shown)
        to_own.append((terms[t][p].seen[(p, n)] - start) * 1000)
    games = sum(cpu - cpu_before[2].get(pid, 0.0) for pid, cpu in cpu_after[2].items())
    server_cpu, warm_cpu = cpu_after[0] - cpu_before[0], cpu_after[1] - cpu_before[1]
    return {
        "ssh_guess_to_panel_p95_ms": round(statistics.quantiles(to_all, n=20)[-1], 1),
        "ssh_guess_to_panel_p50_ms": round(statistics.median(to_all), 1),
        "ssh_guess_to_panel_max_ms": round(max(to_all), 1),
        "ssh_guess_to_each_panel_p95_ms": round(statistics.quantiles(to_each, n=20)[-1], 1),
        "ssh_guess_to_own_panel_p50_ms": round(statistics.median(to_own), 1),
        "ssh_guess_to_own_panel_p95_ms": round(statistics.quantiles(to_own, n=20)[-1], 1),
        "ssh_guess_samples": len(to_all),
        "ssh_guessing_seconds": round(ended - began, 2),
        "ssh_server_side_cpu_seconds": round(server_cpu + warm_cpu + games, 2),
        "ssh_server_cpu_seconds": round(server_cpu, 2),
        "ssh_warm_parent_cpu_seconds": round(warm_cpu, 2),
        "ssh_games_cpu_seconds": round(games, 2),
        "ssh_clients_cpu_seconds": round(bench_after - bench_before, 2),
        # The rest of the machine's busy time while everyone guessed: other work sharing the cores.
        "ssh_other_cpu_seconds": round(busy - (server_cpu + warm_cpu + games) - (bench_after - bench_before), 2),
    }


async def _lobby_session(folder: str, index: int, master: int, report: int, control: int) -> None:
    """A session process in the lobby: after the "go" line, reports its CPU time at the "stop" line,
    and when its lobby first lists more tables than before (the first frame written after that)."""
    app = make_app(Path(folder), 9000 + index)
    shown: list[int] = []
    listed: list[float] = []
    real_show, real_display = LobbyScreen.show, WomApp._display

    def show(screen: LobbyScreen, state) -> None:
        real_show(screen, state)
        shown.append(len(state.tables))

    def display(self, screen, renderable) -> None:
        real_display(self, screen, renderable)
        if watching and not listed and renderable is not None and shown and shown[-1] > watching[0]:
            listed.append(time.time())
            _send(report, listed=listed[0])

    watching: list[int] = []
    LobbyScreen.show = show  # type: ignore[method-assign]
    WomApp._display = display  # type: ignore[method-assign]
    running, lines = await _run_with_control(app, control)
    deadline = time.monotonic() + 120
    while getattr(app, "together", None) is None or app.together.presence is None:
        if running.done() or time.monotonic() > deadline:
            raise RuntimeError(f"the app did not join in time: {running}")
        await asyncio.sleep(0.05)
    app.call_later(lambda: app.push_screen(LobbyScreen()))
    while not (isinstance(app.screen, LobbyScreen) and app.screen.state is not None):
        if running.done() or time.monotonic() > deadline:
            raise RuntimeError(f"the lobby did not open in time: {running}")
        await asyncio.sleep(0.05)
    _send(report, ready=True)
    await lines.readline()  # go
    cpu = time.process_time()
    watching.append(shown[-1])
    await lines.readline()  # stop
    _send(report, cpu=time.process_time() - cpu)
    app.exit()
    await running


def _lobby_fleet(folder: Path, sessions: int, label: str) -> Fleet:
    """``sessions`` processes, each an app in the lobby of the data folder ``folder`` on its own pty."""
    Store(folder)
    fleet = Fleet()
    for index in range(sessions):
        fleet.spawn(index, f"{label} {index}", lambda master, report, control, index=index: _lobby_session(
            str(folder), index, master, report, control))
    return fleet


def idle_cpu_processes(folder: Path, sessions: int, seconds: float) -> tuple[float, float]:
    """As :func:`idle_cpu`, each session its own process on its own pty: the percent of one core all
    of them use together while idle in the lobby, and the CPU seconds."""
    fleet = _lobby_fleet(folder, sessions, "idle")
    try:
        fleet.pump("ready")
        fleet.drain(3)  # let the start-up settle
        for key in fleet.children:
            fleet.tell(key, "go")
        fleet.drain(seconds)
        for key in fleet.children:
            fleet.tell(key, "stop")
        fleet.pump("cpu")
    finally:
        fleet.close()
    used = sum(fleet.message(key, "cpu") for key in fleet.children)
    return used / seconds * 100, used


def lobby_update_processes(folder: Path, lobbies: int) -> float:
    """As :func:`lobby_update`, each lobby its own process on its own pty: the longest time (s) from a
    table opened (by this process) to the first frame a lobby writes that lists it."""
    fleet = _lobby_fleet(folder, lobbies, "lobby")
    try:
        fleet.pump("ready", timeout=600)
        fleet.drain(3)  # let the start-up settle
        for key in fleet.children:
            fleet.tell(key, "go")
        fleet.drain(0.5)
        opened = time.time()
        Store(folder).live.create_table(SeatHolder("Opener", "s-opener", True), seats=2, attempts=10)
        fleet.pump("listed", timeout=60)
        for key in fleet.children:
            fleet.tell(key, "stop")
        fleet.pump("cpu")
    finally:
        fleet.close()
    return max(fleet.message(key, "listed") for key in fleet.children) - opened


def open_table_later(folder: str, delay: float, stamp) -> None:
    time.sleep(delay)
    live = Store(folder).live
    stamp.put(time.time())
    live.create_table(SeatHolder("Opener", "s-opener", True), seats=2, attempts=10)


async def lobby_update(folder: Path, lobbies: int) -> float:
    """The longest time (ms) until each of ``lobbies`` lobby screens lists a table another process opened."""
    async with contextlib.AsyncExitStack() as stack:
        apps = []
        for i in range(lobbies):
            app = make_app(folder, 5000 + i)
            await stack.enter_async_context(app.run_test(size=(80, 24)))
            open_in(app, LobbyScreen)
            apps.append(app)
        for app in apps:
            await until(lambda a=app: isinstance(a.screen, LobbyScreen) and a.screen.feed_ready.is_set()
                        and a.screen.state is not None, timeout=120)
        before = {len(app.screen.state.tables) for app in apps}
        stamp = CTX.Queue()
        process = CTX.Process(target=open_table_later, args=(str(folder), 0.5, stamp))
        process.start()
        seen: dict[int, float] = {}

        def all_seen() -> bool:
            now = time.time()
            for index, app in enumerate(apps):
                if index not in seen and len(app.screen.state.tables) > max(before):
                    seen[index] = now
            return len(seen) == len(apps)

        await until(all_seen, timeout=60)
        process.join()
        opened = stamp.get()
        return max(seen.values()) - opened


async def idle_cpu(folder: Path, sessions: int, seconds: float) -> tuple[float, float]:
    """Percent of one core the whole process uses while ``sessions`` apps sit idle in the lobby, and
    the CPU seconds (which a loaded machine inflates less than the wall clock)."""
    async with contextlib.AsyncExitStack() as stack:
        apps = []
        for i in range(sessions):
            app = make_app(folder, 9000 + i)
            await stack.enter_async_context(app.run_test(size=(80, 24)))
            open_in(app, LobbyScreen)
            apps.append(app)
        for app in apps:
            await until(lambda a=app: isinstance(a.screen, LobbyScreen) and a.screen.state is not None, timeout=120)
        await asyncio.sleep(3)  # let the start-up settle
        cpu, wall = time.process_time(), time.perf_counter()
        await asyncio.sleep(seconds)
        used = time.process_time() - cpu
        return used / (time.perf_counter() - wall) * 100, used


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--guesses", type=int, default=5)
    parser.add_argument("--lobbies", type=int, default=50)
    parser.add_argument("--idle", type=int, default=20)
    parser.add_argument("--idle-seconds", type=float, default=30.0)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--only", choices=("guess", "lobby", "idle"))
    parser.add_argument("--think", type=float, default=0.0)
    parser.add_argument("--in-processes", action="store_true",
                        help="also measure the lobby and idle figures with each session its own process")
    parser.add_argument("--profile", metavar="FILE",
                        help="py-spy the players of the first two tables while they guess (collapsed stacks "
                             "into FILE.<table>.<seat>; with --over-ssh: the SSH server and six games, into "
                             "FILE.server and FILE.game<n>; needs py-spy)")
    parser.add_argument("--guess-in", choices=("processes", "one-process", "both"), default="both")
    parser.add_argument("--over-ssh", action="store_true",
                        help="measure the guessing through a real `wom-tui serve` and SSH clients instead")
    args = parser.parse_args()
    figures: dict[str, object] = {}
    wanted = {args.only} if args.only else {"guess", "lobby", "idle"}
    if "guess" in wanted and args.over_ssh:
        with tempfile.TemporaryDirectory() as tmp:
            figures.update(asyncio.run(guess_to_panel_ssh(Path(tmp) / "guess", args.tables, args.players,
                                                          args.guesses, args.think, args.profile)))
            figures["think_seconds"] = args.think
    elif "guess" in wanted:
        if args.guess_in in ("processes", "both"):
            with tempfile.TemporaryDirectory() as tmp:
                samples, rounds_cpu, wall = guess_to_panel_processes(Path(tmp) / "guess", args.tables, args.players,
                                                                     args.guesses, args.think, args.profile)
                figures["guess_to_panel_p95_ms"] = round(statistics.quantiles(samples, n=20)[-1], 1)
                figures["guess_to_panel_p50_ms"] = round(statistics.median(samples), 1)
                figures["guess_to_panel_max_ms"] = round(max(samples), 1)
                figures["guess_samples"] = len(samples)
                figures["guessing_cpu_seconds"] = round(rounds_cpu, 2)
                figures["guessing_seconds"] = round(wall, 2)
                figures["think_seconds"] = args.think
        if args.guess_in in ("one-process", "both"):
            with tempfile.TemporaryDirectory() as tmp:
                samples, rounds_cpu = asyncio.run(guess_to_panel(Path(tmp) / "guess", args.tables, args.players,
                                                                 args.guesses))
                figures["one_process_guess_to_panel_p95_ms"] = round(statistics.quantiles(samples, n=20)[-1], 1)
                figures["one_process_guess_to_panel_p50_ms"] = round(statistics.median(samples), 1)
                figures["one_process_guessing_cpu_seconds"] = round(rounds_cpu, 2)
    if "lobby" in wanted:
        with tempfile.TemporaryDirectory() as tmp:
            figures["lobby_update_max_ms"] = round(asyncio.run(lobby_update(Path(tmp) / "lobby", args.lobbies)) * 1000, 1)
        if args.in_processes:
            with tempfile.TemporaryDirectory() as tmp:
                figures["processes_lobby_update_max_ms"] = round(
                    lobby_update_processes(Path(tmp) / "lobby", args.lobbies) * 1000, 1)
    if "idle" in wanted:
        with tempfile.TemporaryDirectory() as tmp:
            percent, used = asyncio.run(idle_cpu(Path(tmp) / "idle", args.idle, args.idle_seconds))
            figures["idle_cpu_percent"] = round(percent, 2)
            figures["idle_cpu_seconds"] = round(used, 3)
        if args.in_processes:
            with tempfile.TemporaryDirectory() as tmp:
                percent, used = idle_cpu_processes(Path(tmp) / "idle", args.idle, args.idle_seconds)
                figures["processes_idle_cpu_percent"] = round(percent, 2)
                figures["processes_idle_cpu_seconds"] = round(used, 3)
    guessing = ("guessing over SSH: a real `wom-tui serve` (a game process per connection) and one SSH client "
                "per player in this process, on the same cores" if args.over_ssh else
                "guessing: one process per player on its own pty (one_process_*: every app headless in one process)")
    figures.update(tables=args.tables, players=args.players, lobbies=args.lobbies, idle_sessions=args.idle,
                   idle_seconds=args.idle_seconds,
                   processes=guessing + "; lobby and idle: every app headless in one process (processes_*: "
                             "each session its own process on its own pty, with --in-processes)")
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")


if __name__ == "__main__":
    main()
