"""A variant table's game in Replays and My stats (docs/play.md, *My stats and replays*): one app run opens a Quad
table's replay at 80×24 and again after a resize to 60×20, then a Liar and a Devious table's."""

from __future__ import annotations

from textual.widgets import DataTable, Static

from wom_tui.domain.codes import WOM_RULESET, Feedback, feedback
from wom_tui.domain.records import GameRecord, PlayerRecord
from wom_tui.domain.variants import Variant
from wom_tui.screens.replay import ReplayScreen, ReplaysScreen

from .conftest import wait_for
from .screen_text import screen_lines

CODES = ("RRGG", "BYWK", "GGBB", "WKRY")


def quad(name: str, guesses: list[str], codes: tuple[str, ...]) -> PlayerRecord:
    played = tuple((g, feedback(codes[0], g)) for g in guesses)
    return PlayerRecord(name, True, False, len(guesses), played, 0, 3, secret=codes[0], codes=codes)


def board(app, index: int) -> str:
    return str(app.screen.query_one(f"#replay-board-{index}", Static).render())


def step_line(app) -> str:
    """The replay's "Round 2 of 3" line."""
    return str(app.screen.query_one("#replay-step", Static).render())


async def counted_listed_and_opened(pilot, app, label: str, head: str) -> None:
    """Alan's My stats counts his one ``label`` game; Replays lists it by its variant and opens it (``head``)."""
    app.call_later(app.action_stats, "Alan")
    await wait_for(pilot, lambda: f"Variants: {label} 1" in "\n".join(screen_lines(app)), message="My stats' line")
    app.call_later(app.action_replays)
    await wait_for(pilot, lambda: isinstance(app.screen, ReplaysScreen) and app.screen.summaries is not None)
    table = app.screen.query_one("#replays-table", DataTable)
    assert label in str(table.get_row_at(0))
    table.focus()
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
    assert head in "\n".join(screen_lines(app))


async def test_a_quad_tables_replay_shows_four_answers_a_row_at_80x24_and_60x20(store, app):
    store.register("Alan")
    store.register("Bea")
    store.record_game(GameRecord("wom", WOM_RULESET.with_guesses(9), (
        quad("Alan", ["RRGG", "BYWK", "YYYY"], CODES), quad("Bea", ["RGBY"], CODES[::-1]),
    ), "2026-11-20T10:00:00+00:00", hot_seat=False, table_id="t-1", variant=Variant.QUAD))
    async with app.run_test(size=(80, 24)) as pilot:
        await counted_listed_and_opened(pilot, app, "Quad", "WoM · Quad · ")
        await pilot.press("right", "right")
        await wait_for(pilot, lambda: "Round 2 of" in step_line(app), message="round 2")
        alan = board(app, 0).splitlines()
        assert alan[0].split() == ["1", "2", "3", "4"]  # a column per code

        def told(code: str, guess: str) -> str:
            answer = feedback(code, guess)
            return f"{answer.black}B{answer.white}W"

        assert alan[1].split() == ["1", "RRGG", "✓", *(told(code, "RRGG") for code in CODES[1:])]
        assert alan[2].split() == ["2", "BYWK", "·", "✓", told(CODES[2], "BYWK"), told(CODES[3], "BYWK")]
        assert "2 of 4 codes open" in board(app, 0)
        await pilot.press("end")
        await wait_for(pilot, lambda: "Out of guesses." in board(app, 0), message="the end")
        assert "Out of guesses." in board(app, 0) and "The codes: RRGG BYWK GGBB WKRY" in board(app, 0)
        lines = screen_lines(app)
        assert any("3 YYYY   ·    ·  0B0W" in line and line.rstrip().endswith("│") for line in lines)
        await pilot.resize_terminal(60, 20)
        # (Under load the frame read right after the resize could still be the 80-column one: wait for the redraw.)
        await wait_for(pilot, lambda: app.size.width == 60 and all(len(line) <= 60 for line in screen_lines(app))
                       and any("YYYY" in line for line in screen_lines(app)), message="drawn again at 60×20")
        lines = screen_lines(app)
        rows = [line for line in lines if "YYYY" in line]
        assert rows and all("…" not in line for line in lines)
        assert "│YYYY   ·    ·  0B0W 1B0W  │" in rows[0]  # Alan's third row whole within its border (no row number)
        assert "Out of guesses." in "\n".join(lines)
        # A Liar table's replay marks the lie once its row is shown; a Devious one names the code that fitted.
        liar = PlayerRecord("Alan", True, False, 2, (("BBYY", Feedback(0, 0)), ("GGBB", Feedback(1, 0))), 0, 0,
                            secret="RRGG", lied=1)
        bea = PlayerRecord("Bea", True, False, 0, secret="RGBY")
        app.push_screen(ReplayScreen(GameRecord("wom", WOM_RULESET.with_guesses(12), (liar, bea),
                                                "2026-11-20T11:00:00+00:00", hot_seat=False, table_id="t-2",
                                                variant=Variant.LIAR)))
        await wait_for(pilot, lambda: "WoM · Liar · " in "\n".join(screen_lines(app)), message="the Liar replay")
        for round_, lie_shown in ((1, False), (2, True)):
            await pilot.press("right")
            await wait_for(pilot, lambda n=round_: f"Round {n} of" in step_line(app), message=f"round {round_}")
            assert ("the lie" in board(app, 0)) is lie_shown
        assert board(app, 0).splitlines()[1].endswith("← the lie")
        devious = PlayerRecord("Alan", True, False, 1, (("RRGG", Feedback(1, 0)),), 0, 0, secret="BYWG")
        app.push_screen(ReplayScreen(GameRecord("wom", WOM_RULESET.with_guesses(1), (devious, bea),
                                                "2026-11-20T12:00:00+00:00", hot_seat=False, table_id="t-3",
                                                variant=Variant.DEVIOUS)))
        await wait_for(pilot, lambda: "WoM · Devious · " in "\n".join(screen_lines(app)), message="Devious")
        await pilot.press("end")
        await wait_for(pilot, lambda: "Fitted every answer: BYWG" in board(app, 0), message="the fitted code")


async def test_a_solo_strict_game_played_by_keys_is_recorded_listed_and_replayed(store, app):
    """Alan plays a Strict solo game to its end by keys; Replays lists it as Strict and replays it, My stats
    counts it (docs/play.md, *Variants*)."""
    from wom_tui.screens.solo_setup import SoloSetupScreen
    from wom_tui.screens.variant_game import VariantGameScreen

    from .test_solo_resume import as_alan

    store.register("Alan")
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await as_alan(pilot)
        await pilot.click("#solo-variant-3")
        await wait_for(pilot, lambda: setup.variant is Variant.STRICT)
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, VariantGameScreen), message="the Strict game")
        screen = app.screen
        secret = screen.game.secrets[0]
        first = next(code for code in ("1111", "2222") if code != secret)
        for number, code in enumerate((first, secret), start=1):
            await pilot.press(*code.lower(), "enter")
            await wait_for(pilot, lambda: screen.game.guesses_used == number, message=f"{code} played")
        await wait_for(pilot, lambda: "You broke the code in 2 guesses" in "\n".join(screen_lines(app)))
        ((_, record),) = store.games_with_ids()
        assert (record.kind, record.variant, record.players[0].name) == ("solo", Variant.STRICT, "Alan")
        assert [g for g, _ in record.players[0].guesses] == [first, secret] and record.players[0].broke
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, SoloSetupScreen))
        await counted_listed_and_opened(pilot, app, "Strict", "Solo · Strict · ")
        await pilot.press("right")
        await wait_for(pilot, lambda: "still possible" in board(app, 0), message="the coach's count after guess 1")
        assert board(app, 0).splitlines()[0].split()[1:5] == list(first)
        await pilot.press("end")
        await wait_for(pilot, lambda: "Broke the code!" in board(app, 0), message="the end")
        assert board(app, 0).splitlines()[1].split()[1:5] == list(secret)
        await pilot.press("c")  # the share grid, named by the variant as the game's own
        await wait_for(pilot, lambda: "Strict, 4 × Digits 0–9 · 2/10" in "\n".join(screen_lines(app)), message="share")
