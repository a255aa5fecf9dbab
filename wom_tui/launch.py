"""Run one game: on this machine (``wom-tui``), or forked by ``wom-tui serve``'s warm parent for an SSH session.

Either way the game is the app on a store, with one seeded RNG and an identity; a served game also logs
to the pipe its server gave it (never to the player's screen) and apologises briefly if it fails.
"""

from __future__ import annotations

import gc
import json
import logging
import random
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from .domain.identity import Identity
from .settings import OUT_OF_MEMORY, OUT_OF_MEMORY_STATUS, Settings, open_store

if TYPE_CHECKING:
    from .app import WomApp
    from .domain.store import Store

SERVED_APOLOGY = "Sorry, something went wrong in the game and it had to stop. Please connect again.\r\n"
"""What a served player reads if the game fails outside the app (the app says the same for its own failures)."""

REPORT_MARK = "\x1ewom-report "
"""How a served game's report line starts on its log pipe; one JSON object follows (read by the server's
session, counted by ``wom-tui serve --metrics``: docs/serve.md, "Metrics")."""
_REPORTS = "wom_tui.report"
_reporting = False
GAME_SCREENS = {
    "WomGameScreen": "wom", "SoloGameScreen": "solo", "ComputerBreaksScreen": "flip",
    "DailyGameScreen": "daily", "LiveTableScreen": "table", "VariantGameScreen": "variant",
}
"""The screens that mean a game has started, by class name, and the kind of game each plays."""


def report(event: str, **fields: Any) -> None:
    """Tell the server ``event`` (a served game only; nothing locally): one line on the log pipe."""
    if _reporting:
        logging.getLogger(_REPORTS).info("%s", json.dumps({"event": event, **fields}, separators=(",", ":")))


class _ServerLogFormatter(logging.Formatter):
    """The game's log lines as before; its reports as ``REPORT_MARK`` and their JSON, which no logged text can
    imitate (the mark's first character is escaped in every other line, a traceback's too).
    """

    def format(self, record: logging.LogRecord) -> str:
        """One report line, or the log line with the mark's character escaped."""
        if record.name == _REPORTS:
            return REPORT_MARK + record.getMessage()
        return super().format(record).replace(REPORT_MARK[0], "\\x1e")


def log_to_server(fd: int) -> None:
    """A served game logs (errors, tracebacks) to the pipe the server gave it, never to the player's screen."""
    import os

    logger = logging.getLogger("wom_tui")
    if getattr(logger, "wom_server_fd", None) == fd:
        return
    try:
        stream = os.fdopen(fd, "w", buffering=1, encoding="utf-8", errors="replace")
    except OSError:
        handler: logging.Handler = logging.NullHandler()
    else:
        handler = logging.StreamHandler(stream)
        handler.setFormatter(_ServerLogFormatter("%(levelname)s %(name)s: %(message)s"))
        global _reporting
        _reporting = True
    logger.wom_server_fd = fd  # type: ignore[attr-defined]
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    # Everything else that would write to stderr (the player's terminal) goes to the server's log too:
    # other libraries' log records (asyncio's "exception was never retrieved"), warnings, an exception
    # in any thread, and one Python can only report as "ignored".
    root = logging.getLogger()
    root.addHandler(handler)
    logging.captureWarnings(True)
    threading.excepthook = _log_thread_exception
    sys.unraisablehook = _log_unraisable


def _log_thread_exception(args: threading.ExceptHookArgs) -> None:
    """A thread of a served game failed: its traceback goes to the server's log (the game goes on)."""
    if args.exc_type is SystemExit:
        return
    thread = args.thread.name if args.thread is not None else "a thread"
    exc_info = (args.exc_type, args.exc_value, args.exc_traceback) if args.exc_value is not None else None
    logging.getLogger("wom_tui.session").error("%s of the game failed", thread, exc_info=exc_info)


def _log_unraisable(unraisable: Any) -> None:
    """An exception Python could not raise (in a finaliser, say): to the server's log."""
    error = unraisable.exc_value
    exc_info = (type(error), error, unraisable.exc_traceback) if error is not None else None
    logging.getLogger("wom_tui.session").error(
        "%s: %s", unraisable.err_msg or "Exception ignored in", unraisable.object, exc_info=exc_info
    )


def run_served(settings: Settings, fingerprint: str | None, log_fd: int | None = None, *, name: str | None = None) -> int:
    """Run a served session's game as the key ``fingerprint`` the server verified (None: a guest), or for
    a browser tab as the registered ``name`` its sign-in cookie stands for (the server looked it up).

    Whatever goes wrong, the player reads a short apology; the traceback goes to the server's log
    (through ``log_fd``), never to the player's screen.
    """
    logging.getLogger("wom_tui").addHandler(logging.NullHandler())
    if log_fd is not None:
        log_to_server(log_fd)
    limit_game_memory(settings.game_memory_limit)
    try:
        if name is not None:
            identity = Identity.browser_tab(name)
        else:
            identity = Identity.key(fingerprint) if fingerprint else Identity.guest()
        return play(settings, identity)
    except MemoryError:
        logging.getLogger("wom_tui.session").error("the game reached its memory limit (%d MiB)",
                                                   settings.game_memory_limit >> 20)
        sys.stderr.write(OUT_OF_MEMORY + "\r\n")
        sys.stderr.flush()
        return OUT_OF_MEMORY_STATUS
    except Exception:
        logging.getLogger("wom_tui.session").exception("the game process failed")
        sys.stderr.write(SERVED_APOLOGY)
        sys.stderr.flush()
        return 70


def limit_game_memory(limit: int) -> None:
    """Cap a served game's address space at ``limit`` bytes (``RLIMIT_AS``; 0: no cap): past it, allocations
    fail with MemoryError and the game ends with :data:`~wom_tui.settings.OUT_OF_MEMORY`.
    """
    if limit <= 0:
        return
    import resource

    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    try:
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ValueError, OSError) as exc:
        logging.getLogger("wom_tui.session").warning("cannot limit the game's memory: %s", exc)


def play(settings: Settings, identity: Identity) -> int:
    """Run the app as ``identity`` with the RNG of ``settings.seed``; the exit status."""
    # No garbage collection until the first screen is painted (the app turns it back on then): importing
    # Textual and building the first screen make objects by the hundred thousand, and the collector
    # walked them about a hundred times on the way (a twentieth of a cold start), finding next to nothing.
    gc.disable()
    try:
        return run_app(settings, random.Random(settings.seed), identity)
    finally:
        gc.enable()


def run_app(settings: Settings, rng: random.Random, identity: Identity | None = None) -> int:
    """Open the store (``settings.store`` or the data folder) and run the app as ``identity``; return the exit status.

    A served key that belongs to a registered user signs in as that user.
    """
    from . import app as app_module
    from . import patches
    from .domain.store import StoreError

    patches.install()  # Textual's global workarounds, once, before any widget is built (wom_tui/patches)
    from .patches.driver import tolerate_invalid_input

    tolerate_invalid_input()  # a byte that is not UTF-8 is typed data, on Textual's own drivers too
    identity = identity if identity is not None else Identity.local()
    try:
        store = open_store(settings)
    except StoreError as error:
        # Without a usable store there is no game to show; say which folder or database and why
        # (to a served player without the server's paths: those go to the server's log).
        where = "the database" if settings.store else "the data folder"
        if settings.served:
            from .screens.errors import log_for_operator

            reference = log_for_operator(error)
            print("Sorry, the game's data cannot be read right now. Please try again later; if it keeps "
                  f"happening, tell the server's operator this reference: {reference}", file=sys.stderr)
        else:
            print(f"wom-tui: cannot use {where}: {error}", file=sys.stderr)
        return 1
    css_cache: Path | None = None
    try:
        if identity.fingerprint is not None:
            try:
                holder = store.user_for_key(identity.fingerprint)
            except StoreError:
                holder = None  # the app shows the store's refusal on start
            if holder is not None:
                identity = identity.signed_in_as(holder.name)
        # The name goes to the server's log; the rest only to a server that counts (``--metrics``).
        if _reporting and identity.name is not None:
            report("identity", name=identity.name)
        counting = _reporting and settings.metrics is not None
        if counting:
            store = _TimedStore.around(store, "postgres" if settings.store else "folder")
        app = app_module.WomApp(store, rng, settings, identity)
        if _reporting:
            # An operator's act on the Operator screen: the server logs and counts it (docs/serve.md).
            app.report_operator = lambda action, **fields: report("operator", action=action, **fields)
            # A seat at a table taken or given up: the server keeps only such a session for a dropped connection.
            app.report_seat = lambda seated: report("seat", at_table=seated)
        if counting:
            _report_screens(app, app_module)
        css_cache = app_module._load_parsed_css() if not settings.served else None
        app.run()
    finally:
        store.close()
    if css_cache is not None:
        from .patches import parsed_css

        parsed_css.save(css_cache)
    return app.return_code or 0


def _report_screens(app: WomApp, app_module: Any) -> None:
    """Once the menu is on screen, report it, then report each game screen the player opens."""
    previous = app_module.after_first_paint
    seen: set[int] = set()

    def screen_changed(screen: object) -> None:
        kind = GAME_SCREENS.get(type(screen).__name__)
        if kind is not None and id(screen) not in seen:
            seen.add(id(screen))
            report("game_started", kind=kind)

    def painted() -> None:
        if previous is not None:
            previous()
        report("menu")
        app.screen_change_signal.subscribe(app, screen_changed, immediate=True)

    app_module.after_first_paint = painted


class _TimedStore:
    """A served game's store, reporting each operation's time (and failure) and each game recorded."""

    def __init__(self, store: Store, backend: str) -> None:
        self._store = store
        self._backend = backend

    @classmethod
    def around(cls, store: Store, backend: str) -> Store:
        """``store``, timed (it still is a Store to everything that uses it)."""
        return cast("Store", cls(store, backend))

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._store, name)
        if name.startswith("_") or name in ("live", "close") or not callable(value):
            return value

        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            failed = True
            try:
                result = value(*args, **kwargs)
                failed = False
                return result
            finally:
                report("store", backend=self._backend, seconds=round(time.perf_counter() - start, 6), error=failed)
                if name == "record_game" and not failed and args:
                    report("game_finished", kind=str(getattr(args[0], "kind", "?")))

        return timed
