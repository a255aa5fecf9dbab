"""What the warm parent does once, before it forks any game: import everything a game uses, and rehearse
one game through the screens a player meets first so that Textual's caches are filled here and shared by
every game (docs/serve.md).
"""

from __future__ import annotations

import gc
import logging
import os

log = logging.getLogger("wom_tui.serve")

# Served sessions only (the warm parent exists for nothing else), set before Textual is imported
# because Textual reads them once, at import (textual/constants.py):
SERVED_TEXTUAL_ENV = {
    # Frames per second: Textual's default is 60. Over SSH every frame is bytes on the wire and CPU on a
    # server shared by many players; 30 still keeps a key's echo within one 33 ms frame.
    "TEXTUAL_FPS": "30",
    # How long a lone ESC byte waits for the rest of an escape sequence (ESCDELAY in ms, Textual's default
    # 100; https://github.com/Textualize/textual/issues/4816). A terminal writes an arrow key's "ESC [ A"
    # at once and our server writes each SSH data message to the pty in one write, so a sequence is only
    # split when the client's own packets split it, and then the gap is network jitter, which on a laggy
    # link is well over 100 ms: a split arrow key would read as Esc (leave the game?) plus "[A". 200 ms
    # covers that jitter while an Esc still answers within a fifth of a second (plus the round trip).
    "ESCDELAY": "200",
}


def warm_up() -> None:
    """Import everything a session uses, so that forked children share it instead of importing it."""
    for key, value in SERVED_TEXTUAL_ENV.items():
        os.environ.setdefault(key, value)

    import rich._emoji_codes  # noqa: F401  (rich loads its emoji table at the first markup it renders)
    import textual.drivers.linux_driver  # the driver a served game runs, and ours on it
    import textual.drivers.web_driver  # the driver a browser tab's game runs, and ours on it
    import textual.widgets
    from rich.cells import get_character_cell_size

    from .. import app, launch, patches  # noqa: F401
    from ..patches import driver, parsed_css  # noqa: F401
    from . import webdriver  # noqa: F401  (a browser tab's driver)
    from ..domain.store import remote as _remote_store  # noqa: F401  (the store a game opens: its server's hub)
    from ..domain.store.folder import store as _folder_store  # noqa: F401  (the store of a server without a hub)

    # rich imports its table of character widths at the first character outside its single-width ranges
    # (the rehearsal draws none, a game soon does): import it here, once, rather than in every game. The
    # table depends on $UNICODE_VERSION, which a game's environment takes from the server's, as this one.
    get_character_cell_size("\u4e00")

    # The hub's protocol: every method a game may call, with its resolved annotations (about 20 ms and a
    # walk over every object of a dozen modules, done at a game's first call to the hub otherwise).
    from ..domain.store import wire

    wire.methods()
    patches.install()  # as run_app does in each game: here, once, so that the rehearsal runs with them
    parsed_css.share()  # each stylesheet parsed once, here, for every game (see the module)
    _steady_cursors()
    app.import_screens()
    for name in dir(textual.widgets):
        if not name.startswith("_"):
            getattr(textual.widgets, name)  # textual.widgets imports its widgets lazily
    _rehearse()
    # Objects made so far live as long as this process: keep the collector from touching (and so
    # copying) their pages in every child.
    gc.collect()
    gc.freeze()


def _steady_cursors() -> None:
    """Text cursors in served games do not blink: a blink is a repaint and bytes on the wire twice a
    second for every player idle at a text field (a game on the register screen used 10 ms of CPU a
    second idle; 2 without). Textual has no switch for it, so the fields' default changes here.
    """
    from textual.widgets import Input, TextArea

    for field in (Input, TextArea):
        field.cursor_blink._default = False


REHEARSED_KEYS = ("r", "escape", "l")
"""The keys the rehearsal presses at the main menu: the register screen and back, then the lobby. Textual's
caches for what those screens draw are then the warm parent's, shared, not filled anew in every game, for
about 0.1 CPU-second more once per server start (the figures: docs/perf/scale.md)."""


def _rehearse() -> None:
    """Run the app once, headless, to its main menu and through :data:`REHEARSED_KEYS`: Textual's caches
    (parsed selectors, styles, rendered text) are then filled here once, and shared by every child instead
    of rebuilt in each.
    """
    import random
    import tempfile
    import threading
    from pathlib import Path

    from ..app import WomApp
    from ..domain.identity import Identity
    from ..domain.store.folder.store import FolderStore
    from ..settings import Settings

    with tempfile.TemporaryDirectory(prefix="wom-warm-") as folder:
        data_dir = Path(folder)
        settings = Settings(data_dir=data_dir, seed=0, served=True)
        app = WomApp(FolderStore(data_dir), random.Random(0), settings, Identity.guest())  # as a served guest
        # Once the menu is painted and what follows the first paint (the presence) has started: the screens
        # an SSH player meets first, each painted (the register screen, the lobby), then exit.
        def step(keys: tuple[str, ...]) -> None:
            if not keys:
                app.exit()
                return
            app.simulate_key(keys[0])
            app.call_after_refresh(lambda: app.call_after_refresh(lambda: step(keys[1:])))

        app.call_later(lambda: app.call_after_refresh(lambda: app.call_after_refresh(lambda: step(REHEARSED_KEYS))))
        try:
            app.run(headless=True, size=(80, 24))
        except Exception:  # a rehearsal only: the children then just start colder
            log.exception("warm-up run failed")
    for thread in threading.enumerate():
        if thread is not threading.main_thread():
            thread.join(timeout=5)  # fork only a process without threads
