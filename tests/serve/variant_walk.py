"""One person plays Quad, Devious, Strict and Liar in a row from the solo setup, by keys alone, on any terminal
(an SSH client's or a browser tab's): each guess comes from the game the server's seeded source drew, read back
from the game kept to resume (its codes; HAL9000's guess against Devious), never a hard-coded answer."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import Any

from wom_tui.domain.variant_game import VariantGame

KEYS = {"TAB": "\t", "RIGHT": "\x1b[C", "ENTER": "\r", "ESC": "\x1b", "BACKSPACE": "\x7f"}
"""The named keys a walk sends, as a terminal sends them."""

VARIANTS = (("Quad", "You broke all four codes"), ("Devious", "You broke Devious into a corner"),
            ("Strict", "You broke the code"), ("Liar", "You broke the code"))


async def play_each_variant(screen: Any, send: Callable[..., Awaitable[None]], kept: Callable[[], dict | None]) -> None:
    """From the main menu: ``o``, the variant row, then each variant played to its win.

    ``screen`` has ``text`` and ``wait_until(condition)``; ``send(*keys)`` sends text and names of :data:`KEYS`;
    ``kept()`` reads the player's game kept to resume from the store.
    """
    await send("o")
    await screen.wait_for_text("Tab: next row")
    await send(*["TAB"] * 5)  # mode, length, palette, repeats, guesses: the variant row
    rng = random.Random(3)
    for variant, won in VARIANTS:
        await send("RIGHT", "ENTER")  # the next variant
        await screen.wait_until(lambda t, v=variant: f"{v}: not recorded" in t.text)
        await send("p")
        await screen.wait_until(lambda t, v=variant: f"{v} · guess #1 of" in t.text)
        await send("rrgg", "ENTER")
        await screen.wait_until(lambda t, v=variant, w=won: f"{v} · guess #2 of" in t.text or w in t.text)
        if variant == "Strict" and won not in screen.text:
            await send("rrgg", "ENTER")  # cannot fit its own answer: refused, nothing spent
            await screen.wait_until(lambda t: "does not fit guess #1" in t.text)
            await send(*["BACKSPACE"] * 4)
        number = 1
        while won not in screen.text:
            game = VariantGame.from_json(kept())
            assert game.guesses_used == number, "a refused guess spent nothing"
            code = game.computer_guess("expert", rng) if variant == "Devious" else next(
                game.secrets[board] for board in game.open_boards)
            await send(code.lower(), "ENTER")
            number += 1
            await screen.wait_until(lambda t, v=variant, n=number, w=won: f"{v} · guess #{n + 1} of" in t.text or w in t.text)
        if variant == "Liar":
            await screen.wait_until(lambda t: "the lie came" in t.text or "The lie was" in t.text)
        assert kept() is None, "a finished game is not kept"
        await send("ESC")  # over: back to the setup, the focus on the variant row
        await screen.wait_until(lambda t: "Tab: next row" in t.text)
