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


    def __init__(self, game: SoloGame) -> None:
        super().__init__(classes="confirm-screen")
        self.game = game

    def compose(self) -> ComposeResult:
        game = self.game
        with Vertical(id="confirm-dialog"):
            yield Static(Text("Resume your game?"), id="confirm-question")
            yield Static(Text(f"Your solo game ({game.ruleset.describe()}) was left at guess "
                              f"{game.guess_number} of {game.ruleset.guesses}."), id="confirm-detail")
            yield Static(Text("Enter or y: resume · d: drop it · Esc: later"), id="confirm-hint")
            with Horizontal(id="confirm-buttons"):
                yield Button("Resume", id="resume-yes", variant="primary")
                yield Button("Drop it", id="resume-drop", variant="error")
        yield Footer()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(RESUME if event.button.id == "resume-yes" else DROP)

    def action_answer(self, answer: str) -> None:
        """Resume, drop, or (empty) decide later."""
        self.dismiss(answer or None)


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
    from ..domain.solo import SoloGame  # only with a game to offer: it brings the solvers (numpy) along

    try:
        game = SoloGame.from_json(data, app.rng)
    except ValueError:
        return  # the store checked it: only a newer wom-tui's game could fail here
    if not game.keepable:
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


def resume(app: WomHost, game: SoloGame) -> None:
    """Open the solo game screen on ``game``, where it was left."""
    from ..domain.solo import SoloSetup
    from .solo_game import SoloGameScreen
    from .solo_choice import SoloChoice

    ruleset = game.ruleset
    setup = SoloSetup(length=ruleset.length, palette=ruleset.palette, repeats=ruleset.repeats,
                      guesses=ruleset.guesses, lifelines=game.lifeline_policy)
    screen = SoloGameScreen(SoloChoice(game.player, game.is_user, setup, coach=game.coach), game=game)
    screen.kept_for_resume = True
    app.push_screen(screen)


__all__ = ["ResumeScreen", "offer_resume", "resume"]
