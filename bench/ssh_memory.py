"""Where the memory of `wom-tui serve` goes: N players at the register screen, as `bench/ssh_load.py` leaves them.

    .venv/bin/python bench/ssh_memory.py [N] [--wait S]        (default 25 sessions, 1 s)

A fresh server (temp data folder) and N asyncssh clients, connected at once; each opens the register screen and
types a name, as in `bench/ssh_load.py`. Then, from /proc:

- PSS of the SSH server, its hub, the warm parent and the games (each shared page counted once over all of them), and
  per session: the figure `ssh_load.py` reports as ``pss_per_session_mib``;
- per game (mean), its private memory (pages no other process maps) and PSS by kind of mapping: Python's
  object arenas and other anonymous memory, the malloc heap, libpython's static data;
- run as root (the kernel shows page frame numbers to root only): the games' pages split into those still
  shared with the warm parent, those that were the warm parent's but are a private copy now (the game wrote
  to them, or the warm parent did after forking it), and new ones (memory the game allocated afresh).

Games offer their memory to the kernel's same-page merging (KSM); it works only where the host runs it
(``/sys/kernel/mm/ksm/run``), and it merges pages as its scanner reaches them: ``--wait S`` reads the
memory S seconds after everyone typed, and the report says whether KSM ran and how many pages it shared.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import tempfile
from pathlib import Path

import asyncssh
from pages import PAGE, frames
from ssh_load import KEYS, MENU_TEXT, PREFIX, REGISTER_TEXT, connect_guest, start_server, tree_pids

from wom_tui.serve.forkserver import HUB_NAME


def kind_of(name: str) -> str:
    if name == "[heap]":
        return "malloc heap"
    if name == "":
        return "anonymous (Python's object arenas, big allocations, thread stacks)"
    if "libpython" in name:
        return "libpython's static data"
    if name.startswith("["):
        return name
    return "other libraries' data"


def by_kind(pid: int) -> dict[str, dict[str, int]]:
    """kB per field (Pss, Private_Dirty, ...) per kind of mapping of ``pid``."""
    kinds: dict[str, dict[str, int]] = {}
    current: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
            parts = line.split(None, 5)
            current = kinds.setdefault(kind_of(parts[5].strip() if len(parts) > 5 else ""), {})
        elif match := re.match(r"^(\w+):\s+(\d+) kB", line):
            current[match.group(1)] = current.get(match.group(1), 0) + int(match.group(2))
    return kinds


def is_hub(pid: int) -> bool:
    """Whether process ``pid`` is a server's hub."""
    try:
        name = Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return False
    return name == HUB_NAME.decode() or "wom_tui.serve.hub" in command_line(pid)


def command_line(pid: int) -> str:
    """What process ``pid`` runs, its arguments joined by spaces ("" if it is gone)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def ksm_state() -> str:
    """Whether the kernel's same-page merging runs here, and how many pages it shares now."""
    folder = Path("/sys/kernel/mm/ksm")
    try:
        running = folder.joinpath("run").read_text().strip() == "1"
        sharing = int(folder.joinpath("pages_sharing").read_text())
    except OSError:
        return "not in this kernel"
    return f"on, {sharing * PAGE / 2**20:.1f} MiB of pages merged away" if running else "off (/sys/kernel/mm/ksm/run is 0)"


async def measure(n: int, wait: float = 1.0) -> None:
    with tempfile.TemporaryDirectory(prefix="wom-ssh-memory-") as data_dir:
        server, port, _metrics = await start_server(data_dir, n)
        conns: list[asyncssh.SSHClientConnection] = []
        try:
            async def play(number: int) -> None:
                terminal = await connect_guest(port, number, conns)
                assert terminal.chan is not None
                await terminal.wait_for(MENU_TEXT)
                terminal.chan.write(b"r")
                await terminal.wait_for(REGISTER_TEXT)
                terminal.chan.write((PREFIX + KEYS).encode())
                await terminal.wait_for(PREFIX + KEYS)

            await asyncio.gather(*(play(number) for number in range(n)))
            await asyncio.sleep(wait)
            ksm = ksm_state()
            pids = tree_pids(server.pid)
            parents = {pid: int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1]) for pid in pids}
            # The server's hub (one process, fixed whatever the number of sessions) is told by its name (forked
            # by the warm parent) or its command line (a fresh interpreter when the warm parent could not fork
            # it); the warm parent is the server's other child; every other process is a game.
            hub = [pid for pid in pids if is_hub(pid)]
            warm = [pid for pid in pids if parents[pid] == server.pid and pid not in hub]
            games = [pid for pid in pids if pid != server.pid and pid not in hub and pid not in warm]
            roles = {"SSH server": [server.pid], "hub": hub, "warm parent": warm, f"{len(games)} games": games}
            kinds = {pid: by_kind(pid) for pid in pids}
            split = None
            if warm and games:
                parent = frames(warm[0], kind_of)
                if any(frame for _, frame in parent.values()):
                    split = {"shared with the warm parent": 0, "copied from the warm parent": 0, "new": 0}
                    for pid in games:
                        for address, (_kind, frame) in frames(pid, kind_of).items():
                            if address not in parent:
                                split["new"] += 1
                            elif parent[address][1] == frame:
                                split["shared with the warm parent"] += 1
                            else:
                                split["copied from the warm parent"] += 1
        finally:
            for conn in conns:
                conn.close()
            server.terminate()
            await server.wait()

    def mib(kb: float) -> str:
        return f"{kb / 1024:7.2f}"

    total = 0
    print(f"wom-tui serve, {n} sessions at the register screen, {wait:g} s after typing; the kernel's page merging: {ksm}")
    print("PSS (MiB)")
    for role, members in roles.items():
        pss = sum(fields.get("Pss", 0) for pid in members for fields in kinds[pid].values())
        total += pss
        print(f"  {role:14} {mib(pss)}   {mib(pss / n)} per session")
    print(f"  {'all':14} {mib(total)}   {mib(total / n)} per session")
    print("A game (mean): private / PSS (MiB) by kind of memory")
    summed: dict[str, dict[str, int]] = {}
    for pid in games:
        for kind, fields in kinds[pid].items():
            into = summed.setdefault(kind, {})
            for field in ("Private_Dirty", "Private_Clean", "Pss"):
                into[field] = into.get(field, 0) + fields.get(field, 0)
    for kind, fields in sorted(summed.items(), key=lambda item: -item[1]["Pss"]):
        if fields["Pss"] >= 10 * len(games):
            private = fields["Private_Dirty"] + fields["Private_Clean"]
            print(f"  {kind:70} {mib(private / len(games))} {mib(fields['Pss'] / len(games))}")
    if split is not None:
        print("A game's writable pages (mean, MiB)")
        for label, pages in split.items():
            print(f"  {label:30} {mib(pages * PAGE / 1024 / len(games))}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("sessions", type=int, nargs="?", default=25)
    parser.add_argument("--wait", type=float, default=1.0, metavar="S",
                        help="seconds after everyone typed before the memory is read (default 1)")
    arguments = parser.parse_args()
    asyncio.run(measure(arguments.sessions, arguments.wait))
