"""A move at a live table as a value: who makes it and what it is, applied by :func:`apply_move`.

A screen no longer hands the store a function to run on the table: it names the move
(``Guess(me, "RGBY")``), and whoever keeps the table (the store in this process, or the server's hub for a
served game, docs/arcade.md) applies it with :class:`.table.Table`'s rules in one read-modify-write. Being
plain frozen data, a move crosses a process boundary as it is (the hub's protocol,
:mod:`wom_tui.domain.store.wire`); nothing of the screen's code does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from .table import SeatHolder, Table


@dataclass(frozen=True)
class Resume:
    """Come back to a seat held from an earlier session (the table screen opening)."""

    holder: SeatHolder


@dataclass(frozen=True)
class Sit:
    """Take the free seat ``index`` (0-based) before the start."""

    holder: SeatHolder
    index: int


@dataclass(frozen=True)
class Stand:
    """Give the seat back before the start."""

    holder: SeatHolder


@dataclass(frozen=True)
class SeatComputer:
    """The creator puts the computer ``name`` in the free seat ``index``."""

    holder: SeatHolder
    index: int
    name: str


@dataclass(frozen=True)
class UnseatComputer:
    """The creator frees seat ``index`` of its computer."""

    holder: SeatHolder
    index: int


@dataclass(frozen=True)
class Start:
    """The creator starts the game."""

    holder: SeatHolder


@dataclass(frozen=True)
class Close:
    """The creator closes the table."""

    holder: SeatHolder


@dataclass(frozen=True)
class SetCode:
    """The secret code ``code`` (as typed) for the holder's seat."""

    holder: SeatHolder
    code: str


@dataclass(frozen=True)
class Guess:
    """A guess ``code`` (as typed) from the holder's seat."""

    holder: SeatHolder
    code: str


@dataclass(frozen=True)
class Leave:
    """Give up the seat (a game under way: the code counts as not broken)."""

    holder: SeatHolder


@dataclass(frozen=True)
class Accept:
    """Take the seat one was invited to (or offered at a rematch)."""

    holder: SeatHolder


@dataclass(frozen=True)
class Decline:
    """Say no to an invitation."""

    holder: SeatHolder


@dataclass(frozen=True)
class Tick:
    """Nothing but what is due (presence, graces, the computers' moves): bring the table up to date."""


TableMove = Union[Resume, Sit, Stand, SeatComputer, UnseatComputer, Start, Close, SetCode, Guess, Leave, Accept,
                  Decline, Tick]
"""Every move a table takes."""

MOVES: tuple[type, ...] = (Resume, Sit, Stand, SeatComputer, UnseatComputer, Start, Close, SetCode, Guess, Leave,
                           Accept, Decline, Tick)


def apply_move(table: Table, move: TableMove, now: float) -> None:
    """Play ``move`` on ``table`` at ``now`` with the table's rules; :class:`.table.Refused` with the reason
    if they refuse it (the caller's read-modify-write then writes nothing).
    """
    if isinstance(move, Guess):
        table.guess(move.holder, move.code, now)
    elif isinstance(move, SetCode):
        table.set_code(move.holder, move.code, now)
    elif isinstance(move, Resume):
        table.resume(move.holder, now)
    elif isinstance(move, Leave):
        table.leave(move.holder, now)
    elif isinstance(move, Sit):
        table.sit(move.holder, move.index)
    elif isinstance(move, Stand):
        table.stand(move.holder)
    elif isinstance(move, SeatComputer):
        table.seat_computer(move.holder, move.index, move.name)
    elif isinstance(move, UnseatComputer):
        table.unseat_computer(move.holder, move.index)
    elif isinstance(move, Start):
        table.start(move.holder, now)
    elif isinstance(move, Close):
        table.close(move.holder)
    elif isinstance(move, Accept):
        table.accept(move.holder, now)
    elif isinstance(move, Decline):
        table.decline(move.holder)
    elif not isinstance(move, Tick):
        raise TypeError(f"not a table move: {move!r}")


__all__ = ["MOVES", "Accept", "Close", "Decline", "Guess", "Leave", "Resume", "SeatComputer", "SetCode", "Sit", "Stand",
           "Start", "TableMove", "Tick", "UnseatComputer", "apply_move"]
