"""The server's side of the warm parent (:mod:`.forkserver`): start it, ask it for games, watch them end.

If the warm parent dies, the server starts a new one (:class:`WarmParent`); so it does if the warm parent
leaves a fork request unanswered for ``answer_timeout`` seconds (it was stopped, or hangs): it is killed,
the server says so in its log, and the request goes to the new one. Running games keep playing,
since they only need their pty and the server's end of it. The server is their child subreaper
(``PR_SET_CHILD_SUBREAPER``): the kernel hands them to it rather than to init (which in a container may
never reap), and the server reaps each one when its pidfd says it ended.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..settings import Settings

log = logging.getLogger("wom_tui.serve")

WARM_COMMAND = (sys.executable, "-m", "wom_tui.serve.forkserver")
"""The warm parent's program, before the number of its socket."""
_RESTART_DELAYS = (0.0, 0.5, 1.0, 2.0, 5.0)
_PR_SET_CHILD_SUBREAPER = 36
_ADOPTION_WAIT = 0.05
"""Seconds between tries to reap a game that ended just as its warm parent died (not yet handed over)."""


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

    def send_signal(self, signum: int) -> None:
        """Send ``signum`` to the child through its pidfd (never to a process that took its pid since);
        ProcessLookupError once it has ended.
        """
        if self._pidfd is None or self.returncode is not None:
            raise ProcessLookupError(self.pid)
        signal.pidfd_send_signal(self._pidfd, signum)


class _Spare:
    """A warm parent whose server closed while it was healthy and idle, kept for this process's next server."""

    def __init__(self, proc: subprocess.Popen[bytes], sock: socket.socket, buffer: bytes) -> None:
        self.proc, self.sock, self.buffer = proc, sock, buffer


SPARES_KEPT = 3
"""Kept warm parents per command, at most: as many servers as a test runs at once (a store shared by three)."""
_spares: dict[tuple[str, ...], list[_Spare]] = {}
"""Kept warm parents by command, oldest first (only when :meth:`WarmParent.keep_between_servers` was called)."""
_keeping = False


def _end_spares() -> None:
    for kept in _spares.values():
        for spare in kept:
            spare.sock.close()  # EOF: it returns from its loop and exits
    _spares.clear()


class _WarmParentLost(OSError):
    """The warm parent ended (or was replaced) before it answered a request: ask the next one."""


class WarmParent:
    """The server's handle on the warm parent: ``await start()``, ``await spawn(...)``, ``await close()``.

    It starts the warm process as a fresh interpreter with nothing of the server's open files, and
    starts a new one whenever it dies (after a short pause if it keeps dying), or leaves fork requests
    unanswered: while any is waiting, a warm parent that sends nothing at all for ``answer_timeout``
    seconds is replaced. (A healthy one, even with a long queue of games to start, forks one at least
    every ``forkserver.START_WAIT`` seconds and says so.)
    """

    def __init__(self, command: Sequence[str] = WARM_COMMAND, answer_timeout: float = 5.0) -> None:
        self._command = tuple(command)
        self._answer_timeout = answer_timeout
        self._heard = 0.0
        """Loop time of the warm parent's last message, or of the first request it owes an answer to."""
        self._watchdog: asyncio.TimerHandle | None = None
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
        self.on_restart: Callable[[], None] | None = None
        """Called each time the warm process ended and a new one is to be started (the server counts it)."""
        self.hub: Any = None
        """The server's hub (:class:`.hub.HubProcess`), told who each game forked here is and when it ends."""

    @staticmethod
    def keep_between_servers() -> None:
        """In a process that starts server after server (the test suite: its servers run in the pytest
        worker), hand a closing server's warm parent, if it is healthy and owes no answer, to the next
        server started with the same command, instead of ending it and importing everything again (about
        0.6 CPU-seconds a server), up to :data:`SPARES_KEPT` of them for tests that run several servers at
        once. It forks games for the next server as it did for the last (each request carries its settings);
        the last server's games may still be ending, and their ends, reported to the next server, are
        ignored there. ``wom-tui serve`` starts one server and never calls this.
        """
        global _keeping
        if not _keeping:
            _keeping = True
            import atexit

            atexit.register(_end_spares)

    def _adopt_spare(self) -> bool:
        """Take a kept warm parent for this command, if there is one still running (True if taken)."""
        kept = _spares.get(self._command, [])
        while kept:
            spare = kept.pop()
            if spare.proc.poll() is None:
                break
            spare.sock.close()
        else:
            return False
        self._proc, self._sock, self._buffer = spare.proc, spare.sock, spare.buffer
        self.pid = spare.proc.pid
        asyncio.get_running_loop().add_reader(spare.sock.fileno(), self._readable)
        assert self._ready is not None
        self._ready.set_result(None)
        log.info("warm parent pid %s kept from the last server", self.pid)
        return True

    def _keep_spare(self) -> bool:
        """Keep this healthy, idle warm parent for the next server (True if kept: not to be ended)."""
        if not _keeping or self._proc is None or self._sock is None or self._pending or self._fds:
            return False
        if self._ready is None or not self._ready.done() or self._ready.cancelled() or self._proc.poll() is not None:
            return False
        kept = _spares.setdefault(self._command, [])
        if len(kept) >= SPARES_KEPT:
            old = kept.pop(0)
            old.sock.close()  # EOF: it exits; reaped here rather than left a zombie until this process ends
            asyncio.get_running_loop().run_in_executor(None, old.proc.wait)
        kept.append(_Spare(self._proc, self._sock, self._buffer))
        self._proc = self._sock = None
        return True

    @property
    def up(self) -> bool:
        """True while a warm process is ready to fork games (False while one is being started again)."""
        return (
            not self._closing and self._ready is not None and self._ready.done() and not self._ready.cancelled()
            and self._proc is not None and self._proc.poll() is None
        )

    async def start(self) -> None:
        """Start the warm process and wait until it has imported everything."""
        if not become_subreaper():
            log.warning("cannot adopt orphaned games (no PR_SET_CHILD_SUBREAPER): init must reap them")
        self._ready = asyncio.get_running_loop().create_future()
        if not self._adopt_spare():
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
        self._heard = asyncio.get_running_loop().time()
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

    def _watch(self) -> None:
        """While requests wait for an answer: replace a warm parent that has said nothing for too long."""
        self._watchdog = None
        if not self._pending or self._closing or self._proc is None:
            return
        loop = asyncio.get_running_loop()
        deadline = self._heard + self._answer_timeout
        if loop.time() < deadline:
            self._watchdog = loop.call_at(deadline, self._watch)
            return
        log.warning(
            "warm parent pid %s left %d game start(s) unanswered for %.0f s (stopped or hung); replacing it",
            self.pid, len(self._pending), self._answer_timeout,
        )
        try:
            self._proc.kill()  # SIGKILL ends a stopped process too
        except OSError:
            pass
        self._lost()

    def _lost(self) -> None:
        """The warm process went away: fail what waited on it, keep watching its games, start anew."""
        loop = asyncio.get_running_loop()
        if self._watchdog is not None:
            self._watchdog.cancel()
            self._watchdog = None
        if self._sock is not None:
            loop.remove_reader(self._sock.fileno())
            self._sock.close()
            self._sock = None
        for fd in self._fds:
            os.close(fd)
        self._fds = []
        for future in self._pending.values():
            if not future.done():
                future.set_exception(_WarmParentLost("the warm parent ended"))
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
            if self.on_restart is not None:
                self.on_restart()
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
        settings: Settings,
        fingerprint: str | None,
        env: dict[str, str],
        log_fd: int | None = None,
    ) -> WarmChild:
        """Fork a game with ``settings`` on the pty ``slave``, as the verified key ``fingerprint`` (None: a
        guest), with the environment ``env``; ``log_fd`` is the write end of the game's log pipe. The caller
        still closes its copies of ``slave`` and ``log_fd``. OSError if the game cannot be forked.

        Should the warm parent end or be replaced before it answers, the request goes to the next one
        (once: a request that ends two warm parents in a row is refused).
        """
        try:
            return await self._spawn_once(slave, settings, fingerprint, env, log_fd)
        except _WarmParentLost:
            log.info("asking the new warm parent for the game instead")
            return await self._spawn_once(slave, settings, fingerprint, env, log_fd)

    async def _spawn_once(
        self, slave: int, settings: Settings, fingerprint: str | None, env: dict[str, str], log_fd: int | None
    ) -> WarmChild:
        request = {"op": "spawn", "settings": settings.as_json(), "fingerprint": fingerprint, "env": env}
        return self._vouch(await self._ask(request, [slave] if log_fd is None else [slave, log_fd]), key=fingerprint)

    async def spawn_web(
        self, stdin: int, stdout: int, log_fd: int, settings: Settings, name: str | None, env: dict[str, str]
    ) -> WarmChild:
        """Fork a browser tab's game with ``settings``, reading framed input from the pipe ``stdin`` and
        writing framed output to ``stdout`` (Textual's web driver), as the registered ``name`` the tab's
        cookie signs in as (None: a guest). The caller still closes its copies of the three fds.
        """
        request = {"op": "spawn", "transport": "web", "settings": settings.as_json(), "name": name, "env": env}
        return self._vouch(await self._ask(request, [stdin, stdout, log_fd]), name=name)

    async def spawn_hub(self, stdin: int, stdout: int, path: str, env: dict[str, str]) -> WarmChild:
        """Fork the server's hub (:mod:`.hub`) listening at ``path``, reading the server's word on the pipe
        ``stdin`` and saying it is ready on ``stdout``, with the environment ``env``; at once (it does not wait
        behind the games starting). The caller still closes its copies of both fds. OSError if it cannot.
        """
        return await self._ask({"op": "hub", "path": path, "server": os.getpid(), "env": env}, [stdin, stdout])

    def _vouch(self, child: WarmChild, *, key: str | None = None, name: str | None = None) -> WarmChild:
        """Tell the hub who the new game is, as the server verified it (and that it is gone once it ends)."""
        hub = self.hub
        if hub is not None:
            hub.vouch(child.pid, key=key, name=name)
            child._done.add_done_callback(lambda _: hub.forget(child.pid))
        return child

    async def _ask(self, request: Mapping[str, object], fds: list[int]) -> WarmChild:
        """Send a spawn ``request`` with ``fds`` to the warm parent and wait for its child; the watchdog
        replaces a warm parent that does not answer (an SSH game and a browser tab's alike).
        """
        if self._closing:
            raise OSError("the server is shutting down")
        await self.ready()
        assert self._sock is not None
        self._ids += 1
        request = {**request, "id": self._ids, "fds": len(fds)}
        loop = asyncio.get_running_loop()
        future: asyncio.Future[WarmChild] = loop.create_future()
        if not self._pending:
            self._heard = loop.time()  # the warm parent owes nothing yet: its time to answer starts now
        self._pending[self._ids] = future
        data = json.dumps(request).encode() + b"\n"
        try:
            # Small messages on a local socket: the kernel takes them whole.
            socket.send_fds(self._sock, [data], fds)
        except OSError:
            self._pending.pop(self._ids, None)
            raise
        if self._watchdog is None:
            self._watchdog = loop.call_at(self._heard + self._answer_timeout, self._watch)
        return await future

    async def close(self) -> None:
        """Stop the warm process (its games are ended by their sessions, through their terminals)."""
        self._closing = True
        if self._watchdog is not None:
            self._watchdog.cancel()
            self._watchdog = None
        if self._restart_task is not None:
            self._restart_task.cancel()
        loop = asyncio.get_running_loop()
        if self._sock is not None:
            loop.remove_reader(self._sock.fileno())
            if not self._keep_spare():
                self._sock.close()  # EOF: the warm process returns from its loop
                self._sock = None
        proc = self._proc
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
