"""The browser tests' fixtures: a game server with ``--web`` on 127.0.0.1, Debian's chromium-headless-shell
driven by Playwright, and a tab whose terminal is read back through pyte from the bytes its websocket got."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import secrets
import select
import signal
import shutil
import subprocess
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pyte
import pytest
import pytest_asyncio
from playwright.async_api import Browser, Page, WebSocket, async_playwright
from pytest_asyncio import is_async_test

from memory_tmp import tmp_path, tmp_path_factory  # data folders in memory
from serve.conftest import servers_in
from serve.sshterm import WAIT, ServerFactory
from wom_tui.serve.server import GameServer

__all__ = ["tmp_path", "tmp_path_factory"]


BROWSER_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-extensions",
    "--disable-sync", "--disable-default-apps", "--no-first-run", "--disable-component-update",
    "--disable-domain-reliability", "--metrics-recording-only", "--mute-audio",
]


def chromium_path() -> str:
    """Debian's chromium-headless-shell (``make test`` installs it as root); fail, never skip, without it."""
    found = shutil.which("chromium-headless-shell")
    if found is None:
        try:
            listed = subprocess.run(["dpkg", "-L", "chromium-headless-shell"], capture_output=True, text=True).stdout
        except OSError:
            listed = ""
        found = next((line for line in listed.splitlines() if line.endswith("/chromium-headless-shell")
                      and Path(line).is_file()), None)
    assert found, "the browser tests need chromium-headless-shell: apt-get install chromium-headless-shell"
    return found


@pytest.fixture(scope="session")
def chromium_endpoint() -> Iterator[str]:
    """One headless Chromium for the whole test session (of each xdist worker), on a loopback DevTools port:
    starting one took about a second of every browser test. Each test connects to it and works in
    contexts of its own (cookies, storage, viewport), which it closes at its end."""
    profile = tempfile.mkdtemp(prefix="wom-chromium-")
    process = subprocess.Popen(
        [chromium_path(), *BROWSER_FLAGS, "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
         f"--user-data-dir={profile}", "about:blank"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        start_new_session=True,  # Debian's chromium-headless-shell is a shell script running the browser as
        # its child: ended as a group, or the browser outlives the test session (it did, one per run)
    )
    drain: subprocess.Popen[bytes] | None = None
    try:
        assert process.stderr is not None
        said, deadline = b"", time.monotonic() + WAIT
        while not (match := re.search(rb"DevTools listening on (ws://\S+)", said)):
            ready, _, _ = select.select([process.stderr], [], [], max(0.0, deadline - time.monotonic()))
            chunk = os.read(process.stderr.fileno(), 65536) if ready else b""
            if not chunk:  # (its end, or WAIT seconds without a word)
                raise AssertionError(f"chromium-headless-shell did not start: {said.decode(errors='replace')[-2000:]}")
            said += chunk
        # What it says from now on is read by a process of its own (so that a full pipe never stalls it), not by
        # a thread of ours: the store's tests fork only a process without threads.
        drain = subprocess.Popen(["cat"], stdin=process.stderr, stdout=subprocess.DEVNULL)
        process.stderr.close()
        yield match.group(1).decode()
    finally:
        _end_group(process)
        if drain is not None:
            drain.wait()  # (it ends with the pipe, once the browser has)
        shutil.rmtree(profile, ignore_errors=True)


def _end_group(process: subprocess.Popen[bytes]) -> None:
    """Stop ``process`` and everything in its session: SIGTERM, then SIGKILL after 10 s."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, sig)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                os.killpg(process.pid, 0)
            except ProcessLookupError:
                process.wait()
                return
            process.poll()  # reap the script (the group lives on while the browser does)
            with contextlib.suppress(ChildProcessError):
                # and the browser, ours to reap when a test server made this process a subreaper
                while os.waitpid(-process.pid, os.WNOHANG)[0]:
                    pass
            time.sleep(0.05)  # a pause between looks at processes ending, not a wait for a result
    process.wait()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The browser tests run in one event loop, the loop their Playwright connection lives in: starting
    Playwright (its Node driver) and connecting to Chromium took about 0.4 CPU-seconds of every browser test.
    Both last as long as the worker runs browser tests (the package's scope), and end with them: the
    driver's process (and the thread that waits for it) would be left running in a worker that later forks
    (the store's process tests fork only a process without threads; the loop's executor threads end with each
    test, below). Each test still starts servers of its own.
    """
    one_loop = pytest.mark.asyncio(loop_scope="package")
    for item in items:
        if WEB_TESTS in Path(item.path).parents and is_async_test(item):
            item.add_marker(one_loop, append=False)


WEB_TESTS = Path(__file__).parent


@pytest_asyncio.fixture(scope="package", loop_scope="package")
async def shared_browser(chromium_endpoint: str) -> AsyncIterator[Browser]:
    """The session's Chromium, connected once through one Playwright driver for the browser tests."""
    async with async_playwright() as playwright:
        chromium = await playwright.chromium.connect_over_cdp(chromium_endpoint)
        try:
            yield chromium
        finally:
            await chromium.close()  # closes this connection's contexts and disconnects; Chromium runs on


@pytest_asyncio.fixture(autouse=True, loop_scope="package")
async def threads_of_its_own() -> AsyncIterator[None]:
    """Each browser test gets a default executor of its own, whose threads are ended with the test: the
    shared loop would keep its idle threads alive into later tests of the worker, among them the store's
    tests that fork (and fork only a process without threads)."""
    loop = asyncio.get_running_loop()
    executor = ThreadPoolExecutor(thread_name_prefix="web-test")
    loop.set_default_executor(executor)
    yield
    loop.set_default_executor(ThreadPoolExecutor(thread_name_prefix="web-teardown"))  # (no thread until used)
    ending = threading.Thread(target=executor.shutdown, name="web-test-end", daemon=True)
    ending.start()
    ending.join(WAIT)
    assert not ending.is_alive(), "a thread the test started was still busy after it"


@pytest_asyncio.fixture(loop_scope="package")
async def browser(shared_browser: Browser) -> AsyncIterator[Browser]:
    """The session's Chromium, for one test: the contexts the test opens are closed at its end."""
    assert shared_browser.is_connected(), "the session's Chromium went away"
    before = set(shared_browser.contexts)
    yield shared_browser
    for context in shared_browser.contexts:
        if context not in before:
            await context.close()


@pytest_asyncio.fixture(loop_scope="package")
async def start_server(tmp_path: Path) -> AsyncIterator[ServerFactory]:
    """The SSH tests' server factory, in the browser tests' loop."""
    async with servers_in(tmp_path) as start:
        yield start


class Tab:
    """A browser tab on the game's page; ``screen`` is what its terminal shows, rebuilt with pyte from
    every byte its websocket(s) received (xterm.js draws on a canvas)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.sockets: list[WebSocket] = []
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.requests: list[str] = []
        self.closes: list[WebSocket] = []
        self._changed = asyncio.Event()
        page.on("request", lambda request: self.requests.append(request.url))
        page.on("websocket", self._socket)

    def _socket(self, socket: WebSocket) -> None:
        query = parse_qs(urlsplit(socket.url).query)
        self.screen = pyte.Screen(int(query["width"][0]), int(query["height"][0]))
        self.stream = pyte.ByteStream(self.screen)
        self.sockets.append(socket)
        socket.on("framereceived", self._received)
        socket.on("framesent", self._sent)
        socket.on("close", lambda closed: (self.closes.append(closed), self._changed.set()))
        self._changed.set()

    def _received(self, payload: str | bytes) -> None:
        if isinstance(payload, bytes):
            self.stream.feed(payload)
            self._changed.set()

    def _sent(self, payload: str | bytes) -> None:
        if isinstance(payload, str) and payload.startswith('["resize"'):
            size = json.loads(payload)[1]
            self.screen.resize(size["height"], size["width"])

    @property
    def text(self) -> str:
        """What a person reads on the terminal now."""
        return "\n".join(self.screen.display)

    async def wait_until(self, condition: Callable[[Tab], bool], timeout: float = WAIT) -> None:
        """Wait until ``condition(self)`` holds after some output (fail with the screen after ``timeout``)."""

        async def watch() -> None:
            while not condition(self):
                self._changed.clear()
                await self._changed.wait()

        try:
            await asyncio.wait_for(watch(), timeout)
        except asyncio.TimeoutError:
            raise AssertionError(f"timed out after {timeout} s; screen:\n{self.text}") from None

    async def wait_for_text(self, text: str, timeout: float = WAIT) -> None:
        """Wait until ``text`` is on the terminal."""
        await self.wait_until(lambda tab: text in tab.text, timeout)

    async def type(self, keys: str) -> None:
        """Type into the page as a person does (the terminal has the keyboard focus)."""
        await self.page.keyboard.type(keys)

    async def press(self, key: str) -> None:
        """Press one named key (``Enter``, ``Escape``, ``F2``)."""
        await self.page.keyboard.press(key)


async def open_tab(
    browser: Browser, url: str, *, width: int = 1000, height: int = 640, context: object = None,
    permissions: list[str] | None = None,
) -> Tab:
    """Open the page at ``url`` in a new tab (of ``context``, else a new one with ``permissions``) and wait
    for its first frame."""
    owner = context if context is not None else await browser.new_context(
        viewport={"width": width, "height": height}, permissions=permissions or [])
    page = await owner.new_page()  # type: ignore[attr-defined]
    tab = Tab(page)
    await page.goto(url)
    await page.wait_for_selector("body.-first-byte", timeout=WAIT * 1000)
    # Never focused by hand: the page gives the terminal the keyboard itself (a person types at once).
    return tab


class SocketTab:
    """A tab without a browser: a websocket speaking textual.js's envelopes, its bytes drawn by pyte."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse, columns: int, rows: int) -> None:
        self.socket = socket
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        self.close_code: int | None = None
        self._changed = asyncio.Event()
        self._reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        async for message in self.socket:
            if message.type == aiohttp.WSMsgType.BINARY:
                self.raw += message.data
                self.stream.feed(message.data)
                self._changed.set()
        self.close_code = self.socket.close_code
        self._changed.set()

    @property
    def text(self) -> str:
        """What the terminal shows now."""
        return "\n".join(self.screen.display)

    async def wait_until(self, condition: Callable[[SocketTab], bool], timeout: float = WAIT) -> None:
        """Wait until ``condition(self)`` holds after some output or the close."""

        async def watch() -> None:
            while not condition(self):
                if self.close_code is not None and not condition(self):
                    raise AssertionError(f"closed ({self.close_code}) while waiting; screen:\n{self.text}")
                self._changed.clear()
                await self._changed.wait()

        try:
            await asyncio.wait_for(watch(), timeout)
        except asyncio.TimeoutError:
            raise AssertionError(f"timed out after {timeout} s; screen:\n{self.text}") from None

    async def wait_for_text(self, text: str, timeout: float = WAIT) -> None:
        """Wait until ``text`` is on the terminal."""
        await self.wait_until(lambda tab: text in tab.text, timeout)

    async def wait_closed(self, timeout: float = WAIT) -> int:
        """Wait for the server to close the socket; its close code."""
        await asyncio.wait_for(asyncio.shield(self._reader), timeout)
        assert self.close_code is not None
        return self.close_code

    async def type(self, keys: str) -> None:
        """Send keys as textual.js does."""
        await self.socket.send_json(["stdin", keys])


async def open_socket_tab(
    http: aiohttp.ClientSession, server: GameServer, *, tab: str | None = None, columns: int = 80, rows: int = 24,
    origin: str | None = "own", headers: dict[str, str] | None = None,
) -> SocketTab:
    """Open a tab's websocket (its own token unless ``tab``) with our page's Origin (or ``origin``)."""
    assert server.web is not None
    base = f"127.0.0.1:{server.web.port}"
    sent = dict(headers or {})
    if origin is not None:
        sent["Origin"] = f"http://{base}" if origin == "own" else origin
    socket = await http.ws_connect(
        f"ws://{base}/ws/{tab or secrets.token_urlsafe(24)}?width={columns}&height={rows}", headers=sent
    )
    return SocketTab(socket, columns, rows)
