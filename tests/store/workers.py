"""Processes that hammer one store, for the kill and concurrency tests (fork start method).

``location`` is a data folder or a PostgreSQL URL (the concurrency tests run on both stores);
the SIGKILL tests look at the folder's files, so they are for the data folder only.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from pathlib import Path
from random import Random

from wom_tui.domain.store import open_store
from wom_tui.domain.store.documents import decode_users, parse_document
from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.domain.users import NameRejected

from .helpers import wom_game

CTX = multiprocessing.get_context("fork")
TIMEOUT = 30.0


def start_all(children) -> None:
    """Start forked ``children``, from a process with no thread but its main one: a fork copies only the
    forking thread, so a lock another thread held then (a store's connection pool, its scheduler) stays held
    in the child, which hung once on a loaded machine. Close the stores opened here first
    (``store_factory.close()``).

    Each child writes its Python stack (every thread's, to this test's standard error) and ends on SIGUSR2,
    which ``wait_until`` sends a child that is still there when it gives up.
    """
    import faulthandler
    import threading

    others = [thread.name for thread in threading.enumerate() if thread is not threading.main_thread()]
    assert not others, f"threads alive at a fork (close the stores first): {others}"
    # (fd 2: the test's captured standard error; chained to the signal's default action: the child then ends)
    faulthandler.register(STACK_SIGNAL, file=2, all_threads=True, chain=True)
    try:
        for child in children:
            child.start()
    finally:
        faulthandler.unregister(STACK_SIGNAL)  # (the children keep it)


STACK_SIGNAL = signal.SIGUSR2


def wait_until(condition, what: str, timeout: float = TIMEOUT, process=None) -> None:
    """Poll ``condition`` until it holds; ``AssertionError`` naming ``what`` after ``timeout`` seconds, or at
    once if ``process`` (a child of ``start_all``) ends first. A ``process`` still there after the timeout is
    asked for its stack first (in the test's captured standard error: what it was stuck on), and ends."""
    deadline = time.monotonic() + timeout
    while not condition():
        if process is not None and not process.is_alive():
            raise AssertionError(f"the process ended (exit code {process.exitcode}) before {what}")
        if time.monotonic() > deadline:
            if process is not None:
                os.kill(process.pid, STACK_SIGNAL)
                process.join(timeout)  # (once it has written its stack)
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.0002)


def register_forever(folder: str, done) -> None:
    """Register user0, user1, … without end, publishing how many are done."""
    store = Store(folder)
    n = done.value
    while True:
        store.register(f"user{n}")
        n += 1
        done.value = n


def record_forever(folder: str, done) -> None:
    """Record one-point games for Alan without end, publishing how many are done."""
    store = Store(folder)
    n = done.value
    while True:
        store.record_game(wom_game("Alan"))
        n += 1
        done.value = n


def leftovers(folder: Path) -> tuple[int, int]:
    """(temp files, pending games) a killed writer left behind."""
    files = [p.name for p in folder.rglob("*")]
    return sum(n.endswith(".wom-tmp") for n in files), sum(n.endswith(".pending.json") for n in files)


def verify_registered(folder: Path, done: int) -> int:
    """The users file must parse and hold the old or the new state; returns how many users it holds."""
    registry, _ = decode_users(parse_document((folder / "users.json").read_bytes()))
    names = [u.name for u in registry]
    assert names == [f"user{i}" for i in range(len(names))]
    assert len(names) in (done, done + 1), (len(names), done)
    Store(folder)
    assert leftovers(folder) == (0, 0)
    return len(names)


def verify_recorded(folder: Path, done: int) -> int:
    """users.json must parse; after recovery Alan's points, games and game files must agree exactly."""
    decode_users(parse_document((folder / "users.json").read_bytes()))
    store = Store(folder)
    store.check()
    alan = store.user("Alan")
    assert alan.score == alan.games, alan
    assert alan.score in (done, done + 1), (alan, done)
    assert len(list((folder / "games").glob("*.json"))) == alan.score
    assert leftovers(folder) == (0, 0)
    return alan.score


def kill_at_random_moments(folder: Path, worker, verify, kills: int, rng: Random) -> dict[str, int]:
    """Start ``worker``, let it finish a few writes, SIGKILL it at a random instant; verify; repeat."""
    done = CTX.Value("q", 0, lock=False)
    stats = {"kills": 0, "valid": 0, "temp_left": 0, "pending_left": 0}
    for _ in range(kills):
        child = CTX.Process(target=worker, args=(str(folder), done), daemon=True)
        child.start()
        target = done.value + rng.randint(1, 3)
        wait_until(lambda: done.value >= target or not child.is_alive(), "the writer's progress")
        assert child.is_alive(), f"the writer died on its own (exit code {child.exitcode})"
        # A random spin, so the kill lands anywhere inside the next write rather than at its start.
        until = time.perf_counter() + rng.uniform(0, 0.004)
        while time.perf_counter() < until:
            pass
        os.kill(child.pid, signal.SIGKILL)
        child.join(TIMEOUT)
        assert child.exitcode == -signal.SIGKILL
        stats["kills"] += 1
        temps, pendings = leftovers(folder)
        stats["temp_left"] += temps > 0
        stats["pending_left"] += pendings > 0
        done.value = verify(folder, done.value)
        stats["valid"] += 1
    return stats


def _update(location: str, kind: str, worker: int, updates: int, go, failures) -> None:
    store = open_store(location)
    go.wait(TIMEOUT)
    try:
        for n in range(updates):
            if kind == "record":
                store.record_game(wom_game("Alan"))
            else:
                store.register(f"p{worker}x{n}")  # (not p1-11 and p11-1: they look alike)
    except Exception as exc:  # reported to the parent, which fails the test with it
        failures.put(repr(exc))
        raise


def run_concurrently(location: str, kind: str, processes: int, updates: int) -> float:
    """``processes`` processes each make ``updates`` updates at once; returns the seconds it took."""
    go = CTX.Event()
    failures = CTX.Queue()
    children = [CTX.Process(target=_update, args=(str(location), kind, i, updates, go, failures))
                for i in range(processes)]
    start_all(children)
    started = time.perf_counter()
    go.set()
    for child in children:
        child.join(TIMEOUT * 4)
    elapsed = time.perf_counter() - started
    problems = []
    while not failures.empty():
        problems.append(failures.get())
    assert all(c.exitcode == 0 for c in children), (problems, [c.exitcode for c in children])
    return elapsed


def _race(location: str, name: str, go, results) -> None:
    store = open_store(location)
    go.wait(TIMEOUT)
    try:
        store.register(name)
        results.put("registered")
    except NameRejected as exc:
        results.put(exc.reason)


def race_same_name(location: str, name: str, processes: int = 2) -> list[str]:
    """``processes`` processes register ``name`` at the same moment; each one's outcome."""
    go = CTX.Event()
    results = CTX.Queue()
    children = [CTX.Process(target=_race, args=(str(location), name, go, results)) for _ in range(processes)]
    start_all(children)
    go.set()
    outcomes = [results.get(timeout=TIMEOUT) for _ in children]
    for child in children:
        child.join(TIMEOUT)
    return outcomes


def _redeem(location: str, code: str, fingerprint: str, go, results) -> None:
    from wom_tui.domain.keys import KeyRejected

    store = open_store(location)
    go.wait(TIMEOUT)
    try:
        results.put((fingerprint, store.redeem_link_code(code, fingerprint).name))
    except KeyRejected as exc:
        results.put((fingerprint, exc.reason))


def race_redeem(location: str, code: str, fingerprints: list[str]) -> dict[str, str]:
    """One process per fingerprint types the same link code at the same moment; fingerprint → outcome."""
    go = CTX.Event()
    results = CTX.Queue()
    children = [CTX.Process(target=_redeem, args=(str(location), code, fp, go, results)) for fp in fingerprints]
    start_all(children)
    go.set()
    outcomes = dict(results.get(timeout=TIMEOUT) for _ in children)
    for child in children:
        child.join(TIMEOUT)
    return outcomes


def _redeem_browser(location: str, code: str, token_hash: str, go, results) -> None:
    from wom_tui.domain.browser import BrowserSignInRefused

    store = open_store(location)
    go.wait(TIMEOUT)
    try:
        results.put((token_hash, store.redeem_browser_code(code, token_hash, "192.0.2.1").name))
    except BrowserSignInRefused as refusal:
        results.put((token_hash, refusal.reason))
    finally:
        store.close()


def race_redeem_browser(location: str, code: str, token_hashes: list[str]) -> dict[str, str]:
    """One process per token types the same browser code at the same moment; token hash → outcome."""
    go = CTX.Event()
    results = CTX.Queue()
    children = [CTX.Process(target=_redeem_browser, args=(str(location), code, token, go, results))
                for token in token_hashes]
    start_all(children)
    go.set()
    outcomes = dict(results.get(timeout=TIMEOUT) for _ in children)
    for child in children:
        child.join(TIMEOUT)
    return outcomes
