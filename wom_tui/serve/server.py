"""The SSH server: host key, authentication, refusals, the seat cap, and clean shutdown."""

from __future__ import annotations

import argparse
import asyncio
import itertools
import logging
import os
import random
import secrets
import signal
import stat
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import asyncssh

from ..options import Options
from .session import SHUTTING_DOWN, GameSession, describe_seconds
from .warm import WarmChild, WarmParent

log = logging.getLogger("wom_tui.serve")

HOST_KEY_NAME = "ssh_host_ed25519_key"
GAME_COMMAND = (sys.executable, "-m", "wom_tui.serve.child")


class ServeError(Exception):
    """The server cannot start; the message says why in words for the person who started it."""


@dataclass(frozen=True)
class ServeConfig:
    """Everything ``wom-tui serve`` was asked for."""

    data_dir: Path
    seed: int
    host: str = "127.0.0.1"
    port: int = 2222
    max_sessions: int = 32
    idle_timeout: float = 600.0
    host_key: Path | None = None
    authorized_keys: Path | None = None
    debug: bool = False
    game_command: Sequence[str] = GAME_COMMAND
    """The program each session runs, before its options (the real game unless a test says otherwise)."""

    @classmethod
    def from_args(cls, args: argparse.Namespace, options: Options) -> ServeConfig:
        """Build the configuration from the parsed ``serve`` command line."""
        return cls(
            data_dir=Path(options.data_dir).absolute(),
            seed=options.seed,
            host=args.host,
            port=args.port,
            max_sessions=args.max_sessions,
            idle_timeout=args.idle_timeout,
            host_key=Path(args.host_key).expanduser() if args.host_key else None,
            authorized_keys=Path(args.authorized_keys).expanduser() if args.authorized_keys else None,
            debug=options.debug,
        )

    @property
    def host_key_path(self) -> Path:
        """``--host-key``, else ``ssh_host_ed25519_key`` in the data folder."""
        return self.host_key if self.host_key is not None else self.data_dir / HOST_KEY_NAME


def load_or_create_host_key(path: Path) -> asyncssh.SSHKey:
    """Read the host key at ``path``, or make an ed25519 key there (mode 0600 from the first byte).

    The new key is written to a private temporary file and hard-linked into place, so a
    reader never sees half a key and two servers starting at once end up sharing one.
    """
    try:
        key = asyncssh.read_private_key(path)
    except FileNotFoundError:
        pass
    except (OSError, asyncssh.KeyImportError, ValueError) as exc:
        raise ServeError(f"cannot read the host key {path}: {exc}") from exc
    else:
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & 0o077:
            log.warning("host key %s is readable by others (mode %o); chmod 600 it", path, mode)
        return key

    path.parent.mkdir(parents=True, exist_ok=True)
    key = asyncssh.generate_private_key("ssh-ed25519", comment="wom-tui host key")
    temp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(key.export_private_key())
            file.flush()
            os.fsync(file.fileno())
        try:
            os.link(temp, path)
        except FileExistsError:
            return load_or_create_host_key(path)
        except OSError:
            os.replace(temp, path)  # a filesystem without hard links: still atomic, just not exclusive
    finally:
        temp.unlink(missing_ok=True)
    _fsync_folder(path.parent)
    log.info("made a new host key %s", path)
    return key


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class _Visitor(asyncssh.SSHServer):
    """One client connection: authentication policy and refusal of everything but sessions."""

    def __init__(self, server: GameServer) -> None:
        self._server = server
        self._number = next(server._connection_numbers)
        self._session_numbers = itertools.count(1)
        self._sessions: list[GameSession] = []
        self._peer = "?"
        self._conn: asyncssh.SSHServerConnection | None = None
        self._idle_handle: asyncio.TimerHandle | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        """Log the newcomer."""
        self._conn = conn
        peer = conn.get_extra_info("peername") or ("?", 0)
        self._peer = f"{peer[0]}:{peer[1]}"
        self._server._connections.add(conn)
        log.info("connection #%d from %s", self._number, self._peer)

    def connection_lost(self, exc: Exception | None) -> None:
        """Log the departure."""
        if self._conn is not None:
            self._server._connections.discard(self._conn)
        if self._idle_handle is not None:
            self._idle_handle.cancel()
        log.info("connection #%d closed%s", self._number, f" ({exc})" if exc else "")

    def begin_auth(self, username: str) -> bool:
        """Public arcade: no authentication, unless ``--authorized-keys`` restricts who may play."""
        log.info("connection #%d: user %r", self._number, username)
        return self._server.config.authorized_keys is not None

    def public_key_auth_supported(self) -> bool:
        """Keys are the only way in when ``--authorized-keys`` is given."""
        return self._server.config.authorized_keys is not None

    def auth_completed(self) -> None:
        """Note the successful sign-in."""
        log.info("connection #%d: signed in", self._number)
        self._arm_idle()

    def _arm_idle(self) -> None:
        timeout = self._server.config.idle_timeout
        if timeout and timeout > 0:
            self._idle_handle = asyncio.get_running_loop().call_later(timeout, self._check_idle)

    def _check_idle(self) -> None:
        """Close a connection that holds no game (``ssh -N``, or one left open after its game)."""
        self._sessions = [session for session in self._sessions if not session.closed.is_set()]
        if any(session.running for session in self._sessions):
            self._arm_idle()
        elif self._conn is not None:
            idle = describe_seconds(self._server.config.idle_timeout)
            log.info("connection #%d: no game for %s, closing", self._number, idle)
            self._conn.close()

    def session_requested(self) -> GameSession:
        """Every session is a game session (it refuses exec and subsystems itself)."""
        session = GameSession(self._server, f"session #{self._number}.{next(self._session_numbers)}")
        self._sessions.append(session)
        return session

    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str, orig_port: int) -> bool:
        """Refuse local port forwarding (ssh -L)."""
        log.info("connection #%d: port forwarding to %s:%d refused", self._number, dest_host, dest_port)
        return False

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        """Refuse remote port forwarding (ssh -R)."""
        log.info("connection #%d: remote forwarding from %s:%d refused", self._number, listen_host, listen_port)
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        """Refuse forwarding to UNIX sockets."""
        log.info("connection #%d: socket forwarding refused", self._number)
        return False

    def unix_server_requested(self, listen_path: str) -> bool:
        """Refuse remote forwarding from UNIX sockets."""
        log.info("connection #%d: remote socket forwarding refused", self._number)
        return False


class GameServer:
    """Hosts wom-tui for SSH clients: ``await start()``, then ``port``; ``await close()`` ends every game."""

    def __init__(self, config: ServeConfig) -> None:
        self.config = config
        self._rng = random.Random(config.seed)
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self._connections: set[asyncssh.SSHServerConnection] = set()
        self._connection_numbers = itertools.count(1)
        self._seated: set[GameSession] = set()
        self._ended: list[asyncio.Task[None]] = []
        self.host_key: asyncssh.SSHKey | None = None
        self.warm = WarmParent()
        """The warm parent that forks each session's game (warm.py)."""

    async def start(self) -> None:
        """Start the warm parent, load or make the host key and listen (raises ServeError if that fails)."""
        # First, so that it could not hold the host key even if it were forked rather than exec'd.
        try:
            await self.warm.start()
        except OSError as exc:
            raise ServeError(f"cannot start the game processes' parent: {exc}") from exc
        try:
            self.host_key = load_or_create_host_key(self.config.host_key_path)
        except OSError as exc:
            raise ServeError(f"cannot make the host key {self.config.host_key_path}: {exc.strerror or exc}") from exc
        authorized = None
        if self.config.authorized_keys is not None:
            try:
                authorized = asyncssh.read_authorized_keys(str(self.config.authorized_keys))
            except (OSError, ValueError, asyncssh.KeyImportError) as exc:
                raise ServeError(f"cannot read the authorized keys {self.config.authorized_keys}: {exc}") from exc
        try:
            self._acceptor = await asyncssh.create_server(
                lambda: _Visitor(self),
                self.config.host,
                self.config.port,
                server_host_keys=[self.host_key],
                authorized_client_keys=authorized,
                encoding=None,
                line_editor=False,
                agent_forwarding=False,
                x11_forwarding=False,
                login_timeout=60,
                keepalive_interval=30,
                keepalive_count_max=4,
            )
        except OSError as exc:
            raise ServeError(f"cannot listen on {self.config.host}:{self.config.port}: {exc.strerror or exc}") from exc
        log.info(
            "listening on %s:%d, host key %s, %s",
            self.config.host, self.port, self.fingerprint,
            "public arcade (anyone may play)" if authorized is None else f"keys from {self.config.authorized_keys}",
        )

    @property
    def port(self) -> int:
        """The port actually listened on (useful with port 0)."""
        assert self._acceptor is not None, "start() first"
        return self._acceptor.get_port()

    @property
    def fingerprint(self) -> str:
        """The host key's SHA256 fingerprint, as ssh shows it."""
        assert self.host_key is not None, "start() first"
        return self.host_key.get_fingerprint()

    @property
    def sessions(self) -> list[GameSession]:
        """The sessions currently holding a seat."""
        return list(self._seated)

    def take_seat(self, session: GameSession) -> bool:
        """Seat a session unless all ``max_sessions`` seats are taken."""
        if len(self._seated) >= self.config.max_sessions:
            return False
        self._seated.add(session)
        return True

    def leave_seat(self, session: GameSession) -> None:
        """Free a session's seat."""
        self._seated.discard(session)

    def next_seed(self) -> int:
        """A seed for the next session, drawn from the server's seed (so ``--seed`` replays a server)."""
        return self._rng.randrange(2**32)

    async def start_game(
        self, slave: int, argv: Sequence[str], env: dict[str, str], identity: object = None
    ) -> asyncio.subprocess.Process | WarmChild:
        """Start one session's game on the pty ``slave``: forked by the warm parent, or ``argv`` run as is
        when a test gave its own ``game_command``."""
        if tuple(self.config.game_command) == GAME_COMMAND:
            options = list(argv[len(GAME_COMMAND):])
            return await self.warm.spawn(slave, options, env, identity=identity)
        return await asyncio.create_subprocess_exec(
            *argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True
        )

    def game_command(self, seed: int) -> list[str]:
        """The command line of one session's game process."""
        argv = [*self.config.game_command, "--data-dir", str(self.config.data_dir), "--seed", str(seed)]
        if self.config.debug:
            argv.append("--debug")
        argv.append("--served")
        return argv

    async def close(self) -> None:
        """Stop listening, end every game (telling its player), and close every connection."""
        if self._acceptor is not None:
            self._acceptor.close()
        sessions = list(self._seated)
        for session in sessions:
            session.end("server shutting down", SHUTTING_DOWN)
        tasks = [session.task for session in sessions if session.task is not None]
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        # Let the farewells and exit statuses reach the clients before the connections go.
        if sessions:
            await asyncio.wait([asyncio.ensure_future(session.closed.wait()) for session in sessions], timeout=5)
        for conn in list(self._connections):
            conn.close()
        for conn in list(self._connections):
            await conn.wait_closed()
        if self._acceptor is not None:
            await self._acceptor.wait_closed()
            self._acceptor = None
        await self.warm.close()


async def serve_until_stopped(config: ServeConfig) -> int:
    """Serve until SIGINT, SIGTERM or SIGHUP, then shut down cleanly; return the exit status."""
    server = GameServer(config)
    try:
        await server.start()
    except ServeError as exc:
        log.error("%s", exc)
        return 1
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(signum, stop.set)
    print(
        f"wom-tui serve: play with  ssh -p {server.port} -o StrictHostKeyChecking=accept-new "
        f"{'localhost' if config.host in ('127.0.0.1', 'localhost', '::1') else config.host}   (Ctrl-C stops)",
        file=sys.stderr,
        flush=True,
    )
    await stop.wait()
    log.info("shutting down: ending %d session(s)", len(server.sessions))
    await server.close()
    log.info("stopped")
    return 0


def quiet_asyncssh(record: logging.LogRecord) -> bool:
    """Log filter: of asyncssh's INFO chatter keep only its refusals (agent, X11, pty forwarding).

    The rest repeats what our own log says, and some of it (exec command lines) is what
    a client typed, which the server does not log.
    """
    if not record.name.startswith("asyncssh") or record.levelno >= logging.WARNING:
        return True
    return "request denied" in str(record.msg)


def run_server(args: argparse.Namespace, options: Options) -> int:
    """Entry point for ``wom-tui serve``: log to stderr, serve, and return the exit status."""
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stderr
    )
    for handler in logging.getLogger().handlers:
        handler.addFilter(quiet_asyncssh)
    return asyncio.run(serve_until_stopped(ServeConfig.from_args(args, options)))
