"""The process's open descriptors (RLIMIT_NOFILE): every SSH connection, browser tab and game pipe is one, so
the server raises the soft limit to the hard one as it starts and sizes its caps by it (docs/serve.md).
"""

from __future__ import annotations

import logging
import resource

log = logging.getLogger("wom_tui.serve")


def descriptor_limit() -> int:
    """The process's soft limit on open descriptors (RLIMIT_NOFILE)."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


def raise_descriptor_limit() -> tuple[int, int]:
    """Raise the soft RLIMIT_NOFILE to the hard one (logged with both); the (soft, hard) in force after."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError) as exc:
            log.warning("descriptors: cannot raise the limit from %d to %d: %s", soft, hard, exc)
            return soft, hard
        log.info("descriptors: soft limit raised from %d to the hard limit %d", soft, hard)
        return hard, hard
    log.info("descriptors: limit %d (soft and hard)", soft)
    return soft, hard
