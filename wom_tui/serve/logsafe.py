"""The server's log stays readable and small whatever clients send.

* :func:`clean` turns anything a client chose (a TERM, a host name in a forwarding request)
  into one line of printable ASCII: newlines and escape sequences appear escaped, never raw,
  so nobody can forge a log line or drive the operator's terminal.
* :class:`SafeFormatter` does the same to every message as a last line of defence.
* :class:`RateLimitedLog` logs a kind of event at most once per interval with a count, for the
  things a flood produces by the thousand (dropped connections, failed accepts).
"""

from __future__ import annotations

import asyncio
import logging
import time

MAX_CLEAN = 120
"""Longest client-chosen text kept in a log line (longer is cut, with an ellipsis)."""
INTERVAL = 10.0


def clean(text: object, limit: int = MAX_CLEAN) -> str:
    r"""``text`` as printable ASCII on one line: control characters and non-ASCII escaped (``\n``, ``\x1b``)."""
    value = str(text)
    shown = ascii(value[:limit])[1:-1]
    return shown + ("…" if len(value) > limit else "")


def escape_controls(text: str) -> str:
    r"""Only the unprintable characters of ``text`` escaped (``\n``, ``\x1b``); the rest, backslashes too, as is."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


class SafeFormatter(logging.Formatter):
    """A formatter whose messages never hold a raw newline or escape sequence, whoever logged them.

    Client-chosen text is already :func:`clean`-ed where it is logged; this catches the rest
    (asyncssh's own messages, say). Tracebacks still span several lines.
    """

    def formatMessage(self, record: logging.LogRecord) -> str:  # logging's name
        """The record's message with its control characters escaped."""
        record.message = escape_controls(record.message)
        return super().formatMessage(record)


class RateLimitedLog:
    """Log ``template % (count, *args)`` at most once per ``interval`` seconds for a repeated event."""

    def __init__(self, logger: logging.Logger, template: str, interval: float = INTERVAL, level: int = logging.WARNING) -> None:
        self._logger = logger
        self._template = template
        self._interval = interval
        self._level = level
        self._count = 0
        self._args: tuple[object, ...] = ()
        self._last = -float("inf")
        self._timer: asyncio.TimerHandle | None = None
        self.total = 0
        """Events noted since the start."""

    def note(self, *args: object) -> None:
        """One more event (``args`` fill the template after the count; the latest are shown)."""
        self.total += 1
        self._count += 1
        self._args = args
        now = time.monotonic()
        if now - self._last >= self._interval:
            self._flush()
        elif self._timer is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return
            self._timer = loop.call_later(self._last + self._interval - now, self._flush)

    def _flush(self) -> None:
        self._timer = None
        if self._count:
            self._logger.log(self._level, self._template, self._count, *self._args)
            self._count = 0
            self._last = time.monotonic()


class JsonFormatter(logging.Formatter):
    """``--log-format json``: one JSON object a line, ASCII only, whoever logged (docs/serve.md, "Logs").

    Always ``time`` (UTC, ISO 8601), ``level``, ``event`` (``log`` for a line that is not one of the
    server's events), ``logger`` and ``message``; then the event's fields where they apply: ``session``,
    ``address``, ``fingerprint``, ``name``, ``transport``, ``duration``, ``reason``. Client-chosen text
    is already cleaned where it is logged; the message has its control characters escaped again, and
    ``ensure_ascii`` leaves nothing a terminal would act on. A traceback is one ``traceback`` field.
    """

    def format(self, record: logging.LogRecord) -> str:
        """The record as one line of JSON."""
        import datetime
        import json

        fields = getattr(record, "wom_fields", None) or {}
        entry: dict[str, object] = {
            "time": datetime.datetime.fromtimestamp(record.created, datetime.timezone.utc).isoformat(
                timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname.lower(),
            "event": fields.get("event", "log"),
            "logger": record.name,
            "message": escape_controls(record.getMessage()),
        }
        entry.update((key, value) for key, value in fields.items() if key != "event")
        if record.exc_info:
            entry["traceback"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=True, default=str)


def log_formatter(log_format: str) -> logging.Formatter:
    """The server log's formatter (the server's and its hub's): ``text`` (as it always was) or ``json`` (one
    object a line).
    """
    if log_format == "json":
        return JsonFormatter()
    return SafeFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
