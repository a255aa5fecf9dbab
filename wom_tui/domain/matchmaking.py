"""Quick match: "play World of Mastermind now" — who waits, and who sits with whom.

For players: docs/play.md, *Quick match*.

Waiting players hold a :class:`Ticket` in one :class:`MatchQueue` shared by every process and server
on a store. The queue is paired in *waves*: every :data:`WAVE_INTERVAL` seconds, or at once when
:data:`WAVE_AT` wait (:func:`wave_due`). A wave (:func:`pair`) groups waiting players by rating
closeness that widens the longer someone waits (:func:`tolerance`), up to :data:`MAX_SEATS` a table,
players with the same attempts together. Someone who has waited their ``fill_after`` seconds with
nobody close enough gets a table with HAL9000 or VIKI, whichever's rating is nearest theirs.
:func:`match_table` turns a group into a started table (codes being set).

A straggler — someone arriving just after a wave seated everyone else — is not left to wait alone for
the computers: a wave's group of two or three people is *held* for :data:`STRAGGLER_HOLD` seconds
before its table is made (its players see who they will play and when it starts), and a player who
comes meanwhile, close enough in rating and on the same attempts, joins it at once (a wave is due as
soon as they can). The group's table is made when the hold is over or as soon as it is full. A table
of four, or one a computer fills, is made at once. (docs/arcade.md, *Quick match across servers*.)

Fair pairing (docs/arcade.md, *Fair ratings*): two players of one network (an IPv4 /24, an IPv6 /64) and two
registered names quick match paired less than :data:`~.waits.REPEAT_PAIRING` ago (:attr:`MatchQueue.paired`)
are paired only when nobody else with the same attempts waits; a table of one network's players is then
unrated (:attr:`Group.rated`), and a repeat counts for little in the ratings (``ratings.REPEAT_WINDOW``).

Everything here is pure: ratings come in as numbers (a guest's or an unrated player's is
:data:`RATING_MIDDLE`), the time as ``now``, table ids and seeds from the caller. One wave never
seats a ticket twice, and a ticket once seated is never paired again (:meth:`Ticket.waiting`).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from .browser import network_key
from .ratings import DISPLAY_BASE
from .table import COMPUTER_PACE, SeatHolder, Table, TableDataError
from .users import COMPUTER_NAMES, name_key
from .waits import FILL_AFTER, REPEAT_PAIRING, SEAT_GRACE
from .wom import MAX_ATTEMPTS, MIN_ATTEMPTS

WAVE_INTERVAL = 10.0
"""Seconds between two waves of pairing."""
WAVE_AT = 4
"""A wave runs at once when this many players with the same attempts wait."""
MAX_SEATS = 4
"""The most players a quick-match table seats."""
RATING_MIDDLE = float(DISPLAY_BASE)
"""The middle of the rating scale: the rating of a guest or of a player with none yet."""
CLOSENESS = 100.0
"""Rating points apart two players may be when neither has waited."""
WIDENING = 25.0
"""Rating points the closeness widens by for every second a player has waited."""
RatingOf = Callable[[str], "float | None"]
"""A registered player's rating by name (None: unrated); the ratings' store supplies it."""
MATCHED_KEEP = 60.0
"""Seconds a seated ticket stays in the queue for its player's screen to read it."""
STRAGGLER_HOLD = 3.0
"""Seconds a wave's group of two or three waits for one more player before its table is made."""
UNRATED_LINE = "This game is not rated: two of its players connect from one network."
"""The first line of an unrated quick-match table's log (docs/arcade.md, *Fair ratings*)."""


def pairing_network(address: str | None) -> str | None:
    """The network a player's ticket names (:attr:`Ticket.network`): the IPv4 /24 or IPv6 /64 of the address the
    server saw; None for no address (a local game) or a loopback one (the machine's own users, or a proxy
    not declared with ``--trusted-proxy``, behind which everyone shares one address: nobody is held apart).
    """
    if not address:
        return None
    try:
        if ipaddress.ip_address(address.split("%", 1)[0]).is_loopback:
            return None
    except ValueError:
        pass
    return network_key(address)


def tolerance(waited: float) -> float:
    """How far apart in rating a player who has waited ``waited`` seconds accepts others."""
    return CLOSENESS + WIDENING * max(0.0, waited)


@dataclass(frozen=True)
class Ticket:
    """A player waiting for a quick match (or just seated by one: ``table_id``)."""

    holder: SeatHolder
    since: float
    """When the player started waiting."""
    attempts: int = 10
    fill_after: float = FILL_AFTER
    """Seconds after ``since`` at which computers may fill the player's table (0: at once)."""
    table_id: str | None = None
    """The table the player was seated at (None while waiting)."""
    matched_at: float | None = None
    group: str | None = None
    """The session of the first player of the held group this player is in (None: not in one)."""
    held_until: float | None = None
    """When the held group's table is made if nobody else joins (None: not in a held group)."""
    network: str | None = None
    """The network the player connects from (an IPv4 /24, an IPv6 /64; None: not known, a local game): two
    players of one network are paired only when nobody else waits, and their game is then unrated (one person
    with two names would feed one the other's games)."""

    def __post_init__(self) -> None:
        if not isinstance(self.holder, SeatHolder):
            raise TypeError("a ticket's holder must be a SeatHolder")
        if type(self.attempts) is not int or not MIN_ATTEMPTS <= self.attempts <= MAX_ATTEMPTS:
            raise ValueError(f"attempts must be between {MIN_ATTEMPTS} and {MAX_ATTEMPTS}")
        if not self.fill_after >= 0:
            raise ValueError("fill_after must be at least 0")
        if (self.group is None) != (self.held_until is None):
            raise ValueError("a held ticket names its group and when the hold ends")

    @property
    def session(self) -> str:
        """The waiting session."""
        return self.holder.session

    @property
    def waiting(self) -> bool:
        """Still waiting (not seated yet; a held group's players too)."""
        return self.table_id is None

    @property
    def free(self) -> bool:
        """Waiting and in no held group: the next wave may pair this player."""
        return self.table_id is None and self.group is None

    def may_fill(self, now: float) -> bool:
        """True once computers may fill this player's table."""
        return now - self.since >= self.fill_after

    def as_json(self) -> dict[str, Any]:
        """The ticket as plain JSON data."""
        data = {"holder": self.holder.as_json(), "since": self.since, "attempts": self.attempts,
                "fill_after": self.fill_after, "table_id": self.table_id, "matched_at": self.matched_at}
        if self.group is not None:
            data.update(group=self.group, held_until=self.held_until)
        if self.network is not None:
            data["network"] = self.network
        return data

    @classmethod
    def from_json(cls, data: Any) -> Ticket:
        """Rebuild from :meth:`as_json` data; :class:`.table.TableDataError` if it is not one."""
        keys = {"holder", "since", "attempts", "fill_after", "table_id", "matched_at"}
        held = {"group", "held_until"}
        if not isinstance(data, dict) or set(data) - {"network"} not in (keys, keys | held) \
                or not isinstance(data.get("network", ""), str):
            raise TableDataError(f"a queue ticket needs exactly {', '.join(sorted(keys))} (and group, held_until; "
                                 "a network, text)")
        number = (int, float)
        if type(data["since"]) not in number or type(data["fill_after"]) not in number \
                or (data["matched_at"] is not None and type(data["matched_at"]) not in number) \
                or (data["table_id"] is not None and not isinstance(data["table_id"], str)) \
                or ("group" in data and (not isinstance(data["group"], str)
                                         or type(data["held_until"]) not in number)):
            raise TableDataError("a queue ticket's times are numbers and its table id and group text")
        try:
            return cls(SeatHolder.from_json(data["holder"]), float(data["since"]), data["attempts"],
                       float(data["fill_after"]), data["table_id"],
                       None if data["matched_at"] is None else float(data["matched_at"]),
                       data.get("group"), None if "held_until" not in data else float(data["held_until"]),
                       data.get("network"))
        except (ValueError, TypeError) as exc:
            raise TableDataError(str(exc)) from None


def pair_key(a: SeatHolder, b: SeatHolder) -> str | None:
    """Two registered names as :attr:`MatchQueue.paired` keeps them (name keys, sorted); None unless both are
    registered and not the same name.
    """
    if not (a.registered and b.registered):
        return None
    first, second = sorted((name_key(a.name), name_key(b.name)))
    return None if first == second else f"{first} {second}"


@dataclass(frozen=True)
class MatchQueue:
    """Every ticket (waiting or just seated), when the last wave ran, and whom quick match paired lately."""

    tickets: tuple[Ticket, ...] = ()
    last_wave: float = 0.0
    paired: tuple[tuple[str, float], ...] = ()
    """Registered names quick match seated together (:func:`pair_key`) and when, the last
    :data:`~.waits.REPEAT_PAIRING` seconds' (a wave forgets older ones)."""

    def paired_since(self, now: float, window: float = REPEAT_PAIRING) -> frozenset[str]:
        """The pairs seated together less than ``window`` seconds before ``now``."""
        return frozenset(key for key, at in self.paired if now - at < window)

    def ticket(self, session: str) -> Ticket | None:
        """The ticket of ``session``, if any."""
        return next((t for t in self.tickets if t.session == session), None)

    @property
    def waiting(self) -> tuple[Ticket, ...]:
        """The tickets still waiting (held ones too), longest first."""
        return tuple(sorted((t for t in self.tickets if t.waiting), key=lambda t: (t.since, t.session)))

    @property
    def held(self) -> dict[str, tuple[Ticket, ...]]:
        """The held groups by group, each's tickets longest waiting first (the group's first player first)."""
        groups: dict[str, tuple[Ticket, ...]] = {}
        for ticket in self.waiting:
            if ticket.group is not None:
                groups[ticket.group] = (*groups.get(ticket.group, ()), ticket)
        return groups

    def with_ticket(self, ticket: Ticket) -> MatchQueue:
        """The queue with ``ticket`` added, replacing any of its session or of the same person."""
        kept = tuple(t for t in self.tickets
                     if t.session != ticket.session and t.holder.identity != ticket.holder.identity)
        return replace(self, tickets=(*kept, ticket))

    def without(self, sessions: set[str] | frozenset[str]) -> MatchQueue:
        """The queue without the tickets of ``sessions``."""
        return replace(self, tickets=tuple(t for t in self.tickets if t.session not in sessions))

    def as_json(self) -> dict[str, Any]:
        """The queue as plain JSON data (``paired`` only when there are any)."""
        data: dict[str, Any] = {"tickets": [t.as_json() for t in self.tickets], "last_wave": self.last_wave}
        if self.paired:
            data["paired"] = paired_as_json(self.paired)
        return data

    @classmethod
    def from_json(cls, data: Any) -> MatchQueue:
        """Rebuild from :meth:`as_json` data; :class:`.table.TableDataError` if it is not one."""
        if not isinstance(data, dict) or set(data) - {"paired"} != {"tickets", "last_wave"} \
                or not isinstance(data["tickets"], list) or type(data["last_wave"]) not in (int, float):
            raise TableDataError("a match queue holds exactly a list of tickets and last_wave (and paired)")
        return cls(tuple(Ticket.from_json(t) for t in data["tickets"]), float(data["last_wave"]),
                   paired_from_json(data.get("paired", [])))


def paired_as_json(paired: tuple[tuple[str, float], ...]) -> list[list[Any]]:
    """:attr:`MatchQueue.paired` as JSON data: ``[[pair key, when], …]``."""
    return [[key, at] for key, at in paired]


def paired_from_json(data: Any) -> tuple[tuple[str, float], ...]:
    """:func:`paired_as_json`'s data back; :class:`.table.TableDataError` if it is not that."""
    if not isinstance(data, list) or not all(
            isinstance(item, list) and len(item) == 2 and isinstance(item[0], str) and type(item[1]) in (int, float)
            for item in data):
        raise TableDataError("a match queue's 'paired' is a list of [names, when]")
    return tuple((key, float(at)) for key, at in data)


def wave_due(queue: MatchQueue, now: float, interval: float = WAVE_INTERVAL) -> bool:
    """True if a wave should run now: someone waits and the last wave is ``interval`` old, or
    :data:`WAVE_AT` wait with the same attempts, or someone's fill time has come, or a held group's hold
    is over, or someone who could join a held group waits. A wave with one
    player seats nobody, but starts the next ``interval``: the players arriving meanwhile gather, and
    a crowd is seated in fours rather than split into pairs with one left over.
    """
    waiting = queue.waiting
    if not waiting:
        return False
    free = [t for t in waiting if t.free]
    for members in queue.held.values():
        # A held group's hold is over, or a player who could join it has come: at once.
        if members[0].held_until is not None and members[0].held_until <= now:
            return True
        if len(members) < MAX_SEATS and any(t.attempts == members[0].attempts for t in free):
            return True
    if not free:
        return False
    if now - queue.last_wave >= interval:
        return True
    counts: dict[int, int] = {}
    for ticket in free:
        counts[ticket.attempts] = counts.get(ticket.attempts, 0) + 1
    return max(counts.values()) >= WAVE_AT or any(t.may_fill(now) for t in free)


@dataclass(frozen=True)
class Group:
    """Who sits at one new table: players (in seat order) and the computers that fill it."""

    tickets: tuple[Ticket, ...]
    computers: tuple[str, ...]
    attempts: int

    @property
    def rated(self) -> bool:
        """False when two of its players connect from one network: their game is recorded unrated."""
        networks = [t.network for t in self.tickets if t.network is not None]
        return len(networks) == len(set(networks))


def crowds(queue: MatchQueue) -> dict[int, int]:
    """How many wait (held groups too) for each number of attempts: more than two is a crowd, in which one
    network's players and a repeat pair are not seated together.
    """
    counts: dict[int, int] = {}
    for ticket in queue.waiting:
        counts[ticket.attempts] = counts.get(ticket.attempts, 0) + 1
    return counts


@dataclass(frozen=True)
class Fairness:
    """What a wave needs to pair fairly: who waits (per attempts) and the pairs seated lately."""

    crowd: Mapping[int, int]
    recent: frozenset[str]

    @classmethod
    def of(cls, queue: MatchQueue, now: float, window: float = REPEAT_PAIRING) -> Fairness:
        """The fairness of a wave on ``queue`` at ``now``."""
        return cls(crowds(queue), queue.paired_since(now, window))

    def apart(self, a: Ticket, b: Ticket) -> bool:
        """True when ``a`` and ``b`` must not sit together now: one network's players, or two names paired
        within the window, while somebody else with their attempts waits too.
        """
        if self.crowd.get(a.attempts, 0) <= 2:
            return False
        if a.network is not None and a.network == b.network:
            return True
        key = pair_key(a.holder, b.holder)
        return key is not None and key in self.recent


def nearest_computer(rating: float, computer_ratings: Mapping[str, float]) -> str:
    """The computer player whose rating is nearest ``rating`` (ties: the first of COMPUTER_NAMES)."""
    return min(COMPUTER_NAMES, key=lambda name: (abs(computer_ratings.get(name, RATING_MIDDLE) - rating),
                                                 COMPUTER_NAMES.index(name)))


def pair(queue: MatchQueue, ratings: Mapping[str, float], now: float,
         computer_ratings: Mapping[str, float] | None = None, fairness: Fairness | None = None) -> list[Group]:
    """One wave's pairing of the free tickets (not those in a held group): the groups it makes.
    ``ratings`` by session (missing: :data:`RATING_MIDDLE`).

    The longest waiter anchors a group; the others join closest rating first, each only if every pair
    in the group is within the wider of the two players' :func:`tolerance` and has the same attempts.
    A group of at least two is seated. A player left alone takes a close player from a full table
    (three and two rather than four and one); failing that, once their fill time has come, the computer
    nearest their rating. Everyone else keeps waiting. No ticket is in two groups. ``fairness`` (by default
    the queue's own, :meth:`Fairness.of`) keeps one network's players and a repeat pair apart in a crowd.
    """
    computer_ratings = computer_ratings or {}
    fair = fairness if fairness is not None else Fairness.of(queue, now)

    def rating(ticket: Ticket) -> float:
        return ratings.get(ticket.session, RATING_MIDDLE)

    def close(a: Ticket, b: Ticket) -> bool:
        return _close(a, b, ratings, now, fair)

    left = [t for t in queue.waiting if t.free]
    groups: list[Group] = []
    while left:
        anchor = left.pop(0)
        group = [anchor]
        for other in sorted(left, key=lambda t: (abs(rating(t) - rating(anchor)), t.since, t.session)):
            if len(group) == MAX_SEATS:
                break
            if all(close(member, other) for member in group):
                group.append(other)
        if len(group) >= 2:
            for member in group[1:]:
                left.remove(member)
            groups.append(Group(tuple(group), (), anchor.attempts))
            continue
        # Alone: rather than a full table and one player left waiting, a table of three and a pair.
        full = [(i, g) for i, g in enumerate(groups) if len(g.tickets) == MAX_SEATS and not g.computers]
        partner = next(((i, m) for i, g in full for m in reversed(g.tickets[1:]) if close(anchor, m)), None)
        if partner is not None:
            i, member = partner
            groups[i] = Group(tuple(t for t in groups[i].tickets if t is not member), (), groups[i].attempts)
            groups.append(Group((member, anchor), (), anchor.attempts))
        elif anchor.may_fill(now):
            groups.append(Group((anchor,), (nearest_computer(rating(anchor), computer_ratings),), anchor.attempts))
    return groups


def _close(a: Ticket, b: Ticket, ratings: Mapping[str, float], now: float, fair: Fairness) -> bool:
    """Same attempts, not kept apart (:meth:`Fairness.apart`), and ratings within the wider of the two players'
    :func:`tolerance`.
    """
    if fair.apart(a, b):
        return False
    wider = max(tolerance(now - a.since), tolerance(now - b.since))
    return a.attempts == b.attempts and abs(ratings.get(a.session, RATING_MIDDLE)
                                            - ratings.get(b.session, RATING_MIDDLE)) <= wider


def match_table(table_id: str, group: Group, *, seed: int, now: float, grace: float = SEAT_GRACE,
                pace: tuple[float, float] = COMPUTER_PACE, guess_clock: float | None = None) -> Table:
    """The started table of ``group``: the longest waiter opens it, everyone sits, computers fill the
    rest, and the code making begins (World of Mastermind's usual rules, the group's attempts).

    ``guess_clock``: the seconds each person has for each guess (the server's ``quick_match_clock``): a
    rated game must end, so a player who stops guessing loses the code they were breaking, as if out of
    guesses, and the table finishes.
    """
    creator = group.tickets[0].holder
    table = Table(table_id, creator, seats=len(group.tickets) + len(group.computers), attempts=group.attempts,
                  seed=seed, now=now, grace=grace, pace=pace, guess_clock=guess_clock)
    if not group.rated:
        table.rated = False
        table.log.append(UNRATED_LINE)
    for index, ticket in enumerate(group.tickets[1:], start=1):
        table.sit(ticket.holder, index)
    for index, name in enumerate(group.computers, start=len(group.tickets)):
        table.seat_computer(creator, index, name)
    table.start(creator, now)
    return table


def run_wave(queue: MatchQueue, ratings: Mapping[str, float], now: float, *,
             new_table: Callable[[Group], Table], live: set[str] | frozenset[str] | None = None,
             computer_ratings: Mapping[str, float] | None = None,
             hold: float = STRAGGLER_HOLD, repeat_window: float = REPEAT_PAIRING) -> tuple[MatchQueue, list[Table]]:
    """A whole wave on ``queue``: drop tickets whose session is not in ``live`` (when given) and
    seated tickets kept long enough; let free players join held groups they are close to; make the
    tables of held groups that are full or whose hold is over; pair the free players left, holding a
    group of two or three people for ``hold`` seconds (0: never) and making the others' tables now.
    Returns the new queue (seated tickets naming their table, ``last_wave`` = now, the names it seated together
    added to ``paired`` and those older than ``repeat_window`` forgotten) and the tables. One network's players
    and names paired within ``repeat_window`` sit together only when nobody else waits (:class:`Fairness`).
    """
    kept = []
    for ticket in queue.tickets:
        if ticket.waiting and live is not None and ticket.session not in live:
            continue  # dropped: the player is gone
        if not ticket.waiting and ticket.matched_at is not None and now - ticket.matched_at > MATCHED_KEEP:
            continue
        kept.append(ticket)
    queue = MatchQueue(tuple(kept), queue.last_wave, tuple(p for p in queue.paired if now - p[1] < repeat_window))
    fair = Fairness.of(queue, now, repeat_window)
    changed: dict[str, Ticket] = {}
    groups = {key: list(members) for key, members in queue.held.items()}
    for key, members in list(groups.items()):
        if len(members) < 2:  # the others left: back to waiting like anyone
            for ticket in members:
                changed[ticket.session] = replace(ticket, group=None, held_until=None)
            del groups[key]
    # Stragglers first: a free player joins the held group they are close to everyone in (the one to be
    # made soonest), before any new pairing.
    for ticket in [t for t in queue.waiting if t.free]:
        for key, members in sorted(groups.items(), key=lambda item: (item[1][0].held_until or 0.0, item[0])):
            if len(members) < MAX_SEATS and all(_close(ticket, m, ratings, now, fair) for m in members):
                joined = replace(ticket, group=key, held_until=members[0].held_until)
                members.append(joined)
                changed[ticket.session] = joined
                break
    tables = []
    seated: dict[str, Ticket] = {}
    paired = list(queue.paired)

    def seat(group: Group) -> None:
        table = new_table(group)
        tables.append(table)
        for index, first in enumerate(group.tickets):
            for second in group.tickets[index + 1:]:
                key = pair_key(first.holder, second.holder)
                if key is not None:
                    paired.append((key, now))
        for ticket in group.tickets:
            seated[ticket.session] = replace(ticket, table_id=table.table_id, matched_at=now, group=None,
                                             held_until=None)

    for members in groups.values():
        held_until = members[0].held_until
        if len(members) == MAX_SEATS or (held_until is not None and held_until <= now):
            seat(Group(tuple(members), (), members[0].attempts))
    free = MatchQueue(tuple(changed.get(t.session, t) for t in queue.tickets), queue.last_wave, queue.paired)
    for group in pair(free, ratings, now, computer_ratings, fair):
        if group.computers or len(group.tickets) >= MAX_SEATS or hold <= 0:
            seat(group)
        else:
            key = group.tickets[0].session
            for ticket in group.tickets:
                changed[ticket.session] = replace(ticket, group=key, held_until=now + hold)
    tickets = tuple(seated.get(t.session) or changed.get(t.session, t) for t in queue.tickets)
    latest: dict[str, float] = {}
    for key, at in paired:
        latest[key] = max(at, latest.get(key, at))
    return MatchQueue(tickets, now, tuple(sorted(latest.items()))), tables


__all__ = [
    "CLOSENESS", "FILL_AFTER", "Fairness", "Group", "MATCHED_KEEP", "REPEAT_PAIRING", "UNRATED_LINE", "crowds",
    "pair_key", "paired_as_json", "paired_from_json", "MAX_SEATS", "MatchQueue", "RATING_MIDDLE", "RatingOf",
    "pairing_network",
    "STRAGGLER_HOLD", "Ticket",
    "WAVE_AT", "WAVE_INTERVAL", "WIDENING", "match_table", "nearest_computer", "pair", "run_wave", "tolerance",
    "wave_due",
]
