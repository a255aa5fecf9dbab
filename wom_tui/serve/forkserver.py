"""The warm parent: one process that has imported Textual and the game, and forks each served session.

Starting a session used to mean a fresh Python importing Textual and the app (about 0.6 CPU-seconds
each); with many players arriving at once that queued them for many seconds. ``wom-tui serve`` starts
this process once (``python -m wom_tui.serve.forkserver``, a fresh interpreter with ``close_fds``, so it
never holds the host key, a listening socket or another session's terminal), lets it import and warm
everything (:mod:`.warmup`), and asks it over a Unix socket to fork one game per session
(:class:`.warmparent.WarmParent` is the server's side; docs/serve.md tells the story).

The protocol (one JSON object per message on a ``socketpair``, fds with SCM_RIGHTS):

- server → warm ``{"op": "spawn", "id": N, "settings": {...}, "fingerprint": F, "env": {...}, "fds": K}``
  with the pty's slave side attached (and the game's log pipe when ``K`` is 2); for a browser tab
  ``{"op": "spawn", "transport": "web", "name": NAME, "fds": 3, ...}`` with its input pipe, its output pipe
  and its log pipe attached, and the registered ``name`` its cookie signs in as (None: a guest);
- warm → server ``{"id": N, "pid": P}`` with a pidfd for the child attached (so the server can still
  notice the child's end if the warm parent dies), or ``{"id": N, "error": "..."}``;
- warm → server ``{"exited": P, "status": S}`` when a child ends (``status`` as asyncio's returncode);
- warm → server ``{"ready": true}`` once warm;
- server → warm ``{"op": "hub", "id": N, "path": SOCKET, "server": PID, "env": {...}, "fds": 2}`` with the read
  end of the hub's standard input and the write end of its standard output attached: the server's hub
  (:mod:`.hub`) forked at once, answered as a game is (its pid and a pidfd; ``exited`` when it ends).

Each child leads its own session with the pty as controlling terminal, closes the socket, takes the
session's environment and runs the game (:func:`wom_tui.launch.run_served`) with the settings the server
sent as data (whose ``seed`` the server drew for that session from its own seed, so ``--seed`` replays
a server) as the key ``fingerprint`` the server verified (none: a guest), never anything from the client.
"""

from __future__ import annotations

import collections
import fcntl
import json
import logging
import os
import selectors
import signal
import socket
import struct
import sys
import termios
import time
import traceback
from collections.abc import Callable, Sequence
from typing import Any

log = logging.getLogger("wom_tui.serve")

MAX_MESSAGE = 1 << 20
MAX_FDS = 3
"""A spawn request carries the pty and, optionally, the game's log pipe (its ``"fds"`` says how many); a
browser tab's (``"transport": "web"``) carries its input pipe, its output pipe and its log pipe."""
WEB_DRIVER = "wom_tui.serve.webdriver:ServedWebDriver"
"""The driver a browser tab's game runs: Textual's web driver, which frames its output over a pipe
(:mod:`.webdriver`, docs/serve.md)."""


def _send(sock: socket.socket, message: dict[str, Any], fds: Sequence[int] = ()) -> None:
    data = json.dumps(message).encode() + b"\n"
    if fds:
        socket.send_fds(sock, [data], list(fds))
    else:
        sock.sendall(data)


PR_SET_MEMORY_MERGE = 67
"""prctl(2): let the kernel's same-page merging (KSM) scan all of this process's memory, and its children's."""


def _offer_pages_for_merging() -> None:
    """Offer every game's memory to the kernel's same-page merging (KSM), if the host runs it.

    Most of a game's memory is pages of the warm parent that the game copied on first use (CPython 3.11
    writes a reference count into every object it touches), and most of those copies are the same, byte
    for byte, as the warm parent's page or another game's copy: KSM merges such pages back into one,
    which halves what a session costs (docs/arcade.md). Set here, in the warm parent, every
    game forked from it inherits it. It costs nothing while the host's KSM is off
    (``/sys/kernel/mm/ksm/run`` is 0, the default); turning it on is the operator's choice (its scanner
    takes some CPU). Kernels before 6.4 have no such call: nothing happens.
    """
    if not _prctl(PR_SET_MEMORY_MERGE, 1):
        log.info("the games' memory cannot be offered to the kernel's page merging (KSM) here")


def _prctl(option: int, argument: object) -> bool:
    """prctl(2) with one argument (an int, or bytes for a name); True if the kernel did it."""
    import ctypes

    try:
        value = ctypes.c_char_p(argument) if isinstance(argument, bytes) else argument
        return bool(ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


WARM_LOG_FD = 3
"""Where a forked game finds the write end of its log pipe to the server (:func:`wom_tui.launch.log_to_server`)."""
STARTED_FD = 4
"""Where a forked game finds the pipe on which it tells the warm parent its menu is on screen."""

STARTING_AT_ONCE = max(1, os.cpu_count() or 1)
"""Games the warm parent lets start at the same time (one per core); more requests wait their turn.

A game's start is a tenth of a CPU-second or more, all of it CPU. Fifty players arriving at once used to
get fifty games starting together: the kernel shares the cores fairly, so every game reached its menu at
about the same moment, the time all fifty starts take (the median player waited as long as the last).
Started a core's worth at a time, in order of arrival, the first players get their menu at once and the
median player in half that time; the last waits as long as before.
"""
GAME_NICENESS = 10
"""How much lower a game's CPU priority is than its server's (nice(2)): the SSH server, the hub and the
database serve every session, a game only its own player. Under load (hundreds of games on a few cores) a
game at the same priority as the hub held the hub back from sending each move on to the others, and
the server from answering SSH keepalives, by as much as the games outnumber them (docs/perf/scale.md). The
kernel still shares the cores fairly among the games, and a game's player waits no longer than before when
the machine is idle. Raising a niceness needs no privilege. ``$WOM_GAME_NICENESS`` in the server's
environment sets another (0: games at the server's own priority; docs/arcade.md)."""
NICENESS_ENV = "WOM_GAME_NICENESS"


def game_niceness() -> int:
    """The niceness games add to the server's: ``$WOM_GAME_NICENESS`` (0 to 19) if set, else :data:`GAME_NICENESS`."""
    value = os.environ.get(NICENESS_ENV, "").strip()
    try:
        return max(0, min(19, int(value))) if value else GAME_NICENESS
    except ValueError:
        log.warning("%s=%r is not a number from 0 to 19: games run %d steps nicer", NICENESS_ENV, value, GAME_NICENESS)
        return GAME_NICENESS

START_WAIT = 2.0
"""Seconds a game may take to say it has started before the next one is let start anyway (a game stuck
before its menu, or a machine so loaded that starts take this long, does not hold up the queue)."""


def _leave_the_warm_parent(request: dict[str, Any], keep: set[int], started: int | None) -> None:
    """In a forked game, once its own fds are in place: say when the first frame is painted (``started``),
    close everything else of the warm parent (its socket to the server, its selector, its pipes), open the
    standard streams on fds 0–2 and take the session's environment from the request.
    """
    niceness = game_niceness()  # (the server's environment: the session's replaces it below)
    if niceness:
        try:
            os.nice(niceness)
        except OSError:  # (an already maximal niceness: nothing to lower)
            pass
    if started is not None:
        os.dup2(started, STARTED_FD)
        keep.add(STARTED_FD)
        from .. import app

        app.after_first_paint = _say_started
    _shed(request, keep)
    sys.argv = ["wom-tui"]


def _shed(request: dict[str, Any], keep: set[int]) -> None:
    """Close every fd of the warm parent's but ``keep``, open the standard streams on fds 0–2 and take the
    environment the request carries.
    """
    for name in os.listdir("/proc/self/fd"):
        if int(name) not in keep:
            try:
                os.close(int(name))
            except OSError:
                pass
    sys.stdin = sys.__stdin__ = open(0, encoding="utf-8", errors="replace", closefd=False)  # type: ignore[misc]
    sys.stdout = sys.__stdout__ = open(1, "w", encoding="utf-8", errors="replace", closefd=False)  # type: ignore[misc]
    sys.stderr = sys.__stderr__ = open(2, "w", encoding="utf-8", errors="replace", closefd=False)  # type: ignore[misc]
    env = {str(key): str(value) for key, value in request.get("env", {}).items()}
    os.environ.clear()
    os.environ.update(env)


def _become_game(request: dict[str, Any], slave: int, log: int | None = None, started: int | None = None) -> int:
    """In the forked child: take the pty, shed the warm parent's state and run the game (which writes
    its pid to ``started`` once its menu is on screen).
    """
    from ..patches import parsed_css

    parsed_css.stop_adding()  # the shared parsed CSS stays as the warm parent left it (and shared)
    signal.set_wakeup_fd(-1)
    for signum in (signal.SIGCHLD, signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE):
        signal.signal(signum, signal.SIG_DFL)
    # "The operator's broadcast changed" (serve/moderation.py): ignored until the game listens for it.
    signal.signal(signal.SIGUSR1, signal.SIG_IGN)
    os.setsid()
    fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
    if started is not None:
        started = fcntl.fcntl(started, fcntl.F_DUPFD, 10)  # out of the way of the dup2s below
    for fd in (0, 1, 2):
        os.dup2(slave, fd)
    keep = {0, 1, 2}
    if log is not None:
        os.dup2(log, WARM_LOG_FD)  # the game's log pipe to the server
        keep.add(WARM_LOG_FD)
    _leave_the_warm_parent(request, keep, started)
    from ..launch import run_served
    from ..settings import Settings

    settings = Settings.from_json(request["settings"])
    fingerprint = request.get("fingerprint")
    return run_served(settings, fingerprint if isinstance(fingerprint, str) else None,
                      WARM_LOG_FD if log is not None else None)


def _become_web_game(request: dict[str, Any], stdin: int, stdout: int, log: int | None, started: int | None) -> int:
    """In the forked child of a browser tab: Textual's web driver on two pipes instead of a pty (its own
    session, with no controlling terminal).

    As textual-serve's ``app_service.py`` runs an app: input arrives framed (``D``/``M`` packets) on fd 0,
    the driver writes ``__GANGLION__`` and then framed output on fd 1; fd 2 goes to the server's log.
    """
    from ..patches import parsed_css

    parsed_css.stop_adding()
    signal.set_wakeup_fd(-1)
    for signum in (signal.SIGCHLD, signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE):
        signal.signal(signum, signal.SIG_DFL)
    # "The operator's broadcast changed" (serve/moderation.py): ignored until the game listens for it.
    signal.signal(signal.SIGUSR1, signal.SIG_IGN)
    os.setsid()
    if started is not None:
        started = fcntl.fcntl(started, fcntl.F_DUPFD, 10)
    log = log if log is not None else os.open(os.devnull, os.O_WRONLY)
    for target, source in ((0, stdin), (1, stdout), (2, log), (WARM_LOG_FD, log)):
        os.dup2(source, target)
    keep = {0, 1, 2, WARM_LOG_FD}
    _leave_the_warm_parent(request, keep, started)
    # Textual read TEXTUAL_DRIVER and TEXTUAL_COLOR_SYSTEM once, when the warm parent imported it
    # (textual/constants.py): a browser tab's game sets them here, as textual-serve's environment would.
    from textual import constants

    constants.DRIVER = WEB_DRIVER  # type: ignore[misc]
    constants.COLOR_SYSTEM = "truecolor"  # type: ignore[misc]  # xterm.js draws 24-bit colour
    from ..launch import run_served
    from ..settings import Settings

    settings = Settings.from_json(request["settings"])
    browser_name = request.get("name")
    if isinstance(browser_name, str):
        return run_served(settings, None, WARM_LOG_FD, name=browser_name)
    return run_served(settings, None, WARM_LOG_FD)


HUB_NAME = b"wom-tui hub"
"""The hub's process name (``ps -o comm``, ``top``): forked from the warm parent, its command line is the warm
parent's."""
_PR_SET_NAME = 15


def _become_hub(request: dict[str, Any], stdin: int, stdout: int) -> int:
    """In the forked child of a hub request: the server's hub (:mod:`.hub`) on two pipes to the server, at the
    server's priority and with its environment, in a session of its own; nothing of the warm parent's stays
    open but its standard error (the server's log).
    """
    signal.set_wakeup_fd(-1)
    for signum in (signal.SIGCHLD, signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGUSR1):
        signal.signal(signum, signal.SIG_DFL)
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)  # as in any Python program: a write to a closed socket raises
    os.setsid()
    os.dup2(stdin, 0)
    os.dup2(stdout, 1)
    _shed(request, {0, 1, 2})
    _prctl(_PR_SET_NAME, HUB_NAME)
    from .hub import main

    path, server = request.get("path"), request.get("server")
    sys.argv = ["wom_tui.serve.hub", str(path)]
    return main([str(path), "--server", str(int(server))]) if isinstance(server, int) else main([str(path)])


def _say_started() -> None:
    """In a forked game, once its menu is on screen: tell the warm parent (the next game may start).

    The warm parent may have died meanwhile (its games play on): the write then fails, and must not end the
    game with SIGPIPE, whose default action a game has (it ends quietly when its terminal goes away).
    """
    try:
        quiet = signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    except ValueError:  # not the main thread: never the case for Textual's callbacks, but no reason to fail
        quiet = None
    try:
        os.write(STARTED_FD, struct.pack("=i", os.getpid()))
    except OSError:
        pass
    finally:
        if quiet is not None:
            signal.signal(signal.SIGPIPE, quiet)
        try:
            os.close(STARTED_FD)
        except OSError:
            pass


def _spawn(sock: socket.socket, request: dict[str, Any], fds: list[int], started: int | None = None) -> int | None:
    """Fork a game for ``request``; its pid (None if it could not be forked)."""
    web = request.get("transport") == "web"
    if len(fds) not in ((3,) if web else (1, 2)):
        for fd in fds:
            os.close(fd)
        _send(sock, {"id": request.get("id"), "error": "expected one terminal (and a log pipe), or three pipes"})
        return None
    slave = fds[0]
    log = fds[1] if len(fds) == 2 else None
    if web:
        return _fork(sock, request, fds, lambda: _become_web_game(request, fds[0], fds[1], fds[2], started))
    return _fork(sock, request, fds, lambda: _become_game(request, slave, log, started))


def _fork_hub(sock: socket.socket, request: dict[str, Any], fds: list[int]) -> int | None:
    """Fork the server's hub for ``request`` (its stdin's read end and its stdout's write end attached), at
    once: it does not queue behind the games starting.
    """
    if len(fds) != 2 or not isinstance(request.get("path"), str):
        for fd in fds:
            os.close(fd)
        _send(sock, {"id": request.get("id"), "error": "expected a socket path and two pipes"})
        return None
    return _fork(sock, request, fds, lambda: _become_hub(request, fds[0], fds[1]))


def _fork(sock: socket.socket, request: dict[str, Any], fds: list[int], become: Callable[[], int]) -> int | None:
    """Fork a child that runs ``become()`` and exits with its status; tell the server its pid (with a pidfd)."""
    try:
        pid = os.fork()
    except OSError as exc:
        for fd in fds:
            os.close(fd)
        _send(sock, {"id": request.get("id"), "error": str(exc)})
        return None
    if pid == 0:
        status = 1
        try:
            status = become()
        except SystemExit as exc:
            status = exc.code if isinstance(exc.code, int) else 1
        except BaseException:  # noqa: BLE001 - the game's log gets the traceback; its status says it failed
            traceback.print_exc()
        finally:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            finally:
                os._exit(status)
    for fd in fds:
        os.close(fd)
    # Not reaped yet (we reap only on SIGCHLD, below), so this pidfd is surely this child's.
    pidfd = os.pidfd_open(pid)
    try:
        _send(sock, {"id": request.get("id"), "pid": pid}, [pidfd])
    finally:
        os.close(pidfd)
    return pid


def _reap(sock: socket.socket, starting: dict[int, float] | None = None) -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        if starting is not None:
            starting.pop(pid, None)
        _send(sock, {"exited": pid, "status": os.waitstatus_to_exitcode(status)})


class _StartQueue:
    """Spawn requests in order of arrival, forked :data:`STARTING_AT_ONCE` at a time: the next is forked
    when a game says its menu is on screen, ends, or has had :data:`START_WAIT` seconds.
    """

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.waiting: collections.deque[tuple[dict[str, Any], list[int]]] = collections.deque()
        self.starting: dict[int, float] = {}
        """Games forked and not yet on their menu: pid → when the next may start anyway."""
        self.read_end, self.write_end = os.pipe()
        os.set_blocking(self.read_end, False)

    def add(self, request: dict[str, Any], fds: list[int]) -> None:
        self.waiting.append((request, fds))
        self.fork_what_may_start()

    def started(self) -> None:
        """Read the pids of games that reached their menu."""
        try:
            data = os.read(self.read_end, 4096)
        except BlockingIOError:
            return
        for (pid,) in struct.iter_unpack("=i", data[: len(data) // 4 * 4]):
            self.starting.pop(pid, None)

    def timeout(self) -> float | None:
        """Seconds until a start waited long enough (None: no start to wait for)."""
        if not self.starting or not self.waiting:
            return None
        return max(0.0, min(self.starting.values()) - time.monotonic())

    def fork_what_may_start(self) -> None:
        now = time.monotonic()
        for pid, deadline in list(self.starting.items()):
            if deadline <= now:
                del self.starting[pid]  # slow to start: it does not hold up the others any longer
        while self.waiting and len(self.starting) < STARTING_AT_ONCE:
            request, fds = self.waiting.popleft()
            forked = _spawn(self.sock, request, fds, self.write_end)
            if forked is not None:
                self.starting[forked] = time.monotonic() + START_WAIT


def serve_forks(fd: int) -> int:
    """The warm parent's loop: warm up, then fork a game per request until the server goes away."""
    sock = socket.socket(fileno=fd)
    sock.setblocking(True)
    from .warmup import warm_up

    warm_up()
    _offer_pages_for_merging()
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_read, False)
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server decides when sessions end
    queue = _StartQueue(sock)
    selector = selectors.DefaultSelector()
    selector.register(sock, selectors.EVENT_READ)
    selector.register(wake_read, selectors.EVENT_READ)
    selector.register(queue.read_end, selectors.EVENT_READ)
    _send(sock, {"ready": True, "pid": os.getpid()})
    buffer = b""
    fds: list[int] = []
    while True:
        for key, _ in selector.select(queue.timeout()):
            if key.fileobj == wake_read:
                try:
                    while os.read(wake_read, 512):
                        pass
                except BlockingIOError:
                    pass
                _reap(sock, queue.starting)
                continue
            if key.fileobj == queue.read_end:
                queue.started()
                continue
            data, new_fds, _flags, _addr = socket.recv_fds(sock, 65536, 16)
            fds.extend(new_fds)
            if not data:
                return 0  # the server is gone; its games keep their terminals until they hang up
            buffer += data
            if len(buffer) > MAX_MESSAGE:
                return 1
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                request = json.loads(line)
                if request.get("op") in ("spawn", "hub"):
                    count = request.get("fds", 1)
                    count = count if isinstance(count, int) and 1 <= count <= MAX_FDS else 1
                    taken, fds = fds[:count], fds[count:]
                    if request["op"] == "hub":
                        _fork_hub(sock, request, taken)
                    else:
                        queue.add(request, taken)
        _reap(sock, queue.starting)
        queue.fork_what_may_start()


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m wom_tui.serve.forkserver FD``: serve fork requests on the socket FD."""
    args = list(sys.argv[1:] if argv is None else argv)
    return serve_forks(int(args[0]))


if __name__ == "__main__":
    sys.exit(main())
