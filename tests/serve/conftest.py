"""The SSH tests' fixtures and helpers: game servers on 127.0.0.1, port 0, with data in a temp folder,
``wom-tui serve`` as a real process, and waiting for what no screen output announces."""

from __future__ import annotations

import asyncio
import os
import re
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import pytest_asyncio

from memory_tmp import tmp_path, tmp_path_factory  # data folders in memory: no waiting on fsync (memory_tmp.py)
from wom_tui.serve.server import GameServer
from wom_tui.serve.session import GameSession
from wom_tui.settings import Settings

from .sshterm import WAIT, ServerFactory

__all__ = ["tmp_path", "tmp_path_factory"]


NO_GAME = None
"""``warm_command`` for a server whose test never opens a game (the handshake, the host key, sign-in
time-outs): such a server starts no warm parent, which imports and rehearses the whole game (about
0.6 CPU-seconds each start) only to be closed unused."""


@asynccontextmanager
async def servers_in(tmp_path: Path) -> AsyncIterator[ServerFactory]:
    """A factory of game servers on 127.0.0.1, port 0, data in ``tmp_path``; all are closed at the end."""
    servers: list[GameServer] = []

    async def start(**overrides: object) -> GameServer:
        settings: dict[str, object] = {"data_dir": tmp_path / "data", "seed": 1234, "port": 0}
        settings.update(overrides)
        server_options = {key: settings.pop(key) for key in ("warm_command",) if key in settings}
        server = GameServer(Settings(**settings), **server_options)  # type: ignore[arg-type]
        await server.start()
        servers.append(server)
        return server

    try:
        yield start
    finally:
        for server in servers:
            await asyncio.wait_for(server.close(), WAIT)


@pytest.fixture
async def start_server(tmp_path: Path) -> AsyncIterator[ServerFactory]:
    """Start game servers on 127.0.0.1, port 0, data in a temp folder; all are closed afterwards."""
    async with servers_in(tmp_path) as start:
        yield start


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared_server(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[GameServer]:
    """One game server for a whole test module (tests keep to their own keys, names and sessions, and
    close their connections); mark such tests ``@pytest.mark.asyncio(loop_scope="module")``."""
    server = GameServer(
        Settings(data_dir=tmp_path_factory.mktemp("shared") / "data", seed=4321, port=0, max_per_ip=32, max_per_network=32)
    )
    await server.start()
    yield server
    await asyncio.wait_for(server.close(), WAIT)


def socket_inodes(pid: int | str) -> set[str]:
    """The sockets a process has open (``socket:[inode]``), from /proc."""
    folder = Path(f"/proc/{pid}/fd")
    found = set()
    for entry in folder.iterdir():
        try:
            target = os.readlink(entry)
        except OSError:
            continue
        if target.startswith("socket:"):
            found.add(target)
    return found


async def until(condition: Callable[[], bool], timeout: float = WAIT, every: float = 0.02) -> None:
    """Wait (bounded) for a condition that nothing announces (no screen output, no event to await),
    looking ``every`` so many seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(every)


def process_gone(pid: int) -> bool:
    """True once ``pid`` has exited *and* been reaped (a zombie still answers signal 0)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


async def session_ended(server: GameServer, session: GameSession) -> None:
    """Wait until ``session`` has ended: its game ended and reaped (the server waited for it) and its seat
    freed; then the game's process is gone."""
    assert session.task is not None
    await asyncio.wait_for(asyncio.shield(session.task), WAIT)
    assert session not in server.sessions
    assert session.pid is not None and process_gone(session.pid)


class ServeProcess:
    """``wom-tui serve`` run as a real process (``python -m wom_tui serve --port 0``), its log read line by line."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.log: list[str] = []

    async def read_until(self, pattern: str) -> re.Match[str]:
        """Read the server's log until a line matches ``pattern`` (fail if it ends first, or after WAIT)."""
        stream = self.process.stderr
        assert stream is not None

        async def read() -> re.Match[str]:
            while True:
                line = (await stream.readline()).decode()
                assert line, "server exited early:\n" + "".join(self.log)
                self.log.append(line)
                if match := re.search(pattern, line):
                    return match

        return await asyncio.wait_for(read(), WAIT)

    async def number(self, pattern: str) -> int:
        """The number the next log line matching ``pattern`` (with one group) says."""
        return int((await self.read_until(pattern)).group(1))


@asynccontextmanager
async def serve_process(data_dir: Path) -> AsyncIterator[ServeProcess]:
    """Run ``wom-tui serve`` on a free port with ``data_dir``; killed afterwards if it is still running."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "wom_tui", "serve", "--port", "0", "--data-dir", str(data_dir),
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        yield ServeProcess(process)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
