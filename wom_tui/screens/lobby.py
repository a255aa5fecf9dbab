"""The lobby: who is online, the open and running tables of this data folder; make or join a table.

It updates by itself: the store's change feed wakes it when a table or a session changes (the
process's :class:`.together.Housekeeper` sweeps stale sessions, dropped seats, computers' moves and
unfinished recordings, and what it changes comes through the feed too). Nothing changed, nothing
redrawn. A change re-reads the tables it names only and redraws their rows only, so its cost does not
grow with the number of tables (``bench/lobby_rows.py``). A table where you still hold a seat (you
left its screen without leaving it, or dropped out) is marked and named: Enter goes back, ``x`` leaves it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, OptionList, Static
from textual.widgets.option_list import Option

from ..domain.choices import pick
from ..domain.codes import WOM_RULESET, Ruleset
from ..domain.moves import Accept, Decline, Leave
from ..domain.presence import Presence, online_names
from ..domain.store.api import LiveChange
from ..domain.table import CLOSED, FINISHED, GUESS_CLOCKS, OPEN, TABLE_BRIEF, Refused, SeatHolder, SeatView, Table, TableView
from ..domain.users import MAX_NAME
from ..domain.variants import VARIANTS, Variant
from ..domain.wom import MAX_ATTEMPTS, MAX_PLAYERS, MIN_ATTEMPTS, MIN_PLAYERS
from ..domain.words import counted
from .together import LiveScreen, nudge_player, seated_by_hand
from ..patches.footer import Footer
from ..widgets.arena_countdown import ArenaCountdown
from ..widgets.row_list import RowList
from ..patches.select import Select
from ..widgets.choice import Tick

if TYPE_CHECKING:
    from .host import WomHost

PHASE_WORDS = {
    "open": "open", "making": "setting codes", "guessing": "playing", "finished": "finished", "closed": "closed",
}




@dataclass(frozen=True)
class LobbyState:
    """What the lobby shows: the sessions online and every table as a spectator sees it."""

    online: tuple[Presence, ...]
    tables: tuple[TableView, ...]
    mine: frozenset[str]
    """Tables not yet finished where this session's person holds a seat (not gone)."""
    problems: tuple[str, ...]
    invites: tuple[str, ...] = ()
    """Open tables this session's person is invited to (not yet answered), oldest first."""


def away_text(seat: SeatView, now: float) -> str:
    """`` (away, 1:20 left)``: a dropped person's seat grace counting down ("" if they are not away)."""
    if seat.away_until is None:
        return ""
    left = max(0, int(seat.away_until - now))
    return f" (away, {left // 60}:{left % 60:02d} left)"


def table_line(view: TableView, mine: bool, now: float | None = None) -> Text:
    """One table as a row of the lobby (names are data, never markup); with ``now``, a dropped person's
    seat grace counts down beside their name.
    """
    people = ", ".join((s.name if s.name is not None else "·") + (away_text(s, now) if now is not None else "")
                       for s in view.seats)
    free = len(view.free_seats)
    text = Text(end="", no_wrap=True, overflow="ellipsis")
    text.append(f"{view.creator}'s table", style="bold")
    text.append(f"  {PHASE_WORDS[view.phase]}")
    if view.phase == OPEN:
        text.append(f", {counted(free, 'free seat')}")
    text.append(f"  [{people}]  ")
    if view.variant is not Variant.CLASSIC:
        text.append(f"{view.variant.label}, ")
    text.append(f"{view.ruleset.title}, {counted(view.attempts, 'attempt')}", style="dim")
    if view.guess_clock is not None:
        text.append(f", {view.guess_clock:g} s a guess", style="dim")  # the clock, before anyone sits
    if mine and view.phase not in (FINISHED, CLOSED):
        text.append("  ← your seat", style="bold")
    return text


class LobbyScreen(LiveScreen):
    """Who is online and the tables; ``n`` opens a table, Enter goes to the highlighted one."""

    BINDINGS = [
        Binding("n", "new_table", "New table"),
        Binding("q", "app.quick_match", "Quick match"),
        Binding("i", "invite", "Invite"),
        Binding("a", "accept_invite", "Accept", show=False),
        Binding("d", "decline_invite", "Decline", show=False),
        Binding("enter", "open_table", "Go to table", show=True),
        Binding("x", "leave_seat", "Leave seat"),
        Binding("c", "app.arena", "Code Arena", show=False),
    ]
    AUTO_FOCUS = "#lobby-tables"

    def __init__(self) -> None:
        super().__init__(classes="lobby-screen")
        self.state: LobbyState | None = None
        self._changed: set[str] = set()
        """Tables the feed reported changed since the last read (the UI loop's)."""
        self._full = True
        """The next read reads every table (the first, after a reconnect, a rejoin, a missed change)."""
        self._reading: tuple[bool, frozenset[str]] = (True, frozenset())
        """What the read under way reads: everything, or these tables (handed over by before_load)."""
        self._known: dict[str, tuple[TableView, bool, bool]] = {}
        """Every table shown, as a spectator sees it, and whether this person holds a seat there
        (the reading thread's: one read at a time)."""
        self._read_as: SeatHolder | None = None
        self._rows: dict[str, tuple[TableView, bool, Text]] = {}
        """Each table's row as drawn, for the view and seat it was drawn from."""
        self._shown_ids: list[str] = []
        """The tables' ids in the order of the rows (empty: the "no tables" line)."""
        self._drawn: dict[str, Text] = {}
        """The line each row shows now."""

    def compose(self) -> ComposeResult:
        with Vertical(id="lobby-box", classes="panel"):
            yield Static(Text("Lobby: play together"), classes="panel-title")
            yield Static(Text("Online: …"), id="lobby-online")
            live = self.wom.store.live
            yield ArenaCountdown(live.arena, lambda: live.clock(), id="lobby-arena")
            if not self.wom.identity.served:
                with Horizontal(id="lobby-as-row"):
                    yield Static(Text("Play as "), id="lobby-as-label")
                    yield Select[str]([], prompt="Guest", id="lobby-as", allow_blank=True)
            yield Static(Text(""), id="lobby-message")
            yield RowList(id="lobby-tables")
            yield Static(Text("n: new table · Enter: go to the table · Esc: back"), id="lobby-hint")
        yield Footer()

    def on_mount(self) -> None:
        # (Textual calls LiveScreen.on_mount too, as it calls every class's handler: calling it here
        # as well subscribed twice to the change feed and read every change twice.)
        if not self.wom.identity.served:
            self.run_worker(self._fill_names(), group="names")

    async def _fill_names(self) -> None:
        from ..domain.store import StoreError

        try:
            users = await asyncio.to_thread(self.wom.store.scoreboard)
        except StoreError:
            return
        select = self.query_one("#lobby-as", Select)
        select.set_options([(user.name, user.name) for user in users])
        if self.together.local_name is not None:
            select.value = self.together.local_name

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id != "lobby-as":
            return
        event.stop()
        value = event.value
        name = value if isinstance(value, str) else None
        if name == self.together.local_name:
            return
        self.together.local_name = name
        self.wom.remember("play-as", {"name": name or ""})  # quick match plays as this name next time too
        self.run_worker(self._rejoin(), group="rejoin", exclusive=True)

    async def _rejoin(self) -> None:
        await asyncio.to_thread(self.together.join)
        self.poke()

    def wants(self, change: LiveChange) -> bool:
        """Tables and sessions coming and going (not the scores)."""
        return bool(change.tables) or change.presence

    def take_change(self, change: LiveChange) -> None:
        """Note which tables changed, so that the next read reads those only."""
        if not self.wants(change):
            return
        if change.presence and change.scores and not change.tables:
            self._full = True  # the feed reconnected or overflowed: anything may have changed
        elif not change.presence and self._rows_unchanged(change.tables):
            return  # moves at running tables: every lobby of the arcade hears them, none shows them
        self._changed |= change.tables
        super().poke()

    def _rows_unchanged(self, table_ids: frozenset[str]) -> bool:
        """True if each of these tables is at hand (pushed by the hub, or a local file) and its row, as the
        lobby would draw it, is the one drawn: nothing to read again or redraw.
        """
        live = self.wom.store.live
        if self.state is None or self._full or not table_ids or not all(live.at_hand(t) for t in table_ids):
            return False
        me = self.together.me()
        if me != self._read_as:
            return False
        for table_id in table_ids:
            known = self._known.get(table_id)  # (as the last read left it: a read under way reads this change too)
            table = live.table(table_id)
            if known is None or table is None or table.phase == CLOSED:
                return False
            if _row_key(*self._entry(table, me)) != _row_key(*known):
                return False
        return True

    def poke(self) -> None:
        """Re-read every table soon (a change the feed names re-reads only its tables)."""
        self._full = True
        super().poke()

    def before_load(self) -> None:
        self._reading = (self._full, frozenset(self._changed))
        self._full = False
        self._changed = set()

    # -- reading ----------------------------------------------------------------------------

    def load(self) -> LobbyState:
        live = self.wom.store.live
        full, changed = self._reading
        me = self.together.me()
        problems: list[str] = []
        if full or self.state is None or me != self._read_as:
            # the first look brings everything up to date once (a sweep)
            listing = live.sweep() if self.state is None else live.tables()
            self._known = {}
            for table in listing.tables:
                self._note(table, me)
            problems = [str(p) for p in listing.problems]
        else:
            from ..domain.store import StoreError

            for table_id in sorted(changed):
                try:
                    found = live.table(table_id)
                except StoreError as error:
                    self._known.pop(table_id, None)
                    problems.append(str(error))
                    continue
                if found is None:
                    self._known.pop(table_id, None)
                else:
                    self._note(found, me)
        self._read_as = me
        online = tuple(live.sessions())
        seen = self.together.results_seen  # a finished table leaves the lobby of those who saw its results
        views = tuple(entry[0] for table_id, entry in self._known.items()
                      if not (entry[0].phase == FINISHED and table_id in seen))
        mine = frozenset(table_id for table_id, entry in self._known.items() if entry[1])
        invites = tuple(table_id for table_id, entry in self._known.items() if entry[2])
        return LobbyState(online, views, mine, tuple(problems), invites)

    def _note(self, table: Table, me: SeatHolder | None) -> None:
        """Keep ``table`` as the lobby shows it (a closed one is not shown)."""
        if table.phase == CLOSED:
            self._known.pop(table.table_id, None)
            return
        self._known[table.table_id] = self._entry(table, me)

    @staticmethod
    def _entry(table: Table, me: SeatHolder | None) -> tuple[TableView, bool, bool]:
        """``table`` as the lobby keeps it: as a spectator sees it, whether ``me`` holds a seat, is invited."""
        holds = me is not None and table.phase != FINISHED and _holds(table, me)
        invited = me is not None and table.is_invited(me)
        return table.view_for(None), holds, invited

    _countdown: Any = None
    _counting = False

    _shown_me: str | None = None
    """The name the online line last said you play as (it can change after the state that listed you was read)."""

    def show(self, state: LobbyState) -> None:
        previous = self.state
        me = self.together.me()
        if previous is not None and _same(previous, state) and not state.problems and not self._counting \
                and (me.name if me is not None else None) == self._shown_me:
            self.state = state
            return  # nothing a person would see changed (a heartbeat): no redraw
        self.state = state
        self._shown_me = me.name if me is not None else None
        self._keep_countdown(state)
        back = _back(previous, state) if previous is not None else []
        self._show_online(state)
        tables = self.query_one("#lobby-tables", RowList)
        highlighted = tables.highlighted_option.id if tables.highlighted_option is not None else None
        order = sorted(state.tables, key=lambda v: (v.phase == FINISHED, v.table_id))
        now = self.wom.store.live.clock()
        ids = [v.table_id for v in order]
        self._show_rows(tables, order, state.mine, now)
        finished = {v.table_id for v in order if v.phase == FINISHED}
        was_finished = {v.table_id for v in previous.tables if v.phase == FINISHED} if previous else set()
        if highlighted in ids and not (highlighted in finished and highlighted not in was_finished):
            tables.highlighted = tables.get_option_index(highlighted)
        elif ids:
            tables.highlighted = 0  # (a table that just finished went to the bottom: not Enter's any more)
        fresh = [i for i in state.invites if previous is None or i not in previous.invites]
        if state.problems:
            self.say(state.problems[0], error=True)
        elif fresh:
            creator = next(v.creator for v in state.tables if v.table_id == fresh[0])
            reason = f"{creator} invites you to a table: a accepts, d declines."
            self.say(reason)
            nudge_player(self.wom, reason)
        elif state.mine and (previous is None or previous.mine != state.mine):
            # (Before "X is back": a seat of one's own is news for this player; a change that brings both, as
            # the server's hub may send them together, must not hide it.)
            first = next(i for i in ids if i in state.mine)
            tables.highlighted = tables.get_option_index(first)
            self.say(self._seat_message(first))
            self._seat_said = True
        elif back and not (state.mine and self._seat_said):
            # (Not over "You still have a seat": where to go back and how to leave matter more to this player
            # than who came back, whose row says so too.)
            self.say(f"{' and '.join(back)} {'is' if len(back) == 1 else 'are'} back.")
        elif not state.mine and self._seat_said:
            self.say("")
        if previous is None or bool(previous.mine) != bool(state.mine):
            self.refresh_bindings()

    def _show_online(self, state: LobbyState) -> None:
        """Who is online (each person once: SSH and a browser at once is one), within two lines."""
        people = online_names(state.online)
        me = self.together.me()
        you = f"   You: {me.name}" if me is not None else ""
        online = Text(f"Online ({len(people)}): {_names_within(people, self._online_room() - len(you))}", end="")
        if me is not None:
            online.append(you, style="bold")
        if online != self._online_drawn:  # (the same words: no layout, no repaint)
            self._online_drawn = online
            self.query_one("#lobby-online", Static).update(online)

    _online_drawn: Text | None = None

    def on_resize(self) -> None:
        """The online line is cut to the lobby's width: cut it again at the new one."""
        if self.state is not None:
            self.call_after_refresh(self._show_online, self.state)

    def _online_room(self) -> int:
        """Characters the names may take in :data:`ONLINE_LINES` lines of the lobby's width (less what a line
        wrapped before a long name leaves unused).
        """
        width = self.query_one("#lobby-online", Static).content_region.width or self.size.width or 80
        return max(20, width * ONLINE_LINES - len("Online (9999): ") - (ONLINE_LINES - 1) * (MAX_NAME + 2))

    def _seat_message(self, table_id: str) -> str:
        view = self._rows[table_id][0]
        how = "leave it" if view.phase != OPEN or view.creator != self._me_name() else "close it"
        return f"You still have a seat at {view.creator}'s table: Enter to go back, x to {how}."

    def _me_name(self) -> str | None:
        me = self.together.me()
        return None if me is None else me.name

    def _show_rows(self, tables: RowList, order: list[TableView], mine: frozenset[str], now: float) -> None:
        """Draw the tables in ``order``, redrawing only the rows that changed, came or went (and, each
        second, those where a dropped person's seat grace counts down).
        """
        rows = self._rows
        lines: list[tuple[str, Text]] = []
        for view in order:
            held = view.table_id in mine
            drawn = rows.get(view.table_id)
            counting = any(seat.away_until is not None for seat in view.seats)
            if counting or drawn is None or drawn[0] is not view and drawn[0] != view or drawn[1] != held:
                line = table_line(view, held, now)
                # A move at a running table changes its view but seldom its row: the row drawn is kept, and
                # not drawn again (every lobby of the arcade gets every move).
                drawn = (view, held, drawn[2] if drawn is not None and drawn[2] == line else line)
                rows[view.table_id] = drawn
            lines.append((view.table_id, drawn[2]))
        wanted = {table_id for table_id, _ in lines}
        for gone in [table_id for table_id in rows if table_id not in wanted]:
            del rows[gone]
        if not lines:
            if self._shown_ids or tables.option_count == 0:
                tables.set_options([Option(Text("No tables yet: press n to open one."), id="-none", disabled=True)])
            self._shown_ids = []
            return
        shown = self._shown_ids
        if not shown:
            tables.set_options([Option(line, id=table_id) for table_id, line in lines])
            self._shown_ids = [table_id for table_id, _ in lines]
            self._drawn = dict(lines)
            return
        # Rows whose table went, or moved (finished tables go to the end), are removed; the rest keep
        # their places, then the first place where the order differs is where rows are added again.
        place = {table_id: index for index, (table_id, _) in enumerate(lines)}
        kept: list[str] = []
        last = -1
        for table_id in shown:
            at = place.get(table_id)
            if at is None or at < last:
                continue
            kept.append(table_id)
            last = at
        keep = set(kept)
        for index in range(len(shown) - 1, -1, -1):
            if shown[index] not in keep:
                tables.remove_row(index)
        same = 0
        while same < len(kept) and kept[same] == lines[same][0]:
            same += 1
        for index in range(len(kept) - 1, same - 1, -1):
            tables.remove_row(index)
        before = self._drawn
        for index in range(same):
            table_id, line = lines[index]
            if before.get(table_id) is not line:
                tables.replace_row(index, line)
        if same < len(lines):
            tables.add_options([Option(line, id=table_id) for table_id, line in lines[same:]])
        self._shown_ids = [table_id for table_id, _ in lines]
        self._drawn = dict(lines)

    _seat_said = False

    def _keep_countdown(self, state: LobbyState) -> None:
        """Redraw every second while someone's seat grace counts down (no timer otherwise)."""
        away = any(seat.away_until is not None for view in state.tables for seat in view.seats)
        if away and self._countdown is None:
            self._countdown = self.set_interval(1.0, self._count_down)
        elif not away and self._countdown is not None:
            self._countdown.stop()
            self._countdown = None

    def _count_down(self) -> None:
        if self.state is not None:
            self._counting = True
            try:
                self.show(self.state)
            finally:
                self._counting = False

    def action_invite(self) -> None:
        """Invite someone online to a new two-seat table (it starts once they accept)."""
        me = self.together.me()
        online = sorted({p.name for p in (self.state.online if self.state else ()) if me is None or p.name != me.name})
        if not online:
            self.say("Nobody else is online to invite.", error=True)
            return

        def chosen(name: str | None) -> None:
            if name is not None:
                self.run_worker(self._invite(name), group="invite", exclusive=True)

        self.app.push_screen(InviteScreen(online), chosen)

    async def _invite(self, name: str) -> None:
        from ..domain.store import StoreError
        from .live_table import LiveTableScreen

        me = self.together.me()
        if me is None:
            return
        try:
            table = await asyncio.to_thread(self.wom.store.live.invite, me, name, seed=self.wom.rng.getrandbits(48),
                                            grace=self.wom.options.seat_grace,
                                            pace=_pace(self.wom.options.computer_pace))
        except Refused as refused:
            self.say(refused.reason, error=True)
            return
        except StoreError as error:
            self.say(str(error), error=True)
            return
        seated_by_hand(self.app)
        self.app.push_screen(LiveTableScreen(table.table_id))

    def _answer(self, accept: bool) -> None:
        me = self.together.me()
        invites = self.state.invites if self.state is not None else ()
        if me is None or not invites:
            self.say("Nobody has invited you.", error=True)
            return
        table_id = invites[0]
        live = self.wom.store.live

        async def answer() -> None:
            from ..domain.store import StoreError
            from .live_table import LiveTableScreen

            try:
                if accept:
                    await asyncio.to_thread(live.play, table_id, Accept(me))
                else:
                    await asyncio.to_thread(live.play, table_id, Decline(me))
            except (Refused, LookupError, StoreError) as error:
                self.say(getattr(error, "reason", str(error)), error=True)
                return
            if accept:
                seated_by_hand(self.app)
                self.app.push_screen(LiveTableScreen(table_id))
            else:
                self.say("Declined.")
                self.poke()

        self.run_worker(answer(), group="answer", exclusive=True)

    def action_accept_invite(self) -> None:
        """Accept the oldest invitation: sit at its table."""
        self._answer(True)

    def action_decline_invite(self) -> None:
        """Decline the oldest invitation."""
        self._answer(False)

    def say(self, message: str, *, error: bool = False) -> None:
        """A line above the tables (plain text)."""
        self._seat_said = False
        self.query_one("#lobby-message", Static).update(Text(message, style="bold red" if error else ""))

    # -- acting ------------------------------------------------------------------------------

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id and not event.option.id.startswith("-"):
            self._go_to(event.option.id)

    def action_open_table(self) -> None:
        """Go to the highlighted table: sit, play, resume or watch there."""
        tables = self.query_one("#lobby-tables", OptionList)
        option = tables.highlighted_option
        if option is not None and option.id and not option.id.startswith("-"):
            self._go_to(option.id)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``x`` is offered while this person holds a seat at a table."""
        if action == "leave_seat":
            return bool(self.state is not None and self.state.mine)
        return True

    def action_leave_seat(self) -> None:
        """Leave the seat held at the highlighted table (else the first): standing up or closing a table
        that has not started at once, giving up a game under way after asking.
        """
        state = self.state
        if state is None or not state.mine:
            return
        option = self.query_one("#lobby-tables", RowList).highlighted_option
        table_id = option.id if option is not None and option.id in state.mine else \
            next(i for i in self._shown_ids if i in state.mine)
        view = self._rows[table_id][0]
        if view.phase == OPEN:
            self._leave(table_id)
            return
        self.leave_detail = "Your code counts as not broken; the others play on."
        self.ask_to_leave(lambda: self._leave(table_id))

    def _leave(self, table_id: str) -> None:
        me = self.together.me()
        if me is None:
            return
        creator = self._rows[table_id][0].creator if table_id in self._rows else "the"

        async def leave() -> None:
            from ..domain.store import StoreError

            try:
                await asyncio.to_thread(self.wom.store.live.play, table_id, Leave(me))
            except Refused as refused:
                self.say(refused.reason, error=True)
                return
            except LookupError:
                pass  # the table is gone already
            except StoreError as error:
                self.say(str(error), error=True)
                return
            self.say(f"You left {creator}'s table.")
            self.poke()

        self.run_worker(leave(), group="leave", exclusive=True)

    def _go_to(self, table_id: str) -> None:
        from .live_table import LiveTableScreen

        self.app.push_screen(LiveTableScreen(table_id))

    def action_new_table(self) -> None:
        """Ask for the rules, then open a table with this session in seat 1."""

        def chosen(rules: tuple[int, int, Ruleset, float | None, Variant] | None) -> None:
            if rules is not None:
                self.run_worker(self._create(*rules), group="create", exclusive=True)

        self.app.push_screen(NewTableScreen(), chosen)

    async def _create(self, seats: int, attempts: int, ruleset: Ruleset, guess_clock: float | None = None,
                      variant: Variant = Variant.CLASSIC) -> None:
        from ..domain.store import StoreError
        from .live_table import LiveTableScreen

        together = self.together
        if together.presence is None:
            await asyncio.to_thread(together.join)
        me = together.me()
        assert me is not None
        live = self.wom.store.live
        try:
            table = await asyncio.to_thread(
                live.create_table, me, seats=seats, attempts=attempts, ruleset=ruleset,
                seed=self.wom.rng.getrandbits(48), grace=self.wom.options.seat_grace,
                pace=_pace(self.wom.options.computer_pace), guess_clock=guess_clock,
                origin=self.wom.options.client_address,
                per_address=self.wom.options.max_open_tables_per_address, variant=variant,
            )
        except Refused as refused:
            self.say(refused.reason, error=True)
            return
        except StoreError as error:
            self.say(str(error), error=True)
            return
        seated_by_hand(self.app)
        self.app.push_screen(LiveTableScreen(table.table_id))


ONLINE_LINES = 2
"""Lines the lobby's list of who is online takes at most: the tables below it keep their room with hundreds
online (the rest are counted, "… and 187 more")."""


def _names_within(people: list[str], room: int) -> str:
    """``people`` joined by commas within ``room`` characters, the others counted ("… and 187 more")."""
    if not people:
        return "nobody"
    shown: list[str] = []
    used = 0
    for number, name in enumerate(people):
        left = len(people) - number - 1
        more = f", … and {left} more" if left else ""
        cost = len(name) + (2 if shown else 0)
        if used + cost + len(more) > room and shown:
            return ", ".join(shown) + f", … and {len(people) - len(shown)} more"
        shown.append(name)
        used += cost
    return ", ".join(shown)


def _row_key(view: TableView, holds: bool, invited: bool) -> tuple[object, ...]:
    """All of a table the lobby shows or acts on (its row's words, its phase, its seats' comings and goings,
    the viewer's seat and invitation): two tables with the same key look the same in the lobby.
    """
    seats = tuple((seat.name, seat.away_until, seat.gone) for seat in view.seats)
    return table_line(view, holds), view.phase, seats, view.creator, holds, invited


def _same(before: LobbyState, after: LobbyState) -> bool:
    """True if the lobby would show the same (who is online, not when they last beat)."""
    def who(state: LobbyState) -> list[tuple[str, str, bool]]:
        return [(p.session, p.name, p.registered) for p in state.online]

    return who(before) == who(after) and before.tables == after.tables and before.mine == after.mine


def _back(before: LobbyState, after: LobbyState) -> list[str]:
    """The people who were away at a table and are back in their seat."""
    away = {(v.table_id, s.index): s.name for v in before.tables for s in v.seats if s.away_until is not None}
    return sorted({s.name for v in after.tables for s in v.seats
                   if (v.table_id, s.index) in away and s.away_until is None and not s.gone
                   and s.name == away[(v.table_id, s.index)] and s.name is not None})


def _pace(computer_pace: float) -> tuple[float, float]:
    """The computers' pace at a table: a human's few seconds, shortened when the app's pace is 0 (tests)."""
    if computer_pace <= 0:
        return (0.0, 0.0)
    return (2.0, 5.0)


def _holds(table: Table, me: object) -> bool:
    from ..domain.table import SeatHolder

    assert isinstance(me, SeatHolder)
    index = table.seat_of(me)
    return index is not None and not table.view_for(None).seats[index].gone


class InviteScreen(ModalScreen[str | None]):
    """Whom to invite: the names online (data, never markup); Enter invites, Esc cancels."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    AUTO_FOCUS = "#invite-names"

    def __init__(self, names: list[str]) -> None:
        super().__init__()
        self.names = names

    def compose(self) -> ComposeResult:
        with Vertical(id="invite-dialog", classes="panel"):
            yield Static(Text("Invite to a table"), classes="panel-title")
            yield OptionList(*(Option(Text(name), id=str(i)) for i, name in enumerate(self.names)), id="invite-names")
            yield Static(Text("Enter: invite · Esc: cancel"))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.names[int(event.option.id or 0)])

    def action_cancel(self) -> None:
        """Back to the lobby without inviting anyone."""
        self.dismiss(None)


class NewTableScreen(ModalScreen[tuple[int, int, Ruleset, float | None, Variant] | None]):
    """The rules of a new table: seats 2–4, attempts 5–10, the variant (docs/play.md, *Variants*), code length
    and repeats (the WoM setup's), and a clock per guess (off by default).
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    AUTO_FOCUS = "#new-create"
    FORM = "table"
    """Where this identity's last table rules are remembered (docs/play.md, *Remembered choices*)."""

    @property
    def wom(self) -> WomHost:
        """The app, typed as what a screen needs of it."""
        return cast("WomHost", self.app)

    def compose(self) -> ComposeResult:
        saved = self.wom.remembered(self.FORM)
        seats = pick(saved, "seats", range(MIN_PLAYERS, MAX_PLAYERS + 1), MIN_PLAYERS)
        attempts = pick(saved, "attempts", range(MIN_ATTEMPTS, MAX_ATTEMPTS + 1), MAX_ATTEMPTS)
        length = pick(saved, "length", range(4, 9), WOM_RULESET.length)
        repeats = pick(saved, "repeats", [True, False], WOM_RULESET.repeats)
        variant = pick(saved, "variant", [v.value for v in VARIANTS], Variant.CLASSIC.value)
        with Vertical(id="new-table-dialog", classes="panel"):
            yield Static(Text("Open a table"), classes="panel-title")
            with Horizontal(classes="nt-row"):
                yield Static(Text("Seats"), classes="nt-label")
                yield Select[int]([(str(n), n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)], value=seats,
                                  allow_blank=False, id="new-seats")
                # The variant shares the row (the dialog fits 60×20 as before; Quad plays 9 attempts and Liar
                # 12 whatever is chosen, docs/play.md, *Variants*).
                yield Select[str]([(f"{v.label} game", v.value) for v in VARIANTS], value=variant,
                                  allow_blank=False, id="new-variant")
            with Horizontal(classes="nt-row"):
                yield Static(Text("Attempts"), classes="nt-label")
                yield Select[int]([(str(n), n) for n in range(MIN_ATTEMPTS, MAX_ATTEMPTS + 1)], value=attempts,
                                  allow_blank=False, id="new-attempts")
            with Horizontal(classes="nt-row"):
                yield Static(Text("Code length"), classes="nt-label")
                yield Select[int]([(str(n), n) for n in range(4, 9)], value=length,
                                  allow_blank=False, id="new-length")
            with Horizontal(classes="nt-row", id="new-repeats-row"):
                yield Tick("Repeats", value=repeats, id="new-repeats")
                # A clock per guess shares the row (the dialog fits 60×20 as before).
                yield Select[float]([("No clock", 0.0), *((f"{c:g} s/guess", c) for c in GUESS_CLOCKS)], value=0.0,
                                    allow_blank=False, id="new-clock")
            yield Static(Text(""), id="new-problem")
            with Horizontal(id="new-buttons"):
                yield Button("Open table", id="new-create", variant="primary")
                yield Button("Cancel", id="new-cancel")

    def on_select_changed(self, event: Select.Changed) -> None:
        """A variant chosen: what it is, in one line (Quad and Liar set their own attempts)."""
        if event.select.id == "new-variant" and isinstance(event.value, str):
            self.query_one("#new-problem", Static).update(Text(TABLE_BRIEF[Variant.from_json(event.value)]))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "new-cancel":
            self.dismiss(None)
            return
        seats = self.query_one("#new-seats", Select).value
        attempts = self.query_one("#new-attempts", Select).value
        length = self.query_one("#new-length", Select).value
        repeats = self.query_one("#new-repeats", Checkbox).value
        try:
            ruleset = Ruleset(int(length), WOM_RULESET.palette, bool(repeats), int(attempts))  # type: ignore[arg-type]
        except ValueError as error:
            self.query_one("#new-problem", Static).update(Text(str(error)))
            return
        variant = Variant.from_json(self.query_one("#new-variant", Select).value)
        problem = variant.refusal(variant.ruleset(ruleset))
        if problem is not None:
            self.query_one("#new-problem", Static).update(Text(problem))
            return
        clock = self.query_one("#new-clock", Select).value
        self.wom.remember(self.FORM, {"seats": int(seats), "attempts": int(attempts),  # type: ignore[arg-type]
                                      "length": ruleset.length, "repeats": ruleset.repeats,
                                      "variant": variant.value})
        self.dismiss((int(seats), int(attempts), ruleset, float(clock) or None, variant))  # type: ignore[arg-type]

    def action_cancel(self) -> None:
        """Back to the lobby without a table."""
        self.dismiss(None)


__all__ = ["InviteScreen", "LobbyScreen", "LobbyState", "NewTableScreen", "away_text", "table_line"]
