"""Hot-seat World of Mastermind at one keyboard (issue 35, item 15): the guesser reads their own key pegs before
the curtain (Enter: Done), and the Messages panel shows each person only their own guesses and feedback."""

from __future__ import annotations

import pytest

from wom_tui.domain.wom import hot_seat_sees
from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.widgets.message_log import MessageLog

from .screen_text import screen_text
from .test_wom import enter_code, seat, until, wait_turn


async def alan_to_guess(pilot):
    """Alan and Steve at one keyboard, both codes set: Alan's turn to guess; the game's screen."""
    screen = await seat(pilot, "Alan", "Steve")
    await enter_code(pilot, screen, "Alan", "RGBY")
    await enter_code(pilot, screen, "Steve", "KKWW")
    assert await wait_turn(pilot, screen, "Alan") == "guess"
    return screen


def log_text(screen) -> str:
    """The messages the log has on show (each whole, however the panel wraps them)."""
    return "\n".join(text for text, _kind in screen.query_one(MessageLog)._shown)


def test_a_person_s_moves_are_theirs_alone_until_the_game_is_over():
    assert not hot_seat_sees("Steve", "Alan", people=2, over=False)
    assert hot_seat_sees("Alan", "Alan", people=2, over=False)
    assert hot_seat_sees("Steve", None, people=2, over=False)  # codes set, computers' moves
    assert hot_seat_sees("Steve", "Alan", people=2, over=True)
    assert hot_seat_sees("Alan", "HAL9000", people=1, over=False) and hot_seat_sees(None, "Alan", people=1, over=False)


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_each_person_reads_their_feedback_then_the_curtain_and_only_their_own_messages(make_app, store: Store,
                                                                                           size):
    store.register("Alan")
    store.register("Steve")
    app = make_app()
    async with app.run_test(size=size) as pilot:
        screen = await alan_to_guess(pilot)
        await pilot.press(*"rrrr", "enter")
        # Alan's key pegs stay on show, with his guess in the messages, until he says he is done.
        await until(pilot, lambda: screen.awaiting == ("seen", "Alan"), message="Alan reads his feedback")
        assert screen.query_one("#wom-switcher").current == "wom-guessing"
        await until(pilot, lambda: "Done" in screen_text(app))
        assert "Alan's guess: RRRR" in log_text(screen) and screen.message_log.display
        assert "Alan's board" in screen_text(app)
        await pilot.press("enter")  # Done: now the curtain for Steve
        await until(pilot, lambda: screen.awaiting == ("handover", "Steve"))
        assert not screen.message_log.display
        await pilot.press("enter")
        await until(pilot, lambda: screen.awaiting == ("guess", "Steve"))
        assert "Alan's guess" not in log_text(screen), "Steve never reads Alan's guesses"
        assert "RRRR" not in screen_text(app)
        assert "The code is now set" in log_text(screen)  # what everyone may read stays
        await pilot.press(*"gggg", "enter")
        await until(pilot, lambda: screen.awaiting == ("seen", "Steve"))
        assert "Steve's guess: GGGG" in log_text(screen)
        await pilot.press("enter", "enter")  # Done, then Alan is there
        await until(pilot, lambda: screen.awaiting == ("guess", "Alan"))
        assert "Alan's guess: RRRR" in log_text(screen) and "Steve's guess" not in log_text(screen)
        assert "GGGG" not in screen_text(app)


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_f4_notes_are_each_person_s_own_and_never_behind_the_curtain(make_app, store: Store, size):
    from wom_tui.domain.notes import Note
    from wom_tui.widgets.notes_grid import NotesGrid

    store.register("Alan")
    store.register("Steve")
    app = make_app()
    async with app.run_test(size=size) as pilot:
        screen = await alan_to_guess(pilot)
        await pilot.press("f4")
        await until(pilot, lambda: screen.query("#wom-notes") and screen.query_one(NotesGrid).has_focus)
        grid = screen.query_one(NotesGrid)
        assert app.screen.region.contains_region(grid.region), "the whole grid is on screen"
        assert "× out" in screen_text(app)
        await pilot.press("space")  # slot 1, the first symbol: ruled out
        await until(pilot, lambda: grid.notes.note(0, "R") is Note.OUT)
        await pilot.press("escape")  # back to the guess, the notes stay in view
        await until(pilot, lambda: screen.query_one("#guess-input").has_focus)
        assert screen.query("#wom-notes") and isinstance(app.screen, type(screen))
        await pilot.press(*"gggg", "enter")
        await until(pilot, lambda: screen.awaiting == ("seen", "Alan"))
        assert not screen.query("#wom-notes"), "Done comes with the notes put away"
        await pilot.press("enter", "enter")
        await until(pilot, lambda: screen.awaiting == ("guess", "Steve"))
        await pilot.press("f4")
        await until(pilot, lambda: screen.query("#wom-notes") and screen.query_one(NotesGrid).has_focus)
        assert not screen.query_one(NotesGrid).notes, "Steve's notes are his own: empty"
        await pilot.press("f4")  # F4 in the notes hides them
        await until(pilot, lambda: not screen.query("#wom-notes") and screen.query_one("#guess-input").has_focus)
        await pilot.press(*"rrrr", "enter", "enter", "enter")  # Done, the curtain, Alan is there
        await until(pilot, lambda: screen.awaiting == ("guess", "Alan"))
        await pilot.press("f4")
        await until(pilot, lambda: screen.query("#wom-notes"))
        assert screen.query_one(NotesGrid).notes.note(0, "R") is Note.OUT, "Alan's notes were kept for him"
