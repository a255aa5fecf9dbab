"""The settings of a run, in one place: where data lives, the seed, the table rules' pace and grace, and
the server's caps and timeouts. The command line fills them, the server and the app read them, and a
served game receives them from the server as data (:meth:`Settings.as_json`), never as a command line.
"""

from __future__ import annotations

import os
import random
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import platformdirs

from .domain.waits import FILL_AFTER, SEAT_GRACE

if TYPE_CHECKING:
    from .domain.store import Store

DATA_DIR_ENV = "WOM_DATA_DIR"
STORE_ENV = "WOM_STORE"
NO_NOTICES_ENV = "WOM_BENCH_NO_NOTICES"
"""Set (to anything) in the environment, a session starts no notices watcher (screens/notices.py): only for
bench/notices.py to measure what the watcher costs; players lose the notices on other screens with it."""
HOST_KEY_NAME = "ssh_host_ed25519_key"
"""The server's host key in the data folder, unless ``--host-key`` says otherwise."""


OUT_OF_MEMORY_STATUS = 75
"""The exit status of a served game that reached ``game_memory_limit`` (the server says goodbye for it)."""
OUT_OF_MEMORY = ("Sorry, your game used more memory than this server allows and had to stop "
                 "(a paste too long, perhaps). Please connect again.")
"""What its player reads then."""
IDLE_STATUS = 76
"""The exit status of a served game whose player held a seat at a table and made no move there for the idle
timeout (keys that changed nothing): the server says its idle goodbye for it (docs/serve.md, *Idle sessions*)."""


def resolve_data_dir(arg: str | os.PathLike[str] | None) -> Path:
    """``--data-dir`` if given, else ``$WOM_DATA_DIR``, else the platform's user data folder."""
    if arg:
        return Path(arg).expanduser()
    env = os.environ.get(DATA_DIR_ENV)
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir("wom-tui", appauthor=False))


def resolve_store(arg: str | None) -> str | None:
    """``--store`` if given, else ``$WOM_STORE``, else ``None`` (the data folder keeps everything)."""
    return arg or os.environ.get(STORE_ENV) or None


def new_seed() -> int:
    """A fresh seed for a session started without ``--seed`` (kept so it can be shown and replayed)."""
    return random.SystemRandom().randrange(2**32)


_PATHS = ("data_dir", "host_key", "authorized_keys")


@dataclass(frozen=True)
class Settings:
    """One run's settings: the game's (data, seed, debug, pace, grace) and ``wom-tui serve``'s (caps, timeouts)."""

    data_dir: Path
    seed: int
    """The one seed all randomness flows from (a server draws each session's from it)."""
    debug: bool = False
    served: bool = False
    """True when the app runs for an SSH client: nothing may write files on the server."""
    computer_pace: float = 0.7
    """Seconds between a computer player's moves, so a person can follow them (0 in tests)."""
    store: str | None = None
    """A PostgreSQL URL (``--store`` / ``$WOM_STORE``) keeping users and games instead of the data folder."""
    seat_grace: float = SEAT_GRACE
    """Seconds a dropped player keeps their seat at a live table (``--seat-grace``)."""
    fill_after: float = FILL_AFTER
    """Seconds a quick match waits for other players before HAL9000 or VIKI fill the table (``--fill-after``)."""
    bell: bool = True
    """Ring the terminal bell when it's your move (a quick match found, a table starting, your code to set;
    ``--no-bell``; the palette's "Bell" turns it off for a session)."""
    desktop_notify: bool = False
    """Also send a desktop notification (OSC 9 and OSC 777) with the reason (``--notify``; opt-in)."""

    client_address: str | None = None
    """The address a served session's client connected from (set by the server for each session; None
    locally): the lobby's per-address cap on open tables counts by it."""
    max_open_tables_per_address: int = 3
    """Tables opened and not yet started that one client address may hold at once (0: no limit); one
    session holds at most one such table anyway. docs/serve.md, *Caps*."""

    # -- wom-tui serve ----------------------------------------------------------------------------
    host: str = "127.0.0.1"
    port: int = 2222
    max_sessions: int = 32
    max_per_ip: int = 4
    """Sessions one address may hold at once (0: no limit)."""
    max_per_network: int = 8
    """Sessions one network (an IPv4 /24, an IPv6 /64) may hold at once (0: no limit): one client with
    many addresses of its own network cannot take every seat."""
    warm_answer_timeout: float = 5.0
    """Seconds the warm parent may leave a fork request unanswered (nothing heard from it at all) before
    the server logs it and starts a new one (it was stopped, or hangs)."""
    no_guests: bool = False
    """Turn away clients without a key (with one line saying why)."""
    idle_timeout: float = 600.0
    """Seconds without a key press before a session is closed (0: never)."""
    login_timeout: float = 20.0
    """Seconds a connection may take to sign in."""
    max_unauthenticated: int = 256
    """Connections still signing in, overall; beyond it the oldest is dropped."""
    max_unauthenticated_per_ip: int = 32
    """Connections still signing in from one address; beyond it that address's oldest is dropped."""
    host_key: Path | None = None
    authorized_keys: Path | None = None
    """Only clients with a key listed in this file may play (and no guests)."""
    metrics: str | None = None
    """``HOST:PORT`` serving ``/metrics``, ``/livez`` and ``/readyz`` (``--metrics``; None: off). A bare
    port listens on loopback."""
    log_format: str = "text"
    """The server's log: ``text`` (one readable line an event) or ``json`` (one object a line)."""
    web: str | None = None
    """``--web HOST:PORT``: also serve the game to browsers there (None: SSH only)."""
    web_origin: tuple[str, ...] = ()
    """``--web-origin``: the public addresses (``https://play.example.org``) the page may be served under
    behind a proxy, besides the address each request names."""
    trusted_proxy: tuple[str, ...] = ()
    """``--trusted-proxy``: addresses or networks whose X-Forwarded-For and X-Forwarded-Proto are believed."""
    web_header_timeout: float = 10.0
    """Seconds a browser's connection may take to send a whole request (its headers), and may then wait idle
    for the next one (aiohttp's ``keepalive_timeout``); then it is closed (docs/serve.md, *Limits of the web door*)."""
    web_max_unfinished: int = 128
    """Web connections that have not yet sent a whole request, overall; beyond it the oldest is dropped."""
    web_max_unfinished_per_ip: int = 8
    """Web connections without a whole request from one address; beyond it that address's oldest is dropped."""
    web_max_line: int = 4096
    """The longest request line and header line a browser may send (bytes; aiohttp's ``max_line_size`` and
    ``max_field_size``): longer is refused with 400."""
    web_max_headers: int = 64
    """Header lines one request may have (aiohttp's ``max_headers``)."""
    fd_reserve: int = 256
    """Descriptors the web door leaves free for the SSH door and the games: web connections beyond the
    descriptor limit minus this are closed at once."""
    max_json_depth: int = 4
    """Nesting a tab's websocket message may have (``["resize", {...}]`` is 2); deeper is refused before it is
    decoded, with close code 1007."""
    log_refusal_interval: float = 60.0
    """A refused request of one kind (bad HTTP, a bad Host, bad JSON) from one address is logged once per
    this many seconds, with a count and no traceback."""
    max_paste: int = 64 * 1024
    """Bytes of one bracketed paste a game receives; the rest is dropped, and the player told so."""
    paste_bytes_per_key: int = 128
    """A paste costs the input throttle one keystroke per this many bytes (a full bucket pays for ``max_paste``)."""
    game_memory_limit: int = 1536 * 1024 * 1024
    """Address space a served game may use (``RLIMIT_AS``, bytes; 0: none); a game that reaches it ends with a goodbye."""
    resize_window: float = 0.1
    """Seconds over which a client's resizes are coalesced: the last one in the window is the one the game sees."""
    quick_match_clock: float = 120.0
    """Seconds each player of a quick-match (rated) table has for each guess; a stalled seat loses its code."""
    arena_every: float | None = None
    """``serve --arena-every HOURS``: the hub starts a Code Arena every this many hours (None: only the operator's
    ``wom-tui arena start``; docs/arcade.md, *Code Arena*)."""
    arena_minutes: int = 30
    """How long an arena the schedule starts lasts (minutes)."""
    arena_rules: str = "attempts=8,clock=30"
    """The rules of a scheduled arena's games, as ``wom-tui arena start --rules`` reads them."""
    signin_network_attempts: int = 60
    """Sign-in codes one network (IPv4 /24, IPv6 /64) may try per ``ADDRESS_WINDOW``."""
    signin_attempts_total: int = 600
    """Sign-in codes all browsers together may try per ``ADDRESS_WINDOW`` (a code holder's ceiling)."""
    signin_recheck: float = 10.0
    """Seconds between two checks of every signed-in browser tab's cookie on each server: a revoked (``wom-tui
    users revoke``) or expired session's open tabs end within this."""
    motd: str | None = None
    """The message of the day, one line on every session's main menu (``--motd``; data, never markup)."""
    db_pool: int = 4
    """``--db-pool N``: connections the server's hub keeps to a PostgreSQL store, for all of its sessions
    (docs/arcade.md, *How many connections*)."""
    hub: bool = True
    """Serve the store to the games through the server's hub (``--no-hub``: each game opens its own, as
    before the hub; for comparisons only)."""
    operator_keys: tuple[Path, ...] = ()
    """``--operator-key FILE`` (OpenSSH authorized_keys format, may be repeated): a session signed in with one
    of these keys gets the Operator screen (docs/serve.md, *The Operator screen*)."""

    # -- one served session (set by the server for each session's game) -------------------------
    operator: bool = False
    """This session signed in with an operator key, as the SSH server verified it (never a client's word)."""
    session_id: str | None = None
    """The session's id in the store's presence (the server chose it: a kick names it)."""
    transport: str = "local"
    """How the session reaches the arcade: ``local``, ``ssh`` or ``web``."""
    hub_socket: str | None = None
    """The server's hub (its Unix socket): the game's store is reached through it (None: opened here)."""

    @property
    def host_key_path(self) -> Path:
        """``--host-key``, else ``ssh_host_ed25519_key`` in the data folder."""
        return self.host_key if self.host_key is not None else self.data_dir / HOST_KEY_NAME

    def for_session(self, seed: int, client_address: str | None = None, *, session_id: str | None = None,
                    operator: bool = False, transport: str = "ssh") -> Settings:
        """The settings of one served session's game: served, with its own seed, its client's address, its
        presence id, whether it signed in with an operator key, and its transport.
        """
        return replace(self, seed=seed, served=True, client_address=client_address, session_id=session_id,
                       operator=operator, transport=transport)

    def as_json(self) -> dict[str, Any]:
        """The settings as JSON data (paths as text), for :meth:`from_json` in another process."""
        data = asdict(self)
        for name in _PATHS:
            if data[name] is not None:
                data[name] = str(data[name])
        data["operator_keys"] = [str(path) for path in self.operator_keys]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Settings:
        """The settings :meth:`as_json` wrote (unknown keys ignored)."""
        known = {field.name for field in fields(cls)}
        values = {key: value for key, value in data.items() if key in known}
        for name in _PATHS:
            if values.get(name) is not None:
                values[name] = Path(values[name])
        for name in ("web_origin", "trusted_proxy"):
            if name in values:
                values[name] = tuple(values[name])
        if "operator_keys" in values:
            values["operator_keys"] = tuple(Path(path) for path in values["operator_keys"])
        return cls(**values)


def open_store(settings: Settings, *, pool: int | None = None) -> Store:
    """The one place a store is chosen: the server's hub for a game it serves (``settings.hub_socket``), the
    database of ``settings.store``, else the data folder (``pool``: the database connections kept at most).

    ``StoreError`` (naming the folder or the database, without its password) if it cannot be used.
    """
    if settings.hub_socket is not None:
        from .domain.store.remote import connect

        return connect(settings.hub_socket)
    from .domain.store import is_database_url
    from .domain.store import open_store as open_location

    if settings.store and not is_database_url(settings.store):
        from .domain.store import StoreError

        raise StoreError(settings.store, "not a PostgreSQL address (postgresql://user@host/db); "
                                         "a data folder is given with --data-dir")
    return open_location(settings.store or settings.data_dir, pool=pool)
