"""A short seeded random run over several screens ends with no crash and a valid data folder.

bench/fuzz.py runs the full 10,000 events (``--seed`` to vary); this runs 30 on every ``make test``
(about 3 s of CPU): seed 7 reached the menu, the lobby, the command palette, the WoM setup and My stats
in the runs measured, with bursts, clicks, a paste and a quit (so a second launch on the same folder).
"""

from __future__ import annotations

import pytest

from wom_tui.domain.store.folder.store import FolderStore as Store

from .fuzz import run_fuzz

EVENTS = 30


@pytest.mark.parametrize("seed", [7])
async def test_random_keys_clicks_pastes_and_resizes_crash_nothing(data_dir, seed):
    report = await run_fuzz(data_dir, EVENTS, seed)
    assert report.crash is None, f"{report.crash}\nlast events: {list(report.recent)}\n{report.trace}"
    assert report.events == EVENTS
    assert len(report.screens) >= 3, f"the run stayed on {dict(report.screens)}"
    Store(data_dir).check()
