"""Visual regression snapshots of the lobby and a live table, at 80×24 and 60×20 (update with --snapshot-update)."""

from __future__ import annotations


from wom_tui.domain.store.folder.store import FolderStore as Store

from .conftest import build_app, no_blink, wait_for
from .test_together import _as, _seats, _table_with_hal

SIZE = (80, 24)
NARROW = (60, 20)


def test_lobby(snap_compare, data_dir, size=SIZE):
    Store(data_dir).register("Alan")

    async def run_before(pilot) -> None:
        await _as(pilot, "Alan")
        # Both halves of the line: who is online, and (a moment later under load) who you play as.
        await wait_for(pilot, lambda: "Online (1): Alan" in str(pilot.app.screen.query_one("#lobby-online").render())
                       and "You: Alan" in str(pilot.app.screen.query_one("#lobby-online").render()),
                       message="Alan listed online, and as you")
        await no_blink(pilot)

    assert snap_compare(build_app(data_dir), terminal_size=size, run_before=run_before)


def test_live_table_guessing(snap_compare, data_dir, size=SIZE):
    Store(data_dir).register("Alan")

    async def run_before(pilot) -> None:
        app = pilot.app
        await _as(pilot, "Alan")
        await pilot.press("escape")
        await _table_with_hal(pilot)
        await pilot.press("g")
        await wait_for(pilot, lambda: app.screen.view.phase == "making" and app.focused is not None
                       and app.focused.id == "code-input", message="Alan asked for his code")
        await pilot.press(*"RGBY", "enter")
        await wait_for(pilot, lambda: app.screen.view.phase == "guessing" and app.focused is not None
                       and app.focused.id == "guess-input", message="Alan asked for a guess")
        await pilot.press(*"RRGG", "enter")
        await wait_for(pilot, lambda: "1/10" in _seats(app)[0], message="Alan's first guess scored")
        await pilot.press(*"KK")
        app.clear_notifications()  # the "Your move" toasts go by themselves; the picture is of the table
        await no_blink(pilot)

    assert snap_compare(build_app(data_dir), terminal_size=size, run_before=run_before)


def test_new_table_form(snap_compare, data_dir, size=SIZE):
    """The form that opens a table: seats, attempts, code length, repeats and the clock, each on one line."""
    Store(data_dir).register("Alan")

    async def run_before(pilot) -> None:
        await _as(pilot, "Alan")
        await pilot.press("n")
        await wait_for(pilot, lambda: pilot.app.screen.__class__.__name__ == "NewTableScreen"
                       and pilot.app.screen.query("#new-create"), message="the table form")
        await no_blink(pilot)

    assert snap_compare(build_app(data_dir), terminal_size=size, run_before=run_before)


def test_live_table_waiting(snap_compare, data_dir, size=SIZE):
    """A table whose seats are filled, before its creator starts it."""
    Store(data_dir).register("Alan")

    async def run_before(pilot) -> None:
        await _as(pilot, "Alan")
        await pilot.press("escape")
        await _table_with_hal(pilot)
        pilot.app.clear_notifications()  # the "Your move" toast goes by itself; the picture is of the table
        await no_blink(pilot)

    assert snap_compare(build_app(data_dir), terminal_size=size, run_before=run_before)


def test_live_table_finished(snap_compare, data_dir, size=SIZE):
    """A table whose game is over: the results, HAL9000 broke Alan's code and Alan ran out of attempts."""
    Store(data_dir).register("Alan")

    async def run_before(pilot) -> None:
        app = pilot.app
        await _as(pilot, "Alan")
        await pilot.press("escape")
        await _table_with_hal(pilot)
        await pilot.press("g")
        await wait_for(pilot, lambda: app.screen.view.phase == "making" and app.focused is not None
                       and app.focused.id == "code-input", message="Alan asked for his code")
        await pilot.press(*"RGBY", "enter")
        for attempt in range(1, 11):
            # Still "making" for a moment after Alan's code (HAL9000's is set by the table): wait for the
            # guessing itself, or the end (a test that took "not guessing" for the end never guessed).
            await wait_for(pilot, lambda: app.screen.view.phase == "finished" or (
                app.screen.view.phase == "guessing" and app.focused is not None and app.focused.id == "guess-input"),
                message="Alan asked for a guess")
            if app.screen.view.phase == "finished":
                break
            await pilot.press(*"KWKW", "enter")
            await wait_for(pilot, lambda n=attempt: app.screen.view.phase == "finished" or f"{n}/10" in _seats(app)[0],
                           message=f"Alan's guess {attempt} scored")
        await wait_for(pilot, lambda: app.screen.view.phase == "finished", message="the game is over")
        for _ in range(3):
            await pilot.pause()
        app.clear_notifications()
        await no_blink(pilot)

    assert snap_compare(build_app(data_dir), terminal_size=size, run_before=run_before)


# ---------------------------------------------------------------- the same screens at 60×20


def test_lobby_60x20(snap_compare, data_dir):
    """Lobby, at 60×20: everything needed to play shows."""
    test_lobby(snap_compare, data_dir, size=NARROW)


def test_live_table_guessing_60x20(snap_compare, data_dir):
    """A live table while guessing, at 60×20: everything needed to play shows."""
    test_live_table_guessing(snap_compare, data_dir, size=NARROW)


def test_new_table_form_60x20(snap_compare, data_dir):
    """The table form, at 60×20: every choice and both buttons show."""
    test_new_table_form(snap_compare, data_dir, size=NARROW)


def test_live_table_waiting_60x20(snap_compare, data_dir):
    """A full table before the start, at 60×20: g Start and the seats show."""
    test_live_table_waiting(snap_compare, data_dir, size=NARROW)


def test_live_table_finished_60x20(snap_compare, data_dir):
    """A finished table, at 60×20: the results show."""
    test_live_table_finished(snap_compare, data_dir, size=NARROW)
