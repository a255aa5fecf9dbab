"""The lobby: who is online, the open and running tables of this data folder; make or join a table.

It updates by itself: the store's change feed wakes it when a table or a session changes (the
process's :class:`.together.Housekeeper` sweeps stale sessions, dropped seats, computers' moves and
unfinished recordings, and what it changes comes through the feed too). Nothing changed, nothing
redrawn. A table where you still hold a seat (you dropped out) is marked so you can go back to it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, OptionList, Static
from textual.widgets.option_list import Option

from ..domain.choices import pick
from ..domain.codes import WOM_RULESET, Ruleset
from ..domain.presence import Presence
from ..domain.store.api import LiveChange
from ..domain.table import CLOSED, FINISHED, OPEN, Refused, Table, TableView
from ..domain.wom import MAX_ATTEMPTS, MAX_PLAYERS, MIN_ATTEMPTS, MIN_PLAYERS
from .together import LiveScreen
from ..patches.footer import Footer
from ..patches.select import Select

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


def table_line(view: TableView, mine: bool) -> Text:
    """One table as a row of the lobby (names are data, never markup)."""
    people = ", ".join(s.name if s.name is not None else "·" for s in view.seats)
    free = len(view.free_seats)
    text = Text(end="", no_wrap=True, overflow="ellipsis")
    text.append(f"{view.creator}'s table", style="bold")
    text.append(f"  {PHASE_WORDS[view.phase]}")
    if view.phase == OPEN:
        text.append(f", {free} free seat{'s' if free != 1 else ''}")
    text.append(f"  [{people}]  ")
    text.append(f"{view.ruleset.length} pegs, {'repeats' if view.ruleset.repeats else 'no repeats'}, "
                f"{view.attempts} attempts", style="dim")
    if mine and view.phase not in (FINISHED, CLOSED):
        text.append("  ← your seat", style="bold")
    return text


class LobbyScreen(LiveScreen):
    """Who is online and the tables; ``n`` opens a table, Enter goes to the highlighted one."""

    BINDINGS = [
        Binding("n", "new_table", "New table"),
        Binding("enter", "open_table", "Go to table", show=True),
    ]
    AUTO_FOCUS = "#lobby-tables"

    def __init__(self) -> None:
        super().__init__(classes="lobby-screen")
        self.state: LobbyState | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="lobby-box", classes="panel"):
            yield Static(Text("Lobby: play together"), classes="panel-title")
            yield Static(Text("Online: …"), id="lobby-online")
            if not self.wom.identity.served:
                with Horizontal(id="lobby-as-row"):
                    yield Static(Text("Play as "), id="lobby-as-label")
                    yield Select[str]([], prompt="Guest", id="lobby-as", allow_blank=True)
            yield Static(Text(""), id="lobby-message")
            yield OptionList(id="lobby-tables")
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
        self.run_worker(self._rejoin(), group="rejoin", exclusive=True)

    async def _rejoin(self) -> None:
        await asyncio.to_thread(self.together.join)
        self.poke()

    def wants(self, change: LiveChange) -> bool:
        """Tables and sessions coming and going (not the scores)."""
        return bool(change.tables) or change.presence

    # -- reading ----------------------------------------------------------------------------

    def load(self) -> LobbyState:
        live = self.wom.store.live
        if self.state is None:
            listing = live.sweep()  # the first look: bring everything up to date once
        else:
            listing = live.tables()
        online = tuple(live.sessions())
        me = self.together.me()
        mine = set()
        views = []
        for table in listing.tables:
            if table.phase == CLOSED:
                continue
            views.append(table.view_for(None))
            if me is not None and table.phase != FINISHED and _holds(table, me):
                mine.add(table.table_id)
        return LobbyState(online, tuple(views), frozenset(mine), tuple(str(p) for p in listing.problems))

    def show(self, state: LobbyState) -> None:
        previous = self.state
        if previous is not None and _same(previous, state) and not state.problems:
            self.state = state
            return  # nothing a person would see changed (a heartbeat): no redraw
        self.state = state
        names = ", ".join(p.name for p in state.online) or "nobody"
        me = self.together.me()
        online = Text(f"Online ({len(state.online)}): {names}", end="")
        if me is not None:
            online.append(f"   You: {me.name}", style="bold")
        self.query_one("#lobby-online", Static).update(online)
        tables = self.query_one("#lobby-tables", OptionList)
        highlighted = tables.highlighted_option.id if tables.highlighted_option is not None else None
        order = sorted(state.tables, key=lambda v: (v.phase == FINISHED, v.table_id))
        options = [Option(table_line(v, v.table_id in state.mine), id=v.table_id) for v in order]
        tables.set_options(options)
        if not options:
            tables.set_options([Option(Text("No tables yet: press n to open one."), id="-none", disabled=True)])
        ids = [v.table_id for v in order]
        if highlighted in ids:
            tables.highlighted = ids.index(highlighted)
        elif ids:
            tables.highlighted = 0
        if state.problems:
            self.say(state.problems[0], error=True)
        elif state.mine and (previous is None or previous.mine != state.mine):
            ids_mine = [i for i in ids if i in state.mine]
            tables.highlighted = ids.index(ids_mine[0])
            self.say("You still have a seat at a table: press Enter to go back to it.")

    def say(self, message: str, *, error: bool = False) -> None:
        """A line above the tables (plain text)."""
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

    def _go_to(self, table_id: str) -> None:
        from .live_table import LiveTableScreen

        self.app.push_screen(LiveTableScreen(table_id))

    def action_new_table(self) -> None:
        """Ask for the rules, then open a table with this session in seat 1."""

        def chosen(rules: tuple[int, int, Ruleset] | None) -> None:
            if rules is not None:
                self.run_worker(self._create(*rules), group="create", exclusive=True)

        self.app.push_screen(NewTableScreen(), chosen)

    async def _create(self, seats: int, attempts: int, ruleset: Ruleset) -> None:
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
                pace=_pace(self.wom.options.computer_pace),
            )
        except Refused as refused:
            self.say(refused.reason, error=True)
            return
        except StoreError as error:
            self.say(str(error), error=True)
            return
        self.app.push_screen(LiveTableScreen(table.table_id))


def _same(before: LobbyState, after: LobbyState) -> bool:
    """True if the lobby would show the same (who is online, not when they last beat)."""
    def who(state: LobbyState) -> list[tuple[str, str, bool]]:
        return [(p.session, p.name, p.registered) for p in state.online]

    return who(before) == who(after) and before.tables == after.tables and before.mine == after.mine


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


class NewTableScreen(ModalScreen[tuple[int, int, Ruleset] | None]):
    """The rules of a new table: seats 2–4, attempts 5–10, code length and repeats (the WoM setup's)."""

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
        with Vertical(id="new-table-dialog", classes="panel"):
            yield Static(Text("Open a table"), classes="panel-title")
            with Horizontal(classes="nt-row"):
                yield Static(Text("Seats"), classes="nt-label")
                yield Select[int]([(str(n), n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)], value=seats,
                                  allow_blank=False, id="new-seats")
            with Horizontal(classes="nt-row"):
                yield Static(Text("Attempts"), classes="nt-label")
                yield Select[int]([(str(n), n) for n in range(MIN_ATTEMPTS, MAX_ATTEMPTS + 1)], value=attempts,
                                  allow_blank=False, id="new-attempts")
            with Horizontal(classes="nt-row"):
                yield Static(Text("Code length"), classes="nt-label")
                yield Select[int]([(str(n), n) for n in range(4, 9)], value=length,
                                  allow_blank=False, id="new-length")
            yield Checkbox("Colours may repeat", value=repeats, id="new-repeats")
            yield Static(Text(""), id="new-problem")
            with Horizontal(id="new-buttons"):
                yield Button("Open table", id="new-create", variant="primary")
                yield Button("Cancel", id="new-cancel")

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
        self.wom.remember(self.FORM, {"seats": int(seats), "attempts": int(attempts),  # type: ignore[arg-type]
                                      "length": ruleset.length, "repeats": ruleset.repeats})
        self.dismiss((int(seats), int(attempts), ruleset))  # type: ignore[arg-type]

    def action_cancel(self) -> None:
        """Back to the lobby without a table."""
        self.dismiss(None)


__all__ = ["LobbyScreen", "LobbyState", "NewTableScreen", "table_line"]
