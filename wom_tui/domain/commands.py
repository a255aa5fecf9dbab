"""Words the older line-mode Mastermind programs accepted at the guess prompt, and what to do instead here.

Those programs took ``reset`` and ``quit`` typed as a guess, and ``lifeline#1`` / ``lifeline#2``. The
lifelines still work typed; the other words are keys here. Typed as a guess, such a word gets a
message saying what works instead, rather than "Only 0–9 are allowed." (and costs nothing).
"""

from __future__ import annotations

import re

NEW_GAME_WORDS = frozenset({"reset", "restart", "new", "newgame", "again"})
LEAVE_WORDS = frozenset({"quit", "exit", "leave", "menu", "back", "bye"})
HELP_WORDS = frozenset({"help", "rules", "keys"})

NEW_GAME_HINT = "To start a new game press ctrl+n (it asks first)."
NO_NEW_GAME_HINT = "There is no new game in the middle of this one: press Esc to leave it."
LEAVE_HINT = "To leave the game press Esc (it asks first); ctrl+q quits wom-tui."
HELP_HINT = "Press F1 for the rules and keys."
LIFELINE_HINT = (
    "There are two lifelines: lifeline#1 or F2 reveals a symbol (costs 1 guess), "
    "lifeline#2 or F3 reveals a position (costs 2)."
)
NO_LIFELINES_HINT = "There are no lifelines in this game."

_LIFELINE = re.compile(r"lifelines?(#?\d*)?")


def command_hint(text: str, *, new_game: bool | None = None, lifelines: bool | None = None) -> str | None:
    """What to do instead, if ``text`` is one of those programs' command words; else ``None``.

    ``new_game``: whether the game offers a new game (ctrl+n); ``lifelines``: whether it has
    lifelines (F2/F3, ``lifeline#1``/``lifeline#2``); ``None`` when the caller does not know, and
    those words then get no hint. Case and spaces are ignored. ``lifeline#1`` and ``lifeline#2``
    themselves are commands the solo game runs, so they are not hinted here.
    """
    word = "".join(text.split()).casefold()
    if not word:
        return None
    if word in NEW_GAME_WORDS:
        if new_game is None:
            return None
        return NEW_GAME_HINT if new_game else NO_NEW_GAME_HINT
    if word in LEAVE_WORDS:
        return LEAVE_HINT
    if word in HELP_WORDS:
        return HELP_HINT
    if _LIFELINE.fullmatch(word) and word not in ("lifeline#1", "lifeline#2"):
        if lifelines is None:
            return None
        return LIFELINE_HINT if lifelines else NO_LIFELINES_HINT
    return None
