"""Help: the rules, how feedback works (with the seeds' examples), and every key."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Markdown, Static

from ..domain.codes import RAINBOW, WOM, feedback
from ..widgets.footer import Footer
from ..widgets.pegs import code_pegs, feedback_row, feedback_summary
from .base import WomScreen

RULES = """\
## How to play

One player (or the computer) sets a secret **code** of coloured pegs; another tries to
break it. After each guess the code maker answers with **key pegs**:

- **● black** — a right symbol in the right place;
- **○ white** — a right symbol in the wrong place (each peg of the code counts once).

The key pegs are counts only: their order never tells you *which* places are right.
The text `K K W` says the same thing (K for black, W for white).
Every peg shows its letter or digit as well as its colour.
"""

GAMES = """\
## World of Mastermind

2–4 players (registered users, or the computers **HAL9000** and **VIKI**). Each sets the
code the next player must break, typed hidden. Players guess in turn until everyone has
broken their code or used their attempts.

- **Breaking:** attempts allowed − attempts used + 1 if you broke the code.
- **Making:** the attempts your code cost its breaker − 1 if they broke it, else all attempts.

With 5 attempts, breaking on the 2nd and HAL9000 failing on your code: 4 + 5 = 9 points.

## Solo

Break the computer's code: length 4–8 (or random), your palette, repeats or not, and
lifelines — *reveal a symbol* (costs 1 guess) and *reveal a position* (costs 2).
The best win per ruleset enters the **hall of fame**.
"""

KEYS = """\
## Keys

| Where | Keys |
|---|---|
| Everywhere | **F1** / **?** help · **Esc** back · **ctrl+p** command palette · **ctrl+q** quit |
| Main menu | **r** register · **s** scoreboard · **p** play · **o** solo · **q** quit · arrows + **Enter** · mouse |
| Entering a code | type symbols (any case) · **←/→** pick a slot · **↑/↓** change it · **Backspace**/**Delete** clear · click a palette peg · **Enter** submit |
| Secret code | shown as • — **ctrl+r** peeks |
| In a game | **Esc** asks before leaving; **Esc** again (or *Leave*) confirms |
| Game setup | **ctrl+s** start a World of Mastermind game · **p** play a solo game |
| Solo game | **F2** reveal a symbol (costs 1) · **F3** reveal a position (costs 2) · or type **lifeline#1** / **lifeline#2** · **ctrl+n** new game |
| Scoreboard | click a column header to sort by it (again to reverse) · **h** hall of fame · **b** scoreboard |

Themes: ctrl+p → *Theme*; **wom-colourblind** uses colour-blind-safe peg colours.
"""

EXAMPLES = (("VVOG", "GOVG", RAINBOW), ("WWKK", "WWWK", WOM))


def example_line(secret: str, guess: str, palette: object) -> Text:
    """One worked example: secret, guess, key pegs and their meaning."""
    result = feedback(secret, guess)
    text = Text("  secret ")
    text.append_text(code_pegs(secret, palette))  # type: ignore[arg-type]
    text.append("   guess ")
    text.append_text(code_pegs(guess, palette))  # type: ignore[arg-type]
    text.append("   →  ")
    text.append_text(feedback_row(result, len(secret)))
    text.append(f"\n  {feedback_summary(result)}  ({result.text})", style="italic")
    return text


class HelpScreen(WomScreen):
    """The rules and every key; Esc goes back to where you were."""

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box", classes="panel"):
            yield Static(Text("Help"), classes="panel-title")
            with VerticalScroll(id="help-scroll"):
                yield Markdown(RULES)
                yield Static(Text("Examples from the seeds:"), classes="help-examples-title")
                for secret, guess, palette in EXAMPLES:
                    yield Static(example_line(secret, guess, palette), classes="help-example")
                yield Markdown(GAMES)
                yield Markdown(KEYS)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#help-scroll").focus()
