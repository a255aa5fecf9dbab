"""Solo setup: who plays, which way round, and the rules (docs/play.md, *Solo: break the computer's code*).

The main menu opens :class:`SoloSetupScreen` by name. Play pushes the solo game
(:class:`~wom_tui.screens.solo_game.SoloGameScreen`) or "computer breaks your code"
(:class:`~wom_tui.screens.computer_breaks.ComputerBreaksScreen`); both come back here with Esc.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, RadioSet, Static

from ..domain.choices import pick, pick_index
from ..domain.codes import DIGITS8, DIGITS10, MAX_GUESSES, MIN_GUESSES, PALETTES, RAINBOW, WOM, Palette
from ..domain.solo import MAX_SOLO_LENGTH, MIN_SOLO_LENGTH, LifelinePolicy, SoloGame, SoloSetup
from ..domain.variant_game import VariantGame
from ..domain.variants import VARIANTS, Variant
from ..domain.wom import SetupError
from ..domain.words import counted
from ..patches.footer import Footer
from ..widgets.pegs import code_pegs
from ..widgets.choice import Choice, Radio
from ..widgets.player_select import PlayerChoice
from .base import WomScreen
from .solo_choice import SoloChoice

PALETTE_CHOICES: tuple[Palette, ...] = (DIGITS10, DIGITS8, RAINBOW, WOM)
"""The palettes offered, each shown by its one name (the default first)."""

LENGTHS: tuple[int | None, ...] = (*range(MIN_SOLO_LENGTH, MAX_SOLO_LENGTH + 1), None)
"""Code lengths offered; ``None`` is "Random"."""

POLICIES = (LifelinePolicy.NONE, LifelinePolicy.ONE_PER_GAME, LifelinePolicy.EACH_ONCE)


def _radio_set(set_id: str, labels: list[str], selected: int) -> RadioSet:
    buttons = [
        Radio(Text(label), value=index == selected, id=f"{set_id}-{index}", compact=True)
        for index, label in enumerate(labels)
    ]
    return RadioSet(*buttons, id=set_id, compact=True, classes="solo-choice")


def _pressed(radio_set: RadioSet) -> int:
    return max(radio_set.pressed_index, 0)


class SoloSetupScreen(WomScreen):
    """Choose the player, the mode and the rules, then play (p or the Play button)."""

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("p", "play", "Play"),
        Binding("r", "resume", "Resume"),
    ]
    AUTO_FOCUS = "#solo-mode"
    """Focus starts on the mode (the player is already chosen), or on "Resume your game" when there is one
    (:meth:`on_mount`)."""
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (80, "-wide")]
    """Under 80 columns the longer choices are listed one per line (the form scrolls)."""

    def __init__(self) -> None:
        super().__init__()
        self._refusal: str | None = None
        self.kept: SoloGame | VariantGame | None = None
        """This identity's solo game in progress, kept to resume (offered as the first choice)."""

    FORM = "solo"
    """Where this identity's last choices here are remembered (docs/play.md, *Remembered choices*)."""

    def _last(self) -> dict[str, int]:
        """The radio indices and guesses this identity chose last (defaults for anything not offered now)."""
        saved = self.wom.remembered(self.FORM)
        return {
            "mode": pick_index(saved, "mode", ["break", "computer"], 0),
            "length": pick_index(saved, "length", LENGTHS, 0),
            "palette": pick_index(saved, "palette", [palette.key for palette in PALETTE_CHOICES], 0),
            "repeats": pick_index(saved, "repeats", [True, False], 0),
            "guesses": pick(saved, "guesses", range(MIN_GUESSES, MAX_GUESSES + 1), 10),
            "lifelines": pick_index(saved, "lifelines", [policy.value for policy in POLICIES], 1),
            "coach": pick_index(saved, "coach", [False, True], 0),
            "scoring": pick_index(saved, "scoring", ["typed", "by_hand"], 0),
            "variant": pick_index(saved, "variant", [variant.value for variant in VARIANTS], 0),
        }

    def _remember(self, choice: SoloChoice) -> None:
        setup = choice.setup
        self.wom.remember(self.FORM, {
            "mode": "computer" if choice.computer_breaks else "break",
            "length": setup.length, "palette": setup.palette.key, "repeats": setup.repeats,
            "guesses": setup.guesses, "lifelines": setup.lifelines.value, "coach": choice.coach,
            "scoring": "by_hand" if _pressed(self.query_one("#solo-scoring", RadioSet)) == 1 else "typed",
            "variant": choice.variant.value,
        })

    def compose(self) -> ComposeResult:
        users = self._user_names()
        last = self._last()
        with VerticalScroll(id="solo-setup", classes="panel") as form:
            # The form scrolls only on short terminals; focus belongs to the fields in it (focusable,
            # it took the focus first and was styled whole again on the way in and out).
            form.can_focus = False
            yield Static(Text("Solo game"), classes="panel-title")
            yield Static(
                Text("Tab: next row · ←/→ then Space or Enter: choose · p: play · Esc: back"), id="solo-keys"
            )
            self.kept = self._kept_game()
            with Horizontal(classes="solo-row", id="solo-resume-row") as resume_row:
                resume_row.display = self.kept is not None
                yield Static("Unfinished", classes="solo-label")
                yield Button(self._resume_label(), id="solo-resume", compact=True, variant="primary")
            with Horizontal(classes="solo-row"):
                yield Static("Player", classes="solo-label")
                # A signed-in player plays as themselves unless they choose Guest.
                yield PlayerChoice(users, self.wom.identity.name, id="solo-player")
            with Horizontal(classes="solo-row"):
                yield Static("Mode", classes="solo-label")
                yield _radio_set("solo-mode", ["You break the code", "Computer breaks your code"], last["mode"])
            with Horizontal(classes="solo-row -gap"):
                yield Static("Length", classes="solo-label")
                yield _radio_set("solo-length", [str(n) if n else "Random" for n in LENGTHS], last["length"])
            with Horizontal(classes="solo-row"):
                yield Static("Palette", classes="solo-label")
                yield _radio_set("solo-palette", [palette.title for palette in PALETTE_CHOICES], last["palette"])
            with Horizontal(classes="solo-row"):
                yield Static("Repeats", classes="solo-label")
                yield _radio_set("solo-repeats", ["Yes", "No"], last["repeats"])
            with Horizontal(classes="solo-row"):
                yield Static("Guesses", classes="solo-label")
                yield Choice([(Text(str(n)), n) for n in range(MIN_GUESSES, MAX_GUESSES + 1)], value=last["guesses"], id="solo-guesses")
            # The way to play (docs/play.md, *Variants*): below the rules every mode shares, so that choosing
            # one never moves the choices above it.
            with Horizontal(classes="solo-row -break -gap", id="solo-variant-row"):
                yield Static("Variant", classes="solo-label")
                yield _radio_set("solo-variant", [variant.label for variant in VARIANTS], last["variant"])
            yield Static("", id="solo-variant-rules")
            with Horizontal(classes="solo-row -break -classic", id="solo-lifelines-row"):
                yield Static("Lifelines", classes="solo-label")
                yield _radio_set("solo-lifelines", [policy.label for policy in POLICIES], last["lifelines"])
            with Horizontal(classes="solo-row -break", id="solo-coach-row"):
                yield Static("Coach", classes="solo-label")
                yield _radio_set("solo-coach", ["Off", "On"], last["coach"])
            with Horizontal(classes="solo-row -computer-breaks -gap", id="solo-scoring-row"):
                yield Static("Your code", classes="solo-label")
                yield _radio_set("solo-scoring", ["Type it in (hidden)", "Score each guess by hand"], last["scoring"])
            with Vertical(id="solo-outcome"):
                yield Static("", id="solo-summary")
                yield Static("", id="solo-error")
            with Horizontal(id="solo-buttons"):
                yield Button("Play", id="solo-play", variant="primary", compact=True)
                yield Button("Back", id="solo-back", compact=True)
        yield Footer()

    def _user_names(self) -> list[str]:
        users = self.wom.with_store(self.wom.store.scoreboard)
        if users is None:
            return []
        # Over SSH you play solo as yourself or as a guest, never as another user.
        names = self.wom.identity.seatable([user.name for user in users])
        return sorted(names, key=lambda name: (name.casefold(), name))

    def on_mount(self) -> None:
        self._refresh()
        if self.kept is not None:
            self.query_one("#solo-resume", Button).focus()

    # -- the game kept to resume -----------------------------------------------------------

    def _kept_game(self) -> SoloGame | VariantGame | None:
        """The registered player's game of this identity in progress, if one is kept (docs/play.md, *Resume*)."""
        key = self.wom.identity.preference_key
        if key is None:
            return None
        store = self.wom.store
        data = self.wom.with_store(lambda: store.solo_in_progress(key), on_error=lambda _error: None)
        if data is None:
            return None
        from .solo_resume import kept_game

        return kept_game(data, self.wom.rng)

    def _resume_label(self) -> str:
        game = self.kept
        if game is None:
            return "Resume your game"
        from .solo_resume import where_left

        return f"r Resume your game · {where_left(game)}"

    def _show_kept(self) -> None:
        """Back from a game: offer the kept one again, or no more once it was finished or dropped."""
        self.kept = self._kept_game()
        self.query_one("#solo-resume-row").display = self.kept is not None
        self.query_one("#solo-resume", Button).label = self._resume_label()
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``r`` is offered only while a game is kept to resume."""
        if action == "resume":
            return self.kept is not None
        return True

    def action_resume(self) -> None:
        """Go back to the game kept to resume, where it was left."""
        if self.kept is None:
            return
        from .solo_resume import resume

        game, self.kept = self.kept, None
        resume(self.wom, game)

    # -- reading the form ------------------------------------------------------------------

    @property
    def computer_breaks(self) -> bool:
        """True when "Computer breaks your code" is chosen."""
        return _pressed(self.query_one("#solo-mode", RadioSet)) == 1

    @property
    def variant(self) -> Variant:
        """The variant chosen (Classic unless another is)."""
        return VARIANTS[_pressed(self.query_one("#solo-variant", RadioSet))]

    def setup(self) -> SoloSetup:
        """The chosen rules; :class:`SetupError` with the domain's reason if they do not go together."""
        palette = PALETTE_CHOICES[_pressed(self.query_one("#solo-palette", RadioSet))]
        return SoloSetup(
            length=LENGTHS[_pressed(self.query_one("#solo-length", RadioSet))],
            palette=PALETTES[palette.key],
            repeats=_pressed(self.query_one("#solo-repeats", RadioSet)) == 0,
            guesses=self._guesses(),
            lifelines=POLICIES[_pressed(self.query_one("#solo-lifelines", RadioSet))],
        )

    def _guesses(self) -> int:
        guesses = self.query_one("#solo-guesses", Choice).value
        assert isinstance(guesses, int)  # the list always has entries, one of them chosen
        return guesses

    def choice(self) -> SoloChoice:
        """Everything the game screen needs; :class:`SetupError` if the rules do not go together (or the
        variant cannot be played on them).
        """
        name = self.query_one("#solo-player", PlayerChoice).chosen
        setup = self.setup()
        variant = Variant.CLASSIC if self.computer_breaks else self.variant
        refusal = variant.refusal(variant.ruleset(setup.ruleset_for(setup.length or setup.max_length)))
        if refusal is not None:
            raise SetupError(refusal)
        return SoloChoice(
            player=name or "Guest",
            is_user=name is not None,
            setup=setup,
            variant=variant,
            coach=_pressed(self.query_one("#solo-coach", RadioSet)) == 1,
            computer_breaks=self.computer_breaks,
            by_hand=self.computer_breaks and _pressed(self.query_one("#solo-scoring", RadioSet)) == 1,
        )

    # -- showing what was chosen -----------------------------------------------------------

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self._restyle_row_of(event.widget)

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        self._restyle_row_of(event.widget)

    def _restyle_row_of(self, widget: object) -> None:
        """The focused row's label is highlighted (``.solo-row:focus-within``): Textual restyles only a
        focused widget's own ancestors that such a rule names, not the label beside it, so the row is
        restyled here when the focus enters or leaves it (the highlight stayed on the first row).
        """
        node = widget
        while node is not None and node is not self:
            if isinstance(node, Horizontal) and node.has_class("solo-row"):
                node.update_node_styles(animate=False)
                return
            node = node.parent  # type: ignore[attr-defined]

    def on_radio_set_changed(self, _event: RadioSet.Changed) -> None:
        self._refresh()

    def on_choice_changed(self, _event: Choice.Changed) -> None:
        self._refresh()

    def _refresh(self) -> None:
        computer_breaks = self.computer_breaks
        for row in self.query(".solo-row.-break"):
            row.display = not computer_breaks
        for row in self.query(".solo-row.-computer-breaks"):
            row.display = computer_breaks
        variant = self.variant
        if not computer_breaks:
            for row in self.query(".solo-row.-classic"):
                row.display = variant is Variant.CLASSIC  # a variant has no lifelines
        rules = self.query_one("#solo-variant-rules", Static)
        rules.update(Text(variant.rules))
        rules.display = not computer_breaks
        summary = self.query_one("#solo-summary", Static)
        error = self.query_one("#solo-error", Static)
        play = self.query_one("#solo-play", Button)
        try:
            setup = self.choice().setup
        except SetupError as refusal:
            self._refusal = refusal.reason
            summary.update("")
            summary.display = False
            error.update(Text(self._refusal))
            error.display = True
            play.disabled = True
            play.tooltip = self._refusal
            return
        self._refusal = None
        error.update("")
        error.display = False
        summary.display = True
        play.disabled = False
        play.tooltip = None
        summary.update(self._summary(setup, computer_breaks))

    def _summary(self, setup: SoloSetup, computer_breaks: bool) -> Text:
        length = setup.length
        variant = Variant.CLASSIC if computer_breaks else self.variant
        text = code_pegs(setup.palette.symbols, setup.palette, gap="")
        text.append("  ")
        size = f"{length}" if length else f"{MIN_SOLO_LENGTH}–{setup.max_length}"
        repeats = "repeats" if setup.repeats else "no repeats"
        guesses = variant.guesses(setup.guesses)
        text.append(f"{size} of {len(setup.palette)} symbols, {repeats}, {counted(guesses, 'guess')}")
        if variant is not Variant.CLASSIC:
            text.append(f"\n{variant.label}: not recorded, no hall of fame.", style="italic")
            return text
        if computer_breaks or length is None:
            return text
        # Without the hall of fame (the store failed) the summary just has no record line.
        hall = self.wom.with_store(self.wom.store.hall_of_fame, on_error=lambda _error: None)
        if hall is None:
            return text
        best = hall.best(setup.ruleset_for(length))
        text.append("\n")
        if best is None:
            text.append("No record yet for these rules: set one!", style="italic")
        else:
            text.append("Record: ")
            text.append(counted(best.guesses, "guess"), style="bold")
            text.append(" by ")
            text.append(best.name, style="bold")
            text.append(f" ({best.day})")
        return text

    # -- playing ---------------------------------------------------------------------------

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "solo-play":
            self.action_play()
        elif event.button.id == "solo-resume":
            self.action_resume()
        elif event.button.id == "solo-back":
            self.action_back()

    def action_play(self) -> None:
        """Start the chosen game (or say why these rules do not go together)."""
        try:
            choice = self.choice()
        except SetupError as refusal:
            self.query_one("#solo-error", Static).update(Text(refusal.reason))
            self.notify(refusal.reason, severity="error")
            return
        self._remember(choice)
        if choice.computer_breaks:
            from .computer_breaks import ComputerBreaksScreen

            self.app.push_screen(ComputerBreaksScreen(choice))
        elif choice.variant is not Variant.CLASSIC:
            from .variant_game import VariantGameScreen

            self.app.push_screen(VariantGameScreen(choice))
        else:
            from .solo_game import SoloGameScreen

            self.app.push_screen(SoloGameScreen(choice))

    def on_screen_resume(self) -> None:
        self._refresh()
        self._show_kept()
