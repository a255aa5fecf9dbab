"""Pieces the solo game and "computer breaks your code" share: the guess input and history cells."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.widgets import DataTable, Static

from ..domain.codes import Feedback, Ruleset
from ..domain.solo import codes_remain, count_text, guesses_word
from .peg_input import PegInput
from .pegs import BLACK_PEG, NO_PEG, WHITE_PEG, code_pegs, feedback_grid

__all__ = [
    "GuessInput", "codes_remain", "count_text", "guess_cell", "guesses_word", "history_columns",
    "key_pegs_cell", "result_cells", "roomy", "short_count",
]

COMMAND_WORD = "lifeline"
"""Typing this word (then ``#1`` or ``#2``) at the guess prompt asks for a lifeline, (docs/play.md, *Solo: break the computer's code*)."""


class GuessInput(PegInput):
    """A :class:`PegInput` that also takes the typed commands ``lifeline#1`` / ``lifeline#2``.

    An ``l`` (never a palette symbol) switches the slots to a one-line command prompt;
    Enter submits the command text like a guess, Backspace edits it, and erasing it all
    goes back to the slots.
    """

    DEFAULT_CSS = """
    /* The command line (lifeline#1 typed at the prompt) in place of the slots. */
    GuessInput .guess-input--command {
        display: none;
        height: 2;
        width: 32;
    }
    GuessInput.-command .guess-input--command {
        display: block;
    }
    GuessInput.-command .peg-input--slots {
        display: none;
    }
    """

    def __init__(self, ruleset: Ruleset, *, commands: bool = True, **kwargs: object) -> None:
        super().__init__(ruleset, **kwargs)  # type: ignore[arg-type]
        self._commands = commands
        self._command = ""

    @property
    def command(self) -> str:
        """The command being typed ("" when entering pegs)."""
        return self._command

    def compose(self) -> ComposeResult:
        yield from super().compose()
        yield Static("", classes="guess-input--command")

    def _set_command(self, text: str) -> None:
        self._command = text
        self.set_class(bool(text), "-command")
        line = self.query_one(".guess-input--command", Static)
        prompt = Text("> ", style=Style(dim=True))
        prompt.append(text, style=Style(bold=True))
        prompt.append("▏", style=Style(blink=False, dim=True))
        prompt.append("   Enter asks, Backspace edits", style=Style(dim=True, italic=True))
        line.update(prompt)

    def clear(self) -> None:
        """Empty the slots and drop a half-typed command."""
        super().clear()
        if self.is_mounted:
            self._set_command("")

    async def _on_key(self, event: events.Key) -> None:
        character = event.character
        if self._command:
            event.stop()
            event.prevent_default()
            if event.key == "enter":
                self.post_message(self.Submitted(self, self._command))
                self._set_command("")
            elif event.key == "backspace":
                self._set_command(self._command[:-1])
            elif event.key == "escape":
                self._set_command("")
            elif character is not None and len(character) == 1 and character.isprintable():
                self._set_command(self._command + character)
            return
        if (
            self._commands
            and character is not None
            and character.lower() == COMMAND_WORD[0]
            and character.upper() not in self.ruleset.palette.symbols
        ):
            event.stop()
            event.prevent_default()
            self._set_command(character)
            return
        await super()._on_key(event)


def tight(ruleset: Ruleset, narrow: bool = False) -> bool:
    """Pegs drawn without gaps, and one-letter B and W columns: for long codes, and on narrow screens."""
    return narrow or ruleset.length > 5


def guess_cell(code: str, ruleset: Ruleset, *, narrow: bool = False) -> Text:
    """A guess as coloured pegs (tight for long codes so eight fit in a table cell, and when narrow)."""
    return code_pegs(code, ruleset.palette, gap="" if tight(ruleset, narrow) else " ")


def key_pegs_cell(result: Feedback, length: int, *, grid: bool = False, gaps: bool | None = None) -> Text:
    """Key pegs, blacks then whites then empty holes (counts only, never positions).

    On one line (``"● ○ · ·"``; without gaps for long codes, or when ``gaps`` is False), or with
    ``grid`` in the two-row grid of a real board.
    """
    if grid:
        return feedback_grid(result, length)
    text = Text(end="")
    gap = " " if (length <= 5 if gaps is None else gaps) else ""
    pegs = [BLACK_PEG] * result.black + [WHITE_PEG] * result.white
    pegs += [NO_PEG] * max(length - len(pegs), 0)
    for index, key_peg in enumerate(pegs):
        if index:
            text.append(gap)
        text.append(key_peg, style=Style(dim=True) if key_peg == NO_PEG else Style(bold=True))
    return text


def result_cells(
    guess: str, result: Feedback, ruleset: Ruleset, *, grid: bool = False, narrow: bool = False
) -> tuple[Text, Text, Text, Text]:
    """A scored guess's history cells: the guess, black and white counts, and the key pegs."""
    return (
        guess_cell(guess, ruleset, narrow=narrow),
        Text(str(result.black), justify="center"),
        Text(str(result.white), justify="center"),
        key_pegs_cell(result, ruleset.length, grid=grid, gaps=not tight(ruleset, narrow)),
    )


def _pegs_width(length: int, cell: int, gap: int) -> int:
    return length * cell + (length - 1) * gap


def history_columns(
    table: DataTable[object], ruleset: Ruleset, *, extra: tuple[tuple[str, int], ...] = (), narrow: bool = False,
    pegs: bool = True,
) -> int:
    """Give ``table`` the history columns (#, Guess, Black, White, Pegs unless not ``pegs``, then ``extra``)
    at fixed widths (tight ones for long codes and on narrow screens: see :func:`tight`).

    Returns the width the table needs (border and scrollbar included), so the layout never shifts
    as rows arrive.
    """
    close = tight(ruleset, narrow)
    columns = [
        ("#", 2),
        ("Guess", max(_pegs_width(ruleset.length, 3, 0 if close else 1), 8)),
        *((("B", 1), ("W", 1)) if close else (("Black", 5), ("White", 5))),
        *((("Pegs", max(_pegs_width(ruleset.length, 1, 0 if close else 1), 4)),) if pegs else ()),
        *extra,
    ]
    for label, width in columns:
        table.add_column(label, width=width, key=label.lower())
    padding = 2 * table.cell_padding
    return sum(width + padding for _, width in columns) + 2 + 1


def roomy(height: int, ruleset: Ruleset) -> bool:
    """True when a screen ``height`` rows tall can give every history row two lines (the peg grid)."""
    return height >= 2 * ruleset.guesses + 12


def short_count(count: tuple[int, bool]) -> str:
    """A count for a six-cell column: ``"1,896"``, ``"≈640"``, ``"≈18k"``, ``"≈9.6M"`` (≈ when estimated)."""
    n, exact = count
    prefix = "" if exact else "≈"
    if n < (100_000 if exact else 1_000):
        return f"{prefix}{n:,}"
    if n < 1_000_000:
        return f"{prefix}{n // 1000}k"
    if n < 10_000_000:
        return f"{prefix}{n / 1_000_000:.1f}M"
    return f"{prefix}{n // 1_000_000}M"
