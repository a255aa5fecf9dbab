"""Solo resume: a solo game in progress survives a dropped connection or a crash.

After every move the solo game screen keeps its game in the store under the player's identity
(:meth:`.solo_game.SoloGameScreen.keep_progress`, under :attr:`.identity.Identity.preference_key`:
this machine, or a signed-in SSH key; a guest has none, so a guest's game is not kept). A game that
ends, or that the player leaves, starts afresh or quits on purpose, is forgotten. The next start with
the same identity asks "Resume your game?" (:class:`ResumeScreen`): resume it where it was, drop it,
or decide later (Esc: it stays kept until the next solo game with a move replaces it).
"""

from __future__ import annotations

import contextlib
import random
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ..domain.store import StoreError
from ..patches.footer import Footer
from .host import WomHost

if TYPE_CHECKING:
    from ..domain.solo import SoloGame
    from ..domain.variant_game import VariantGame

RESUME = "resume"
DROP = "drop"


class ResumeScreen(ModalScreen[str | None]):
    """"Resume your game?": Resume (Enter or ``y``), Drop it (``d``), or Esc to decide later (the solo
    setup offers it again). A dialog in the middle of the menu, with its keys in the footer.
    """

    AUTO_FOCUS = "#resume-yes"
    BINDINGS = [
        Binding("escape", "answer('')", "Later"),
        Binding("y", "answer('resume')", "Resume"),
        Binding("d", "answer('drop')", "Drop it"),
    ]


    def __init__(self, game: SoloGame | VariantGame) -> None:
        super().__init__(classes="confirm-screen")
        self.game = game

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-dialog"):
            yield Static(Text("Resume your game?"), id="confirm-question")
            yield Static(Text(self._detail()), id="confirm-detail")
            yield Static(Text("Enter or y: resume · d: drop it · Esc: later"), id="confirm-hint")
            with Horizontal(id="confirm-buttons"):
                yield Button("Resume", id="resume-yes", variant="primary")
                yield Button("Drop it", id="resume-drop", variant="error")
        yield Footer()

    def _detail(self) -> str:
        from ..domain.variant_game import VariantGame

        game = self.game
        if isinstance(game, VariantGame):
            return (f"Your {game.variant.label} game ({game.ruleset.describe()}) was left at guess "
                    f"{game.guesses_used + 1} of {game.ruleset.guesses}.")
        return (f"Your solo game ({game.ruleset.describe()}) was left at guess "
                f"{game.guess_number} of {game.ruleset.guesses}.")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(RESUME if event.button.id == "resume-yes" else DROP)

    def action_answer(self, answer: str) -> None:
        """Resume, drop, or (empty) decide later."""
        self.dismiss(answer or None)


def kept_game(data: dict[str, Any], rng: random.Random) -> SoloGame | VariantGame | None:
    """The game a store kept to resume: a classic solo game or a variant's (docs/play.md, *Variants*), or
    None when it is not one a registered player may resume (a guest's, kept by an older wom-tui).
    """
    if data.get("kind") == "variant":
        from ..domain.variant_game import VariantGame

        try:
            variant = VariantGame.from_json(data)
        except ValueError:
            return None
        return variant if variant.is_user and not variant.over else None
    from ..domain.solo import SoloGame  # only with a game to offer: it brings the solvers (numpy) along

    try:
        game = SoloGame.from_json(data, rng)
    except ValueError:
        return None  # the store checked it: only a newer wom-tui's game could fail here
    return game if game.keepable else None


def where_left(game: SoloGame | VariantGame) -> str:
    """``"4 × Classic · guess 3 of 10"``, ``"Quad · 4 × Digits 0–9 · guess 3 of 9"``: the game kept, as a player reads it."""
    from ..domain.variant_game import VariantGame

    if isinstance(game, VariantGame):
        return f"{game.variant.label} · {game.ruleset.title} · guess {game.guesses_used + 1} of {game.ruleset.guesses}"
    return f"{game.ruleset.title} · guess {game.guess_number} of {game.ruleset.guesses}"


def offer_resume(app: WomHost) -> None:
    """At start: if this identity left a solo game in progress, ask whether to resume it."""
    key = app.identity.preference_key
    if key is None:
        return
    try:
        data: dict[str, Any] | None = app.store.solo_in_progress(key)
    except StoreError as error:
        app.notify(f"Your unfinished solo game could not be read: {error}", severity="warning", markup=False)
        return
    if data is None:
        return
    game = kept_game(data, app.rng)
    if game is None:
        # A guest's game kept by an older wom-tui: a guest's game is never kept, nor offered.
        with contextlib.suppress(StoreError):
            app.store.drop_solo(key)
        return

    def answered(answer: str | None) -> None:
        if answer == RESUME:
            resume(app, game)
        elif answer == DROP:
            try:
                app.store.drop_solo(key)
            except StoreError as error:
                app.show_store_error(error)

    app.push_screen(ResumeScreen(game), answered)


def resume(app: WomHost, game: SoloGame | VariantGame) -> None:
    """Open the solo game screen (or the variant's) on ``game``, where it was left."""
    from ..domain.codes import MAX_GUESSES, MIN_GUESSES
    from ..domain.solo import LifelinePolicy, SoloSetup
    from ..domain.variant_game import VariantGame
    from .solo_game import SoloGameScreen
    from .solo_choice import SoloChoice

    ruleset = game.ruleset
    if isinstance(game, VariantGame):
        from .variant_game import VariantGameScreen

        # The base rules the variant was chosen on (Quad's 9 and Liar's 12 guesses are the variant's own).
        base = SoloSetup(length=ruleset.length, palette=ruleset.palette, repeats=ruleset.repeats,
                         guesses=min(max(ruleset.guesses, MIN_GUESSES), MAX_GUESSES), lifelines=LifelinePolicy.NONE)
        variant_screen = VariantGameScreen(SoloChoice(game.player, game.is_user, base, coach=game.coach,
                                                      variant=game.variant), game)
        variant_screen.kept_for_resume = True
        app.push_screen(variant_screen)
        return
    setup = SoloSetup(length=ruleset.length, palette=ruleset.palette, repeats=ruleset.repeats,
                      guesses=ruleset.guesses, lifelines=game.lifeline_policy)
    screen = SoloGameScreen(SoloChoice(game.player, game.is_user, setup, coach=game.coach), game=game)
    screen.kept_for_resume = True
    app.push_screen(screen)


__all__ = ["ResumeScreen", "kept_game", "offer_resume", "resume", "where_left"]
