"""My stats with 10,000 recorded games: how long it takes to open (goal: ≤ 300 ms once the index exists).

    .venv/bin/python bench/stats.py [--games 10000] [--runs 5]

Fills a temporary data folder with ``--games`` game records (World of Mastermind and solo games
of three users, HAL9000 and VIKI), then prints:

* the store's ``game_summaries()`` the first time (no ``games_index.json`` yet: every file is read
  and validated) and then with the index (only the folder listing and the index are read);
* ``player_stats()`` over all of them;
* opening *My stats* in the app at 80×24 (key ``m`` on the main menu until the numbers are shown):
  the first time on the folder (no index), then again; then in a new session, first and again.
  (The app's own start-up check of every file comes before the timing starts.) For scale on a
  busy machine, the scoreboard's opening is timed the same way.

Each opening is timed two ways:

* ``to the frame`` (the goal's figure): from the key reaching the app to the moment the numbers
  and the chart (its bars' subtitle, "… games · … won · ◀ last game") have been written out, as a
  terminal (or an SSH channel) would receive them: the app runs with a driver that is headless but
  says it is not, so every frame is rendered to terminal bytes as in play, and each write is
  noted with its time. This is what a player waits for: a frame that still says "Reading the game
  records…", or the numbers with the chart still empty, does not count.
* ``pilot`` (the figure printed before this driver existed, kept for comparison): ``pilot.press``
  then polling until the screen holds the numbers, then ``pilot.pause()``. It adds Textual's
  test waits (``wait_for_idle`` sleeps at least 20 ms, three times) and leaves out the rendering
  of the frame to terminal bytes (a headless app skips it).

Each figure is wall-clock time, then CPU time (``cpu``: the whole process, every thread, the
bench's own waiting included): on a busy machine the wall-clock time mostly measures the other
processes, the CPU time what opening the screen costs.

Figures only, never a timed assert.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from textual import events
from textual.drivers.headless_driver import HeadlessDriver

from wom_tui.app import WomApp
from wom_tui.domain.codes import DIGITS10, WOM, Ruleset, feedback
from wom_tui.domain.records import GameRecord, PlayerRecord
from wom_tui.domain.stats import GameSummary, player_stats
from wom_tui.domain.store import StoreError
from wom_tui.domain.store.documents import encode_game
from wom_tui.domain.store.folder.files import INDEX_FILE
from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.settings import Settings
from wom_tui.screens.replay import PAGE

USERS = ("Alan", "Ada", "Grace")


def breaker(rng: random.Random, name: str, ruleset: Ruleset, is_user: bool) -> PlayerRecord:
    secret = ruleset.random_code(rng)
    guesses = []
    for _ in range(ruleset.guesses):
        guess = secret if rng.random() < 0.25 else ruleset.random_code(rng)
        guesses.append((guess, feedback(secret, guess)))
        if guess == secret:
            break
    broke = guesses[-1][0] == secret
    points = ruleset.guesses - len(guesses) + 1 if broke and is_user else 0
    return PlayerRecord(name, is_user, broke, len(guesses), tuple(guesses), points, 0)


def fill(folder: Path, games: int) -> None:
    """Write ``games`` final game files straight into ``folder/games`` (as the store would)."""
    Store(folder)
    for name in USERS:
        Store(folder).register(name)
    rng = random.Random(13)
    rulesets = [Ruleset(4, WOM, True, 10), Ruleset(4, WOM, True, 8), Ruleset(5, DIGITS10, True, 10)]
    for i in range(games):
        ruleset = rng.choice(rulesets)
        if rng.random() < 0.5:
            names = rng.sample(USERS, rng.randint(1, 2)) + rng.sample(["HAL9000", "VIKI"], 1)
            players = tuple(breaker(rng, n, ruleset, n in USERS) for n in names)
            record = GameRecord("wom", ruleset, players, f"2026-{1 + i % 11:02d}-{1 + i % 28:02d}T10:00:00+00:00")
        else:
            record = GameRecord("solo", ruleset, (breaker(rng, rng.choice(USERS), ruleset, True),),
                                f"2026-{1 + i % 11:02d}-{1 + i % 28:02d}T11:00:00+00:00")
        game_id = f"2026{i:04d}T000000000000Z-{i:012x}"
        (folder / "games" / f"{game_id}.json").write_bytes(encode_game(game_id, record))


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.1f} ms"


def figures(runs: list[tuple[float, float]]) -> str:
    """``median … max …`` of (wall, cpu) pairs, each as wall / cpu."""
    wall = [w for w, _ in runs]
    cpu = [c for _, c in runs]
    return (f"median {ms(statistics.median(wall))} (cpu {ms(statistics.median(cpu))})   "
            f"max {ms(max(wall))} (cpu {ms(max(cpu))})")


def timed(call: object) -> tuple[float, float]:
    """(wall, cpu) seconds of one call."""
    started, cpu = time.perf_counter(), time.process_time()
    call()  # type: ignore[operator]
    return time.perf_counter() - started, time.process_time() - cpu


class FrameDriver(HeadlessDriver):
    """A headless driver that says it is a terminal, so the app renders each frame to terminal bytes;
    ``waiting`` (markers and a future) gets the (wall, cpu) time of the write by which every marker
    has been written.
    """

    waiting: tuple[set[str], asyncio.Future[tuple[float, float]]] | None = None

    @property
    def is_headless(self) -> bool:
        return False

    def write(self, data: str) -> None:
        now = (time.perf_counter(), time.process_time())
        if self.waiting is not None:
            markers, shown = self.waiting
            markers.difference_update({marker for marker in markers if marker in data})
            if not markers and not shown.done():
                shown.set_result(now)


async def open_to_frame(folder: Path, times: int, key: str = "m") -> list[tuple[float, float]]:
    """(wall, cpu) seconds from the key ``key`` reaching the app on the main menu to the write of the
    first frame that shows the opened screen's content, ``times`` times in one app. My stats: its numbers
    and its chart (whose subtitle, "… games · … won · ◀ last game", is written with the bars), in one
    frame or several.
    """
    from wom_tui.screens.menu import MenuScreen

    markers = {"s": {"Scores and records"}, "v": {"Finished (UTC)", "Players"}}.get(key, {"Win %", "last game"})
    options = Settings(data_dir=folder, seed=1, computer_pace=0)
    app = WomApp(Store(folder), random.Random(1), options)
    app.driver_class = FrameDriver
    result = []
    async with app.run_test(size=(80, 24), headless=False) as pilot:
        driver = app._driver
        assert isinstance(driver, FrameDriver) and not app.is_headless
        await pilot.pause()
        for _ in range(times):
            while not isinstance(app.screen, MenuScreen):
                await asyncio.sleep(0.001)
            await pilot.pause()
            shown: asyncio.Future[tuple[float, float]] = asyncio.get_running_loop().create_future()
            driver.waiting = (set(markers), shown)
            event = events.Key(key, key)
            event.set_sender(app)
            started, cpu = time.perf_counter(), time.process_time()
            driver.send_message(event)
            wall_at, cpu_at = await shown
            result.append((wall_at - started, cpu_at - cpu))
            driver.waiting = None
            await pilot.pause()
            await pilot.press("escape")
    return result


async def open_stats(folder: Path, times: int, key: str = "m") -> list[tuple[float, float]]:
    """(wall, cpu) seconds from pressing m on the main menu until My stats shows the numbers, ``times`` times in one app.

    The first includes importing the screen's module and styling its widgets for the first time.
    """
    from wom_tui.screens.menu import MenuScreen
    from wom_tui.screens.scoreboard import ScoreboardScreen
    from wom_tui.screens.stats import StatsScreen

    def shown() -> bool:
        if key == "s":
            return isinstance(app.screen, ScoreboardScreen) and app.screen.is_mounted
        return isinstance(app.screen, StatsScreen) and app.screen.stats is not None

    options = Settings(data_dir=folder, seed=1, computer_pace=0)
    app = WomApp(Store(folder), random.Random(1), options)
    result = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for _ in range(times):
            while not isinstance(app.screen, MenuScreen):
                await asyncio.sleep(0.001)
            await pilot.pause()
            started, cpu = time.perf_counter(), time.process_time()
            await pilot.press(key)
            while not shown():
                await asyncio.sleep(0.001)
            await pilot.pause()  # one refresh: the chart is drawn
            result.append((time.perf_counter() - started, time.process_time() - cpu))
            await pilot.press("escape")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        fill(folder, args.games)
        store = Store(folder)
        result: list[tuple[list[GameSummary], list[StoreError]]] = []
        first = timed(lambda: result.append(store.game_summaries()))
        summaries, left_out = result[0]
        assert len(summaries) == args.games and not left_out
        size = (folder / INDEX_FILE).stat().st_size
        print(f"{args.games:,} games; {INDEX_FILE} {size / 1024:.0f} KiB")
        print(f"  game_summaries, no index yet (reads every file)  {ms(first[0])} (cpu {ms(first[1])})")
        fresh = [timed(lambda: Store(folder).game_summaries()) for _ in range(args.runs)]
        print(f"  game_summaries, a new session reads the index  {figures(fresh)}")
        warm = [timed(store.game_summaries) for _ in range(args.runs)]
        print(f"  game_summaries again (lists the folder)        {figures(warm)}")
        compute = [timed(lambda: player_stats(summaries, "Alan")) for _ in range(args.runs)]
        print(f"  player_stats over every game                   {figures(compute)}")
        for prefix, measure in (("My stats at 80×24, to the frame:", open_to_frame), ("pilot: My stats", open_stats)):
            (folder / INDEX_FILE).unlink()
            first, *again = asyncio.run(measure(folder, args.runs + 1))
            print(f"  {prefix} first open, no index yet   {ms(first[0])} (cpu {ms(first[1])})")
            print(f"  {prefix} opened again (goal ≤ 300 ms to the frame) {figures(again)}")
            first, *again = asyncio.run(measure(folder, args.runs + 1))
            print(f"  {prefix} new session: first open (imports the screen, reads the index) {ms(first[0])} (cpu {ms(first[1])})")
            print(f"  {prefix} new session: opened again  {figures(again)}")
            _, *board = asyncio.run(measure(folder, args.runs + 1, "s"))
            print(f"  {prefix} for scale, the scoreboard (s) again {figures(board)}")
        _, *replays = asyncio.run(open_to_frame(folder, args.runs + 1, "v"))
        print(f"  Replays (v) at 80×24, to the frame: opened again (lists {PAGE} games, more as you scroll) {figures(replays)}")

if __name__ == "__main__":
    main()
