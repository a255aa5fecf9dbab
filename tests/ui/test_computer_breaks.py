"""Computer breaks your code, at 80×24: with a hidden code, and scored by hand with a mistake fixed."""

from __future__ import annotations

from textual.widgets import DataTable, Static

from wom_tui.domain.codes import feedback
from wom_tui.screens.computer_breaks import ComputerBreaksScreen
from wom_tui.screens.solo_setup import SoloSetupScreen
from wom_tui.widgets.peg_input import PegSlot

from .conftest import wait_for

SECRET = "7307"


def shown(widget: Static) -> str:
    return str(widget.render())


async def open_computer_breaks(pilot, *, by_hand: bool = False, wom: bool = False) -> ComputerBreaksScreen:
    await pilot.press("o")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, SoloSetupScreen))
    await pilot.click("#solo-mode-1")
    if wom:
        await pilot.click("#solo-palette-3")
    if by_hand:
        await pilot.click("#solo-scoring-1")
    await pilot.press("p")
    await wait_for(
        pilot,
        lambda: isinstance(pilot.app.screen, ComputerBreaksScreen) and pilot.app.screen.messages.lines_said,
        message="the computer-breaks screen opens",
    )
    return pilot.app.screen


def said(screen: ComputerBreaksScreen) -> list[str]:
    return screen.messages.lines_said


def table_rows(screen: ComputerBreaksScreen) -> list[list[str]]:
    table = screen.query_one("#computer-breaks-history", DataTable)
    return [["".join(str(cell).split()) for cell in table.get_row_at(i)] for i in range(table.row_count)]


async def test_hal9000_breaks_a_hidden_code_and_counts_what_remains(app, store):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_computer_breaks(pilot)
        await pilot.press(*"73", "enter")
        await wait_for(pilot, lambda: said(screen)[-1] == "Code too short; it must be exactly 4 symbols.")
        faces = "".join(str(slot.render()) for slot in screen.query(PegSlot))
        assert "7" not in faces and "•" in faces  # hidden as it is typed
        await pilot.press(*"07", "enter")
        await wait_for(pilot, lambda: screen.phase == "over", message="HAL9000 finishes")
        rows = table_rows(screen)
        assert rows[-1][1] == SECRET and rows[-1][2:4] == ["4", "0"]
        assert said(screen)[-1] == f"HAL9000 broke your code in {len(rows)} guesses."
        assert all(feedback(SECRET, row[1]) == (int(row[2]), int(row[3])) for row in rows)
        # After every guess: how many codes remain (and in the log, in words).
        counts = [int(row[5].replace(",", "")) for row in rows]
        assert counts[-1] == 1 and counts == sorted(counts, reverse=True)
        assert "1 code remains possible." in said(screen)
        assert shown(screen.query_one("#computer-breaks-count", Static)) == "1 code remains possible."
        assert "Your code:" in shown(screen.query_one("#computer-breaks-result", Static))
        # The finished game is kept: HAL9000's guesses, and the guest as the code's owner.
        (record,) = store.games()
        hal, owner = record.players
        assert record.kind == "flip" and (hal.name, hal.broke, hal.attempts) == ("HAL9000", True, len(rows))  # stored as files always said
        assert [guess for guess, _ in hal.guesses] == [row[1] for row in rows]
        assert (owner.name, owner.is_user) == ("Guest", False)
        await pilot.press("enter")  # a stray Enter leaves the finished game on show
        await pilot.pause()
        assert screen.phase == "over" and table_rows(screen) == rows
        await pilot.press("ctrl+n")  # Play again: a fresh code to set
        await wait_for(pilot, lambda: screen.phase == "secret" and not table_rows(screen))


async def answer(pilot, screen: ComputerBreaksScreen, black: int, white: int) -> None:
    await pilot.press(str(black), str(white), "enter")


async def test_scoring_by_hand_catches_a_wrong_answer_and_lets_it_be_fixed(app):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_computer_breaks(pilot, by_hand=True, wom=True)
        secret = "YKYB"
        lied = False
        fixed = False
        for _ in range(30):
            await wait_for(pilot, lambda: screen.phase in ("answer", "fix", "over"))
            if screen.phase == "over":
                break
            if screen.phase == "fix":
                assert "No code fits the answers given." in said(screen)
                assert "No code fits" in shown(screen.query_one("#computer-breaks-count", Static))
                named = said(screen)[-1]
                # Every correction that resolves it is offered; the likeliest is the one being corrected.
                assert named.startswith("Correcting ") and named.endswith("Pick one from the list.")
                assert screen.game.fixing == screen.game.offered[0].index
                # The person may pick another row in the table, and come back to the first.
                await pilot.click("#computer-breaks-history", offset=(3, 2))
                await wait_for(pilot, lambda: screen.focused is screen.query_one("#computer-breaks-history"))
                await pilot.press("up", "down")
                await wait_for(pilot, lambda: screen.game.fixing == 1)
                assert screen.query_one("#computer-breaks-answer").border_title == "Correct the answer to guess #2"
                await pilot.click("#computer-breaks-history", offset=(3, 2))
                await wait_for(pilot, lambda: screen.game.fixing == 0)
                assert shown(screen.query_one("#computer-breaks-question", Static)).startswith("Guess #1 ")
                assert screen.query_one("#computer-breaks-answer").border_title == "Correct the answer to guess #1"
                first = table_rows(screen)[0][1]
                await answer(pilot, screen, *feedback(secret, first))
                await wait_for(pilot, lambda: said(screen)[-1].startswith("Answer to guess #1 corrected")
                               or screen.phase != "fix")
                fixed = True
                continue
            guess = "".join(shown(screen.query_one("#computer-breaks-question", Static)).split()[2:])
            true = feedback(secret, guess)
            before = len(said(screen))
            if not lied:
                # First, two answers a guess can never earn are refused at once.
                await answer(pilot, screen, 3, 1)
                await wait_for(pilot, lambda: len(said(screen)) > before)
                assert said(screen)[-1].startswith("3 black and 1 white cannot happen")
                await answer(pilot, screen, 5, 0)
                await wait_for(pilot, lambda: said(screen)[-1] == "Black must be a number from 0 to 4.")
                # Then the slip: "nothing right" when something was.
                assert true != (0, 0)
                await answer(pilot, screen, 0, 0)
                lied = True
            else:
                await answer(pilot, screen, *true)
            await wait_for(pilot, lambda: screen.phase != "answer" or len(said(screen)) > before + 1)
        assert fixed, "the wrong answer was caught"
        assert screen.phase == "over"
        assert said(screen)[-1].startswith("HAL9000 broke your code in ")
        assert table_rows(screen)[-1][1] == secret


async def play_until_the_contradiction(pilot, screen: ComputerBreaksScreen, secret: str) -> tuple[str, tuple]:
    """Score HAL9000's guesses for ``secret`` truthfully but the first (nothing right, when something was)."""
    first, truth = "", None
    for _ in range(12):
        await wait_for(pilot, lambda: screen.phase in ("answer", "fix", "over"))
        if screen.phase == "fix":
            assert truth is not None
            return first, truth
        guess = "".join(shown(screen.query_one("#computer-breaks-question", Static)).split()[2:])
        before = len(said(screen))
        if truth is None:
            first, truth = guess, feedback(secret, guess)
            assert truth != (0, 0)
            await answer(pilot, screen, 0, 0)
        else:
            await answer(pilot, screen, *feedback(secret, guess))
        await wait_for(pilot, lambda: screen.phase != "answer" or len(said(screen)) > before + 1)
    raise AssertionError("no contradiction")


async def test_a_contradiction_offers_every_correction_and_the_keys_pick_one(app):
    from .screen_text import screen_text

    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_computer_breaks(pilot, by_hand=True, wom=True)
        first, truth = await play_until_the_contradiction(pilot, screen, "YKYB")
        offered = [(c.index, tuple(c.feedback)) for c in screen.game.offered]
        assert (0, tuple(truth)) in offered, "the true answer is among the corrections offered"
        # The list has the keyboard, and the screen says the keys.
        fixes = screen.query_one("#computer-breaks-fix-list")
        await wait_for(pilot, lambda: screen.focused is fixes)
        assert "↑/↓ Enter or click · Tab: type" in screen_text(app)
        assert f"#1 {first} → {truth[0]}● {truth[1]}○" in screen_text(app) or offered.index((0, tuple(truth))) > 3
        target = offered.index((0, tuple(truth)))
        await pilot.press(*["down"] * target)
        # Highlighting a correction shows it in the answer box, ready to send.
        await wait_for(pilot, lambda: screen.game.fixing == 0
                       and screen.query_one("#computer-breaks-black").value == str(truth[0])
                       and screen.query_one("#computer-breaks-white").value == str(truth[1]))
        await pilot.press("enter", "enter")  # a second Enter lands on nothing that matters
        await wait_for(pilot, lambda: f"Answer to guess #1 corrected: {truth[0]} black, {truth[1]} white." in said(screen))
        assert table_rows(screen)[0][2:4] == [str(truth[0]), str(truth[1])]
        await wait_for(pilot, lambda: screen.phase in ("answer", "over"))


async def test_a_correction_is_picked_by_a_click_or_typed_after_tab(app):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_computer_breaks(pilot, by_hand=True, wom=True)
        await play_until_the_contradiction(pilot, screen, "YKYB")
        fixes = screen.query_one("#computer-breaks-fix-list")
        await wait_for(pilot, lambda: screen.focused is fixes)
        # Tab: type the answer instead (the highlighted guess's proposed answer is in the fields).
        await pilot.press("tab")
        await wait_for(pilot, lambda: screen.focused is screen.query_one("#computer-breaks-black"))
        second = screen.game.offered[1]
        await pilot.click("#computer-breaks-fix-list", offset=(2, 1))
        await wait_for(pilot, lambda: f"Answer to guess #{second.index + 1} corrected: "
                       f"{second.feedback.black} black, {second.feedback.white} white." in said(screen))


def test_counts_read_exact_or_about():
    from wom_tui.widgets.solo_history import codes_remain, short_count

    assert codes_remain((1, True)) == "1 code remains possible."
    assert codes_remain((1896, True)) == "1,896 codes remain possible."
    assert codes_remain((13_217_737, False)) == "about 13,217,737 codes remain possible."
    for count in [(99_999, True), (640, False), (18_263, False), (624_000, False), (100_000_000, False)]:
        assert len(short_count(count)) <= 6
    assert short_count((18_263, False)) == "≈18k"


async def test_the_header_of_scoring_by_hand_is_shown_whole_at_80x24(app):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_computer_breaks(pilot, by_hand=True, wom=True)
        info = screen.query_one("#computer-breaks-info", Static)
        await pilot.pause()
        text = shown(info)
        assert "by hand" in text
        room = info.content_region
        assert len(text) <= room.width * room.height, f"{text!r} is cut in {room}"


async def test_at_60x20_scoring_by_hand_keeps_every_part(app):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_computer_breaks(pilot, by_hand=True, wom=True)  # the setup's 60×20 layout is another item's
        await wait_for(pilot, lambda: screen.phase == "answer")
        await pilot.resize_terminal(60, 20)
        parts = ("#computer-breaks-history", "#computer-breaks-log", "#computer-breaks-info")
        # (Laid out again at the new size: under load, the regions read right after the resize were the old ones.)
        await wait_for(pilot, lambda: screen.size.width == 60
                       and all(screen.query_one(selector).region.right <= 60 for selector in parts),
                       message="laid out again at 60×20")
        whole = screen.region
        for selector in parts:
            region = screen.query_one(selector).region
            assert region.width > 0 and whole.contains_region(region), f"{selector} is cut at 60×20: {region}"
