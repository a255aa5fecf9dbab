"""``/metrics``, ``/livez`` and ``/readyz`` on the ``--metrics`` address (docs/serve.md, "Metrics and health").

A small HTTP server from the standard library on a thread of its own, so that a scrape never waits on the
server's event loop and the event loop never waits on a scrape:

* ``/metrics``: every series, in Prometheus' text format (:mod:`.metrics`);
* ``/livez``: 200 when the server's event loop runs a callback within a second, else 503;
* ``/readyz``: 200 when the store answers within a second and the warm parent is up, else 503 with why.

The store is asked on a thread of its own, one question at a time: while the database hangs, probes wait
on the question already asked rather than pile up threads.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from collections.abc import Callable
from typing import TYPE_CHECKING

from .metrics import CONTENT_TYPE, Metrics

if TYPE_CHECKING:
    from ..domain.store import Store
    from ..settings import Settings

log = logging.getLogger("wom_tui.serve")

PROBE_TIMEOUT = 1.0
"""Seconds the store and the event loop have to answer a health check."""


def parse_address(text: str, default_host: str = "127.0.0.1") -> tuple[str, int]:
    """``HOST:PORT``, ``[v6]:PORT`` or ``PORT`` (on loopback) as (host, port); ValueError with the reason."""
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = default_host, text
    host = host.strip("[]") or default_host
    try:
        number = int(port)
    except ValueError:
        raise ValueError(f"{text!r} is not HOST:PORT (for example 127.0.0.1:9464)") from None
    if not 0 <= number <= 65535:
        raise ValueError(f"port {number} is not between 0 and 65535")
    return host, number


class StoreProbe:
    """Asks the server's store whether it answers (reading the live tables, which it also counts)."""

    def __init__(self, open_store: Callable[[], Store]) -> None:
        self._open = open_store
        self._store: Store | None = None
        self._lock = threading.Lock()
        self._running: concurrent.futures.Future[int] | None = None
        self._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="wom-store-probe")

    def _ask(self) -> int:
        from ..domain.table import CLOSED, FINISHED

        try:
            if self._store is None:
                self._store = self._open()
            listing = self._store.live.tables()
        except Exception:
            store, self._store = self._store, None
            if store is not None:
                try:
                    store.close()
                except Exception:  # noqa: BLE001 - already failing: the probe's answer says so
                    pass
            raise
        return sum(1 for table in listing.tables if table.phase not in (FINISHED, CLOSED))

    def begin(self) -> None:
        """Open the store and ask it once now, without waiting (a database's first connection, and its
        migration check, may take longer than a probe's second).
        """
        self.check(timeout=0)

    def check(self, timeout: float = PROBE_TIMEOUT) -> tuple[bool, str, int | None]:
        """(answered, why not, open tables): the store read within ``timeout`` seconds, or why it did not."""
        with self._lock:
            if self._running is None or self._running.done():
                self._running = self._pool.submit(self._ask)
            running = self._running
        try:
            count = running.result(timeout)
        except concurrent.futures.TimeoutError:
            return False, f"the store did not answer within {timeout:g} s", None
        except Exception as exc:  # noqa: BLE001 - any failure is the probe's answer, in words
            from .logsafe import clean

            return False, f"the store failed: {clean(exc, 300)}", None
        return True, "", count

    def tables_open(self) -> int | None:
        """Live tables open now, or None if the store does not answer in time (for ``/metrics``)."""
        ok, _why, count = self.check()
        return count if ok else None

    def close(self) -> None:
        """Stop asking; close the store once the question in flight (if any) is answered."""
        self._pool.submit(self._close_store)
        self._pool.shutdown(wait=False)

    def _close_store(self) -> None:
        store, self._store = self._store, None
        if store is not None:
            store.close()


class HealthServer:
    """The metrics port: ``await start()``, ``port``, ``await close()``; ``warm_up`` says (on the event
    loop) whether the warm parent is up.
    """

    def __init__(self, settings: Settings, metrics: Metrics, warm_up: Callable[[], bool]) -> None:
        from ..settings import open_store

        assert settings.metrics is not None
        self._warm_up = warm_up
        self._metrics = metrics
        self._address = parse_address(settings.metrics)
        self._http: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.probe = StoreProbe(lambda: open_store(settings))
        metrics.count_tables(self.probe.tables_open)

    @property
    def port(self) -> int:
        """The port listened on (useful with port 0)."""
        assert self._http is not None, "start() first"
        return int(self._http.server_address[1])

    async def start(self) -> None:
        """Listen (OSError if the address cannot be used) and answer on a thread."""
        self._loop = asyncio.get_running_loop()
        handler = type("Handler", (_Handler,), {"health": self})
        host, port = self._address
        self._http = (_HTTPServer6 if ":" in host else _HTTPServer)((host, port), handler)
        self._thread = threading.Thread(target=self._http.serve_forever, name="wom-metrics", daemon=True)
        self._thread.start()
        self.probe.begin()
        log.info("metrics, /livez and /readyz on http://%s:%d/", host if ":" not in host else f"[{host}]", self.port)

    async def close(self) -> None:
        """Stop answering."""
        if self._http is not None:
            http, self._http = self._http, None
            await asyncio.get_running_loop().run_in_executor(None, http.shutdown)
            http.server_close()
        self.probe.close()

    def live(self) -> tuple[bool, str]:
        """Whether the event loop runs a callback within a second (from the HTTP thread), or why not."""
        live, why, _warm = self._ask_loop()
        return live, why

    def _ask_loop(self) -> tuple[bool, str, bool]:
        """(the loop answered, why not, the warm parent was up when it did)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return False, "the server loop is not running", False
        answered: concurrent.futures.Future[bool] = concurrent.futures.Future()

        def answer() -> None:
            if not answered.done():
                answered.set_result(self._warm_up())

        try:
            loop.call_soon_threadsafe(answer)
        except RuntimeError:
            return False, "the server loop is not running", False
        try:
            warm = answered.result(PROBE_TIMEOUT)
        except concurrent.futures.TimeoutError:
            return False, f"the server loop did not answer within {PROBE_TIMEOUT:g} s", False
        return True, "", warm

    def ready(self) -> tuple[bool, list[str]]:
        """Whether the server can seat a player now: its loop answers, the warm parent is up, the store answers."""
        problems = []
        live, why, warm = self._ask_loop()
        if not live:
            problems.append(why)
        elif not warm:
            problems.append("the warm parent is not up (being started again)")
        ok, why, _count = self.probe.check()
        if not ok:
            problems.append(why)
        return not problems, problems


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True


class _HTTPServer6(_HTTPServer):
    address_family = socket.AF_INET6


class _Handler(BaseHTTPRequestHandler):
    """GET /metrics, /livez, /readyz; anything else is 404."""

    health: HealthServer
    server_version = "wom-tui"
    sys_version = ""

    def do_GET(self) -> None:  # http.server's name
        """Answer one of the three paths."""
        path = self.path.split("?", 1)[0]
        if path == "/metrics":
            self._send(200, self.health._metrics.render(), CONTENT_TYPE)
        elif path == "/livez":
            live, why = self.health.live()
            self._send(200 if live else 503, (b"ok\n" if live else f"not live: {why}\n".encode()))
        elif path == "/readyz":
            ready, problems = self.health.ready()
            body = b"ok\n" if ready else "".join(f"not ready: {why}\n" for why in problems).encode()
            self._send(200 if ready else 503, body)
        else:
            self._send(404, b"not found: try /metrics, /livez or /readyz\n")

    def do_HEAD(self) -> None:  # http.server's name
        """As GET, without the body (some balancers probe with HEAD)."""
        self.do_GET()

    def _send(self, status: int, body: bytes, content_type: str = "text/plain; charset=utf-8") -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # http.server's name
        """Scrapes are not logged (one every few seconds would drown the server's log)."""
