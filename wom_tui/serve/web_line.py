"""Line mode in a browser: ``/line`` on ``--web`` (docs/serve.md, *Line mode in a browser*).

A plain HTML page — a heading, an ARIA live region (``role="log"``, focusable so that its lines scroll by
keyboard) where each line of the game appears as a paragraph, and a form with one labelled text field — for screen readers and braille displays: no canvas,
no terminal, readable without its stylesheet. ``line.js`` focuses the field, sends each line typed and
appends each line the game says; without JavaScript the page says it needs it.

Each tab runs one :class:`~wom_tui.line.engine.LineSession` (the engine every line front end drives) in the server's
own process, on the store its SSH line sessions share (``GameServer.line_store``): no game process to fork,
which is what makes line mode cheap. Its identity is the browser's
signed-in session cookie (:mod:`.web_auth`) or a guest, exactly as for the terminal page; it holds a seat
under the same caps (``--max-sessions``, ``--max-per-ip``, ``--max-per-network``, bans, ``--no-guests``),
its input goes through the same throttle as a terminal tab's keys (and, as over SSH, at most ``QUEUED`` lines
wait for an answer), a tab that leaves :data:`UNSENT_LIMIT` lines unread is ended, a websocket message is at most
:data:`MAX_LINE_MESSAGE` bytes, JSON nested deeper than ``max_json_depth`` closes the socket, and it ends
after the same idle timeout.

Transport: a websocket on ``/line/ws/<tab>``, the tab's token kept in ``sessionStorage`` as the terminal
page's. One connection carries both ways, and the door's websocket path already has its guards (the
Origin check, aiohttp's heartbeat and message cap, the connection guard); fetch and server-sent events
would need a second route for the typed lines with a token of its own against cross-site posts. A socket that
drops (a blink, a reload) finds its session again for the seat grace; the lines said meanwhile (up to
:data:`KEPT_WHILE_AWAY`) are sent when it comes back.
"""

from __future__ import annotations

import asyncio
import html
import logging
from collections import deque
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol, cast

from aiohttp import web

from ..domain.identity import Identity
from ..line.engine import LineSession
from ..line.words import MAX_INPUT
from .events import Who
from .session import SeatedGame, describe_seconds
from .lines import NOT_READING, QUEUED
from .webguard import RefusalLog, page_messages

if TYPE_CHECKING:
    from .session import GameSession


class LineDoor(Protocol):
    """What a line tab needs of the web door (:class:`~wom_tui.serve.web.WebDoor` is one)."""

    server: Any

    def next_number(self) -> int:
        """The next tab's number."""
        ...

    def seat(self, session: GameSession, who: Who, label: str) -> tuple[str, str, str] | None:
        """Seat a new tab, or say why not (text, reason, what next)."""
        ...

    def forget_line(self, session: LineTab) -> None:
        """A line tab ended."""
        ...

log = logging.getLogger("wom_tui.serve")

MAX_LINE_MESSAGE = 4 * 1024
"""The largest websocket message the line page may send (a line is at most ``MAX_INPUT`` characters)."""
KEPT_WHILE_AWAY = 200
"""Lines kept for a tab whose socket dropped, sent when it comes back (the oldest go first)."""
UNSENT_LIMIT = 1000
"""Lines on their way to a tab that does not read them (its socket's buffer full); more end the session."""

LINE_PAGE = """<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>World of Mastermind · line mode</title>
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <link rel="stylesheet" href="/static/wom/line.css" />
    <script src="/static/wom/line.js" defer></script>
  </head>
  <body>
    <main>
      <h1>World of Mastermind, line mode</h1>
      <p id="line-who">{who} <a href="/signin">Sign in</a> · <a href="/">the full game</a></p>
      <h2 id="line-log-title">Game</h2>
      <div id="line-log" role="log" aria-live="polite" aria-labelledby="line-log-title" tabindex="0"></div>
      <form id="line-form" action="/line" method="get" autocomplete="off">
        <label for="line-input">Your guess or command</label>
        <input id="line-input" name="line" type="text" maxlength="{max_input}" autocomplete="off"
               autocapitalize="off" spellcheck="false" aria-describedby="line-hint" />
        <button type="submit">Send</button>
        <p id="line-hint">Type <kbd>help</kbd> for the commands; a guess is letters or digits, as <kbd>RGBY</kbd>.</p>
      </form>
      <p id="line-status" role="status"></p>
      <noscript><p>This page needs JavaScript to talk to the game.</p></noscript>
    </main>
  </body>
</html>
"""


def line_page(name: str | None) -> str:
    """The ``/line`` page for a browser signed in as ``name`` (None: a guest)."""
    who = f"Signed in as {name}." if name else "You play as a guest."
    return LINE_PAGE.format(who=html.escape(who), max_input=MAX_INPUT)


class LineTab(SeatedGame):
    """One browser tab's line-mode session: a :class:`LineSession` in this process, holding a seat."""

    def __init__(self, door: LineDoor, tab: str, label: str, host: str, name: str | None) -> None:
        self._door = door
        self._server = door.server
        settings = door.server.settings
        self._as_browser_tab(tab, label, host, name, door.server.events, settings.max_paste, settings.paste_bytes_per_key)
        self._log_budget = 0
        self._proc = None
        self._socket: web.WebSocketResponse | None = None
        self._away: deque[str] = deque(maxlen=KEPT_WHILE_AWAY)
        self.session: LineSession | None = None
        self.task: asyncio.Task[None] | None = None
        self.closed = asyncio.Event()
        self._lines: asyncio.Queue[str | None] = asyncio.Queue()
        self._unsent = 0
        """Lines given to the socket and not yet taken by it."""
        self._told_queue = False

    # -- what the server sees (as of any seated session) ---------------------------------------------

    @property
    def _idle_timeout(self) -> float | None:
        return self._server.settings.idle_timeout

    @property
    def connected(self) -> bool:
        """True while a tab's websocket is attached."""
        return self._socket is not None

    def start(self, store: Any) -> None:
        """Start the line session on ``store`` (the seat is already taken)."""
        self._started_at = self._last_input = self._loop.time()
        self._events.session_started(self.who)
        settings = replace(self._server.game_settings(self._server.next_seed()), session_id=self.presence_id,
                           transport="web", operator=False, client_address=None if self.host == "?" else self.host)
        identity = Identity.browser_tab(self.name) if self.name else Identity.guest()
        self.session = LineSession(store, settings, identity, self._say)
        self.task = asyncio.ensure_future(self._run())
        self._arm_idle()

    def end(self, reason: str, farewell: str | None = None) -> None:
        """End the session: say ``farewell`` (a server's line: its own line breaks dropped) and close the socket."""
        if self._ending:
            return
        self._ending = reason
        self._farewell = " ".join(farewell.split()) if farewell else None
        for handle in (self._idle_handle, self._grace_handle):
            if handle is not None:
                handle.cancel()
        self._lines.put_nowait(None)
        if self.task is None:
            self.closed.set()

    async def _run(self) -> None:
        session = self.session
        assert session is not None
        status = 0
        try:
            await session.start()
            ended = asyncio.ensure_future(session.ended.wait())  # the player quit, or the engine ended itself
            try:
                while not session.ended.is_set():
                    typed = asyncio.ensure_future(self._lines.get())
                    await asyncio.wait({typed, ended}, return_when=asyncio.FIRST_COMPLETED)
                    if not typed.done():
                        typed.cancel()
                        break
                    line = typed.result()
                    if line is None:
                        break
                    await session.feed(line)
            finally:
                ended.cancel()
        except Exception as error:  # noqa: BLE001 - one tab's failure ends that tab, logged, not the server
            self._events.error(self.who, "%s: line session failed: %r", self.label, error)
            self._ending = self._ending or "game misbehaved"
            self._farewell = "Sorry, something went wrong in the game and it had to stop. Please load the page again."
            status = 1
        finally:
            await session.close()
            await self._finish(status)

    async def _finish(self, status: int) -> None:
        for handle in (self._idle_handle, self._kill_handle, self._grace_handle):
            if handle is not None:
                handle.cancel()
        self._server.leave_seat(cast("GameSession", self))
        self._door.forget_line(self)
        socket, self._socket = self._socket, None
        if socket is not None and not socket.closed:
            try:
                if self._farewell:
                    await socket.send_json(["line", self._farewell])
                await socket.send_json(["goodbye", {"reason": self._ending or "quit"}])
                await socket.close(code=4002, message=b"game over")
            except (ConnectionError, RuntimeError):
                pass
        self.closed.set()
        self._events.session_ended(self.who, self._ending or "game quit", self._loop.time() - self._started_at, status)

    # -- the engine's lines, the tab's lines ---------------------------------------------------------

    def _say(self, line: str) -> None:
        """The engine's ``write``: one line to the tab (kept for it while its socket is away)."""
        socket = self._socket
        if socket is None or socket.closed:
            self._away.append(line)
            return
        if self._unsent >= UNSENT_LIMIT:
            log.info("%s: %d lines unread; ending the session", self.label, self._unsent)
            self.end(NOT_READING)
            return
        self._unsent += 1
        asyncio.ensure_future(self._send(socket, line))

    async def _send(self, socket: web.WebSocketResponse, line: str) -> None:
        try:
            await socket.send_json(["line", line])
        except (ConnectionError, RuntimeError):
            self._away.append(line)
        finally:
            self._unsent -= 1

    async def attach(self, socket: web.WebSocketResponse) -> None:
        """Give the session this tab's socket (the first, or one after a blink or a reload)."""
        old, self._socket = self._socket, socket
        if old is not None and not old.closed:
            await old.close(code=4001, message=b"opened again")
        if self._grace_handle is not None:
            self._grace_handle.cancel()
            self._grace_handle = None
        while self._away:
            await socket.send_json(["line", self._away.popleft()])

    def detach(self, socket: web.WebSocketResponse) -> None:
        """The tab's socket closed: keep the session for the seat grace, unless it comes back."""
        if self._socket is not socket:
            return
        self._socket = None
        if self._ending or self.task is None or self.task.done():
            return
        grace = self._server.settings.seat_grace
        log.info("%s: browser gone; the line session waits %s for it", self.label, describe_seconds(grace))
        self._grace_handle = self._loop.call_later(grace, self.end, "browser left")

    async def receive(self, socket: web.WebSocketResponse, refusals: RefusalLog | None = None) -> None:
        """Each message ``["line", text]`` is a line typed: throttled as a terminal tab's keys, then fed."""
        async for envelope in page_messages(socket, self._server.settings.max_json_depth, refusals, self.host,
                                            "line websocket message", 1007):
            if not (isinstance(envelope, list) and len(envelope) == 2 and envelope[0] == "line"
                    and isinstance(envelope[1], str)):
                continue
            self._typed(envelope[1])

    def _typed(self, line: str) -> None:
        if self._ending:
            return
        # Counted as the keys a person would type for it (its characters and Enter), at a terminal tab's rate;
        # its text is not parsed as keys (a typed escape sequence is the engine's to clean, as data).
        keys = min(len(line), MAX_INPUT + 1) + 1
        dropped = self._throttle.dropped
        passed = self._throttle.feed(b"k" * keys)
        if self._throttle.dropped != dropped or len(passed) < keys:
            self._events.throttled(self.who, self._throttle.dropped - dropped, first=not dropped)
            self._say("That came faster than anyone types: the line was dropped. Type it again.")
            return
        self._last_input = self._loop.time()
        if self._lines.qsize() >= QUEUED:
            if not self._told_queue:
                self._told_queue = True
                self._say(f"More than {QUEUED} lines are waiting for an answer: that one was dropped.")
            return
        self._told_queue = False
        self._lines.put_nowait(line[: MAX_INPUT + 1])  # longer: the engine says it was too long


async def open_line_tab(door: LineDoor, socket: web.WebSocketResponse, tab: str, host: str, name: str | None,
                        store: Any) -> LineTab | None:
    """A new line tab, seated and started, or None (the socket was told why, and closed)."""
    session = LineTab(door, tab, f"web line #{door.next_number()}", host, name)
    refused = door.seat(cast("GameSession", session), session.who, session.label)
    if refused is not None:
        text, reason, next_step = refused
        try:
            await socket.send_json(["line", " ".join(text.split())])
            if next_step:
                await socket.send_json(["line", next_step.replace("press Restart", "load the page again")
                                        .replace("Press Restart", "Load the page again")])
            await socket.send_json(["goodbye", {"reason": reason}])
            await socket.close(code=4000, message=reason.encode())
        except (ConnectionError, RuntimeError):
            pass
        return None
    session.start(store)
    return session


__all__ = ["KEPT_WHILE_AWAY", "LINE_PAGE", "LineTab", "MAX_LINE_MESSAGE", "line_page", "open_line_tab"]
