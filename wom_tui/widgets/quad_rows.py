"""Quad's board: one row per guess, the guess as pegs and the answer of each of the four codes beside it.

docs/play.md, *Variants*. A row reads `` 3  R  G  B  Y   2B1W   ✓    ·   0B2W``: ``✓`` the code this guess broke,
``·`` one broken before it. It fits a live table's left column at 80×24 and at 60×20 (38 columns on 4 × 6).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from ..domain.codes import Feedback, Ruleset
from .pegs import code_pegs


def _pegs(guess: str, ruleset: Ruleset) -> Text:
    return code_pegs(guess, ruleset.palette, gap="")  # no gaps: the row fits 38 columns on 4 × 6


def answer_cell(answer: Feedback | None, ruleset: Ruleset) -> Text:
    """One code's answer in five columns: ``2B1W``, ``✓`` (broken now) or ``·`` (broken before)."""
    if answer is None:
        return Text("  ·  ", style="dim")
    if answer.solves(ruleset.length):
        return Text("  ✓  ", style="bold green")
    return Text(f"{answer.black}B{answer.white}W ")


def quad_text(rows: Sequence[tuple[str, Sequence[Feedback | None]]], ruleset: Ruleset) -> Text:
    """Every row, with a header naming the four codes (plain text: the guesses are the player's own)."""
    pegs = len(_pegs(ruleset.palette.symbols[0] * ruleset.length, ruleset).plain)
    text = Text(no_wrap=True, overflow="ellipsis", end="")
    text.append(" #  " + "Guess".ljust(pegs) + "  " + "".join(f"  {n}  " for n in range(1, 5)), style="bold")
    for number, (guess, answers) in enumerate(rows, start=1):
        text.append(f"\n{number:>2}  ")
        text.append_text(_pegs(guess, ruleset))
        text.append("  ")
        for answer in answers:
            text.append_text(answer_cell(answer, ruleset))
    return text


class QuadRows(VerticalScroll):
    """A Quad board that scrolls to its newest guess."""

    DEFAULT_CSS = """
    QuadRows { height: 1fr; }
    QuadRows > Static { width: auto; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, can_focus=False)
        self._shown: tuple[object, ...] | None = None

    def compose(self) -> ComposeResult:
        yield Static(Text(""), id="quad-rows-text")

    def show_rows(self, rows: Sequence[tuple[str, Sequence[Feedback | None]]], ruleset: Ruleset) -> None:
        """Show ``rows`` (redrawn only when they changed), the newest in sight."""
        shown = (tuple((g, tuple(a)) for g, a in rows), ruleset)
        if shown == self._shown:
            return
        self._shown = shown
        self.query_one("#quad-rows-text", Static).update(quad_text(rows, ruleset))
        self.call_after_refresh(self.scroll_end, animate=False)


__all__ = ["QuadRows", "answer_cell", "quad_text"]
