"""Set up a World of Mastermind game: 2–4 players, attempts 5–10, and the rules folded away (docs/play.md).

Each seat is a drop-down (``Choice``) of the registered users plus HAL9000 and VIKI, so no name can be mistyped;
choosing someone already seated swaps the two seats, so nobody plays twice. The domain still checks
the final list (``players_from_names``) and its reason is shown if anything slips through.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, VerticalScroll
from textual.content import Content
from textual.widgets import Button, Checkbox, Collapsible, Label, RadioSet, Static

from ..domain.choices import pick
from ..domain.codes import PALETTES, WOM_RULESET, Ruleset
from ..domain.users import COMPUTER_NAMES
from ..domain.wom import GUEST_SEATS, MAX_ATTEMPTS, MAX_PLAYERS, MIN_ATTEMPTS, MIN_PLAYERS, SetupError
from .base import WomScreen
from .wom_game import WomGameScreen, WomSetup
from .wom_results import WomResultsScreen, start_game
from ..patches.footer import Footer
from ..widgets.choice import Choice, Radio, Tick

if TYPE_CHECKING:
    from ..domain.store import StoreError

__all__ = ["WomGameScreen", "WomResultsScreen", "WomSetup", "WomSetupScreen"]

LENGTHS = range(4, 9)
"""Code lengths offered under the advanced rules."""

COMPUTER_LABELS = {"HAL9000": "HAL9000 · computer", "VIKI": "VIKI · computer"}
DEFAULT_ATTEMPTS = 10


class WomSetupScreen(WomScreen):
    """How many players, who they are, how many attempts — then start."""

    BINDINGS = [Binding("ctrl+s", "start", "Start game")]
    AUTO_FOCUS = "#setup-count"
    """Focus starts on the number of players: an Enter typed early changes nothing (it used to start)."""
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (78, "-wide")]
    """Below 78 columns the seats stack in one column and the advanced rules in two."""

    def __init__(self, setup: WomSetup | None = None) -> None:
        super().__init__(classes="wom-screen")
        self._initial = setup
        self._people: list[str] = []
        self._seats: list[str | None] = [None] * MAX_PLAYERS
        self._count = MIN_PLAYERS
        self._rules_problem: str | None = None
        self._store_error: StoreError | None = None
        self._registered: list[str] = []

    # -- layout -----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        # A store failure is shown once the screen is mounted (on_mount), not while it is being built.
        users = self.wom.with_store(self.wom.store.scoreboard, on_error=self._keep_store_error)
        self._registered = [user.name for user in users or ()]
        # Over SSH you seat only yourself (and the computers): Identity.seatable decides.
        self._people = self.wom.identity.seatable(self._registered) if users is not None else []
        self._choose_defaults()
        with VerticalScroll(id="setup-box", classes="panel") as box:
            # The box scrolls only on short terminals; focus belongs to the fields in it.
            box.can_focus = False
            yield Static(Text("Play World of Mastermind"), classes="panel-title")
            with Horizontal(classes="setup-row"):
                yield Label("Players", classes="setup-label")
                with RadioSet(id="setup-count", classes="setup-choice"):
                    for count in range(MIN_PLAYERS, MAX_PLAYERS + 1):
                        yield Radio(str(count), value=count == self._count, name=str(count))
            with Grid(id="setup-seats"):
                for seat in range(MAX_PLAYERS):
                    with Horizontal(classes="setup-seat", id=f"seat-{seat + 1}"):
                        yield Label(f"Player {seat + 1}", classes="setup-label")
                        yield Choice(
                            self._options(),
                            prompt="Choose a player",
                            allow_blank=True,
                            value=self._seats[seat],
                            id=f"seat-select-{seat + 1}",
                            classes="setup-seat-select",
                        )
            with Horizontal(classes="setup-row"):
                yield Label("Attempts", classes="setup-label")
                with RadioSet(id="setup-attempts", classes="setup-choice"):
                    for attempts in range(MIN_ATTEMPTS, MAX_ATTEMPTS + 1):
                        yield Radio(
                            str(attempts), value=attempts == self._attempts, name=str(attempts)
                        )
            with Collapsible(title=self._advanced_title(), id="setup-advanced"):
                with Horizontal(id="setup-rules"):
                    yield Label("Length", classes="setup-label-short")
                    yield Choice([(Text(str(n)), n) for n in LENGTHS], value=self._ruleset.length, id="setup-length")
                    yield Label("Palette", classes="setup-label-short")
                    yield Choice(
                        [(Text(p.title), key) for key, p in PALETTES.items()],
                        value=self._ruleset.palette.key,
                        id="setup-palette",
                    )
                    yield Tick("Repeats", value=self._ruleset.repeats, id="setup-repeats", compact=True)
            yield Static(self._hint(), id="setup-hint")
            yield Static("", id="setup-error")
            with Horizontal(id="setup-buttons"):
                yield Button("Start game", id="setup-start", variant="primary", compact=True)
                yield Button("Back", id="setup-back", compact=True)
        yield Footer()

    def _choose_defaults(self) -> None:
        initial = self._initial
        if initial is not None:
            self._count = len(initial.names)
            self._seats = [*initial.names, *([None] * (MAX_PLAYERS - len(initial.names)))]
            self._attempts = initial.attempts
            self._ruleset = initial.ruleset
            return
        first = self._people[0] if self._people else "HAL9000"
        second = "HAL9000" if self._people else "VIKI"
        self._seats = [first, second, None, None]
        self._attempts = DEFAULT_ATTEMPTS
        self._ruleset = WOM_RULESET
        self._restore_last()

    FORM = "wom"
    """Where this identity's last choices here are remembered (docs/play.md, *Remembered choices*)."""

    def _restore_last(self) -> None:
        """Open on this identity's last players, attempts and rules, keeping only what is still offered."""
        saved = self.wom.remembered(self.FORM)
        if not saved:
            return
        count = pick(saved, "players", range(MIN_PLAYERS, MAX_PLAYERS + 1), self._count)
        offered = self._all_choices()
        seats: list[str | None] = []
        for seat in range(MAX_PLAYERS):
            name = pick(saved, f"seat{seat + 1}", offered, None) if seat < count else None
            seats.append(None if name in seats else name)
        if all(seats[:count]):  # a seat whose player is gone leaves the defaults (a full table) as they were
            self._count, self._seats = count, seats
        self._attempts = pick(saved, "attempts", range(MIN_ATTEMPTS, MAX_ATTEMPTS + 1), self._attempts)
        try:
            self._ruleset = Ruleset(pick(saved, "length", LENGTHS, WOM_RULESET.length),
                                    PALETTES[pick(saved, "palette", list(PALETTES), WOM_RULESET.palette.key)],
                                    pick(saved, "repeats", [True, False], WOM_RULESET.repeats))
        except ValueError:
            self._ruleset = WOM_RULESET  # rules that no longer go together

    def _remember(self, setup: WomSetup) -> None:
        seats = {f"seat{seat + 1}": name for seat, name in enumerate(setup.names)}
        self.wom.remember(self.FORM, {
            "players": len(setup.names), **seats, "attempts": setup.attempts,
            "length": setup.ruleset.length, "palette": setup.ruleset.palette.key, "repeats": setup.ruleset.repeats,
        })

    def _all_choices(self) -> list[str]:
        # Over SSH a friend at your keyboard takes a guest seat: they play, and earn nothing.
        identity = self.wom.identity
        guests = [seat for seat in GUEST_SEATS if identity.served and identity.may_seat(seat, self._registered)]
        return [*self._people, *COMPUTER_NAMES, *guests]

    def _options(self) -> list[tuple[Text, str]]:
        labels = {**COMPUTER_LABELS, **{seat: f"{seat} · no points" for seat in GUEST_SEATS}}
        return [(Text(labels.get(name, name)), name) for name in self._all_choices()]

    def _advanced_title(self) -> str:
        return f"Advanced rules: {self._ruleset.title}"

    def _hint(self) -> Content:
        identity = self.wom.identity
        if identity.served and not self._people:
            return Content(
                "Over SSH you play as yourself: register in the main menu (r) with your SSH key to play "
                "and earn points. Meanwhile, HAL9000 and VIKI can play each other while you watch."
                if not identity.is_guest
                else "Guests watch HAL9000 and VIKI play each other here; sign in (/signin) to play as yourself, "
                "or play a quick match or at a lobby's table as a guest."
                if self.wom.options.transport == "web"
                else "Guests watch HAL9000 and VIKI play each other here; connect with an SSH key to register and "
                "play, or play a quick match or at a lobby's table as a guest."
            )
        if identity.served:
            return Content("You play as yourself, against HAL9000 and VIKI. Only people earn points.")
        if not self._people:
            return Content(
                "No one is registered yet: register in the main menu (r) to play and earn points. "
                "Meanwhile, HAL9000 and VIKI can play each other."
            )
        return Content("Each player sets the code the next one breaks. Only people earn points.")

    def on_mount(self) -> None:
        """Show only the seats in play."""
        if self not in self.app.screen_stack:
            return  # left before it was built (keys typed ahead): its widgets are going away
        self._show_seats()
        if self._store_error is not None:
            self.wom.show_store_error(self._store_error)

    # -- choices ----------------------------------------------------------------------------

    def _show_seats(self) -> None:
        for seat in range(MAX_PLAYERS):
            self.query_one(f"#seat-{seat + 1}").display = seat < self._count

    def _show_choice(self, seat: int) -> None:
        choice = self.query_one(f"#seat-select-{seat + 1}", Choice)
        with self.prevent(Choice.Changed):
            choice.value = self._seats[seat]

    def on_radio_set_changed(self, event: RadioSet.Changed) -> None:
        """Players or attempts chosen."""
        event.stop()
        value = int(event.pressed.name or 0)
        if event.radio_set.id == "setup-count":
            self._set_count(value)
        elif event.radio_set.id == "setup-attempts":
            self._attempts = value
        self._say(None)

    def _set_count(self, count: int) -> None:
        for seat in range(count, MAX_PLAYERS):
            self._seats[seat] = None
        for seat in range(self._count, count):
            # A new seat starts with the first player nobody has taken yet.
            taken = set(self._seats[:count])
            free = [name for name in self._all_choices() if name not in taken]
            self._seats[seat] = free[0] if free else None
        self._count = count
        self._show_seats()
        for seat in range(MAX_PLAYERS):
            self._show_choice(seat)

    def on_choice_changed(self, event: Choice.Changed) -> None:
        """A seat, the code length or the palette chosen."""
        event.stop()
        choice_id = event.choice.id or ""
        if choice_id.startswith("seat-select-"):
            seat = int(choice_id.rsplit("-", 1)[1]) - 1
            self._seat_chosen(seat, None if event.value is None else str(event.value))
        elif choice_id in ("setup-length", "setup-palette"):
            self._rules_changed()

    def _seat_chosen(self, seat: int, name: str | None) -> None:
        """Seat ``name``; if they already sit elsewhere, the two seats swap, so nobody plays twice."""
        previous = self._seats[seat]
        if previous == name:
            return
        self._seats[seat] = name
        for other in range(self._count):
            if other != seat and name is not None and self._seats[other] == name:
                self._seats[other] = previous
                self._show_choice(other)
                moved = previous or "nobody"
                self._say(f"{name} moved to player {seat + 1}; player {other + 1} is now {moved}.", kind="-info")
                return
        self._say(None)

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        """Repeats switched on or off."""
        event.stop()
        self._rules_changed()

    def _rules_changed(self) -> None:
        length = self.query_one("#setup-length", Choice).value
        palette = self.query_one("#setup-palette", Choice).value
        repeats = self.query_one("#setup-repeats", Checkbox).value
        try:
            ruleset = Ruleset(int(length), PALETTES[str(palette)], repeats)  # type: ignore[arg-type]
        except ValueError as error:
            reason = str(error)
            self._rules_problem = reason[:1].upper() + reason[1:] + "."
            self._say(self._rules_problem)
            return
        self._rules_problem = None
        self._ruleset = ruleset
        self.query_one(Collapsible).title = self._advanced_title()
        self._say(None)

    def _say(self, reason: str | None, *, kind: str = "-error") -> None:
        error = self.query_one("#setup-error", Static)
        error.update(Content(reason) if reason else "")
        error.set_class(bool(reason) and kind == "-error", "-error")
        error.set_class(bool(reason) and kind == "-info", "-info")

    # -- starting ---------------------------------------------------------------------------

    def current_setup(self) -> WomSetup | None:
        """The setup as chosen, or None (with the reason shown) when a seat is empty or the rules clash."""
        names: list[str] = []
        for seat in range(self._count):
            name = self._seats[seat]
            if not name:
                self._say(f"Choose a player for seat {seat + 1}.")
                return None
            names.append(name)
        if self._rules_problem is not None:
            self._say(self._rules_problem)
            return None
        return WomSetup(tuple(names), self._attempts, self._ruleset, self.wom.hal_within_five)

    def _keep_store_error(self, error: StoreError) -> None:
        self._store_error = error

    def action_start(self) -> None:
        """Start the game with the chosen players, attempts and rules."""
        setup = self.current_setup()
        if setup is None:
            return
        refused = [name for name in setup.names if not self.wom.identity.may_seat(name, self._registered)]
        if refused:
            self._say(f"You cannot seat {refused[0]}: over SSH you play only as yourself.")
            return
        try:
            screen = self.wom.with_store(lambda: start_game(self.wom, setup))
        except SetupError as refusal:
            self._say(refusal.reason)
            return
        if screen is not None:
            self._remember(setup)
            self.app.push_screen(screen)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Start or Back."""
        event.stop()
        if event.button.id == "setup-start":
            self.action_start()
        elif event.button.id == "setup-back":
            self.action_back()
