"""The hall of fame: for each solo ruleset, the best win and who holds it.

The rules: docs/play.md, *Solo: break the computer's code*.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .codes import PALETTES, Ruleset
from .records import utc_now
from .users import MAX_GUEST_NAME, MAX_NAME, check_name

_ENTRY_KEYS = {"ruleset", "guesses", "name", "guest", "date"}
_PALETTE_ORDER = {key: index for index, key in enumerate(PALETTES)}


@dataclass(frozen=True)
class HallEntry:
    """One record: a win on ``ruleset`` using ``guesses`` (lifeline costs included), by whom and when.

    Guests give a name of 1–7 characters; registered users keep their registered name.
    Building an entry that breaks these rules raises ``ValueError`` (``NameRejected`` for names).
    """

    ruleset: Ruleset
    guesses: int
    name: str
    guest: bool = False
    date: str = field(default_factory=utc_now)

    def __post_init__(self) -> None:
        if not isinstance(self.ruleset, Ruleset):
            raise ValueError("a hall-of-fame entry needs a ruleset")
        if type(self.guest) is not bool:
            raise ValueError("guest must be true or false")
        if type(self.guesses) is not int or not 1 <= self.guesses <= self.ruleset.guesses:
            raise ValueError(f"guesses used must be a whole number from 1 to {self.ruleset.guesses}")
        check_name(self.name, max_length=MAX_GUEST_NAME if self.guest else MAX_NAME)
        if not isinstance(self.date, str):
            raise ValueError("the date must be an ISO-8601 string")
        try:
            datetime.fromisoformat(self.date)
        except ValueError:
            raise ValueError(f"the date {self.date!r} is not an ISO-8601 date") from None

    @property
    def day(self) -> str:
        """The date part only, ``"2026-11-20"``, for display."""
        return self.date[:10]

    def as_json(self) -> dict[str, Any]:
        """The entry as plain JSON data."""
        return {
            "ruleset": self.ruleset.as_json(),
            "guesses": self.guesses,
            "name": self.name,
            "guest": self.guest,
            "date": self.date,
        }

    @classmethod
    def from_json(cls, data: Any) -> HallEntry:
        """Rebuild an entry from :meth:`as_json` data; ``ValueError`` if it is not a valid one."""
        if not isinstance(data, dict) or set(data) != _ENTRY_KEYS:
            raise ValueError("a hall-of-fame entry must have exactly ruleset, guesses, name, guest and date")
        return cls(Ruleset.from_json(data["ruleset"]), data["guesses"], data["name"], data["guest"], data["date"])


def _display_order(ruleset: Ruleset) -> tuple[int, int, bool, int]:
    return (ruleset.length, _PALETTE_ORDER.get(ruleset.palette.key, len(_PALETTE_ORDER)), ruleset.repeats,
            ruleset.guesses)


class HallOfFame:
    """Per ruleset, the single best win: fewest guesses; on a tie the earlier holder stays."""

    def __init__(self, entries: Iterable[HallEntry] = ()) -> None:
        self._best: dict[str, HallEntry] = {}
        for entry in entries:
            if entry.ruleset.key in self._best:
                raise ValueError(f"two records for the ruleset {entry.ruleset.key}")
            self._best[entry.ruleset.key] = entry

    def best(self, ruleset: Ruleset) -> HallEntry | None:
        """The record for ``ruleset``, or ``None`` if nobody has won on it yet."""
        return self._best.get(ruleset.key)

    def would_set_record(self, ruleset: Ruleset, guesses: int) -> bool:
        """True if a win on ``ruleset`` using ``guesses`` would become the record (ask a guest's name then)."""
        best = self.best(ruleset)
        return best is None or guesses < best.guesses

    def consider(self, entry: HallEntry) -> bool:
        """Make ``entry`` the record if it beats the current one; True if it did."""
        if not self.would_set_record(entry.ruleset, entry.guesses):
            return False
        self._best[entry.ruleset.key] = entry
        return True

    def entries(self) -> list[HallEntry]:
        """Every record, sorted for display by length, palette, repeats, then guesses allowed."""
        return sorted(self._best.values(), key=lambda e: _display_order(e.ruleset))

    def __len__(self) -> int:
        return len(self._best)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HallOfFame) and self._best == other._best

    def __repr__(self) -> str:
        return f"HallOfFame({self.entries()!r})"

    def as_json(self) -> list[dict[str, Any]]:
        """The records as plain JSON data, in display order."""
        return [entry.as_json() for entry in self.entries()]

    @classmethod
    def from_json(cls, data: Any) -> HallOfFame:
        """Rebuild from :meth:`as_json` data; ``ValueError`` if it is not valid."""
        if not isinstance(data, list):
            raise ValueError("the hall of fame must be a list of records")
        return cls(HallEntry.from_json(item) for item in data)


__all__ = ["HallEntry", "HallOfFame"]
