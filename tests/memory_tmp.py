"""Temporary folders in memory for the tests that write stores: ``tmp_path_factory`` and ``tmp_path``
whose folders are on ``/dev/shm`` when it has room (:func:`throwaway_pg.scratch_dir`),
else pytest's own.

Every write of the data folder is fsynced, file and folder (``wom_tui/domain/store.py``); on a disk,
each waits on the journal the whole machine shares (a game recorded: about 20 ms of waiting and
3 ms of CPU, most of it the kernel's). In memory an fsync returns at once. What the tests guard does
not depend on it: that a writer killed at any moment leaves the old file or the new one, and that
processes racing on one folder lose nothing, are promises of ``rename`` and the locks, which the
operating system keeps in its cache whatever the file system (an fsync only matters when the
machine itself stops). The code under test is the same; only the waiting goes.

A conftest takes them with ``from memory_tmp import tmp_path, tmp_path_factory``.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from throwaway_pg import scratch_dir


class MemoryTempPathFactory:
    """What the tests use of :class:`pytest.TempPathFactory` (``mktemp``, ``getbasetemp``), in one
    folder of this test process in memory."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def getbasetemp(self) -> Path:
        """The folder every temporary folder of this process is made in."""
        return self.root

    def mktemp(self, basename: str, numbered: bool = True) -> Path:
        """A new empty folder named after ``basename`` (with a unique suffix when ``numbered``)."""
        if numbered:
            return Path(tempfile.mkdtemp(prefix=f"{basename}-", dir=self.root))
        path = self.root / basename
        path.mkdir(mode=0o700)
        return path


@pytest.fixture(scope="session")
def tmp_path_factory(tmp_path_factory: pytest.TempPathFactory) -> Iterator[pytest.TempPathFactory]:
    """pytest's factory, with its folders in memory where there is room (removed at the session's end)."""
    memory = scratch_dir()
    if memory is None:
        yield tmp_path_factory
        return
    root = Path(tempfile.mkdtemp(prefix="wom-tests-", dir=memory))
    try:
        yield MemoryTempPathFactory(root)  # type: ignore[misc]
    finally:
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def tmp_path(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new empty folder for one test, named after it (as pytest's), from the factory above."""
    return tmp_path_factory.mktemp(re.sub(r"\W", "_", request.node.name)[:30])
