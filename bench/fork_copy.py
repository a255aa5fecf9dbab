"""The floor of a served game's memory: what a fork of the warm parent copies by running what the parent ran.

    .venv/bin/python bench/fork_copy.py [--top 12] [--json]

Warms up as `wom-tui serve`'s warm parent does (wom_tui/serve/warmup.py: every import, the rehearsal of the
screens a player meets first, the collector frozen), then forks two children: one that runs that very
rehearsal again (the same screens, the same keys, every cache already warm) and one that does nothing.
Each child's writable pages are compared with the parent's as they were just before the fork:

- ``copied_mib``: the parent's pages that the child now has a copy of (it wrote to them), for the rehearsing
  child; ``idle_copied_mib`` the same for the idle one (the measurement's own noise);
- ``new_mib``: pages the child allocated afresh;
- ``copied_by_type_mib``: the copied pages by the kind of Python object that fills most of each page
  (``code``: functions' bytecode, whose inline caches and counters CPython 3.11 writes as it runs them;
  ``str``, ``dict``, ``tuple``, ``function``, ``type``: reference counts written as they are used); pages with
  no object the collector knows of (buffers of dicts and lists, the interpreter's own) are ``other``.

So it tells how much of a game's private memory no change to the game itself can save while each
connection plays in a process of its own (SPEC §8) on CPython 3.11, which writes to every object it uses.
Page frame numbers are shown to root only: without them the bench prints the children's private memory
instead (``private_mib``, ``idle_private_mib``) and no split by type.
"""

from __future__ import annotations

import argparse
import bisect
import gc
import json
import os
import signal
import sys
from collections import Counter
from pathlib import Path

import pages

PAGE = pages.PAGE
MIB = 1024 * 1024


def frames(pid: int) -> dict[int, int]:
    """The present pages of ``pid``'s writable mappings: address -> page frame number (0 unless root)."""
    return {address: frame for address, (_, frame) in pages.frames(pid).items()}


def private_kib(pid: int) -> int:
    """``pid``'s private memory (kB), from /proc/PID/smaps_rollup."""
    fields = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        key, value = line.split(":", 1)
        fields[key] = int(value.split()[0])
    return fields["Private_Dirty"] + fields["Private_Clean"]


def object_map() -> tuple[list[int], list[tuple[int, int, str]]]:
    """Every object the collector tracks and every object they refer to: (start, size, type name), by start."""
    gc.unfreeze()  # the frozen objects are left out of gc.get_objects()
    tracked = gc.get_objects()
    seen = {id(obj) for obj in tracked}
    spans: list[tuple[int, int, str]] = []
    for obj in tracked:
        spans.append((id(obj) - 16, sys.getsizeof(obj), type(obj).__name__))  # the collector's header first
        for referent in gc.get_referents(obj):
            if id(referent) not in seen:
                seen.add(id(referent))
                spans.append((id(referent), sys.getsizeof(referent), type(referent).__name__))
    del tracked
    spans.sort()
    gc.freeze()
    return [start for start, _, _ in spans], spans


def child(work: bool, done: int) -> None:
    """In a forked child: run the rehearsal again (or nothing), say so, and wait to be measured."""
    if work:
        from wom_tui.serve import warmup

        warmup._rehearse()
    os.write(done, b"!")
    signal.pause()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--top", type=int, default=12, help="kinds of object to list (default 12)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    arguments = parser.parse_args()

    from wom_tui.serve.warmup import warm_up

    warm_up()
    starts, spans = object_map()
    root = any(frames(os.getpid()).values())
    results: dict[str, object] = {}
    for label, work in (("", True), ("idle_", False)):
        before = frames(os.getpid())  # (as the child will inherit them: the parent writes as it measures)
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read)
            child(work, write)
            os._exit(0)
        os.close(write)
        os.read(read, 1)
        os.close(read)
        try:
            if root:
                after = frames(pid)
                copied = [address for address, frame in after.items() if before.get(address, frame) != frame]
                results[f"{label}copied_mib"] = round(len(copied) * PAGE / MIB, 2)
                results[f"{label}new_mib"] = round(sum(1 for address in after if address not in before) * PAGE / MIB, 2)
                if work:
                    results["copied_by_type_mib"] = by_type(copied, starts, spans, arguments.top)
            else:
                results[f"{label}private_mib"] = round(private_kib(pid) / 1024, 2)
        finally:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    if arguments.json:
        print(json.dumps(results))
        return
    print(f"A fork of the warm parent that runs its rehearsal again (Python {sys.version.split()[0]}):")
    if not root:
        print("  (page frame numbers are shown to root only: private memory instead, no split by type)")
        print(f"  private {results['private_mib']} MiB; a fork that does nothing: {results['idle_private_mib']} MiB")
        return
    print(f"  copied from the parent {results['copied_mib']} MiB, new {results['new_mib']} MiB")
    print(f"  a fork that does nothing: copied {results['idle_copied_mib']} MiB, new {results['idle_new_mib']} MiB")
    print("  copied pages by the kind of object that fills most of each (MiB):")
    for kind, mib in results["copied_by_type_mib"].items():  # type: ignore[union-attr]
        print(f"    {mib:6.2f}  {kind}")


def by_type(pages: list[int], starts: list[int], spans: list[tuple[int, int, str]], top: int) -> dict[str, float]:
    """Each page under the type of the objects that cover most of it; the ``top`` kinds, the rest as ``other``."""
    counts: Counter[str] = Counter()
    for page in pages:
        cover: Counter[str] = Counter()
        first = max(0, bisect.bisect_left(starts, page) - 1)
        for start, size, kind in spans[first:bisect.bisect_left(starts, page + PAGE)]:
            overlap = min(start + size, page + PAGE) - max(start, page)
            if overlap > 0:
                cover[kind] += overlap
        counts[cover.most_common(1)[0][0] if cover else "other"] += 1
    listed = dict(counts.most_common(top))
    listed["other"] = listed.get("other", 0) + sum(counts.values()) - sum(listed.values())
    return {kind: round(n * PAGE / MIB, 2) for kind, n in sorted(listed.items(), key=lambda item: -item[1])}


if __name__ == "__main__":
    main()
