r"""A nudge when it's time: the terminal bell and, if the player opted in, a desktop notification.

For players and operators: docs/play.md, *A nudge when it's time*.

The desktop notification is two escape sequences most terminals that show notifications understand:
OSC 9 (iTerm2, Windows Terminal, WezTerm, kitty, foot, ConEmu) and OSC 777 (rxvt-unicode, VTE
terminals, WezTerm). Inside tmux they must be wrapped for its passthrough (``ESC P tmux; …  ESC \``,
with every ESC doubled; tmux passes them only with ``allow-passthrough on``).

Whether the player's terminal is inside tmux is a question about *their* terminal. Locally the game's
own environment tells (``$TMUX``). Served over SSH the game's environment is the server's, minus every
variable describing the operator's terminal (``TMUX`` among them, see :mod:`wom_tui.serve.session`),
plus the TERM the client sent: a client inside tmux sends ``tmux-256color`` or ``screen-256color``, so
a TERM of the tmux or screen family wraps too. The sequences go through the app's driver, as Textual's
OSC 52 clipboard does, so over SSH they reach the client's terminal, never the server's.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any

_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f;]")
"""Control characters (ESC, BEL, the C1 range) and OSC 777's separator: never from a name into a sequence."""


def clean(text: str, limit: int = 120) -> str:
    """``text`` safe inside an OSC sequence: control characters and ``;`` become spaces; at most ``limit``."""
    return _UNSAFE.sub(" ", text)[:limit].strip()


def in_tmux(env: Mapping[str, str]) -> bool:
    """True if the player's terminal is inside tmux or screen (see the module's docstring)."""
    term = env.get("TERM", "")
    return bool(env.get("TMUX")) or term.startswith(("tmux", "screen"))


def tmux_wrap(sequence: str) -> str:
    """``sequence`` wrapped for tmux's passthrough (every ESC inside doubled)."""
    return "\x1bPtmux;" + sequence.replace("\x1b", "\x1b\x1b") + "\x1b\\"


def desktop_sequences(title: str, body: str, *, tmux: bool = False) -> str:
    """OSC 9 and OSC 777 desktop notifications of ``title`` and ``body`` (cleaned), wrapped for tmux if asked."""
    title, body = clean(title, 60), clean(body)
    sequences = [f"\x1b]9;{title}: {body}\x07", f"\x1b]777;notify;{title};{body}\x07"]
    return "".join(tmux_wrap(s) if tmux else s for s in sequences)


def nudge(app: Any, reason: str, *, bell: bool, desktop: bool, env: Mapping[str, str] | None = None) -> None:
    """Ring the bell (``bell``) and send a desktop notification (``desktop``) saying ``reason``.

    The reason on screen is the caller's: a nudge never replaces the words that say why.
    """
    if bell:
        app.bell()
    if desktop:
        driver = getattr(app, "_driver", None)
        if driver is not None:
            driver.write(desktop_sequences("World of Mastermind", reason, tmux=in_tmux(env if env is not None else os.environ)))
            driver.flush()


__all__ = ["clean", "desktop_sequences", "in_tmux", "nudge", "tmux_wrap"]
