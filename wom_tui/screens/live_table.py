"""A live table: take a seat, set your code, break yours while everybody else breaks theirs, results.

Everything a person may do is a :class:`.table.Table` method run through the live state
(``live.play``, the move a value: :mod:`wom_tui.domain.moves`) in a thread; a refusal's reason is shown and nothing changes.
The seats panel shows everyone's progress (attempts used, broken or not), never a guess or a code;
your own board shows only your guesses. A spectator (anyone without a seat) sees the panel, the
table's announcements and the results. The screen re-reads the table after every change of this table
the store's feed reports and when something is due (a computer's move, a grace running out); the
process's housekeeper (:class:`.together.Housekeeper`) marks who dropped out.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.notifications import Notification
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..domain.moves import Accept, Close, Guess, Leave, Resume, SeatComputer, SetCode, Sit, Stand, Start, TableMove, UnseatComputer
from ..domain.notes import Notes
from ..domain.ratings import rates
from ..domain.store import StoreError
from ..domain.table import CLOSED, FINISHED, GUESSING, MAKING, OPEN, Refused, SeatHolder, SeatView, TableView
from ..domain.variants import LIE_WITHIN, Variant
from ..domain.words import counted
from ..patches.footer import Footer
from ..widgets.message_log import MessageLog
from ..widgets.notes_grid import NotesGrid
from ..widgets.peg_input import PegInput
from ..widgets.quad_rows import QuadRows
from ..widgets.seat_list import SeatList
from ..widgets.wom_board import HistoryTable
from ..domain.store.api import LiveChange
from .together import LiveScreen, nudge_player, seated_by_hand


def seat_line(seat: SeatView, view: TableView) -> Text:
    """One seat for everybody: who, and how they are doing (never a guess or a code)."""
    text = Text(end="", no_wrap=True, overflow="ellipsis")
    mark = "▶ " if view.you == seat.index else "  "
    text.append(mark, style="bold")
    text.append(f"{seat.index + 1}. ")
    if seat.kind == "free":
        text.append("free seat", style="dim")
        return text
    text.append(seat.name or "", style="bold" if view.you == seat.index else "")
    if seat.kind == "computer":
        text.append(" (computer)", style="dim")
    elif not seat.registered:
        text.append(" (guest)", style="dim")
    if view.phase == MAKING:
        text.append("  code set" if seat.code_set else "  setting…", style="dim" if not seat.code_set else "")
    elif view.phase in (GUESSING, FINISHED):
        text.append(f"  {seat.attempts_used}/{view.attempts}")
        if seat.gone:
            text.append("  left", style="red")
        elif seat.broke:
            text.append("  ✓ broke", style="green")
        elif seat.done:
            text.append("  ✗ failed", style="red")
        else:
            text.append("  … guessing", style="dim")
    if seat.away and not seat.gone:
        text.append("  (away)", style="yellow")
    return text


def nudge_reason(before: TableView | None, view: TableView) -> str | None:
    """Why to nudge the viewer as the table goes from ``before`` to ``view`` (None: no reason): their code
    to set once the game starts, or — for the one who opened it — every seat filled. Only on a change seen
    here: opening a table already in that state rings nothing (the quick match rang as it seated you).
    """
    if before is None or view.you is None or view.table_id != before.table_id:
        return None
    if view.phase == MAKING and view.own is not None and view.own.code_for and \
            (before.phase != MAKING or before.own is None or not before.own.code_for):
        return f"The game has started: set the code {view.own.code_for} will break."
    if view.phase == OPEN and view.you == 0 and before.free_seats and not view.free_seats:
        return "Every seat is filled: press g to start."
    return None


class _TableSide(Vertical):
    """The table's left column (seats, message, entries, board): an entry's changes stop here.

    Nothing above it listens to them, and each key typed into an entry went on up to the app (three
    more message queues for every key of a guess: a guess is typed while others wait for it).
    """

    def on_peg_input_changed(self, event: PegInput.Changed) -> None:
        event.stop()


class LiveTableScreen(LiveScreen):
    """One table, for a seated person or a spectator."""

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (72, "-roomy"), (110, "-wide")]
    """Under 72 columns the seats and the board take less room, so that the messages keep theirs; from 110
    (a browser window, a wide terminal) the board takes the room first, and the messages what is left."""

    BINDINGS = [
        Binding("s", "sit", "Sit here"),
        Binding("u", "stand", "Stand up"),
        Binding("h", "computer('HAL9000')", "HAL9000"),
        Binding("v", "computer('VIKI')", "VIKI"),
        Binding("x", "unseat", "Free seat", show=False),
        Binding("g", "start", "Start"),
        Binding("c", "close_table", "Close"),
        Binding("a", "again", "Again"),
        Binding("f4", "notes", "Notes", key_display="F4"),
    ]
    AUTO_FOCUS = "#table-seats"

    def __init__(self, table_id: str) -> None:
        super().__init__(classes="live-table-screen")
        self.table_id = table_id
        self.view: TableView | None = None
        self._seat_resumed = False
        """The person's seat was taken back on this session (once)."""
        self._move_on_its_way = False
        """A code or a guess is on its way to the store (its entry is cleared once the store took it)."""
        self._due_timer: Any = None
        self._shown_log: tuple[str, ...] = ()
        self._shown_seats: list[Text] = []
        self._shown_title = ""
        self._shown_message: tuple[str, bool] = ("", False)
        self._nudged: tuple[Notification, tuple[str, bool]] | None = None
        """The last "Your move" toast and the table's state it was true in (its phase, a seat free)."""
        self._shown_board: tuple[int, int] | None = None
        """What the screen shows now: a re-read that changes nothing redraws nothing."""
        self._wants: str | None = None
        self._error_at: int | None = None
        """The table's version when a refusal was shown (it stays until the table changes)."""
        self._want_tick = True
        """The next read brings the table up to date (first, on the timer, when something is due)."""
        """What the entry shown asks for: "code", "guess" or None."""

    def compose(self) -> ComposeResult:
        # The parts a new view updates are kept at hand: looking them up in the screen at every
        # change (another seat's guess) cost more than the update itself.
        self._title_line = Static(Text("Table"), id="table-title", classes="panel-title")
        self._seat_list = SeatList(id="table-seats")
        self._message_line = Static(Text(""), id="table-message")
        self._board = HistoryTable(id="table-board")
        self._quad = QuadRows(id="table-quad")
        self._results = Static(Text(""), id="table-results")
        self._reveal = Static(Text(""), id="table-reveal")
        self._shown_results: tuple[object, ...] | None = None
        self._log = MessageLog(id="table-log")
        self._entries: list[PegInput] = []
        with Horizontal(id="table-main"):
            with _TableSide(id="table-left") as left:
                self._left = left
                yield self._title_line
                yield self._seat_list
                yield self._message_line
                yield self._results
                yield self._reveal
                yield self._board
                yield self._quad
            with Vertical(id="table-right"):
                yield self._log
        yield Footer()

    def on_mount(self) -> None:
        # (Textual calls LiveScreen.on_mount after this one, as it calls every class's handler: calling
        # it here too ran two feed watchers and two refresh loops, and every change was read twice.)
        self._board.display = False
        self._quad.display = False
        self._results.display = False
        self._reveal.display = False

    def on_unmount(self) -> None:
        # (LiveScreen.on_unmount runs too.) Left by another way than Esc (the palette, the main menu):
        # the seat stays, and the player is told where it is and how to leave it (docs/play.md, *Tables*).
        view = self.view
        if view is not None and self.seated and view.phase in (OPEN, MAKING, GUESSING) and self.app.is_running:
            self.app.notify(f"You kept your seat at {view.creator}'s table: the lobby takes you back to it, "
                            "and x there leaves it.", timeout=8)

    def wants(self, change: LiveChange) -> bool:
        """Changes of this table; a session coming or going brings the table up to date at once (who
        is away), else the process's housekeeper does it at its next sweep.
        """
        if change.presence:
            self._want_tick = True
            return True
        if self.table_id not in change.tables:
            return False
        if self._want_tick or not self._seat_resumed or self.view is None or self.paused() \
                or not self.wom.store.live.at_hand(self.table_id) or not self.is_attached:
            return True
        # Another seat's move, in a data folder or pushed by the server's hub: the table is read and shown at
        # once, here. It is one small file read without the store's lock, or the copy at hand (nothing here
        # waits on another process; a database is read in a thread, as before); read in a thread, it cost
        # two more wake-ups on the way from a guess to the other players' panels, which on a loaded machine
        # each wait for a core.
        try:
            data = self.load()
        except StoreError:
            return True  # the refresher shows the problem
        self.loads += 1
        try:
            self.show(data)
        except NoMatches:
            pass  # being removed
        return False

    # -- who am I here ----------------------------------------------------------------------

    @property
    def me(self) -> SeatHolder | None:
        return self.together.me()

    @property
    def seated(self) -> bool:
        """True while this person holds a seat that is not gone."""
        view = self.view
        return view is not None and view.you is not None and not view.seats[view.you].gone

    # -- reading ----------------------------------------------------------------------------

    def load(self) -> TableView | str:
        live = self.wom.store.live
        me = self.me
        try:
            if me is not None and not self._seat_resumed:
                self._seat_resumed = True
                live.play(self.table_id, Resume(me))
            if self._want_tick:
                self._want_tick = False
                table = live.tick(self.table_id)  # presence, graces, computers' moves (takes the lock)
            else:
                found = live.table(self.table_id)  # a change the feed reported: just read it
                if found is None:
                    raise LookupError(f"There is no table {self.table_id!r} any more.")
                table = found
        except LookupError as gone:
            return str(gone)
        except StoreError as error:
            return f"{error}"
        return table.view_for(me if me is not None and table.seat_of(me) is not None else None)

    def show(self, data: TableView | str) -> None:
        if isinstance(data, str):
            self.view = None
            self.say(data, error=True)
            for entry in self._entries:
                entry.display = False
            self._wants = None  # (the entry shown again after a good read takes the keys again)
            return
        view = data
        before = self.view
        if before is not None and (view == before or view.version < before.version):
            return  # nothing changed (a tick with nothing due), or a read older than what is shown: no redraw
        self.view = view
        self._title(view)
        seats = self._seat_list
        highlighted = seats.highlighted
        lines = [seat_line(s, view) for s in view.seats]
        if lines != self._shown_seats:
            # Only the rows that changed are redrawn (a guess changes one seat's progress).
            if len(lines) == seats.option_count:
                for index, line in enumerate(lines):
                    if index >= len(self._shown_seats) or line != self._shown_seats[index]:
                        seats.replace_row(index, line)
            else:
                seats.set_options([Option(line, id=str(index)) for index, line in enumerate(lines)])
            self._shown_seats = lines
        if before is not None and highlighted is not None and highlighted < len(view.seats):
            if seats.highlighted != highlighted:
                seats.highlighted = highlighted
        elif view.free_seats:
            seats.highlighted = view.free_seats[0]
        self._show_log(view)
        self._show_play(view, before)
        self._keep_clock(view)
        reason = nudge_reason(before, view)
        state = (view.phase, bool(view.free_seats))
        if self._nudged is not None and (reason is not None or self._nudged[1] != state):
            # "Every seat is filled: press g to start" is no longer true once the game started (or a seat
            # was given back): it goes, rather than stay over the board.
            self.withdraw(self._nudged[0])
            self._nudged = None
        if reason is not None:
            toast = nudge_player(self.wom, reason, on=self)
            self._nudged = (toast, state) if toast is not None else None
        if view.phase == OPEN and view.you == 0:
            self.leave_detail = "The table is closed for everybody."
        elif view.phase == OPEN:
            self.leave_detail = "Your seat is given back."
        else:
            self.leave_detail = "Your code counts as not broken; the others play on."
        self._schedule(view)
        if before is None or (before.phase, before.you) != (view.phase, view.you):
            self.refresh_bindings()  # the keys offered follow the phase and the seat (the footer is costly)

    def _title(self, view: TableView) -> None:
        rules = view.ruleset
        role = "watching" if view.you is None else f"seat {view.you + 1}"
        if view.you is None:
            role = "watching"
        phase = {OPEN: "waiting for players", MAKING: "setting codes", GUESSING: "playing",
                 FINISHED: "finished", CLOSED: "closed"}[view.phase]
        variant = "" if view.variant is Variant.CLASSIC else f"{view.variant.label} · "
        title = f"{view.creator}'s table · {variant}{phase} · {rules.title}, {counted(view.attempts, 'attempt')} · {role}"
        title += self._clock_text(view)
        if title != self._shown_title:
            self._shown_title = title
            self._title_line.update(Text(title, end=""))

    def _clock_text(self, view: TableView) -> str:
        """With a per-guess clock: the viewer's time left for this guess (or that it ran out); while the viewer's
        code is still to set, the code clock's time left (docs/play.md, *Playing together*).
        """
        if view.code_deadline is not None and view.own is not None and view.own.code_for is not None:
            left = max(0.0, view.code_deadline - self.wom.store.live.clock())
            return f" · code: {int(left) // 60}:{int(left) % 60:02d} left"
        if view.guess_clock is None or view.you is None:
            return ""
        seat = view.seats[view.you]
        if seat.timed_out:
            return " · out of time"
        if view.phase != GUESSING or seat.deadline is None:
            return f" · {view.guess_clock:g} s a guess"
        left = max(0.0, seat.deadline - self.wom.store.live.clock())
        return f" · {int(left) // 60}:{int(left) % 60:02d} left"

    _clock_timer: Any = None

    def _keep_clock(self, view: TableView) -> None:
        """Count the viewer's time down every second while their clock runs (no timer otherwise)."""
        running = view.guess_clock is not None and view.phase == GUESSING and view.you is not None \
            and view.seats[view.you].deadline is not None \
            or view.code_deadline is not None and view.own is not None and view.own.code_for is not None
        if running and self._clock_timer is None:
            self._clock_timer = self.set_interval(1.0, self._count_down)
        elif not running and self._clock_timer is not None:
            self._clock_timer.stop()
            self._clock_timer = None

    def _count_down(self) -> None:
        if self.view is not None:
            self._title(self.view)

    def _show_log(self, view: TableView) -> None:
        log = self._log
        old = self._shown_log
        new = view.log
        start = 0
        for k in range(min(len(old), len(new)), 0, -1):
            if old[-k:] == new[:k]:
                start = k
                break
        for line in new[start:]:
            log.say(line, "success" if "broke" in line else "info")
        self._shown_log = new

    def _show_play(self, view: TableView, before: TableView | None) -> None:
        board = self._board
        own = view.own
        if view.phase == CLOSED:
            self.say(view.closed_reason or "The table is closed.")
        elif view.phase == FINISHED and view.results is not None:
            if before is None or before.phase != FINISHED:
                self.say(" ".join(view.results.messages))
            if view.you is not None:
                self.together.results_seen.add(view.table_id)  # (the lobby lists it no more)
            self._show_results(view)
        elif view.phase == OPEN:
            hint = self._open_hint(view)
            self.say(hint)
        elif view.you is None:
            self.say("You are watching this game.")
        elif view.seats[view.you].gone:
            self.say("You have left this game; you are watching it.")
        elif view.phase == MAKING and own is not None and own.code_for is not None:
            self.say(f"Set the code {own.code_for} must break, then press Enter.")
        elif view.phase == MAKING:
            self.say("Your code is set: waiting for the others.")
        elif view.phase == GUESSING and own is not None and own.done:
            self.say("Your board is finished: waiting for the others.")
        elif view.phase == GUESSING and own is not None:
            self.say(self._break_line(view))
        wants = None
        if view.you is not None and own is not None and not view.seats[view.you].gone:
            if view.phase == MAKING and own.code_for is not None:
                wants = "code"
            elif view.phase == GUESSING and not own.done:
                wants = "guess"
        if view.phase in (OPEN, MAKING, GUESSING) and not self._entries:
            # Mounted (hidden) before they are needed, so that showing one can focus it at once:
            # keys typed right after it appears reach it.
            left = self._left
            for kind, label in (("code", "Your code"), ("guess", "Your guess")):
                entry = PegInput(view.ruleset, id=f"{kind}-input", label=label)
                entry.display = False
                left.mount(entry, before=board)
                self._entries.append(entry)
        for entry in self._entries:
            show = entry.id == f"{wants}-input"
            if entry.display != show:
                entry.display = show
            if show and self._wants != wants:
                # At once, mounted yet or not (a mount registers it now): the focus is then queued ahead of
                # any key that arrives with the frame that shows the entry.
                entry.focus()
        self._wants = wants
        quad = own is not None and view.phase in (GUESSING, FINISHED) and view.variant is Variant.QUAD
        if self._quad.display != quad:
            self._quad.display = quad
        if quad and own is not None:
            self._quad.show_rows(own.rows, view.ruleset)
            if board.display:
                board.display = False
        elif own is not None and view.phase in (GUESSING, FINISHED):
            if not board.display:
                board.display = True
            shown = (view.you or 0, len(own.history))
            if shown != self._shown_board:
                # Only when this player's board changed: another seat's guess leaves it (and its scroll) alone.
                self._shown_board = shown
                board.show_board(SimpleNamespace(history=own.history, ruleset=view.ruleset), owner=view.you or 0)  # type: ignore[arg-type]
            if own.lied_row is not None:
                board.mark_row(own.lied_row + 1, "← the lie")
        elif board.display:
            board.display = False

    @staticmethod
    def _break_line(view: TableView) -> str:
        """What the player breaking their board reads, by the variant."""
        own = view.own
        assert own is not None
        left = counted(own.attempts_left, 'attempt')
        if view.variant is Variant.DEVIOUS:
            return f"Corner Devious: it holds no code. {left} left."
        if view.variant is Variant.QUAD:
            return f"Break the four codes (the first is {own.breaking_code_of}'s): {left} left."
        if view.variant is Variant.LIAR:
            return (f"Break the code {own.breaking_code_of} set; one of the first {LIE_WITHIN} answers lies. "
                    f"{left} left.")
        return f"Break the code {own.breaking_code_of} set: {left} left."

    def _show_results(self, view: TableView) -> None:
        """The results table: every player, the code they had to break, attempts, points, rating change.

        The same for a spectator. A rating change shows once the game is recorded and rated; until then
        "…" (the next read of the table fills it in).
        """
        if view.final is None:
            return
        changes: dict[str, str] = {}
        # A game that will never be rated (a guest against one computer, an unrated quick match) says so, not
        # "…" for ever.
        rated = view.rated and rates([(row.name, view.seats[row.seat].kind == "person" and view.seats[row.seat].registered)
                       for row in view.final])
        book = self.wom.with_store(self.wom.store.rating_book, on_error=lambda _error: None) \
            if view.game_id is not None and rated else None
        for row in view.final:
            rating = book.rating(row.name) if book is not None else None
            change = rating.change_in(view.game_id) if rating is not None and view.game_id else None
            changes[row.name] = "…" if change is None else f"{change:+d}"
        shown = (view.final, tuple(changes.items()))
        if shown == self._shown_results:
            return
        self._shown_results = shown
        cells = [("Player", "Code", "Broke", "Points", "Rating")]
        for row in view.final:
            seat = view.seats[row.seat]
            guest = seat.kind == "person" and not seat.registered  # guests are not rated
            # Points as the hot-seat results give them: breaking + making = total.
            points = "—" if row.points is None else (
                f"{row.breaking}+{row.making}={row.points}" if row.breaking is not None else str(row.points))
            code = row.code.split()[0] + "+3" if view.variant is Variant.QUAD and row.code else row.code
            cells.append((row.name, code, f"in {row.attempts}" if row.broke else f"no ({row.attempts})",
                          points,
                          "—" if guest or not rated else changes[row.name]))
        widths = [max(len(line[column]) for line in cells) for column in range(5)]
        grid = Text(no_wrap=True, overflow="ellipsis", end="")
        for number, line in enumerate(cells):
            if number:
                grid.append("\n")
            text = "  ".join(
                cell.rjust(width) if column >= 3 else cell.ljust(width)
                for column, (cell, width) in enumerate(zip(line, widths, strict=True))
            )
            grid.append(text, style="bold" if number == 0 else "")
        self._results.update(grid)
        if view.reveal:  # Quad's four codes, Devious's fitted code, Liar's lie: wrapped under the grid
            self._reveal.update(Text("\n".join(view.reveal), style="dim", end=""))
            self._reveal.display = True
        self._results.display = True

    # -- the player's own notes (F4; private: kept in this session, never in the table) --------------

    def action_notes(self) -> None:
        """F4: show the notes and move into them; F4 in the notes hides them again."""
        view = self.view
        if view is None:
            return
        found = self.query("#table-notes")
        grid = found.first(NotesGrid) if found else None
        if grid is None:
            kept = self.together.notes.get(self.table_id) or Notes.empty(view.ruleset)
            grid = NotesGrid(kept, view.ruleset.palette, id="table-notes")
            self.query_one("#table-right").mount(grid, before=self._log)
            grid.focus()  # at once: keys sent with F4 go to the notes
            return
        if grid.has_focus:
            grid.display = False
            self._back_to_entry()
        else:
            grid.display = True
            grid.focus()

    def on_notes_grid_changed(self, event: NotesGrid.Changed) -> None:
        event.stop()
        self.together.notes[self.table_id] = event.notes

    def on_notes_grid_leave(self, event: NotesGrid.Leave) -> None:
        event.stop()
        self._back_to_entry()

    def _back_to_entry(self) -> None:
        shown = [entry for entry in self._entries if entry.display]
        (shown[0] if shown else self._seat_list).focus()

    def _open_hint(self, view: TableView) -> str:
        if view.you is None:
            return "Highlight a free seat and press s to sit there." if view.free_seats else "Every seat is taken."
        if view.you == 0:
            if view.free_seats:
                return "Wait for players, or put HAL9000 (h) or VIKI (v) in a free seat. c closes the table."
            return "Every seat is filled: press g to start."
        return f"Waiting for {view.creator} to start. u stands up."

    def _schedule(self, view: TableView) -> None:
        if self._due_timer is not None:
            self._due_timer.stop()
            self._due_timer = None
        if view.next_due is not None:
            delay = max(0.0, view.next_due - time.time()) + 0.01
            self._due_timer = self.set_timer(delay, self.poke_tick)

    def poke_tick(self) -> None:
        """Bring the table up to date and show it (a timer: presence, graces, computers)."""
        self._want_tick = True
        self.poke()

    def say(self, message: str, *, error: bool = False) -> None:
        """The line under the seats (plain text). A refusal stays until the table changes."""
        version = self.view.version if self.view is not None else None
        if error:
            self._error_at = version
        elif self._error_at is not None and self._error_at == version:
            return
        else:
            self._error_at = None
        if (message, error) != self._shown_message:
            line = self._message_line
            width = line.content_region.width
            # A new layout only when the message takes another number of lines (a guess changes "N
            # attempts left": the same line, repainted alone).
            same_height = bool(width) and self._lines_at(self._shown_message[0], width) == self._lines_at(message, width)
            self._shown_message = (message, error)
            line.update(Text(message, style="bold red" if error else ""), layout=not same_height)

    def _lines_at(self, message: str, width: int) -> int:
        """How many lines ``message`` takes in the message line's width."""
        if cell_len(message) <= width:
            return 1
        return len(Text(message).wrap(self.app.console, width))

    # -- acting ------------------------------------------------------------------------------

    def _do(self, move: TableMove, *, then: Callable[[], None] | None = None) -> None:
        """Play ``move`` (see :meth:`_act`); the keys typed after the one that made it wait for what it does."""
        self.wom.hold_keys_for(self)
        self.run_worker(self._act(move, then=then), group="act")

    async def _act(self, move: TableMove, *, then: Callable[[], None] | None = None) -> bool:
        """Play ``move`` at the table (in a thread); True if it went through. The table as the store wrote
        it is shown at once, with what ``then`` does, in one frame: not read again (the change feed's report
        of it then shows nothing new), so that the person who acted waits for nothing more. Then the keys
        held for it go on (:meth:`_do`): `h g` typed at once start the game once HAL9000 is seated, and a
        guess typed with the code's Enter reaches the guess entry, not the code entry being cleared.
        """
        try:
            return await self._play_and_show(move, then)
        finally:
            self.wom.keys_ready(self)

    async def _play_and_show(self, move: TableMove, then: Callable[[], None] | None) -> bool:
        me = self.me
        try:
            table = await asyncio.to_thread(self.wom.store.live.play, self.table_id, move)
            view = table.view_for(me if me is not None and table.seat_of(me) is not None else None)
        except Refused as refused:
            self.say(refused.reason, error=True)
            return False
        except LookupError as gone:
            self.say(str(gone), error=True)
            return False
        except StoreError as error:
            self.say(str(error), error=True)
            return False
        if then is not None:
            then()
        if self.is_attached and not self._stop.is_set():
            self.show(view)
        return True

    def _highlighted_seat(self) -> int | None:
        return self._seat_list.highlighted

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        view = self.view
        if view is not None and view.phase == OPEN and view.you is None:
            self.action_sit()

    def action_sit(self) -> None:
        """Take the highlighted seat (or, if it is taken, the first free one)."""
        me, index, view = self.me, self._highlighted_seat(), self.view
        if me is None or view is None:
            return
        if index is None and view.free_seats:
            index = view.free_seats[0]
        if index is None or not self._free_or_say(view, index, "sit there"):
            return
        self._do(Sit(me, index), then=lambda: seated_by_hand(self.app))

    def action_stand(self) -> None:
        """Give the seat back before the start."""
        me = self.me
        if me is not None:
            self._do(Stand(me))

    def action_computer(self, name: str) -> None:
        """The creator puts a computer in the highlighted seat."""
        me, index, view = self.me, self._highlighted_seat(), self.view
        if me is None or index is None or view is None or not self._free_or_say(view, index, f"seat {name}"):
            return
        self._do(SeatComputer(me, index, name))

    def _free_or_say(self, view: TableView, index: int, what: str) -> bool:
        """True if the highlighted seat ``index`` is free; else say whose it is and how to pick another."""
        seat = view.seats[index]
        if seat.kind == "free":
            return True
        whose = "yours" if view.you == index else f"{seat.name}'s"
        self.say(f"Seat {index + 1} is {whose}: highlight a free seat with ↑ ↓ to {what}.", error=True)
        return False

    def action_unseat(self) -> None:
        """The creator frees the highlighted seat of its computer."""
        me, index = self.me, self._highlighted_seat()
        if me is not None and index is not None:
            self._do(UnseatComputer(me, index))

    def action_start(self) -> None:
        """The creator starts the game."""
        me = self.me
        if me is not None:
            self._do(Start(me))

    def action_close_table(self) -> None:
        """The creator closes the table (asks first)."""
        me = self.me
        if me is None:
            return

        def then() -> None:
            self._do(Close(me))

        from .confirm import ConfirmScreen

        self.app.push_screen(
            ConfirmScreen("Close this table?", "Everybody at it is sent back to the lobby.", confirm_label="Close",
                          hint="y: close · Esc or n: keep it"),
            lambda yes: then() if yes else None,
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        view = self.view
        if action in ("sit", "stand", "computer", "unseat", "start", "close_table"):
            if view is None or view.phase != OPEN:
                return False
            creator = view.you == 0
            if action == "sit":
                return view.you is None
            if action == "stand":
                return view.you is not None and not creator
            return creator
        if action == "again":
            return view is not None and view.phase == FINISHED and view.you is not None
        return True

    def action_again(self) -> None:
        """"Again": the same seats at a new table (or accept the one another player offered); it starts
        once everyone has accepted.
        """
        me = self.me
        if me is None or self.view is None or self.view.phase != FINISHED:
            return
        live, seed = self.wom.store.live, self.wom.rng.getrandbits(48)

        async def again() -> None:
            try:
                rematch_id = await asyncio.to_thread(live.rematch, self.table_id, me, seed=seed)
                await asyncio.to_thread(live.play, rematch_id, Accept(me))
            except Refused as refused:
                self.say(refused.reason, error=True)
                return
            except (LookupError, StoreError) as error:
                self.say(str(error), error=True)
                return
            seated_by_hand(self.app)
            if self.is_attached:
                self.app.switch_screen(LiveTableScreen(rematch_id))

        self.run_worker(again(), group="again", exclusive=True)

    def on_peg_input_submitted(self, event: PegInput.Submitted) -> None:
        event.stop()
        if event.stale:
            return  # already played (a second Enter in the same burst)
        me, view = self.me, self.view
        if me is None or view is None:
            return
        typed = event.text
        wants = (event.peg_input.id or "").removesuffix("-input")
        move: TableMove
        if wants == "code":
            move = SetCode(me, typed)
        elif wants == "guess":
            move = Guess(me, typed)
        else:
            return
        if self._move_on_its_way:
            return  # a second Enter while the code or guess is on its way to the store: already played
        self._move_on_its_way = True
        entry = event.peg_input

        def clear() -> None:
            if entry.is_mounted:
                entry.clear()

        async def play() -> None:
            try:
                await self._act(move, then=clear)
            finally:
                self._move_on_its_way = False

        self.wom.hold_keys_for(self)  # the keys typed after this Enter wait for its move (see _act)
        self.run_worker(play(), group="act")

    def leaving_loses_progress(self) -> bool:
        """A seated player leaving a table before its results gives up the seat (their code then counts
        as not broken): asked first.
        """
        view = self.view
        return view is not None and self.seated and view.phase in (OPEN, MAKING, GUESSING)

    def action_back(self) -> None:
        """Back to the lobby; a seat at a table still under way asks first."""
        if self.leaving_loses_progress():
            self.ask_to_leave(self.leave_confirmed)
        else:
            self.dismiss()

    def leave_confirmed(self) -> None:
        """Give up the seat (if any) and go back to the lobby."""
        me = self.me
        if me is None:
            self.dismiss()
            return

        async def leave() -> None:
            await self._act(Leave(me))
            if self.is_current:
                self.dismiss()

        self.run_worker(leave(), group="act")


__all__ = ["LiveTableScreen", "seat_line"]
