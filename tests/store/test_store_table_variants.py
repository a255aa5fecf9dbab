"""Quad, Devious and Liar tables kept on both backends and played through a hub (docs/play.md, *Variants*): the
variant crosses the wire with the table, every answer reads back the same, and each finished game is recorded once.
"""

from __future__ import annotations

import asyncio

from wom_tui.domain.moves import Guess, Leave, SetCode, Sit, Start
from wom_tui.domain.store import open_store
from wom_tui.domain.store.remote import HubStore
from wom_tui.domain.table import FINISHED, GUESSING, SeatHolder
from wom_tui.domain.variants import Variant
from wom_tui.serve.hub import Hub

from .test_live import where  # noqa: F401 - the fixture, on both backends

ANN = SeatHolder("Alan", "s-alan", True)
BEA = SeatHolder("Bea", "s-bea", True)


def _variant_games(live) -> list[str]:
    ids = []
    for variant in (Variant.QUAD, Variant.DEVIOUS, Variant.LIAR):
        table = live.create_table(ANN, seats=2, seed=5, variant=variant)
        assert table.variant is variant
        tid = table.table_id
        live.play(tid, Sit(BEA, 1))
        started = live.play(tid, Start(ANN))
        if started.makes_codes:
            live.play(tid, SetCode(ANN, "RGBY"))
            started = live.play(tid, SetCode(BEA, "RRGG"))
        assert started.phase == GUESSING
        for code in ("RRGG", "BBYY", "RGBY"):
            played = live.play(tid, Guess(ANN, code))
            if played.seat_done(0):
                break
        kept = live.table(tid)
        assert kept.variant is variant and kept.view_for(ANN).own == played.view_for(ANN).own
        last = live.play(tid, Leave(BEA))
        if last.phase != FINISHED:
            last = live.play(tid, Leave(ANN))  # a Quad board three guesses in: Alan gives up
        assert last.phase == FINISHED and last.recorded
        ids.append(tid)
    return ids


async def test_variant_tables_are_kept_and_played_through_a_hub_on_either_backend(where, tmp_path) -> None:  # noqa: F811
    store = open_store(where)
    store.register("Alan")
    store.register("Bea")
    hub = Hub(store, pool=2)
    path = str(tmp_path / "hub.sock")
    await hub.start(path)
    try:
        client = await asyncio.to_thread(HubStore, path)
        ids = await asyncio.to_thread(_variant_games, client.live)
        tables = {tid: store.live.table(tid) for tid in ids}
        assert [t.variant for t in tables.values()] == [Variant.QUAD, Variant.DEVIOUS, Variant.LIAR]
        quad, devious, liar = tables.values()
        assert len(quad.final_rows()[0].code.split()) == 4
        assert any(line.startswith("Devious held no code against Bea") for line in devious.view_for(None).reveal)
        assert any("lied at guess" in line or "never came" in line or "the one that was to lie" in line
                   for line in liar.log)
        assert len(store.games()) == 3
        client.close()
    finally:
        await hub.close()
        store.close()
