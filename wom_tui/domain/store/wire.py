"""The hub's protocol (docs/arcade.md, *The hub*): what a served game and its server's hub say to each other.

Every message is a msgspec Struct, one per frame (a 4-byte length, then MessagePack): a game sends a
:class:`Call` (a store method by name and its arguments) or a :class:`Subscribe`; the hub answers a call with a
:class:`Reply` or a :class:`Failure` (the exception, by kind and reason) and sends a subscriber each
:class:`Change`. Arguments and results are plain values: each is converted from its domain type to data
(:func:`to_wire`: a class's ``as_json``, a dataclass's fields, always tagged with the class's name) and back
to exactly the type the :class:`.api.Store` protocol names for it (:func:`from_wire`), so that nothing but
the values listed in :data:`METHODS` can reach the store, and no code crosses (no pickles, no callables).
Anything else is :class:`WireError`: the hub cuts that connection off.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import datetime as _dt
import enum
import functools
import inspect
import struct
import types
import typing
from typing import Any, Union

import msgspec

from ..arena import Arena, ArenaRefused, ArenaRules
from ..browser import BrowserSignInRefused
from ..codes import Ruleset
from ..daily import DailyRefused
from ..game import Refusal
from ..keys import KeyRejected
from ..matchmaking import MatchQueue, RatingOf, Ticket
from ..moderation import ModerationRefused
from ..moves import MOVES, TableMove
from ..presence import Presence, Whereabouts
from ..table import Refused, SeatHolder, Table, TableDataError
from ..variants import Variant
from ..users import NameRejected, UserRegistry
from . import api
from .api import LiveChange, StoreError

PROTOCOL = 1
"""The protocol's version: a game and a hub of another version do not talk (a server restarts both)."""
CALL_LIMIT = 256 * 1024
"""Bytes one message from a game may take at most (a long paste is a few kilobytes)."""
REPLY_LIMIT = 64 * 1024 * 1024
"""Bytes one message from the hub may take at most (every table of a busy arcade, every recorded game)."""
HEADER = struct.Struct(">I")


class WireError(Exception):
    """A message that is not one of the protocol's, or a value that is not what its method takes."""


# ---------------------------------------------------------------- the messages


class Hello(msgspec.Struct, tag=True, frozen=True):
    """The hub's first words on every connection: its protocol and where the arcade is kept."""

    protocol: int
    location: str
    quick_reads: bool = False


class Call(msgspec.Struct, tag=True, frozen=True):
    """Run the store method ``method`` (a name of :data:`METHODS`) with these arguments (wire values)."""

    id: int
    method: str
    args: list[Any] = []
    kwargs: dict[str, Any] = {}


class Subscribe(msgspec.Struct, tag=True, frozen=True):
    """Send this connection every change from now on (the connection then carries nothing else)."""

    id: int


class Ready(msgspec.Struct, tag=True, frozen=True):
    """The subscription is live: every later change will be sent (:class:`.api.ChangeFeed`'s ``ready``)."""

    id: int


class Reply(msgspec.Struct, tag=True, frozen=True):
    """What the method returned (a wire value)."""

    id: int
    value: Any = None


class Failure(msgspec.Struct, tag=True, frozen=True):
    """The method raised: the exception's kind (a name of :data:`FAILURES`) and its arguments."""

    id: int
    kind: str
    args: list[str]


class Change(msgspec.Struct, tag=True, frozen=True):
    """Something in the live state changed (:class:`.api.LiveChange`); ``tables_now``: those of the changed
    tables the hub has at hand as written (wire values of :class:`.table.Table`), so that a screen showing one
    need not read it again.
    """

    tables: list[str]
    presence: bool = False
    scores: bool = False
    moderation: bool = False
    queue: bool = False
    tables_now: list[Any] = []


Message = Union[Hello, Call, Subscribe, Ready, Reply, Failure, Change]
_ENCODER = msgspec.msgpack.Encoder()
_DECODER: msgspec.msgpack.Decoder[Message] = msgspec.msgpack.Decoder(Message)


def frame(message: Message) -> bytes:
    """One message as it goes on the socket: its length, then its bytes."""
    body = _ENCODER.encode(message)
    return HEADER.pack(len(body)) + body


def decode(body: bytes) -> Message:
    """The message in one frame's body; :class:`WireError` if it is none of the protocol's."""
    try:
        return _DECODER.decode(body)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise WireError(f"not a message of the hub's protocol ({exc})") from None


def change_message(change: LiveChange, tables_now: list[Table] | None = None) -> Change:
    """A :class:`.api.LiveChange` as a message (with the tables written, when at hand)."""
    return Change(sorted(change.tables), change.presence, change.scores, change.moderation, change.queue,
                  [to_wire(table) for table in tables_now or ()])


def live_change(message: Change) -> LiveChange:
    """The :class:`.api.LiveChange` a message carries."""
    return LiveChange(frozenset(message.tables), message.presence, message.scores, moderation=message.moderation,
                      queue=message.queue)


# ---------------------------------------------------------------- values


_TAG = "$"


def to_wire(value: Any) -> Any:
    """``value`` as plain data (MessagePack's types), class instances tagged with their class's name."""
    if value is None or isinstance(value, (bool, int, float, str, bytes)):
        return value.value if isinstance(value, enum.Enum) else value
    if isinstance(value, _dt.datetime):
        return {_TAG: "datetime", "v": value.isoformat()}
    if isinstance(value, (list, tuple, set, frozenset)) and not hasattr(value, "_fields"):
        return [to_wire(item) for item in value]
    if isinstance(value, dict):
        return {str(key): to_wire(item) for key, item in value.items()}
    name = type(value).__name__
    if isinstance(value, StoreError):
        return {_TAG: name, "v": [where(value), value.reason]}
    if isinstance(value, UserRegistry):
        return {_TAG: name, "v": [to_wire(user) for user in value]}
    if hasattr(value, "_fields"):  # a NamedTuple
        return {_TAG: name, "v": [to_wire(item) for item in value]}
    if hasattr(type(value), "from_json"):
        if hasattr(value, "as_json"):
            return {_TAG: name, "v": value.as_json()}
        if hasattr(value, "to_json"):  # a table
            return {_TAG: name, "v": value.to_json()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {_TAG: name, "v": {field.name: to_wire(getattr(value, field.name)) for field in dataclasses.fields(value)}}
    raise WireError(f"cannot send a {name} to or from the hub")


def where(error: StoreError) -> str:
    """The location a StoreError was made with, as typed (its text without ": reason")."""
    text = str(error)
    return text[: -len(error.reason) - 2] if text.endswith(": " + error.reason) else str(error.path)


_HINTS: dict[Any, dict[str, Any]] = {}


@functools.cache
def _namespace() -> dict[str, Any]:
    """Every name the store's api annotations use (built once: each build touches every object of a dozen
    modules, which in a served game copies the warm parent's pages they are on).
    """
    from .. import browser, daily, halloffame, matchmaking, moderation, presence, ratings, records, rush, stats, users

    space: dict[str, Any] = {}
    for module in (browser, daily, halloffame, matchmaking, moderation, presence, ratings, records, rush, stats, users,
                   api):
        space.update(vars(module))
    space.update(Ruleset=Ruleset, MatchQueue=MatchQueue, RatingOf=RatingOf, Ticket=Ticket, TableMove=TableMove,
                 Presence=Presence, Whereabouts=Whereabouts, SeatHolder=SeatHolder, Table=Table, Arena=Arena,
                 ArenaRules=ArenaRules, Variant=Variant)
    return space


def hints_of(thing: Any) -> dict[str, Any]:
    """The resolved annotations of a function or class (every name the store's api uses is known here)."""
    found = _HINTS.get(thing)
    if found is None:
        found = _HINTS[thing] = typing.get_type_hints(thing, globalns=_namespace())
    return found


def from_wire(hint: Any, data: Any) -> Any:
    """``data`` as the type ``hint`` names; :class:`WireError` if it is not one."""
    try:
        return _from_wire(hint, data)
    except WireError:
        raise
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        raise WireError(f"not a {getattr(hint, '__name__', hint)}: {exc}") from None


_SIMPLE = (bool, int, float, str, bytes)


def _from_wire(hint: Any, data: Any) -> Any:
    if hint is Any or hint is object:
        return data
    if hint is None or hint is type(None):
        if data is not None:
            raise WireError(f"expected nothing, got {type(data).__name__}")
        return None
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        arms = typing.get_args(hint)
        if data is None and type(None) in arms:
            return None
        tag = data.get(_TAG) if isinstance(data, dict) else None
        failures = []
        for arm in arms:
            if arm is type(None):
                continue
            if tag is not None and isinstance(arm, type) and arm.__name__ != tag:
                continue
            try:
                return _from_wire(arm, data)
            except (WireError, ValueError, TypeError, KeyError) as exc:
                failures.append(str(exc))
        raise WireError(f"none of {hint}: {'; '.join(failures)}")
    if origin is not None:
        args = typing.get_args(hint)
        if origin in (list, set, frozenset, collections.abc.Sequence, collections.abc.Iterable) \
                or (origin is tuple and len(args) == 2 and args[1] is Ellipsis):
            if not isinstance(data, list):
                raise WireError(f"expected a list, got {type(data).__name__}")
            items = [_from_wire(args[0] if args else Any, item) for item in data]
            return tuple(items) if origin is tuple else origin(items) if origin in (set, frozenset) else items
        if origin is tuple:
            if not isinstance(data, list) or len(data) != len(args):
                raise WireError(f"expected {len(args)} values")
            return tuple(_from_wire(arg, item) for arg, item in zip(args, data))
        if origin is dict:
            if not isinstance(data, dict) or _TAG in data:
                raise WireError(f"expected a mapping, got {type(data).__name__}")
            key, value = args if args else (Any, Any)
            return {_from_wire(key, k): _from_wire(value, v) for k, v in data.items()}
        if origin is typing.Literal:
            if data not in args:
                raise WireError(f"{data!r} is not one of {args}")
            return data
        raise WireError(f"cannot receive a {hint}")
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint(data)
    if hint is float:
        if type(data) not in (int, float):
            raise WireError(f"expected a number, got {type(data).__name__}")
        return float(data)
    if hint in _SIMPLE:
        if type(data) is not hint:
            raise WireError(f"expected {hint.__name__}, got {type(data).__name__}")
        return data
    if not isinstance(hint, type):
        raise WireError(f"cannot receive a {hint}")
    if not isinstance(data, dict) or data.get(_TAG) != (hint.__name__ if hint is not _dt.datetime else "datetime"):
        raise WireError(f"expected a {hint.__name__}")
    payload: Any = data.get("v")
    if hint is _dt.datetime:
        return _dt.datetime.fromisoformat(payload)
    if issubclass(hint, StoreError):
        path, reason = payload
        return StoreError(str(path), str(reason))
    if hint is UserRegistry:
        from ..users import User

        return UserRegistry(_from_wire(list[User], payload))
    if issubclass(hint, tuple) and hasattr(hint, "_fields"):
        hints = hints_of(hint)
        return hint(*(_from_wire(hints[name], item) for name, item in zip(hint._fields, payload)))
    if hasattr(hint, "from_json") and (hasattr(hint, "as_json") or hasattr(hint, "to_json")):
        return hint.from_json(payload)
    if dataclasses.is_dataclass(hint):
        hints = hints_of(hint)
        if not isinstance(payload, dict):
            raise WireError(f"expected the fields of a {hint.__name__}")
        known = {field.name for field in dataclasses.fields(hint) if field.init}
        if not set(payload) <= known:
            raise WireError(f"unknown fields of a {hint.__name__}: {sorted(set(payload) - known)}")
        return hint(**{name: _from_wire(hints[name], item) for name, item in payload.items()})
    raise WireError(f"cannot receive a {hint.__name__}")


# ---------------------------------------------------------------- the methods


_STORE_ROLES = (api.Users, api.Keys, api.BrowserSessions, api.Moderation, api.Records, api.Ratings, api.Hall,
                api.Preferences, api.Daily, api.SoloProgress, api.RushBests)
_ADMIN = ("is_empty", "totals", "themes", "all_choices", "daily_secret_kept", "all_browser_sessions")
_LIVE = ("join", "join_guest", "heartbeat", "report_screen", "part", "sessions", "create_table", "invite", "rematch",
         "table", "tables", "play", "tick", "sweep", "claim_sweep", "match_queue", "enqueue", "leave_queue", "fill_now",
         "match_wave", "arenas", "arena", "join_arena", "pause_arena", "arena_berserk")
# (Not start_arena nor arena_wave: the operator starts an arena, the hub pairs its players; a game does neither.)
_NOT_SENT = {"rating_of"}
"""Parameters a game cannot send (functions): the hub supplies its own (a rating read from the store)."""


@dataclasses.dataclass(frozen=True)
class Method:
    """One store method a game may call through the hub: on the store or on ``store.live``."""

    name: str
    live: bool
    params: tuple[str, ...]
    """Its parameters in order (those a game sends)."""
    hints: dict[str, Any]
    """Each parameter's type and, under ``return``, what it returns."""

    def arguments(self, args: list[Any], kwargs: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
        """The values of a :class:`Call`, each as the type the method takes; :class:`WireError` if not."""
        if len(args) > len(self.params):
            raise WireError(f"{self.name} takes {len(self.params)} arguments")
        positional = [from_wire(self.hints[name], value) for name, value in zip(self.params, args)]
        named = {}
        for name, value in kwargs.items():
            if name not in self.params or name in self.params[: len(args)]:
                raise WireError(f"{self.name} has no argument {name!r} to give")
            named[name] = from_wire(self.hints[name], value)
        return positional, named

    def result(self, data: Any) -> Any:
        """A :class:`Reply`'s value as what the method returns."""
        return from_wire(self.hints.get("return", Any), data)


def _method(role: Any, name: str, live: bool) -> Method:
    function = getattr(role, name)
    hints = hints_of(function)
    params = tuple(p for p in inspect.signature(function).parameters if p not in ("self", *_NOT_SENT))
    return Method(name, live, params, hints)


def _methods() -> dict[str, Method]:
    found: dict[str, Method] = {}
    for role in _STORE_ROLES:
        for name, value in vars(role).items():
            if callable(value) and not name.startswith("_"):
                found[name] = _method(role, name, False)
    for name in _ADMIN:
        found[name] = _method(api.Admin, name, False)
    found["check"] = _method(api.Store, "check", False)
    for name in _LIVE:
        found["live." + name] = _method(api.Live, name, True)
    return found


_METHODS: dict[str, Method] | None = None


def methods() -> dict[str, Method]:
    """Every method a game may call, by name (``live.`` before those of ``store.live``)."""
    global _METHODS
    if _METHODS is None:
        _METHODS = _methods()
    return _METHODS


# ---------------------------------------------------------------- failures


FAILURES: dict[str, type[Exception]] = {
    cls.__name__: cls for cls in (StoreError, Refusal, Refused, NameRejected, KeyRejected, DailyRefused,
                                  ModerationRefused, BrowserSignInRefused, TableDataError, ArenaRefused, ValueError,
                                  LookupError, KeyError)
}
"""The exceptions a call may end in, re-raised as themselves in the game (anything else is logged by the hub
and reaches the game as a :class:`.api.StoreError`)."""


def failure_of(call_id: int, exc: BaseException, location: str) -> Failure:
    """The :class:`Failure` that tells a game its call raised ``exc``."""
    if isinstance(exc, StoreError):
        return Failure(call_id, "StoreError", [where(exc), exc.reason])
    for cls in type(exc).__mro__:
        if cls.__name__ in FAILURES and FAILURES[cls.__name__] is cls:
            reason = getattr(exc, "reason", None)
            text = reason if isinstance(reason, str) else (exc.args[0] if exc.args and isinstance(exc.args[0], str)
                                                            else str(exc))
            return Failure(call_id, cls.__name__, [text])
    return Failure(call_id, "StoreError", [location, "the arcade's store failed on this request (the server's log says why)"])


def raise_failure(failure: Failure) -> typing.NoReturn:
    """Raise the exception a :class:`Failure` names, as the game's code expects it."""
    cls = FAILURES.get(failure.kind)
    if cls is StoreError and len(failure.args) == 2:
        raise StoreError(failure.args[0], failure.args[1])
    if cls is None or not failure.args:
        raise StoreError("the arcade's hub", f"an answer the game does not understand ({failure.kind})")
    raise cls(failure.args[0])


__all__ = [
    "CALL_LIMIT", "Call", "Change", "FAILURES", "Failure", "HEADER", "Hello", "MOVES", "Message", "Method", "PROTOCOL",
    "REPLY_LIMIT", "Ready", "Reply", "Subscribe", "WireError", "change_message", "decode", "failure_of", "frame",
    "from_wire", "hints_of", "live_change", "methods", "raise_failure", "to_wire",
]
