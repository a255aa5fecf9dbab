"""The browser door of ``wom-tui serve --web HOST:PORT``: the page, its assets, the websocket, the sign-in form.

Every browser tab is a session like an SSH one (docs/serve.md, *In a browser*): its game is forked by the
same warm parent, holds a seat under the same ``--max-sessions`` and ``--max-per-ip``, and has the same
input throttle, idle timeout, seed order, log lines and goodbye. What textual-serve ships is used where it
fits: its page template, ``textual.js`` (xterm.js) and its assets, and the framing of Textual's web driver
(``textual.drivers.web_driver``, as textual-serve's ``app_service.py`` reads it). What is not used as
shipped, and why:

- textual-serve's server starts a fresh interpreter per tab (a second of CPU each); here the warm parent
  forks the game (:meth:`.warmparent.WarmParent.spawn_web`);
- its page loads a font from a public CDN and has inline script: :func:`render_page` drops the CDN link
  (the font is served from textual-serve's own ``static/fonts``) and moves the script to ``page.js``, so
  the Content-Security-Policy allows no inline script and no outside request at all;
- its page ends at the first websocket close ("Session ended"); ``page.js`` reloads instead, and the tab's
  token (``/ws/<token>``, kept in the tab's ``sessionStorage``) finds the same game if it holds a seat at a
  table (it waited for the seat grace); any other game ended when its socket closed (:class:`WebSession`).
"""

from __future__ import annotations

import asyncio
import html
import itertools
import ipaddress
import json
import logging
import os
import re
import secrets
from collections.abc import Iterable
from dataclasses import replace
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

from aiohttp import web

from ..domain.game import Refusal
from ..domain.words import counted
from ..domain.store.api import StoreError
from ..settings import OUT_OF_MEMORY, OUT_OF_MEMORY_STATUS
from .events import Events, Who
from .logsafe import clean
from .session import (
    ARCADE_FULL, HUB_DOWN, MAX_COLUMNS, MAX_ROWS, START_FAILED, TERMINAL_RESET, TOO_MANY_FROM_ADDRESS, TOO_MANY_FROM_NETWORK,
    SeatedGame, child_environment, describe_seconds,
)
from .throttle import Coalescer, InputThrottle
from .webaddress import split_address
from .webguard import AiohttpLog, ConnectionGuard, HostCheck, RefusalLog, page_messages
from .web_auth import COOKIE, COOKIE_MAX_AGE, BrowserSignIn
from .web_line import MAX_LINE_MESSAGE, LineTab, line_page, open_line_tab

if TYPE_CHECKING:
    from ..settings import Settings
    from .session import GameSession
    from .warmparent import WarmChild, WarmParent


class WebHost(Protocol):
    """What the browser door needs of its server (:class:`~wom_tui.serve.server.GameServer` is one)."""

    settings: Settings
    warm: WarmParent | None
    events: Events

    def take_seat(self, session: GameSession) -> str | None:
        """Seat the session, or say why not (``"full"``, ``"address"``, ``"network"``)."""
        ...

    def refusal(self, session: GameSession) -> str | None:
        """The line a banned client (its address, or the name its tab signed in as) is turned away with."""
        ...

    def leave_seat(self, session: GameSession) -> None:
        """Free the session's seat."""
        ...

    def next_seed(self) -> int:
        """The next session's seed."""
        ...

    def game_settings(self, seed: int) -> Settings:
        """The settings of a session's game with ``seed``."""
        ...

log = logging.getLogger("wom_tui.serve")

TAB_TOKEN = re.compile(r"^[A-Za-z0-9_-]{22,64}$")
"""A tab's token, as page.js makes it (24 random bytes, base64url): the key to its game across reloads."""
MAX_MESSAGE = 64 * 1024
"""The largest websocket message a tab may send (a paste of a page of text)."""
MAX_PACKET = 16 * 1024 * 1024
"""The largest packet a game may write (a full screen of truecolour text is well under 1 MiB)."""
_LOG_BUDGET = 256 * 1024

# The escape sequences Textual's web driver writes once at its start (alternate screen, mouse reporting,
# hidden cursor, bracketed paste): a reconnected tab's fresh terminal needs them again.
TERMINAL_MODES = b"\x1b[?1049h\x1b[?1000h\x1b[?1003h\x1b[?1015h\x1b[?1006h\x1b[?25l\x1b[?2004h"

CLOSE_GAME_OVER = 4002
"""The game ended (quit, idle, shutdown): page.js does not reconnect. (Not 1000: a close that the page
began itself is answered with 1000 by aiohttp, and that one page.js must treat as a blink.)"""
CLOSE_REFUSED = 4000
"""No seat (full, too many from the address): page.js does not reconnect."""
CLOSE_REPLACED = 4001
"""The same tab connected again (a reload): the old socket goes."""
CLOSE_NOT_YOURS = 4003
"""The tab's game belongs to someone else now (signed in or out since). No longer sent: such a game is handed
over (:meth:`WebDoor.hand_over`); page.js still reads it from an older server."""
CLOSE_BAD_MESSAGE = 1007
"""A message that is not the page's JSON (malformed, or nested deeper than ``max_json_depth``): the socket goes."""

SIGNED_OUT = (
    "\r\nThis browser is no longer signed in as {name} (its sign-in was revoked or has expired). "
    "Sign in again (/signin) to play as {name}.\r\n"
)
"""What a signed-in tab reads when its session was revoked or expired while it played."""

GOODBYE = "Thank you for playing the World of Mastermind!\r\n"
"""What a tab reads when its player quit (the game's own goodbye, ``app.GOODBYE``, goes nowhere in a browser)."""
NO_GUESTS_HERE = (
    "This World of Mastermind server only lets in signed-in players: sign in with a one-time code "
    "(the sign-in link below, or /signin), then open the game again.\r\n"
)
"""What a guest's tab reads under ``--no-guests`` or ``--authorized-keys`` (as SSH turns away a client without a key)."""

PLAY_AGAIN = "Press Restart to play again."
TRY_AGAIN_LATER = "Press Restart to try again in a little while."
FREE_A_SEAT = "End a game in another tab or terminal, then press Restart."
REPLACED = ("This game was opened in another tab or window of this browser: play it there, "
            "or press Restart to bring it back here.")
NEXT_AFTER = {"server shutting down": TRY_AGAIN_LATER, "kicked": "", "moderation": "", "game misbehaved": PLAY_AGAIN}
"""What to do next, said on the page after a game ended for a reason (idle, the player quit: play again)."""


async def say_goodbye(socket: web.WebSocketResponse, text: str, code: int, reason: str, next_step: str = "",
                      terminal: bytes = b"") -> None:
    """Close a tab's socket with ``code``, saying why on the terminal and on the page.

    The terminal gets ``terminal`` and ``text`` (hidden under the page's "Session ended" dialog); page.js
    shows the ``["wom_goodbye", {"text", "next"}]`` message in that dialog (textual.js ignores its kind).
    """
    try:
        if text or terminal:
            await socket.send_bytes(terminal + text.encode())
        await socket.send_json(["wom_goodbye", {"text": " ".join(text.split()), "next": next_step}])
        await socket.close(code=code, message=reason.encode())
    except (ConnectionError, RuntimeError):
        pass


CONTENT_SECURITY_POLICY = "; ".join((
    "default-src 'none'",
    "script-src 'self'",
    # textual.js inserts its stylesheet as <style> elements (webpack's style-loader), the page has one.
    "style-src 'self' 'unsafe-inline'",
    "font-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
))
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    # Not no-referrer: under it Chrome sends "Origin: null" with the sign-in form, which the check refuses.
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}
TITLE = "World of Mastermind"
VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1" />'
"""A phone lays the page out at its own width (without it, at 980 px: a character 4 px wide)."""


def _textual_serve_folder() -> Path:
    import textual_serve

    return Path(textual_serve.__file__).parent


def render_page() -> str:
    """textual-serve's page (its ``app_index.html``), with every outside request and inline script taken out.

    ValueError if a textual-serve release changed the page so that one of the edits no longer applies
    (the server then refuses to start rather than serve a page that loads a CDN or breaks the CSP).
    """
    import jinja2

    source = (_textual_serve_folder() / "templates" / "app_index.html").read_text(encoding="utf-8")
    page = jinja2.Environment(autoescape=True).from_string(source).render(
        config={"static": {"url": "/static/"}},
        application={"name": TITLE},
        app_websocket_url="",  # page.js sets it: the tab's own socket, on the address the page came from
        font_size=16,
        ping_url="",
    )
    edits = (
        (r'<link\s+rel="stylesheet"\s+href="https://fonts\.googleapis\.com/[^"]*"\s*/>',
         '<link rel="stylesheet" href="/static/wom/page.css" />'),
        (r'<script>\s*function getStartUrl\(\).*?</script>', ""),
        (r'(<script src="/static/js/textual\.js"></script>)',
         r'<script src="/static/wom/page.js"></script>\n    \1'),
        (r'\s+onClick="refresh\(\)"', ""),
        (r"<html>", '<html lang="en">\n  <head>\n    <meta charset="utf-8" />\n    <title>' + TITLE + "</title>"),
        (r"<html lang=\"en\">\n  <head>\n    <meta charset=\"utf-8\" />\n    <title>[^<]*</title>\s*<head>",
         '<html lang="en">\n  <head>\n    <meta charset="utf-8" />\n    <title>' + TITLE + "</title>\n    " + VIEWPORT),
        # For a screen reader, first on the page (hidden until focused): the way to line mode (web_line.py).
        (r"(<body[^>]*>)", r'\1\n    <a class="wom-line-link" href="/line">Line mode: the game in words, for a screen '
                           r'reader or a braille display</a>'),
        # A way to the sign-in form where the page has room for it: the dialog at the end of a game.
        (r'(<button type="button">Restart</button>)', r'\1\n        <a class="wom-signin" href="/signin">sign in</a>'),
    )
    for pattern, replacement in edits:
        page, count = re.subn(pattern, replacement, page, flags=re.DOTALL)
        if count < 1:
            raise ValueError(f"textual-serve's page changed: cannot apply {pattern!r}")
    if re.search(r"""(src|href|url)\s*[=(]\s*["']?(https?:)?//|<script>|\son[a-z]+=""", page, flags=re.IGNORECASE):
        raise ValueError("textual-serve's page still has an outside address or inline script")
    return page


SIGNIN_PAGE = """<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Sign in · World of Mastermind</title>
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <link rel="stylesheet" href="/static/wom/page.css" />
    <link rel="stylesheet" href="/static/wom/signin.css" />
  </head>
  <body>
    <main>
      <h1>Sign in</h1>
      <p>{status}</p>
      {refusal}
      <form method="post" action="/signin">
        <input type="hidden" name="tab" value="{tab}" />
        <label>One-time code <input name="code" autocomplete="one-time-code" autofocus required maxlength="64" /></label>
        <button type="submit">Sign in</button>
      </form>
      <p>Get a code in the game over SSH: <em>Sign in a browser</em> (<kbd>b</kbd> on the main menu) in a session
      signed in with your key; or from the server's operator.
      <a href="/">Back to the game</a></p>
    </main>
  </body>
</html>
"""


class WebSession(SeatedGame):
    """One browser tab's game: forked by the warm parent, on pipes framed by Textual's web driver.

    It holds a seat from its start to its game's end. Its websocket may drop and come back (a blink, a
    reload): in between a game whose player holds a seat at a table waits, for at most the seat grace, with its
    output dropped (the next socket gets a full repaint); any other game ends at once.
    """

    def __init__(self, door: WebDoor, tab: str, label: str, host: str, name: str | None, size: tuple[int, int]) -> None:
        self._door = door
        self._server = door.server
        settings = door.server.settings
        self._as_browser_tab(tab, label, host, name, door.server.events, settings.max_paste, settings.paste_bytes_per_key)
        self._size = size
        self._other_messages = InputThrottle(rate=20.0, burst=60)
        """Resizes, focus changes and pings: each makes the game (or the server) work, so they are
        throttled too, on their own budget (a window dragged wide sends a few dozen resizes)."""
        self._resizes = Coalescer(settings.resize_window, self._apply_size, self._loop)
        """A tab's resizes, coalesced: the last in each ``resize_window`` is the one the game gets."""
        self._socket: web.WebSocketResponse | None = None
        self._stdin: asyncio.StreamWriter | None = None
        self._proc: WarmChild | None = None
        self.pid: int | None = None
        self.game_settings: Settings | None = None
        self._detached_at: float | None = None
        self._log_budget = _LOG_BUDGET
        self.task: asyncio.Task[None] | None = None
        self.closed = asyncio.Event()
        """Set once the session has ended and its socket (if any) is closed."""
        self.attached = asyncio.Event()

    # -- what the server sees (as of an SSH session) ------------------------------------------------

    @property
    def _idle_timeout(self) -> float | None:
        return self._server.settings.idle_timeout

    @property
    def connected(self) -> bool:
        """True while a tab's websocket is attached."""
        return self._socket is not None

    @property
    def ending(self) -> bool:
        """True once the session is being ended (its game told to stop): no tab may take it over any more."""
        return self._ending is not None

    def end(self, reason: str, farewell: str | None = None) -> None:
        """End the session: stop the game (SIGHUP, then SIGKILL), then say ``farewell`` and close the socket."""
        if self._ending:
            return
        self._ending = reason
        self._farewell = farewell
        for handle in (self._idle_handle, self._grace_handle):
            if handle is not None:
                handle.cancel()
        if self.task is None:
            self.closed.set()
            return
        self._hang_up()

    def start(self) -> None:
        """Start the game (the seat is already taken)."""
        self._started_at = self._last_input = self._loop.time()
        self._events.session_started(self.who)
        self.task = asyncio.ensure_future(self._run())
        self._arm_idle()

    async def _run(self) -> None:
        seed = self._server.next_seed()
        # A tab's game learns its presence id (a kick names it) and its transport; never the operator's keys.
        settings = self.game_settings = replace(self._server.game_settings(seed), session_id=self.presence_id,
                                                transport="web", operator=False,
                                                client_address=None if self.host == "?" else self.host)
        columns, rows = self._size
        env = child_environment("xterm-256color", {})
        env.update({"COLUMNS": str(columns), "ROWS": str(rows), "TERM_PROGRAM": "textual", "COLORTERM": "truecolor"})
        stdin_read, stdin_write = os.pipe()
        stdout_read, stdout_write = os.pipe()
        log_read, log_write = os.pipe()
        status = 1
        readers: list[asyncio.Task[None]] = []
        try:
            try:
                if self._server.warm is None:
                    raise OSError("this server starts no games")
                self._proc = await self._server.warm.spawn_web(stdin_read, stdout_write, log_write, settings, self.name, env)
            finally:
                for fd in (stdin_read, stdout_write, log_write):
                    os.close(fd)
                readers.append(asyncio.ensure_future(self._read_log(log_read)))
        except OSError as exc:
            os.close(stdin_write)
            os.close(stdout_read)
            self._events.error(self.who, "%s: could not start the game: %s", self.label, exc)
            self._farewell = START_FAILED
        else:
            self.pid = self._proc.pid
            self._events.game_started(
                self.who, "%s: game started, pid %d, %dx%d browser, seed %d, %s",
                self.label, self.pid, columns, rows, seed,
                f"signed in as {clean(self.name)}" if self.name else "guest",
            )
            self._stdin = await _pipe_writer(stdin_write)
            readers.append(asyncio.ensure_future(self._read_output(stdout_read)))
            if self._ending:
                self._hang_up()
            returncode = await self._proc.wait()
            status = returncode if returncode >= 0 else 128 - returncode
        finally:
            await asyncio.wait(readers, timeout=1.0) if readers else None
            for reader in readers:
                reader.cancel()
            await self._finish(status)

    async def _finish(self, status: int) -> None:
        for handle in (self._idle_handle, self._kill_handle, self._grace_handle):
            if handle is not None:
                handle.cancel()
        if self._stdin is not None:
            self._stdin.close()
            self._stdin = None
        self._server.leave_seat(cast("GameSession", self))
        self._door.forget(self)
        self._idle_goodbye(status)
        if status == OUT_OF_MEMORY_STATUS and not self._farewell:
            self._farewell = OUT_OF_MEMORY + "\r\n"
            self._ending = self._ending or "game out of memory"
        socket, self._socket = self._socket, None
        if self._ending is None and status == 0 and not self._farewell:
            self._farewell = GOODBYE  # the player quit: the page says goodbye (the game printed none)
        if socket is not None:
            next_step = NEXT_AFTER.get(self._ending or "", PLAY_AGAIN)
            await say_goodbye(socket, self._farewell or "", CLOSE_GAME_OVER, "game over", next_step,
                              TERMINAL_RESET if self._farewell else b"")
        self.closed.set()
        self._events.session_ended(self.who, self._ending or "game quit", self._loop.time() - self._started_at, status)

    # -- the tab's socket ---------------------------------------------------------------------------

    async def attach(self, socket: web.WebSocketResponse, size: tuple[int, int]) -> None:
        """Give the game this tab's socket (the first, or one after a blink or a reload)."""
        old, self._socket = self._socket, socket
        if old is not None:
            await say_goodbye(old, "", CLOSE_REPLACED, "opened again", REPLACED)
        if self._grace_handle is not None:
            self._grace_handle.cancel()
            self._grace_handle = None
        if self._detached_at is not None:
            log.info("%s: browser back after %.1f s", self.label, self._loop.time() - self._detached_at)
            self._detached_at = None
            await socket.send_bytes(TERMINAL_MODES)
            await self.resize(*size)
            await self._meta({"type": "repaint"})  # the fresh terminal's first picture (webdriver.py)
        self.attached.set()

    def detach(self, socket: web.WebSocketResponse) -> None:
        """The tab's socket closed: a game with a seat at a table waits the seat grace for it; any other ends."""
        if self._socket is not socket:
            return
        self._socket = None
        self.attached.clear()
        if self._ending or self.task is None or self.task.done():
            return
        if not self.at_table:
            # Only a seat at a table is worth waiting for (docs/serve.md, *In a browser*): a tab at the menu, in a solo game (kept in
            # the store after every move, offered again) or one that never drew a frame ends at once, and
            # its seat on the server with it (its address is not kept out).
            log.info("%s: browser gone, no seat at a table; ending the game", self.label)
            self.end("browser left")
            return
        self._detached_at = self._loop.time()
        grace = self._server.settings.seat_grace
        log.info("%s: browser gone; the game waits %s for it", self.label, describe_seconds(grace))
        self._grace_handle = self._loop.call_later(grace, self.end, "browser left")

    async def receive(self, socket: web.WebSocketResponse, refusals: RefusalLog | None = None) -> None:
        """Pass the tab's messages to the game (textual-serve's envelopes: stdin, resize, ping, focus, blur).

        A message that is not JSON, or nests deeper than ``max_json_depth`` (judged before decoding), closes
        the socket with :data:`CLOSE_BAD_MESSAGE` and one log line.
        """
        async for envelope in page_messages(socket, self._server.settings.max_json_depth, refusals, self.host,
                                            "websocket message", CLOSE_BAD_MESSAGE):
            if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
                continue
            kind = envelope[0]
            argument = envelope[1] if len(envelope) > 1 else None
            if kind != "stdin" and not self._other_messages.feed(b"m"):
                continue
            if kind == "stdin" and isinstance(argument, str):
                await self._keys(argument.encode("utf-8", "replace"))
            elif kind == "resize" and isinstance(argument, dict):
                width, height = argument.get("width"), argument.get("height")
                if isinstance(width, int) and isinstance(height, int):
                    self._resizes.push((width, height))
            elif kind == "ping" and isinstance(argument, str) and len(argument) <= 32:
                await socket.send_json(["pong", argument])
            elif kind in ("focus", "blur"):
                await self._meta({"type": kind})

    async def _keys(self, data: bytes) -> None:
        if self._stdin is None or self._ending:
            return
        dropped, cut = self._throttle.dropped, self._throttle.pastes_cut
        data = self._throttle.feed(data)
        if self._throttle.dropped != dropped:
            self._events.throttled(self.who, self._throttle.dropped - dropped, first=not dropped)
        if self._throttle.pastes_cut != cut:
            log.warning("%s: a paste longer than %d bytes was cut", self.label, self._throttle.max_paste)
        if data:
            self._last_input = self._loop.time()  # dropped input (an endless paste) does not keep the game awake
            await self._packet(b"D", data)

    def _apply_size(self, size: object) -> None:
        if isinstance(size, tuple) and not self._ending:
            asyncio.ensure_future(self.resize(*size))

    async def resize(self, width: int, height: int) -> None:
        """Tell the game the tab's terminal size (capped as an SSH client's)."""
        width = min(max(width, 1), MAX_COLUMNS)
        height = min(max(height, 1), MAX_ROWS)
        if (width, height) == self._size:
            return
        self._size = (width, height)
        await self._meta({"type": "resize", "width": width, "height": height})

    async def _meta(self, data: dict[str, Any]) -> None:
        await self._packet(b"M", json.dumps(data).encode())

    async def _packet(self, kind: bytes, payload: bytes) -> None:
        if self._stdin is None:
            return
        try:
            self._stdin.write(kind + len(payload).to_bytes(4, "big") + payload)
            await self._stdin.drain()
        except (ConnectionError, OSError):
            pass  # the game is gone; its end is handled by _run

    # -- the game's output and log ------------------------------------------------------------------

    async def _read_output(self, fd: int) -> None:
        reader = await _pipe_reader(fd)
        try:
            for _ in range(10):  # as textual-serve: the driver says it is one, then frames
                line = await reader.readline()
                if not line or line == b"__GANGLION__\n":
                    break
            while True:
                header = await reader.readexactly(5)
                size = int.from_bytes(header[1:], "big")
                if size > MAX_PACKET:
                    log.warning("%s: the game wrote a packet of %d bytes; ending it", self.label, size)
                    self.end("game misbehaved")
                    return
                payload = await reader.readexactly(size)
                if header[:1] == b"D":
                    await self._to_browser(payload)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass

    async def _to_browser(self, data: bytes) -> None:
        socket = self._socket
        if socket is None or socket.closed:
            return  # nobody watches: dropped (the next socket gets a full repaint)
        try:
            await socket.send_bytes(data)
        except (ConnectionError, RuntimeError):
            self.detach(socket)

    async def _read_log(self, fd: int) -> None:
        reader = await _pipe_reader(fd)
        while line := await reader.readline():
            # A report (a game started or finished, the menu on screen) is counted; what the game logged, logged.
            self._game_log_line(line.rstrip(b"\n"))


async def _pipe_reader(fd: int) -> asyncio.StreamReader:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=MAX_PACKET)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(fd, "rb", buffering=0))
    return reader


async def _pipe_writer(fd: int) -> asyncio.StreamWriter:
    loop = asyncio.get_running_loop()
    transport, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, os.fdopen(fd, "wb", buffering=0))
    return asyncio.StreamWriter(transport, protocol, None, loop)


def _networks(values: Iterable[str]) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [ipaddress.ip_network(value, strict=False) for value in values]


class WebDoor:
    """The aiohttp server of ``--web``: ``await start()``, then ``port``; ``await close()`` after the games end."""

    def __init__(self, server: WebHost, address: str) -> None:
        self.server = server
        self._numbers = itertools.count(1)
        self.settings = server.settings
        self.host, self._port = split_address(address)
        self.sign_in: BrowserSignIn | None = None
        """The browser sign-in (tests may put a fake one here before ``start``)."""
        self._store: Any = None
        self._sessions: dict[str, WebSession] = {}
        self._lines: dict[str, LineTab] = {}
        """The line page's tabs (``/line``), by their tokens."""
        self._runner: web.AppRunner | None = None
        self._site: web.TCPSite | None = None
        self._trusted = _networks(self.settings.trusted_proxy)
        self._origins = {origin.rstrip("/").lower() for origin in self.settings.web_origin}
        self._page = render_page()
        self._recheck: asyncio.Task[None] | None = None
        self.refusals = RefusalLog(log, self.settings.log_refusal_interval)
        """Refused requests, logged once per kind and address per interval."""
        self.hosts = HostCheck(self.host, self.settings.web_origin)
        self.guard = ConnectionGuard(self.settings.web_max_unfinished, self.settings.web_max_unfinished_per_ip,
                                     self.settings.fd_reserve, self.refusals)

    # -- start and stop -----------------------------------------------------------------------------

    async def start(self) -> None:
        """Listen (OSError if the address cannot be had)."""
        if self.sign_in is None:
            from ..settings import open_store

            self._store = open_store(self.settings)
            self.sign_in = BrowserSignIn(self._store, network_attempts=self.settings.signin_network_attempts,
                                         total_attempts=self.settings.signin_attempts_total)
        app = web.Application(middlewares=[self._headers, self._check_host], client_max_size=16 * 1024)
        app.router.add_get("/", self._handle_page)
        app.router.add_get("/livez", self._handle_livez)
        app.router.add_get("/signin", self._handle_signin_form)
        app.router.add_post("/signin", self._handle_signin)
        app.router.add_get("/ws/{tab}", self._handle_websocket)
        app.router.add_get("/line", self._handle_line_page)
        app.router.add_get("/line/ws/{tab}", self._handle_line_websocket)
        app.router.add_static("/static/wom/", Path(str(files(__package__) / "web_static")), show_index=False)
        app.router.add_static("/static/", _textual_serve_folder() / "static", show_index=False)
        settings = self.settings
        self._runner = web.AppRunner(
            app, access_log=None, handle_signals=False, shutdown_timeout=1.0,
            # aiohttp's own limits: a whole request within the header timeout (its keep-alive timer also runs
            # from the connection's start), short lines, few headers; its errors logged as refusals.
            keepalive_timeout=settings.web_header_timeout, max_line_size=settings.web_max_line,
            max_field_size=settings.web_max_line, max_headers=settings.web_max_headers,
            logger=AiohttpLog(self.refusals),
        )
        await self._runner.setup()
        self._site = _GuardedSite(self._runner, self.host, self._port, guard=self.guard)
        await self._site.start()
        if self.settings.signin_recheck > 0:
            self._recheck = asyncio.ensure_future(self._recheck_signins())
        log.info("web: listening on http://%s:%d", self.host, self.port)

    @property
    def port(self) -> int:
        """The port actually listened on (useful with port 0)."""
        assert self._site is not None and self._site._server is not None, "start() first"
        sockets = getattr(self._site._server, "sockets", None) or []
        return int(sockets[0].getsockname()[1]) if sockets else self._port

    @property
    def sessions(self) -> list[WebSession]:
        """The tabs' sessions (holding a seat)."""
        return list(self._sessions.values())

    def reclaim(self, tab: str, name: str | None) -> WebSession | None:
        """A signed-in name's game that waits for its browser (its tab was closed, or the cookie came back
        in another tab): it moves to ``tab``. Guests have only their tab's token; a game open in another
        tab stays there.
        """
        if name is None:
            return None
        waiting = [session for session in self._sessions.values()
                   if session.name == name and not session.connected and session.running and not session.ending]
        if not waiting:
            return None
        session = max(waiting, key=lambda candidate: candidate.started_at)
        del self._sessions[session.tab]
        session.tab = tab
        self._sessions[tab] = session
        log.info("%s: %s's game moves to another tab", session.label, clean(name))
        return session

    async def hand_over(self, session: WebSession) -> None:
        """The tab of ``session`` now signs in as someone else (or as nobody): a guest's game ends at once
        (its seat freed before the tab's new game takes one); a signed-in player's game leaves the tab's
        token and waits its seat grace, for a tab with that player's cookie to find it.
        """
        if session.name is None:
            log.info("%s: the tab signed in; its guest game ends", session.label)
            session.end("signed in")
            try:
                await asyncio.wait_for(session.closed.wait(), 10.0)
            except asyncio.TimeoutError:
                pass
            return
        if self._sessions.get(session.tab) is session:
            del self._sessions[session.tab]
        session.tab = secrets.token_urlsafe(24)
        self._sessions[session.tab] = session
        log.info("%s: the tab signed in as someone else; %s's game waits for their browser", session.label,
                 clean(session.name))

    def forget(self, session: WebSession) -> None:
        """A session ended: its tab's token no longer finds it."""
        if self._sessions.get(session.tab) is session:
            del self._sessions[session.tab]

    def forget_line(self, session: LineTab) -> None:
        """A line tab ended: its token no longer finds it."""
        if self._lines.get(session.tab) is session:
            del self._lines[session.tab]

    @property
    def line_sessions(self) -> list[LineTab]:
        """The line page's tabs (holding a seat)."""
        return list(self._lines.values())

    def _line_store(self) -> Any:
        """The store the line tabs play on: the server's, which its SSH line sessions share (through its hub,
        docs/serve.md, *Line mode*); a server without one (a test's), the door's own. ``StoreError`` if it
        cannot be reached now.
        """
        shared = getattr(self.server, "line_store", None)
        if shared is not None:
            return shared()
        if self._store is None:
            from ..settings import open_store

            self._store = open_store(self.settings)
        return self._store

    async def _recheck_signins(self) -> None:
        while True:
            await asyncio.sleep(self.settings.signin_recheck)  # a period, not a condition: nothing announces a revoke
            await self.recheck_signins()

    async def recheck_signins(self) -> int:
        """End every signed-in tab whose cookie no longer signs in as its name (revoked on any server sharing
        the store, or expired); how many ended. The store is asked off the loop, once per cookie.
        """
        tabs: list[WebSession | LineTab] = [*self._sessions.values(), *self._lines.values()]
        signed = [session for session in tabs
                  if session.name is not None and session.token is not None and session.running]
        if not signed or self.sign_in is None:
            return 0
        sign_in = self.sign_in
        tokens = {session.token for session in signed if session.token is not None}
        try:
            names = await asyncio.to_thread(lambda: {token: sign_in.who(token) for token in tokens})
        except StoreError as error:
            log.warning("web: cannot check the signed-in tabs' cookies now: %s", error)
            return 0
        ended = 0
        for session in signed:
            now_as = names.get(session.token or "")
            if now_as is None or session.name is None or now_as.lower() != session.name.lower():
                log.info("%s: %s's browser sign-in was revoked or expired; ending the game", session.label,
                         clean(session.name))
                session.end("signed out", SIGNED_OUT.format(name=session.name))
                ended += 1
        return ended

    async def close(self) -> None:
        """Stop listening and close what is left (the games were ended by the server)."""
        if self._recheck is not None:
            self._recheck.cancel()
            self._recheck = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._store is not None:
            self._store.close()
            self._store = None

    # -- who and where ------------------------------------------------------------------------------

    def _from_proxy(self, request: web.Request) -> bool:
        remote = request.remote
        if not remote or not self._trusted:
            return False
        try:
            address = ipaddress.ip_address(remote)
        except ValueError:
            return False
        return any(address in network for network in self._trusted)

    def client_address(self, request: web.Request) -> str:
        """The client's address: the peer's, or (from a ``--trusted-proxy``) the last untrusted X-Forwarded-For hop."""
        remote = request.remote or "?"
        if not self._from_proxy(request):
            return remote
        hops = [hop.strip() for hop in ",".join(request.headers.getall("X-Forwarded-For", [])).split(",") if hop.strip()]
        for hop in reversed(hops):
            try:
                address = ipaddress.ip_address(hop)
            except ValueError:
                return remote
            if not any(address in network for network in self._trusted):
                return str(address)
        return remote

    def scheme(self, request: web.Request) -> str:
        """``https`` when a trusted proxy says so (X-Forwarded-Proto), else the connection's own scheme."""
        if self._from_proxy(request):
            proto = request.headers.get("X-Forwarded-Proto", "").split(",")[0].strip().lower()
            if proto in ("http", "https"):
                return proto
        return request.scheme

    def origin_allowed(self, request: web.Request) -> bool:
        """True if the request comes from our own page: its Origin is the page's address, or a ``--web-origin``.

        A request without Origin is not from a browser's page (browsers send it on every websocket and
        form post), so it carries no other site's intent.
        """
        origin = request.headers.get("Origin")
        if origin is None:
            return True
        origin = origin.rstrip("/").lower()
        own = f"{self.scheme(request)}://{request.host}".lower()
        return origin == own or origin in self._origins

    async def who(self, request: web.Request) -> str | None:
        """The registered name the request's cookie signs in as (None: a guest, also while the store cannot
        be read: the tab then plays as a guest rather than not at all). The store is asked off the loop.
        """
        assert self.sign_in is not None
        token = request.cookies.get(COOKIE)
        if not token:
            return None
        try:
            return await asyncio.to_thread(self.sign_in.who, token)
        except StoreError as error:
            log.warning("web: cannot check a sign-in cookie, playing as a guest: %s", error)
            return None

    # -- routes -------------------------------------------------------------------------------------

    @web.middleware
    async def _headers(self, request: web.Request, handler: Any) -> web.StreamResponse:
        try:
            response: web.StreamResponse = await handler(request)
        except web.HTTPException as exc:
            response = exc
        for key, value in SECURITY_HEADERS.items():
            response.headers.setdefault(key, value)
        if isinstance(response, web.HTTPException):
            raise response
        return response

    @web.middleware
    async def _check_host(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """A whole request came (the connection is no longer unfinished); its Host must name this server."""
        self.guard.finished(request.transport)
        host = request.headers.get("Host")
        if self._from_proxy(request) and request.headers.get("X-Forwarded-Host"):
            host = request.headers["X-Forwarded-Host"].split(",")[0]
        if not self.hosts.allowed(host):
            self.refusals.note("request for another host name (421)", self.client_address(request), host or "no Host")
            raise web.HTTPMisdirectedRequest(text="This server does not answer to that name.\n")
        response: web.StreamResponse = await handler(request)
        return response

    async def _handle_page(self, request: web.Request) -> web.Response:
        return web.Response(text=self._page, content_type="text/html", headers={"Cache-Control": "no-store"})

    async def _handle_livez(self, request: web.Request) -> web.Response:
        return web.Response(text="ok\n")

    async def _handle_signin_form(self, request: web.Request) -> web.Response:
        return await self._signin_page(request)

    async def _signin_page(self, request: web.Request, refusal: str | None = None, status: int = 200) -> web.Response:
        name = await self.who(request)
        text = SIGNIN_PAGE.format(
            status=html.escape(f"Signed in as {name}." if name else "You play as a guest."),
            refusal=f'<p class="refusal">{html.escape(refusal)}</p>' if refusal else "",
            tab=secrets.token_urlsafe(18),
        )
        return web.Response(text=text, content_type="text/html", status=status, headers={"Cache-Control": "no-store"})

    async def _handle_signin(self, request: web.Request) -> web.Response:
        if not self.origin_allowed(request):
            raise web.HTTPForbidden(text="This form only signs in from this server's own page.\n")
        form = await request.post()
        code, tab = form.get("code"), form.get("tab")
        if not isinstance(code, str) or not isinstance(tab, str) or not TAB_TOKEN.match(tab):
            return await self._signin_page(request, "Type the one-time code.", status=400)
        assert self.sign_in is not None
        address = self.client_address(request)
        try:
            token = await asyncio.to_thread(self.sign_in.redeem, code.strip()[:64], tab=tab, address=address)
        except Refusal as refusal:
            log.info("web: sign-in from %s refused: %s", clean(address), clean(str(refusal), 200))
            return await self._signin_page(request, str(refusal), status=400)
        except StoreError as error:
            log.warning("web: sign-in from %s failed: %s", clean(address), error)
            return await self._signin_page(request, "The arcade cannot check codes just now: try again later.",
                                           status=503)
        log.info("web: a browser from %s signed in", clean(address))
        response = web.HTTPSeeOther("/")
        response.set_cookie(
            COOKIE, token, max_age=COOKIE_MAX_AGE, path="/", httponly=True, samesite="Strict",
            secure=self.scheme(request) == "https",
        )
        raise response

    async def _handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        if not self.origin_allowed(request):
            who = Who(None, clean(self.client_address(request)), transport="web")
            self.server.events.refused(who, "origin", "web: websocket from %s refused: Origin %s", who.address,
                                       clean(request.headers.get("Origin", ""), 200))
            raise web.HTTPForbidden(text="Not from this server's page.\n")
        tab = request.match_info["tab"]
        if not TAB_TOKEN.match(tab):
            raise web.HTTPNotFound()
        size = (_query_int(request, "width", 80), _query_int(request, "height", 24))
        name = await self.who(request)
        host = self.client_address(request)
        socket = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_MESSAGE)
        await socket.prepare(request)
        session = self._sessions.get(tab)
        if session is not None and session.ending:
            session = None  # its game is ending (this tab left it at the menu): the tab gets a game of its own
        session = session or self.reclaim(tab, name)
        if session is not None and session.name != name:
            # This tab signed in (or out) since its game began: that game is not for who is here now.
            await self.hand_over(session)
            session = self.reclaim(tab, name)
        if session is None:
            session = await self._new_session(socket, tab, host, name, size)
            if session is None:
                return socket
        if name is not None:
            session.token = request.cookies.get(COOKIE)
        await session.attach(socket, size)
        try:
            await session.receive(socket, self.refusals)
        finally:
            session.detach(socket)
        return socket

    async def _handle_line_page(self, request: web.Request) -> web.Response:
        return web.Response(text=line_page(await self.who(request)), content_type="text/html",
                            headers={"Cache-Control": "no-store"})

    async def _handle_line_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """The line page's socket (:mod:`.web_line`): the same Origin check, token and identity as a terminal tab's."""
        if not self.origin_allowed(request):
            who = Who(None, clean(self.client_address(request)), transport="web")
            self.server.events.refused(who, "origin", "web: line websocket from %s refused: Origin %s", who.address,
                                       clean(request.headers.get("Origin", ""), 200))
            raise web.HTTPForbidden(text="Not from this server's page.\n")
        tab = request.match_info["tab"]
        if not TAB_TOKEN.match(tab):
            raise web.HTTPNotFound()
        name = await self.who(request)
        host = self.client_address(request)
        socket = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_LINE_MESSAGE)
        await socket.prepare(request)
        session = self._lines.get(tab)
        if session is not None and session.name != name:
            session.end("signed in")  # this tab signed in (or out) since: a new session for who is here now
            await session.closed.wait()
            session = None
        if session is None:
            try:
                store = self._line_store()
            except (StoreError, OSError) as error:
                log.warning("web: line mode cannot open the store: %s", error)
                await socket.send_json(["line", "Sorry, the arcade's store cannot be reached right now. Try again later."])
                await socket.close(code=CLOSE_REFUSED, message=b"store")
                return socket
            session = await open_line_tab(self, socket, tab, host, name, store)
            if session is None:
                return socket
            self._lines[tab] = session
        if name is not None:
            session.token = request.cookies.get(COOKIE)
        await session.attach(socket)
        try:
            await session.receive(socket, self.refusals)
        finally:
            session.detach(socket)
        return socket

    async def _new_session(
        self, socket: web.WebSocketResponse, tab: str, host: str, name: str | None, size: tuple[int, int]
    ) -> WebSession | None:
        label = f"web session #{self.next_number()}"
        session = WebSession(self, tab, label, host, name, (min(max(size[0], 1), MAX_COLUMNS), min(max(size[1], 1), MAX_ROWS)))
        refused = self.seat(cast("GameSession", session), session.who, label)
        if refused is not None:
            text, reason, next_step = refused
            await say_goodbye(socket, text, CLOSE_REFUSED, reason, next_step)
            return None
        self._sessions[tab] = session
        session.start()
        return session

    def next_number(self) -> int:
        """The next tab's number (its label, ``web session #N`` or ``web line #N``)."""
        return next(self._numbers)

    def seat(self, session: GameSession, who: Who, label: str) -> tuple[str, str, str] | None:
        """Seat a new tab (a terminal's or a line page's) under the server's rules, or say why not: the
        text to show, the reason, what to do next. A guest under ``--no-guests``, a ban, a full arcade,
        too many from the address or network.
        """
        events = self.server.events
        events.tab_signed_in(who)
        name = getattr(session, "name", None)
        if name is None and (self.settings.no_guests or self.settings.authorized_keys is not None):
            events.refused(who, "no_guests", "%s: refused, not signed in and no guests", label,
                           detail=NO_GUESTS_HERE.strip())
            return NO_GUESTS_HERE, "no guests", ""
        banned = self.server.refusal(session)  # a banned address or name, or a retired name
        if banned is not None:
            return f"{banned}\r\n", "banned", ""
        refusal = self.server.take_seat(session)
        if refusal is None:
            return None
        if refusal == "full":
            text = ARCADE_FULL.format(seats=self.settings.max_sessions)
            events.refused(who, "full", "%s: refused, all %d seats taken", label, self.settings.max_sessions,
                           detail=text.strip())
        elif refusal == "hub":
            text = HUB_DOWN
            events.refused(who, "hub", "%s: refused, the hub is restarting", label, detail=text.strip())
        elif refusal == "network":
            count = self.settings.max_per_network
            text = TOO_MANY_FROM_NETWORK.format(games=counted(count, "game"))
            events.refused(who, "network", "%s: refused, %d sessions from the network of %s already", label,
                           count, who.address, detail=text.strip())
        else:
            text = TOO_MANY_FROM_ADDRESS.format(games=counted(self.settings.max_per_ip, "game"))
            events.refused(who, "address", "%s: refused, %d sessions from %s already", label,
                           self.settings.max_per_ip, who.address, detail=text.strip())
        return text, refusal, TRY_AGAIN_LATER if refusal == "full" else FREE_A_SEAT


class _GuardedSite(web.TCPSite):
    """aiohttp's TCP site, each connection admitted by the :class:`~.webguard.ConnectionGuard` first."""

    def __init__(self, runner: web.AppRunner, host: str, port: int, *, guard: ConnectionGuard) -> None:
        super().__init__(runner, host, port)
        self._guard = guard

    async def start(self) -> None:
        """Listen as :class:`aiohttp.web.TCPSite` does, through the guard."""
        await web.BaseSite.start(self)
        server = self._runner.server
        assert server is not None
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(
            self._guard.protocol(server), self._host, self._port, backlog=self._backlog,
            reuse_address=self._reuse_address, reuse_port=self._reuse_port)


def _query_int(request: web.Request, key: str, default: int) -> int:
    try:
        return int(request.query.get(key, default))
    except ValueError:
        return default
