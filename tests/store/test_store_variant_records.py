"""A variant table's record kept on both backends (docs/play.md, *My stats and replays*): the record reads back
whole (Quad's four codes, Liar's lying row, Devious's fitted code) and the summaries (the folder's index,
PostgreSQL's generated column) say the variant, so My stats counts it; a classic record stays without one."""

from __future__ import annotations

from wom_tui.domain.stats import player_stats
from wom_tui.domain.table import FINISHED, SeatHolder, Table
from wom_tui.domain.variants import Variant

ALAN = SeatHolder("Alan", "s-alan", True)
BEA = SeatHolder("Bea", "s-bea", True)


def played(variant: Variant):
    t = Table(f"t-{variant.value}", ALAN, seats=2, attempts=5, seed=11, pace=(2.0, 2.0), variant=variant)
    t.sit(BEA, 1)
    t.start(ALAN, 0.0)
    if t.makes_codes:
        t.set_code(ALAN, "RGBY", 0.0)
        t.set_code(BEA, "RRGG", 0.0)
    for guess in ("BBYY", "GGBB", "YYRR"):
        t.guess(ALAN, guess, 1.0)
    t.leave(BEA, 2.0)
    t.leave(ALAN, 3.0)
    assert t.phase == FINISHED
    return t.record()


def test_variant_records_and_their_summaries_read_back_on_both_backends(store_factory):
    store = store_factory()
    store.register("Alan")
    store.register("Bea")
    records = [played(variant) for variant in (Variant.QUAD, Variant.DEVIOUS, Variant.LIAR, Variant.CLASSIC)]
    ids = [store.record_game(record) for record in records]
    again = store_factory()
    assert [again.game(game_id) for game_id in ids] == records
    quad, devious, liar, _classic = records
    assert len(quad.players[0].codes) == 4 and liar.players[0].lied is not None and devious.players[0].secret
    summaries, left_out = again.game_summaries()
    assert not left_out
    assert [s.variant for s in summaries] == [Variant.QUAD, Variant.DEVIOUS, Variant.LIAR, Variant.CLASSIC]
    assert player_stats(summaries, "Alan").variants_line == "Variants: Quad 1 · Devious 1 · Liar 1"
    summaries, _ = store_factory().game_summaries()  # read again (the folder: from its index)
    assert [s.variant for s in summaries][:3] == [Variant.QUAD, Variant.DEVIOUS, Variant.LIAR]
