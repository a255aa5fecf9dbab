"""The warm parent: one process that has imported Textual and the game, and forks each served session.

Starting a session used to mean a fresh Python importing Textual and the app (about 0.6 CPU-seconds
each); with many players arriving at once that queued them for many seconds. ``wom-tui serve`` now
starts this process once (``python -m wom_tui.serve.warm``, a fresh interpreter with ``close_fds``,
so it never holds the host key, a listening socket or another session's terminal), lets it import
and warm everything, and asks it over a Unix socket to fork one child per session.

The protocol (one JSON object per message on a ``socketpair``, fds with SCM_RIGHTS):

- server → warm ``{"op": "spawn", "id": N, "argv": [...], "env": {...}, "session": S, "identity": ...}``
  with the pty's slave side attached;
- warm → server ``{"id": N, "pid": P}`` with a pidfd for the child attached (so the server can still
  notice the child's end if the warm parent dies), or ``{"id": N, "error": "..."}``;
- warm → server ``{"exited": P, "status": S}`` when a child ends (``status`` as asyncio's returncode);
- warm → server ``{"ready": true}`` once warm.

Each child leads its own session with the pty as controlling terminal, closes the socket, takes the
session's environment and runs ``wom-tui`` with the server's argv (whose ``--seed`` the server drew
for that session number from its own seed, so ``--seed`` replays a server; the app's one
``random.Random`` is seeded from it). ``identity`` is whatever the server verified about the player;
it reaches the child as ``WOM_IDENTITY`` in its environment and never comes from the client.

If the warm parent dies, the server starts a new one (:class:`WarmParent`); running games keep
playing, since they only need their pty and the server's end of it. The server is their child
subreaper (``PR_SET_CHILD_SUBREAPER``): the kernel hands them to it rather than to init (which in a
container may never reap), and the server reaps each one when its pidfd says it ended.
"""

from __future__ import annotations

import asyncio
import collections
import fcntl
import gc
import json
import logging
import os
import selectors
import signal
import socket
import struct
import subprocess
import sys
import termios
import threading
import time
import traceback
import types
from collections.abc import Callable, Sequence
from typing import Any

log = logging.getLogger("wom_tui.serve")

WARM_COMMAND = (sys.executable, "-m", "wom_tui.serve.warm")
_MAX_MESSAGE = 1 << 20
_MAX_FDS = 2
"""A spawn request carries the pty and, optionally, the game's log pipe (its ``"fds"`` says how many)."""
_RESTART_DELAYS = (0.0, 0.5, 1.0, 2.0, 5.0)
_PR_SET_CHILD_SUBREAPER = 36
_ADOPTION_WAIT = 0.05
"""Seconds between tries to reap a game that ended just as its warm parent died (not yet handed over)."""

# Served sessions only (this process exists for nothing else), set before Textual is imported
# because Textual reads them once, at import (textual/constants.py):
SERVED_TEXTUAL_ENV = {
    # Frames per second: Textual's default is 60. Over SSH every frame is bytes on the wire and CPU on a
    # server shared by many players; 30 still keeps a key's echo within one 33 ms frame.
    "TEXTUAL_FPS": "30",
    # How long a lone ESC byte waits for the rest of an escape sequence (Textual issue 4816, ESCDELAY
    # in ms; Textual's default 100). A terminal writes an arrow key's "ESC [ A" at once and our server
    # writes each SSH data message to the pty in one write, so a sequence is only split when the
    # client's own packets split it, and then the gap is network jitter, which on a laggy link is
    # well over 100 ms: a split arrow key would read as Esc (leave the game?) plus "[A". 200 ms
    # covers that jitter while an Esc still answers within a fifth of a second (plus the round trip).
    "ESCDELAY": "200",
}


# -- the warm process ---------------------------------------------------------------------------


def _send(sock: socket.socket, message: dict[str, Any], fds: Sequence[int] = ()) -> None:
    data = json.dumps(message).encode() + b"\n"
    if fds:
        socket.send_fds(sock, [data], list(fds))
    else:
        sock.sendall(data)


def warm_up() -> None:
    """Import everything a session uses, so that forked children share it instead of importing it."""
    for key, value in SERVED_TEXTUAL_ENV.items():
        os.environ.setdefault(key, value)

    import rich._emoji_codes  # noqa: F401  (rich loads its emoji table at the first markup it renders)
    import textual.drivers.linux_driver  # noqa: F401  (the driver a served game runs, and ours on it)
    import textual.widgets  # noqa: F401
    from rich.cells import get_character_cell_size

    from .. import __main__, app  # noqa: F401
    from .. import patches
    from ..patches import driver, parsed_css  # noqa: F401
    from ..domain import stores  # noqa: F401  (imported when the game opens its store)

    # rich imports its table of character widths at the first character outside its single-width ranges
    # (the rehearsal draws none, a game soon does): import it here, once, rather than in every game. The
    # table depends on $UNICODE_VERSION, which a game's environment takes from the server's, as this one.
    get_character_cell_size("\u4e00")

    patches.install()  # as run_app does in each game: here, once, so that the rehearsal runs with them
    parsed_css.share()  # each stylesheet parsed once, here, for every game (see the module)
    _steady_cursors()
    __main__.build_parser()
    app.import_screens()
    for name in dir(textual.widgets):
        if not name.startswith("_"):
            getattr(textual.widgets, name)  # textual.widgets imports its widgets lazily
    _pack_code(_called_during(_rehearse))
    # Once more with the copies: their instructions specialise here, once, rather than in every game
    # (a copy starts unspecialised; without this a game took about 5 ms more CPU to its menu).
    _rehearse()
    # Objects made so far live as long as this process: keep the collector from touching (and so
    # copying) their pages in every child.
    gc.collect()
    gc.freeze()


PR_SET_MEMORY_MERGE = 67
"""prctl(2): let the kernel's same-page merging (KSM) scan all of this process's memory, and its children's."""


def _offer_pages_for_merging() -> None:
    """Offer every game's memory to the kernel's same-page merging (KSM), if the host runs it.

    Most of a game's memory is pages of the warm parent that the game copied on first use (CPython 3.11
    writes a reference count into every object it touches), and most of those copies are the same, byte
    for byte, as the warm parent's page or another game's copy: KSM merges such pages back into one,
    which halves what a session costs (README, *Playing over SSH*). Set here, in the warm parent, every
    game forked from it inherits it. It costs nothing while the host's KSM is off
    (``/sys/kernel/mm/ksm/run`` is 0, the default); turning it on is the operator's choice (its scanner
    takes some CPU). Kernels before 6.4 have no such call: nothing happens.
    """
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        offered = libc.prctl(PR_SET_MEMORY_MERGE, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        offered = False
    if not offered:
        log.info("the games' memory cannot be offered to the kernel's page merging (KSM) here")


_PACKED_AWAY: list[types.CodeType] = []
"""The code objects :func:`_pack_code` replaced, kept so that their memory is never handed out again
(a game's new objects would land on the warm parent's pages, copying them)."""


def _called_during(run: Callable[[], None]) -> dict[int, types.CodeType]:
    """Run ``run``; the code objects of the Python functions it called (in any thread), in order of first call."""
    called: dict[int, types.CodeType] = {}

    def profile(frame: types.FrameType, event: str, _arg: object) -> None:
        if event == "call":
            code = frame.f_code
            if id(code) not in called:
                called[id(code)] = code

    sys.setprofile(profile)
    threading.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
        threading.setprofile(None)
    return called


def _pack_code(called: dict[int, types.CodeType]) -> None:
    """Give the functions a game calls fresh copies of their code, made one after the other.

    CPython 3.11 writes into a function's code object at every call (its reference count, and its
    specialised instructions while they settle), so a game copies every page that holds the code of a
    function it calls. After the imports those are spread thinly over the warm parent's memory: the code
    a game's start runs (about 0.7 MiB) sat on about 4 MiB of pages, each shared page copied by every
    game. Copied here, in the order the rehearsal first called them, they sit on about 1 MiB.
    The copies are equal to the originals (``code.replace()`` without changes, nested code objects the
    rehearsal called copied alike); only the functions' ``__code__`` changes.
    """
    gc.unfreeze()  # (the rehearsal's app froze what it had made): see every function
    functions: dict[int, list[types.FunctionType]] = {}
    for obj in gc.get_objects():
        if isinstance(obj, types.FunctionType) and id(obj.__code__) in called:
            functions.setdefault(id(obj.__code__), []).append(obj)
    copies: dict[int, types.CodeType] = {}

    def copy(code: types.CodeType) -> types.CodeType:
        done = copies.get(id(code))
        if done is not None:
            return done
        consts = code.co_consts
        if any(isinstance(const, types.CodeType) and id(const) in called for const in consts):
            consts = tuple(
                copy(const) if isinstance(const, types.CodeType) and id(const) in called else const
                for const in consts
            )
        copies[id(code)] = new = code.replace(co_consts=consts)
        _PACKED_AWAY.append(code)
        return new

    for key, code in called.items():
        if key in functions:
            copy(code)
    for key, group in functions.items():
        for function in group:
            function.__code__ = copies[key]


def _steady_cursors() -> None:
    """Text cursors in served games do not blink: a blink is a repaint and bytes on the wire twice a
    second for every player idle at a text field (a game on the register screen used 10 ms of CPU a
    second idle; 2 without). Textual has no switch for it, so the fields' default changes here.
    """
    from textual.widgets import Input, TextArea

    for field in (Input, TextArea):
        field.cursor_blink._default = False


def _rehearse() -> None:
    """Run the app once, headless, to its main menu: Textual's caches (parsed selectors, styles,
    rendered text) are then filled here once, and shared by every child instead of rebuilt in each.
    """
    import random
    import tempfile
    import threading
    from pathlib import Path

    from ..app import WomApp
    from ..domain.identity import Identity
    from ..domain.store import Store
    from ..options import Options

    with tempfile.TemporaryDirectory(prefix="wom-warm-") as folder:
        data_dir = Path(folder)
        options = Options(data_dir=data_dir, seed=0, served=True)
        app = WomApp(Store(data_dir), random.Random(0), options, Identity.guest())  # as a served guest
        # Exit once the menu is painted and what follows the first paint (the presence) has started.
        app.call_later(lambda: app.call_after_refresh(lambda: app.call_after_refresh(app.exit)))
        try:
            app.run(headless=True, size=(80, 24))
        except Exception:  # noqa: BLE001  (a rehearsal only: the children then just start colder)
            log.exception("warm-up run failed")
    for thread in threading.enumerate():
        if thread is not threading.main_thread():
            thread.join(timeout=5)  # fork only a process without threads


WARM_LOG_FD = 3
"""Where a forked game finds the write end of its log pipe to the server (``--log-fd 3``)."""
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
START_WAIT = 2.0
"""Seconds a game may take to say it has started before the next one is let start anyway (a game stuck
before its menu, or a machine so loaded that starts take this long, does not hold up the queue)."""


def _become_game(request: dict[str, Any], slave: int, log: int | None = None, started: int | None = None) -> int:
    """In the forked child: take the pty, shed the warm parent's state and run the game (which writes
    its pid to ``started`` once its menu is on screen).
    """
    from ..patches import parsed_css

    parsed_css.stop_adding()  # the shared parsed CSS stays as the warm parent left it (and shared)
    signal.set_wakeup_fd(-1)
    for signum in (signal.SIGCHLD, signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE):
        signal.signal(signum, signal.SIG_DFL)
    os.setsid()
    fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
    if started is not None:
        started = fcntl.fcntl(started, fcntl.F_DUPFD, 10)  # out of the way of the dup2s below
    for fd in (0, 1, 2):
        os.dup2(slave, fd)
    keep = {0, 1, 2}
    if log is not None:
        os.dup2(log, WARM_LOG_FD)  # the game's log pipe to the server, as its --log-fd says
        keep.add(WARM_LOG_FD)
    if started is not None:
        os.dup2(started, STARTED_FD)
        keep.add(STARTED_FD)
        from .. import app

        app.after_first_paint = _say_started
    # Nothing of the warm parent stays open: its socket to the server, its selector, its pipes.
    for name in os.listdir("/proc/self/fd"):
        if int(name) not in keep:
            try:
                os.close(int(name))
            except OSError:
                pass
    sys.stdin = sys.__stdin__ = open(0, encoding="utf-8", errors="replace", closefd=False)  # type: ignore[misc]  # noqa: SIM115
    sys.stdout = sys.__stdout__ = open(1, "w", encoding="utf-8", errors="replace", closefd=False)  # type: ignore[misc]  # noqa: SIM115
    sys.stderr = sys.__stderr__ = open(2, "w", encoding="utf-8", errors="replace", closefd=False)  # type: ignore[misc]  # noqa: SIM115
    env = {str(key): str(value) for key, value in request.get("env", {}).items()}
    identity = request.get("identity")
    if identity is not None:
        env["WOM_IDENTITY"] = json.dumps(identity)
    os.environ.clear()
    os.environ.update(env)
    argv = [str(arg) for arg in request.get("argv", [])]
    sys.argv = ["wom-tui", *argv]
    from ..__main__ import main

    return main(argv)


def _say_started() -> None:
    """In a forked game, once its menu is on screen: tell the warm parent (the next game may start)."""
    try:
        os.write(STARTED_FD, struct.pack("=i", os.getpid()))
    except OSError:
        pass
    finally:
        try:
            os.close(STARTED_FD)
        except OSError:
            pass


def _spawn(sock: socket.socket, request: dict[str, Any], fds: list[int], started: int | None = None) -> int | None:
    """Fork a game for ``request``; its pid (None if it could not be forked)."""
    if len(fds) not in (1, 2):
        for fd in fds:
            os.close(fd)
        _send(sock, {"id": request.get("id"), "error": "expected one terminal (and a log pipe)"})
        return None
    slave = fds[0]
    log = fds[1] if len(fds) == 2 else None
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
            status = _become_game(request, slave, log, started)
        except SystemExit as exc:
            status = exc.code if isinstance(exc.code, int) else 1
        except BaseException:
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
            if len(buffer) > _MAX_MESSAGE:
                return 1
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                request = json.loads(line)
                if request.get("op") == "spawn":
                    count = request.get("fds", 1)
                    count = count if isinstance(count, int) and 1 <= count <= _MAX_FDS else 1
                    taken, fds = fds[:count], fds[count:]
                    queue.add(request, taken)
        _reap(sock, queue.starting)
        queue.fork_what_may_start()


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m wom_tui.serve.warm FD``: serve fork requests on the socket FD."""
    args = list(sys.argv[1:] if argv is None else argv)
    return serve_forks(int(args[0]))


# -- the server's side ----------------------------------------------------------------------------


def become_subreaper() -> bool:
    """Make this process adopt its orphaned descendants (Linux ``PR_SET_CHILD_SUBREAPER``): games whose
    warm parent died are then the server's children, which it reaps, instead of init's. True if done.
    """
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _reap_pidfd(pidfd: int) -> int | None:
    """Reap the ended child behind ``pidfd`` if it is ours now: its status as asyncio gives it
    (negative: the signal), None if it is not (yet) our child; ChildProcessError if nobody's it can be.
    """
    result = os.waitid(os.P_PIDFD, pidfd, os.WEXITED | os.WNOHANG)
    if result is None:
        return None
    return -result.si_status if result.si_code in (os.CLD_KILLED, os.CLD_DUMPED) else result.si_status


class WarmChild:
    """A game forked by the warm parent, seen from the server (like an asyncio Process: pid, wait)."""

    def __init__(self, pid: int, pidfd: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._pidfd: int | None = pidfd
        self._done = asyncio.get_running_loop().create_future()

    def _exited(self, status: int) -> None:
        if self.returncode is None:
            self.returncode = status
            self._close_pidfd()
            if not self._done.done():
                self._done.set_result(status)

    def _orphaned(self, tries: int = 100) -> None:
        """The warm parent died: the game is now the server's child (it is the subreaper), so watch its
        pidfd and reap it when it ends; ``tries`` bounds the wait for a handover the kernel is still making.
        """
        if self._pidfd is None or self.returncode is not None:
            return
        loop = asyncio.get_running_loop()
        if tries < 0:
            log.info("game pid %d ended after its warm parent; exit status unknown", self.pid)
            self._exited(0)
            return

        def readable() -> None:
            assert self._pidfd is not None
            try:
                status = _reap_pidfd(self._pidfd)
            except ChildProcessError:
                # Not our child: ended just as its parent died and not handed over yet (try again
                # shortly), or the server could not be a subreaper and init has it.
                loop.remove_reader(self._pidfd)
                if tries > 0:
                    loop.call_later(_ADOPTION_WAIT, self._orphaned, tries - 1)
                    return
                log.info("game pid %d ended after its warm parent; exit status unknown", self.pid)
                status = 0
            except OSError:  # a kernel without waitid(P_PIDFD): the game ended, its status is unknown
                loop.remove_reader(self._pidfd)
                status = 0
            if status is None:  # not reapable yet: look again shortly rather than spin on the reader
                loop.remove_reader(self._pidfd)
                loop.call_later(_ADOPTION_WAIT, self._orphaned, tries - 1)
                return
            self._exited(status)

        loop.add_reader(self._pidfd, readable)

    def _close_pidfd(self) -> None:
        if self._pidfd is not None:
            asyncio.get_running_loop().remove_reader(self._pidfd)
            os.close(self._pidfd)
            self._pidfd = None

    async def wait(self) -> int:
        """Wait for the game to end; its exit status (negative: the signal that ended it)."""
        return await asyncio.shield(self._done)


class WarmParent:
    """The server's handle on the warm parent: ``await start()``, ``await spawn(...)``, ``await close()``.

    It starts the warm process as a fresh interpreter with nothing of the server's open files, and
    starts a new one whenever it dies (after a short pause if it keeps dying).
    """

    def __init__(self, command: Sequence[str] = WARM_COMMAND) -> None:
        self._command = tuple(command)
        self._proc: subprocess.Popen[bytes] | None = None
        self._sock: socket.socket | None = None
        self._ready: asyncio.Future[None] | None = None
        self._pending: dict[int, asyncio.Future[WarmChild]] = {}
        self._children: dict[int, WarmChild] = {}
        self._ids = 0
        self._buffer = b""
        self._fds: list[int] = []
        self._closing = False
        self._restarts = 0
        self._restart_task: asyncio.Task[None] | None = None
        self.pid: int | None = None
        """The warm process's pid (changes when it is restarted)."""

    async def start(self) -> None:
        """Start the warm process and wait until it has imported everything."""
        if not become_subreaper():
            log.warning("cannot adopt orphaned games (no PR_SET_CHILD_SUBREAPER): init must reap them")
        self._ready = asyncio.get_running_loop().create_future()
        self._launch()
        await self.ready()

    async def ready(self, timeout: float = 60.0) -> None:
        """Wait until a warm process is ready to fork (OSError if none is within ``timeout``)."""
        assert self._ready is not None, "start() first"
        try:
            await asyncio.wait_for(asyncio.shield(self._ready), timeout)
        except asyncio.TimeoutError:
            raise OSError("the warm parent did not get ready") from None

    def _launch(self) -> None:
        loop = asyncio.get_running_loop()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self._proc = subprocess.Popen(
                [*self._command, str(theirs.fileno())],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                close_fds=True,
                pass_fds=(theirs.fileno(),),
                start_new_session=True,  # Ctrl-C at the server's terminal is the server's to handle
            )
        finally:
            theirs.close()
        self.pid = self._proc.pid
        ours.setblocking(False)
        self._sock = ours
        self._buffer = b""
        loop.add_reader(ours.fileno(), self._readable)

    def _readable(self) -> None:
        assert self._sock is not None
        try:
            data, fds, _flags, _addr = socket.recv_fds(self._sock, 65536, 16)
        except BlockingIOError:
            return
        except OSError:
            data, fds = b"", []
        self._fds.extend(fds)
        if not data:
            self._lost()
            return
        self._buffer += data
        while b"\n" in self._buffer:
            line, self._buffer = self._buffer.split(b"\n", 1)
            self._message(json.loads(line))

    def _message(self, message: dict[str, Any]) -> None:
        if message.get("ready"):
            self._restarts = 0
            assert self._ready is not None
            if not self._ready.done():
                self._ready.set_result(None)
            log.info("warm parent ready, pid %s", message.get("pid"))
        elif "exited" in message:
            child = self._children.pop(int(message["exited"]), None)
            if child is not None:
                child._exited(int(message["status"]))
        elif "id" in message:
            future = self._pending.pop(int(message["id"]), None)
            fds, self._fds = self._fds[:1], self._fds[1:]
            if "pid" in message and fds:
                child = WarmChild(int(message["pid"]), fds[0])
                self._children[child.pid] = child
                if future is not None and not future.done():
                    future.set_result(child)
                return
            for fd in fds:
                os.close(fd)
            if future is not None and not future.done():
                future.set_exception(OSError(message.get("error", "the warm parent could not fork")))

    def _lost(self) -> None:
        """The warm process went away: fail what waited on it, keep watching its games, start anew."""
        loop = asyncio.get_running_loop()
        if self._sock is not None:
            loop.remove_reader(self._sock.fileno())
            self._sock.close()
            self._sock = None
        for fd in self._fds:
            os.close(fd)
        self._fds = []
        for future in self._pending.values():
            if not future.done():
                future.set_exception(OSError("the warm parent ended"))
        self._pending.clear()
        for child in self._children.values():
            child._orphaned()
        self._children.clear()
        if self._proc is not None:
            proc, self._proc = self._proc, None
            loop.run_in_executor(None, proc.wait)
        if not self._closing:
            delay = _RESTART_DELAYS[min(self._restarts, len(_RESTART_DELAYS) - 1)]
            self._restarts += 1
            log.warning("warm parent ended; starting a new one in %.1f s", delay)
            if self._ready is None or self._ready.done():
                self._ready = loop.create_future()  # spawns wait for the new one
            self._restart_task = asyncio.ensure_future(self._restart(delay))

    async def _restart(self, delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)
        if not self._closing:
            self._launch()

    async def spawn(
        self,
        slave: int,
        argv: Sequence[str],
        env: dict[str, str],
        identity: object = None,
        log_fd: int | None = None,
    ) -> WarmChild:
        """Fork a game on the pty ``slave`` (the caller still closes its copy, and of ``log_fd``, the game's
        log pipe, which the game gets as descriptor 3); OSError if it cannot.
        """
        if self._closing:
            raise OSError("the server is shutting down")
        await self.ready()
        assert self._sock is not None
        self._ids += 1
        request = {
            "op": "spawn", "id": self._ids, "argv": list(argv), "env": env,
            "session": self._ids, "identity": identity, "fds": 1 if log_fd is None else 2,
        }
        future: asyncio.Future[WarmChild] = asyncio.get_running_loop().create_future()
        self._pending[self._ids] = future
        data = json.dumps(request).encode() + b"\n"
        try:
            # Small messages on a local socket: the kernel takes them whole.
            socket.send_fds(self._sock, [data], [slave] if log_fd is None else [slave, log_fd])
        except OSError:
            self._pending.pop(self._ids, None)
            raise
        return await future

    async def close(self) -> None:
        """Stop the warm process (its games are ended by their sessions, through their terminals)."""
        self._closing = True
        if self._restart_task is not None:
            self._restart_task.cancel()
        loop = asyncio.get_running_loop()
        proc = self._proc
        if self._sock is not None:
            loop.remove_reader(self._sock.fileno())
            self._sock.close()  # EOF: the warm process returns from its loop
            self._sock = None
        if proc is not None:
            try:
                await asyncio.wait_for(loop.run_in_executor(None, proc.wait), 5)
            except asyncio.TimeoutError:
                proc.kill()
                await loop.run_in_executor(None, proc.wait)
        for child in self._children.values():
            child._close_pidfd()
        if self._ready is not None and not self._ready.done():
            self._ready.cancel()


if __name__ == "__main__":
    sys.exit(main())
