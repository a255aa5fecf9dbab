"""The SSH server: host key, who you are (a key, or a guest), refusals, the caps, and clean shutdown.

Identity (docs/serve.md): every client authenticates. Any public key is welcome, but asyncssh asks
:meth:`_Visitor.validate_public_key` about *unsigned offers* too, so that hook only notes the
key as the candidate; every other way in (keyboard-interactive, which admits guests) forgets it,
and the identity is fixed in :meth:`_Visitor.auth_completed`, which asyncssh calls in the same
step as verifying the signature of the request that succeeded. So offering someone else's key
unsigned and then signing with your own (GHSA-pchf-49fh-w34r), or failing with a key and then
going in by keyboard-interactive (CVE-2023-43809), leaves you as yourself or a guest. The game
gets the fingerprint from the server, never from anything the client sends (user name, environment).
"""

from __future__ import annotations

import asyncio
import ipaddress
import itertools
import logging
import os
import random
import secrets
import signal
import stat
from dataclasses import replace
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import asyncssh

from ..settings import Settings, open_store
from .events import Events, Who, extra
from .logsafe import RateLimitedLog, clean, log_formatter
from .health import HealthServer
from .metrics import Metrics
from .moderation import ModerationWatch, moderation_fields
from .session import SHUTTING_DOWN, GameSession, describe_seconds
from .hub import HubProcess
from .warmparent import WARM_COMMAND, WarmChild, WarmParent
from .descriptors import descriptor_limit as _descriptor_limit
from .descriptors import raise_descriptor_limit

if TYPE_CHECKING:
    from ..domain.store.api import Store
    from .web import WebDoor

log = logging.getLogger("wom_tui.serve")



def network_of(host: str) -> str:
    """The network ``host`` counts in for ``max_per_network``: its IPv4 /24 or IPv6 /64 (an IPv4 address
    mapped into IPv6 counts as IPv4); ``host`` itself if it is not an address.

    One person can hold many addresses of one network (a /64 is what one IPv6 customer gets; a VPS has
    a handful of IPv4 addresses side by side), but rarely many networks.
    """
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])  # an IPv6 zone (fe80::1%eth0) is not the network
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    prefix = 24 if address.version == 4 else 64
    return str(ipaddress.ip_network(f"{address}/{prefix}", strict=False))


class ServeError(Exception):
    """The server cannot start; the message says why in words for the person who started it."""


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


def read_operator_keys(paths: Sequence[Path]) -> asyncssh.SSHAuthorizedKeys | None:
    """``--operator-key`` files (OpenSSH authorized_keys format, options such as ``from="…"`` included), read
    with asyncssh's own reader; None without any; ServeError naming the file if one is missing or holds no key.
    """
    if not paths:
        return None
    for path in paths:
        try:
            path.read_bytes()
        except OSError as exc:
            raise ServeError(f"cannot read the operator keys {path}: {exc.strerror or exc}") from exc
        try:
            asyncssh.read_authorized_keys(str(path))
        except (ValueError, asyncssh.KeyImportError) as exc:
            raise ServeError(f"cannot read the operator keys {path}: {exc} (expected OpenSSH authorized_keys lines, "
                             "such as a line of ~/.ssh/id_ed25519.pub)") from exc
    return asyncssh.read_authorized_keys([str(path) for path in paths])


def is_operator_key(operators: asyncssh.SSHAuthorizedKeys | None, key: asyncssh.SSHKey, address: str) -> bool:
    """True if ``key`` (one whose signature the server verified) is an operator's from ``address``: listed in
    ``--operator-key`` and allowed there by the line's ``from="…"`` option, if it has one.
    """
    return operators is not None and operators.validate(key, address, address) is not None


class _Visitor(asyncssh.SSHServer):
    """One client connection: authentication, identity, and refusal of everything but sessions."""

    def __init__(self, server: GameServer) -> None:
        self._server = server
        self._number = next(server._connection_numbers)
        self._session_numbers = itertools.count(1)
        self._sessions: list[GameSession] = []
        self.host = "?"
        self._peer = "?"
        self._conn: asyncssh.SSHServerConnection | None = None
        self._idle_handle: asyncio.TimerHandle | None = None
        self._candidate: asyncssh.SSHKey | None = None
        """The key of the public-key request being checked; only auth_completed makes it the identity."""
        self.authenticated = False
        self.fingerprint: str | None = None
        """The verified key's SHA256 fingerprint once signed in with a key; None for a guest."""
        self.operator = False
        """Signed in with a key of ``--operator-key`` (the verified key, judged by asyncssh's reader)."""

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        """Count the newcomer among the connections still signing in (dropping the oldest if too many)."""
        self._conn = conn
        peer = conn.get_extra_info("peername") or ("?", 0)
        self.host = str(peer[0])
        self._peer = f"{clean(self.host)}:{peer[1]}"
        self._server._connections.add(conn)
        self._server.admit(self)
        # asyncssh ignores its transport's pause_writing, and the SSH window is whatever the client
        # asks for (up to 4 GiB): a client that never reads would make the server buffer the game's
        # output without end. These hooks stop reading the game's output while the socket is full.
        self.transport_paused = False
        conn.pause_writing = self._transport_full  # type: ignore[method-assign]
        conn.resume_writing = self._transport_drained  # type: ignore[method-assign]

    def _transport_full(self) -> None:
        self.transport_paused = True
        for session in self._sessions:
            session.pause_output()

    def _transport_drained(self) -> None:
        self.transport_paused = False
        for session in self._sessions:
            session.resume_output()

    def connection_lost(self, exc: Exception | None) -> None:
        """Log a player's departure; only count one that never signed in."""
        if self._conn is not None:
            self._server._connections.discard(self._conn)
        self._server.forget(self)
        if self._idle_handle is not None:
            self._idle_handle.cancel()
        if self.authenticated:
            log.info("connection #%d closed%s", self._number, f" ({clean(str(exc))})" if exc else "")
        else:
            self._server.unauthenticated_closed.note()
            self._server.events.sign_in_abandoned()

    def drop(self) -> None:
        """Close a connection that has not signed in (to make room for newer ones)."""
        if self._conn is not None:
            self._conn.abort()

    # -- authentication -------------------------------------------------------------------------

    def begin_auth(self, username: str) -> bool:
        """Everyone authenticates: with a key, or as a guest through keyboard-interactive."""
        self._candidate = None
        return True

    def public_key_auth_supported(self) -> bool:
        """Keys are how players are known."""
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        """Any key may try (unless ``--authorized-keys`` restricts them); asyncssh then checks its signature.

        asyncssh calls this for unsigned offers too, so it only notes the candidate: the
        identity is fixed in :meth:`auth_completed`.
        """
        self._candidate = None
        authorized = self._server.authorized_keys
        if authorized is not None and authorized.validate(key, self.host, self.host) is None:
            return False
        self._candidate = key
        return True

    def host_based_auth_supported(self) -> bool:
        """No host-based authentication."""
        return False

    def password_auth_supported(self) -> bool:
        """No passwords: keys, or guests."""
        return False

    def kbdint_auth_supported(self) -> bool:
        """Keyboard-interactive without questions is the guests' way in (not with ``--authorized-keys``)."""
        return self._server.authorized_keys is None

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        """A guest: no prompts, straight in, and no key from an earlier attempt carries over."""
        self._candidate = None
        return True

    def validate_kbdint_response(self, username: str, responses: object) -> bool:
        """Never reached (no prompts are asked); a guest either way."""
        self._candidate = None
        return True

    def auth_completed(self) -> None:
        """Fix the identity: the key whose signature asyncssh just verified, else a guest."""
        key, self._candidate = self._candidate, None
        self.fingerprint = key.get_fingerprint() if key is not None else None
        self.operator = key is not None and is_operator_key(self._server.operator_keys, key, self.host)
        self.authenticated = True
        self._server.forget(self)
        self._server.events.signed_in(
            Who(f"{self._number}", clean(self.host), self.fingerprint, operator=self.operator), self._number, self._peer)
        self._arm_idle()

    def _arm_idle(self) -> None:
        timeout = self._server.settings.idle_timeout
        if timeout and timeout > 0:
            self._idle_handle = asyncio.get_running_loop().call_later(timeout, self._check_idle)

    def _check_idle(self) -> None:
        """Close a connection that holds no game (``ssh -N``, or one left open after its game)."""
        self._sessions = [session for session in self._sessions if not session.closed.is_set()]
        if any(session.running for session in self._sessions):
            self._arm_idle()
        elif self._conn is not None:
            idle = describe_seconds(self._server.settings.idle_timeout)
            log.info("connection #%d: no game for %s, closing", self._number, idle)
            self._conn.close()

    def session_requested(self) -> GameSession:
        """Every session is a game session (it refuses exec and subsystems itself)."""
        label = f"session #{self._number}.{next(self._session_numbers)}"
        session = GameSession(self._server, label, self.host, self.fingerprint, operator=self.operator)
        session.transport_paused = self.transport_paused
        self._sessions.append(session)
        return session

    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str, orig_port: int) -> bool:
        """Refuse local port forwarding (ssh -L)."""
        log.info("connection #%d: port forwarding to %s:%d refused", self._number, clean(dest_host), dest_port)
        return False

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        """Refuse remote port forwarding (ssh -R)."""
        log.info("connection #%d: remote forwarding from %s:%d refused", self._number, clean(listen_host), listen_port)
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

    def __init__(self, settings: Settings, *, warm_command: Sequence[str] | None = WARM_COMMAND) -> None:
        self.hub: HubProcess | None = None
        """The hub that owns the store for every session (docs/arcade.md, *The hub*); None: a server for tests
        that opens no game, or ``--no-hub``."""
        if settings.hub and warm_command is not None:
            self.hub = HubProcess(settings)
            settings = replace(settings, hub_socket=self.hub.path)  # the games', and the server's own, store
        self.settings = settings
        self._rng = random.Random(settings.seed)
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self._connections: set[asyncssh.SSHServerConnection] = set()
        self._connection_numbers = itertools.count(1)
        self._seated: set[GameSession] = set()
        self._ended: list[asyncio.Task[None]] = []
        self._signing_in: dict[_Visitor, None] = {}
        """Connections still signing in, oldest first."""
        self.host_key: asyncssh.SSHKey | None = None
        self.authorized_keys: asyncssh.SSHAuthorizedKeys | None = None
        self.operator_keys: asyncssh.SSHAuthorizedKeys | None = None
        """``--operator-key``: a session signed in with one of these gets the Operator screen."""
        self.dropped = RateLimitedLog(
            log, "dropped %d connection(s) that had not signed in, to make room (at most %d signing in, %d per address)"
        )
        self.unauthenticated_closed = RateLimitedLog(log, "%d connection(s) closed without signing in", level=logging.INFO)
        self.warm = WarmParent(warm_command, settings.warm_answer_timeout) if warm_command is not None else None
        if self.warm is not None:
            self.warm.hub = self.hub  # told who each game is (the hub checks the seats its moves name)
            if self.hub is not None:
                self.hub.warm = self.warm  # which forks it
        self.moderation = ModerationWatch(settings, lambda: list(self._seated), events=lambda: self.events)
        """Bans and retired names: who is turned away at sign-in, and whose open session is ended."""
        """The warm parent that forks each session's game (None: a server for tests that open no game,
        which then spares the warm parent's start, about 0.6 CPU-seconds)."""
        self.metrics: Metrics | None = Metrics() if settings.metrics else None
        """The Prometheus series (``--metrics``; None when off)."""
        self.events = Events(self.metrics)
        """Where sign-ins, refusals, sessions and what the games report are logged and counted."""
        self.health: HealthServer | None = None
        """``/metrics``, ``/livez`` and ``/readyz`` (``--metrics``; None when off)."""
        if self.warm is not None:
            self.warm.on_restart = self.events.warm_restarted
        self.web: WebDoor | None = None
        """The browser door (``--web``), whose tabs' games take seats here like SSH sessions."""
        if settings.web:
            from .web import WebDoor

            self.web = WebDoor(self, settings.web)

    @property
    def unauthenticated_caps(self) -> tuple[int, int]:
        """Connections allowed to be signing in, overall and per address.

        ``max_unauthenticated`` and ``max_unauthenticated_per_ip``, but never more than a quarter
        of this process's descriptor limit, so that silent connections cannot use up the
        descriptors players and their games need (256 under ``ulimit -n 1024``).
        """
        overall = min(self.settings.max_unauthenticated, max(8, _descriptor_limit() // 4))
        return overall, max(1, min(self.settings.max_unauthenticated_per_ip, overall))

    def admit(self, visitor: _Visitor) -> None:
        """Count a new connection among those signing in, dropping the oldest beyond the caps."""
        overall, per_ip = self.unauthenticated_caps
        while self._signing_in and len(self._signing_in) >= overall:
            self._drop(next(iter(self._signing_in)))
        same = [other for other in self._signing_in if other.host == visitor.host]
        for other in same[: max(0, len(same) - per_ip + 1)]:
            self._drop(other)
        self._signing_in[visitor] = None

    def _drop(self, visitor: _Visitor) -> None:
        self._signing_in.pop(visitor, None)
        self.dropped.note(*self.unauthenticated_caps)
        visitor.drop()

    def forget(self, visitor: _Visitor) -> None:
        """The connection signed in or left: it no longer counts as signing in."""
        self._signing_in.pop(visitor, None)

    @property
    def signing_in(self) -> int:
        """How many connections are still signing in."""
        return len(self._signing_in)

    async def start(self) -> None:
        """Start the warm parent, load or make the host key and listen (raises ServeError if that fails)."""
        # Before anything starts: a mistyped --operator-key stops the server at once, with the file named.
        self.operator_keys = read_operator_keys(self.settings.operator_keys)
        raise_descriptor_limit()  # every connection and game pipe is a descriptor: the most the system allows
        # Both before the host key is read: neither could hold it, even forked. The warm parent first: it forks
        # the hub, which then shares what both import instead of importing it again.
        try:
            if self.warm is not None:
                await self.warm.start()
        except OSError as exc:
            raise ServeError(f"cannot start the game processes' parent: {exc}") from exc
        if self.hub is not None:
            try:
                await self.hub.start()
            except OSError as exc:
                await self.hub.close()
                if self.warm is not None:
                    await self.warm.close()
                raise ServeError(f"cannot start the hub: {exc}") from exc
        try:
            await self.moderation.start()
            await self._listen()
            if self.metrics is not None:
                self.health = HealthServer(self.settings, self.metrics, self._warm_up)
                try:
                    await self.health.start()
                except OSError as exc:
                    raise ServeError(
                        f"cannot serve the metrics on {self.settings.metrics}: {exc.strerror or exc}") from exc
            if self.web is not None:
                try:
                    await self.web.start()
                except OSError as exc:
                    if self._acceptor is not None:
                        self._acceptor.close()
                    raise ServeError(f"cannot listen for browsers on {self.settings.web}: {exc.strerror or exc}") from exc
        except ServeError:
            if self._acceptor is not None:
                self._acceptor.close()
                self._acceptor = None
            await self.moderation.close()
            if self.hub is not None:  # a server that cannot start leaves no process behind (the hub first:
                await self.hub.close()  # the warm parent, its parent, reports its end)
            if self.warm is not None:
                await self.warm.close()
            raise

    async def _listen(self) -> None:
        """Load or make the host key, read the authorized keys and listen (ServeError if that fails)."""
        try:
            self.host_key = load_or_create_host_key(self.settings.host_key_path)
        except OSError as exc:
            raise ServeError(f"cannot make the host key {self.settings.host_key_path}: {exc.strerror or exc}") from exc
        authorized = None
        if self.settings.authorized_keys is not None:
            try:
                authorized = asyncssh.read_authorized_keys(str(self.settings.authorized_keys))
            except (OSError, ValueError, asyncssh.KeyImportError) as exc:
                raise ServeError(f"cannot read the authorized keys {self.settings.authorized_keys}: {exc}") from exc
        # Checked by _Visitor.validate_public_key rather than handed to asyncssh, which would then
        # skip that hook for listed keys, and the hook is where the candidate identity is noted.
        self.authorized_keys = authorized
        try:
            self._acceptor = await asyncssh.create_server(
                lambda: _Visitor(self),
                self.settings.host,
                self.settings.port,
                server_host_keys=[self.host_key],
                encoding=None,
                line_editor=False,
                agent_forwarding=False,
                x11_forwarding=False,
                gss_host=None,
                password_auth=False,
                login_timeout=self.settings.login_timeout,
                keepalive_interval=15,
                keepalive_count_max=3,
            )
        except OSError as exc:
            raise ServeError(f"cannot listen on {self.settings.host}:{self.settings.port}: {exc.strerror or exc}") from exc
        log.info(
            "listening on %s:%d, host key %s, %s",
            self.settings.host, self.port, self.fingerprint,
            "public arcade (anyone may play)" if authorized is None else f"keys from {self.settings.authorized_keys}",
        )

    def _warm_up(self) -> bool:
        """Whether the warm parent can fork games now (a server without one is always up)."""
        return self.warm is None or self.warm.up

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

    _line_store: Store | None = None

    def line_store(self) -> Store:
        """The store every line-mode session of this server shares (docs/serve.md, *Line mode*): the hub's, as
        every game reaches it, opened once; ``StoreError`` if it cannot be reached now.
        """
        if self._line_store is None:
            self._line_store = open_store(self.settings)
        return self._line_store

    def take_seat(self, session: GameSession) -> str | None:
        """Seat a session, or say why not: ``"full"`` (``max_sessions``), ``"address"`` (``max_per_ip``) or
        ``"network"`` (``max_per_network``: its IPv4 /24 or IPv6 /64, see :func:`network_of`).
        """
        if self.hub is not None and not self.hub.up:
            return "hub"
        if len(self._seated) >= self.settings.max_sessions:
            return "full"
        per_ip = self.settings.max_per_ip
        if per_ip > 0 and sum(1 for other in self._seated if other.host == session.host) >= per_ip:
            return "address"
        per_network = self.settings.max_per_network
        network = network_of(session.host)
        if per_network > 0 and sum(1 for other in self._seated if network_of(other.host) == network) >= per_network:
            return "network"
        self._seated.add(session)
        return None

    def refusal(self, session: GameSession) -> str | None:
        """The line a banned client (its key, its name's or its address) is turned away with, or None."""
        line = self.moderation.refusal(session.fingerprint, session.host, getattr(session, "name", None))
        if line is not None:
            who = getattr(session, "who", None) or Who(None, clean(session.host), session.fingerprint)
            self.events.refused(who, "banned", "moderation: refused %s", moderation_fields(
                fingerprint=session.fingerprint, address=session.host, reason=line), detail=line)
        return line

    def leave_seat(self, session: GameSession) -> None:
        """Free a session's seat."""
        self._seated.discard(session)

    def next_seed(self) -> int:
        """A seed for the next session, drawn from the server's seed (so ``--seed`` replays a server)."""
        return self._rng.randrange(2**32)

    def game_settings(self, seed: int) -> Settings:
        """The settings of one session's game: the server's, served, with the session's own ``seed``."""
        return self.settings.for_session(seed)

    async def start_game(
        self, slave: int, settings: Settings, fingerprint: str | None, env: dict[str, str], *, log_fd: int | None = None
    ) -> WarmChild:
        """Have the warm parent fork one session's game on the pty ``slave``, as the verified key
        ``fingerprint`` (None: a guest); ``log_fd`` (the write end of the game's log pipe) is passed along.
        """
        if self.warm is None:
            raise OSError("this server starts no games")
        return await self.warm.spawn(slave, settings, fingerprint, env, log_fd=log_fd)

    async def close(self) -> None:
        """Stop listening, end every game (telling its player), and close every connection."""
        if self._acceptor is not None:
            self._acceptor.close()
        if self.health is not None:
            await self.health.close()
        await self.moderation.close()
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
        if self.web is not None:
            await self.web.close()
        if self._line_store is not None:
            self._line_store.close()
            self._line_store = None
        if self.hub is not None:
            await self.hub.close()  # before the warm parent, its parent, which reports its end
        if self.warm is not None:
            await self.warm.close()


async def serve_until_stopped(settings: Settings) -> int:
    """Serve until SIGINT, SIGTERM or SIGHUP, then shut down cleanly; return the exit status."""
    server = GameServer(settings)
    try:
        await server.start()
    except ServeError as exc:
        log.error("%s", exc)
        return 1
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(_quiet_exception_handler())
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(signum, stop.set)
    host = 'localhost' if settings.host in ('127.0.0.1', 'localhost', '::1') else settings.host
    ready = [f"wom-tui serve: play with  ssh -p {server.port} -o StrictHostKeyChecking=accept-new {host}   (Ctrl-C stops)"]
    web_url = None
    if server.web is not None:
        web_url = f"http://{server.web.host}:{server.web.port}/"
        ready.append(f"wom-tui serve: or play in a browser at  {web_url}")
    for line in ready:
        if settings.log_format == "json":
            # Every line on stderr is one JSON object for a log shipper, the start-up hint too.
            log.info("%s", line, extra=extra("ready", port=server.port, web=web_url))
        else:
            print(line, file=sys.stderr, flush=True)
    await stop.wait()
    log.info("shutting down: ending %d session(s)", len(server.sessions))
    await server.close()
    log.info("stopped")
    return 0


def _quiet_exception_handler() -> Callable[[asyncio.AbstractEventLoop, dict[str, Any]], None]:
    """The loop's error handler: failed accepts (out of descriptors) are logged once per interval, no traceback."""
    failed_accepts = RateLimitedLog(log, "could not accept %d connection(s): %s")

    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        message = str(context.get("message", ""))
        if "accept" in message:
            exc = context.get("exception")
            failed_accepts.note(clean(str(exc) if exc else message))
        else:
            loop.default_exception_handler(context)

    return handle


def quiet_asyncssh(record: logging.LogRecord) -> bool:
    """Log filter: of asyncssh's INFO chatter keep only its refusals (agent, X11, pty forwarding).

    The rest repeats what our own log says, and some of it (exec command lines) is what
    a client typed, which the server does not log.
    """
    if not record.name.startswith("asyncssh") or record.levelno >= logging.WARNING:
        return True
    return "request denied" in str(record.msg)


def run_server(settings: Settings) -> int:
    """Entry point for ``wom-tui serve``: log to stderr, serve, and return the exit status."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(log_formatter(settings.log_format))
    handler.addFilter(quiet_asyncssh)
    logging.basicConfig(level=logging.INFO, handlers=[handler])
    return asyncio.run(serve_until_stopped(settings))
