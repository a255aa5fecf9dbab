"""A short seeded random run over every screen ends with no crash and a valid data folder (issue 9).

bench/fuzz.py runs the full 10,000 events; this runs a few hundred on every ``make test``.
"""

from __future__ import annotations

import pytest

from wom_tui.domain.store import Store

from .fuzz import run_fuzz


@pytest.mark.parametrize("seed", [1])
async def test_random_keys_clicks_pastes_and_resizes_crash_nothing(data_dir, seed):
    report = await run_fuzz(data_dir, 200, seed)
    assert report.crash is None, report.crash
    assert report.events == 200
    assert len(report.screens) >= 3, f"the run stayed on {dict(report.screens)}"
    Store(data_dir).check()
