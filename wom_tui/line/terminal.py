"""``wom-tui --line``: line mode on this machine's standard input and output (docs/play.md, *Line mode*).

No alternate screen, no cursor addressing, no colours: each line the engine says is written as it comes,
and each line typed is fed to it. The store is opened here as ``wom-tui`` opens it (the data folder or
``--store``), and the player is this machine's (``play as NAME`` picks a registered name).
"""

from __future__ import annotations

import asyncio
import random
import sys
from typing import TYPE_CHECKING, TextIO

from ..domain.identity import Identity
from ..domain.store.api import StoreError
from .engine import LineSession
from .words import MAX_INPUT

if TYPE_CHECKING:
    from ..settings import Settings


async def run_lines(session: LineSession, stdin: TextIO) -> None:
    """Feed ``session`` the lines of ``stdin`` until the player quits or the input ends."""
    await session.start()
    try:
        while not session.ended.is_set():
            reader = asyncio.ensure_future(asyncio.to_thread(stdin.readline, MAX_INPUT + 2))
            ended = asyncio.ensure_future(session.ended.wait())
            await asyncio.wait({reader, ended}, return_when=asyncio.FIRST_COMPLETED)
            ended.cancel()
            if not reader.done():
                break  # quit while waiting for a line: the reading thread ends with the process
            line = reader.result()
            if not line:
                await session.feed("quit")
                break
            if not line.endswith("\n") and len(line) > MAX_INPUT:
                while (rest := stdin.readline(4096)) and not rest.endswith("\n"):
                    pass  # a longer line is dropped whole (the engine says so), never kept
                line = line + "…"
            await session.feed(line.rstrip("\r\n"))
    finally:
        await session.close()


def run_local(settings: Settings, *, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Play line mode on this machine; the exit status."""
    from ..settings import open_store

    out = stdout if stdout is not None else sys.stdout
    try:
        store = open_store(settings)
    except StoreError as error:
        where = "the database" if settings.store else "the data folder"
        print(f"wom-tui: cannot use {where}: {error}", file=sys.stderr)
        return 1

    def write(line: str) -> None:
        out.write(line + "\n")
        out.flush()

    session = LineSession(store, settings, Identity.local(), write, rng=random.Random(settings.seed))
    try:
        asyncio.run(run_lines(session, stdin if stdin is not None else sys.stdin))
    except KeyboardInterrupt:
        write("Goodbye, thanks for playing World of Mastermind!")
    finally:
        store.close()
    return 0


__all__ = ["run_lines", "run_local"]
