"""Registered users, their names, the codes that link a new key to one, and the scoreboard.

The rules for names are in docs/play.md, *World of Mastermind*; keys and link codes in docs/serve.md,
*Who you are: your SSH key*.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from .game import Refusal
from .keys import LINK_CODE_LIFETIME, KeyRejected, check_fingerprint, hash_link_code, new_link_code

MAX_NAME = 16
MAX_GUEST_NAME = 7
COMPUTER_NAMES = ("HAL9000", "VIKI")
MAX_TOTAL = 10**12
"""The largest score or number of games a user can have: a game gives at most 20 points."""

NAME_CHARACTERS = r"[A-Za-z0-9 ._\-]"
"""One character a name may have (a pattern): ASCII letters, digits, space, ``.``, ``_`` and ``-``."""
_NAME_CHARS = re.compile(NAME_CHARACTERS + "*")
_CODE_HASH = re.compile(r"[0-9a-f]{64}")


class NameRejected(Refusal):
    """A name that cannot be registered or used; ``reason`` is shown to the player."""


def computer_name(name: str) -> str | None:
    """The computer player's canonical name if ``name`` is one in any case, else ``None``."""
    for reserved in COMPUTER_NAMES:
        if name.casefold() == reserved.casefold():
            return reserved
    return None


NO_NAME = "Please type a name."
BAD_CHARACTERS = "A name may use only the letters A-Z, digits, spaces, '-', '_' and '.'."
EDGE_SPACE = "A name cannot start or end with a space."
GUEST_SPACE = "A hall-of-fame name cannot contain spaces."


def too_long(max_length: int) -> str:
    """The reason a name longer than ``max_length`` is refused."""
    return f"A name can be at most {max_length} characters long."


def check_name(name: str, *, max_length: int = MAX_NAME) -> str:
    """Return ``name`` unchanged if it is a valid player name, else raise :class:`NameRejected`.

    Names are 1–``max_length`` ASCII letters, digits, spaces, ``-``, ``_`` or ``.``,
    not starting or ending with a space, and never a computer player's name.
    Nothing is ever trimmed or filtered: a name that breaks a rule is refused with the reason.
    """
    if not isinstance(name, str) or name == "":
        raise NameRejected(NO_NAME)
    if _NAME_CHARS.fullmatch(name) is None:
        bad = next(ch for ch in name if _NAME_CHARS.fullmatch(ch) is None)
        shown = bad if bad.isprintable() and not bad.isspace() else repr(bad)[1:-1]
        raise NameRejected(f"{BAD_CHARACTERS[:-1]} (not {shown}).")
    if name.strip() == "":
        raise NameRejected(NO_NAME)
    if name != name.strip(" "):
        raise NameRejected(EDGE_SPACE)
    if len(name) > max_length:
        raise NameRejected(too_long(max_length))
    reserved = computer_name(name)
    if reserved is not None:
        raise NameRejected(f"{reserved} is a computer player's name.")
    return name


def check_new_name(name: str, lookalike_of: Callable[[str], str | None]) -> str:
    """Return ``name`` if it may be registered now, else raise :class:`NameRejected` with the reason:
    :func:`check_name`'s rules, and no name that looks like a reserved one or like ``lookalike_of(name)``,
    the registered name it looks like (None: none).
    """
    check_name(name)
    reason = reserved_lookalike(name)
    if reason is not None:
        raise NameRejected(reason)
    holder = lookalike_of(name)
    if holder is not None:
        raise NameRejected("Sorry, the name is already taken." if name_key(holder) == name_key(name)
                           else lookalike_taken(name, holder))
    return name


def check_guest_name(name: str) -> str:
    """Return ``name`` unchanged if a guest may enter the hall of fame with it, else raise :class:`NameRejected`.

    As in the older line-mode game's hall of fame: 1–7 characters and no spaces, on top of :func:`check_name`'s rules.
    Nothing is cut or trimmed: ``"Annabell"`` and ``"Al Bo"`` are refused with the reason.
    """
    if isinstance(name, str) and name and any(ch.isspace() for ch in name) and name.strip():
        raise NameRejected(GUEST_SPACE)
    return check_name(name, max_length=MAX_GUEST_NAME)


def name_key(name: str) -> str:
    """The key under which names are unique: case is ignored."""
    return name.casefold()


LOOKALIKES = str.maketrans("0123456789i", "olzeasgtbql")
"""Characters that pass for one another in a name, folded to one: 0/O, 1/I/l, 2/Z, 3/E, 4/A, 5/S, 6/G, 7/T,
8/B, 9/q. The PostgreSQL store folds the same way (``FOLD_SQL`` in ``domain/store/postgres/migrations.py``)."""
_NOT_LETTER_OR_DIGIT = re.compile(r"[^a-z0-9]")
_GUEST = "guest"
_DIGIT_LOOKS = frozenset("0123456789".translate(LOOKALIKES))


def remembered_player(remembered: object, registered: Sequence[str]) -> str | None:
    """Who a local session plays together as when nobody chose yet: the registered name chosen last time
    (``remembered``, matched ignoring case), if it is still registered; None (a guest, and ask) otherwise.
    """
    if not isinstance(remembered, str) or not remembered:
        return None
    wanted = name_key(remembered)
    return next((name for name in registered if name_key(name) == wanted), None)


def fold_name(name: str) -> str:
    """A name as it looks: case, spaces and punctuation dropped, look-alike characters made one
    (``"HAL 9000."``, ``"hal9OOO"`` → ``"halgooo"``; ``"V1KI"`` → ``"vlkl"``). Two names that fold alike
    are one name to a registration (docs/play.md, *Names*).
    """
    return _NOT_LETTER_OR_DIGIT.sub("", name.casefold()).translate(LOOKALIKES)


def reserved_lookalike(name: str) -> str | None:
    """Why ``name`` may not be registered because it looks like a name kept for others (a computer
    player's, or a guest's label *Guest N*), or None.
    """
    folded = fold_name(name)
    for reserved in COMPUTER_NAMES:
        if folded == fold_name(reserved):
            return f"That name looks like {reserved}, a computer player's name."
    if folded.startswith(_GUEST) and set(folded[len(_GUEST):]) <= _DIGIT_LOOKS:
        return "Names like Guest 1 are kept for players without a name."
    return None


def lookalike_taken(name: str, holder: str) -> str:
    """The reason ``name`` is refused when it looks like ``holder``'s name, already taken."""
    return (f"Sorry, that name looks like {holder}, which is taken "
            "(case, spaces, punctuation and look-alikes such as 1/I/l, 0/O, 5/S do not count).")


def average(score: int, games: int) -> float:
    """Points per game rounded half-up to one decimal; 0.0 with no games (25/3 → 8.3, 1/4 → 0.3)."""
    if games == 0:
        return 0.0
    return float((Decimal(score) / Decimal(games)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


class User:
    """A registered player: a name fixed for life, a score that only grows, games played, and keys.

    ``keys`` are the SHA256 fingerprints of the SSH keys that sign in as this user over ``serve``
    (none for a name registered locally until the operator binds one).
    """

    __slots__ = ("__name", "__score", "__games", "__keys")

    def __init__(self, name: str, score: int = 0, games: int = 0, keys: Iterable[str] = ()) -> None:
        check_name(name)
        if type(score) is not int or score < 0 or type(games) is not int or games < 0:
            raise ValueError("score and games must be whole numbers of at least 0")
        if score > MAX_TOTAL or games > MAX_TOTAL:
            raise ValueError(f"score and games must be at most {MAX_TOTAL:,}: no one plays that much")
        if isinstance(keys, str):
            raise ValueError("keys must be a list of fingerprints")
        fingerprints: list[str] = []
        for key in keys:
            check_fingerprint(key)
            if key in fingerprints:
                raise ValueError(f"the key {key} is listed twice")
            fingerprints.append(key)
        self.__name = name
        self.__score = score
        self.__games = games
        self.__keys = tuple(fingerprints)

    @property
    def name(self) -> str:
        """The name as it was typed at registration; it never changes."""
        return self.__name

    @property
    def score(self) -> int:
        """Total points earned."""
        return self.__score

    @property
    def games(self) -> int:
        """Games of World of Mastermind finished."""
        return self.__games

    @property
    def keys(self) -> tuple[str, ...]:
        """Fingerprints of the SSH keys bound to this user, oldest first."""
        return self.__keys

    @property
    def average(self) -> float:
        """Points per game, rounded half-up to one decimal."""
        return average(self.__score, self.__games)

    def add_points(self, points: int) -> None:
        """Add ``points`` (at least 0) to the score."""
        if type(points) is not int or points < 0:
            raise ValueError(f"points must be a whole number of at least 0, not {points!r}")
        self.__score += points

    def record_game(self) -> None:
        """Count one more finished game."""
        self.__games += 1

    def add_key(self, fingerprint: str) -> None:
        """Bind one more key (use :meth:`UserRegistry.bind_key`, which keeps keys unique across users)."""
        check_fingerprint(fingerprint)
        if fingerprint not in self.__keys:
            self.__keys = (*self.__keys, fingerprint)

    def remove_key(self, fingerprint: str) -> None:
        """Unbind a key; KeyRejected if this user does not hold it."""
        if fingerprint not in self.__keys:
            raise KeyRejected(f"{self.__name} holds no key {fingerprint}.")
        self.__keys = tuple(key for key in self.__keys if key != fingerprint)

    def as_json(self) -> dict[str, Any]:
        """The user as plain JSON data (schema 2: with the key fingerprints)."""
        return {"name": self.__name, "score": self.__score, "games": self.__games, "keys": list(self.__keys)}

    @classmethod
    def from_json(cls, data: Any) -> User:
        """Rebuild a user from :meth:`as_json` data (``keys`` may be absent: schema 1).

        ``ValueError`` (or NameRejected) if it is not one.
        """
        if not isinstance(data, dict) or not {"name", "score", "games"} <= set(data) <= {"name", "score", "games", "keys"}:
            raise ValueError("a user must be an object with exactly name, score, games and keys")
        keys = data.get("keys", [])
        if not isinstance(keys, list):
            raise ValueError("keys must be a list of fingerprints")
        return cls(data["name"], data["score"], data["games"], keys)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, User) and self.as_json() == other.as_json()

    def __hash__(self) -> int:
        return hash(name_key(self.__name))

    def __repr__(self) -> str:
        keys = f", keys={list(self.__keys)!r}" if self.__keys else ""
        return f"User({self.__name!r}, score={self.__score}, games={self.__games}{keys})"


class UserRegistry:
    """All registered users, unique by name ignoring case; each key fingerprint belongs to one user."""

    def __init__(self, users: Iterable[User] = ()) -> None:
        self._users: dict[str, User] = {}
        self._looks: dict[str, str] = {}
        """Each folded name (:func:`fold_name`) and the first name registered with it: names registered
        before look-alikes were refused may share one, and still load."""
        holders: dict[str, str] = {}
        for user in users:
            key = name_key(user.name)
            if key in self._users:
                raise ValueError(f"two users share the name {user.name!r}")
            self._looks.setdefault(fold_name(user.name), user.name)
            for fingerprint in user.keys:
                if fingerprint in holders:
                    raise ValueError(f"the key {fingerprint} is bound to both {holders[fingerprint]!r} and {user.name!r}")
                holders[fingerprint] = user.name
            self._users[key] = user

    def register(self, name: str, key: str | None = None) -> User:
        """Create a new user with 0 points and 0 games (holding ``key`` if given).

        Raises :class:`NameRejected` for a bad or taken name, :class:`KeyRejected` if the key
        already belongs to someone; nothing changes then.
        """
        check_name(name)
        if name_key(name) in self._users:
            raise NameRejected("Sorry, the name is already taken.")
        check_new_name(name, self.lookalike_of)
        if key is not None:
            check_fingerprint(key)
            holder = self.holder_of(key)
            if holder is not None:
                raise KeyRejected(f"This key already belongs to {holder.name}.")
        user = User(name, keys=() if key is None else (key,))
        self._users[name_key(name)] = user
        self._looks.setdefault(fold_name(name), name)
        return user

    def lookalike_of(self, name: str) -> str | None:
        """The registered name ``name`` looks like (:func:`fold_name`), or None."""
        return self._looks.get(fold_name(name))

    def holder_of(self, fingerprint: str) -> User | None:
        """The user holding the key with this fingerprint, or ``None``."""
        for user in self._users.values():
            if fingerprint in user.keys:
                return user
        return None

    def bind_key(self, name: str, fingerprint: str) -> User:
        """Give user ``name`` the key ``fingerprint``; KeyRejected if the name is unknown or the key is someone else's."""
        check_fingerprint(fingerprint)
        user = self.get(name)
        if user is None:
            raise KeyRejected(f"There is no user called {name}.")
        holder = self.holder_of(fingerprint)
        if holder is not None and holder is not user:
            raise KeyRejected(f"This key already belongs to {holder.name}.")
        user.add_key(fingerprint)
        return user

    def unbind_key(self, name: str, fingerprint: str) -> User:
        """Take the key ``fingerprint`` from user ``name``; KeyRejected if they do not hold it."""
        user = self.get(name)
        if user is None:
            raise KeyRejected(f"There is no user called {name}.")
        user.remove_key(fingerprint)
        return user

    def get(self, name: str) -> User | None:
        """The user with this name in any case, or ``None``."""
        return self._users.get(name_key(name))

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name_key(name) in self._users

    def __iter__(self) -> Iterator[User]:
        return iter(self._users.values())

    def __len__(self) -> int:
        return len(self._users)

    def scoreboard(self) -> list[User]:
        """Users by score, highest first, then by name (ignoring case)."""
        return sorted(self._users.values(), key=lambda u: (-u.score, name_key(u.name), u.name))


@dataclass(frozen=True)
class PendingLink:
    """A one-time code waiting to be typed: whose name it links to, its hash, and when it expires."""

    name: str
    code_hash: str
    expires: datetime

    def __post_init__(self) -> None:
        check_name(self.name)
        if not isinstance(self.code_hash, str) or _CODE_HASH.fullmatch(self.code_hash) is None:
            raise ValueError("a link code hash must be 64 hex digits")
        if not isinstance(self.expires, datetime) or self.expires.tzinfo is None:
            raise ValueError("a link code's expiry must be a time with a time zone")

    @classmethod
    def issue(cls, name: str, now: datetime) -> tuple[str, PendingLink]:
        """A new code for ``name`` and what to keep of it, valid until ``now`` + 10 minutes."""
        code = new_link_code()
        return code, cls(name, hash_link_code(code), now + LINK_CODE_LIFETIME)

    def matches(self, typed: str, now: datetime) -> bool:
        """True if ``typed`` is this code and it has not expired at ``now``."""
        return now < self.expires and secrets.compare_digest(self.code_hash, hash_link_code(typed))

    def as_json(self) -> dict[str, Any]:
        """Plain JSON data."""
        return {"name": self.name, "code_hash": self.code_hash, "expires": self.expires.isoformat()}

    @classmethod
    def from_json(cls, data: Any) -> PendingLink:
        """Rebuild from :meth:`as_json` data; ValueError if it is not one."""
        if not isinstance(data, dict) or set(data) != {"name", "code_hash", "expires"}:
            raise ValueError("a link code must be an object with exactly name, code_hash and expires")
        if not isinstance(data["expires"], str):
            raise ValueError("a link code's expiry must be an ISO-8601 string")
        return cls(data["name"], data["code_hash"], datetime.fromisoformat(data["expires"]))
