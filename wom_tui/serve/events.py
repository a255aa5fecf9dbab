"""The server's events, in one place: each is logged (text as always, or one JSON object a line with
``--log-format json``) and counted (when ``--metrics`` is on). See docs/serve.md, "Logs" and "Metrics".

The server and its sessions call one :class:`Events` object; a transport (SSH, the browser) passes what
it knows as a :class:`Who`. Moderation (a ban, a kick) reports through :meth:`Events.moderated` and
:meth:`Events.refused`, so its lines and counts look like every other's.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .logsafe import clean

if TYPE_CHECKING:
    from .metrics import Metrics

log = logging.getLogger("wom_tui.serve")

FIELDS = "wom_fields"
"""The attribute of a log record holding its event's fields (read by :class:`~.logsafe.JsonFormatter`)."""
OPERATOR_ACTIONS = ("kick", "ban", "retire", "broadcast", "clear_broadcast")
"""What an operator does on the Operator screen (each logged and counted, docs/serve.md)."""
MAX_REPORTS = 100_000
"""Reports one game may send (a runaway game cannot make the server parse without end)."""


@dataclass
class Who:
    """Who an event is about: what the server verified, never what a client claimed."""

    session: str | None = None
    """The session's id (``3.1``: the connection's number, then the session's on it)."""
    address: str | None = None
    fingerprint: str | None = None
    """The verified key's SHA256 fingerprint; None for a guest."""
    name: str | None = None
    """The player's name, once their game has said it (from the store, by the verified key)."""
    transport: str = "ssh"
    operator: bool = False
    """Signed in with an ``--operator-key`` key (the server verified it): only its game's operator reports count."""
    operator_report_ignored: bool = False
    """An operator's report came from this session without an operator key (logged once)."""
    cookie: bool = False
    """A browser tab signed in by its session cookie (the server looked the name up): ``name`` is verified."""

    @property
    def kind(self) -> str:
        """``signed_in`` (with a verified key, or a browser's verified cookie) or ``guest``."""
        return "signed_in" if self.fingerprint or self.cookie else "guest"

    @property
    def label(self) -> str:
        """How the text log names the session: ``session #3.1`` over SSH, ``web session #2`` in a browser."""
        return f"web session #{self.session}" if self.transport == "web" else f"session #{self.session}"

    def fields(self) -> dict[str, Any]:
        """The log fields, client-chosen text cleaned (a name, an address)."""
        found = {
            "session": self.session, "address": self.address, "fingerprint": self.fingerprint,
            "name": self.name, "transport": self.transport, "operator": self.operator,
        }
        return {key: clean(value) if isinstance(value, str) else value for key, value in found.items() if value}


def extra(event: str, who: Who | None = None, **fields: Any) -> dict[str, Any]:
    """``extra=`` for a log call: the event's name and fields (strings cleaned), for the JSON log."""
    found: dict[str, Any] = {"event": event}
    if who is not None:
        found.update(who.fields())
    for key, value in fields.items():
        if value is not None:
            found[key] = clean(value) if isinstance(value, str) else value
    return {FIELDS: found}


class Events:
    """What the server tells its log and its metrics; ``metrics`` None counts nothing (the default)."""

    def __init__(self, metrics: Metrics | None = None) -> None:
        self.metrics = metrics

    # -- connections -------------------------------------------------------------------------------

    def signed_in(self, who: Who, connection: int, peer: str) -> None:
        """A connection signed in, with a verified key or as a guest."""
        log.info(
            "connection #%d from %s signed in %s", connection, peer,
            (f"with key {who.fingerprint}" + (" (an operator's)" if who.operator else "")) if who.fingerprint
            else "as a guest",
            extra=extra("sign_in", who, outcome="key" if who.fingerprint else "guest"),
        )
        if self.metrics is not None:
            self.metrics.sign_ins.labels(who.transport, "key" if who.fingerprint else "guest").inc()

    def tab_signed_in(self, who: Who) -> None:
        """A browser tab opened its socket, signed in by its cookie (as ``who.name``) or as a guest."""
        outcome = "cookie" if who.cookie else "guest"
        log.info("%s: browser from %s, %s", who.label, who.address,
                 f"signed in as {who.name}" if who.cookie and who.name else "guest",
                 extra=extra("sign_in", who, outcome=outcome))
        if self.metrics is not None:
            self.metrics.sign_ins.labels(who.transport, outcome).inc()

    def sign_in_abandoned(self, transport: str = "ssh") -> None:
        """A connection closed, or was dropped, before signing in (logged in bulk by the caller)."""
        if self.metrics is not None:
            self.metrics.sign_ins.labels(transport, "abandoned").inc()

    def refused(self, who: Who, reason: str, message: str, *args: object, level: int = logging.INFO,
                detail: str | None = None) -> None:
        """A session or connection turned away for ``reason`` (``full``, ``address``, ``no_terminal``,
        ``no_guests``, ``banned`` …); ``message % args`` is the text log's line, ``detail`` the line the client read.
        """
        log.log(level, message, *args, extra=extra("refusal", who, reason=reason, detail=detail))
        if self.metrics is not None:
            self.metrics.refusals.labels(who.transport, reason).inc()

    def moderated(self, event: str, who: Who, message: str, *args: object, reason: str | None = None,
                  by: str | None = None, duration: float | None = None) -> None:
        """An operator's act on a player (``ban``, ``unban``, ``kick``, ``retire``), or a session a ban or a kick
        ended (``moderated``, ``kicked``), ``by`` whom.
        """
        log.warning(message, *args, extra=extra(event, who, reason=reason, by=by, duration=duration))
        if self.metrics is not None and event in ("moderated", "kicked"):
            self.metrics.moderated.labels(who.transport, event).inc()

    def operator_action(self, who: Who, action: str, target: str | None, reason: str | None) -> None:
        """An operator did ``action`` (``kick``, ``ban``, ``retire``, ``broadcast``, ``clear_broadcast``) on the
        Operator screen of their session ``who``; ``target``: the session, name, key or address concerned.
        """
        log.warning("%s: operator %s %s%s", who.label, clean(action, 20), clean(target or "-", 200),
                    f" ({clean(reason, 200)})" if reason else "",
                    extra=extra("operator_action", who, action=action, target=target, reason=reason))
        if self.metrics is not None:
            self.metrics.operator_actions.labels(clean(action, 20)).inc()

    # -- sessions ----------------------------------------------------------------------------------

    def session_started(self, who: Who) -> None:
        """A session got its seat and its game is being started."""
        if self.metrics is not None:
            self.metrics.sessions.labels(who.transport, who.kind).inc()
            self.metrics.sessions_open.labels(who.transport, who.kind).inc()

    def game_started(self, who: Who, message: str, *args: object) -> None:
        """A session's game process is running (the text log's line as before)."""
        log.info(message, *args, extra=extra("game_process", who))

    def session_ended(self, who: Who, reason: str, duration: float, status: int, *, seated: bool = True) -> None:
        """A session ended after ``duration`` seconds, for ``reason``; its game exited with ``status``."""
        log.info(
            "%s: session ended (%s) after %.1f s, game exit status %d", who.label, reason, duration, status,
            extra=extra("session_end", who, reason=reason, duration=round(duration, 3), status=status),
        )
        if seated and self.metrics is not None:
            self.metrics.sessions_open.labels(who.transport, who.kind).dec()

    def throttled(self, who: Who, keystrokes: int, *, first: bool) -> None:
        """``keystrokes`` more were dropped for coming too fast; ``first``: the session's first drop (logged)."""
        if first:
            log.warning("%s: input faster than a person types; dropping the excess", who.label,
                        extra=extra("throttled", who))
        if self.metrics is not None and keystrokes:
            self.metrics.throttled.labels(who.transport).inc(keystrokes)

    def error(self, who: Who | None, message: str, *args: object) -> None:
        """Something went wrong that an operator should read."""
        log.error(message, *args, extra=extra("error", who))

    def game_log(self, who: Who, line: str) -> None:
        """A line the game logged (an error, a traceback's line), cleaned."""
        log.error("%s: game: %s", who.label, line, extra=extra("game_error", who))
        if self.metrics is not None:
            self.metrics.game_errors.labels(who.transport).inc()

    # -- what the games report ---------------------------------------------------------------------

    def game_report(self, who: Who, report: str, since_start: float) -> None:
        """One report line a game sent (``launch.report``): its menu on screen, a game started or finished,
        a store operation's time, the player's name. Unknown or malformed reports are ignored.
        """
        try:
            data = json.loads(report)
        except ValueError:
            return
        if not isinstance(data, dict):
            return
        event = data.get("event")
        if event == "identity" and isinstance(data.get("name"), str):
            who.name = data["name"]
            return
        if event == "operator":
            if not who.operator:
                # Only a game the server started for an operator's key may report an operator's act; anything
                # else is ignored and said once per session (a game gone wrong, or one tampered with).
                if not who.operator_report_ignored:
                    who.operator_report_ignored = True
                    log.warning("%s: ignored an operator's report from a session without an operator key",
                                who.label, extra=extra("operator_report_ignored", who))
                return
            if isinstance(data.get("action"), str) and data["action"] in OPERATOR_ACTIONS:
                target, reason = data.get("target"), data.get("reason")
                self.operator_action(who, data["action"], target if isinstance(target, str) else None,
                                     reason if isinstance(reason, str) else None)
            return
        metrics = self.metrics
        if metrics is None:
            return
        if event == "menu":
            metrics.menu_seconds.labels(who.transport).observe(since_start)
        elif event in ("game_started", "game_finished") and isinstance(data.get("kind"), str):
            counter = metrics.games_started if event == "game_started" else metrics.games_finished
            counter.labels(clean(data["kind"], 20)).inc()
        elif event == "store" and isinstance(data.get("backend"), str):
            backend = "postgres" if data["backend"] == "postgres" else "folder"
            seconds = data.get("seconds")
            if isinstance(seconds, (int, float)) and seconds >= 0:
                metrics.store_seconds.labels(backend).observe(seconds)
            if data.get("error"):
                metrics.store_errors.labels(backend).inc()

    # -- the warm parent ---------------------------------------------------------------------------

    def warm_restarted(self) -> None:
        """The warm parent ended and a new one is being started (the warm parent logs it)."""
        if self.metrics is not None:
            self.metrics.warm_restarts.inc()
