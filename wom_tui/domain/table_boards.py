"""A live table's board under Quad, Devious or Liar (docs/play.md, *Variants*, *At a table*).

:class:`VariantBoard` stands where a classic table has a :class:`~wom_tui.domain.board.DecodingBoard`: one per
seat, the board that seat breaks; it answers as the variant's rules say and offers what the results engine
(:mod:`.wom_results`) reads of a board (``attempts_used``, ``solved``, ``history``, ``code_for_record``).
Everything it draws (Quad's three extra codes, Devious's ties, Liar's lie and its answer) comes from the
table's seed and the board's index, so a table read back from its JSON replays every answer the same.

- **Quad**: the code the maker set is board 1 of four; the other three are drawn from the seed. Every guess
  goes to the codes not broken yet; the board is broken when all four are.
- **Devious**: nobody sets a code; each guess gets the answer leaving the most codes that fit the board's own
  answers (ties by the seed). A lost board reveals a code that fitted every answer.
- **Liar**: the maker's code, and one of the first three answers (drawn from the seed) is a lie, never about
  a guess that breaks the code; the end says which.
"""

from __future__ import annotations

import functools
import random

from .board import Attempt
from .codes import Feedback, Ruleset, feedback
from .game import GameStateError
from .variants import LIE_WITHIN, QUAD_BOARDS, Variant, lie_answer

BOARD_VARIANTS = (Variant.QUAD, Variant.DEVIOUS, Variant.LIAR)
"""The variants whose table boards are :class:`VariantBoard` (Classic and Strict use the classic board)."""


class VariantBoard:
    """The board one seat breaks at a table of ``variant``; ``seed`` and ``index`` (the table's seed and the
    board's seat) draw whatever the variant draws.
    """

    def __init__(self, ruleset: Ruleset, variant: Variant, seed: int, index: int) -> None:
        if variant not in BOARD_VARIANTS:
            raise ValueError(f"{variant.label} is played on the classic board")
        self.ruleset = ruleset
        self.variant = variant
        self.seed = seed
        self.index = index
        self.codes: tuple[str, ...] = ()
        """The codes behind the shield: four in Quad, one in Liar, none in Devious."""
        self.rows: list[tuple[str, tuple[Feedback | None, ...]]] = []
        """Each guess and the answer of each code (None for a code broken before it)."""
        self.lie_at = self._rng("lie").randrange(LIE_WITHIN) if variant is Variant.LIAR else None
        """Liar: the answer (0-based) that lies, unless the guess broke the code."""

    def _rng(self, purpose: str) -> random.Random:
        return random.Random(f"{self.seed}:{purpose}:{self.index}")

    def copy(self) -> VariantBoard:
        """An independent board in the same state."""
        other = VariantBoard(self.ruleset, self.variant, self.seed, self.index)
        other.codes = self.codes
        other.rows = list(self.rows)
        return other

    # -- setting -------------------------------------------------------------------------------

    @property
    def is_set(self) -> bool:
        """True once the board can be played (Devious always can)."""
        return bool(self.codes) or self.variant is Variant.DEVIOUS

    def set_secret(self, code: str) -> None:
        """The maker's code behind the shield (Quad: with three drawn from the seed); allowed once."""
        if self.variant is Variant.DEVIOUS:
            raise GameStateError("Devious holds no code.")
        if self.codes:
            raise GameStateError("The code on this board is already set.")
        code = self.ruleset.parse(code, what="Code", secret=True)
        if self.variant is Variant.QUAD:
            rng = self._rng("quad")
            self.codes = (code, *(self.ruleset.random_code(rng) for _ in range(QUAD_BOARDS - 1)))
        else:
            self.codes = (code,)

    # -- playing -------------------------------------------------------------------------------

    @property
    def boards(self) -> int:
        """Codes on this board: four in Quad, else one."""
        return self.variant.boards

    def broken(self, board: int) -> bool:
        """True once code ``board`` (0-based) was guessed."""
        win = self.ruleset.length
        return any(answers[board] is not None and answers[board].solves(win)  # type: ignore[union-attr]
                   for _, answers in self.rows)

    @property
    def open_boards(self) -> tuple[int, ...]:
        """The codes still to break."""
        return tuple(b for b in range(self.boards) if not self.broken(b))

    def pairs(self, board: int = 0) -> list[tuple[str, Feedback]]:
        """Code ``board``'s guesses and answers (as told), up to the guess that broke it."""
        out = []
        for guess, answers in self.rows:
            answer = answers[board]
            if answer is None:
                break
            out.append((guess, answer))
        return out

    def guess(self, code: str) -> Feedback:
        """Play a guess on every code not broken; the answer of the first of them (:attr:`rows` has them all)."""
        if not self.is_set:
            raise GameStateError("No code has been set on this board yet.")
        if self.finished:
            raise GameStateError("This board is finished; no more guesses.")
        guess = self.ruleset.parse(code)
        answers = tuple(self._answer(board, guess) if not self.broken(board) else None for board in range(self.boards))
        self.rows.append((guess, answers))
        return next(a for a in answers if a is not None)

    def _answer(self, board: int, guess: str) -> Feedback:
        if self.variant is Variant.DEVIOUS:
            return _devious(self.ruleset, tuple(self.pairs(0)), guess, self._rng("devious").getrandbits(32))
        truth = feedback(self.codes[board], guess)
        if self.variant is Variant.LIAR and len(self.rows) == self.lie_at and not truth.solves(self.ruleset.length):
            return lie_answer(self.ruleset, truth, self._rng("lie-answer"))
        return truth

    def computer_histories(self) -> list[tuple[tuple[str, Feedback], ...]]:
        """What a computer player reads: the histories of the codes still to break."""
        return [tuple(self.pairs(b)) for b in self.open_boards]

    # -- what the results engine reads ------------------------------------------------------------

    @property
    def history(self) -> tuple[Attempt, ...]:
        """The first code's rows as told (Quad: the maker's code, up to its break)."""
        return tuple(Attempt(g, a) for g, a in self.pairs(0))

    @property
    def attempts_allowed(self) -> int:
        """How many guesses the board allows."""
        return self.ruleset.guesses

    @property
    def attempts_used(self) -> int:
        """Guesses played so far."""
        return len(self.rows)

    @property
    def attempts_left(self) -> int:
        """Guesses still allowed."""
        return self.ruleset.guesses - len(self.rows)

    @property
    def solved(self) -> bool:
        """True once every code on the board is broken."""
        return bool(self.rows) and not self.open_boards

    @property
    def out_of_attempts(self) -> bool:
        """True when every guess is spent with a code unbroken."""
        return not self.solved and self.attempts_left <= 0

    @property
    def finished(self) -> bool:
        """True when broken or out of guesses."""
        return self.solved or self.attempts_left <= 0

    def revealed(self) -> tuple[str, ...]:
        """The codes, once finished: Devious's stands for a code that fitted every answer (its winning guess
        when cornered); ``()`` for a Devious board never played.
        """
        if not self.finished:
            raise GameStateError("The codes are revealed only when the board is finished.")
        return self._codes_now()

    def _codes_now(self) -> tuple[str, ...]:
        if self.variant is not Variant.DEVIOUS:
            return self.codes
        if self.solved:
            return (self.rows[-1][0],)
        from .strategies.variants import devious_stand_in

        return (devious_stand_in(self.ruleset, self.pairs(0), self._rng("stand-in").getrandbits(32)),)

    def code_for_record(self) -> str | None:
        """The code for the record of a game that is over (the first code; Devious's fitted one)."""
        codes = self._codes_now()
        return codes[0] if codes else None

    @property
    def record_history(self) -> tuple[Attempt, ...]:
        """The guesses a record keeps: Quad's every guess with the first code's true answer (the record keeps
        the four codes, each code's answers follow from them); the others' answers as told.
        """
        if self.variant is Variant.QUAD and self.codes:
            return tuple(Attempt(g, feedback(self.codes[0], g)) for g, _ in self.rows)
        return self.history

    def reveal_lines(self, name: str) -> tuple[str, ...]:
        """What the end says of the board ``name`` broke: Quad's four codes, Devious's fitted code, Liar's lie."""
        if self.variant is Variant.DEVIOUS:
            if self.solved:
                return (f"{name} cornered Devious with {self.rows[-1][0]}.",)
            codes = self._codes_now()
            return (f"Devious held no code against {name}; {codes[0]} fitted every answer.",) if codes else ()
        if self.variant is Variant.LIAR:
            return (self.lie_line(name),)
        return (f"{name}'s four codes were {', '.join(self.codes)}.",) if self.codes else ()

    @property
    def lied_row(self) -> int | None:
        """Liar: the row (0-based) whose answer was a lie, once it was told (None: no lie, or not yet)."""
        if self.lie_at is None or self.lie_at >= len(self.rows):
            return None
        guess, answers = self.rows[self.lie_at]
        return None if answers[0] == feedback(self.codes[0], guess) else self.lie_at

    def lie_line(self, name: str) -> str:
        """Which answer lied on ``name``'s board (or that the lie never came)."""
        assert self.lie_at is not None
        if self.lie_at >= len(self.rows):
            return f"{name}'s board: the lie was to be the answer to guess #{self.lie_at + 1}; it never came."
        guess, answers = self.rows[self.lie_at]
        told, truth = answers[0], feedback(self.codes[0], guess)
        assert told is not None
        if told == truth:
            return f"{name} broke the code with guess #{self.lie_at + 1}, the one that was to lie."
        return (f"{name}'s board lied at guess #{self.lie_at + 1}: it said {told.black} black, {told.white} white; "
                f"the truth was {truth.black} black, {truth.white} white.")


@functools.lru_cache(maxsize=4096)
def _devious(ruleset: Ruleset, history: tuple[tuple[str, Feedback], ...], guess: str, seed: int) -> Feedback:
    """Devious's answer, kept: a table is read back (every answer replayed) by each process at each change, and
    the same board's answers would be counted again each time (tens of ms on 5 × 8).
    """
    from .strategies.variants import devious_answer

    return devious_answer(ruleset, list(history), guess, seed)


__all__ = ["BOARD_VARIANTS", "VariantBoard"]
