"""Help: the rules, how feedback works (with two worked examples), every mode, and every key."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Markdown, Static

from ..domain.codes import RAINBOW, WOM, feedback
from ..patches.footer import Footer
from ..widgets.pegs import code_pegs, feedback_row, feedback_summary
from .base import WomScreen
from .menu import MENU

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

## Solo: you break the code

Break the computer's code: length 4–8 (or random), your palette, repeats or not, and
lifelines — *reveal a symbol* (costs 1 guess) and *reveal a position* (costs 2).
The best win per ruleset enters the **hall of fame** (a guest gives a name of 1–7
characters, no spaces).

**Coach** (set it *On* in the setup): after each guess it says whether the guess
*could have been the code*, given the answers before it, and how many codes remain possible.

**Variants** (the *Variant* row of the setup; each also a daily code): **Quad** four codes at once, every
guess to all four boards, 9 guesses · **Devious** holds no code and answers to leave the most codes: corner it ·
**Strict** every guess must fit every answer so far (refused with the reason, at no cost) · **Liar** one of
the first three answers lies, revealed at the end, 12 guesses.

## Solo: Computer breaks your code

Choose *Computer breaks your code* in the solo setup; HAL9000 guesses, always playing a code
that fits every answer so far, and the screen shows how many codes remain possible.

- **Type it in (hidden):** you set a secret code (shown as •, ctrl+r peeks) and watch.
- **Score each guess by hand:** to play against a real board, type the black and white
  for each of the computer's guesses. If no code fits your answers any more, it says so at
  once, names the answer most likely wrong, and lets you correct it.
"""

KEYS = """\
## Keys

| Where | Keys |
|---|---|
| Everywhere | **F1** / **?** help · **F8** messages (every notice of this session, to read again) · **Esc** back · **ctrl+p** command palette · **ctrl+q** quit (in a game it asks first) |
| Main menu | {menu_keys} · arrows + **Enter** · mouse |
| Entering a code | type symbols (any case) · **←/→** pick a slot · **↑/↓** change it · **Backspace**/**Delete** clear · click a palette peg · **Enter** submit · a symbol too many shows as +K and the code is refused as too long |
| Secret code | shown as • — **ctrl+r** peeks |
| In a game | **Esc** asks before leaving; **y** (or *Leave*) leaves |
| Every question | **y** goes ahead · **Esc** / **n** stay (cancel) · Enter on the focused button |
| Game setup | **ctrl+s** start a World of Mastermind game · **p** play a solo game |
| Solo game | **F2** reveal a symbol (costs 1) · **F3** reveal a position (costs 2) · or type **lifeline#1** / **lifeline#2** · **ctrl+n** new game · **F4** notes (arrows, **Space** or a click: ruled out ×, certain ✓; **Esc** back to the guess) · typing *reset* or *quit* says which key does it |
| At a table | **F4** your notes, as in a solo game (only you see them) |
| Scoreboard | **n** / **s** / **g** / **a** sort by name, score, games, average (again to reverse) · or click a column header · **h** hall of fame · **b** scoreboard · **m** the highlighted user's stats |
| Daily code | **d** on the main menu · **p** play (one attempt a day, counted from the first guess) · **c** copy the share grid |
| My stats | **m** on the main menu (or on the scoreboard, for the highlighted user) · **←/→** other rules |
| Replays | **v** on the main menu · **Enter** replay a game · **←/→** step a guess · **Home/End** jump · **c** share |
| Code Arena | **c** on the main menu (shown with its countdown while one is on) or in the lobby · **j** join · **p** pause · **b** berserk (half the clock, +1 for a win of 3 guesses or more) |
| Rush | **u** on the main menu (or ctrl+p → *Rush*) · type a guess, **Enter** (the first starts the 3 minutes) · **ctrl+n** give a code up (−10 s) · **a** again |

Themes: ctrl+p → *Theme* (remembered for next time); **wom-colourblind** uses colour-blind-safe peg colours.
The terminal's cursor sits on the focused field, list line or button, for a braille display or a screen reader;
ctrl+p → *Terminal cursor* hides it (remembered).
""".replace("{menu_keys}", " · ".join(
    f"**{key}** {footer.lower() if action.startswith('mode(') else action}"
    for key, action, _, footer in MENU if key != "?"
))
"""The keys table; the main menu's keys come from its entries (docs/play.md, *How to play*)."""

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


class BuiltMarkdown(Markdown):
    """Textual's Markdown with its blocks built as it is composed, with the screen around it.

    Textual's Markdown mounts empty, parses its text in a worker thread and mounts its blocks later: the
    help was laid out and drawn once empty and then once more for each of its three texts (the rules
    showed only at the second layout). A fixed text a few lines long parses in a fraction of a
    millisecond: here it is parsed at once and its blocks come with the screen's first layout.
    """

    def compose(self) -> ComposeResult:
        markdown = self._initial_markdown or ""
        self._initial_markdown = None
        self._markdown = markdown
        self._theme = self.app.theme
        yield from self._build_from_source(markdown)
        lines = markdown.splitlines()
        self._last_parsed_line = len(lines) - (1 if lines and lines[-1] else 0)

    async def _on_mount(self, event: events.Mount) -> None:  # type: ignore[override]  # Markdown is async, Widget not
        # Markdown's own handler would parse the text again and replace the blocks just composed.
        Widget._on_mount(self, event)
        event.prevent_default()


_SCROLL_KEYS = (
    ("up", "scroll_up"), ("down", "scroll_down"), ("pageup", "page_up"), ("pagedown", "page_down"),
    ("home", "scroll_home"), ("end", "scroll_end"),
)


class HelpScreen(WomScreen):
    """The rules and every key; Esc goes back to where you were.

    The screen scrolls the text itself (arrows, Page Up/Down, Home/End) and nothing takes the focus:
    focusing the scrolling text restyled every one of its widgets before the first paint (a fifth of
    the time help took to open).
    """

    BINDINGS = [
        *(Binding(key, f"scroll_help('{action}')", show=False) for key, action in _SCROLL_KEYS),
        Binding("f8", "app.messages", "Messages", key_display="F8"),  # the footer has room for it here
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box", classes="panel"):
            yield Static(Text("Help"), classes="panel-title")
            with VerticalScroll(id="help-scroll", can_focus=False):
                yield BuiltMarkdown(RULES)
                yield Static(Text("Examples:"), classes="help-examples-title")
                for secret, guess, palette in EXAMPLES:
                    yield Static(example_line(secret, guess, palette), classes="help-example")
                yield BuiltMarkdown(GAMES)
                yield BuiltMarkdown(KEYS)
        yield Footer()

    def action_scroll_help(self, action: str) -> None:
        """Scroll the help text as its own keys would (``scroll_up``, ``page_down``, ...)."""
        getattr(self.query_one("#help-scroll", VerticalScroll), f"action_{action}")()
