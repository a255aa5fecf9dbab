"""The variants on screen (docs/play.md, *Variants*): chosen in the solo setup (keys and mouse, remembered),
played on the variant's screen (Quad's four boards, Strict's refusal that spends nothing, Liar's lie told at
the start and revealed at the end, Devious cornered), resumed after the app went away, and each variant's
daily code with the classic daily's one attempt a day. Every guess a test plays comes from the seeded game
(its codes, or HAL9000's guess against Devious), never a hard-coded answer.
"""

from __future__ import annotations

import random
from datetime import datetime, timezone

from textual.widgets import Button, RadioSet

from wom_tui.domain.daily import day_of
from wom_tui.domain.variants import Variant
from wom_tui.screens.confirm import ConfirmScreen
from wom_tui.screens.daily import DailyScreen
from wom_tui.screens.solo_resume import ResumeScreen
from wom_tui.screens.solo_setup import SoloSetupScreen
from wom_tui.screens.variant_game import VariantGameScreen
from wom_tui.widgets.choice import Choice

from .conftest import build_app, wait_for
from .screen_text import screen_text
from .test_solo_resume import as_alan


def said(screen: VariantGameScreen) -> str:
    return "\n".join(screen.messages.lines_said)


async def play(pilot, variant: Variant) -> VariantGameScreen:
    """p on the setup: the variant's screen opens and tells its rules."""
    await pilot.press("p")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, VariantGameScreen) and pilot.app.screen.messages.lines_said,
                   message=f"the {variant.label} game opens")
    screen = pilot.app.screen
    assert screen.game.variant is variant
    return screen


async def guess(pilot, screen: VariantGameScreen, code: str) -> None:
    before = screen.game.guesses_used
    await pilot.press(*code.lower(), "enter")
    await wait_for(pilot, lambda: screen.game.guesses_used == before + 1, message=f"{code} played")


async def corner_devious(pilot, screen: VariantGameScreen) -> None:
    """HAL9000's guesses (from the game as it stands) until Devious is cornered."""
    rng = random.Random(1)
    while not screen.game.over:
        await guess(pilot, screen, screen.game.computer_guess("expert", rng))


async def test_quad_chosen_by_keys_played_in_a_burst_kept_and_resumed(data_dir, store):
    store.register("Alan")
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await as_alan(pilot)
        setup.query_one("#solo-variant", RadioSet).focus()
        await pilot.press("right", "enter")  # Classic → Quad, chosen with the keyboard
        await wait_for(pilot, lambda: setup.variant is Variant.QUAD)
        assert "Four codes at once" in screen_text(app), "the variant's one sentence is shown"
        assert not setup.query_one("#solo-lifelines-row").display, "a variant has no lifelines"
        assert "9 guesses" in str(setup.query_one("#solo-summary").render())
        screen = await play(pilot, Variant.QUAD)
        secrets = screen.game.secrets
        # One key too many: refused with the reason, nothing spent; then a burst with a second Enter.
        await pilot.press(*secrets[0].lower(), "1", "enter")
        await wait_for(pilot, lambda: "too long" in said(screen).lower())
        assert screen.game.guesses_used == 0
        await pilot.press("backspace", "enter", "enter")
        await wait_for(pilot, lambda: screen.game.guesses_used == 1)
        await pilot.pause()
        assert screen.game.guesses_used == 1, "the second Enter played nothing"
        assert screen.game.broken(0)
        shown = screen_text(app)
        assert "1✓" in shown and "Guess #2 of 9" in shown
        kept = store.solo_in_progress("local")
        assert kept is not None and kept["kind"] == "variant" and kept["variant"] == "quad"
    # The app went away mid-game: the next start offers the Quad game and resumes it where it was.
    again = build_app(data_dir)
    async with again.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(again.screen, ResumeScreen), message="resume offered")
        await wait_for(pilot, lambda: "Your Quad game" in screen_text(again))
        await pilot.press("escape", "o")  # later: the solo setup offers it first
        await wait_for(pilot, lambda: isinstance(again.screen, SoloSetupScreen))
        await wait_for(pilot, lambda: "Resume your game · Quad · 4 × Digits 0–9 · guess 2 of 9" in screen_text(again))
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(again.screen, VariantGameScreen))
        screen = again.screen
        assert screen.game.secrets == secrets and screen.game.guesses_used == 1
        await wait_for(pilot, lambda: "Resumed where you left it" in said(screen))
        for code in secrets[1:]:
            if not screen.game.over:
                await guess(pilot, screen, code)
        assert screen.game.won
        await wait_for(pilot, lambda: "You broke all four codes" in screen_text(again))
        assert store.solo_in_progress("local") is None, "a finished game is not kept"
        await pilot.press("enter")  # on the heels of the last guess: nothing focused, nothing starts
        await pilot.pause()
        assert screen.game.won and isinstance(again.screen, VariantGameScreen)
        await pilot.click("#variant-again")
        await wait_for(pilot, lambda: screen.game.guesses_used == 0 and not screen.game.over, message="play again")
        assert screen.game.variant is Variant.QUAD and "Game abandoned" not in said(screen)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(again.screen, SoloSetupScreen))
        assert again.screen.variant is Variant.QUAD, "the setup remembers the variant"
        assert not again.screen.query_one("#solo-resume-row").display, "nothing left to resume"


async def test_strict_liar_and_devious_chosen_by_mouse(data_dir, store):
    store.register("Alan")
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await as_alan(pilot)
        # Strict, with the coach: a guess that does not fit is refused with the reason and spends nothing.
        await pilot.click("#solo-variant-3")
        await pilot.click("#solo-coach-1")
        await wait_for(pilot, lambda: setup.variant is Variant.STRICT)
        screen = await play(pilot, Variant.STRICT)
        secret = screen.game.secrets[0]
        first = next(code for code in ("1111", "2222", "3333") if code != secret)
        await guess(pilot, screen, first)
        await wait_for(pilot, lambda: f"Coach: {first} could have been the code." in said(screen), message="the coach")
        await pilot.press(*first, "enter")  # the same guess again cannot fit its own answer
        await wait_for(pilot, lambda: "Strict:" in said(screen))
        assert screen.game.guesses_used == 1 and "does not fit guess #1" in screen_text(app)
        # Esc mid-game asks; y leaves, and the game is not kept.
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, SoloSetupScreen))
        assert store.solo_in_progress("local") is None
        # Liar: told at the start; the end says which answer lied.
        await pilot.click("#solo-variant-4")
        await wait_for(pilot, lambda: setup.variant is Variant.LIAR)
        screen = await play(pilot, Variant.LIAR)
        assert "first 3 answers is a lie" in said(screen)
        secret = screen.game.secrets[0]
        for code in [c for c in ("1234", "4321", "5566") if c != secret][:2] + [secret]:
            await guess(pilot, screen, code)
        assert screen.game.won
        await wait_for(pilot, lambda: "lie" in str(screen.query_one("#variant-result").render()))
        assert screen.game.lie_line() in said(screen)
        await pilot.click("#variant-setup")
        await wait_for(pilot, lambda: isinstance(app.screen, SoloSetupScreen))
        # Devious on 4 × Classic: cornered with HAL9000's guesses, within its worst case of 5.
        await pilot.click("#solo-palette-3")
        await pilot.click("#solo-variant-2")
        await wait_for(pilot, lambda: setup.variant is Variant.DEVIOUS)
        screen = await play(pilot, Variant.DEVIOUS)
        await corner_devious(pilot, screen)
        assert screen.game.won and screen.game.guesses_used <= 5
        await wait_for(pilot, lambda: "Devious into a corner" in screen_text(app))
        await pilot.click("#variant-menu")
        await wait_for(pilot, lambda: len(app.screen_stack) == 1)


async def test_a_variants_daily_code_is_one_attempt_a_day(data_dir, store):
    store.register("Alan")
    today = day_of(datetime.now(timezone.utc)).isoformat()
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, DailyScreen) and app.screen.query("#daily-board"))
        daily = app.screen
        daily.query_one("#daily-player").value = "Alan"
        daily.query_one("#daily-puzzle", Choice).value = "quad"
        await wait_for(pilot, lambda: "Quad, 4 × Classic code is waiting" in screen_text(app))
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, VariantGameScreen))
        screen = app.screen
        assert screen.daily is not None and screen.game.variant is Variant.QUAD
        await pilot.press("r", "g", "enter")  # too short: refused, costs nothing, starts nothing
        await wait_for(pilot, lambda: "too short" in said(screen).lower())
        assert store.daily_attempts_on(today) == []
        await pilot.press("backspace", "backspace")  # the refused guess stays to be edited
        await guess(pilot, screen, screen.game.secrets[3])
        assert [a.puzzle for a in store.daily_attempts_on(today)] == ["quad"]
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await wait_for(pilot, lambda: "second try today" in screen_text(app), message="the question says the attempt is spent")
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, DailyScreen))
        await wait_for(pilot, lambda: "left: no second try" in screen_text(app))
        assert not daily.query_one("#daily-play", Button).display
        await pilot.press("p")  # one key too many: it says why
        await wait_for(pilot, lambda: any("already started" in str(n.message) for n in app._notifications))
        # Strict's daily code, broken: the attempt is finished in the store and on the leaderboard.
        daily.query_one("#daily-puzzle", Choice).value = "strict"
        await wait_for(pilot, lambda: "Strict, 4 × Classic code is waiting" in screen_text(app))
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, VariantGameScreen) and app.screen is not screen)
        screen = app.screen
        await guess(pilot, screen, screen.game.secrets[0])
        await wait_for(pilot, lambda: "You broke the code in 1 guess" in screen_text(app))
        strict = [a for a in store.daily_attempts_on(today) if a.puzzle == "strict"]
        assert len(strict) == 1 and strict[0].broke and strict[0].guesses == 1
        recorded = dict(store.games_with_ids())[strict[0].game_id]  # the attempt names its game, as the classic's
        assert (recorded.kind, recorded.variant, recorded.players[0].name) == ("daily", Variant.STRICT, "Alan")
        await pilot.press("c")  # the spoiler-free grid, named by the variant's puzzle
        await wait_for(pilot, lambda: f"Mastermind daily {today} · Strict, 4 × Classic · 1/10 · streak 1" in said(screen))
        assert said(screen).splitlines()[-1] == "●●●●"
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, DailyScreen))
        await wait_for(pilot, lambda: "Alan broke today's Strict, 4 × Classic code in 1/10" in screen_text(app))
        # Devious's daily code, lost: nothing of its answers' secret is told before the day is over everywhere.
        daily.query_one("#daily-puzzle", Choice).value = "devious"
        await wait_for(pilot, lambda: "Devious, 4 × Classic code is waiting" in screen_text(app))
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, VariantGameScreen) and app.screen.game.variant is Variant.DEVIOUS)
        screen = app.screen
        for _ in range(10):  # the same guess again and again never corners it
            await guess(pilot, screen, "RRGG")
        await wait_for(pilot, lambda: "shown once the day is over everywhere" in said(screen))
        assert screen.game.over and not screen.game.won and "fitted every answer" not in said(screen)
        devious = [a for a in store.daily_attempts_on(today) if a.puzzle == "devious"]
        assert len(devious) == 1 and devious[0].broke is False and devious[0].guesses == 10
