"""One SSH session: the full wom-tui app in its own process, on its own pseudo-terminal."""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import fcntl
import logging
import os
import signal
import struct
import termios
from typing import TYPE_CHECKING, Protocol

import asyncssh

from .. import launch
from ..settings import IDLE_STATUS
from ..domain.presence import new_session_id
from ..domain.words import counted
from ..domain.store.api import StoreError
from .events import MAX_REPORTS, Events, Who
from .lines import OFFER, LineFront, chose_line, identify, remember_line
from .logsafe import clean
from .throttle import Coalescer, InputThrottle

if TYPE_CHECKING:
    from ..domain.store.api import Store
    from ..settings import Settings
    from .warmparent import WarmChild

log = logging.getLogger("wom_tui.serve")

NO_TERMINAL = "World of Mastermind needs a terminal: use ssh -t (for example: ssh -t -p {port} {host}).\r\n"
ARCADE_FULL = "Sorry, all {seats} seats of World of Mastermind are taken right now. Please try again in a little while.\r\n"
TOO_MANY_FROM_ADDRESS = "Sorry, at most {games} of World of Mastermind at once from one address.\r\n"
HUB_DOWN = "Sorry, World of Mastermind's store is restarting right now. Please try again in a minute.\r\n"
TOO_MANY_FROM_NETWORK = "Sorry, at most {games} of World of Mastermind at once from one network.\r\n"
NO_GUESTS = (
    "This World of Mastermind server only lets in players with an SSH key "
    "(make one with ssh-keygen -t ed25519, then connect again).\r\n"
)
IDLE_CLOSED = "\r\nWorld of Mastermind closed this session after {idle} without a key press. See you soon!\r\n"
IDLE_AT_TABLE = (
    "\r\nYour table waited {idle} for your move, so this session was closed.\r\n"
    "Keys that make no move at a table do not keep it open. See you soon!\r\n"
)
"""What a player reads whose game ended as idle at a table (its exit status ``IDLE_STATUS``)."""
SHUTTING_DOWN = "\r\nThe World of Mastermind server is shutting down. Thanks for playing!\r\n"
START_FAILED = "Sorry, the game could not start. Please try again later.\r\n"

# Put the client's terminal back the way a shell expects it when the game could not do so itself
# (it was stopped): main screen, cursor shown, mouse/paste/focus reporting off, colours reset.
TERMINAL_RESET = (
    b"\x1b[?1049l\x1b[?25h\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l"
    b"\x1b[?2004l\x1b[?1004l\x1b[<u\x1b[0m\r\n"
)

# Variables describing the *server operator's* terminal must not reach a client's game.
_HOST_TERMINAL_VARS = frozenset(
    {
        "COLUMNS", "LINES", "TERM", "COLORTERM", "NO_COLOR", "TERM_PROGRAM", "TERM_PROGRAM_VERSION",
        "TMUX", "TMUX_PANE", "STY", "WINDOWID", "VTE_VERSION", "KITTY_WINDOW_ID", "WT_SESSION",
        "SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY", "SSH_AUTH_SOCK", "DISPLAY",
    }
)
# Variables a client may send (ssh SendEnv) that only change how the game looks.
_CLIENT_VARS = ("COLORTERM", "NO_COLOR")

MAX_COLUMNS = 1000
MAX_ROWS = 500
_INPUT_BACKLOG = 64 * 1024
_HELD = 4096
"""Bytes typed before the game started that are kept for it (the rest is dropped)."""
_LOG_BUDGET = 256 * 1024
"""Bytes of a game's own log copied into the server's log, at most (a traceback is a few KiB)."""
_LOG_LINE = 2000
_KILL_GRACE = 3.0
REPORT_MARK = launch.REPORT_MARK.encode()
"""How a game's report line begins on its log pipe (``launch.report``); the rest is one JSON object."""
SEAT_REPORT = b'{"event":"seat","at_table":'
"""A game's report that its player took (``true``) or gave up (``false``) a seat at a table."""
_NO_EVENTS = Events()


def describe_seconds(seconds: float) -> str:
    """Human wording for a duration: "10 minutes", "1 minute", "45 seconds"."""
    seconds = round(seconds)
    if seconds >= 60 and seconds % 60 == 0:
        minutes = seconds // 60
        return counted(minutes, "minute")
    return counted(seconds, "second")


def set_window_size(fd: int, columns: int, rows: int, xpixels: int = 0, ypixels: int = 0) -> None:
    """Set a pty's size; the kernel then sends SIGWINCH to the terminal's foreground process group.

    A size of 0 (some clients send it) means 80×24; absurd sizes are capped so that no
    client can make its game allocate a gigantic screen.
    """
    columns = min(columns, MAX_COLUMNS) if columns > 0 else 80
    rows = min(rows, MAX_ROWS) if rows > 0 else 24
    xpixels, ypixels = (min(max(value, 0), 0xFFFF) for value in (xpixels, ypixels))
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, xpixels, ypixels))


def child_environment(term: str, client_env: dict[str, str]) -> dict[str, str]:
    """The game's environment: the server's, minus its terminal's traits, plus the client's TERM."""
    env = {key: value for key, value in os.environ.items() if key not in _HOST_TERMINAL_VARS}
    sensible = term and len(term) <= 64 and term.isascii() and term.isprintable() and " " not in term
    env["TERM"] = term if sensible else "xterm-256color"
    for key in _CLIENT_VARS:
        value = client_env.get(key)
        if isinstance(value, str) and value.isprintable():
            env[key] = value
    return env


class SessionHost(Protocol):
    """What a session needs of its server (:class:`~wom_tui.serve.server.GameServer` is one)."""

    @property
    def settings(self) -> Settings:
        """The server's settings (caps, idle timeout, guests)."""
        ...

    def take_seat(self, session: GameSession) -> str | None:
        """Seat the session, or say why not (``"full"``, ``"address"``, ``"network"``)."""
        ...

    def leave_seat(self, session: GameSession) -> None:
        """Free the session's seat."""
        ...

    def refusal(self, session: GameSession) -> str | None:
        """The line a banned client is turned away with (docs/serve.md, *Moderating the arcade*), or None."""
        ...

    def next_seed(self) -> int:
        """The next session's seed."""
        ...

    def game_settings(self, seed: int) -> Settings:
        """The settings of a session's game with ``seed``."""
        ...

    async def start_game(
        self, slave: int, settings: Settings, fingerprint: str | None, env: dict[str, str], *, log_fd: int | None = None
    ) -> WarmChild:
        """Start a session's game on the pty ``slave``."""
        ...

    @property
    def events(self) -> Events:
        """Where the session's events are logged and counted."""
        ...


class SeatedGame:
    """What an SSH session and a browser tab share once seated: their game's clock, its signals, the idle check.

    A subclass sets these in its ``__init__`` and calls :meth:`_arm_idle` when its game starts.
    """

    label: str
    task: asyncio.Task[None] | None
    _loop: asyncio.AbstractEventLoop
    _throttle: InputThrottle
    _proc: WarmChild | None
    _started_at: float
    _last_input: float
    _idle_handle: asyncio.TimerHandle | None
    _kill_handle: asyncio.TimerHandle | None
    who: Who
    _events: Events
    _reports: int
    _log_budget: int
    _ending: str | None
    _farewell: str | None
    at_table = False
    """The game says its player holds a seat at a table not over yet (``SEAT_REPORT``): only such a session
    waits for a dropped connection (a browser tab: the seat grace)."""

    def _as_browser_tab(self, tab: str, label: str, host: str, name: str | None, events: Events,
                        max_paste: int, paste_bytes_per_key: int) -> None:
        """Set what a browser tab (the terminal page's or the line page's: serve/web.py, serve/web_line.py)
        starts with: its tab id and log label, the client's address (for the per-address cap), the name its
        cookie signed in as (None: a guest), its presence id (chosen here, so that an operator's kick reaches
        the tab), who it is for its log lines and metrics (docs/serve.md, *Logs*), its input throttle, and no
        game, clock or goodbye yet.
        """
        self.tab, self.label, self.host, self.name = tab, label, host, name
        self.token: str | None = None
        """The cookie that signed it in (checked again every ``signin_recheck``: revoked, the tab ends)."""
        self.fingerprint: str | None = None
        self.presence_id = new_session_id()
        self.who = Who(label.split("#", 1)[-1], clean(host), None, name=name, transport="web", cookie=name is not None)
        self._events = events
        self._reports = 0
        self._loop = asyncio.get_running_loop()
        self._throttle = InputThrottle(max_paste=max_paste, paste_bytes_per_key=paste_bytes_per_key)
        self._started_at = self._last_input = 0.0
        self._idle_handle = self._kill_handle = None
        self._grace_handle: asyncio.TimerHandle | None = None
        self._ending = self._farewell = None

    @property
    def _idle_timeout(self) -> float | None:
        raise NotImplementedError

    def end(self, reason: str, farewell: str | None = None) -> None:
        """End the session (stop the game, then say ``farewell``)."""
        raise NotImplementedError

    @property
    def running(self) -> bool:
        """True while this session holds a seat."""
        return self.task is not None and not self.task.done()

    @property
    def started_at(self) -> float:
        """When the game started (loop time; 0 before)."""
        return self._started_at

    @property
    def input_dropped(self) -> int:
        """Keystrokes dropped so far for coming faster than a person types."""
        return self._throttle.dropped

    def _game_log_line(self, line: bytes | bytearray) -> None:
        """One line of the game's log pipe: a report (counted, never logged) or a line the game logged."""
        if line.startswith(REPORT_MARK):
            # What the game reports for the metrics (launch.report): counted, never logged.
            self._reports += 1
            report = line[len(REPORT_MARK):]
            if report.startswith(SEAT_REPORT):
                self.at_table = report[len(SEAT_REPORT):].startswith(b"true")
                return
            if self._reports <= MAX_REPORTS:
                self._events.game_report(
                    self.who, line[len(REPORT_MARK):].decode("utf-8", "replace"), self._loop.time() - self._started_at)
            return
        if self._log_budget <= 0:
            return
        self._log_budget -= len(line)
        if self._log_budget <= 0:
            log.warning("%s: the game logs too much; the rest is left out", self.label)
            return
        self._events.game_log(self.who, clean(line.decode("utf-8", "replace"), _LOG_LINE))

    def _hang_up(self) -> None:
        """SIGHUP the game now, and SIGKILL it if it is still there after the grace."""
        self._signal_game(signal.SIGHUP)
        self._kill_handle = self._loop.call_later(_KILL_GRACE, self._signal_game, signal.SIGKILL)

    def _signal_game(self, signum: int) -> None:
        # The game leads its own session, so its pid is also its process group.
        if self._proc is not None and self._proc.returncode is None:
            try:
                os.killpg(self._proc.pid, signum)
            except (ProcessLookupError, PermissionError):
                pass

    def _idle_goodbye(self, status: int) -> None:
        """The game ended as idle at its table (``IDLE_STATUS``): the session ends as idle, saying why."""
        if status == IDLE_STATUS and not self._farewell:
            timeout = self._idle_timeout or 0.0
            log.info("%s: no move at its table for %s, closed as idle", self.label, describe_seconds(timeout))
            self._ending = self._ending or "idle"
            self._farewell = IDLE_AT_TABLE.format(idle=describe_seconds(timeout))

    def _arm_idle(self) -> None:
        timeout = self._idle_timeout
        if timeout and timeout > 0:
            self._idle_handle = self._loop.call_at(self._last_input + timeout, self._check_idle)

    def _check_idle(self) -> None:
        timeout = self._idle_timeout or 0.0
        # call_at may fire a clock tick early; without the slack that would re-arm in a tight loop.
        if self._loop.time() >= self._last_input + timeout - 0.05:
            log.info("%s: idle for %s, closing", self.label, describe_seconds(timeout))
            self.end("idle", IDLE_CLOSED.format(idle=describe_seconds(timeout)))
        else:
            self._arm_idle()


class GameSession(SeatedGame, asyncssh.SSHServerSession):
    """Bridges one SSH channel (bytes, no line editor) to a wom-tui process on a fresh pty."""

    def __init__(self, server: SessionHost, label: str, host: str = "?", fingerprint: str | None = None, *,
                 operator: bool = False) -> None:
        self._server = server
        self.operator = operator
        """Signed in with an ``--operator-key`` key (verified by the server): its game gets the Operator screen."""
        self.presence_id = new_session_id()
        """The game's id in the store's presence (chosen here, so that a kick of it reaches this session)."""
        self.label = label
        self.host = host
        """The client's address (for the per-address cap)."""
        self.fingerprint = fingerprint
        """The verified key's fingerprint, or None for a guest: the game process is told this, nothing else."""
        self.who = Who(label.removeprefix("session #"), clean(host), fingerprint, operator=operator)
        """Who this session is, for its log lines and metrics (the name once the game reports it)."""
        self._events: Events = getattr(server, "events", None) or _NO_EVENTS
        self._reports = 0
        self._throttle = InputThrottle(max_paste=server.settings.max_paste,
                                       paste_bytes_per_key=server.settings.paste_bytes_per_key)
        self._utf8 = codecs.getincrementaldecoder("utf-8")(errors="replace")
        """Makes the client's input UTF-8 before the game reads it (each invalid byte becomes U+FFFD)."""
        self._log_fd: int | None = None
        self._log_buffer = bytearray()
        self._log_budget = _LOG_BUDGET
        self._loop = asyncio.get_running_loop()
        self._chan: asyncssh.SSHServerChannel | None = None
        self._open = False
        self._term: str | None = None
        self._size = (80, 24, 0, 0)
        self._resizes = Coalescer(server.settings.resize_window, self._apply_size, self._loop)
        self.game_settings: Settings | None = None
        """The settings the game was started with (the server's, with this session's seed)."""
        self.game_fingerprint: str | None = None
        """The key the game was told it plays as (None: a guest)."""
        self.pid: int | None = None
        self._proc: WarmChild | None = None
        self._master: int | None = None
        self._reading = False
        self._writing_paused = False
        self.transport_paused = False
        """Set by the connection while its TCP send buffer is full (the client is not reading)."""
        self._input = bytearray()
        self._input_paused = False
        self._started_at = 0.0
        self._last_input = 0.0
        self._idle_handle: asyncio.TimerHandle | None = None
        self._kill_handle: asyncio.TimerHandle | None = None
        self._ending: str | None = None
        self._farewell: str | None = None
        self.task: asyncio.Task[None] | None = None
        self.closed = asyncio.Event()
        """Set once the SSH channel has closed."""
        self.line_mode = False
        """The client asked for line mode (``ssh host line``), or chose it at the question (docs/serve.md, *Line mode*)."""
        self._line: LineFront | None = None
        self._asking: asyncio.Future[bool] | None = None
        """While a plain ``ssh host`` is asked whether to play in line mode: the answer to come."""
        self._held = bytearray()
        """What the client typed before its game started (while its choice of line mode was looked up)."""

    # -- SSH requests ---------------------------------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel) -> None:
        """Remember the channel."""
        self._chan = chan
        self._open = True

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int], term_modes: object) -> bool:
        """Accept the pty; the game sets its own terminal modes, so only type and size matter."""
        self._term = term_type
        self._size = term_size
        return True

    def shell_requested(self) -> bool:
        """A shell request is how a client asks for the game."""
        return True

    def exec_requested(self, command: str) -> bool:
        """Accept ``line`` (line mode, docs/serve.md); refuse every other command: the server gives nothing but the game."""
        if command.strip().lower() == "line":
            self.line_mode = True
            return True
        self._events.refused(self.who, "exec", "%s: exec refused", self.label)
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        """Refuse subsystems (sftp and any other)."""
        self._events.refused(self.who, "subsystem", "%s: subsystem %s refused", self.label, clean(subsystem, 40))
        return False

    def session_started(self) -> None:
        """Start the game, or tell the client why not and close."""
        events = self._events
        if self._term is None and not self.line_mode:
            events.refused(self.who, "no_terminal", "%s: refused, no terminal requested", self.label)
            assert self._chan is not None
            host, port = self._chan.get_extra_info("sockname", ("HOST", "PORT"))[:2]
            self._say_and_close(NO_TERMINAL.format(host=host, port=port))
        elif self.fingerprint is None and self._server.settings.no_guests:
            events.refused(self.who, "no_guests", "%s: refused, no key and no guests", self.label)
            self._say_and_close(NO_GUESTS)
        elif (banned := self._server.refusal(self)) is not None:
            self._say_and_close(f"{banned}\r\n")
        elif (refusal := self._server.take_seat(self)) == "full":
            events.refused(self.who, "full", "%s: refused, all %d seats taken", self.label,
                           self._server.settings.max_sessions)
            self._say_and_close(ARCADE_FULL.format(seats=self._server.settings.max_sessions))
        elif refusal == "address":
            count = self._server.settings.max_per_ip
            events.refused(self.who, "address", "%s: refused, %d sessions from %s already", self.label, count,
                           clean(self.host))
            self._say_and_close(TOO_MANY_FROM_ADDRESS.format(games=counted(count, "game")))
        elif refusal == "hub":
            events.refused(self.who, "hub", "%s: refused, the hub is restarting", self.label)
            self._say_and_close(HUB_DOWN)
        elif refusal == "network":
            count = self._server.settings.max_per_network
            events.refused(self.who, "network", "%s: refused, %d sessions from the network of %s already", self.label,
                           count, clean(self.host))
            self._say_and_close(TOO_MANY_FROM_NETWORK.format(games=counted(count, "game")))
        elif self.line_mode:
            self._start_line(remember=True)
        elif self.fingerprint is not None and (store := self._line_store()) is not None:
            self._last_input = self._loop.time()
            self.task = asyncio.ensure_future(self._offer_line(store))
            self._arm_idle()
        else:
            self._start_game()

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        """Follow the client's window size."""
        self._size = (width, height, pixwidth, pixheight)
        # A window being dragged sends dozens of sizes, and each makes the game lay its screen out again:
        # the game gets the first at once, then the latest at most every resize_window seconds.
        self._resizes.push(self._size)

    def _apply_size(self, size: object) -> None:
        if self._master is not None and isinstance(size, tuple):
            try:
                set_window_size(self._master, *size)
            except OSError:
                pass

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        """Pass keystrokes to the game (no faster than a person types) and note the time for the idle check."""
        if self._asking is not None and not self._ending:
            self._answer(data)
            return
        if self._line is not None and not self._ending:
            self._line_received(data)
            return
        if self._master is None and self.task is not None and not self._ending and len(self._held) < _HELD:
            self._held += data[: _HELD - len(self._held)]  # the game is starting: its keys wait for it
            return
        if self._master is None or self._ending:
            return
        dropped, cut = self._throttle.dropped, self._throttle.pastes_cut
        data = self._throttle.feed(data)
        if self._throttle.dropped != dropped:
            self._events.throttled(self.who, self._throttle.dropped - dropped, first=not dropped)
        if self._throttle.pastes_cut != cut:
            log.warning("%s: a paste longer than %d bytes was cut", self.label, self._throttle.max_paste)
        if data:
            self._last_input = self._loop.time()  # dropped input (an endless paste) does not keep the game awake
        # Bytes that are not UTF-8 (0xff, a lone 0xc0) are typed data, not an error: the game's terminal
        # driver replaces them too, but a Textual driver that decodes strictly would end the game on one
        # (https://github.com/Textualize/textual/issues/6456). A character cut between two packets waits
        # for its other bytes here.
        data = self._utf8.decode(data).encode()
        if not data:
            return
        if self._input:
            self._input += data
        else:
            written = self._write_master(data)
            if written < len(data):
                self._input += data[written:]
                self._loop.add_writer(self._master, self._flush_input)
        if len(self._input) > _INPUT_BACKLOG and not self._input_paused and self._chan is not None:
            self._input_paused = True
            self._chan.pause_reading()

    def eof_received(self) -> bool:
        """The client closed its input: nobody can play any more, so end the game."""
        self.end("client closed its input")
        return True

    def break_received(self, msec: int) -> bool:
        """Breaks mean nothing to the game."""
        return False

    def pause_writing(self) -> None:
        """The client is slow: stop reading the game's output until it catches up."""
        self._writing_paused = True
        self._stop_reading()

    def pause_output(self) -> None:
        """The connection's socket is full (a client that does not read): stop reading the game's output."""
        self.transport_paused = True
        self._stop_reading()

    def resume_output(self) -> None:
        """The socket drained: read the game's output again."""
        self.transport_paused = False
        self._start_reading()

    def resume_writing(self) -> None:
        """The client caught up: read the game's output again."""
        self._writing_paused = False
        self._start_reading()

    def connection_lost(self, exc: Exception | None) -> None:
        """The channel closed (client left or connection dropped): the game must go too."""
        self._open = False
        self.closed.set()
        self.end("client left")

    # -- the game process -----------------------------------------------------------------------

    @property
    def reading_output(self) -> bool:
        """True while the game's output is being read and forwarded (False while the client is behind)."""
        return self._reading

    def buffered_output(self) -> int:
        """Bytes of the game's output the server holds for this client (channel + its connection's socket buffer)."""
        if self._chan is None:
            return 0
        size = self._chan.get_write_buffer_size()
        transport = getattr(self._chan.get_extra_info("connection"), "_transport", None)
        if transport is not None:
            size += transport.get_write_buffer_size()
        return size

    @property
    def _idle_timeout(self) -> float | None:
        return self._server.settings.idle_timeout

    def end(self, reason: str, farewell: str | None = None) -> None:
        """End the session: stop the game (SIGHUP, then SIGKILL), then say ``farewell`` and close."""
        if self._ending:
            return
        self._ending = reason
        self._farewell = farewell
        if self.task is None:
            if self._open and self._chan is not None:
                self._chan.close()
            return
        if self._proc is None and self._master is None:
            self.task.cancel()  # line mode, or the question before the game: no process to stop
            return
        self._stop_reading()
        if self._idle_handle is not None:
            self._idle_handle.cancel()
        self._hang_up()

    # -- line mode (serve/lines.py) ---------------------------------------------------------------

    def _line_store(self) -> Store | None:
        """The server's store for line sessions (None: a server that has none, as some tests' servers)."""
        get = getattr(self._server, "line_store", None)
        if get is None:
            return None
        try:
            return get()
        except (StoreError, OSError):
            return None

    def _start_line(self, *, remember: bool) -> None:
        """Run line mode for this channel on the server's loop: no game process, no terminal codes."""
        store = self._line_store()
        if store is None:
            self._events.error(self.who, "%s: line mode has no store", self.label)
            self._server.leave_seat(self)
            self._say_and_close(START_FAILED)
            return
        assert self._chan is not None
        seed = self._server.next_seed()
        settings = self.game_settings = self._server.game_settings(seed).for_session(
            seed, None if self.host == "?" else self.host, session_id=self.presence_id, operator=self.operator,
            transport="ssh")
        self._line = LineFront(store, settings, self.fingerprint, echo=self._term is not None, send=self._send_text,
                               buffered=self.buffered_output, on_end=lambda reason: self.end(reason), remember=remember)
        if not self._started_at:
            self._started_at = self._last_input = self._loop.time()
            self._events.session_started(self.who)
            self._arm_idle()
        log.info("%s: line mode started, seed %d, %s", self.label, seed,
                 f"key {self.fingerprint}" if self.fingerprint else "guest")
        self.task = asyncio.ensure_future(self._run_line(self._line))
        held, self._held = bytes(self._held), bytearray()
        if held:
            self._line_received(held)

    async def _run_line(self, front: LineFront) -> None:
        try:
            await front.run()
        except asyncio.CancelledError:
            if front.session is not None:
                with contextlib.suppress(Exception):
                    await asyncio.shield(front.session.close())
        except Exception:  # the player gets the apology, the server's log the traceback
            log.exception("%s: line mode failed", self.label)
            self._farewell = self._farewell or START_FAILED
        finally:
            if front.name:
                self.who.name = front.name
            self._finish_line()

    def _line_received(self, data: bytes) -> None:
        assert self._line is not None
        dropped = self._throttle.dropped
        data = self._throttle.feed(data)
        if self._throttle.dropped != dropped:
            self._events.throttled(self.who, self._throttle.dropped - dropped, first=not dropped)
        if data:
            self._last_input = self._loop.time()
        text = self._utf8.decode(data)
        if text:
            self._line.received(text)

    def _finish_line(self) -> None:
        if self._idle_handle is not None:
            self._idle_handle.cancel()
        self._server.leave_seat(self)
        if self._farewell:
            # One line of words, below what the player was typing if anything.
            typing = self._line is not None and self._line.editor.echo and self._line.editor.pending
            self._send_text(("\r\n" if typing else "") + self._farewell.strip() + "\r\n")
        if self._open and self._chan is not None:
            try:
                self._chan.exit(0)
            except (BrokenPipeError, ConnectionError, OSError):
                self._open = False
        self._events.session_ended(self.who, self._ending or "quit", self._loop.time() - self._started_at, 0)

    def _send_text(self, text: str) -> None:
        self._send(text.encode())

    async def _offer_line(self, store: Store) -> None:
        """A plain ``ssh host`` of an identity that chose line mode: ask first (:data:`.lines.OFFER`)."""
        try:
            line = await self._ask_line(store)
        except asyncio.CancelledError:
            # The session ended while asking (the client left, the server stops): no game started.
            if self._idle_handle is not None:
                self._idle_handle.cancel()
            self._server.leave_seat(self)
            if self._farewell:
                self._send_text(self._farewell)
            if self._open and self._chan is not None:
                with contextlib.suppress(BrokenPipeError, ConnectionError, OSError):
                    self._chan.exit(0)
            return
        if self._idle_handle is not None:
            self._idle_handle.cancel()
        self.task = None
        if line:
            self._start_line(remember=False)
        else:
            held, self._held = bytes(self._held), bytearray()
            self._start_game()
            if held:
                self.data_received(held, None)

    async def _ask_line(self, store: Store) -> bool:
        """Whether to play in line mode: the identity's choice looked up, and if it was line mode, asked."""
        try:
            line = await asyncio.wait_for(chose_line(store, self.fingerprint), 5)
        except asyncio.TimeoutError:
            line = False
        if line and not self._ending:
            self._asking = self._loop.create_future()
            self._send_text(OFFER + "\r\n")
            self._held.clear()  # what was typed before the question is no answer to it
            try:
                line = await self._asking
            finally:
                self._asking = None
            if not line:
                identity = await identify(store, self.fingerprint)
                await remember_line(store, identity, False)
        return line

    def _answer(self, data: bytes) -> None:
        """The key answering :data:`.lines.OFFER`: Enter (or y, l) for line mode, f (or n, t) for the full screen."""
        assert self._asking is not None
        self._last_input = self._loop.time()
        for char in data.decode("utf-8", "replace").lower():
            if char in "\r\nyl" and not self._asking.done():
                self._asking.set_result(True)
            elif char in "fnt" and not self._asking.done():
                self._asking.set_result(False)

    def _say_and_close(self, text: str) -> None:
        assert self._chan is not None
        self._chan.write(text.encode())
        self._chan.exit(1)

    def _start_game(self) -> None:
        columns, rows, xpixels, ypixels = self._size
        master, slave = os.openpty()
        set_window_size(master, columns, rows, xpixels, ypixels)
        os.set_blocking(master, False)
        self._master = master
        self._started_at = self._last_input = self._loop.time()
        self._events.session_started(self.who)
        self.task = asyncio.ensure_future(self._run(slave))
        self._arm_idle()

    async def _run(self, slave: int) -> None:
        assert self._chan is not None and self._master is not None
        seed = self._server.next_seed()
        log_read, log_write = os.pipe()
        # The game learns its client's address (the lobby's per-address cap on open tables), nothing more.
        settings = self.game_settings = self._server.game_settings(seed).for_session(
            seed, None if self.host == "?" else self.host, session_id=self.presence_id, operator=self.operator,
            transport="ssh")
        self.game_fingerprint = self.fingerprint
        env = child_environment(self._term or "", dict(self._chan.get_environment()))
        status = 1
        try:
            try:
                # The seam to the warm parent (forkserver.py): it forks the game, already warm, on this pty.
                self._proc = await self._server.start_game(slave, settings, self.game_fingerprint, env, log_fd=log_write)
            finally:
                os.close(slave)
                os.close(log_write)
                os.set_blocking(log_read, False)
                self._log_fd = log_read
                self._loop.add_reader(log_read, self._read_game_log)
        except OSError as exc:
            self._events.error(self.who, "%s: could not start the game: %s", self.label, exc)
            self._farewell = START_FAILED
        else:
            self.pid = self._proc.pid
            self._events.game_started(
                self.who,
                "%s: game started, pid %d, %dx%d %s, seed %d, %s",
                self.label, self.pid, self._size[0], self._size[1], clean(self._term or "", 64), seed,
                f"key {self.fingerprint}" if self.fingerprint else "guest",
            )
            if self._ending:
                self._hang_up()
            else:
                self._start_reading()
            returncode = await self._proc.wait()
            status = returncode if returncode >= 0 else 128 - returncode
        finally:
            self._finish(status)

    def _finish(self, status: int) -> None:
        for handle in (self._idle_handle, self._kill_handle):
            if handle is not None:
                handle.cancel()
        self._read_game_log()
        self._close_game_log()
        master, self._master = self._master, None
        if master is not None:
            self._loop.remove_reader(master)
            self._loop.remove_writer(master)
            if not self._ending:
                self._drain(master)
            os.close(master)
        self._idle_goodbye(status)
        self._server.leave_seat(self)
        if self._farewell:
            self._send(TERMINAL_RESET + self._farewell.encode())
        if self._open and self._chan is not None:
            try:
                self._chan.exit(status)
            except (BrokenPipeError, ConnectionError, OSError):
                self._open = False
        self._events.session_ended(self.who, self._ending or "game quit", self._loop.time() - self._started_at, status)

    # -- the game's own log (errors the player must not see) -------------------------------------

    def _read_game_log(self) -> None:
        """Copy what the game logged (a traceback, say) into the server's log, line by line, cleaned."""
        if self._log_fd is None:
            return
        ended = False
        while True:
            try:
                data = os.read(self._log_fd, 65536)
            except BlockingIOError:
                break
            except OSError:
                data = b""
            if not data:
                ended = True
                break
            self._log_buffer += data
        # Line by line also when the game wrote its last lines and left before this read them: split first,
        # then close (which logs a last line without its newline).
        *lines, rest = self._log_buffer.split(b"\n")
        self._log_buffer = bytearray(rest[-_LOG_LINE:])
        for line in lines:
            self._log_line(line)
        if ended:
            self._close_game_log()

    def _log_line(self, line: bytes | bytearray) -> None:
        self._game_log_line(line)

    def _close_game_log(self) -> None:
        if self._log_fd is not None:
            if self._log_buffer:
                self._log_line(bytes(self._log_buffer))
                self._log_buffer.clear()
            self._loop.remove_reader(self._log_fd)
            os.close(self._log_fd)
            self._log_fd = None

    # -- pty plumbing ---------------------------------------------------------------------------

    def _start_reading(self) -> None:
        if (
            self._master is not None and not self._reading and not self._writing_paused
            and not self.transport_paused and not self._ending
        ):
            self._loop.add_reader(self._master, self._read_master)
            self._reading = True

    def _stop_reading(self) -> None:
        if self._master is not None and self._reading:
            self._loop.remove_reader(self._master)
        self._reading = False

    def _read_master(self) -> None:
        assert self._master is not None
        try:
            data = os.read(self._master, 65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""  # EIO: the game closed the terminal; its exit is handled by _run
        if not data:
            self._stop_reading()
            return
        self._send(data)

    def _send(self, data: bytes) -> None:
        """Forward game output to the client, unless the channel is already closing (client gone)."""
        if self._open and self._chan is not None:
            try:
                self._chan.write(data)
            except (BrokenPipeError, ConnectionError):
                self._open = False

    def _drain(self, master: int) -> None:
        """Forward what the game wrote just before it exited (its terminal restore, mostly)."""
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:
                return
            if not data:
                return
            self._send(data)

    def _write_master(self, data: bytes | bytearray) -> int:
        assert self._master is not None
        try:
            return os.write(self._master, data)
        except BlockingIOError:
            return 0
        except OSError:
            return len(data)  # the game is gone; its exit is handled by _run

    def _flush_input(self) -> None:
        if self._master is None:
            return
        written = self._write_master(self._input)
        del self._input[:written]
        if not self._input:
            self._loop.remove_writer(self._master)
        if self._input_paused and len(self._input) < _INPUT_BACKLOG // 2 and self._chan is not None:
            self._input_paused = False
            self._chan.resume_reading()
