"""Run one game: on this machine (``wom-tui``), or forked by ``wom-tui serve``'s warm parent for an SSH session.

Either way the game is the app on a store, with one seeded RNG and an identity; a served game also logs
to the pipe its server gave it (never to the player's screen) and apologises briefly if it fails.
"""

from __future__ import annotations

import gc
import logging
import random
import sys
from pathlib import Path

from .domain.identity import Identity
from .settings import Settings, open_store

SERVED_APOLOGY = "Sorry, something went wrong in the game and it had to stop. Please connect again.\r\n"
"""What a served player reads if the game fails outside the app (the app says the same for its own failures)."""


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
        handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    logger.wom_server_fd = fd  # type: ignore[attr-defined]
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False


def run_served(settings: Settings, fingerprint: str | None, log_fd: int | None = None, *, name: str | None = None) -> int:
    """Run a served session's game as the key ``fingerprint`` the server verified (None: a guest), or for
    a browser tab as the registered ``name`` its sign-in cookie stands for (the server looked it up).

    Whatever goes wrong, the player reads a short apology; the traceback goes to the server's log
    (through ``log_fd``), never to the player's screen.
    """
    logging.getLogger("wom_tui").addHandler(logging.NullHandler())
    if log_fd is not None:
        log_to_server(log_fd)
    try:
        if name is not None:
            # A browser identity is a name without a key; Identity gains that form with the browser
            # sign-in (wom_tui/serve/web_auth.py). Until then this refuses, loudly, rather than guess.
            identity = Identity(served=True, name=name)
        else:
            identity = Identity.key(fingerprint) if fingerprint else Identity.guest()
        return play(settings, identity)
    except Exception:
        logging.getLogger("wom_tui.session").exception("the game process failed")
        sys.stderr.write(SERVED_APOLOGY)
        sys.stderr.flush()
        return 70


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
    identity = identity if identity is not None else Identity.local()
    try:
        store = open_store(settings)
    except StoreError as error:
        # Without a usable store there is no game to show; say which folder or database and why
        # (to a served player without the server's paths: those go to the server's log).
        where = "the database" if settings.store else "the data folder"
        if settings.served:
            logging.getLogger("wom_tui.session").error("cannot use %s: %s", where, error)
            print("Sorry, the game's data cannot be read right now. Please try again later.", file=sys.stderr)
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
        app = app_module.WomApp(store, rng, settings, identity)
        css_cache = app_module._load_parsed_css() if not settings.served else None
        app.run()
    finally:
        store.close()
    if css_cache is not None:
        from .patches import parsed_css

        parsed_css.save(css_cache)
    return app.return_code or 0
