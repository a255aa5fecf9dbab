"""The web door's guards against one client taking the server down (docs/serve.md, *Limits of the web door*).

aiohttp's own limits do most of it (request line and header sizes, header count, ``keepalive_timeout``,
which also closes a connection that has not sent a whole request in that time, the body size); what it
has no option for is here:

* :class:`ConnectionGuard` caps the connections that have not sent a whole request yet, per address and
  in all (the oldest go first, as SSH's connections still signing in), and closes at once a connection
  that would eat into the descriptors kept for the SSH door and the games (``fd_reserve``);
* :class:`RefusalLog` logs a refused request once per kind, address and minute, with a count and no
  traceback, and :class:`AiohttpLog` hands it aiohttp's "Error handling request" lines;
* :func:`host_name` and :class:`HostCheck`: only the names the server is configured under (DNS rebinding);
* :func:`json_too_deep`: a websocket message's nesting bounded before it is decoded.
"""

from __future__ import annotations

import asyncio
import json
import ipaddress
import logging
import re
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web
from aiohttp.http_exceptions import HttpProcessingError

from .descriptors import descriptor_limit
from .events import extra
from .logsafe import clean

log = logging.getLogger("wom_tui.serve")


class RefusalLog:
    """One log line per refused kind and address per ``interval`` seconds, counting the ones not logged."""

    MAX_TRACKED = 4096

    def __init__(self, logger: logging.Logger, interval: float, clock: Callable[[], float] = time.monotonic) -> None:
        self._logger = logger
        self._interval = interval
        self._clock = clock
        self._seen: OrderedDict[tuple[str, str], list[float]] = OrderedDict()
        self.total = 0
        """Refusals noted since the start (logged or not)."""

    def note(self, kind: str, address: str, detail: str = "") -> bool:
        """One refusal; True if it was logged (the first of its kind and address in the interval)."""
        self.total += 1
        key = (kind, address)
        now = self._clock()
        entry = self._seen.get(key)
        if entry is not None and now - entry[0] < self._interval:
            entry[1] += 1
            return False
        more = int(entry[1]) if entry is not None else 0
        self._seen[key] = [now, 0]
        self._seen.move_to_end(key)
        while len(self._seen) > self.MAX_TRACKED:
            self._seen.popitem(last=False)
        self._logger.warning(
            "web: refused %s from %s%s%s", kind, clean(address), f": {clean(detail, 200)}" if detail else "",
            f" ({more} more of these since the last line)" if more else "",
            extra=extra("web_refused", address=address, reason=kind, transport="web", more=more or None))
        return True


class AiohttpLog:
    """What aiohttp's request handlers log through (its ``logger`` option): a malformed request (an
    :class:`~aiohttp.http_exceptions.HttpProcessingError`) becomes one :class:`RefusalLog` line, without its
    traceback; anything else (a bug of ours) goes to the server's log as before, traceback and all.
    """

    def __init__(self, refusals: RefusalLog, logger: logging.Logger = logging.getLogger("aiohttp.server")) -> None:
        self._refusals = refusals
        self._logger = logger

    def _log(self, level: int, message: str, *args: Any, exc_info: Any = None, **kwargs: Any) -> None:
        if isinstance(exc_info, HttpProcessingError):
            address = str(args[0]) if args else "?"
            kind = f"bad request ({type(exc_info).__name__})"
            text = str(getattr(exc_info, "message", "") or exc_info)
            self._refusals.note(kind, address, text.splitlines()[0] if text else "")
            return
        self._logger.log(level, message, *args, exc_info=exc_info, **kwargs)

    def debug(self, message: str, *args: Any, **kwargs: Any) -> None:
        """Aiohttp's debug lines (the first request of a non-HTTP client)."""
        self._log(logging.DEBUG, message, *args, **kwargs)

    def info(self, message: str, *args: Any, **kwargs: Any) -> None:
        """Passed on."""
        self._log(logging.INFO, message, *args, **kwargs)

    def warning(self, message: str, *args: Any, **kwargs: Any) -> None:
        """Passed on."""
        self._log(logging.WARNING, message, *args, **kwargs)

    def error(self, message: str, *args: Any, **kwargs: Any) -> None:
        """Passed on."""
        self._log(logging.ERROR, message, *args, **kwargs)

    def exception(self, message: str, *args: Any, exc_info: Any = True, **kwargs: Any) -> None:
        """A failed request: a malformed one is a refusal; a handler's own failure keeps its traceback."""
        self._log(logging.ERROR, message, *args, exc_info=exc_info, **kwargs)


class _Guarded(asyncio.Protocol):
    """aiohttp's request handler behind the guard: created only for a connection the guard admits."""

    def __init__(self, guard: ConnectionGuard, factory: Callable[[], asyncio.Protocol]) -> None:
        self._guard = guard
        self._factory = factory
        self._inner: asyncio.Protocol | None = None
        self._transport: asyncio.BaseTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = transport
        if not self._guard.admit(transport):
            transport.abort()  # type: ignore[attr-defined]
            return
        self._inner = self._factory()
        self._inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self._inner is not None:
            self._inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self._inner.eof_received() if self._inner is not None else None

    def pause_writing(self) -> None:
        if self._inner is not None:
            self._inner.pause_writing()

    def resume_writing(self) -> None:
        if self._inner is not None:
            self._inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._transport is not None:
            self._guard.forget(self._transport)
        if self._inner is not None:
            self._inner.connection_lost(exc)


class ConnectionGuard:
    """Counts the web door's connections: those without a whole request yet (capped per address and in all,
    the oldest dropped) and all of them (capped below the descriptor limit by ``reserve``).
    """

    def __init__(self, max_unfinished: int, max_unfinished_per_ip: int, reserve: int, refusals: RefusalLog) -> None:
        self.max_unfinished = max(1, max_unfinished)
        self.max_unfinished_per_ip = max(1, min(max_unfinished_per_ip, self.max_unfinished))
        self.reserve = reserve
        self._refusals = refusals
        self._unfinished: OrderedDict[asyncio.BaseTransport, str] = OrderedDict()
        self._open: set[asyncio.BaseTransport] = set()
        self.dropped = 0
        """Connections closed by a cap so far."""

    @property
    def max_open(self) -> int:
        """Web connections allowed at once: the descriptor limit less the reserve (at least 16)."""
        return max(16, descriptor_limit() - self.reserve)

    @property
    def unfinished(self) -> int:
        """Connections that have not sent a whole request yet."""
        return len(self._unfinished)

    @property
    def open(self) -> int:
        """Web connections open now."""
        return len(self._open)

    def protocol(self, factory: Callable[[], Any]) -> Callable[[], asyncio.Protocol]:
        """A protocol factory for ``loop.create_server`` guarding ``factory``'s (aiohttp's) protocols."""
        return lambda: _Guarded(self, factory)

    def admit(self, transport: asyncio.BaseTransport) -> bool:
        """A new connection: False (to close it) if it would eat into the reserve; else counted, dropping the
        oldest unfinished ones beyond the caps.
        """
        peer = transport.get_extra_info("peername")
        host = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        if len(self._open) >= self.max_open:
            self.dropped += 1
            self._refusals.note("connection (descriptors kept for SSH and the games)", host)
            return False
        while len(self._unfinished) >= self.max_unfinished:
            self._drop(next(iter(self._unfinished)), "connection (too many unfinished requests)")
        same = [other for other, address in self._unfinished.items() if address == host]
        for other in same[: max(0, len(same) - self.max_unfinished_per_ip + 1)]:
            self._drop(other, "connection (too many unfinished requests from the address)")
        self._unfinished[transport] = host
        self._open.add(transport)
        return True

    def _drop(self, transport: asyncio.BaseTransport, kind: str) -> None:
        host = self._unfinished.pop(transport, "?")
        self._open.discard(transport)
        self.dropped += 1
        self._refusals.note(kind, host)
        transport.abort()  # type: ignore[attr-defined]

    def finished(self, transport: asyncio.BaseTransport | None) -> None:
        """The connection sent a whole request: it no longer counts as unfinished."""
        if transport is not None:
            self._unfinished.pop(transport, None)

    def forget(self, transport: asyncio.BaseTransport) -> None:
        """The connection closed."""
        self._unfinished.pop(transport, None)
        self._open.discard(transport)


def host_name(value: str) -> str:
    """The name in a Host header (``[::1]:8080`` → ``::1``, ``Play.Example.org.:443`` → ``play.example.org``)."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:value.find("]")] if "]" in value else value
    if value.count(":") == 1:
        value = value.split(":", 1)[0]
    return value.rstrip(".")


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name.split("%", 1)[0])
    except ValueError:
        return False
    return True


class HostCheck:
    """The names a request's Host may give: any address written as one (a rebinding page has a name, never an
    address), ``localhost`` when listening on loopback or on every address, the ``--web`` host's name, and
    the host of every ``--web-origin``.
    """

    def __init__(self, web_host: str, origins: Iterable[str]) -> None:
        names = set()
        listen = host_name(web_host) if web_host else ""
        if listen and not _is_address(listen):
            names.add(listen)
        if not listen or listen in ("localhost", "0.0.0.0", "::") or (
                _is_address(listen) and ipaddress.ip_address(listen).is_loopback):
            names.add("localhost")
        for origin in origins:
            host = urlsplit(origin).hostname
            if host:
                names.add(host.lower().rstrip("."))
        self.names = frozenset(names)

    def allowed(self, host: str | None) -> bool:
        """True if ``host`` (a Host header's value) names this server."""
        if not host:
            return False
        name = host_name(host)
        return _is_address(name) or name in self.names


_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
MAX_SKELETON = 256
"""Characters a message may have outside its strings (``["resize",{"width":80,"height":24}]`` has 32)."""


def json_too_deep(text: str, max_depth: int) -> bool:
    """True if ``text`` nests deeper than ``max_depth`` or has more than :data:`MAX_SKELETON` characters
    outside its strings: judged before decoding (Python's decoder recurses once per level).
    """
    skeleton = _JSON_STRING.sub("", text)
    if len(skeleton) > MAX_SKELETON:
        return True
    depth = 0
    for char in skeleton:
        if char in "[{":
            depth += 1
            if depth > max_depth:
                return True
        elif char in "]}":
            depth -= 1
    return False


async def page_messages(socket: web.WebSocketResponse, max_depth: int, refusals: RefusalLog | None, host: str,
                        what: str, close_code: int) -> AsyncIterator[Any]:
    """The JSON messages a page sends on ``socket``, decoded (text frames only). A message that is not JSON, or
    nests deeper than ``max_depth`` (judged before decoding), closes the socket with ``close_code`` and one
    log line (``what``, once a minute per address), and ends the messages.
    """
    async for message in socket:
        if message.type != WSMsgType.TEXT:
            continue
        try:
            if json_too_deep(message.data, max_depth):
                raise ValueError("nested too deep")
            envelope = json.loads(message.data)
        except (ValueError, RecursionError) as exc:
            if refusals is not None:
                refusals.note(f"{what} (not the page's JSON)", host, str(exc))
            await socket.close(code=close_code, message=b"malformed message")
            return
        yield envelope
