"""Stepping through a recorded game guess by guess, with the coach's count (docs/play.md, *My stats and replays*).

A replay shows every board of the game (every player of a World of Mastermind game, hot-seat or
live table, even one who left before guessing; the player of a solo or daily game; HAL9000 in a flip game) as it was after
round ``step``: each board's first ``step`` guesses. Players guess in turn, so round ``n`` is
everyone's ``n``-th guess. After each guess the coach's count says how many codes still fitted
every answer so far — the same counting function the coach uses in a game
(:func:`wom_tui.domain.strategies.count_consistent`), with the clues the lifelines gave the
player by then: everything the player was told counts. A row spent on a lifeline says what it
revealed.

A variant table's record (docs/play.md, *Variants*) replays as the variant's truth: Quad's four answers per
row (from the four codes the record keeps; no coach's count), Liar's lying row marked (the coach counting
the codes that fit with one lie), Devious's code that fitted every answer where the code would be.

Every replay opens before the first guess (:data:`START`), whatever the kind of game: the player
steps through the game as it was played, the first guess included.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .clues import Clue, Clues, lifeline_text
from .codes import Feedback, Ruleset, feedback
from .records import GameRecord, PlayerRecord
from .solo import LIFELINE
from .variants import Variant
from .words import counted

Counter = Callable[[Ruleset, Sequence[tuple[str, Feedback]], Clues], tuple[int, bool]]
"""A function giving (codes that fit the history and the clues, whether that count is exact)."""

START = 0
"""The step every replay opens at: before the first guess."""


def _default_counter(ruleset: Ruleset, history: Sequence[tuple[str, Feedback]], clues: Clues) -> tuple[int, bool]:
    from .strategies import count_consistent

    return count_consistent(ruleset, history, clues)


def _liar_counter(ruleset: Ruleset, history: Sequence[tuple[str, Feedback]], clues: Clues) -> tuple[int, bool]:
    from .strategies.variants import codes_left

    return codes_left(Variant.LIAR, ruleset, list(history))


def quad_answers(codes: Sequence[str], guesses: Sequence[str]) -> tuple[tuple[str, tuple[Feedback | None, ...]], ...]:
    """Each guess and each code's answer, None for a code broken before that row (Quad never lies)."""
    rows: list[tuple[str, tuple[Feedback | None, ...]]] = []
    broken = [False] * len(codes)
    for guess in guesses:
        answers = tuple(None if broken[b] else feedback(code, guess) for b, code in enumerate(codes))
        broken = [done or guess == code for done, code in zip(broken, codes)]
        rows.append((guess, answers))
    return tuple(rows)


@dataclass(frozen=True)
class ReplayRow:
    """One guess on a board as the replay shows it."""

    number: int
    guess: str
    """The code guessed, or ``"LIFELINE"`` for a guess spent on a lifeline."""
    feedback: Feedback
    clue: Clue | None = None
    """What the lifeline revealed, on the first row it cost (None elsewhere, and on records that
    predate keeping it)."""

    @property
    def is_lifeline(self) -> bool:
        """True for a guess spent on a lifeline."""
        return self.guess == LIFELINE

    @property
    def lifeline_text(self) -> str:
        """``"LIFELINE: contains 3"``, ``"LIFELINE: 3 at position 2"``, ``"LIFELINE (cont.)"`` on a
        lifeline's second row, or ``""`` for a guess.
        """
        if not self.is_lifeline:
            return ""
        return lifeline_text(self.clue)


def remaining_text(count: tuple[int, bool] | None) -> str:
    """The coach's count as words: ``"12 codes still possible"``, ``"about 3,400 …"``, ``"1 code …"``."""
    if count is None:
        return ""
    number, exact = count
    noun = "code" if number == 1 else "codes"
    figure = f"{number:,}" if exact else f"about {number:,}"
    return f"{figure} {noun} still possible"


class Replay:
    """A recorded game seen one round at a time: :meth:`forward` / :meth:`back` move the step.

    The step starts at :data:`START` (empty boards) and runs from 0 to :attr:`rounds`.
    """

    def __init__(self, record: GameRecord, counter: Counter | None = None) -> None:
        self.record = record
        # Every seat of a World of Mastermind game has a board, also one that left before its first guess
        # (a live table goes on without them); in a flip game the code's owner has none.
        self.boards: tuple[PlayerRecord, ...] = tuple(
            p for p in record.players if p.guesses or record.kind == "wom")
        self.rounds = max((len(p.guesses) for p in self.boards), default=0)
        self._counter = counter or (_liar_counter if record.variant is Variant.LIAR else _default_counter)
        self._counts: dict[tuple[int, int], tuple[int, bool]] = {}
        self.step = START

    @property
    def ruleset(self) -> Ruleset:
        """The rules the game was played with."""
        return self.record.ruleset

    @property
    def variant(self) -> Variant:
        """The variant the game was played in (Classic for every record that says none)."""
        return self.record.variant

    # -- moving ----------------------------------------------------------------------------

    def forward(self) -> bool:
        """One round on; False (and no change) at the end."""
        if self.step >= self.rounds:
            return False
        self.step += 1
        return True

    def back(self) -> bool:
        """One round back; False (and no change) at the start."""
        if self.step <= 0:
            return False
        self.step -= 1
        return True

    def go_to(self, step: int) -> None:
        """Jump to ``step``, kept within 0 … :attr:`rounds`."""
        self.step = max(0, min(self.rounds, step))

    # -- what a board shows ----------------------------------------------------------------

    def rows(self, board: int, step: int | None = None) -> tuple[ReplayRow, ...]:
        """Board ``board``'s guesses up to round ``step`` (default: the current step)."""
        step = self.step if step is None else step
        player = self.boards[board]
        return tuple(ReplayRow(n, guess, fb, player.clue_at(n - 1))
                     for n, (guess, fb) in enumerate(player.guesses[:step], 1))

    def quad_rows(self, board: int, step: int | None = None) -> tuple[tuple[str, tuple[Feedback | None, ...]], ...]:
        """Quad: board ``board``'s guesses up to round ``step`` with each of its four codes' answers; () for a
        record without the four codes (any other variant).
        """
        step = self.step if step is None else step
        player = self.boards[board]
        if not player.codes:
            return ()
        return quad_answers(player.codes, [guess for guess, _ in player.guesses[:step]])

    def lied_row(self, board: int, step: int | None = None) -> int | None:
        """Liar: the row (0-based) of board ``board`` whose answer lied, once that row is shown by round ``step``;
        never in a daily code's replay (anyone may still play that code under another name, as the code itself).
        """
        step = self.step if step is None else step
        lied = self.boards[board].lied
        return lied if lied is not None and lied < step and self.record.kind != "daily" else None

    @property
    def secret_label(self) -> str:
        """What the code a board did not break is called: Devious held none, only a code that fitted."""
        return "Fitted every answer: " if self.variant is Variant.DEVIOUS else "The code: "

    def broke_by(self, board: int, step: int | None = None) -> bool:
        """True if board ``board``'s code was broken by round ``step``."""
        step = self.step if step is None else step
        player = self.boards[board]
        return player.broke and len(player.guesses) <= step

    def over(self, board: int, step: int | None = None) -> bool:
        """True once board ``board``'s last guess is shown by round ``step`` (a board without a guess: at the
        last round): where a World of Mastermind replay shows the code it held.
        """
        step = self.step if step is None else step
        guesses = len(self.boards[board].guesses)
        return step >= guesses and (guesses > 0 or step >= self.rounds)

    def secret_shown(self, board: int, step: int | None = None) -> tuple[bool, str | None]:
        """Whether board ``board``'s code is shown by round ``step``, and the code (None: the record did not
        keep it, as records kept before codes were). A World of Mastermind board that was not broken shows
        it once :meth:`over` (a broken one's last guess is its code), as a variant's solo game does (Quad's four
        codes, Devious's fitted one); other kinds never (a daily code's may still be played under another name).
        """
        keeps = self.record.kind == "wom" or self.record.kind == "solo" and self.variant is not Variant.CLASSIC
        shown = keeps and self.over(board, step) and not self.broke_by(board, step)
        return shown, self.boards[board].secret if shown else None

    def count_after(self, board: int, guesses: int) -> tuple[int, bool] | None:
        """Codes that still fitted board ``board``'s answers after its first ``guesses`` guesses.

        None before the first guess. Computed once per (board, guesses) and then remembered.
        """
        if guesses <= 0 or self.boards[board].codes:  # Quad: four codes, no one count
            return None
        guesses = min(guesses, len(self.boards[board].guesses))
        key = (board, guesses)
        if key not in self._counts:
            player = self.boards[board]
            history = [(g, fb) for g, fb in player.guesses[:guesses] if g != LIFELINE]
            self._counts[key] = self._counter(self.ruleset, history, player.clues_before(guesses))
        return self._counts[key]

    def counts_now(self) -> list[tuple[int, bool] | None]:
        """The coach's count for every board at the current step."""
        return [self.count_after(board, min(self.step, len(p.guesses))) for board, p in enumerate(self.boards)]

    def counted_now(self) -> bool:
        """True once every board's count at the current step is known (so :meth:`counts_now` is quick)."""
        for board, player in enumerate(self.boards):
            guesses = min(self.step, len(player.guesses))
            if guesses > 0 and not player.codes and (board, guesses) not in self._counts:
                return False
        return True

    def title(self) -> str:
        """``"Round 3 of 7"`` (``"Before the first guess"`` at step 0)."""
        if self.step == 0:
            return f"Before the first guess · {counted(self.rounds, 'round')}"
        return f"Round {self.step} of {self.rounds}"


__all__ = ["START", "Counter", "Replay", "ReplayRow", "quad_answers", "remaining_text"]
