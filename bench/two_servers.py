"""Two servers, one database: how long a guess typed on one server takes to show on a player's screen
on the other.

    .venv/bin/python bench/two_servers.py [--store URL] [--guesses N] [--json]

Two ``wom-tui serve`` processes (stand-ins for two hosts, on two ports of this machine) share one
PostgreSQL database (without ``--store``, a throwaway server: tests/throwaway_pg.py). Ann plays on
the first, Ben on the second, at one two-seat table, over real SSH with pyte terminals (as
tests/serve/test_two_servers.py). Each wrong guess is timed from the key press that sends it (Enter)
to the moment the other player's screen shows the new attempt count: SSH in, the game process, the
move's transaction, NOTIFY, the other server's game process, its redraw, SSH out. Nine guesses each
way (a table has ten attempts; ``--guesses`` fewer); p50, p95 and max in ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from serve import fleet  # noqa: E402
from serve.sshterm import Terminal, new_key  # noqa: E402

from wom_tui.domain.store import open_store  # noqa: E402

CODES = {"Ann": "RGBY", "Ben": "WWKK"}
WRONG = ("RRRR", "GGGG", "BBBB", "YYYY", "KKKK", "RRGG", "BBYY", "WWWW", "KKWW")


async def timed_guesses(player: Terminal, watcher: Terminal, name: str, count: int) -> list[float]:
    """Milliseconds from each of ``player``'s wrong guesses (Enter) to its count on ``watcher``'s screen."""
    latencies = []
    for number, guess in enumerate(WRONG[:count], 1):
        await player.wait_until(lambda t, n=number: f"{11 - n} attempts left" in t.text)
        player.type(guess)
        shown = re.compile(r"\s+".join(guess))  # the entry shows the pegs spaced out
        await player.wait_until(lambda t, pattern=shown: pattern.search(t.text) is not None)
        start = time.perf_counter()
        player.type("\r")
        await watcher.wait_until(lambda t, n=number: f"{n}/10" in fleet.seat_row(t, name))
        latencies.append((time.perf_counter() - start) * 1000)
    return latencies


async def run(url: str, guesses: int = len(WRONG)) -> dict[str, float]:
    keys = {name: new_key() for name in CODES}
    store = open_store(url)
    for name, key in keys.items():
        store.register(name, key=key.get_fingerprint())
    store.close()
    with tempfile.TemporaryDirectory() as tmp:
        key_file = Path(tmp) / "ssh_host_ed25519_key"
        host_key = fleet.make_host_key(key_file)
        servers = await fleet.start_together(*(
            fleet.ServeProcess.start(Path(tmp) / f"host{n}", key_file, "--store", url, "--seed", str(n)) for n in (1, 2)))
        conns = []
        try:
            (ann_conn, ann), (ben_conn, ben) = [
                await fleet.open_session(server.port, name.lower(), keys[name], host_key)
                for server, name in zip(servers, CODES)
            ]
            conns = [ann_conn, ben_conn]
            for terminal in (ann, ben):
                await fleet.to_lobby(terminal)
            await fleet.sit_down_together(ann, "Ann", ben, "Ben")
            for terminal, name in ((ann, "Ann"), (ben, "Ben")):
                await terminal.wait_for_text("Your code")
                terminal.type(CODES[name] + "\r")
            for terminal in (ann, ben):
                await terminal.wait_for_text("Your guess")
            latencies = await timed_guesses(ben, ann, "Ben", guesses) + await timed_guesses(ann, ben, "Ann", guesses)
        finally:
            for conn in conns:
                conn.close()
            for server in servers:
                await server.stop()
    ordered = sorted(latencies)
    return {
        "guess_to_other_screen_p50_ms": statistics.median(ordered),
        "guess_to_other_screen_p95_ms": ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))],
        "guess_to_other_screen_max_ms": ordered[-1],
        "guesses_timed": len(ordered),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", metavar="URL", help="an empty PostgreSQL database (default: a throwaway server)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--guesses", type=int, default=len(WRONG), choices=range(1, len(WRONG) + 1),
                        metavar=f"1..{len(WRONG)}", help="wrong guesses timed each way")
    args = parser.parse_args()
    if args.store:
        figures = asyncio.run(run(args.store, args.guesses))
    else:
        from throwaway_pg import ThrowawayPostgres

        server = ThrowawayPostgres()
        try:
            server.start()
            figures = asyncio.run(run(server.new_database("bench"), args.guesses))
        finally:
            server.remove()
    if args.json:
        print(json.dumps({k: round(v, 2) for k, v in figures.items()}))
    else:
        for key, value in figures.items():
            print(f"{key:32} {value:10.2f}")


if __name__ == "__main__":
    main()
