"""A fleet on one machine: ``wom-tui serve`` processes on their own ports (stand-ins for hosts) sharing one
PostgreSQL database and one host key, and SSH clients that trust that one key.

Used by tests/serve/test_two_servers.py and bench/two_servers.py.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
from collections.abc import Awaitable
from pathlib import Path

import asyncssh

from .sshterm import MENU_TEXT, WAIT, Terminal, open_terminal


class ServeProcess:
    """One ``python -m wom_tui serve`` on 127.0.0.1 at a free port; its log lines are kept in ``log``."""

    def __init__(self, process: asyncio.subprocess.Process, port: int, log: list[str], reader: asyncio.Task) -> None:
        self.process = process
        self.port = port
        self.log = log
        self._reader = reader

    @classmethod
    async def start(cls, data_dir: Path, host_key: Path, *options: str, env: dict[str, str] | None = None) -> ServeProcess:
        """Start a server with ``options`` (``--store`` or ``WOM_STORE`` in ``env`` say where the arcade is)."""
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "wom_tui", "serve", "--port", "0", "--data-dir", str(data_dir),
            "--host-key", str(host_key), *options,
            stderr=asyncio.subprocess.PIPE, env={**os.environ, **(env or {})},
        )
        assert process.stderr is not None
        log: list[str] = []
        listening: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        async def read() -> None:
            # Read every line for as long as the server runs: a full pipe would block its logging.
            assert process.stderr is not None
            while line := (await process.stderr.readline()).decode(errors="replace"):
                log.append(line)
                if not listening.done() and (match := re.search(r"listening on 127\.0\.0\.1:(\d+)", line)):
                    listening.set_result(int(match.group(1)))
            if not listening.done():
                listening.set_exception(AssertionError("the server exited before listening:\n" + "".join(log)))

        reader = asyncio.create_task(read())
        try:
            port = await asyncio.wait_for(listening, WAIT)
        except BaseException:
            if process.returncode is None:
                process.kill()
            await process.wait()
            raise
        return cls(process, port, log, reader)

    async def stop(self) -> None:
        """SIGTERM, as an operator's service manager would; killed if it does not stop in time."""
        if self.process.returncode is None:
            self.process.terminate()
            try:
                await asyncio.wait_for(self.process.wait(), WAIT)
            except asyncio.TimeoutError:
                self.process.kill()
                await self.process.wait()
        await self._reader


async def start_together(*starting: Awaitable[ServeProcess]) -> list[ServeProcess]:
    """Start servers at once (each takes a second or more to be ready); if one fails, the others are
    stopped and its failure raised."""
    results = await asyncio.gather(*starting, return_exceptions=True)
    failures = [result for result in results if isinstance(result, BaseException)]
    for result in results:
        if failures and isinstance(result, ServeProcess):
            await result.stop()
    if failures:
        raise failures[0]
    return [result for result in results if isinstance(result, ServeProcess)]


def make_host_key(path: Path) -> asyncssh.SSHKey:
    """The one host key every server of the fleet presents (a copy of one file, mode 0600)."""
    key = asyncssh.generate_private_key("ssh-ed25519")
    path.write_bytes(key.export_private_key())
    path.chmod(0o600)
    return key


async def connect(port: int, username: str, key: asyncssh.SSHKey, host_key: asyncssh.SSHKey
                  ) -> asyncssh.SSHClientConnection:
    """An SSH connection signing in with ``key`` that trusts only ``host_key`` (as a player's known_hosts)."""
    trusted = asyncssh.import_public_key(host_key.export_public_key())
    return await asyncio.wait_for(
        asyncssh.connect("127.0.0.1", port, username=username, client_keys=[key], known_hosts=([trusted], [], []),
                         agent_path=None),
        WAIT,
    )


async def to_lobby(terminal: Terminal) -> None:
    """From the main menu to the lobby."""
    await terminal.wait_for_text(MENU_TEXT)
    terminal.type("l")
    await terminal.wait_for_text("Lobby: play together")


def seat_row(terminal: Terminal, name: str) -> str:
    """The table's row of ``name`` (the seats list shows "N. name ..."), or ""."""
    for line in terminal.lines:
        if f". {name}" in line:
            return line
    return ""


async def sit_down_together(maker: Terminal, maker_name: str, joiner: Terminal, joiner_name: str) -> None:
    """Both in the lobby: the maker opens a two-seat table, the joiner sits, the maker starts."""
    maker.type("n")
    await maker.wait_for_text("Open a table")
    maker.type("\r")  # "Open table" is focused first: two seats, the usual rules
    await maker.wait_for_text("Wait for players")
    await joiner.wait_for_text(f"{maker_name}'s table")
    joiner.type("\r")
    await joiner.wait_for_text("press s to sit")
    joiner.type("s")
    await maker.wait_until(lambda t: joiner_name in seat_row(t, joiner_name))
    await maker.wait_for_text("press g to start")
    maker.type("g")


async def open_session(port: int, username: str, key: asyncssh.SSHKey, host_key: asyncssh.SSHKey
                       ) -> tuple[asyncssh.SSHClientConnection, Terminal]:
    """Connect and open an 80×24 terminal."""
    conn = await connect(port, username, key, host_key)
    return conn, await open_terminal(conn)


__all__ = ["ServeProcess", "connect", "make_host_key", "open_session", "seat_row", "sit_down_together",
           "start_together", "to_lobby"]
