"""A variant table's record (docs/play.md, *My stats and replays*): a Quad, a Devious and a Liar table played to
the end, recorded, and read back through both stores' document shapes (the folder's game file and index,
PostgreSQL's record and generated summary), and replayed as the variant's truth."""

from __future__ import annotations

import json

from wom_tui.domain.codes import Feedback, feedback
from wom_tui.domain.records import GameRecord
from wom_tui.domain.replay import Replay
from wom_tui.domain.stats import GameSummary, player_stats
from wom_tui.domain.store.documents import (
    SummaryReader, check_game_json, decode_game, encode_game, encode_index, new_game_id, parse_index,
)
from wom_tui.domain.store.postgres.migrations import SUMMARY_FIELDS
from wom_tui.domain.table import FINISHED
from wom_tui.domain.table_boards import VariantBoard
from wom_tui.domain.variants import Variant

from .test_table import ALAN, BEA, running, table

CODES = {"Alan": "RGBY", "Bea": "RRGG"}


def finished(t) -> GameRecord:
    t.leave(BEA, 5.0)
    if t.phase != FINISHED:
        t.leave(ALAN, 6.0)  # a Quad board three guesses in: Alan gives up
    assert t.phase == FINISHED
    return t.record()


def both_stores(record: GameRecord) -> tuple[GameRecord, GameSummary, GameSummary]:
    """The record read back as the folder keeps it (game file, index) and as PostgreSQL does (jsonb, summary)."""
    game_id, folder = decode_game(json.loads(encode_game(new_game_id(), record)))
    data = json.loads(json.dumps(record.as_json()))
    postgres = check_game_json(data)
    assert folder == postgres == record
    summary = GameSummary.of(game_id, record)
    (_, _, indexed), = parse_index(encode_index({game_id: (10, 1, summary)})).values()
    column = {key: value for key, value in data.items() if key != "players"}  # the generated column's shape
    for key, field in SUMMARY_FIELDS:
        column[key] = [player[field] for player in data["players"]]
    return folder, indexed, SummaryReader().summary(game_id, "wom", column)


def test_a_quad_record_keeps_the_four_codes_and_every_guess_and_replays_four_answers_a_row():
    t = running(BEA, variant=Variant.QUAD, codes=CODES)
    codes = t._boards[0].codes
    for guess in ("RRGG", codes[1], "BBYY"):
        t.guess(ALAN, guess, 1.0)
    record = finished(t)
    assert record.variant is Variant.QUAD and record.as_json()["variant"] == "quad"
    alan = record.players[0]
    assert alan.codes == codes and alan.secret == "RRGG" and [g for g, _ in alan.guesses] == ["RRGG", codes[1], "BBYY"]
    back, indexed, summed = both_stores(record)
    assert indexed.variant is summed.variant is Variant.QUAD
    replay = Replay(back)
    replay.go_to(3)
    rows = replay.quad_rows(0)
    assert rows[0] == ("RRGG", (Feedback(4, 0), *(feedback(c, "RRGG") for c in codes[1:])))
    assert rows[2][1][0] is None and rows[2][1][1] is None  # codes 1 and 2 broken before the third guess
    assert rows[2][1][2] == feedback(codes[2], "BBYY") and replay.counts_now()[0] is None  # no one count for four
    assert not replay.broke_by(0)


def test_a_devious_record_keeps_the_fitted_code_and_a_liar_record_its_lying_row():
    t = table(variant=Variant.DEVIOUS, attempts=5)
    t.sit(BEA, 1)
    t.start(ALAN, 0.0)
    for guess in ("RRGG", "BBYY"):
        t.guess(ALAN, guess, 1.0)
    board = t._boards[0]
    assert isinstance(board, VariantBoard)
    record = finished(t)
    back, indexed, summed = both_stores(record)
    fitted = back.players[0].secret
    assert back.variant is indexed.variant is summed.variant is Variant.DEVIOUS and fitted == board.code_for_record()
    assert all(feedback(fitted, a.guess) == a.feedback for a in back.players[0].guesses)
    replay = Replay(back)
    replay.go_to(replay.rounds)
    assert replay.secret_shown(0) == (True, fitted) and replay.secret_label == "Fitted every answer: "

    t = running(BEA, variant=Variant.LIAR, codes=CODES)
    lie_at = t._boards[0].lie_at
    for guess in ("BBYY", "GGBB", "YYRR", "RRGG"):
        t.guess(ALAN, guess, 1.0)
    record = finished(t)
    back, indexed, summed = both_stores(record)
    assert back.players[0].lied == lie_at and back.players[1].lied is None  # Bea never guessed
    assert indexed.variant is summed.variant is Variant.LIAR
    replay = Replay(back)
    assert replay.lied_row(0, lie_at) is None and replay.lied_row(0, lie_at + 1) == lie_at
    assert player_stats([GameSummary.of("q", record), summed], "Alan").variants_line == "Variants: Liar 2"


def test_an_older_record_reads_as_classic_and_a_classic_record_writes_no_variant():
    record = finished(running(BEA, codes=CODES))
    data = record.as_json()
    assert "variant" not in data and GameRecord.from_json(data).variant is Variant.CLASSIC
    assert "codes" not in data["players"][0] and "lied" not in data["players"][0]
    _, indexed, summed = both_stores(record)
    assert indexed.variant is summed.variant is Variant.CLASSIC
