"""A lobby's CPU per change with many tables: does one arrival, departure or seat change cost the same
at 20 tables as at 2,000? And what does a move at a running table cost a lobby, which shows that table's
row unchanged (every lobby of an arcade hears every move)?

A data folder holds ``--tables`` open tables (each opened by its own guest session); one app sits in the
lobby (headless, 80×24, in this process). Another process then makes ``--changes`` changes one after
the other, each waited for until the lobby shows it: a person sits at a table and stands up again (a
row changes), a table is opened and closed (a row comes and goes). Printed: this process's CPU time per
change (the lobby reading the change and redrawing), at ``--tables`` and at 20 tables for comparison;
then, at 20 tables, the CPU per guess at a running table of two (``cpu_ms_per_move``), each waited for
until the lobby has read it. The periodic sweep (every few seconds, not per change) is put off while
measuring.

    .venv/bin/python bench/lobby_rows.py [--tables 2000] [--changes 40] [--json] [--tiny]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from wom_tui.app import WomApp
from wom_tui.domain.store.folder.files import atomic_write
from wom_tui.domain.store.folder.live import encode_table
from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.domain.store.tables import new_table_id
from wom_tui.domain.table import SeatHolder, Table
from wom_tui.screens import together
from wom_tui.screens.lobby import LobbyScreen
from wom_tui.settings import Settings

CTX = multiprocessing.get_context("fork")
SITTER = SeatHolder("Benchy", "b" * 32, False)
PLAYERS = (SeatHolder("Ann", "a" * 32, False), SeatHolder("Bob", "c" * 32, False))
"""The two people at the running table whose moves the lobby hears."""


def fill(folder: Path, tables: int) -> list[str]:
    """``tables`` open tables written straight to the folder (as a store would, without the opening rules'
    count of the tables already open, which would make filling quadratic); their ids."""
    store = Store(folder)
    store.check()
    live = store.live
    ids = []
    for index in range(tables):
        table = Table(new_table_id(), SeatHolder(f"Guest {index + 1}", f"{index:032x}", False), seats=3)
        atomic_write(live.table_path(table.table_id), encode_table(table), sync_folder=False)
        ids.append(table.table_id)
    return ids


def running_table(folder: Path) -> str:
    """A table of two whose codes are set, guessing (its id)."""
    live = Store(folder).live
    first, second = PLAYERS
    table_id = live.create_table(first, seats=2, attempts=10).table_id
    live.act(table_id, lambda t, now: t.sit(second, 1))
    live.act(table_id, lambda t, now: t.start(first, now))
    for person in PLAYERS:
        live.act(table_id, lambda t, now, p=person: t.set_code(p, "RGBY", now))
    return table_id


MISSES = [colour * 4 for colour in "RGBWK"] + ["RRGG", "GGRR", "BBWW", "WWBB"]
"""Wrong guesses (the code is RGBY): nine a person, each seat's attempts but one."""


def changer(folder: str, ids: list[str], commands: Any, done: Any) -> None:
    """The other process: on each command, one change to the live state, then report."""
    live = Store(Path(folder)).live
    opened: str | None = None
    target = ids[len(ids) // 2]
    moves = 0
    running = ""
    while True:
        what = commands.recv()
        if what == "stop":
            return
        if what == "sit":
            live.act(target, lambda t, now: t.sit(SITTER, 1))
        elif what == "stand":
            live.act(target, lambda t, now: t.stand(SITTER))
        elif what == "open":
            opened = live.create_table(SeatHolder("Opener", "c" * 32, False), seats=2).table_id
        elif what == "close":
            assert opened is not None
            live.act(opened, lambda t, now: t.close(SeatHolder("Opener", "c" * 32, False)))
        elif what == "move":
            if moves % (2 * len(MISSES)) == 0:
                running = running_table(Path(folder))  # (a new table when this one's attempts run out)
            person, miss = PLAYERS[moves % 2], MISSES[moves // 2 % len(MISSES)]
            live.act(running, lambda t, now: t.guess(person, miss, now))
            moves += 1
        done.send(what)


def shows(screen: LobbyScreen, what: str, count: int) -> bool:
    """True once the lobby shows the effect of ``what``."""
    state = screen.state
    if state is None:
        return False
    if what in ("sit", "stand"):
        seated = any("Benchy" in (s.name or "") for v in state.tables for s in v.seats)
        return seated == (what == "sit")
    return len(state.tables) == (count + 1 if what == "open" else count)


async def measure(tables: int, changes: int, moves: bool = False) -> float:
    """CPU seconds of this process per change shown by its lobby, with ``tables`` tables (``moves``: per
    move at a running table, read by the lobby)."""
    with tempfile.TemporaryDirectory(prefix="wom-lobby-rows-") as name:
        folder = Path(name)
        ids = fill(folder, tables)
        app = WomApp(Store(folder), random.Random(1), Settings(data_dir=folder, seed=1, computer_pace=0))
        ours, theirs = CTX.Pipe()
        reports, report = CTX.Pipe()
        process = CTX.Process(target=changer, args=(str(folder), ids, theirs, report))
        process.start()
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                app.call_later(lambda: app.push_screen(LobbyScreen()))

                async def until(predicate: Any, timeout: float = 120.0) -> None:
                    deadline = time.monotonic() + timeout
                    while not predicate():
                        if time.monotonic() > deadline:
                            raise TimeoutError("the lobby did not show the change in time")
                        await asyncio.sleep(0.001)

                await until(lambda: isinstance(app.screen, LobbyScreen) and app.screen.feed_ready.is_set()
                            and app.screen.state is not None and len(app.screen.state.tables) == tables)
                await pilot.pause()
                screen = app.screen
                assert isinstance(screen, LobbyScreen)
                steps = ["move"] if moves else ["sit", "stand", "open", "close"]
                if moves:  # the first table of two opens before the clock starts (a row that comes)
                    ours.send("move")
                    await until(reports.poll)
                    reports.recv()
                    await until(lambda: len(screen.state.tables) == tables + 1)  # type: ignore[union-attr]
                    await pilot.pause()
                started = time.process_time()
                for index in range(changes):
                    what = steps[index % len(steps)]
                    heard = screen.heard
                    ours.send(what)
                    if what == "move":  # (heard: the lobby reads a move again only if its row may change)
                        await until(lambda n=heard: screen.heard > n and reports.poll())
                    else:
                        await until(lambda w=what: shows(screen, w, tables) and reports.poll())
                    reports.recv()
                    await pilot.pause()
                return (time.process_time() - started) / changes
        finally:
            ours.send("stop")
            process.join(10)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=2000, help="open tables in the folder (default 2000)")
    parser.add_argument("--changes", type=int, default=40, help="changes measured (default 40)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    parser.add_argument("--tiny", action="store_true", help="a quick run: 50 tables, 4 changes")
    args = parser.parse_args()
    if args.tiny:
        args.tables, args.changes = 50, 4
    together.SWEEP_INTERVAL = 3600.0  # the periodic sweep is not a change: put it off while measuring
    few = min(20, args.tables)
    print(f"A lobby's CPU per change (Python {sys.version.split()[0]}, {args.changes} changes each):")
    small = await measure(few, args.changes)
    print(f"  {few:>5} tables: {small * 1000:7.1f} ms CPU per change", flush=True)
    large = await measure(args.tables, args.changes)
    print(f"  {args.tables:>5} tables: {large * 1000:7.1f} ms CPU per change", flush=True)
    move = await measure(few, min(args.changes, 2 * len(MISSES) - 1), moves=True)
    print(f"  {few:>5} tables and a running one: {move * 1000:7.1f} ms CPU per move there", flush=True)
    if args.json:
        print(json.dumps({"tables": args.tables, "cpu_ms_per_change": round(large * 1000, 2),
                          "small_tables": few, "small_cpu_ms_per_change": round(small * 1000, 2),
                          "cpu_ms_per_move": round(move * 1000, 2)}))


if __name__ == "__main__":
    asyncio.run(main())
