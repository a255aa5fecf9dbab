r"""Line mode's engine: one line in, lines of words out, on the same games, tables and store as the screens.

How a front end uses it (the terminal's ``wom-tui --line``, an SSH session's ``line`` command, a web page)::

    session = LineSession(store, settings, identity, write)   # write(line) shows one line, adds its own newline
    await session.start()              # greets, joins the arcade's presence, listens to the change feed
    while not session.ended.is_set():
        await session.feed(await read_a_line())   # a command or a move; its answer comes through write
    await session.close()              # parts the presence, leaves a queue, stops the background tasks

Every call of ``write`` is one line: plain text, at most :data:`.words.MAX_LINE` characters, no newline,
no markup and no escape code (whatever the player typed or the store kept is cleaned first), so a front
end only adds its own line ending (``\\r\\n``, an ``<li>`` in an ARIA live region). ``write`` may be
called at any time from the session's event loop, not only during ``feed``: what happens at a table (a
player's guess, the results) and a quick match found are said as they come, one line per event. ``write``
must not block; a front end that can fall behind keeps its own bounded buffer.

``feed`` takes one line as typed (the front end caps its length, :data:`.words.MAX_INPUT`); lines fed
while another is being answered wait their turn. ``session.ended`` is set once the player quits (or
``close`` ran); ``session.identity`` is who the session plays as (it changes when a key registers).

The engine drives the domain's games (:class:`~..domain.solo.SoloGame`,
:class:`~..domain.computer_breaks.ComputerBreaksGame`) and the store's roles (``store.live``: tables
through :mod:`~..domain.moves` values, the quick-match queue), exactly as the screens do, so a line player
sits at the same tables as a terminal or browser player. Every store call runs in a thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import random
import time
from collections.abc import Callable
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, TypeVar

from ..domain.codes import PALETTES, WOM_RULESET, InvalidCode, Ruleset
from ..domain.computer_breaks import ComputerBreaksGame, InvalidAnswer, Played, answer_words
from ..domain.daily import (
    PUZZLES, SOLO_TITLE, DailyAttempt, DailyRefused, check_can_start, daily_code, daily_title, day_of,
)
from ..domain.game import Move, Refusal
from ..domain.matchmaking import STRAGGLER_HOLD, WAVE_INTERVAL, pairing_network
from ..domain.notes import Note, Notes
from ..domain.moves import Accept, Decline, Guess, Leave, Resume, SeatComputer, SetCode, Sit, Start, TableMove
from ..domain.presence import HEARTBEAT_INTERVAL, Presence, Whereabouts, new_session_id
from ..domain.solo import LifelinePolicy, LifelineResult, SoloGame, SoloSetup
from ..domain.store.api import LiveChange, StoreError
from ..domain.table import CLOSED, FINISHED, GUESSING, MAKING, OPEN, SeatHolder, Table, TableView
from ..domain.users import NameRejected
from ..domain.variant_game import VariantGame
from ..domain.variants import Variant
from ..domain.words import counted
from .words import LINE_FORM, MAX_INPUT, clean, colour_word, guess_line, listing, rules_words, share_words, split, spoken_code

if TYPE_CHECKING:
    from ..domain.identity import Identity
    from ..domain.store.api import Store
    from ..settings import Settings

T = TypeVar("T")

Write = Callable[[str], None]
"""Shows one line (see the module)."""


HELP = (
    "Games: solo [rules], daily [digits], quick (quick match), flip (the computer breaks your code).",
    "Variants: solo quad, solo devious, solo strict, solo liar; open 3 quad (a table's seats and variant).",
    "Tables: lobby, join N, watch N (spectate), open [seats] [variant], computer N, start, invite NAME, accept, leave.",
    "In a game: type a guess (RGBY, 1234); board, last (the last line again), who, clock, notes, share.",
    "Solo: lifeline symbol (costs 1 guess), lifeline position (costs 2). Rules: solo 5 classic norepeats 12g each.",
    "Quick match: computers fills the table now. When the computer breaks your code, answer 2 1 (place, colour).",
    "Boards: scores, ratings, hall (hall of fame), stats [name]. You: register NAME, play as NAME (locally), quit.",
)
"""What ``help`` says: each line at most :data:`.words.MAX_LINE` characters."""

TICK = 1.0
"""Seconds between two looks at the queue or a table's clock while waiting."""


def _pace(computer_pace: float) -> tuple[float, float]:
    """The computers' pace at a table (as the quick-match screen's): a person's few seconds, none in tests."""
    return (0.0, 0.0) if computer_pace <= 0 else (2.0, 5.0)


class LineSession:
    """One player's line-mode session (see the module for how a front end drives it)."""

    wave_interval = WAVE_INTERVAL
    """Seconds between two quick-match waves (the rules'; tests shorten it)."""
    straggler_hold = STRAGGLER_HOLD
    """Seconds a group of two or three waits for one more (the rules'; tests shorten it)."""

    def __init__(self, store: Store, settings: Settings, identity: Identity, write: Write, *,
                 rng: random.Random | None = None) -> None:
        self.store = store
        self.settings = settings
        self.identity = identity
        self._write = write
        self.rng = rng if rng is not None else random.Random(settings.seed)
        self.session = settings.session_id or new_session_id()
        self.ended = asyncio.Event()
        """Set once the player quit or the session was closed."""
        self.lines_out = 0
        """Lines written so far (tests and benches)."""
        self.presence: Presence | None = None
        self.local_name: str | None = None
        """Local play only: the registered name chosen with ``play as NAME`` (None: a guest)."""
        # where the player is: at most one of these
        self.solo: SoloGame | None = None
        self.variant: VariantGame | None = None
        """A solo game of a variant (``solo quad``)."""
        self.daily: tuple[str, str] | None = None
        """(day, puzzle) while the solo game is the daily code."""
        self.flip: ComputerBreaksGame | None = None
        self.table_id: str | None = None
        self.watching = False
        """At ``table_id`` as a spectator."""
        self.queued = False
        # what was said last
        self.view: TableView | None = None
        self.last_line: str | None = None
        self.last_share: str | None = None
        self._lock = asyncio.Lock()
        self._stop = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._ratings: tuple[float, Any] | None = None
        self._lobby: list[str] = []
        self._invites_said: set[str] = set()
        self._table_notes: dict[str, Notes] = {}
        """This player's notes per table: private, kept in the session only (as the screens keep them)."""

    # -- the front end's side -------------------------------------------------------------------

    async def start(self) -> None:
        """Greet the player, join the arcade's presence and start listening to the change feed."""
        self.say(f"World of Mastermind, line mode. You are {self._label()}. Type help for the commands.")
        try:
            await self._blocking(self._join)
        except (StoreError, ValueError) as error:
            self.say(f"The arcade cannot be reached right now: {self._reason(error)}")
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._beat()), loop.create_task(self._watch())]

    async def feed(self, line: str) -> None:
        """Answer one typed line (a command or a move); lines fed meanwhile wait their turn."""
        async with self._lock:
            if self.ended.is_set():
                return
            if len(line) > MAX_INPUT:
                self.say(f"That line is longer than {MAX_INPUT} characters: nothing was done; type a shorter one.")
                return
            text = clean(line).strip()
            if not text:
                return
            try:
                await self._dispatch(text)
            except StoreError as error:
                self.say(f"The arcade's store failed: {self._reason(error)} Nothing changed; try again.")

    async def close(self) -> None:
        """Leave the queue and the presence, stop the background tasks (the player's game is not saved)."""
        self.ended.set()
        self._stop.set()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []
        live, session, queued = self.store.live, self.session, self.queued
        self.queued = False

        def part() -> None:
            if queued:
                live.leave_queue(session, unseen=True)
            live.part(session)

        with contextlib.suppress(StoreError, OSError, ValueError):
            await self._blocking(part)

    # -- writing ----------------------------------------------------------------------------------

    def say(self, text: str) -> None:
        """Write ``text`` as one line (cleaned; more than one only if it is longer than a line)."""
        for line in split(text):
            self.lines_out += 1
            self._write(line)

    # -- helpers ----------------------------------------------------------------------------------

    @staticmethod
    async def _blocking(function: Callable[..., T], *args: Any) -> T:
        return await asyncio.to_thread(function, *args)

    @staticmethod
    def _reason(error: Exception) -> str:
        reason = getattr(error, "reason", None) or str(error)
        return reason if reason.endswith((".", "!", "?")) else reason + "."

    def _label(self) -> str:
        name = self._name()
        if name is not None:
            return name
        if self.identity.served and self.identity.fingerprint is not None:
            return "a new player (type register NAME to keep your games)"
        return "a guest"

    def _name(self) -> str | None:
        if self.identity.served:
            return self.identity.name
        return self.local_name

    def _me(self) -> SeatHolder | None:
        return self.presence.holder() if self.presence is not None else None

    def _where(self) -> Whereabouts:
        settings = self.settings
        try:
            return Whereabouts(settings.client_address if settings.served else None,
                               self.identity.fingerprint if settings.served else None,
                               settings.transport if settings.served else "local", "line")
        except ValueError:
            return Whereabouts(transport=settings.transport if settings.served else "local", screen="line")

    def _join(self) -> Presence:
        live = self.store.live
        name = self._name()
        if name is None:
            self.presence = live.join_guest(self.session, self._where())
        else:
            self.presence = live.join(name, True, self.session, self._where())
        return self.presence

    def rating_of(self, name: str) -> float | None:
        """A player's shown rating for quick match (read once every 30 seconds; None: unrated)."""
        now = time.monotonic()
        if self._ratings is None or now - self._ratings[0] > 30:
            try:
                self._ratings = (now, self.store.rating_book())
            except StoreError:
                return None
        rating = self._ratings[1].rating(name)
        return None if rating is None else float(rating.value)

    def _busy(self) -> str | None:
        """What the player is in the middle of, or None."""
        if self.solo is not None and not self.solo.over:
            return "the daily code" if self.daily else "a solo game"
        if self.variant is not None and not self.variant.over:
            return f"a {self.variant.variant.label} game"
        if self.flip is not None and not self.flip.over:
            return "a game where the computer breaks your code"
        if self.queued:
            return "the quick-match queue"
        if self.table_id is not None and not self.watching and self.view is not None \
                and self.view.phase in (OPEN, MAKING, GUESSING) and self.view.you is not None:
            return "a table"
        return None

    # -- background: heartbeat, the sweep, the queue, the change feed ---------------------------

    async def _beat(self) -> None:
        """Every second: the heartbeat (every :data:`HEARTBEAT_INTERVAL`), the sweep where this process does
        it (locally), a due quick-match wave, and a table's clock and computers brought up to date.
        """
        live = self.store.live
        beat = time.monotonic()
        while not self._stop.is_set():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._stop.wait(), TICK)
            if self._stop.is_set():
                return
            try:
                if self.presence is not None and time.monotonic() - beat >= HEARTBEAT_INTERVAL:
                    beat = time.monotonic()
                    await self._blocking(live.heartbeat, self.presence)
                if self.queued or (self.table_id is not None and self.view is not None
                                   and self.view.phase in (MAKING, GUESSING)):
                    if await self._blocking(live.claim_sweep, HEARTBEAT_INTERVAL):
                        await self._blocking(live.sweep)
                if self.queued:
                    async with self._lock:
                        await self._queue_step()
                elif self.table_id is not None and self.view is not None and self.view.phase in (MAKING, GUESSING) \
                        and self.view.next_due is not None and self.view.next_due <= live.clock():
                    await self._refresh_table(tick=True)
            except (StoreError, OSError, ValueError):
                continue

    async def _watch(self) -> None:
        feed = self.store.live.feed()
        with contextlib.suppress(StoreError, OSError):
            async for change in feed.changes(self._stop):
                await self._take(change)

    async def _take(self, change: LiveChange) -> None:
        try:
            if self.queued and (change.queue or change.tables):
                async with self._lock:
                    await self._queue_step()
            elif self.table_id is not None and self.table_id in change.tables:
                await self._refresh_table()
            others = change.tables - {self.table_id} if self.table_id else change.tables
            if others:
                await self._notice(frozenset(others))
        except (StoreError, OSError, ValueError):
            return

    # -- dispatch ---------------------------------------------------------------------------------

    async def _dispatch(self, text: str) -> None:
        word, _, rest = text.partition(" ")
        command = word.lower()
        rest = rest.strip()
        handler = _COMMANDS.get(command)
        if handler is not None:
            await handler(self, rest)
            return
        if await self._move(text):
            return
        self.say(f"I do not know {word[:30]!r}. Type help for the commands"
                 + (", or a guess." if self._in_game() else "; solo, quick or daily starts a game."))

    def _in_game(self) -> bool:
        return (self.solo is not None and not self.solo.over) or (self.variant is not None and not self.variant.over) \
            or (self.flip is not None and not self.flip.over) or (
            self.table_id is not None and not self.watching and self.view is not None
            and self.view.phase in (MAKING, GUESSING))

    async def _move(self, text: str) -> bool:
        """A guess, a code or an answer for the game under way; False if no game waits for one."""
        if self.solo is not None and not self.solo.over:
            await self._solo_guess(text)
            return True
        if self.variant is not None and not self.variant.over:
            await self._variant_guess(text)
            return True
        if self.flip is not None and not self.flip.over:
            await self._flip_move(text)
            return True
        if self.table_id is not None and not self.watching and self.view is not None:
            if self.view.phase == MAKING and self.view.own is not None and self.view.own.code_for is not None:
                await self._play(SetCode(self._holder(), text))
                return True
            if self.view.phase == GUESSING and self.view.own is not None and not self.view.own.done:
                await self._play(Guess(self._holder(), text))
                return True
        return False

    # -- commands: general ------------------------------------------------------------------------

    async def cmd_help(self, rest: str) -> None:
        """The commands."""
        for line in HELP:
            self.say(line)

    async def cmd_quit(self, rest: str) -> None:
        """Leave line mode (a game under way is left: a table's seat is given up)."""
        if self.table_id is not None and not self.watching and self.view is not None \
                and self.view.phase in (MAKING, GUESSING):
            with contextlib.suppress(Refusal, StoreError):
                await self._blocking(self.store.live.play, self.table_id, Leave(self._holder()))
        self.say("Goodbye, thanks for playing World of Mastermind!")
        self.ended.set()

    async def cmd_last(self, rest: str) -> None:
        """The last line about the game, again."""
        self.say(self.last_line or "Nothing has happened yet.")

    async def cmd_board(self, rest: str) -> None:
        """The game's history, one line a guess."""
        if self.variant is not None:
            played = self.variant
            for number, variant_row in enumerate(played.rows, 1):
                self.say(answers_line(number, variant_row.guess, variant_row.answers, played.ruleset,
                                      played.ruleset.guesses - number))
            if not played.rows:
                self.say(f"No guesses yet: {played.variant.label}, {rules_words(played.ruleset)}.")
            return
        if self.solo is not None:
            game = self.solo
            rows = game.history
            if not rows:
                self.say(f"No guesses yet: {rules_words(game.ruleset)}.")
            left = game.ruleset.guesses
            for number, row in enumerate(rows, 1):
                left -= 1
                if row.is_lifeline:
                    self.say(f"Guess {number}: spent on a lifeline.")
                else:
                    self.say(guess_line(number, row.guess, row.feedback, game.ruleset, left))
            return
        if self.flip is not None:
            for number, row in enumerate(self.flip.history, 1):
                self.say(f"Computer's guess {number}: {spoken_code(row.guess)} — you answered "
                         f"{answer_words(row.feedback)}.")
            if not self.flip.history:
                self.say("No guesses yet.")
            return
        if self.view is not None:
            view = self.view
            if view.own is not None and view.own.rows:
                for number, (guess, answers) in enumerate(view.own.rows, 1):
                    self.say(answers_line(number, guess, answers, view.ruleset, view.attempts - number))
            elif view.own is not None:
                left = view.attempts
                for number, row in enumerate(view.own.history, 1):
                    left -= 1
                    self.say(guess_line(number, row.guess, row.feedback, view.ruleset, left))
                if not view.own.history:
                    self.say(f"No guesses yet at table {view.table_id}.")
            self.say(self._progress(view))
            return
        self.say("No game under way: solo, quick or daily starts one.")

    # -- solo and the daily code -----------------------------------------------------------------

    async def cmd_solo(self, rest: str) -> None:
        """A solo game (``solo [rules]``; ``solo quad|devious|strict|liar [rules]``: a variant, docs/play.md)."""
        if (busy := self._busy()) is not None:
            self.say(f"You are in {busy}: finish it or type leave first.")
            return
        variant, rest = variant_word(rest)
        if variant is not None:
            await self._variant_solo(variant, rest)
            return
        try:
            setup = parse_solo(rest)
        except Refusal as refusal:
            self.say(f"{refusal.reason} Example: solo 5 classic 12g.")
            return
        name = self._name()
        self._forget_place()
        self.solo = setup.new_game(self.rng, name or "Guest", name is not None)
        self.daily = None
        lifelines = {"none": "no lifelines", "one": "one lifeline", "each": "each lifeline once"}[setup.lifelines.value]
        self._event(f"Solo game: {rules_words(self.solo.ruleset)}, {lifelines}. Type your first guess.")

    async def cmd_daily(self, rest: str) -> None:
        """Today's code (``daily`` classic, ``daily digits``)."""
        if (busy := self._busy()) is not None:
            self.say(f"You are in {busy}: finish it or type leave first.")
            return
        name = self._name()
        key = rest.lower() or "classic"
        if key not in PUZZLES:
            self.say(f"There is no daily puzzle {clean(rest)[:20]!r}: daily, or daily digits.")
            return
        if name is None:
            self.say("The daily code is for registered players: type register NAME first (over SSH, with a key).")
            return
        puzzle = PUZZLES[key]
        now = datetime.now(timezone.utc)
        day = day_of(now).isoformat()
        attempt = DailyAttempt(day, key, name, now.isoformat(timespec="seconds"), key=self.identity.fingerprint)
        try:
            attempts = await self._blocking(self.store.daily_attempts_on, day)
            check_can_start(attempts, day, key, name, self.identity.fingerprint)
            await self._blocking(self.store.start_daily, attempt)
            secret = await self._blocking(self.store.daily_secret)
        except DailyRefused as refusal:
            self.say(refusal.reason)
            return
        self._forget_place()
        code = daily_code(secret, day_of(now), puzzle)
        self.solo = SoloGame(puzzle.ruleset, code, self.rng, LifelinePolicy.NONE, player=name, is_user=True)
        self.daily = (day, key)
        self._event(f"{daily_title(day)}: {rules_words(puzzle.ruleset)}. Type your first guess.")

    async def _solo_guess(self, text: str) -> None:
        game = self.solo
        assert game is not None
        try:
            result = game.submit(text)
        except InvalidCode as error:
            self.say(error.reason + code_hint(error.reason, game.ruleset))
            return
        if isinstance(result, LifelineResult):
            self._lifeline_said(result)
            return
        number = game.guesses_used
        line = guess_line(number, game.history[-1].guess, result, game.ruleset, game.guesses_left)
        if game.over:
            line += " " + game.result_message()
        self._event(line)
        if game.over:
            await self._solo_over(game)

    async def _variant_solo(self, variant: Variant, rest: str) -> None:
        words = rest.lower().split()
        if not any(word in ("digits", "classic", *PALETTES) for word in words):
            rest = "classic " + rest  # a variant is played on the classic 4 × 6 unless said otherwise
        try:
            setup = parse_solo(rest)
            name = self._name()
            game = VariantGame.new(variant, setup.pick_ruleset(self.rng), self.rng, name or "Guest", name is not None)
        except Refusal as refusal:
            self.say(f"{refusal.reason} Example: solo {variant.value} 4 classic.")
            return
        self._forget_place()
        self.variant = game
        for line in split(f"{game.told} {rules_words(game.ruleset)}. Type your first guess."):
            self._event(line)

    async def _variant_guess(self, text: str) -> None:
        game = self.variant
        assert game is not None
        try:
            turn = await self._blocking(game.guess, text)  # Devious counts codes: off the loop
        except InvalidCode as error:
            self.say(error.reason + code_hint(error.reason, game.ruleset))
            return
        except Refusal as refusal:
            self.say(refusal.reason)
            return
        number = game.guesses_used
        self._event(answers_line(number, game.rows[-1].guess, turn.answers, game.ruleset, game.guesses_left))
        if game.over:
            ending = [game.result_message(), *(await self._blocking(game.reveal_lines))]
            for line in ending:
                self._event(line)
            try:  # recorded as a classic solo game is (a guest's too); variants have no hall of fame
                await self._blocking(self.store.record_game, await self._blocking(game.record))
            except (StoreError, ValueError) as error:
                self.say(f"Your game could not be saved: {self._reason(error)}")
            self.say("Type solo " + game.variant.value + " for another game.")

    def _lifeline_said(self, result: LifelineResult) -> None:
        game = self.solo
        assert game is not None
        if not result.ok:
            self.say(result.message)
            return
        self._event(f"Lifeline: {clean(result.message)} It cost {counted(result.cost, 'guess')}; "
                    f"{counted(game.guesses_left, 'guess')} left.")

    async def _solo_over(self, game: SoloGame) -> None:
        record = game.record()
        rows = [None if row.is_lifeline else row.feedback for row in game.history]
        title = daily_title(self.daily[0]) if self.daily is not None else SOLO_TITLE
        self.last_share = share_words(title, rows, game.ruleset, game.won)
        try:
            game_id = await self._blocking(self.store.record_game, record)
            if self.daily is not None:
                day, key = self.daily
                await self._blocking(lambda: self.store.finish_daily(
                    day, key, game.player, finished_at=record.finished_at, guesses=game.guesses_used, broke=game.won,
                    game_id=game_id))
        except (StoreError, ValueError, DailyRefused) as error:
            self.say(f"Your game could not be saved: {self._reason(error)}")
            return
        if game.won and game.is_user and self.daily is None:
            hall = await self._blocking(self.store.hall_of_fame)
            if hall.would_set_record(game.ruleset, game.guesses_used):
                if await self._blocking(self.store.submit_hall_entry, game.hall_entry()):
                    self.say(f"A new record for {game.ruleset.title}: it is in the hall of fame.")
            else:
                held = game.record_message(hall)
                if held:
                    self.say(held)
        self.say("Type share for the share line, solo for another game.")

    async def cmd_lifeline(self, rest: str) -> None:
        """``lifeline symbol`` (costs 1) or ``lifeline position`` (costs 2)."""
        game = self.solo
        which = {"symbol": 1, "1": 1, "colour": 1, "position": 2, "2": 2}.get(rest.lower())
        if game is None or game.over:
            self.say("Lifelines are for a solo game under way: type solo to start one.")
            return
        if which is None:
            self.say("Type lifeline symbol (a symbol of the code, costs 1 guess) or lifeline position "
                     "(a symbol in its place, costs 2).")
            return
        self._lifeline_said(game.lifeline(which))

    async def cmd_share(self, rest: str) -> None:
        """The last finished game's share line, in words."""
        self.say(self.last_share or "Nothing to share yet: finish a game first.")

    # -- the computer breaks your code -----------------------------------------------------------

    async def cmd_flip(self, rest: str) -> None:
        """The computer breaks your code (classic rules): think of a code, then answer each of its guesses."""
        if (busy := self._busy()) is not None:
            self.say(f"You are in {busy}: finish it or type leave first.")
            return
        self._forget_place()
        name = self._name()
        self.flip = ComputerBreaksGame(WOM_RULESET, player=name or "Guest", is_user=name is not None)
        self._event(f"The computer breaks your code: think of a code of {rules_words(WOM_RULESET)}. Answer each "
                    "guess with two numbers: right place, then right colour (2 1).")
        await self._flip_think()

    async def _flip_move(self, text: str) -> None:
        game = self.flip
        assert game is not None
        awaiting = game.awaiting
        if awaiting is None or awaiting.computer:
            return
        numbers = text.replace(",", " ").split()
        if len(numbers) != 2 or not all(n.isdigit() and len(n) <= 2 for n in numbers):
            self.say("An answer is two numbers: right place, then right colour, for example 2 1.")
            return
        black, white = int(numbers[0]), int(numbers[1])
        try:
            if awaiting.move is Move.CORRECTION and game.fixing is not None:
                game.correct(game.fixing, black, white)
            else:
                game.answer(black, white)
        except (InvalidAnswer, Refusal) as error:
            self.say(f"{self._reason(error)} Type two numbers, right place then right colour, for example 2 1.")
            return
        await self._flip_think()

    async def _flip_think(self) -> None:
        game = self.flip
        assert game is not None
        while game.thinking and not game.over:
            work = await asyncio.to_thread(game.think, None, self.rng)
            if self.flip is not game:
                return
            played = game.apply(work)
            if isinstance(played, Played):
                self._event(f"Computer's guess {played.number}: {spoken_code(played.guess)}. "
                            "Your answer: right place, right colour?")
        if game.over:
            self._event(game.result_message())
            with contextlib.suppress(StoreError, ValueError):
                await self._blocking(self.store.record_game, game.record())
        elif game.fixing is not None:
            guess = game.history[game.fixing].guess
            self._event(f"Your answers contradict each other. Answer guess {game.fixing + 1} "
                        f"({spoken_code(guess)}) again as two numbers.")

    # -- tables, the lobby and quick match --------------------------------------------------------

    def _holder(self) -> SeatHolder:
        me = self._me()
        if me is None:
            raise StoreError("presence", "not in the arcade yet")
        return me

    async def cmd_quick(self, rest: str) -> None:
        """Quick match: wait in the shared queue until seated at a started table."""
        if self.queued:
            self.say("You are already waiting for a quick match; type computers to play the computers now.")
            return
        if (busy := self._busy()) is not None:
            self.say(f"You are in {busy}: finish it or type leave first.")
            return
        if self.presence is None:
            await self._blocking(self._join)
        self._forget_place()
        self.queued = True
        self.say(f"Looking for players for a quick match. HAL9000 or VIKI take a free seat after "
                 f"{counted(round(self.settings.fill_after), 'second')}; leave stops waiting.")
        await self._queue_step()

    async def cmd_computers(self, rest: str) -> None:
        """While waiting for a quick match: a computer takes the other seat now."""
        if not self.queued:
            self.say("You are not waiting for a quick match: type quick first.")
            return
        ticket = await self._blocking(self.store.live.fill_now, self.session)
        if ticket is not None:
            self.say("A computer player takes the other seat at the next wave.")
        await self._queue_step()

    async def _queue_step(self) -> None:
        if not self.queued:
            return
        me = self._holder()
        live, settings = self.store.live, self.settings

        def step() -> Table | None:
            ticket = live.match_queue().ticket(self.session)
            if ticket is None:
                live.enqueue(me, attempts=10, fill_after=settings.fill_after,
                             network=pairing_network(settings.client_address))
            live.match_wave(self.rating_of, self.rng.getrandbits(48), interval=self.wave_interval,
                            grace=settings.seat_grace, hold=self.straggler_hold, pace=_pace(settings.computer_pace),
                            guess_clock=settings.quick_match_clock)
            ticket = live.match_queue().ticket(self.session)
            if ticket is None or ticket.table_id is None:
                return None
            return live.table(ticket.table_id)

        table = await self._blocking(step)
        if table is None or not self.queued:
            return
        self.queued = False
        with contextlib.suppress(StoreError):
            await self._blocking(live.leave_queue, self.session)
        others = [name for name in table.names if name is not None and name != me.name]
        self._event(f"Quick match found: you play {', '.join(others)}.")
        self.table_id, self.watching, self.view = table.table_id, False, None
        self._show(table)

    async def cmd_leave(self, rest: str) -> None:
        """Stop waiting, give up a table's seat, or drop a solo game."""
        if self.queued:
            self.queued = False
            await self._blocking(functools.partial(self.store.live.leave_queue, self.session, unseen=True))
            self.say("You stopped waiting for a quick match.")
            return
        if self.table_id is not None:
            table_id, watching = self.table_id, self.watching
            if not watching and self.view is not None and self.view.phase in (OPEN, MAKING, GUESSING):
                try:
                    await self._blocking(self.store.live.play, table_id, Leave(self._holder()))
                except Refusal as refusal:
                    self.say(refusal.reason)
                    return
            self._forget_place()
            self.say(f"You left table {table_id}.")
            return
        if self.solo is not None and not self.solo.over or self.flip is not None and not self.flip.over \
                or self.variant is not None and not self.variant.over:
            self._forget_place()
            self.say("You dropped the game; it is not recorded.")
            return
        self.say("You are not in a game.")

    def _forget_place(self) -> None:
        self.solo = None
        self.variant = None
        self.daily = None
        self.flip = None
        self.table_id = None
        self.view = None
        self.watching = False

    async def cmd_lobby(self, rest: str) -> None:
        """The tables, numbered for join N and watch N."""
        listing_ = await self._blocking(self.store.live.tables)
        tables = [t for t in listing_.tables if t.phase not in (CLOSED,)]
        self._lobby = [t.table_id for t in tables]
        if not tables:
            self.say("No tables right now: quick starts a quick match.")
            return
        for number, table in enumerate(tables, 1):
            names = [name or "free" for name in table.names]
            self.say(f"Table {number}: {table.phase}, {', '.join(names)}.")
        self.say("join N takes a free seat, watch N watches.")

    def _lobby_table(self, rest: str) -> str | None:
        if rest.isdigit() and 1 <= int(rest) <= len(self._lobby):
            return self._lobby[int(rest) - 1]
        if rest and rest in self._lobby:
            return rest
        self.say(f"No table {clean(rest)[:20]!r}: type lobby for the list, then join N with its number."
                 if self._lobby else "Type lobby first to see the tables, then join N with its number.")
        return None

    async def cmd_join(self, rest: str) -> None:
        """Take a free seat at the lobby's table N (or come back to your seat)."""
        table_id = self._lobby_table(rest)
        if table_id is None:
            return
        if (busy := self._busy()) is not None:
            self.say(f"You are in {busy}: finish it or type leave first.")
            return
        live, me = self.store.live, self._holder()
        table = await self._blocking(live.table, table_id)
        if table is None:
            self.say("That table is gone: type lobby again.")
            return
        try:
            if table.seat_of(me) is not None:
                table = await self._blocking(live.play, table_id, Resume(me))
            else:
                free = table.view_for(None).free_seats
                if table.phase != OPEN or not free:
                    self.say("That table has no free seat: watch N watches it.")
                    return
                table = await self._blocking(live.play, table_id, Sit(me, free[0]))
        except Refusal as refusal:
            self.say(refusal.reason)
            return
        self._forget_place()
        self.table_id, self.watching = table_id, False
        self._show(table)

    async def cmd_watch(self, rest: str) -> None:
        """Watch the lobby's table N as a spectator."""
        table_id = self._lobby_table(rest)
        if table_id is None:
            return
        table = await self._blocking(self.store.live.table, table_id)
        if table is None:
            self.say("That table is gone: type lobby again.")
            return
        self._forget_place()
        self.table_id, self.watching = table_id, True
        self._show(table)

    async def cmd_open(self, rest: str) -> None:
        """Open a table of World of Mastermind (``open [seats] [variant]``, 2 to 4 seats; the others join it from
        the lobby).
        """
        if (busy := self._busy()) is not None:
            self.say(f"You are in {busy}: finish it or type leave first.")
            return
        variant, rest = variant_word(rest)
        seats = int(rest) if rest.isdigit() else 2 if not rest else 0
        if not 2 <= seats <= 4:
            self.say("A table has 2 to 4 seats: open 3, for example.")
            return
        settings = self.settings
        try:
            table = await self._blocking(lambda: self.store.live.create_table(
                self._holder(), seats=seats, seed=self.rng.getrandbits(48), grace=settings.seat_grace,
                pace=_pace(settings.computer_pace), origin=settings.client_address,
                per_address=settings.max_open_tables_per_address, variant=variant or Variant.CLASSIC))
        except Refusal as refusal:
            self.say(refusal.reason)
            return
        self._forget_place()
        self.table_id = table.table_id
        kind = f" for {table.variant.label}" if table.variant is not Variant.CLASSIC else ""
        self.say(f"Your table{kind} is open with {seats} seats: the others join it from the lobby; start begins the "
                 "game (computer N seats HAL9000 in seat N).")
        self._show(table)

    async def cmd_start(self, rest: str) -> None:
        """The table's creator starts the game."""
        if self.table_id is None or self.watching:
            self.say("start begins a table you opened: open makes one.")
            return
        await self._play(Start(self._holder()))

    async def cmd_invite(self, rest: str) -> None:
        """A new two-seat table with the registered ``NAME`` invited (it starts once they accept)."""
        if (busy := self._busy()) is not None:
            self.say(f"You are in {busy}: finish it or type leave first.")
            return
        if not rest:
            self.say("Type invite NAME, with a registered player's name.")
            return
        user = await self._blocking(self.store.user, rest)
        if user is None:
            self.say(f"Nobody is registered as {rest[:30]!r}: scores lists the players.")
            return
        try:
            table = await self._blocking(lambda: self.store.live.invite(
                self._holder(), user.name, seed=self.rng.getrandbits(48), grace=self.settings.seat_grace,
                pace=_pace(self.settings.computer_pace)))
        except Refusal as refusal:
            self.say(refusal.reason)
            return
        self._forget_place()
        self.table_id = table.table_id
        self.say(f"You invited {user.name}: the game starts once they accept.")
        self._show(table)

    async def cmd_accept(self, rest: str) -> None:
        """Accept the last invitation."""
        await self._answer_invitation(True)

    async def cmd_decline(self, rest: str) -> None:
        """Decline the last invitation."""
        await self._answer_invitation(False)

    async def _answer_invitation(self, accept: bool) -> None:
        table_id = self._invited_to
        if table_id is None:
            self.say("Nobody has invited you.")
            return
        if accept and (busy := self._busy()) is not None:
            self.say(f"You are in {busy}: finish it or type leave first, then accept.")
            return
        self._invited_to = None
        try:
            table = await self._blocking(self.store.live.play, table_id,
                                         Accept(self._holder()) if accept else Decline(self._holder()))
        except Refusal as refusal:
            self.say(refusal.reason)
            return
        if not accept:
            self.say("You declined the invitation.")
            return
        self._forget_place()
        self.table_id = table_id
        self._show(table)

    _invited_to: str | None = None
    """The table of the last invitation said (accept or decline answers it)."""

    async def _notice(self, table_ids: frozenset[str]) -> None:
        """Invitations to tables this session is not at, each said once."""
        me = self._me()
        if me is None:
            return
        live = self.store.live

        def read() -> list[Table]:
            found = []
            for table_id in sorted(table_ids):
                table = live.table(table_id)
                if table is not None and table.is_invited(me):
                    found.append(table)
            return found

        for table in await self._blocking(read):
            if table.table_id not in self._invites_said:
                self._invites_said.add(table.table_id)
                self._invited_to = table.table_id
                self._event(f"{table.creator.name} invites you to a table: type accept or decline.")

    async def cmd_computer(self, rest: str) -> None:
        """At a table you opened: ``computer N`` seats HAL9000 in the free seat N; without N, the computer breaks
        your code (as flip).
        """
        if not rest:
            await self.cmd_flip(rest)
            return
        words = rest.split()
        if self.table_id is None or self.watching or not words[0].isdigit():
            self.say("computer N seats HAL9000 in seat N of a table you opened; computer alone: it breaks your code.")
            return
        name = "VIKI" if len(words) > 1 and words[1].lower() == "viki" else "HAL9000"
        await self._play(SeatComputer(self._holder(), int(words[0]) - 1, name))

    async def _play(self, move: TableMove) -> None:
        assert self.table_id is not None
        try:
            table = await self._blocking(self.store.live.play, self.table_id, move)
        except Refusal as refusal:
            reason = self._reason(refusal)
            hint = code_hint(reason, self.view.ruleset) if isinstance(move, (Guess, SetCode)) and self.view else ""
            self.say(reason + hint)
            return
        self._show(table)

    async def _refresh_table(self, *, tick: bool = False) -> None:
        table_id = self.table_id
        if table_id is None:
            return
        live = self.store.live
        table = await self._blocking(live.tick if tick else live.table, table_id)
        if table is not None and self.table_id == table_id:
            self._show(table)

    def _show(self, table: Table) -> None:
        """Say what changed at the table since it was last shown: one line per event."""
        old = self.view
        if old is not None and table.version <= old.version:
            return
        me = None if self.watching else self._me()
        view = table.view_for(me if me is not None and table.seat_of(me) is not None else None)
        self.view = view
        for line in table_lines(old, view):
            self._event(line)
        if view.phase == FINISHED and view.final is not None and (old is None or old.phase != FINISHED):
            self.last_share = share_words("Mastermind table",
                                          [row.feedback for row in view.own.history] if view.own else [],
                                          view.ruleset, bool(view.own and view.own.history
                                                             and view.own.history[-1].feedback.black
                                                             == view.ruleset.length))

    def _progress(self, view: TableView) -> str:
        return "Players: " + "; ".join(seat_words(seat, view) for seat in view.seats) + "."

    async def cmd_who(self, rest: str) -> None:
        """Who sits at your table (seats, progress, clocks), or who is online."""
        if self.view is not None:
            self.say(self._progress(self.view))
            return
        sessions = await self._blocking(self.store.live.sessions)
        names = sorted({p.name for p in sessions}, key=str.casefold)
        self.say(f"{counted(len(names), 'player')} online: {', '.join(names)}." if names else "Nobody online.")

    async def cmd_clock(self, rest: str) -> None:
        """Your time for this guess, and the others'."""
        view = self.view
        if view is None or view.guess_clock is None:
            self.say("No clock runs here." if view is not None else "No table: the clock runs at rated tables.")
            return
        now = self.store.live.clock()
        parts = []
        for seat in view.seats:
            if seat.deadline is not None:
                parts.append(f"{seat.name}: {max(0, int(seat.deadline - now))} seconds")
        self.say(f"Each guess has {view.guess_clock:g} seconds. " + (listing(parts, "No clock is running now.")))

    # -- the store's boards ------------------------------------------------------------------------

    async def cmd_scores(self, rest: str) -> None:
        """The scoreboard: the top ten."""
        board = await self._blocking(self.store.scoreboard)
        self.say("Scores: " + listing((f"{n}. {u.name} {counted(u.score, 'point')}" for n, u in
                                        enumerate(board[:10], 1)), "nobody has points yet."))

    async def cmd_ratings(self, rest: str) -> None:
        """The rating board: the top ten."""
        book = await self._blocking(self.store.rating_book)
        rows = book.board()[:10]
        self.say("Ratings: " + listing((f"{n}. {r.name} {r.label}" for n, r in enumerate(rows, 1)),
                                       "no rated games yet."))

    async def cmd_hall(self, rest: str) -> None:
        """The hall of fame: the best game of each ruleset."""
        hall = await self._blocking(self.store.hall_of_fame)
        entries = hall.entries()
        if not entries:
            self.say("The hall of fame is empty: win a solo game to enter it.")
        for entry in entries[:20]:
            self.say(f"{entry.ruleset.title}: {entry.name}, {counted(entry.guesses, 'guess')}.")

    async def cmd_stats(self, rest: str) -> None:
        """My stats (or another player's): games, wins, average guesses."""
        from ..domain.stats import player_stats

        name = rest or self._name()
        if not name:
            self.say("Stats are kept for registered players: stats NAME shows someone's.")
            return
        summaries, _problems = await self._blocking(self.store.game_summaries)
        stats = player_stats(summaries, name)
        average = f", {stats.average:.1f} guesses a win on average" if stats.average is not None else ""
        self.say(f"{name}: {counted(stats.games, 'game')}, {counted(stats.wins, 'win')} ({stats.win_percent} percent)"
                 f"{average}, best streak {stats.best_streak}.")

    async def cmd_notes(self, rest: str) -> None:
        """Your notes on the code you break (docs/play.md, *Notes*): ``notes`` reads them, slot by slot;
        ``notes 2 R out`` (or ``sure``, ``clear``) notes a symbol in a slot. The game never reads them.
        """
        notes, ruleset = self._notes_here()
        if notes is None or ruleset is None:
            self.say("Notes are for a code you are breaking: in a solo game, the daily code or at a table.")
            return
        if not rest:
            for slot in range(notes.length):
                noted = [f"{symbol} {note.value}" for symbol in notes.symbols
                         if (note := notes.note(slot, symbol)) is not None]
                self.say(f"Slot {slot + 1}: {', '.join(noted) if noted else 'nothing noted'}.")
            return
        words = rest.split()
        wanted = {"out": Note.OUT, "sure": Note.SURE, "clear": None}
        symbol = words[1].upper() if len(words) == 3 else ""
        symbol = next((s for s in ruleset.palette.symbols if s.upper() == symbol), "")
        if len(words) != 3 or not words[0].isdigit() or not 1 <= int(words[0]) <= notes.length or not symbol \
                or words[2].lower() not in wanted:
            self.say(f"Type notes SLOT SYMBOL out, sure or clear: a slot 1 to {notes.length}, a symbol of "
                     f"{spoken_code(ruleset.palette.symbols)} (notes 2 {ruleset.palette.symbols[0]} out).")
            return
        slot, note = int(words[0]) - 1, wanted[words[2].lower()]
        marks = dict(notes.marks)
        marks.pop((slot, symbol), None)
        if note is not None:
            marks[(slot, symbol)] = note
        kept = Notes(notes.length, notes.symbols, marks)
        if self.solo is not None:
            self.solo.notes = kept
        elif self.table_id is not None:
            self._table_notes[self.table_id] = kept
        self.say(f"Noted: {symbol} {note.value if note else 'cleared'} in slot {slot + 1}.")

    def _notes_here(self) -> tuple[Notes | None, Ruleset | None]:
        if self.solo is not None:
            return self.solo.notes, self.solo.ruleset
        if self.table_id is not None and self.view is not None and self.view.own is not None:
            ruleset = self.view.ruleset
            return self._table_notes.setdefault(self.table_id, Notes.empty(ruleset)), ruleset
        return None, None

    async def cmd_register(self, rest: str) -> None:
        """Register a name for this SSH key (over SSH), or play as a registered name (on one machine)."""
        name = rest.strip()
        if not name:
            self.say("Type register NAME, with the name you want (letters, digits, spaces).")
            return
        if self.identity.served and not self.identity.may_register:
            if self.identity.name is not None:
                self.say(f"You already play as {self.identity.name}.")
            else:
                self.say("Registering needs an SSH key: connect with one (make it with ssh-keygen -t ed25519) "
                         "to keep a name.")
            return
        if (busy := self._busy()) is not None:
            self.say(f"You are in {busy}: finish it first.")
            return
        try:
            user = await self._blocking(lambda: self.store.register(name, key=self.identity.fingerprint))
        except (NameRejected, ValueError) as error:
            self.say(f"{self._reason(error)} Try another name.")
            return
        if self.identity.served:
            self.identity = self.identity.signed_in_as(user.name)
        else:
            self.local_name = user.name
        await self._blocking(self._join)
        self.say(f"Welcome, {user.name}: you are registered, and your games count from now on.")

    async def cmd_play(self, rest: str) -> None:
        """On one machine: ``play as NAME`` plays as a registered name (``play as guest``: a guest)."""
        name = rest.removeprefix("as ").strip()
        if self.identity.served:
            self.say("Over SSH you play as your key's name.")
            return
        if (busy := self._busy()) is not None:
            self.say(f"You are in {busy}: finish it first.")
            return
        if name.lower() == "guest":
            self.local_name = None
        else:
            user = await self._blocking(self.store.user, name)
            if user is None:
                self.say(f"Nobody is registered as {name[:30]!r}: register NAME makes one.")
                return
            self.local_name = user.name
        await self._blocking(self._join)
        self.say(f"You play as {self._label()}.")

    def _event(self, line: str) -> None:
        self.last_line = clean(line)
        self.say(line)


def code_hint(reason: str, ruleset: Ruleset) -> str:
    """What a right code looks like, after ``reason`` (nothing when the reason already lists the symbols)."""
    if ruleset.palette.listing() in reason:
        return ""
    return f" Type {ruleset.length} symbols of {ruleset.palette.listing()}."


def parse_solo(text: str) -> SoloSetup:
    """``solo``'s rules as typed (``5 classic norepeats 12g each``); :class:`Refusal` naming what is wrong."""
    from ..domain.codes import DIGITS10, WOM

    length, palette, repeats, guesses, lifelines = 4, DIGITS10, True, 10, LifelinePolicy.ONE_PER_GAME
    aliases = {"classic": WOM, "digits": DIGITS10, **PALETTES}
    for word in text.lower().replace(",", " ").split():
        if word.isdigit():
            length = int(word)
        elif word.endswith("g") and word[:-1].isdigit():
            guesses = int(word[:-1])
        elif word in aliases:
            palette = aliases[word]
        elif word in ("norepeats", "no-repeats", "unique"):
            repeats = False
        elif word in ("repeats",):
            repeats = True
        elif word in ("none", "one", "each"):
            lifelines = LifelinePolicy(word)
        elif word in ("lifelines", "lifeline"):
            continue
        else:
            raise Refusal(f"I do not know the rule {clean(word)[:20]!r}.")
    try:
        return SoloSetup(length, palette, repeats, guesses, lifelines)
    except ValueError as error:
        raise Refusal(getattr(error, "reason", None) or str(error)) from None


VARIANT_WORDS = {v.value: v for v in Variant if v is not Variant.CLASSIC}
"""The variants a command names (``solo quad``, ``open 3 liar``); "classic" is the palette's word."""


def variant_word(text: str) -> tuple[Variant | None, str]:
    """The variant named among ``text``'s words (``quad``, ``devious``, ``strict``, ``liar``) and the words left."""
    words = text.split()
    found = [w for w in words if w.lower() in VARIANT_WORDS]
    if not found:
        return None, text
    rest = [w for w in words if w.lower() not in VARIANT_WORDS]
    return VARIANT_WORDS[found[0].lower()], " ".join(rest)


def answers_line(number: int, guess: str, answers: Any, ruleset: Ruleset, left: int) -> str:
    """A guess and the answer of each code in words (a Quad game, solo or at a table; one answer otherwise):
    ``"Guess 2: R R G G — 1: 2 place 0 colour; 2: broken now; 3: done; 4: 0 place 1 colour. 7 guesses left."``.
    """
    if len(answers) == 1:
        return guess_line(number, guess, answers[0], ruleset, left)
    parts = []
    for board, answer in enumerate(answers, 1):
        if answer is None:
            parts.append(f"{board}: done")
        elif answer.black == ruleset.length:
            parts.append(f"{board}: broken now")
        else:
            parts.append(f"{board}: {answer.black} place {answer.white} {colour_word(ruleset)}")
    return f"Guess {number}: {spoken_code(guess)} — " + "; ".join(parts) + f". {counted(left, 'guess')} left."


def seat_words(seat: Any, view: TableView) -> str:
    """One seat in words: ``"2 HAL9000 (computer), 3 guesses, broke the code"``."""
    if seat.kind == "free":
        return f"seat {seat.index + 1} free"
    who = seat.name + (" (computer)" if seat.kind == "computer" else "") + (" (you)" if seat.index == view.you else "")
    if view.phase == OPEN:
        return f"seat {seat.index + 1} {who}"
    state = ("gone" if seat.gone else "out of time" if seat.timed_out else "broke the code" if seat.broke
             else "done" if seat.done else "away" if seat.away else "playing")
    if view.phase == MAKING:
        state = "code set" if seat.code_set else "setting a code"
    return f"seat {seat.index + 1} {who}, {counted(seat.attempts_used, 'guess')}, {state}"


def table_lines(old: TableView | None, new: TableView) -> list[str]:
    """What changed between two views of a table, one line per event (``old`` None: the table as found):
    the viewer's own guesses first, then the others' guesses, then what the table announced, then the phase.
    """
    lines: list[str] = []
    ruleset = new.ruleset
    if old is None:
        kind = "" if new.variant is Variant.CLASSIC else f" {new.variant.label},"
        lines.append(f"The table:{kind} {rules_words(ruleset)}.")
        lines.append("Players: " + "; ".join(seat_words(seat, new) for seat in new.seats) + ".")
    own = new.own
    if own is not None and old is not None and own.rows:  # Quad: four answers a guess
        done = len(old.own.rows) if old.own is not None else 0
        for number in range(done + 1, len(own.rows) + 1):
            guess, answers = own.rows[number - 1]
            lines.append(answers_line(number, guess, answers, ruleset, new.attempts - number))
    elif own is not None and old is not None:
        done = len(old.own.history) if old.own is not None else 0
        for number in range(done + 1, len(own.history) + 1):
            row = own.history[number - 1]
            lines.append(guess_line(number, row.guess, row.feedback, ruleset, new.attempts - number))
    if old is not None:
        for seat, before in zip(new.seats, old.seats, strict=False):
            if seat.index != new.you and seat.attempts_used > before.attempts_used:
                for number in range(before.attempts_used + 1, seat.attempts_used + 1):
                    lines.append(f"{seat.name} made guess {number}, {counted(new.attempts - number, 'guess')} left.")
            if old.phase == OPEN and seat.name != before.name:
                lines.append(f"{seat.name} sat in seat {seat.index + 1}." if seat.name else
                             f"Seat {seat.index + 1} is free again.")
        lines.extend(new.log[len(old.log):] if len(new.log) >= len(old.log) else new.log)
    if old is None or old.phase != new.phase:
        if new.phase == MAKING and own is not None and own.code_for is not None:
            lines.append(f"Set your code for {own.code_for}: {ruleset.length} symbols of "
                         f"{spoken_code(ruleset.palette.symbols)}.")
        elif new.phase == GUESSING and own is not None and not own.done:
            clock = f" Each guess has {new.guess_clock:g} seconds." if new.guess_clock else ""
            whose = ("Devious: it holds no code, corner it" if new.variant is Variant.DEVIOUS
                     else f"{own.breaking_code_of}'s code and three more" if new.variant is Variant.QUAD
                     else f"{own.breaking_code_of}'s code")
            lines.append(f"Break {whose}: type your first guess.{clock}"
                         if not own.history else f"Your turn to guess {own.breaking_code_of}'s code.{clock}")
        elif new.phase == FINISHED and new.final is not None:
            rows = [f"{row.name} {'broke' if row.broke else 'did not break'} "
                    f"{', '.join(spoken_code(code) for code in row.code.split())} "
                    f"in {counted(row.attempts, 'guess')}"
                    + (f", {counted(row.points, 'point')}" if row.points is not None else "")
                    for row in new.final]
            lines.append("Results: " + "; ".join(rows) + ".")
        elif new.phase == CLOSED and old is None:
            lines.append(new.closed_reason or "The table closed.")
    return lines


_COMMANDS: dict[str, Callable[[LineSession, str], Any]] = {
    "help": LineSession.cmd_help, "?": LineSession.cmd_help, "quit": LineSession.cmd_quit,
    "exit": LineSession.cmd_quit, "last": LineSession.cmd_last, "board": LineSession.cmd_board,
    "solo": LineSession.cmd_solo, "daily": LineSession.cmd_daily, "lifeline": LineSession.cmd_lifeline,
    "share": LineSession.cmd_share, "flip": LineSession.cmd_flip, "quick": LineSession.cmd_quick,
    "computers": LineSession.cmd_computers, "leave": LineSession.cmd_leave, "lobby": LineSession.cmd_lobby,
    "join": LineSession.cmd_join, "watch": LineSession.cmd_watch, "who": LineSession.cmd_who,
    "clock": LineSession.cmd_clock, "scores": LineSession.cmd_scores, "ratings": LineSession.cmd_ratings,
    "hall": LineSession.cmd_hall, "stats": LineSession.cmd_stats, "notes": LineSession.cmd_notes,
    "register": LineSession.cmd_register, "play": LineSession.cmd_play, "computer": LineSession.cmd_computer,
    "open": LineSession.cmd_open, "start": LineSession.cmd_start, "invite": LineSession.cmd_invite,
    "accept": LineSession.cmd_accept, "decline": LineSession.cmd_decline,
}
"""Every command, by its first word (case ignored)."""

__all__ = ["HELP", "LINE_FORM", "LineSession", "Write", "parse_solo", "table_lines"]
