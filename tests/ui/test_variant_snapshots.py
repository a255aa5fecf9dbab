"""Snapshots of each variant's game screen at 80×24 and 60×20 (update with --snapshot-update): Quad mid-game with
a board broken, Devious out of guesses (the code that fitted every answer), Strict's refusal, Liar's lie revealed.
The games are seeded; every guess played that matters comes from the game's own codes."""

from __future__ import annotations

import random

import pytest

from wom_tui.domain.codes import WOM, Ruleset
from wom_tui.domain.solo import LifelinePolicy, SoloSetup
from wom_tui.domain.variant_game import VariantGame
from wom_tui.domain.variants import Variant
from wom_tui.screens.solo_choice import SoloChoice
from wom_tui.screens.variant_game import VariantGameScreen

from .conftest import wait_for

SIZES = [(80, 24), (60, 20)]


def _other(game: VariantGame, *avoid: str) -> list[str]:
    """Guesses that break no code of the game (its codes are seeded: the test does not know them)."""
    return [code for code in ("RRGG", "BBYY", "WWKK", "RGBY", "YBGR") if code not in game.secrets and code not in avoid]


async def _guess(pilot, screen: VariantGameScreen, code: str) -> None:
    before = screen.game.guesses_used
    await pilot.press(*code.lower(), "enter")
    await wait_for(pilot, lambda: screen.game.guesses_used == before + 1, message=f"{code} played")


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "60x20"])
@pytest.mark.parametrize("variant", [Variant.QUAD, Variant.DEVIOUS, Variant.STRICT, Variant.LIAR], ids=str)
def test_variant_game(snap_compare, app, variant, size):
    guesses = 3 if variant is Variant.DEVIOUS else 10
    game = VariantGame.new(variant, Ruleset(4, WOM, True, guesses), random.Random(5), "Alan", True)
    choice = SoloChoice("Alan", True, SoloSetup(4, WOM, True, guesses, LifelinePolicy.NONE), variant=variant)

    async def run_before(pilot) -> None:
        screen = VariantGameScreen(choice, game)
        pilot.app.push_screen(screen)
        await wait_for(pilot, lambda: pilot.app.screen is screen and screen.query("#variant-log") and screen.messages.lines_said)
        others = _other(game)
        if variant is Variant.QUAD:
            for code in (others[0], game.secrets[1], others[1]):
                await _guess(pilot, screen, code)
        elif variant is Variant.DEVIOUS:
            for code in others[:3]:
                await _guess(pilot, screen, code)
            await wait_for(pilot, lambda: "fitted every answer" in str(screen.query_one("#variant-result").render()))
        elif variant is Variant.STRICT:
            await _guess(pilot, screen, others[0])
            await pilot.press(*others[0].lower(), "enter")  # cannot fit its own answer: refused
            await wait_for(pilot, lambda: any(line.startswith("Strict:") for line in screen.messages.lines_said))
        else:
            for code in (*others[:3], game.secrets[0]):  # the lie came among the first three
                await _guess(pilot, screen, code)
            await wait_for(pilot, lambda: "lie" in str(screen.query_one("#variant-result").render()))
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)
