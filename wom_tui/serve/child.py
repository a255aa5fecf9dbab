"""The process a served session runs: take the pty as controlling terminal, then run wom-tui.

The server starts this with ``start_new_session=True`` (so we already lead a new
session) and the pty's slave side on fds 0–2. Only a controlling terminal makes
the kernel deliver SIGWINCH on resize, and Textual re-lays the screen on
SIGWINCH, so this claims the pty with TIOCSCTTY before the app starts. Doing it
here rather than in a ``preexec_fn`` keeps the server free of fork-time
callbacks, which are unsafe in a process with threads.
"""

from __future__ import annotations

import fcntl
import os
import sys
import termios
from collections.abc import Sequence


def claim_terminal(fd: int = 0) -> None:
    """Make the terminal on ``fd`` this process's controlling terminal (leading a session if needed)."""
    if os.getsid(0) != os.getpid():
        os.setsid()
    fcntl.ioctl(fd, termios.TIOCSCTTY, 0)


def _log_early(args: list[str]) -> None:
    """Send this process's log to the server's pipe before anything can fail (never to the player)."""
    import logging

    from ..__main__ import log_to_server

    logging.getLogger("wom_tui").addHandler(logging.NullHandler())
    if "--log-fd" in args[:-1]:
        try:
            log_to_server(int(args[args.index("--log-fd") + 1]))
        except ValueError:
            pass


APOLOGY = "Sorry, something went wrong in the game and it had to stop. Please connect again.\r\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Claim the terminal and run ``wom-tui`` with the given arguments.

    Whatever goes wrong, the player reads a short apology; the traceback goes to the server's
    log (through ``--log-fd``), never to the player's screen.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    _log_early(args)
    try:
        claim_terminal()
        from ..__main__ import main as wom_main

        return wom_main(args)
    except Exception:
        import logging

        logging.getLogger("wom_tui.session").exception("the game process failed")
        sys.stderr.write(APOLOGY)
        sys.stderr.flush()
        return 70


if __name__ == "__main__":
    sys.exit(main())
