"""A table of World of Mastermind played from separate terminals, as a UI-free state machine.

For players: docs/play.md, *Playing together*.

A table has rules (a ruleset whose ``guesses`` are the attempts, 5–10) and 2–4 seats. Its phases:

* ``"open"``: the creator sits in seat 1 and may fill seats with HAL9000 or VIKI; others take a free
  seat and may stand up again. The creator starts the game once every seat is filled, or closes it.
* ``"making"``: each seat sets the code the NEXT seat must break (the last seat's code is the
  first's); computers set theirs at once. The game begins when every code is set.
* ``"guessing"``: everyone breaks a different code at the same time, without turns. Everybody sees
  everyone's progress (attempts used, broken or not), never another's guesses or any code.
  Computers play at a human pace: :meth:`Table.next_due` says when their next move is due.
* ``"finished"``: results from :mod:`.wom_results`, the engine :class:`.wom.WomGame` uses too.
* ``"closed"``: the creator closed the table before the start, or left it, or it was damaged.

A per-guess clock (``guess_clock`` seconds, off by default): while the codes are broken, each person
has that long for each guess; one whose time runs out (:meth:`Table.tick`) stops, and the code they
were breaking counts as not broken — as for a seat that is gone, but they stay at the table.

Invitations and rematch: the creator may invite people by name to the free seats (:meth:`Table.invite`);
an invited person accepts (:meth:`Table.accept`: they take a free seat) or declines. A table opened by an
invitation or as a rematch starts by itself once every seat is filled (``auto_start``). At a finished
table, "again" (:meth:`Table.rematch`) opens a new table with the same seats: the proposer in seat 1,
the computers seated, everyone else invited.

Dropping out: a seat whose session is gone keeps its place for ``grace`` seconds, and the same
person (same name, registered or guest) may :meth:`Table.resume` exactly where they were. After the
grace, or after a confirmed :meth:`Table.leave`, the seat is *gone*: the code it was breaking counts
as not broken (a code it never set is drawn at random), and the game goes on.

The table never reads the wall clock: every method that depends on time takes ``now`` (seconds).
Every refusal raises :class:`Refused` with the ``reason`` a person should read, and changes nothing.
:meth:`Table.to_json` / :meth:`Table.from_json` round-trip every state; ``from_json`` is strict.
"""

from __future__ import annotations

import copy
import dataclasses
import random
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

import msgspec

from .board import Attempt, DecodingBoard
from .codes import MAX_DIGITS, WOM_RULESET, Feedback, InvalidCode, Ruleset
from .game import Refusal
from .players import HumanPlayer, Player, computer_player
from .records import GameRecord
from .shapes import Count, Number, shaped
from .users import COMPUTER_NAMES, NameRejected, check_name, computer_name, name_key
from .table_boards import VariantBoard
from .variants import LIAR_GUESSES, LIE_WITHIN, QUAD_BOARDS, QUAD_GUESSES, Variant, strict_refusal
from .wom import MAX_ATTEMPTS, MAX_PLAYERS, MIN_ATTEMPTS, MIN_PLAYERS
from .wom_results import GameResults, board_outcome, game_record, game_results
from .waits import CODE_CLOCK, SEAT_GRACE
from .words import counted

TABLE_VARIANTS = tuple(Variant)
"""The variants a live table plays: every one (docs/play.md, *Variants*, *At a table*)."""

_TABLE_RULES = {
    Variant.CLASSIC: Variant.CLASSIC.rules,
    Variant.STRICT: "every guess must fit every answer on your board so far; one that does not is refused, "
                    "with the reason.",
    Variant.QUAD: (f"each board has {QUAD_BOARDS} codes, the one the player before you set and three the table "
                   f"draws; every guess goes to all of them. Break all {QUAD_BOARDS} in {QUAD_GUESSES} guesses."),
    Variant.DEVIOUS: ("nobody sets a code: the table answers each guess with the answer leaving the most codes, "
                      "never one no code could give. Corner it; nobody earns points for making."),
    Variant.LIAR: (f"on each board one of the first {LIE_WITHIN} answers is a lie (never about a guess that "
                   f"breaks the code); the end reveals which. {LIAR_GUESSES} guesses."),
}

OPEN, MAKING, GUESSING, FINISHED, CLOSED = "open", "making", "guessing", "finished", "closed"
PHASES = (OPEN, MAKING, GUESSING, FINISHED, CLOSED)

COMPUTER_PACE = (2.0, 5.0)
"""Seconds between two guesses of a computer player: drawn between these bounds."""
GUESS_CLOCKS = (30.0, 60.0, 120.0, 300.0)
"""The per-guess clocks a table may be opened with (seconds); None: no clock."""
LOG_LINES = 40
"""Public announcements kept on a table (the newest)."""

_SESSION = re.compile(r"[A-Za-z0-9_.:\-]{1,64}")
_TABLE_ID = re.compile(r"[A-Za-z0-9_\-]{1,64}")


class Refused(Refusal):
    """An action the table does not allow now; ``reason`` is the sentence shown to the person."""


class TableDataError(ValueError):
    """A table's JSON that is not a valid table; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def check_table_id(value: Any) -> str:
    """``value`` if it is a table id (1–64 letters, digits, ``_`` or ``-``), else :class:`TableDataError`."""
    if not isinstance(value, str) or _TABLE_ID.fullmatch(value) is None:
        raise TableDataError(f"{value!r} is not a table id")
    return value


@dataclass(frozen=True)
class SeatHolder:
    """A person at a table: a registered name or a guest label, and the session they sit from.

    Two holders are the same person when their names match ignoring case and both are registered
    or both are guests; the session may differ (a person who comes back on a new connection).
    """

    name: str
    session: str
    registered: bool

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise ValueError("a seat holder's name must be a string")
        try:
            check_name(self.name)
        except NameRejected as exc:
            raise ValueError(f"{self.name!r} cannot sit at a table: {exc.reason}") from None
        if not isinstance(self.session, str) or _SESSION.fullmatch(self.session) is None:
            raise ValueError(f"{self.session!r} is not a session id")
        if type(self.registered) is not bool:
            raise ValueError("'registered' must be true or false")

    @property
    def identity(self) -> tuple[bool, str]:
        """What stays the same when the person returns on another session: a registered user's name.
        A guest has nothing that proves it is the same person (no key, and guest numbers are reused),
        so a guest is only its own session: a guest who reconnects is a new guest, and another guest
        given the same number never takes over the seat of one who dropped out.
        """
        return (True, name_key(self.name)) if self.registered else (False, self.session)

    def as_json(self) -> dict[str, Any]:
        """The holder as plain JSON data."""
        return {"name": self.name, "session": self.session, "registered": self.registered}

    @classmethod
    def from_json(cls, data: Any) -> SeatHolder:
        """Rebuild from :meth:`as_json` data; :class:`TableDataError` if it is not one."""
        try:
            return shaped(data, _HolderShape, what="a seat holder").holder()
        except ValueError as exc:
            raise TableDataError(str(exc)) from None


class _HolderShape(msgspec.Struct, forbid_unknown_fields=True):
    name: str
    registered: bool
    session: str

    def holder(self) -> SeatHolder:
        return SeatHolder(self.name, self.session, self.registered)

TABLE_BRIEF = {
    Variant.CLASSIC: "",
    Variant.QUAD: f"Quad: {QUAD_BOARDS} codes a board, {QUAD_GUESSES} attempts.",
    Variant.DEVIOUS: "Devious: no codes set; the table answers.",
    Variant.STRICT: "Strict: each guess must fit the answers.",
    Variant.LIAR: f"Liar: one early answer lies; {LIAR_GUESSES} attempts.",
}
"""Each variant at a table in one short line (at most 46 characters: one line of the table form at 60×20)."""


# ---------------------------------------------------------------- views (what a viewer may see)


@dataclass(frozen=True)
class SeatView:
    """One seat as everybody sees it: who sits there and their progress, never a code or a guess."""

    index: int
    name: str | None
    kind: str
    """``"free"``, ``"person"`` or ``"computer"``."""
    registered: bool
    away: bool
    """The person's session is gone; they may still come back within the grace."""
    gone: bool
    """The person left or did not come back in time: their code counts as not broken."""
    code_set: bool
    """This seat has set the code the next seat breaks."""
    attempts_used: int
    broke: bool
    done: bool
    """Broken, out of attempts, gone, or out of time."""
    deadline: float | None = None
    """With a per-guess clock: when this person's next guess is due (None: no clock, or not guessing)."""
    timed_out: bool = False
    """The person's time for a guess ran out: the code they were breaking counts as not broken."""
    away_until: float | None = None
    """The person is away: when their seat's grace runs out (None: not away)."""
    berserk: bool = False
    """The person plays on half the clock (a Code Arena game, docs/play.md)."""


@dataclass(frozen=True)
class OwnView:
    """What only the seat's own person sees: the board they break and the code they still owe."""

    history: tuple[Attempt, ...]
    attempts_left: int
    breaking_code_of: str
    """The name of whoever set the code on this board."""
    code_for: str | None
    """During code making, the name of the seat whose code this person must still set; else None."""
    done: bool
    rows: tuple[tuple[str, tuple[Feedback | None, ...]], ...] = ()
    """At a Quad table: each guess and the answer of each of the four codes (None: broken before)."""
    lied_row: int | None = None
    """At a Liar table once it is over: the row (0-based) of this board whose answer lied."""


@dataclass(frozen=True)
class TableView:
    """A table as one viewer sees it (a seated person or a spectator)."""

    table_id: str
    version: int
    phase: str
    ruleset: Ruleset
    creator: str
    seats: tuple[SeatView, ...]
    you: int | None
    """The viewer's seat, or None for a spectator."""
    own: OwnView | None
    log: tuple[str, ...]
    results: GameResults | None
    closed_reason: str | None
    next_due: float | None
    guess_clock: float | None = None
    """Seconds each person has for each guess (None: no clock)."""
    invited: tuple[str, ...] = ()
    """Names invited to a free seat (not yet answered)."""
    rematch_id: str | None = None
    """Once over: the table "again" opened."""
    final: tuple[FinalRow, ...] | None = None
    """The results table once finished (the same for every viewer, codes revealed), else None."""
    game_id: str | None = None
    """The id the finished game is recorded under (for its rating changes)."""
    rated: bool = True
    """False: the game is recorded unrated (a quick match of one network's players)."""
    code_deadline: float | None = None
    """While codes are being set: when the table draws a code for each person who has not set theirs."""
    variant: Variant = Variant.CLASSIC
    """The variant played (docs/play.md, *Variants*)."""
    reveal: tuple[str, ...] = ()
    """Once over: what Quad's, Devious's and Liar's boards reveal (the four codes, the code that fitted, the lie),
    one line a board."""

    @property
    def attempts(self) -> int:
        """Attempts each player is allowed."""
        return self.ruleset.guesses

    @property
    def free_seats(self) -> tuple[int, ...]:
        """Indexes of the seats nobody holds."""
        return tuple(s.index for s in self.seats if s.kind == "free")


@dataclass(frozen=True)
class FinalRow:
    """One line of a finished table's results (see :meth:`Table.final_rows`)."""

    seat: int
    name: str
    code: str
    """The code this seat had to break (set by the seat before it), revealed once the game is over."""
    broke: bool
    attempts: int
    points: int | None
    """None for a computer or a guest (they earn no points)."""
    breaking: int | None = None
    """Of ``points``, those for breaking the code (None with ``points``)."""
    making: int | None = None
    """Of ``points``, those for making the next seat's code (None with ``points``)."""


# ---------------------------------------------------------------- seats


@dataclass
class _Seat:
    computer: str | None = None
    holder: SeatHolder | None = None
    away_since: float | None = None
    gone: bool = False
    code: str | None = None
    """The code this seat set for the next seat: a secret that never leaves the table."""
    guesses: list[str] = field(default_factory=list)
    next_move_at: float | None = None
    deadline: float | None = None
    """With a per-guess clock: when this person's next guess is due."""
    timed_out: bool = False

    @property
    def free(self) -> bool:
        return self.computer is None and self.holder is None

    @property
    def name(self) -> str | None:
        return self.computer if self.computer is not None else (self.holder.name if self.holder else None)

    def player(self) -> Player:
        if self.computer is not None:
            return computer_player(self.computer)
        assert self.holder is not None
        return HumanPlayer(self.holder.name)


# The fields a table needs in alphabetical order: msgspec names the first one missing, as the store always did.
class _SeatShape(msgspec.Struct, forbid_unknown_fields=True):
    away_since: Number | None
    code: str | None
    computer: str | None
    gone: bool
    guesses: list[str]
    holder: _HolderShape | None
    next_move_at: Number | None
    deadline: Number | None | msgspec.UnsetType = msgspec.UNSET  # with a per-guess clock only
    timed_out: bool | msgspec.UnsetType = msgspec.UNSET


class _TableShape(msgspec.Struct, forbid_unknown_fields=True):
    closed_reason: str | None
    created_at: Number
    creator: _HolderShape
    game_id: str | None
    grace: Number
    id: str
    log: list[str]
    pace: tuple[Number, Number]
    phase: Literal["open", "making", "guessing", "finished", "closed"]  # PHASES
    recorded: bool
    ruleset: Any  # Ruleset.from_json
    seats: Annotated[list[_SeatShape], msgspec.Meta(min_length=MIN_PLAYERS, max_length=MAX_PLAYERS)]
    seed: int
    version: Count
    # Written only where they are set (a per-guess clock, invitations, a rematch, the opener's address):
    # other tables read as before.
    guess_clock: Number | None = None
    invited: Annotated[list[str], msgspec.Meta(min_length=1)] | msgspec.UnsetType = msgspec.UNSET
    auto_start: bool | msgspec.UnsetType = msgspec.UNSET
    rematch_id: str | msgspec.UnsetType = msgspec.UNSET
    origin: str | None = None
    unrated: bool | msgspec.UnsetType = msgspec.UNSET
    variant: Variant | msgspec.UnsetType = msgspec.UNSET
    berserk: Annotated[list[int], msgspec.Meta(min_length=1)] | msgspec.UnsetType = msgspec.UNSET
    arena: Annotated[str, msgspec.Meta(min_length=1, max_length=64)] | msgspec.UnsetType = msgspec.UNSET
    code_deadline: Number | msgspec.UnsetType = msgspec.UNSET


_TABLE_MESSAGES = {
    **dict.fromkeys(("seed", "version"), "'seed' and 'version' must be whole numbers"),
    "seats": f"a table has {MIN_PLAYERS} to {MAX_PLAYERS} seats",
    "seats[]": "seat {n}: {reason}",
    "seats[].code": "seat {n}: the code must be a string",
    "pace": "'pace' must be two numbers",
    "invited": "'invited' must be a non-empty list of names",
}


# ---------------------------------------------------------------- the table

MAX_SEED = 10**MAX_DIGITS - 1
"""The largest seed a table takes: every number in a data file has at most 15 digits."""
MAX_ORIGIN = 64
"""The longest address a table keeps as its origin (an IPv6 address with a zone fits)."""


class Table:
    """A table and its live game; see the module's docstring for the phases and rules."""

    def __init__(
        self,
        table_id: str,
        creator: SeatHolder,
        *,
        seats: int = 2,
        attempts: int = 10,
        ruleset: Ruleset = WOM_RULESET,
        seed: int = 0,
        now: float = 0.0,
        grace: float = SEAT_GRACE,
        pace: tuple[float, float] = COMPUTER_PACE,
        guess_clock: float | None = None,
        origin: str | None = None,
        variant: Variant = Variant.CLASSIC,
    ) -> None:
        check_table_id(table_id)
        if variant not in TABLE_VARIANTS:
            raise Refused(f"{variant.label} is not played at a table yet; "
                          + " and ".join(v.label for v in TABLE_VARIANTS) + " are.")
        if origin is not None and (not isinstance(origin, str) or not 0 < len(origin) <= MAX_ORIGIN):
            raise ValueError(f"a table's origin is an address of 1 to {MAX_ORIGIN} characters")
        if not isinstance(creator, SeatHolder):
            raise TypeError("the creator must be a SeatHolder")
        if type(seats) is not int or not MIN_PLAYERS <= seats <= MAX_PLAYERS:
            raise Refused(f"A table has {MIN_PLAYERS} to {MAX_PLAYERS} seats.")
        fixed = variant in (Variant.QUAD, Variant.LIAR)  # their guesses are the variant's, whatever was chosen
        if type(attempts) is not int or not fixed and not MIN_ATTEMPTS <= attempts <= MAX_ATTEMPTS:
            raise Refused(f"Attempts allowed must be between {MIN_ATTEMPTS} and {MAX_ATTEMPTS}.")
        refusal = variant.refusal(ruleset)
        if refusal is not None:
            raise Refused(refusal)
        if type(seed) is not int or abs(seed) > MAX_SEED:
            raise Refused(f"A table's seed is a whole number of at most {MAX_DIGITS} digits "
                          "(the most a data file keeps).")
        if guess_clock is not None and guess_clock not in GUESS_CLOCKS:
            raise Refused("A clock per guess is " + ", ".join(f"{c:g}" for c in GUESS_CLOCKS) + " seconds, or none.")
        if not 0 <= pace[0] <= pace[1] or grace < 0:
            raise ValueError("the pace and the grace must be at least 0, the pace's bounds in order")
        self.table_id = table_id
        self.ruleset = ruleset.with_guesses(variant.guesses(attempts))  # Quad: 9, Liar: 12
        self.creator = creator
        self.seed = seed
        self.pace = (float(pace[0]), float(pace[1]))
        self.grace = float(grace)
        self.guess_clock = None if guess_clock is None else float(guess_clock)
        self.phase = OPEN
        self.version = 0
        self.closed_reason: str | None = None
        self.log: list[str] = []
        self.game_id: str | None = None
        """Set by the store when it starts recording the finished game (journalled, exactly once)."""
        self.recorded = False
        self.created_at = float(now)
        self.invited: list[str] = []
        """Names invited to a free seat, not yet accepted nor declined."""
        self.auto_start = False
        """Start by itself once every seat is filled (tables opened by an invitation or a rematch)."""
        self.rematch_id: str | None = None
        """Once the game is over: the id of the table "again" opened (the same seats)."""
        self.origin = origin
        """The network address its creator connected from (None when opened on this machine)."""
        self.rated = True
        """False: its game is recorded as unrated (a quick match of players from one network; its rematch too)."""
        self.variant = variant
        """The variant played (docs/play.md, *Variants*): Strict refuses a guess that does not fit the board's
        answers, a person's and a computer's alike."""
        self.berserk: frozenset[int] = frozenset()
        """The seats (indexes) that play on half the clock: a Code Arena's berserk players (:mod:`.arena`)."""
        self.arena: str | None = None
        """The Code Arena that paired this table (its id): its game's record says so (:mod:`.arena`)."""
        self.code_deadline: float | None = None
        """While codes are being set: when :meth:`tick` draws a code for each person who has not set theirs
        (:data:`.waits.CODE_CLOCK` after the start; a table kept before this has none)."""
        self._seats = [_Seat() for _ in range(seats)]
        self._seats[0].holder = creator
        self._boards: list[DecodingBoard | VariantBoard] = []

    def __repr__(self) -> str:
        return f"Table({self.table_id!r}, {self.phase}, seats={list(self.names)!r}, version={self.version})"

    def copy(self) -> Table:
        """An independent table in the same state: what reading its file again gives, without
        checking it again (a store keeps the tables it read and hands out copies).
        """
        other = copy.copy(self)
        other.log = list(self.log)
        other.invited = list(self.invited)
        other._seats = [dataclasses.replace(seat, guesses=list(seat.guesses)) for seat in self._seats]
        other._boards = [board.copy() for board in self._boards]
        return other

    # -- reading -----------------------------------------------------------------------------

    @property
    def attempts(self) -> int:
        """Attempts each player is allowed."""
        return self.ruleset.guesses

    @property
    def seat_count(self) -> int:
        """How many seats the table has."""
        return len(self._seats)

    @property
    def names(self) -> tuple[str | None, ...]:
        """Who sits in each seat (None for a free one)."""
        return tuple(s.name for s in self._seats)

    def seat_of(self, person: SeatHolder) -> int | None:
        """The seat this person holds (on any session), or None."""
        for index, seat in enumerate(self._seats):
            if seat.holder is not None and seat.holder.identity == person.identity:
                return index
        return None

    def sessions(self) -> frozenset[str]:
        """The sessions of every person holding a seat who is not gone."""
        return frozenset(s.holder.session for s in self._seats if s.holder is not None and not s.gone)

    def seat_done(self, index: int) -> bool:
        """True when the seat's board is broken or out of attempts, or its person is gone."""
        seat = self._seats[index]
        return seat.gone or seat.timed_out or (bool(self._boards) and self._boards[index].finished)

    def next_due(self) -> float | None:
        """The earliest time at which :meth:`tick` has something to do (a computer's move, a grace
        running out), or None when nothing will happen without someone acting.
        """
        due = []
        if self.phase in (OPEN, MAKING, GUESSING):
            due += [s.away_since + self.grace for s in self._seats if s.away_since is not None and not s.gone]
        if self.phase == MAKING and self.code_deadline is not None:
            due.append(self.code_deadline)
        if self.phase == GUESSING:
            due += [s.next_move_at for s in self._seats if s.next_move_at is not None]
            due += [s.deadline for s in self._seats if s.deadline is not None]
        return min(due) if due else None

    # -- helpers -----------------------------------------------------------------------------

    def _changed(self) -> None:
        self.version += 1

    def _announce(self, line: str) -> None:
        self.log.append(line)
        del self.log[:-LOG_LINES]

    def _rng(self, *purpose: object) -> random.Random:
        """A generator drawn from the table's seed and what it is for, so a table replays the same."""
        return random.Random(":".join(str(p) for p in (self.seed, *purpose)))

    def _pace(self, index: int, move: int) -> float:
        low, high = self.pace
        return self._rng("pace", index, move).uniform(low, high)

    def _seated(self, person: SeatHolder) -> int:
        index = self.seat_of(person)
        if index is None:
            raise Refused("You have no seat at this table.")
        if self._seats[index].gone:
            raise Refused("You have left this game.")
        return index

    def _require(self, *phases: str) -> None:
        if self.phase in phases:
            return
        raise Refused({
            OPEN: "The game has not started yet.",
            MAKING: "The codes are still being set.",
            GUESSING: "The game has already started.",
            FINISHED: "The game is over.",
            CLOSED: "The table is closed.",
        }[self.phase])

    def _require_creator(self, person: SeatHolder) -> None:
        if person.identity != self.creator.identity:
            raise Refused(f"Only {self.creator.name}, who opened the table, can do that.")

    def _check_index(self, index: Any) -> int:
        if type(index) is not int or not 0 <= index < len(self._seats):
            raise Refused(f"There is no seat {index!r} at this table.")
        return index

    # -- seating (open phase) ------------------------------------------------------------------

    def sit(self, person: SeatHolder, index: int) -> None:
        """Take the free seat ``index`` (0-based)."""
        self._require(OPEN)
        self._check_index(index)
        mine = self.seat_of(person)
        if mine is not None:
            raise Refused(f"You already have seat {mine + 1}.")
        seat = self._seats[index]
        if not seat.free:
            raise Refused(f"Seat {index + 1} was just taken by {seat.name}.")
        if any(name is not None and name_key(name) == name_key(person.name) for name in self.names):
            raise Refused(f"{person.name} is already at this table.")
        seat.holder = person
        self._changed()

    def invite(self, person: SeatHolder, name: str) -> None:
        """The creator invites ``name`` to a free seat (refused if none is left for them, or if they
        already sit here or are invited).
        """
        self._require(OPEN)
        self._require_creator(person)
        try:
            check_name(name)
        except NameRejected as exc:
            raise Refused(exc.reason) from None
        if computer_name(name) is not None:
            raise Refused(f"Put {computer_name(name)} in a seat instead of inviting it.")
        key = name_key(name)
        if any(n is not None and name_key(n) == key for n in self.names):
            raise Refused(f"{name} is already at this table.")
        if any(name_key(n) == key for n in self.invited):
            raise Refused(f"{name} is already invited.")
        free = sum(1 for seat in self._seats if seat.free)
        if free <= len(self.invited):
            raise Refused("There is no free seat left to invite anyone to.")
        self.invited.append(name)
        self._announce(f"{person.name} invited {name}.")
        self._changed()

    def is_invited(self, person: SeatHolder) -> bool:
        """True if ``person``'s name is invited here and they have no seat yet."""
        return self.phase == OPEN and any(name_key(n) == name_key(person.name) for n in self.invited) \
            and self.seat_of(person) is None

    def accept(self, person: SeatHolder, now: float) -> int:
        """Take a free seat one was invited to (or, at a rematch, offered); the table starts by itself
        once every seat is filled. Returns the seat.
        """
        self._require(OPEN)
        if not self.is_invited(person):
            mine = self.seat_of(person)
            if mine is not None:
                return mine
            raise Refused("You are not invited to this table.")
        index = next(i for i, seat in enumerate(self._seats) if seat.free)
        self.invited = [n for n in self.invited if name_key(n) != name_key(person.name)]
        self.sit(person, index)
        self._announce(f"{person.name} accepted.")
        if self.auto_start and not any(seat.free for seat in self._seats):
            self.start(self.creator, now)
        return index

    def decline(self, person: SeatHolder) -> None:
        """Say no to an invitation: the seat is free for anyone again."""
        if not self.is_invited(person):
            raise Refused("You are not invited to this table.")
        self.invited = [n for n in self.invited if name_key(n) != name_key(person.name)]
        self._announce(f"{person.name} declined the invitation.")
        self._changed()

    def rematch(self, person: SeatHolder, table_id: str, *, seed: int, now: float) -> Table:
        """"Again": a new table with the same seats and rules, opened by ``person`` (who sat here), the
        computers seated, everyone else invited; it starts once everyone has accepted. The table's
        :attr:`rematch_id` names it (set by the caller's compare-and-swap: one rematch per table).
        """
        self._require(FINISHED)
        index = self.seat_of(person)
        if index is None:
            raise Refused("Only the players of this table can ask for a rematch.")
        if self.rematch_id is not None:
            raise Refused("A rematch is already offered: press a to accept it.")
        order = self._seats[index:] + self._seats[:index]  # the proposer first, the others in turn
        table = Table(table_id, person, seats=len(order), attempts=self.attempts, ruleset=self.ruleset,
                      seed=seed, now=now, grace=self.grace, pace=self.pace, guess_clock=self.guess_clock,
                      variant=self.variant)
        table.auto_start = True
        table.rated = self.rated
        for number, seat in enumerate(order[1:], start=1):
            if seat.computer is not None:
                table.seat_computer(person, number, seat.computer)
            elif seat.holder is not None:
                table.invited.append(seat.holder.name)
        table._announce(f"{person.name} asks for a rematch: it starts once everyone accepts.")
        self.rematch_id = table_id
        self._announce(f"{person.name} asks for a rematch: press a to play again.")
        self._changed()
        return table

    def stand(self, person: SeatHolder) -> None:
        """Give one's seat back before the start (the creator closes the table instead)."""
        self._require(OPEN)
        index = self._seated(person)
        if person.identity == self.creator.identity:
            raise Refused("You opened this table: close it instead.")
        self._seats[index] = _Seat()
        self._changed()

    def seat_computer(self, person: SeatHolder, index: int, name: str) -> None:
        """The creator puts HAL9000 or VIKI in the free seat ``index``."""
        self._require(OPEN)
        self._require_creator(person)
        self._check_index(index)
        canonical = computer_name(name) if isinstance(name, str) else None
        if canonical is None:
            raise Refused(f"The computer players are {' and '.join(COMPUTER_NAMES)}.")
        if not self._seats[index].free:
            raise Refused(f"Seat {index + 1} was just taken by {self._seats[index].name}.")
        if canonical in self.names:
            raise Refused(f"{canonical} is already at this table.")
        self._seats[index].computer = canonical
        self._changed()

    def unseat_computer(self, person: SeatHolder, index: int) -> None:
        """The creator frees a seat a computer holds."""
        self._require(OPEN)
        self._require_creator(person)
        self._check_index(index)
        if self._seats[index].computer is None:
            raise Refused(f"No computer sits in seat {index + 1}.")
        self._seats[index] = _Seat()
        self._changed()

    def close(self, person: SeatHolder) -> None:
        """The creator closes the table before the start."""
        self._require(OPEN)
        self._require_creator(person)
        self._close(f"{self.creator.name} closed the table.")

    def _close(self, reason: str) -> None:
        self.phase = CLOSED
        self.closed_reason = reason
        self._announce(reason)
        self._changed()

    def start(self, person: SeatHolder, now: float) -> None:
        """The creator starts the game once every seat is filled; computers set their codes at once."""
        self._require(OPEN)
        self._require_creator(person)
        free = [i + 1 for i, s in enumerate(self._seats) if s.free]
        if free:
            raise Refused(f"Every seat must be filled first (seat {free[0]} is free).")
        self.phase = MAKING
        self._boards = [self._new_board(index) for index in range(len(self._seats))]
        if self.variant is not Variant.CLASSIC:
            self._announce(f"{self.variant.label} at a table: {self.table_rules(self.variant)}")
        if self.variant is Variant.DEVIOUS:  # nobody sets a code: no code clock either
            self._announce("The game has started: Devious answers every guess.")
        else:
            for index, seat in enumerate(self._seats):
                if seat.computer is not None:
                    self._set_code(index, self.ruleset.random_code(self._rng("code", index)))
            self._announce("The game has started: each player sets the code the next one breaks.")
            self.code_deadline = float(now) + CODE_CLOCK
        self._changed()
        self._maybe_begin_guessing(now)

    # -- code making and guessing --------------------------------------------------------------

    @staticmethod
    def table_rules(variant: Variant) -> str:
        """The variant's rules at a table, in a player's words (docs/play.md, *Variants*)."""
        return _TABLE_RULES[variant]

    @property
    def makes_codes(self) -> bool:
        """False at a Devious table: nobody sets a code, the table answers."""
        return self.variant is not Variant.DEVIOUS

    def _new_board(self, index: int) -> DecodingBoard | VariantBoard:
        if self.variant in (Variant.CLASSIC, Variant.STRICT):
            return DecodingBoard(self.ruleset)
        return VariantBoard(self.ruleset, self.variant, self.seed, index)

    def _breaker(self, index: int) -> int:
        return (index + 1) % len(self._seats)

    def _set_code(self, index: int, code: str) -> None:
        seat = self._seats[index]
        self._boards[self._breaker(index)].set_secret(code)
        seat.code = code

    def _maybe_begin_guessing(self, now: float) -> None:
        if self.phase != MAKING or self.makes_codes and any(s.code is None for s in self._seats):
            return
        self.phase = GUESSING
        self.code_deadline = None
        for index, seat in enumerate(self._seats):
            if seat.computer is not None:
                seat.next_move_at = now + self._pace(index, 0)
            elif self.guess_clock is not None and not seat.gone:
                seat.deadline = now + self._clock_of(index)
        # One log for everybody, spectators too: it says what happens, never "yours" (each player's own
        # message line says which code they break).
        self._announce("Every code is set: the players break them now." if self.makes_codes
                       else "Devious is ready: the players corner it now.")
        self._changed()
        self._maybe_finish()

    def set_code(self, person: SeatHolder, typed: str, now: float) -> None:
        """Set the code the next seat must break (refused with the reason for a code the rules forbid)."""
        self._require(MAKING)
        index = self._seated(person)
        if self._seats[index].code is not None:
            raise Refused("You have already set your code.")
        if not isinstance(typed, str):
            raise Refused("Please type a code.")
        try:
            code = self.ruleset.parse(typed, what="Code", secret=True)
        except InvalidCode as exc:
            raise Refused(exc.reason) from None
        self._set_code(index, code)
        self._announce(f"{person.name} has set the code for {self._seats[self._breaker(index)].name} to break.")
        self._changed()
        self._maybe_begin_guessing(now)

    def guess(self, person: SeatHolder, typed: str, now: float) -> Feedback:
        """Guess the code on one's own board; the feedback, or :class:`Refused` (costing nothing)."""
        self._require(GUESSING)
        index = self._seated(person)
        if self._seats[index].timed_out:
            raise Refused("Your time ran out: the code you were breaking counts as not broken.")
        if self._boards[index].finished:
            raise Refused("Your board is finished; wait for the others.")
        if not isinstance(typed, str):
            raise Refused("Please type a guess.")
        try:
            code = self.ruleset.parse(typed)
        except InvalidCode as exc:
            raise Refused(exc.reason) from None
        if self.variant is Variant.STRICT:
            reason = strict_refusal(code, [(a.guess, a.feedback) for a in self._boards[index].history])
            if reason is not None:
                raise Refused(reason)
        seat = self._seats[index]
        seat.deadline = None
        feedback = self._play(index, code)
        if self.guess_clock is not None and self.phase == GUESSING and not self._boards[index].finished:
            seat.deadline = now + self._clock_of(index)
        return feedback

    def _clock_of(self, index: int) -> float:
        """The seconds seat ``index`` has for each guess: the clock, halved for a berserk seat."""
        assert self.guess_clock is not None
        return self.guess_clock / 2 if index in self.berserk else self.guess_clock

    def _play(self, index: int, code: str) -> Feedback:
        board = self._boards[index]
        result = board.guess(code)
        self._seats[index].guesses.append(code)
        what = "all four codes" if self.variant is Variant.QUAD else "the code"
        outcome = board_outcome(self._seats[index].name or "", board, what)
        if outcome is not None:
            self._announce(outcome)
        self._changed()
        self._maybe_finish()
        return result

    def _maybe_finish(self) -> None:
        if self.phase != GUESSING or not all(self.seat_done(i) for i in range(len(self._seats))):
            return
        self.phase = FINISHED
        for seat in self._seats:
            seat.next_move_at = None
            seat.deadline = None
        for line in self.reveal_lines():
            self._announce(line)
        for line in self.results().messages:
            self._announce(line)
        self._changed()

    # -- dropping out and coming back ----------------------------------------------------------

    def leave(self, person: SeatHolder, now: float) -> None:
        """A confirmed leave: before the start, stand up (the creator closes the table);
        once started, the seat is gone and the game goes on.
        """
        if self.phase == OPEN:
            self._seated(person)
            if person.identity == self.creator.identity:
                self._close(f"{self.creator.name} closed the table.")
            else:
                self.stand(person)
            return
        self._require(MAKING, GUESSING)
        self._gone(self._seated(person), now, f"{person.name} left the game.")

    def _gone(self, index: int, now: float, line: str) -> None:
        seat = self._seats[index]
        if self.phase == OPEN:
            if seat.holder is not None and seat.holder.identity == self.creator.identity:
                self._close(f"{self.creator.name} left, so the table is closed.")
            else:
                self._seats[index] = _Seat()
                self._announce(line)
                self._changed()
            return
        seat.gone = True
        seat.away_since = None
        seat.deadline = None
        self._announce(line + " Their code counts as not broken.")
        if self.phase == MAKING and seat.code is None:
            self._set_code(index, self.ruleset.random_code(self._rng("code", index)))
            self._announce(f"A code was drawn for {self._seats[self._breaker(index)].name} to break.")
        self._changed()
        self._maybe_begin_guessing(now)
        self._maybe_finish()

    def _draw_missing_codes(self, at: float) -> None:
        """The code clock ran out: a code from the table's seed for each person who set none (they play on)."""
        for index, seat in enumerate(self._seats):
            if seat.code is None:
                self._set_code(index, self.ruleset.random_code(self._rng("code", index)))
                self._announce(f"{seat.name} did not set a code in time: one was drawn for "
                               f"{self._seats[self._breaker(index)].name} to break.")
        self._changed()
        self._maybe_begin_guessing(at)

    def _time_out(self, index: int) -> None:
        """The person of seat ``index`` ran out of time for a guess: they stop, their code is lost."""
        seat = self._seats[index]
        seat.deadline = None
        seat.timed_out = True
        self._announce(f"{seat.name} ran out of time: the code they were breaking counts as not broken.")
        self._changed()
        self._maybe_finish()

    def resume(self, person: SeatHolder, now: float) -> int | None:
        """The same person back (perhaps on a new session): their seat, exactly as they left it.

        Returns the seat, or None when they have none here (or are gone for good).
        """
        index = self.seat_of(person)
        if index is None or self._seats[index].gone or self.phase == CLOSED:
            return None
        seat = self._seats[index]
        if seat.holder != person or seat.away_since is not None:
            seat.holder = person
            seat.away_since = None
            self._changed()
        return index

    def mark_presence(self, live_sessions: Collection[str], now: float) -> None:
        """Note which seated people still have a live session: one whose session is gone is *away*
        from ``now``, and comes back when their session is live again.
        """
        if self.phase not in (OPEN, MAKING, GUESSING):
            return
        for seat in self._seats:
            if seat.holder is None or seat.gone:
                continue
            live = seat.holder.session in live_sessions
            if live and seat.away_since is not None:
                seat.away_since = None
                self._changed()
            elif not live and seat.away_since is None:
                seat.away_since = float(now)
                self._changed()

    def tick(self, now: float, known_moves: dict[tuple[int, int], str] | None = None) -> dict[tuple[int, int], str]:
        """Do everything due by ``now``: graces that ran out, computers' moves (catching up).

        A computer's move depends only on the table's seed and its board, so it can be worked out
        ahead on a copy of the table (outside any lock): pass the moves a copy's ``tick`` returned,
        ``{(seat, attempts used before): guess}``, and they are played without thinking again.
        """
        known = known_moves or {}
        moves: dict[tuple[int, int], str] = {}
        for index, seat in enumerate(self._seats):
            if self.phase in (FINISHED, CLOSED):
                return moves
            if seat.holder is not None and not seat.gone and seat.away_since is not None:
                if seat.away_since + self.grace <= now:
                    self._gone(index, now, f"{seat.holder.name} did not come back in time.")
            if self.phase == GUESSING and seat.deadline is not None and seat.deadline <= now:
                self._time_out(index)
        if self.phase == MAKING and self.code_deadline is not None and self.code_deadline <= now:
            self._draw_missing_codes(now)
        while self.phase == GUESSING:
            due = [(s.next_move_at, i) for i, s in enumerate(self._seats) if s.next_move_at is not None]
            if not due or min(due)[0] > now:
                return moves
            at, index = min(due)
            seat = self._seats[index]
            board = self._boards[index]
            code = known.get((index, board.attempts_used))
            if code is None:
                rng = self._rng("guess", index, board.attempts_used)
                code = self._computer_guess(seat, board, rng)
            moves[(index, board.attempts_used)] = code
            seat.next_move_at = None
            self._play(index, code)
            if not board.finished and self.phase == GUESSING:
                seat.next_move_at = at + self._pace(index, board.attempts_used)
        return moves

    def _computer_guess(self, seat: _Seat, board: DecodingBoard | VariantBoard, rng: random.Random) -> str:
        """A computer's next guess on ``board``, by the table's variant (Strict: only a guess that fits; Quad:
        for the codes still open; Liar: allowing the one lie; Devious: HAL9000's 5-guess book).
        """
        if self.variant is Variant.CLASSIC:
            return seat.player().make_guess(self.ruleset, board.history, rng)
        from .strategies.variants import variant_guess

        strategy = "expert" if seat.computer == "HAL9000" else "consistent"
        histories = board.computer_histories() if isinstance(board, VariantBoard) else [tuple(board.history)]
        return variant_guess(strategy, self.variant, self.ruleset, histories, rng)

    # -- results -------------------------------------------------------------------------------

    def results(self) -> GameResults:
        """Each seat's outcome and points, in seating order (finished phase only).

        Points go to registered people (a guest or a computer earns nothing); a seat that is gone
        broke nothing, and its maker earns as if it failed (docs/play.md, *Playing together*).
        """
        if self.phase != FINISHED:
            raise Refused("The game is not finished.")
        players = [seat.player() for seat in self._seats]
        return game_results(self.attempts, players, self._boards, [self._registered(seat) for seat in self._seats],
                            makers=self.makes_codes)

    def reveal_lines(self) -> tuple[str, ...]:
        """What the end of a Quad, Devious or Liar table reveals of each board (the four codes, a fitted code, the
        lie), in seat order; () for the other variants or before the end.
        """
        if self.phase not in (FINISHED,) or not self._boards:
            return ()
        return tuple(line for index, board in enumerate(self._boards) if isinstance(board, VariantBoard)
                     for line in board.reveal_lines(self._seats[index].name or ""))

    @staticmethod
    def _registered(seat: _Seat) -> bool:
        return seat.holder is not None and seat.holder.registered

    def final_rows(self) -> tuple[FinalRow, ...]:
        """The results table everyone (spectators too) sees once the game is finished: each seat's name,
        the code it had to break (revealed now), whether it broke it in how many attempts, and its points
        (None for a computer or a guest, who earn none); ``Refused`` before the end.
        """
        results = self.results()
        return tuple(
            FinalRow(index, seat.name or "", self._code_shown(index), row.broke, row.attempts_used,
                     row.total if row.points is not None else None,
                     row.points.breaking if row.points is not None else None,
                     row.points.making if row.points is not None else None)
            for index, (seat, row) in enumerate(zip(self._seats, results.players, strict=True))
        )

    def _code_shown(self, index: int) -> str:
        """The code(s) seat ``index`` had to break, as the results show them (Quad: four; Devious: the one that
        fitted).
        """
        board = self._boards[index] if self._boards else None
        if isinstance(board, VariantBoard):
            return " ".join(board._codes_now())
        return self._seats[index - 1].code or ""

    def record(self, registered: Collection[str] | None = None) -> GameRecord:
        """The finished game as a record for the store.

        ``registered``: the name keys of the users the store knows; a seat claiming to be a
        registered user who is not among them is kept as a player without points.
        """
        users = [
            self._registered(seat) and (registered is None or name_key(seat.name or "") in registered)
            for seat in self._seats
        ]
        return game_record(self.ruleset, self.results(), self._boards, users, table_id=self.table_id, rated=self.rated,
                           arena=self.arena, variant=self.variant)

    # -- views -----------------------------------------------------------------------------------

    def view_for(self, seat: int | SeatHolder | None) -> TableView:
        """The table as a viewer sees it: ``seat`` (an index or a person), or None for a spectator.

        Everyone sees who sits where and everyone's progress; only the seat's own person sees
        their board's guesses; nobody sees a code.
        """
        you = self.seat_of(seat) if isinstance(seat, SeatHolder) else seat
        if you is not None:
            self._check_index(you)
        seats = []
        for index, s in enumerate(self._seats):
            board = self._boards[index] if self._boards else None
            seats.append(SeatView(
                index, s.name,
                "free" if s.free else ("computer" if s.computer is not None else "person"),
                bool(s.holder and s.holder.registered), s.away_since is not None, s.gone, s.code is not None,
                board.attempts_used if board else 0, bool(board and board.solved), self.seat_done(index),
                s.deadline, s.timed_out,
                s.away_since + self.grace if s.away_since is not None and not s.gone else None,
                index in self.berserk,
            ))
        own = None
        if you is not None and self._boards:
            board = self._boards[you]
            maker = (self._seats[you - 1].name or "") if self.makes_codes else "Devious"
            owes = self._seats[self._breaker(you)].name if self.phase == MAKING and self._seats[you].code is None else None
            rows = tuple(board.rows) if isinstance(board, VariantBoard) and board.boards > 1 else ()
            lied = board.lied_row if isinstance(board, VariantBoard) and self.phase == FINISHED else None
            own = OwnView(board.history, board.attempts_left, maker, owes, self.seat_done(you), rows, lied)
        return TableView(
            self.table_id, self.version, self.phase, self.ruleset, self.creator.name, tuple(seats), you, own,
            tuple(self.log), self.results() if self.phase == FINISHED else None, self.closed_reason, self.next_due(),
            self.guess_clock, tuple(self.invited), self.rematch_id,
            self.final_rows() if self.phase == FINISHED else None, self.game_id, self.rated,
            self.code_deadline if self.phase == MAKING else None, self.variant, self.reveal_lines(),
        )

    # -- JSON ------------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The whole table, secrets included, as plain JSON data (for the store only). A table with a
        per-guess clock adds ``guess_clock`` and each seat's ``deadline`` and ``timed_out``.
        """
        data = self._to_json()
        data.update(self._extras())
        if self.guess_clock is not None:
            data["guess_clock"] = self.guess_clock
            for seat, item in zip(self._seats, data["seats"]):
                item["deadline"], item["timed_out"] = seat.deadline, seat.timed_out
        return data

    def _extras(self) -> dict[str, Any]:
        """Optional fields, written only when set (tables without them read as before)."""
        extras: dict[str, Any] = {}
        if self.invited:
            extras["invited"] = list(self.invited)
        if self.auto_start:
            extras["auto_start"] = True
        if self.rematch_id is not None:
            extras["rematch_id"] = self.rematch_id
        if not self.rated:
            extras["unrated"] = True
        if self.variant is not Variant.CLASSIC:
            extras["variant"] = self.variant.as_json()
        if self.berserk:
            extras["berserk"] = sorted(self.berserk)
        if self.arena is not None:
            extras["arena"] = self.arena
        if self.code_deadline is not None:
            extras["code_deadline"] = self.code_deadline
        return extras

    def _to_json(self) -> dict[str, Any]:
        return {
            "id": self.table_id,
            "ruleset": self.ruleset.as_json(),
            "creator": self.creator.as_json(),
            "seats": [
                {
                    "computer": s.computer,
                    "holder": s.holder.as_json() if s.holder else None,
                    "away_since": s.away_since,
                    "gone": s.gone,
                    "code": s.code,
                    "guesses": list(s.guesses),
                    "next_move_at": s.next_move_at,
                }
                for s in self._seats
            ],
            "phase": self.phase,
            "seed": self.seed,
            "pace": list(self.pace),
            "grace": self.grace,
            "version": self.version,
            "closed_reason": self.closed_reason,
            "log": list(self.log),
            "game_id": self.game_id,
            "recorded": self.recorded,
            "created_at": self.created_at,
            **({"origin": self.origin} if self.origin is not None else {}),
        }

    @classmethod
    def from_json(cls, data: Any) -> Table:
        """Rebuild a table from :meth:`to_json` data; :class:`TableDataError` with the reason if it
        is not one (wrong types, unknown fields, impossible states, guesses the rules forbid).
        """
        try:
            return cls._from_json(data)
        except TableDataError:
            raise
        except Refused as exc:
            raise TableDataError(exc.reason) from None
        except (ValueError, TypeError, KeyError, InvalidCode) as exc:
            raise TableDataError(str(exc)) from None

    @classmethod
    def _from_json(cls, data: Any) -> Table:
        shape = shaped(data, _TableShape, _TABLE_MESSAGES, what="a table")
        if abs(shape.seed) > MAX_SEED:
            raise TableDataError(f"'seed' has more than {MAX_DIGITS} digits")
        if shape.auto_start is False:
            raise TableDataError("'auto_start' is written only when true")
        ruleset = Ruleset.from_json(shape.ruleset)
        table = cls(
            shape.id, shape.creator.holder(), seats=len(shape.seats), attempts=ruleset.guesses, ruleset=ruleset,
            seed=shape.seed, now=shape.created_at, grace=shape.grace, pace=shape.pace,
            guess_clock=shape.guess_clock, origin=shape.origin,
            variant=Variant.CLASSIC if shape.variant is msgspec.UNSET else shape.variant,
        )
        table.phase = shape.phase
        table.version = shape.version
        table.closed_reason = shape.closed_reason
        table.log = shape.log[-LOG_LINES:]
        table.game_id = shape.game_id
        table.recorded = shape.recorded
        table.invited = [] if shape.invited is msgspec.UNSET else [check_name(name) for name in shape.invited]
        table.auto_start = shape.auto_start is True
        if shape.unrated is False:
            raise TableDataError("'unrated' is written only when true")
        table.rated = shape.unrated is not True
        if shape.rematch_id is not msgspec.UNSET:
            table.rematch_id = check_table_id(shape.rematch_id)
        if shape.berserk is not msgspec.UNSET:
            if table.guess_clock is None or not set(shape.berserk) <= set(range(len(shape.seats))):
                raise TableDataError("'berserk' names seats of a table with a clock")
            table.berserk = frozenset(shape.berserk)
        if shape.arena is not msgspec.UNSET:
            table.arena = shape.arena
        if shape.code_deadline is not msgspec.UNSET:
            if shape.phase != MAKING:
                raise TableDataError("'code_deadline' is kept while the codes are being set, only")
            table.code_deadline = float(shape.code_deadline)
        table._seats = [cls._seat_from_shape(number, seat, ruleset, table.guess_clock is not None)
                        for number, seat in enumerate(shape.seats, 1)]
        table._check_loaded()
        return table

    @staticmethod
    def _seat_from_shape(number: int, seat: _SeatShape, ruleset: Ruleset, clock: bool) -> _Seat:
        if clock == (seat.deadline is msgspec.UNSET) or clock == (seat.timed_out is msgspec.UNSET):
            raise TableDataError(f"seat {number}: 'deadline' and 'timed_out' are kept when the table has a clock, only")
        if seat.computer is not None and computer_name(seat.computer) != seat.computer:
            raise TableDataError(f"seat {number}: {seat.computer!r} is not a computer player")
        if seat.holder is not None and seat.computer is not None:
            raise TableDataError(f"seat {number} holds both a person and a computer")
        if seat.code is not None:
            try:
                if ruleset.parse(seat.code, what="Code", secret=True) != seat.code:
                    raise TableDataError(f"seat {number}: {seat.code!r} is not written as a code")
            except InvalidCode as exc:
                raise TableDataError(f"seat {number}: {exc.reason}") from None
        return _Seat(
            seat.computer, seat.holder.holder() if seat.holder else None, seat.away_since, seat.gone, seat.code,
            seat.guesses, seat.next_move_at, None if seat.deadline is msgspec.UNSET else seat.deadline,
            seat.timed_out is True,
        )

    def _check_loaded(self) -> None:
        """Rebuild the boards from the codes and guesses, refusing any state play cannot reach."""
        seats = self._seats
        names = [name_key(s.name) for s in seats if s.name is not None]
        if len(names) != len(set(names)):
            raise TableDataError("someone sits twice at the table")
        if seats[0].holder is None or seats[0].holder.identity != self.creator.identity:
            raise TableDataError("the creator must hold seat 1")
        started = self.phase in (MAKING, GUESSING, FINISHED)
        for number, seat in enumerate(seats, 1):
            if seat.holder is None and (seat.gone or seat.away_since is not None):
                raise TableDataError(f"seat {number}: only a person can be away or gone")
            if not started and (seat.code is not None or seat.guesses or seat.gone or seat.next_move_at is not None):
                raise TableDataError(f"seat {number} has played before the game started")
            if seat.next_move_at is not None and (seat.computer is None or self.phase != GUESSING):
                raise TableDataError(f"seat {number}: only a computer in a running game has a move due")
            if (seat.deadline is not None or seat.timed_out) and (seat.holder is None or not started):
                raise TableDataError(f"seat {number}: only a person in a started game has a clock")
        if started:
            if any(s.free for s in seats):
                raise TableDataError("a started game has a free seat")
            if self.makes_codes and self.phase in (GUESSING, FINISHED) and any(s.code is None for s in seats):
                raise TableDataError("a code is missing in a game that is being played")
            if not self.makes_codes and any(s.code is not None for s in seats):
                raise TableDataError("nobody sets a code at a Devious table")
            if not self.makes_codes and self.phase == MAKING:
                raise TableDataError("a Devious table makes no codes")
            self._boards = [self._new_board(index) for index in range(len(seats))]
            for index, seat in enumerate(seats):
                if seat.code is not None:
                    self._boards[self._breaker(index)].set_secret(seat.code)
            for index, seat in enumerate(seats):
                if seat.guesses and self.phase == MAKING:
                    raise TableDataError(f"seat {index + 1} guessed before every code was set")
                board = self._boards[index]
                for code in seat.guesses:
                    if board.finished:
                        raise TableDataError(f"seat {index + 1} guessed after its board was finished")
                    if self.ruleset.parse(code) != code:
                        raise TableDataError(f"seat {index + 1}: {code!r} is not written as a code")
                    board.guess(code)
            done = all(self.seat_done(i) for i in range(len(seats)))
            if self.phase == GUESSING and done:
                raise TableDataError("every seat is done but the game is still being played")
            if self.phase == FINISHED and not done:
                raise TableDataError("the game is finished but a seat is still playing")
        if self.recorded and (self.phase != FINISHED or self.game_id is None):
            raise TableDataError("only a finished game with a game id can be recorded")


def waiting_seat(tables: Iterable[Table], person: SeatHolder) -> Table | None:
    """The game under way (codes being made or broken) where ``person`` (the same person, on any session)
    still holds a seat, its grace not run out: what a player coming back is offered first (docs/play.md,
    *Playing together*); None if there is none.
    """
    for table in tables:
        if table.phase not in (MAKING, GUESSING):
            continue
        index = table.seat_of(person)
        if index is not None and not table._seats[index].gone:
            return table
    return None


def elsewhere_notice(table: Table, person: SeatHolder) -> str | None:
    """What ``person`` is told about ``table`` while on another screen (the main menu, a solo game, a
    replay …; docs/play.md, *A nudge when it's time*): an invitation to it, their code to set now that
    it started, or, for the one who opened it, every seat filled. None: nothing for them.
    """
    if table.is_invited(person):
        return f"{table.creator.name} invites you to a table: the lobby (l) accepts (a) or declines (d)."
    index = table.seat_of(person)
    if index is None or table._seats[index].gone:
        return None
    view = table.view_for(index)
    if table.phase == MAKING and view.own is not None and view.own.code_for:
        return f"{table.creator.name}'s table has started: set the code {view.own.code_for} will break (lobby, l)."
    if table.phase == OPEN and index == 0 and not view.free_seats:
        return "Every seat at your table is filled: back at it (lobby, l), press g to start."
    return None


def unstarted_by(tables: Iterable[Table], creator: SeatHolder) -> list[Table]:
    """The tables ``creator`` (the same person, on any session) opened that have not started yet."""
    return [t for t in tables if t.phase == OPEN and t.creator.identity == creator.identity]


def check_may_open(tables: Iterable[Table], creator: SeatHolder, origin: str | None, per_address: int) -> None:
    """Refuse (:class:`Refused`, with the reason) a new table by ``creator`` from ``origin`` when they
    already hold one they opened and have not started, or when ``origin`` already has ``per_address``
    such tables open (0: no limit; no origin: opened on this machine, no limit). docs/play.md, *Tables*.
    """
    tables = list(tables)
    own = unstarted_by(tables, creator)
    if own:
        raise Refused("You already have a table that has not started (the lobby marks it): "
                      "start it, or close it before opening another.")
    if origin is not None and per_address > 0:
        count = sum(1 for t in tables if t.phase == OPEN and t.origin == origin)
        if count >= per_address:
            raise Refused(f"Your address already has {counted(count, 'table')} waiting to start "
                          f"(at most {per_address}): join one, or wait until one starts or closes.")


def holds_seat(view: TableView | None) -> bool:
    """True while the viewer holds a seat at a table not over yet (open, codes being made, guessing): what a
    served session's connection waits for when it drops (docs/serve.md, *In a browser*).
    """
    return (view is not None and view.you is not None and not view.seats[view.you].gone
            and view.phase in (OPEN, MAKING, GUESSING))


def move_awaited(view: TableView | None) -> tuple[object, ...] | None:
    """What the table waits for from the viewer, as a value that changes with each of their moves: their code
    (codes being made, theirs not set) or their next guess (guessing, not done); None when it waits for nobody
    here (a spectator, a seat that is done or gone, an open table, a finished one).

    A served session whose value stays the same for the idle timeout made no move while one was awaited: it is
    idle whatever keys it pressed (docs/serve.md, *Idle sessions*).
    """
    if view is None or not holds_seat(view) or view.own is None:
        return None
    assert view.you is not None
    seat = view.seats[view.you]
    if view.phase == MAKING and view.own.code_for is not None:
        return (view.table_id, MAKING, view.own.code_for)
    if view.phase == GUESSING and not seat.done and not view.own.done:
        return (view.table_id, GUESSING, seat.attempts_used)
    return None


__all__ = [
    "check_may_open",
    "holds_seat",
    "move_awaited",
    "unstarted_by",
    "waiting_seat",
    "elsewhere_notice",
    "CLOSED",
    "COMPUTER_PACE",
    "FINISHED",
    "GUESS_CLOCKS",
    "GUESSING",
    "MAKING",
    "OPEN",
    "SEAT_GRACE",
    "OwnView",
    "Refused",
    "SeatHolder",
    "SeatView",
    "Table",
    "TableDataError",
    "TableView",
    "check_table_id",
]
