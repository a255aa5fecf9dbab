"""Issue 11's figures, measured through the screens: app instances (headless, ``run_test``) on one data folder.

    .venv/bin/python bench/together.py [--tables 8] [--players 3] [--guesses 5] [--lobbies 50]
                                       [--idle 20] [--idle-seconds 30] [--json]

* ``guess_to_panel_p95_ms``: ``--tables`` tables of ``--players`` people each, every one an app at
  its live table; at every table each player in turn presses Enter on a guess, and the time runs
  until every other player's progress panel at that table shows the new attempt (p95 over all);
* ``lobby_update_max_ms``: ``--lobbies`` apps in the lobby; another process opens a table; the
  longest time until a lobby lists it;
* ``idle_cpu_percent``: ``--idle`` apps idle in the lobby (heartbeats, sweeps, change feed) for
  ``--idle-seconds``: CPU time of the whole process as a percent of one core (and in seconds:
  ``idle_cpu_seconds``, which other load on the machine inflates less).

``--only guess|lobby|idle`` measures one figure.

Every app runs in this one process (one core, one event loop): a harder setting than the same
number of SSH sessions, each its own process, on two cores. With ``--json``, one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from textual import events  # noqa: E402

from wom_tui.app import WomApp  # noqa: E402
from wom_tui.domain.store import Store  # noqa: E402
from wom_tui.domain.table import SeatHolder  # noqa: E402
from wom_tui.options import Options  # noqa: E402
from wom_tui.screens.live_table import LiveTableScreen  # noqa: E402
from wom_tui.screens.lobby import LobbyScreen  # noqa: E402

CTX = multiprocessing.get_context("fork")


def make_app(folder: Path, seed: int) -> WomApp:
    options = Options(data_dir=folder, seed=seed, computer_pace=0)
    return WomApp(Store(folder), random.Random(seed), options)


def open_in(app: WomApp, make) -> None:
    """Push a screen from inside the app's own task (Textual finds "the app" through a context variable)."""
    app.call_later(lambda: app.push_screen(make()))


async def until(predicate, timeout: float = 60.0, step: float = 0.002, what=None) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(f"a condition was not met in time: {what() if what else ''}")
        await asyncio.sleep(step)


async def guess_to_panel(folder: Path, tables: int, players: int, guesses: int) -> tuple[list[float], float]:
    """Milliseconds from a guess's Enter to every other player's panel at the table showing it, and
    the CPU seconds the guessing took (start-up not counted)."""
    store = Store(folder)
    names = [[f"P{t}x{p}" for p in range(players)] for t in range(tables)]
    for row in names:
        for name in row:
            store.register(name)
    samples: list[float] = []
    async with contextlib.AsyncExitStack() as stack:
        pilots = []
        for t, row in enumerate(names):
            table_pilots = []
            for p, name in enumerate(row):
                app = make_app(folder, 1000 + t * 10 + p)
                pilot = await stack.enter_async_context(app.run_test(size=(80, 24)))
                app.together.local_name = name
                await until(lambda a=app, n=name: a.together.presence is not None and a.together.presence.name == n)
                table_pilots.append(pilot)
            pilots.append(table_pilots)
        # Each table: the first player opens it, the others sit, the creator starts, codes are set.
        for t, row in enumerate(pilots):
            creator = row[0].app
            me = creator.together.me()
            table = store.live.create_table(me, seats=players, attempts=10, seed=t)
            for p, pilot in enumerate(row):
                if p:
                    holder = pilot.app.together.me()
                    store.live.update_table(table.table_id, lambda tb, h=holder, i=p: tb.sit(h, i))
            store.live.act(table.table_id, lambda tb, now: tb.start(me, now))
            for pilot in row:
                open_in(pilot.app, lambda tid=table.table_id: LiveTableScreen(tid))
            for pilot in row:
                await until(lambda a=pilot.app: isinstance(a.screen, LiveTableScreen) and a.screen.view is not None
                            and a.focused is not None and a.focused.id == "code-input",
                            what=lambda a=pilot.app: (a.screen, getattr(a.screen, "view", None), a.focused))
                await pilot.press(*"RGBY", "enter")
            for pilot in row:
                await until(lambda a=pilot.app: a.screen.view.phase == "guessing" and a.focused is not None
                            and a.focused.id == "guess-input")
        # Guessing: a wrong guess ("WWWW" never breaks "RGBY"), player after player, all tables at once.
        # A table's screens say when they show a new view (no polling: the bench adds no load of its own).
        shown: dict[int, asyncio.Event] = {}
        table_of = {id(pilot.app): t for t, row in enumerate(pilots) for pilot in row}
        real_show = LiveTableScreen.show

        def show(screen: LiveTableScreen, data) -> None:
            real_show(screen, data)
            event = shown.get(table_of.get(id(screen.app), -1))
            if event is not None:
                event.set()

        LiveTableScreen.show = show  # type: ignore[method-assign]

        async def play_table(t: int, row) -> None:
            event = shown[t] = asyncio.Event()
            for round_ in range(guesses):
                for p, pilot in enumerate(row):
                    others = [other.app for other in row if other is not pilot]
                    want = round_ + 1
                    entry = pilot.app.screen.query_one("#guess-input")
                    entry.value = "WWWW"
                    start = time.perf_counter()
                    pilot.app.post_message(events.Key("enter", "\r"))  # as the terminal sends it, without the pilot's waits
                    while not all(o.screen.view.seats[p].attempts_used >= want for o in others):
                        event.clear()
                        await asyncio.wait_for(event.wait(), 60)
                    samples.append((time.perf_counter() - start) * 1000)

        cpu = time.process_time()
        await asyncio.gather(*(play_table(t, row) for t, row in enumerate(pilots)))
        rounds_cpu = time.process_time() - cpu
    return samples, rounds_cpu


def open_table_later(folder: str, delay: float, stamp) -> None:
    time.sleep(delay)
    live = Store(folder).live
    stamp.put(time.time())
    live.create_table(SeatHolder("Opener", "s-opener", True), seats=2, attempts=10)


async def lobby_update(folder: Path, lobbies: int) -> float:
    """The longest time (ms) until each of ``lobbies`` lobby screens lists a table another process opened."""
    async with contextlib.AsyncExitStack() as stack:
        apps = []
        for i in range(lobbies):
            app = make_app(folder, 5000 + i)
            await stack.enter_async_context(app.run_test(size=(80, 24)))
            open_in(app, LobbyScreen)
            apps.append(app)
        for app in apps:
            await until(lambda a=app: isinstance(a.screen, LobbyScreen) and a.screen.feed_ready.is_set()
                        and a.screen.state is not None, timeout=120)
        before = {len(app.screen.state.tables) for app in apps}
        stamp = CTX.Queue()
        process = CTX.Process(target=open_table_later, args=(str(folder), 0.5, stamp))
        process.start()
        seen: dict[int, float] = {}

        def all_seen() -> bool:
            now = time.time()
            for index, app in enumerate(apps):
                if index not in seen and len(app.screen.state.tables) > max(before):
                    seen[index] = now
            return len(seen) == len(apps)

        await until(all_seen, timeout=60)
        process.join()
        opened = stamp.get()
        return max(seen.values()) - opened


async def idle_cpu(folder: Path, sessions: int, seconds: float) -> tuple[float, float]:
    """Percent of one core the whole process uses while ``sessions`` apps sit idle in the lobby, and
    the CPU seconds (which a loaded machine inflates less than the wall clock)."""
    async with contextlib.AsyncExitStack() as stack:
        apps = []
        for i in range(sessions):
            app = make_app(folder, 9000 + i)
            await stack.enter_async_context(app.run_test(size=(80, 24)))
            open_in(app, LobbyScreen)
            apps.append(app)
        for app in apps:
            await until(lambda a=app: isinstance(a.screen, LobbyScreen) and a.screen.state is not None, timeout=120)
        await asyncio.sleep(3)  # let the start-up settle
        cpu, wall = time.process_time(), time.perf_counter()
        await asyncio.sleep(seconds)
        used = time.process_time() - cpu
        return used / (time.perf_counter() - wall) * 100, used


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--guesses", type=int, default=5)
    parser.add_argument("--lobbies", type=int, default=50)
    parser.add_argument("--idle", type=int, default=20)
    parser.add_argument("--idle-seconds", type=float, default=30.0)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--only", choices=("guess", "lobby", "idle"))
    args = parser.parse_args()
    figures: dict[str, object] = {}
    wanted = {args.only} if args.only else {"guess", "lobby", "idle"}
    if "guess" in wanted:
        with tempfile.TemporaryDirectory() as tmp:
            samples, rounds_cpu = asyncio.run(guess_to_panel(Path(tmp) / "guess", args.tables, args.players,
                                                             args.guesses))
            figures["guessing_cpu_seconds"] = round(rounds_cpu, 2)
            figures["guess_to_panel_p95_ms"] = round(statistics.quantiles(samples, n=20)[-1], 1)
            figures["guess_to_panel_p50_ms"] = round(statistics.median(samples), 1)
            figures["guess_samples"] = len(samples)
    if "lobby" in wanted:
        with tempfile.TemporaryDirectory() as tmp:
            figures["lobby_update_max_ms"] = round(asyncio.run(lobby_update(Path(tmp) / "lobby", args.lobbies)) * 1000, 1)
    if "idle" in wanted:
        with tempfile.TemporaryDirectory() as tmp:
            percent, used = asyncio.run(idle_cpu(Path(tmp) / "idle", args.idle, args.idle_seconds))
            figures["idle_cpu_percent"] = round(percent, 2)
            figures["idle_cpu_seconds"] = round(used, 3)
    figures.update(tables=args.tables, players=args.players, lobbies=args.lobbies, idle_sessions=args.idle,
                   idle_seconds=args.idle_seconds, processes="one process, every app headless in it")
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")


if __name__ == "__main__":
    main()
