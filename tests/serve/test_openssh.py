"""The same identity rules with the OpenSSH client a player really uses (`ssh`), on a pty read by pyte."""

from __future__ import annotations

import asyncio
import fcntl
import os
import struct
import termios
from pathlib import Path

import asyncssh
import pyte

from wom_tui.serve.server import GameServer

from .sshterm import MENU_TEXT, WAIT, ServerFactory, new_key


class OpenSSH:
    """``ssh -tt`` on its own pseudo-terminal; what it prints is drawn on a pyte screen."""

    def __init__(self, server: GameServer, *options: str) -> None:
        self.server = server
        self.options = options
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.changed = asyncio.Event()
        self.process: asyncio.subprocess.Process | None = None
        self.master = -1

    async def __aenter__(self) -> OpenSSH:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.process = await asyncio.create_subprocess_exec(
            "ssh", "-tt", "-F", "/dev/null", "-p", str(self.server.port),
            "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR",
            "-o", "IdentityAgent=none", "-o", "IdentitiesOnly=yes", *self.options, "player@127.0.0.1",
            stdin=slave, stdout=slave, stderr=slave, start_new_session=True,
            env={**os.environ, "TERM": "xterm-256color"},
        )
        os.close(slave)
        os.set_blocking(self.master, False)
        asyncio.get_running_loop().add_reader(self.master, self._read)
        return self

    def _read(self) -> None:
        try:
            data = os.read(self.master, 65536)
        except (BlockingIOError, OSError):
            data = b""
        if data:
            self.stream.feed(data)
        else:
            asyncio.get_running_loop().remove_reader(self.master)
        self.changed.set()

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def wait_for_text(self, text: str) -> None:
        async def watch() -> None:
            while text not in self.text:
                self.changed.clear()
                await self.changed.wait()

        try:
            await asyncio.wait_for(watch(), WAIT)
        except asyncio.TimeoutError:
            raise AssertionError(f"{text!r} not shown; screen:\n{self.text}") from None

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    async def __aexit__(self, *exc: object) -> None:
        asyncio.get_running_loop().remove_reader(self.master)
        if self.process is not None and self.process.returncode is None:
            self.process.kill()
            await self.process.wait()
        os.close(self.master)


def key_file(folder: Path, key: asyncssh.SSHKey) -> str:
    path = folder / "id_ed25519"
    path.write_bytes(key.export_private_key())
    path.chmod(0o600)
    return str(path)


async def test_openssh_registers_with_a_key_and_plays_as_a_guest_without_one(
    start_server: ServerFactory, tmp_path: Path
) -> None:
    server = await start_server()
    identity = key_file(tmp_path, new_key())

    async with OpenSSH(server, "-i", identity) as ssh:
        await ssh.wait_for_text(MENU_TEXT)
        ssh.type("r")
        await ssh.wait_for_text("What is the name of the new user?")
        ssh.type("Olga\r")
        await ssh.wait_for_text("This key now signs in as Olga.")

    async with OpenSSH(server, "-o", "PubkeyAuthentication=no") as ssh:
        await ssh.wait_for_text("Playing as a guest")
        assert "Olga" not in ssh.text

    async with OpenSSH(server, "-i", identity) as ssh:
        await ssh.wait_for_text("Welcome back, Olga!")
