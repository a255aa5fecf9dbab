"""Load on `wom-tui serve --web`: N browser tabs open at once; how fast do they get the menu and their keys answered?

The tabs are websocket clients without a browser, speaking what textual.js speaks (``["stdin", ...]``,
``["resize", ...]``) and drawing what they receive with pyte, as bench/ssh_load.py's SSH clients do. For
each N (default 10, 25, 50) a fresh server (``python -m wom_tui serve --port 0 --web 127.0.0.1:0``, temp
data folder) is started and N tabs of 80x24 connect at the same moment. Measured, as ssh_load.py does:

- first frame of the menu: from opening the websocket until the menu is on that tab's screen;
- keystroke-to-screen latency while all N are connected: every tab opens the register screen, then all N
  type a name at once, one key at a time, each key timed until it shows in the name field;
- memory: PSS of the server plus its warm parent and all games, per session.

In the same run (unless ``--no-ssh``) a fresh server takes N SSH clients (bench/ssh_load.py), and both
sets of figures are printed side by side.

    .venv/bin/python bench/web_load.py [--json] [--no-ssh] [N ...]

With ``--json`` it prints one JSON object per N with the keys ``sessions``, ``first_frame_median_s``,
``key_p95_ms`` and ``pss_per_session_mib`` (and a few more), and SSH's under ``"ssh"``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import sys
import tempfile
import time

import aiohttp

from ssh_load import KEYS, MENU_TEXT, PREFIX, REGISTER_TEXT, TIMEOUT, Screen, local_caps, percentile, tree_memory
from ssh_load import one_round as ssh_round


class Tab(Screen):
    """A tab's websocket, its bytes drawn by a :class:`~ssh_load.Screen`."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        super().__init__()
        self.socket = socket
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        async for message in self.socket:
            if message.type == aiohttp.WSMsgType.BINARY:
                self.feed(message.data)
        self.changed.set()

    def check_open(self) -> None:
        """Raise, with the last screen, once the server has closed the tab."""
        if self.socket.closed:
            raise RuntimeError("the server closed the tab:\n" + "\n".join(self.screen.display))

    async def type(self, keys: str) -> None:
        await self.socket.send_json(["stdin", keys])


async def start_web_server(data_dir: str, sessions: int) -> tuple[asyncio.subprocess.Process, int]:
    """``wom-tui serve --web 127.0.0.1:0`` for ``sessions`` tabs (all from one address allowed); the process and its web port."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "wom_tui", "serve", "--port", "0", "--web", "127.0.0.1:0", "--data-dir", data_dir,
        *local_caps(sessions),
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stderr is not None
    while True:
        line = (await process.stderr.readline()).decode()
        if not line:
            raise RuntimeError("server did not start")
        if match := re.search(r"web: listening on http://127\.0\.0\.1:(\d+)", line):
            break

    async def drain(stream: asyncio.StreamReader) -> None:
        while await stream.readline():
            pass

    asyncio.ensure_future(drain(process.stderr))
    return process, int(match.group(1))


async def web_round(n: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="wom-web-load-") as data_dir:
        server, port = await start_web_server(data_dir, n)
        tabs: list[Tab] = []
        try:
            async with aiohttp.ClientSession() as http:
                async def arrive(number: int) -> tuple[Tab, float]:
                    started = time.perf_counter()
                    socket = await http.ws_connect(
                        f"ws://127.0.0.1:{port}/ws/bench-tab-{number:04d}-{os.getpid():08d}-xxxx?width=80&height=24",
                        headers={"Origin": f"http://127.0.0.1:{port}"}, max_msg_size=0,
                    )
                    tab = Tab(socket)
                    tabs.append(tab)
                    await tab.wait_for(MENU_TEXT)
                    return tab, time.perf_counter() - started

                arrivals = await asyncio.wait_for(asyncio.gather(*(arrive(number) for number in range(n))), TIMEOUT)
                first_frames = [seconds for _, seconds in arrivals]
                ready = [tab for tab, _ in arrivals]

                async def open_register(tab: Tab) -> None:
                    await tab.type("r")
                    await tab.wait_for(REGISTER_TEXT)

                await asyncio.wait_for(asyncio.gather(*(open_register(tab) for tab in ready)), TIMEOUT)

                async def type_name(tab: Tab) -> list[float]:
                    await tab.type(PREFIX)
                    await tab.wait_for(PREFIX)
                    latencies = []
                    for count in range(1, len(KEYS) + 1):
                        started = time.perf_counter()
                        await tab.type(KEYS[count - 1])
                        await tab.wait_for(PREFIX + KEYS[:count])
                        latencies.append(time.perf_counter() - started)
                    return latencies

                typed = await asyncio.wait_for(asyncio.gather(*(type_name(tab) for tab in ready)), TIMEOUT)
                latencies = [seconds for per_tab in typed for seconds in per_tab]
                processes, _rss, pss = tree_memory(server.pid)
                for tab in tabs:
                    await tab.socket.close()
        finally:
            server.terminate()
            await asyncio.wait_for(server.wait(), TIMEOUT)
    return {
        "first_frame_median": statistics.median(first_frames),
        "first_frame_max": max(first_frames),
        "key_median": statistics.median(latencies) * 1000,
        "key_p95": percentile(latencies, 0.95) * 1000,
        "processes": processes,
        "pss": pss / 2**20,
    }


async def main(sizes: list[int], as_json: bool = False, with_ssh: bool = True) -> None:
    if not as_json:
        print(f"wom-tui serve --web under load: Python {sys.version.split()[0]}, {os.cpu_count()} CPU(s)")
        header = (
            f"{'sessions':>8} | {'door':>7} | {'to menu median':>14} | {'to menu max':>11} | {'key median':>10} | "
            f"{'key p95':>8} | {'PSS/session':>11}"
        )
        print(header)
        print("-" * len(header))
    for n in sizes:
        web = await web_round(n)
        ssh = await ssh_round(n) if with_ssh else None
        if as_json:
            row: dict[str, object] = {
                "sessions": n,
                "first_frame_median_s": round(web["first_frame_median"], 3),
                "first_frame_max_s": round(web["first_frame_max"], 3),
                "key_median_ms": round(web["key_median"], 1),
                "key_p95_ms": round(web["key_p95"], 1),
                "pss_per_session_mib": round(web["pss"] / n, 2),
                "processes": web["processes"],
            }
            if ssh is not None:
                row["ssh"] = {
                    "menu_median_s": round(ssh["menu_median"], 3),
                    "key_p95_ms": round(ssh["key_p95"], 1),
                    "pss_per_session_mib": round(ssh["pss"] / n, 2),
                }
            print(json.dumps(row), flush=True)
            continue
        print(
            f"{n:>8} | {'browser':>7} | {web['first_frame_median']:>12.2f} s | {web['first_frame_max']:>9.2f} s | "
            f"{web['key_median']:>7.1f} ms | {web['key_p95']:>5.1f} ms | {web['pss'] / n:>7.1f} MiB",
            flush=True,
        )
        if ssh is not None:
            print(
                f"{n:>8} | {'ssh':>7} | {ssh['menu_median']:>12.2f} s | {ssh['menu_max']:>9.2f} s | "
                f"{ssh['key_median']:>7.1f} ms | {ssh['key_p95']:>5.1f} ms | {ssh['pss'] / n:>7.1f} MiB",
                flush=True,
            )


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line: the session counts to measure, the output's form, and whether to measure SSH too."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sessions", nargs="*", type=int, default=[10, 25, 50], metavar="N",
                        help="tabs opening at once, one fresh server for each N (default: 10 25 50)")
    parser.add_argument("--json", action="store_true", help="one JSON object per N instead of the table")
    parser.add_argument("--no-ssh", action="store_true", help="measure the browser tabs only")
    return parser.parse_args(argv)


if __name__ == "__main__":
    args = parse_args()
    asyncio.run(main(args.sessions, args.json, not args.no_ssh))
