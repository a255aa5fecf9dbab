"""Abuse limits of `wom-tui serve`, measured (docs/serve.md, Abuse limits). Prints figures; asserts nothing.

1. Memory: a client grants a 2 GiB window, stops reading its socket, and keeps resizing a
   400×150 terminal (every resize redraws the screen) for --seconds: the server's RSS.
2. CPU: 256 KiB of typed ``z`` (a key the menu ignores) sent at once at the main menu: the game's CPU seconds until it
   answers again (``--unthrottled`` measures the same without the input throttle, in-process).
3. 1,100 connections that never sign in against a server under ``ulimit -n 1024``: the server's
   open descriptors, how long a real player then takes to reach the menu, and the log's size.

    .venv/bin/python bench/serve_abuse.py [--seconds 20] [--unthrottled]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

import asyncssh

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.serve.sshterm import MENU_TEXT, Terminal, new_key, open_terminal

HELP_TEXT = "The key pegs are counts only"


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def start_server(data_dir: str, *extra: str, nofile: int | None = None) -> tuple[asyncio.subprocess.Process, int, bytearray]:
    def limit() -> None:
        if nofile is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "wom_tui", "serve", "--port", "0", "--data-dir", data_dir, *extra,
        stderr=asyncio.subprocess.PIPE, preexec_fn=limit,
    )
    assert process.stderr is not None
    log = bytearray()
    while b"listening on" not in log:
        line = await process.stderr.readline()
        if not line:
            raise RuntimeError("server did not start:\n" + log.decode())
        log += line
    port = int(log.split(b"listening on 127.0.0.1:")[1].split(b",")[0])

    async def keep_reading() -> None:
        assert process.stderr is not None
        while line := await process.stderr.readline():
            log.extend(line)

    asyncio.ensure_future(keep_reading())
    return process, port, log


async def stop(process: asyncio.subprocess.Process) -> None:
    process.terminate()
    await process.wait()


async def connect(port: int, **options: object) -> asyncssh.SSHClientConnection:
    return await asyncssh.connect(
        "127.0.0.1", port, known_hosts=None, agent_path=None, client_keys=[new_key()], **options
    )


async def never_reading_client(seconds: float) -> None:
    with tempfile.TemporaryDirectory() as data_dir:
        process, port, _log = await start_server(data_dir)
        try:
            conn = await connect(port)
            _chan, terminal = await conn.create_session(
                lambda: Terminal(400, 150), term_type="xterm-256color", term_size=(400, 150),
                encoding=None, window=2**31 - 1,
            )
            while MENU_TEXT not in terminal.text:
                await asyncio.sleep(0.05)
            before = rss_mib(process.pid)
            terminal.muted = True
            conn._transport.pause_reading()  # the client that never reads
            peak, resizes, deadline = before, 0, time.monotonic() + seconds
            while time.monotonic() < deadline:
                assert terminal.chan is not None
                terminal.chan.change_terminal_size(400 - resizes % 2, 150)
                resizes += 1
                await asyncio.sleep(0.01)
                peak = max(peak, rss_mib(process.pid))
            print(
                f"never-reading client: server RSS {before:.1f} MiB at the menu, peak {peak:.1f} MiB "
                f"after {resizes} full redraws in {seconds:.0f} s (window 2 GiB)"
            )
            conn.abort()
        finally:
            await stop(process)


async def typed_flood(unthrottled: bool, kib: int = 256) -> None:
    from wom_tui.serve import session as session_module
    from wom_tui.serve.server import GameServer
    from wom_tui.settings import Settings

    if unthrottled:

        class PassThrough:
            dropped = 0

            def feed(self, data: bytes) -> bytes:
                return data

        session_module.InputThrottle = PassThrough  # type: ignore[misc,assignment]
    with tempfile.TemporaryDirectory() as data_dir:
        server = GameServer(Settings(data_dir=Path(data_dir), seed=1, port=0))
        await server.start()
        try:
            conn = await connect(server.port)
            terminal = await open_terminal(conn)
            while MENU_TEXT not in terminal.text:
                await asyncio.sleep(0.05)
            (session,) = server.sessions
            assert session.pid is not None
            before, started = cpu_seconds(session.pid), time.monotonic()
            terminal.type(b"z" * kib * 1024)
            while HELP_TEXT not in terminal.text:
                terminal.type("?")
                await asyncio.sleep(0.5)
            print(
                f"{kib} KiB typed at the menu{' (no throttle)' if unthrottled else ''}: "
                f"{cpu_seconds(session.pid) - before:.2f} s of the game's CPU, answering again after "
                f"{time.monotonic() - started:.1f} s; {session.input_dropped} keystrokes dropped"
            )
        finally:
            await server.close()


async def silent_connections(count: int = 1100) -> None:
    with tempfile.TemporaryDirectory() as data_dir:
        process, port, log = await start_server(data_dir, nofile=1024)
        silent = []
        try:
            async def one() -> None:
                try:
                    silent.append(await asyncio.open_connection("127.0.0.1", port))
                except OSError:
                    pass

            started = time.monotonic()
            await asyncio.gather(*(one() for _ in range(count)))
            opened = time.monotonic() - started
            fds = len(os.listdir(f"/proc/{process.pid}/fd"))
            started = time.monotonic()
            conn = await connect(port)
            terminal = await open_terminal(conn)
            while MENU_TEXT not in terminal.text:
                await asyncio.sleep(0.02)
            to_menu = time.monotonic() - started
            conn.close()
            print(
                f"{count:,} silent connections under ulimit -n 1024: all {len(silent)} connected in {opened:.1f} s, "
                f"server holding {fds} descriptors; a real player reached the menu in {to_menu:.1f} s; "
                f"log {len(log)} bytes"
            )
        finally:
            for _reader, writer in silent:
                writer.close()
            await stop(process)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--unthrottled", action="store_true", help="also measure the flood without the throttle (slow)")
    parser.add_argument("--flood-kib", type=int, default=256, help="KiB of typed z sent at once at the menu")
    parser.add_argument("--silent", type=int, default=1100, help="connections that never sign in")
    parser.add_argument("--tiny", action="store_true", help="one quick pass to check the bench runs (figures meaningless)")
    args = parser.parse_args()
    if args.tiny:
        args.seconds, args.flood_kib, args.silent = 0.5, 1, 20
    await never_reading_client(args.seconds)
    await typed_flood(False, args.flood_kib)
    if args.unthrottled:
        await typed_flood(True, args.flood_kib)
    await silent_connections(args.silent)


if __name__ == "__main__":
    asyncio.run(main())
