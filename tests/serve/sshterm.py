"""Helpers for the SSH tests: a pyte-backed SSH terminal, connecting, and reading the store."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from pathlib import Path

import asyncssh
import pyte
from asyncssh.public_key import SSHLocalKeyPair

from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.serve.server import GameServer
from wom_tui.serve.session import GameSession

MENU_TEXT = "Welcome to the World of Mastermind!"
REGISTER_TEXT = "What is the name of the new user?"
WAIT = 30.0
"""Upper bound for any one wait; a loaded 2-core machine starting many games needs room."""


class Terminal(asyncssh.SSHClientSession):
    """A client-side terminal: every byte the server sends is fed to a pyte screen."""

    def __init__(self, columns: int = 80, rows: int = 24) -> None:
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        self._changed = asyncio.Event()
        self.closed = asyncio.Event()
        self.chan: asyncssh.SSHClientChannel | None = None

    def connection_made(self, chan: asyncssh.SSHClientChannel) -> None:  # type: ignore[override]
        self.chan = chan

    muted = False
    """While True, output is read but not drawn (pyte is slow with megabytes of it)."""

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:  # type: ignore[override]
        if self.muted:
            return
        self.raw += data
        self.stream.feed(data)
        self._changed.set()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()
        self._changed.set()

    @property
    def text(self) -> str:
        """What a person would read on the screen right now."""
        return "\n".join(self.screen.display)

    @property
    def lines(self) -> list[str]:
        """The screen's rows."""
        return list(self.screen.display)

    async def wait_until(self, condition: Callable[[Terminal], bool], timeout: float = WAIT) -> None:
        """Wait until ``condition(self)`` holds after some output (fail with the screen after ``timeout``)."""

        async def watch() -> None:
            while not condition(self):
                if self.closed.is_set():
                    raise AssertionError("the session closed while waiting; screen:\n" + self.text)
                self._changed.clear()
                await self._changed.wait()

        try:
            await asyncio.wait_for(watch(), timeout)
        except asyncio.TimeoutError:
            raise AssertionError(f"timed out after {timeout} s; screen:\n{self.text}") from None

    async def settle(self, quiet: float = 0.5, timeout: float = WAIT) -> None:
        """Wait until the game has drawn everything it had to (no output for ``quiet`` seconds)."""

        async def watch() -> None:
            while True:
                self._changed.clear()
                try:
                    await asyncio.wait_for(self._changed.wait(), quiet)
                except asyncio.TimeoutError:
                    return

        await asyncio.wait_for(watch(), timeout)

    async def wait_for_text(self, text: str, timeout: float = WAIT) -> None:
        """Wait until ``text`` is on the screen."""
        await self.wait_until(lambda terminal: text in terminal.text, timeout)

    async def wait_closed(self, timeout: float = WAIT) -> None:
        """Wait until the server closes the channel."""
        await asyncio.wait_for(self.closed.wait(), timeout)

    def type(self, keys: str | bytes) -> None:
        """Send keys as a terminal would."""
        assert self.chan is not None
        self.chan.write(keys.encode() if isinstance(keys, str) else keys)

    def resize(self, columns: int, rows: int) -> None:
        """Resize the local screen and tell the server (a window-change request)."""
        assert self.chan is not None
        self.screen.resize(rows, columns)
        self.chan.change_terminal_size(columns, rows)

    async def register(self, name: str) -> None:
        """From the main menu: press r, type the name, press Enter (then read the answer on screen)."""
        self.type("r")
        await self.wait_for_text(REGISTER_TEXT)
        self.type(name)
        await self.wait_until(lambda terminal: any(name in line for line in terminal.lines))
        self.type("\r")


def new_key() -> asyncssh.SSHKey:
    """A fresh ed25519 key pair, as ``ssh-keygen -t ed25519`` makes."""
    return asyncssh.generate_private_key("ssh-ed25519")


async def connect(
    server: GameServer, username: str = "player", key: asyncssh.SSHKey | None = None, **options: object
) -> asyncssh.SSHClientConnection:
    """An SSH connection to the test server that trusts any host key.

    With ``key`` it signs in with that key only; without, it offers no key and comes in as a
    guest (keyboard-interactive, as ``ssh -o PubkeyAuthentication=no`` does).
    """
    if key is not None:
        options.setdefault("client_keys", [key])
    else:
        options.setdefault("client_keys", None)
        options.setdefault("password", "")  # lets asyncssh answer keyboard-interactive (no prompt is asked)
    return await asyncio.wait_for(
        asyncssh.connect(
            "127.0.0.1",
            server.port,
            username=username,
            known_hosts=None,
            **{"agent_path": None, **options},
        ),
        WAIT,
    )


async def open_terminal(
    conn: asyncssh.SSHClientConnection, columns: int = 80, rows: int = 24, term: str = "xterm-256color"
) -> Terminal:
    """Open a shell session with a pty of the given size, as ``ssh -t`` does."""
    _chan, terminal = await conn.create_session(
        lambda: Terminal(columns, rows), term_type=term, term_size=(columns, rows), encoding=None
    )
    return terminal


def registered_names(data_dir: Path) -> set[str]:
    """The names in the shared store, read as a fresh process would."""
    return {user.name for user in Store(data_dir).users()}


ServerFactory = Callable[..., Awaitable[GameServer]]


class Impostor(SSHLocalKeyPair):
    """An attacker's key pair: it offers ``victim``'s *public* key, and signs with ``signer`` (None: cannot sign).

    Offering a key never proves holding it; only a signature does.
    """

    def __init__(self, victim: asyncssh.SSHKey, signer: asyncssh.SSHKey | None = None) -> None:
        public_only = asyncssh.import_public_key(victim.export_public_key())
        # asyncssh 2.20 added a fourth argument (the encrypted key kept for a later unlock).
        later = (None,) * (len(inspect.signature(SSHLocalKeyPair.__init__).parameters) - 4)
        super().__init__(public_only, None, None, *later)
        self._signer = signer

    def sign(self, data: bytes) -> bytes:
        if self._signer is None:
            raise ValueError("the attacker does not hold this key")
        return self._signer.sign(data, self._signer.sig_algorithms[0])


def newest_session(server: GameServer) -> GameSession:
    """The server's side of the session that started last."""
    return max(server.sessions, key=lambda session: session.started_at)


def game_fingerprint(session: GameSession) -> str | None:
    """The key the server told the session's game it plays as (None: a guest), in its spawn request."""
    assert session.pid is not None
    return session.game_fingerprint
