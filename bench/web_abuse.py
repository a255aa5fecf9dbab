"""The fourth attack (issue 34) on `wom-tui serve --web`, measured again. Prints figures; asserts nothing.

Loopback only (127.0.0.0/8), every loop bounded in count and time; each attack on a fresh server started as
``wom-tui serve --web 127.0.0.1:0`` under ``ulimit -n 1024``.

1. slow headers: --slow connections send ``GET / HTTP/1.1`` and a Host line, then one header line every
   --slow-every seconds for --slow-hold seconds; how many the server still holds, its descriptors, and how
   long a page, a websocket tab and an SSH player then take;
2. an endless bracketed paste from a tab (``ESC[200~`` and 4 MiB/s for --paste-seconds): the game's RSS and
   CPU, and whether the idle timeout (--idle seconds) still ends it;
3. malformed HTTP for --bad-seconds: requests sent, log bytes added;
4. four ``/ws/<random>`` sockets opened and closed at once: seconds until their seats are free;
5. one websocket frame of 60,000 ``[``: the close code, log lines and bytes;
6. a page from ``rebind.example``: the status its request gets;
7. four tabs resizing in a loop for --resize-seconds: the server's and games' CPU, and how long a newcomer
   takes to reach the menu meanwhile;
8. 1,000 sign-in codes guessed from 250 addresses of one /24 (127.0.1.0/24): how many were checked.

    .venv/bin/python bench/web_abuse.py [--tiny]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import resource
import secrets
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import asyncssh

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from serve_abuse import cpu_seconds, rss_mib
from tests.serve.sshterm import MENU_TEXT, new_key, open_terminal

MENU_BYTES = b"Quick match"


def children(pid: int) -> list[int]:
    """Every descendant of ``pid`` (the warm parent and the games)."""
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").iterdir():
            try:
                kids = [int(k) for k in (task / "children").read_text().split()]
            except OSError:
                kids = []
            found += kids
            todo += kids
    return found


CODE: str | None = None
"""``--code``: the folder whose ``wom_tui`` the servers run (another checkout, to measure it before a fix)."""


SHARED: Server | None = None
"""``--tiny``: the one default server the attacks that need no options of their own take turns on (a tiny
run's figures mean nothing; at full size each attack has a server of its own)."""


@contextlib.asynccontextmanager
async def default_server() -> AsyncIterator[Server]:
    """A server with the default options: the shared one in a tiny run, else one of this attack's own."""
    if SHARED is not None:
        yield SHARED
        return
    async with Server() as server:
        yield server


class Server:
    """``wom-tui serve --web 127.0.0.1:0`` in a subprocess under ``ulimit -n 1024``; its log kept."""

    def __init__(self, *extra: str) -> None:
        self.extra = extra
        self.log = bytearray()
        self.folder = tempfile.TemporaryDirectory()

    async def __aenter__(self) -> Server:
        def limit() -> None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))

        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "wom_tui", "serve", "--port", "0", "--web", "127.0.0.1:0",
            "--data-dir", self.folder.name, *self.extra, stderr=asyncio.subprocess.PIPE, preexec_fn=limit,
            cwd=CODE, env={**os.environ, "PYTHONPATH": CODE} if CODE else None)
        assert self.process.stderr is not None
        while b"web: listening on" not in self.log:
            line = await self.process.stderr.readline()
            if not line:
                raise RuntimeError("server did not start:\n" + self.log.decode())
            self.log += line
        self.ssh_port = int(self.log.split(b"listening on 127.0.0.1:")[1].split(b",")[0])
        self.web_port = int(self.log.split(b"web: listening on http://127.0.0.1:")[1].split(b"\n")[0])
        self._reader = asyncio.ensure_future(self._read())
        return self

    async def _read(self) -> None:
        assert self.process.stderr is not None
        while line := await self.process.stderr.readline():
            self.log.extend(line)

    async def __aexit__(self, *exc: object) -> None:
        self.process.terminate()
        await self.process.wait()
        self._reader.cancel()
        self.folder.cleanup()

    @property
    def descriptors(self) -> int:
        return len(os.listdir(f"/proc/{self.process.pid}/fd"))

    def origin(self) -> dict[str, str]:
        return {"Origin": f"http://127.0.0.1:{self.web_port}"}

    async def tab(self, http: aiohttp.ClientSession, timeout: float = 30.0) -> tuple[aiohttp.ClientWebSocketResponse, float]:
        """A websocket tab that reached the menu, and how long it took."""
        started = time.monotonic()
        socket_ = await http.ws_connect(f"ws://127.0.0.1:{self.web_port}/ws/{secrets.token_urlsafe(24)}"
                                        "?width=80&height=24", headers=self.origin(), timeout=aiohttp.ClientWSTimeout(ws_close=5))
        seen = b""
        async with asyncio.timeout(timeout):
            while MENU_BYTES not in seen:
                message = await socket_.receive()
                if message.type != aiohttp.WSMsgType.BINARY:
                    raise RuntimeError(f"tab closed: {message}")
                seen = seen[-4096:] + message.data
        return socket_, time.monotonic() - started

    async def ssh_player(self, timeout: float = 30.0) -> float:
        started = time.monotonic()
        async with asyncio.timeout(timeout):
            conn = await asyncssh.connect("127.0.0.1", self.ssh_port, known_hosts=None, agent_path=None,
                                          client_keys=[new_key()])
            terminal = await open_terminal(conn)
            while MENU_TEXT not in terminal.text:
                await asyncio.sleep(0.02)
        conn.close()
        return time.monotonic() - started

    async def page(self, timeout: float = 30.0) -> tuple[int, float]:
        started = time.monotonic()
        async with aiohttp.ClientSession() as http, asyncio.timeout(timeout), \
                http.get(f"http://127.0.0.1:{self.web_port}/") as response:
            await response.read()
            return response.status, time.monotonic() - started


async def timed(what: str, coroutine) -> str:  # type: ignore[no-untyped-def]
    try:
        result = await coroutine
    except (TimeoutError, OSError, RuntimeError, aiohttp.ClientError, asyncssh.Error) as exc:
        return f"{what}: failed ({type(exc).__name__})"
    seconds = result[1] if isinstance(result, tuple) else result
    return f"{what} {seconds:.2f} s"


async def slow_headers(count: int, every: float, hold: float) -> None:
    async with default_server() as server:
        held: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
        for _ in range(count):
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", server.web_port)
                writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")
                held.append((reader, writer))
            except OSError:
                pass
        deadline, line = time.monotonic() + hold, 0
        while time.monotonic() < deadline:
            await asyncio.sleep(min(every, max(0.0, deadline - time.monotonic())))
            line += 1
            for _reader, writer in held:
                if not writer.is_closing():
                    try:
                        writer.write(f"X-Slow-{line}: 1\r\n".encode())
                    except (ConnectionError, RuntimeError):
                        pass
        await asyncio.sleep(0.5)
        alive = sum(1 for reader, writer in held
                    if not reader.at_eof() and reader.exception() is None and not writer.is_closing())
        fds = server.descriptors
        page = await timed("a page", server.page())
        async with aiohttp.ClientSession() as http:
            tab = await timed("a tab's menu", server.tab(http))
        ssh = await timed("an SSH player's menu", server.ssh_player())
        print(f"1. slow headers: {count} connections, a header line every {every:g} s for {hold:g} s: "
              f"{alive} still held, server at {fds} descriptors; {page}, {tab}, {ssh}; "
              f"'Too many open files' in the log: {b'Too many open files' in server.log}")
        for _reader, writer in held:
            writer.close()


async def endless_paste(seconds: float, idle: float) -> None:
    async with Server("--idle-timeout", str(idle)) as server, aiohttp.ClientSession() as http:
        socket_, _ = await server.tab(http)
        games = children(server.process.pid)
        game = max(games)  # the newest process: the tab's game
        rss_before, cpu_before = rss_mib(game), cpu_seconds(game)
        await socket_.send_json(["stdin", "\x1b[200~"])
        chunk = "x" * (256 * 1024)
        started, sent, ended_after = time.monotonic(), 0, None
        peak, cpu_last = rss_before, cpu_before
        while time.monotonic() - started < seconds:
            try:
                peak, cpu_last = max(peak, rss_mib(game)), cpu_seconds(game)
            except OSError:
                pass  # the game has ended
            if socket_.closed:
                ended_after = time.monotonic() - started
                break
            try:
                await socket_.send_json(["stdin", chunk[:60_000]])
            except (ConnectionError, RuntimeError):
                ended_after = time.monotonic() - started
                break
            sent += 60_000
            await asyncio.sleep(60_000 / (4 * 1024 * 1024))  # 4 MiB/s
        elapsed = time.monotonic() - started
        print(f"2. endless paste: {sent / 2**20:.0f} MiB sent in {elapsed:.0f} s; the game's RSS {rss_before:.0f} MiB, "
              f"at most {peak:.0f} MiB, {100 * (cpu_last - cpu_before) / elapsed:.0f} % of a core; "
              + (f"the idle timeout ({idle:g} s) ended it after {ended_after:.0f} s" if ended_after is not None
                 else "still running"))
        await socket_.close()


async def malformed_http(seconds: float) -> None:
    async with default_server() as server:
        before = len(server.log)
        sent, deadline = 0, time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", server.web_port)
                writer.write(b"GET / HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n")
                await reader.read(1024)
                writer.close()
                sent += 1
            except OSError:
                pass
        await asyncio.sleep(0.5)
        print(f"3. malformed HTTP: {sent:,} bad requests in {seconds:g} s added {len(server.log) - before:,} bytes "
              f"to the log ({server.log[before:].count(b'Traceback')} tracebacks)")


async def open_and_close() -> None:
    async with default_server() as server, aiohttp.ClientSession() as http:
        sockets = [await http.ws_connect(f"ws://127.0.0.1:{server.web_port}/ws/{secrets.token_urlsafe(24)}"
                                         "?width=80&height=24", headers=server.origin()) for _ in range(4)]
        await asyncio.sleep(1.0)  # the games start
        started = time.monotonic()
        for socket_ in sockets:
            await socket_.close()
        free = None
        while time.monotonic() - started < 150:
            try:
                socket_, _ = await server.tab(http, timeout=5)
                free = time.monotonic() - started
                await socket_.close()
                break
            except (RuntimeError, TimeoutError):
                await asyncio.sleep(1.0)
        print("4. four /ws sockets opened and closed at once: the address got a seat again after "
              + (f"{free:.1f} s" if free is not None else "more than 150 s"))


async def deep_json() -> None:
    async with default_server() as server, aiohttp.ClientSession() as http:
        before = len(server.log)
        socket_, _ = await server.tab(http)
        lines_before = server.log.count(b"\n")
        await socket_.send_str("[" * 60_000)
        while (await socket_.receive()).type == aiohttp.WSMsgType.BINARY:
            pass
        await asyncio.sleep(0.5)
        added = server.log[before:]
        lines = server.log.count(b"\n") - lines_before
        print(f"5. one frame of 60,000 '[': closed with {socket_.close_code}; {lines} log line(s) after it, "
              f"RecursionError in the log: {b'RecursionError' in added}")


async def rebinding() -> None:
    async with default_server() as server, aiohttp.ClientSession() as http:
        async with http.get(f"http://127.0.0.1:{server.web_port}/",
                            headers={"Host": f"rebind.example:{server.web_port}"}) as response:
            page = response.status
        try:
            ws = await http.ws_connect(f"ws://127.0.0.1:{server.web_port}/ws/{secrets.token_urlsafe(24)}",
                                       headers={"Host": f"rebind.example:{server.web_port}",
                                                "Origin": f"http://rebind.example:{server.web_port}"})
            socket_status = "opened"
            await ws.close()
        except aiohttp.WSServerHandshakeError as refused:
            socket_status = str(refused.status)
        print(f"6. rebinding (Host: rebind.example): the page {page}, the websocket {socket_status}")


async def resize_storm(seconds: float) -> None:
    async with Server("--max-per-ip", "8") as server, aiohttp.ClientSession() as http:
        tabs = [(await server.tab(http))[0] for _ in range(4)]
        everyone = [server.process.pid, *children(server.process.pid)]
        before = sum(cpu_seconds(pid) for pid in everyone)
        stop = time.monotonic() + seconds

        async def storm(socket_: aiohttp.ClientWebSocketResponse) -> None:
            step = 0
            while time.monotonic() < stop:
                await socket_.send_json(["resize", {"width": 80 + step % 2, "height": 24}])
                step += 1
                await asyncio.sleep(0.005)

        storms = [asyncio.ensure_future(storm(tab)) for tab in tabs]
        await asyncio.sleep(min(1.0, seconds / 2))
        newcomer = await timed("a newcomer's menu", server.tab(http))
        await asyncio.gather(*storms)
        used = sum(cpu_seconds(pid) for pid in everyone if Path(f"/proc/{pid}").exists()) - before
        print(f"7. four tabs resizing for {seconds:g} s: {100 * used / seconds:.0f} % of a core (server and games); "
              f"{newcomer}")


async def guessing_from_a_network(count: int) -> None:
    async with default_server() as server:
        checked = refused = 0
        for n in range(count):
            address = f"127.0.1.{1 + n % 250}"  # one /24 of the loopback range
            connector = aiohttp.TCPConnector(local_addr=(address, 0), force_close=True)
            async with aiohttp.ClientSession(connector=connector) as http:
                form = {"code": f"AAAA-{n:04d}", "tab": secrets.token_urlsafe(24)}
                async with http.post(f"http://127.0.0.1:{server.web_port}/signin", data=form,
                                     headers=server.origin(), allow_redirects=False) as response:
                    text = await response.text()
            if "wrong, used or expired" in text:
                checked += 1
            else:
                refused += 1
        print(f"8. {count:,} sign-in guesses from 250 addresses of one /24: {checked} checked, {refused} refused")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slow", type=int, default=1100)
    parser.add_argument("--slow-every", type=float, default=30.0)
    parser.add_argument("--slow-hold", type=float, default=35.0)
    parser.add_argument("--paste-seconds", type=float, default=40.0)
    parser.add_argument("--idle", type=float, default=20.0)
    parser.add_argument("--bad-seconds", type=float, default=5.0)
    parser.add_argument("--resize-seconds", type=float, default=10.0)
    parser.add_argument("--guesses", type=int, default=1000)
    parser.add_argument("--only", type=int, action="append", help="run only these attacks (1-8)")
    parser.add_argument("--code", help="run the servers from this checkout (to measure before a fix)")
    parser.add_argument("--tiny", action="store_true", help="one quick pass to check the bench runs (figures meaningless)")
    args = parser.parse_args()
    global CODE
    CODE = args.code
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the attacker holds --slow connections itself
    if args.tiny:
        args.slow, args.slow_every, args.slow_hold, args.paste_seconds, args.idle = 20, 0.2, 0.5, 1.0, 30.0
        args.bad_seconds, args.resize_seconds, args.guesses = 0.3, 0.5, 10
    attacks = {
        1: lambda: slow_headers(args.slow, args.slow_every, args.slow_hold),
        2: lambda: endless_paste(args.paste_seconds, args.idle),
        3: lambda: malformed_http(args.bad_seconds),
        4: open_and_close,
        5: deep_json,
        6: rebinding,
        7: lambda: resize_storm(args.resize_seconds),
        8: lambda: guessing_from_a_network(args.guesses),
    }
    chosen = [attack for number, attack in attacks.items() if not args.only or number in args.only]
    if args.tiny:
        # The tiny run proves each attack still runs and prints; its figures mean nothing, so the attacks
        # with options of their own run at once, beside the others taking turns on one shared server. The
        # fourth waits for the seat grace of an unfixed server.
        global SHARED
        own = {2, 7}
        async with Server() as shared:
            SHARED = shared

            async def in_turn() -> None:
                for number, attack in attacks.items():
                    if number not in own and number != 4 and (not args.only or number in args.only):
                        await attack()

            await asyncio.gather(in_turn(), *(attacks[n]() for n in own if not args.only or n in args.only))
        return
    for attack in chosen:
        await attack()


if __name__ == "__main__":
    asyncio.run(main())
