"""Code Arena: the newest arena's countdown, its rules, your place and the live standings; join, pause, berserk;
paired, the table opens (back here when you leave it); the podium once it is over.

For players: docs/play.md, *Code Arena*. The rules are :mod:`wom_tui.domain.arena`'s and the arena is the store's
(``store.live``): on a server its hub pairs the players (docs/arcade.md, *Code Arena*); on a store this process
opens itself (one machine, no server) this screen runs the pairing step while it is open.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static

from ..domain.arena import OVER, PAIRING_INTERVAL, RUNNING, UPCOMING, Arena, ArenaRefused, Standing, podium, standings
from ..domain.store.api import LiveChange
from ..domain.table import SeatHolder
from ..patches.footer import Footer
from .together import LiveScreen, nudge_player

TICK = 1.0
"""Seconds between two looks at the clock (the countdown; a local store's pairing step)."""
SHOWN = 10
"""Standings lines shown (yours is added below when you are further down)."""
MEDALS = ("1st", "2nd", "3rd")


@dataclass(frozen=True)
class ArenaState:
    """What the screen shows: the newest arena (None: none yet) and the time it was read."""

    arena: Arena | None
    now: float


def standings_text(rows: list[Standing], me: str | None, *, live: bool) -> Text:
    """The standings as lines: rank, name, score, the sheet (×2: on fire, while the arena runs); ``me`` (an entrant
    key) in bold, shown below the first :data:`SHOWN` when further down. Names are data, never markup.
    """
    text = Text(end="")
    if not rows:
        text.append("Nobody has joined yet.", style="dim")
        return text
    shown = rows[:SHOWN]
    mine = next((row for row in rows if row.key == me), None)
    if mine is not None and mine not in shown:
        shown = [*shown, mine]
    for index, row in enumerate(shown):
        if index:
            text.append("\n")
        style = "bold" if row.key == me else ""
        sheet = " ".join(str(points) for points in row.sheet[-8:])
        text.append(f"{row.rank:>3}. ", style="dim")
        text.append(f"{row.name[:20]:<20}", style=style)
        text.append(f" {row.score:>4}", style=style or "")
        text.append(f"  {sheet}", style="dim")
        if live and row.fire:
            text.append(" ×2", style="bold")  # on fire: the next win counts double
        if row.playing:
            text.append(" playing", style="dim italic")
        elif row.paused:
            text.append(" paused", style="dim italic")
    return text


class ArenaScreen(LiveScreen):
    """The arena: ``j`` join (or come back), ``p`` pause, ``b`` berserk for the next game; Esc back."""

    BINDINGS = [
        Binding("j", "join", "Join"),
        Binding("p", "pause", "Pause"),
        Binding("b", "berserk", "Berserk"),
    ]

    pairing_interval = PAIRING_INTERVAL
    """Seconds between two pairings when this screen runs them (the rules'; tests shorten it)."""

    def __init__(self) -> None:
        super().__init__(classes="arena-screen")
        self.state: ArenaState | None = None
        self.opened: set[str] = set()
        """The arena tables this screen has taken the player to (each once)."""
        self._acting = asyncio.Lock()
        """Join, pause and berserk go to the store one at a time, in the order pressed (a burst j b joins, then
        chooses berserk)."""

    def compose(self) -> ComposeResult:
        with Vertical(id="arena-box", classes="panel"):
            yield Static(Text("Code Arena"), classes="panel-title")
            yield Static(Text("Reading the arena…"), id="arena-status")
            yield Static(Text(""), id="arena-you")
            yield Static(Text(""), id="arena-standings")
            yield Static(Text("j: join · p: pause · b: berserk (half the clock, +1 for a win) · Esc: back",
                              style="dim"), id="arena-hint")
        yield Footer()

    def on_mount(self) -> None:
        # (LiveScreen.on_mount runs too, as Textual calls every class's handler.)
        self.set_interval(TICK, self._tick)

    def on_unmount(self) -> None:
        """Leaving the arena (not for a table: that screen opens on top of this one) pauses the player, so that
        nobody is paired who is not there to see it (LiveScreen's own unmount runs too).
        """
        arena = self.state.arena if self.state is not None else None
        me = self._me()
        entrant = arena.entrant(me) if arena is not None and me is not None else None
        if entrant is None or entrant.paused or me is None:
            return
        import threading

        live = self.wom.store.live

        def pause() -> None:
            try:
                live.pause_arena(me)
            except Exception:  # noqa: BLE001  (a pairing step pauses a session that is gone anyway)
                pass

        threading.Thread(target=pause, name="wom-arena-pause", daemon=True).start()

    def wants(self, change: LiveChange) -> bool:
        """The arena (on the queue's feed) and tables (a game ending)."""
        return change.queue or bool(change.tables)

    def _tick(self) -> None:
        self._show()
        self.poke()

    # -- reading ----------------------------------------------------------------------------

    def load(self) -> ArenaState:
        live = self.wom.store.live
        pair = getattr(live, "arena_wave", None)  # a store of this process's own (a server's hub pairs instead)
        if pair is not None:
            pair(self.wom.rng.getrandbits(48), interval=self.pairing_interval, grace=self.wom.options.seat_grace)
        return ArenaState(live.arena(), live.clock())

    def show(self, state: ArenaState) -> None:
        self.state = state
        self._show()
        arena, me = state.arena, self._me()
        if arena is None or me is None:
            return
        entrant = arena.entrant(me)
        if entrant is not None and entrant.table_id is not None and entrant.table_id not in self.opened \
                and self.app.screen is self:
            self.opened.add(entrant.table_id)
            self._to_table(arena, entrant.table_id)

    def _me(self) -> SeatHolder | None:
        return self.together.me()

    def _show(self) -> None:
        if self.state is None or not self.is_mounted:
            return
        arena = self.state.arena
        now = self.wom.store.live.clock()
        status = self.query_one("#arena-status", Static)
        you = self.query_one("#arena-you", Static)
        board = self.query_one("#arena-standings", Static)
        if arena is None:
            status.update(Text("No arena yet. The operator starts one (wom-tui arena start)."))
            you.update(Text(""))
            board.update(Text(""))
            return
        phase = arena.phase(now)
        line = Text(arena.countdown(now), style="bold", end="")
        line.append(f" · {arena.rules.describe()} · {len(arena.games)} games", style="dim")
        status.update(line)
        me = self._me()
        key = None
        if me is not None:
            entrant = arena.entrant(me)
            key = entrant.key if entrant is not None else None
            you.update(self._you_line(arena, me, phase))
        rows = standings(arena)
        if phase == OVER:
            top = podium(arena)
            text = Text("Podium: ", style="bold", end="")
            text.append("  ".join(f"{MEDALS[i]} {row.name} ({row.score})" for i, row in enumerate(top)) or "nobody played")
            text.append("\n\n")
            text.append_text(standings_text(rows, key, live=False))
            board.update(text)
        else:
            board.update(standings_text(rows, key, live=phase == RUNNING))

    def _you_line(self, arena: Arena, me: SeatHolder, phase: str) -> Text:
        entrant = arena.entrant(me)
        text = Text("You: ", style="dim", end="")
        text.append(me.name, style="bold")
        if not me.registered:
            text.append(" (a guest: not rated)", style="dim")
        text.append(" · ")
        if entrant is None:
            text.append("j to join" if phase != OVER else "this arena is over")
        elif entrant.table_id is not None:
            text.append("playing a game")
        elif entrant.paused:
            text.append("paused: j to play again")
        elif phase == UPCOMING:
            text.append("joined: paired as soon as it starts")
        elif phase == RUNNING:
            waited = int(max(0.0, (self.state.now if self.state else 0.0) - (entrant.waiting_since or 0.0)))
            text.append(f"waiting for an opponent ({waited} s)")
        if entrant is not None and entrant.berserk:
            text.append(" · berserk next game", style="bold red")
        return text

    def _to_table(self, arena: Arena, table_id: str) -> None:
        from .live_table import LiveTableScreen

        game = arena.game(table_id)
        me = self._me()
        other = next((name for name in (game.names if game else ()) if me is None or name != me.name), "someone")
        nudge_player(self.wom, f"Code Arena: you play {other}. Set your code!")
        self.app.push_screen(LiveTableScreen(table_id))

    # -- acting ------------------------------------------------------------------------------

    def _act(self, what: str, *args: object) -> None:
        me = self._me()
        if me is None:
            return
        live = self.wom.store.live

        async def act() -> None:
            async with self._acting:
                try:
                    await asyncio.to_thread(getattr(live, what), me, *args)
                except ArenaRefused as refused:
                    self.notify(refused.reason, severity="warning", markup=False)
            self.poke()

        self.run_worker(act(), group="arena-act")

    def action_join(self) -> None:
        """Join the arena, or come back from a pause."""
        self._act("join_arena")

    def action_pause(self) -> None:
        """Stop being paired (the score stays)."""
        self._act("pause_arena")

    def action_berserk(self) -> None:
        """Play the next game on half the clock (or not any more)."""
        arena = self.state.arena if self.state else None
        me = self._me()
        entrant = arena.entrant(me) if arena is not None and me is not None else None
        self._act("arena_berserk", not (entrant is not None and entrant.berserk))


__all__ = ["ArenaScreen", "ArenaState", "standings_text"]
