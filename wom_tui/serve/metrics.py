"""What ``wom-tui serve --metrics`` counts, in Prometheus' text format (docs/serve.md, "Metrics").

One :class:`Metrics` per server, on a registry of its own (two servers in one test process keep their
counts apart). The server counts what it sees itself (connections, sign-ins, refusals, sessions, the
input throttle, the warm parent); what happens inside a game's process (its menu on screen, games started
and finished, the store's latency) the game reports on the log pipe the server already reads from it
(:mod:`wom_tui.launch`, ``REPORT_MARK``), and the server counts it here. No game opens a port, and no
files are shared between processes.

Every series carries ``transport`` where a session is concerned: ``ssh``, or ``web`` for a browser tab.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
"""The content type of :meth:`Metrics.render` (Prometheus' text format)."""

MENU_BUCKETS = (0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0, float("inf"))
"""Seconds from a session's start to its game's menu on screen (a warm fork is a tenth of a second)."""
STORE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, float("inf"))
"""Seconds one store operation takes (a folder read is under a millisecond, a database round trip a few)."""

SIGN_IN_OUTCOMES = ("key", "cookie", "guest", "abandoned")
"""How a connection's sign-in ends: with a verified key (a browser: its sign-in cookie), as a guest, or closed or dropped before either."""


class _TablesOpen(Collector):
    """``wom_live_tables_open``: read from the store when scraped (None from ``count``: no sample)."""

    def __init__(self, count: Callable[[], int | None]) -> None:
        self._count = count

    def collect(self) -> Iterable[GaugeMetricFamily]:
        """The gauge, if the store answered."""
        family = GaugeMetricFamily("wom_live_tables_open", "Live tables not finished or closed, as the store keeps them.")
        value = self._count()
        if value is not None:
            family.add_metric([], value)
        yield family


class Metrics:
    """The server's instruments; :meth:`render` gives the text a Prometheus scrape reads."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.sessions_open = Gauge(
            "wom_sessions_open", "Sessions holding a seat now.", ["transport", "kind"], registry=r)
        self.sessions = Counter(
            "wom_sessions", "Sessions given a seat since the start.", ["transport", "kind"], registry=r)
        self.sign_ins = Counter(
            "wom_sign_ins", "Connections' sign-ins by outcome (key, guest, abandoned).", ["transport", "outcome"],
            registry=r)
        self.refusals = Counter(
            "wom_refusals", "Sessions or connections turned away, by reason.", ["transport", "reason"], registry=r)
        self.throttled = Counter(
            "wom_throttled_keystrokes", "Keystrokes dropped for coming faster than a person types.", ["transport"],
            registry=r)
        self.menu_seconds = Histogram(
            "wom_session_to_menu_seconds", "From a session's start (the fork asked for) to its menu on screen.",
            ["transport"], buckets=MENU_BUCKETS, registry=r)
        self.games_started = Counter("wom_games_started", "Games started, by kind.", ["kind"], registry=r)
        self.games_finished = Counter("wom_games_finished", "Games finished and recorded, by kind.", ["kind"], registry=r)
        self.store_seconds = Histogram(
            "wom_store_operation_seconds", "Store operations' time in the games, by backend.", ["backend"],
            buckets=STORE_BUCKETS, registry=r)
        self.store_errors = Counter(
            "wom_store_errors", "Store operations that failed in the games, by backend.", ["backend"], registry=r)
        self.warm_restarts = Counter(
            "wom_warm_parent_restarts", "Times the warm parent ended and a new one was started.", registry=r)
        self.operator_actions = Counter(
            "wom_operator_actions", "Operators' acts on the Operator screen (kick, ban, retire, broadcast).", ["action"],
            registry=r)
        self.moderated = Counter(
            "wom_sessions_moderated", "Open sessions ended by a ban or a retirement (moderated) or an operator's kick.",
            ["transport", "reason"], registry=r)
        self.game_errors = Counter(
            "wom_game_errors", "Error lines the games logged (tracebacks count once per line).", ["transport"],
            registry=r)

    def count_tables(self, count: Callable[[], int | None]) -> None:
        """Read ``wom_live_tables_open`` from ``count`` at each scrape (it returns None if the store is away)."""
        self.registry.register(_TablesOpen(count))

    def render(self) -> bytes:
        """Every series in Prometheus' text format."""
        return generate_latest(self.registry)
