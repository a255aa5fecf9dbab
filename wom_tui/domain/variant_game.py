"""A solo game of a variant (Quad, Devious, Strict, Liar, or Classic): a person breaks the computer's codes.

docs/play.md, *Variants*. :class:`VariantGame` is a UI-free state machine like
:class:`~wom_tui.domain.solo.SoloGame` (docs/develop.md, *A new mode*): ``status`` and ``awaiting`` say
where it stands, :meth:`VariantGame.guess` returns what happened (:class:`VariantTurn`), a Strict guess
that does not fit is a :class:`~wom_tui.domain.game.Refusal` with the reason, and
:meth:`VariantGame.as_json` / :meth:`VariantGame.from_json` write and read it back at any point (its shape,
checked strictly, is :class:`~wom_tui.domain.shapes.VariantGameShape`). A computer (HAL9000, VIKI) plays
one with :meth:`VariantGame.computer_guess`; the daily code of a variant is :func:`daily_variant_game`.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from dataclasses import dataclass
from datetime import date
from typing import Any

from .board import Attempt
from .codes import Feedback, Ruleset, feedback
from .game import Awaiting, GameKind, GameStateError, Move, Refusal, Status
from .records import GameRecord, PlayerRecord
from .shapes import VariantGameShape, shaped
from .variants import LIE_WITHIN, Variant, lie_answer, lie_turn, strict_refusal
from .words import counted, plural

GUEST = "Guest"
"""The name a guest plays under."""


@dataclass(frozen=True)
class VariantTurn:
    """What a guess gave: the answer on each board (``None`` on a board broken before), the boards it
    broke (0-based), and the lines to show.
    """

    answers: tuple[Feedback | None, ...]
    broke: tuple[int, ...]
    lines: tuple[str, ...]


@dataclass(frozen=True)
class VariantRow:
    """One guess and the answer each board gave it (``None`` on a board already broken)."""

    guess: str
    answers: tuple[Feedback | None, ...]


class VariantGame:
    """One person breaks the computer's code(s) under a variant's rules.

    ``secrets`` are the codes (four in Quad, none for Devious), ``seed`` breaks Devious's ties, ``lie_at``
    is the answer (0-based) that Liar falsifies. Use :meth:`new` to draw them from one ``random.Random``.
    """

    def __init__(
        self,
        variant: Variant,
        ruleset: Ruleset,
        secrets: tuple[str, ...],
        *,
        seed: int = 0,
        lie_at: int | None = None,
        player: str = GUEST,
        is_user: bool = False,
    ) -> None:
        refusal = variant.refusal(ruleset)
        if refusal is not None:
            raise Refusal(refusal)
        self.variant = variant
        self.ruleset = ruleset
        expected = 0 if variant is Variant.DEVIOUS else variant.boards
        if len(secrets) != expected:
            raise ValueError(f"a {variant.label} game has {expected} codes, not {len(secrets)}")
        self.secrets = tuple(ruleset.parse(s, what="Code", secret=True) for s in secrets)
        self.seed = seed
        if (lie_at is None) != (variant is not Variant.LIAR) or lie_at is not None and not 0 <= lie_at < LIE_WITHIN:
            raise ValueError("a Liar game, and only one, has its lie among the first answers")
        self.lie_at = lie_at
        self.rows: list[VariantRow] = []
        self.abandoned = False
        self.player = player
        self.is_user = is_user
        self.coach = False
        """True when the player chose the coach: kept with the game, so a resumed game has it too."""
        self.coach_notes: dict[int, str] = {}
        """What the coach said after each guess (counted from 1), kept so a resumed game shows it again."""

    @classmethod
    def new(cls, variant: Variant, base: Ruleset, rng: random.Random, player: str = GUEST,
            is_user: bool = False) -> VariantGame:
        """A fresh game of ``variant`` on ``base`` (its guesses set by the variant), everything drawn from ``rng``."""
        ruleset = variant.ruleset(base)
        refusal = variant.refusal(ruleset)
        if refusal is not None:
            raise Refusal(refusal)
        secrets = tuple(ruleset.random_code(rng) for _ in range(0 if variant is Variant.DEVIOUS else variant.boards))
        return cls(variant, ruleset, secrets, seed=rng.getrandbits(32),
                   lie_at=lie_turn(rng) if variant is Variant.LIAR else None, player=player, is_user=is_user)

    # -- state -------------------------------------------------------------------------------

    @property
    def boards(self) -> int:
        """How many boards the player breaks (4 in Quad, else 1)."""
        return self.variant.boards

    def history(self, board: int = 0) -> tuple[Attempt, ...]:
        """The rows of one board, up to and including the guess that broke it (the answers as shown)."""
        out = []
        for row in self.rows:
            answer = row.answers[board]
            if answer is None:
                break
            out.append(Attempt(row.guess, answer))
        return tuple(out)

    def broken(self, board: int) -> bool:
        """True once the code of ``board`` was guessed."""
        return any(a is not None and a.solves(self.ruleset.length) for a in (r.answers[board] for r in self.rows))

    @property
    def open_boards(self) -> tuple[int, ...]:
        """The boards still to break."""
        return tuple(b for b in range(self.boards) if not self.broken(b))

    @property
    def guesses_used(self) -> int:
        """Guesses played so far."""
        return len(self.rows)

    @property
    def guesses_left(self) -> int:
        """Guesses still allowed."""
        return self.ruleset.guesses - len(self.rows)

    @property
    def won(self) -> bool:
        """True once every board is broken."""
        return bool(self.rows) and not self.open_boards

    @property
    def over(self) -> bool:
        """True once won or every guess is spent."""
        return self.won or self.guesses_left <= 0

    @property
    def status(self) -> Status:
        """``GUESSING`` until won or lost (``FINISHED``), or ``ABANDONED``."""
        if self.over:
            return Status.FINISHED
        return Status.ABANDONED if self.abandoned else Status.GUESSING

    @property
    def awaiting(self) -> Awaiting | None:
        """The player's next guess while the game is on."""
        return Awaiting(Move.GUESS, self.player) if self.status == Status.GUESSING else None

    @property
    def told(self) -> str:
        """What the player is told as the game starts: the variant's rules."""
        return f"{self.variant.label}: {self.variant.rules}"

    # -- playing -----------------------------------------------------------------------------

    def refusal(self, guess: str) -> str | None:
        """Why the rules refuse the (parsed) ``guess`` now, or None: Strict's check on every open board."""
        if self.variant is not Variant.STRICT:
            return None
        return strict_refusal(guess, [(a.guess, a.feedback) for a in self.history(0)])

    def guess(self, text: str) -> VariantTurn:
        """Play a typed guess on every open board; InvalidCode or :class:`Refusal` (costing nothing) if it
        cannot be played.
        """
        if self.status != Status.GUESSING:
            raise GameStateError("The game is over.")
        code = self.ruleset.parse(text)
        reason = self.refusal(code)
        if reason is not None:
            raise Refusal(reason)
        answers = tuple(self._answer(board, code) if not self.broken(board) else None for board in range(self.boards))
        before = set(self.open_boards)
        self.rows.append(VariantRow(code, answers))
        broke = tuple(sorted(before - set(self.open_boards)))
        return VariantTurn(answers, broke, self._lines(len(self.rows)))

    def _answer(self, board: int, code: str) -> Feedback:
        if self.variant is Variant.DEVIOUS:
            from .strategies.variants import devious_answer

            return devious_answer(self.ruleset, self._pairs(0), code, self.seed)
        truth = feedback(self.secrets[board], code)
        if self.variant is Variant.LIAR and len(self.rows) == self.lie_at and not truth.solves(self.ruleset.length):
            return lie_answer(self.ruleset, truth, random.Random(f"lie:{self.seed}"))
        return truth

    def _pairs(self, board: int) -> list[tuple[str, Feedback]]:
        return [(a.guess, a.feedback) for a in self.history(board)]

    def abandon(self) -> None:
        """Drop the game before its end: it is never recorded."""
        if self.status != Status.GUESSING:
            raise GameStateError("The game is over.")
        self.abandoned = True

    def computer_guess(self, strategy: str, rng: random.Random) -> str:
        """The guess HAL9000 (``"expert"``) or VIKI (``"consistent"``) would play now (a screen runs it in a worker)."""
        from .strategies.variants import variant_guess

        return variant_guess(strategy, self.variant, self.ruleset, [self._pairs(b) for b in self.open_boards], rng)

    # -- what is said ---------------------------------------------------------------------------

    def _lines(self, number: int) -> tuple[str, ...]:
        row = self.rows[number - 1]
        lines = []
        for board, answer in enumerate(row.answers):
            if answer is None:
                continue
            where = f" on board {board + 1}" if self.boards > 1 else ""
            if answer.solves(self.ruleset.length):
                lines.append(f"Guess #{number}: {row.guess} broke the code{where}!")
            else:
                lines.append(f"Guess #{number}: {row.guess} → {answer.black} black, {answer.white} white{where}.")
        return tuple(lines)

    def transcript(self) -> tuple[str, ...]:
        """Everything said so far, in order: the rules told, every answer, and the end."""
        lines = [self.told]
        for number in range(1, len(self.rows) + 1):
            lines.extend(self._lines(number))
            if number in self.coach_notes:
                lines.append(self.coach_notes[number])
        if self.over:
            lines.append(self.result_message())
            lines.extend(self.reveal_lines())
        return tuple(lines)

    def coach_line(self, number: int) -> str:
        """The coach's verdict on guess ``number`` (from 1) under the variant's rules: could it have been the
        code (in Liar: allowing the one lie), and how many codes remain on each open board after it.

        Read-only and possibly slow on a big ruleset: a screen runs it in a worker.
        """
        from .solo import codes_remain, count_text
        from .strategies.variants import codes_left, could_be

        guess = self.rows[number - 1].guess
        verdicts, counts = [], []
        for board in range(self.boards):
            history = self._pairs(board)
            if len(history) < number:
                continue  # broken before this guess
            before, after = history[: number - 1], history[:number]
            verdicts.append(could_be(self.variant, self.ruleset, guess, before))
            if not after[-1][1].solves(self.ruleset.length):
                counts.append((board, codes_left(self.variant, self.ruleset, after)))
        allowing = " (allowing one lie)" if self.variant is Variant.LIAR else ""
        if self.boards == 1:
            verdict = "could have been the code" if verdicts[0] else "could not have been the code"
        else:
            fits = sum(verdicts)
            verdict = f"could have been the code on {fits} of {len(verdicts)} {plural(len(verdicts), 'board')}"
        if self.boards == 1:
            left = f" {codes_remain(counts[0][1])}" if counts else ""
        else:
            left = " Codes left: " + ", ".join(f"board {b + 1}: {count_text(c)}" for b, c in counts) + "." if counts else ""
        return f"Coach: {guess} {verdict}{allowing}.{left}"

    def result_message(self) -> str:
        """``"You broke all four codes in 7 guesses!"`` or ``"Out of guesses: 1 code of 4 left unbroken."``."""
        if not self.over:
            raise GameStateError("The game is not over.")
        if self.won:
            what = "all four codes" if self.boards > 1 else "the code"
            if self.variant is Variant.DEVIOUS:
                what = "Devious into a corner"
            return f"You broke {what} in {counted(self.guesses_used, 'guess')}!"
        left = len(self.open_boards)
        return f"Out of guesses: {left} of {self.boards} codes left unbroken." if self.boards > 1 else "Out of guesses."

    def reveal(self) -> tuple[str, ...]:
        """The codes, only once the game is over; Devious never held one, so a code that fitted every answer
        (drawn from its seed) stands for it.
        """
        if not self.over:
            raise GameStateError("The codes are revealed only when the game is over.")
        if self.variant is not Variant.DEVIOUS:
            return self.secrets
        if self.won:
            return (self.rows[-1].guess,)
        from .strategies.variants import devious_stand_in

        return (devious_stand_in(self.ruleset, self._pairs(0), self.seed),)

    def reveal_lines(self) -> tuple[str, ...]:
        """What the end reveals: the codes, and in a Liar game which answer was the lie."""
        codes = self.reveal()
        if self.variant is Variant.DEVIOUS:
            lines = [] if self.won else [f"Devious held no code; {codes[0]} fitted every answer."]
        elif self.boards > 1:
            lines = [f"The codes were {', '.join(codes)}."]
        else:
            lines = [f"The code was {codes[0]}."]
        if self.variant is Variant.LIAR:
            lines.append(self.lie_line())
        return tuple(lines)

    def lie_row(self) -> int | None:
        """Once a Liar game is over: the guess (0-based) whose answer was the lie, or None when none lied (the
        code was broken before the lie came).
        """
        if not self.over or self.lie_at is None:
            raise GameStateError("The lie is revealed only when a Liar game is over.")
        if self.lie_at >= len(self.rows) or self.rows[self.lie_at].answers[0] == feedback(
            self.secrets[0], self.rows[self.lie_at].guess
        ):
            return None
        return self.lie_at

    def lie_line(self) -> str:
        """Which answer was the lie (once over): ``"The lie was the answer to guess #2: …"``."""
        lied = self.lie_row()
        if lied is None:
            return f"You broke the code before the lie came (it was to be the answer to guess #{(self.lie_at or 0) + 1})."
        row = self.rows[lied]
        told, truth = row.answers[0], feedback(self.secrets[0], row.guess)
        assert told is not None
        return (f"The lie was the answer to guess #{lied + 1}: it said {told.black} black, {told.white} white; "
                f"the truth was {truth.black} black, {truth.white} white.")

    # -- the record ----------------------------------------------------------------------------

    def record(self, name: str | None = None, is_user: bool | None = None,
               kind: GameKind = GameKind.SOLO) -> GameRecord:
        """The finished game's record (kind solo, or ``kind`` daily for a variant's daily code) with its
        variant and what its replay needs: every guess (Quad's with the first code's true answer, the four
        codes kept; the others' answers as told), Liar's lying row, Devious's fitted code as the secret.
        """
        if not self.over:
            raise GameStateError("Only a finished game has a record.")
        quad = self.boards > 1
        if quad:
            played = tuple(Attempt(row.guess, feedback(self.secrets[0], row.guess)) for row in self.rows)
        else:
            played = self.history(0)
        player = PlayerRecord(
            self.player if name is None else name, self.is_user if is_user is None else is_user,
            self.won, self.guesses_used, played, secret=self.reveal()[0],
            codes=self.secrets if quad else (), lied=self.lie_row() if self.variant is Variant.LIAR else None,
        )
        return GameRecord(kind, self.ruleset, (player,), variant=self.variant)

    # -- writing and reading back -------------------------------------------------------------

    def as_json(self) -> dict[str, Any]:
        """The whole game as plain JSON data, at any point (the codes included)."""
        return {
            "kind": "variant",
            "variant": self.variant.as_json(),
            "ruleset": self.ruleset.as_json(),
            "secrets": list(self.secrets),
            "seed": self.seed,
            "lie_at": self.lie_at,
            "rows": [[row.guess, [None if a is None else [a.black, a.white] for a in row.answers]] for row in self.rows],
            "abandoned": self.abandoned,
            "player": self.player,
            "is_user": self.is_user,
            "coach": self.coach,
            "coach_notes": {str(number): line for number, line in sorted(self.coach_notes.items())},
        }

    @classmethod
    def from_json(cls, data: Any) -> VariantGame:
        """Rebuild a game from :meth:`as_json` data; ValueError with the reason if it is not one (every answer
        is played again: a row the rules would not give is refused).
        """
        shape = shaped(data, VariantGameShape, {"": "not a variant game: {reason}"})
        try:
            game = cls(shape.variant, Ruleset.from_json(shape.ruleset), tuple(shape.secrets), seed=shape.seed,
                       lie_at=shape.lie_at, player=shape.player, is_user=shape.is_user)
        except Refusal as exc:
            raise ValueError(f"not a variant game: {exc.reason}") from None
        if len(shape.rows) > game.ruleset.guesses:
            raise ValueError("not a variant game: more guesses than allowed")
        for number, (guess, answers) in enumerate(shape.rows, start=1):
            if game.over or len(answers) != game.boards:
                raise ValueError(f"not a variant game: guess #{number} cannot be played")
            told = tuple(None if a is None else Feedback(*a) for a in answers)
            try:
                turn = game.guess(guess)
            except Refusal as exc:
                raise ValueError(f"not a variant game: guess #{number}: {exc.reason}") from None
            if turn.answers != told:  # every answer, Devious's and the lie included, follows from the seed
                raise ValueError(f"not a variant game: the answer to guess #{number} does not match")
        game.abandoned = shape.abandoned
        game.coach = shape.coach
        if not all(key.isdigit() and 1 <= int(key) <= len(game.rows) for key in shape.coach_notes):
            raise ValueError("not a variant game: a coach's note on a guess not played")
        game.coach_notes = {int(key): line for key, line in shape.coach_notes.items()}
        return game

    def __repr__(self) -> str:
        return f"VariantGame({self.variant.value}, {self.ruleset.key}, guesses_used={self.guesses_used})"


def check_variant_json(data: Any) -> dict[str, Any]:
    """``data`` if it is a variant game still being played as :meth:`VariantGame.as_json` gives it (what a
    store would keep per identity to resume it); ``ValueError`` with the reason if not.
    """
    game = VariantGame.from_json(data)
    if game.status != Status.GUESSING:
        raise ValueError("not a variant game in progress: it is over or abandoned")
    return dict(data)


def daily_variant_game(secret: bytes, day: date, variant: Variant, base: Ruleset, player: str = GUEST,
                       is_user: bool = False) -> VariantGame:
    """The daily code of ``variant`` on ``day``: the same codes, lie and ties for everyone that day (drawn
    from the data folder's daily ``secret``, as :func:`~wom_tui.domain.daily.daily_code` draws the classic one).
    """
    if not isinstance(secret, bytes) or len(secret) < 16:
        raise ValueError("the daily secret must be at least 16 bytes")
    digest = hmac.new(secret, f"variant:{variant.value}:{day.isoformat()}".encode(), hashlib.sha256).digest()
    return VariantGame.new(variant, base, random.Random(digest), player=player, is_user=is_user)


__all__ = ["GUEST", "VariantGame", "VariantRow", "VariantTurn", "check_variant_json", "daily_variant_game"]
