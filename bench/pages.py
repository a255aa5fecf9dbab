"""A process's pages as the kernel maps them: what `ssh_memory.py` and `fork_copy.py` share, not a bench."""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

PAGE = 4096
PRESENT = 1 << 63
FRAME = (1 << 55) - 1


def frames(pid: int, kind_of: Callable[[str], str] = str) -> dict[int, tuple[str, int]]:
    """Present pages of ``pid``'s writable mappings: address -> (``kind_of`` the mapping's name, page frame
    number; the kernel shows frame numbers to root only, 0 to anyone else)."""
    pages: dict[int, tuple[str, int]] = {}
    with open(f"/proc/{pid}/pagemap", "rb") as pagemap:
        for line in Path(f"/proc/{pid}/maps").read_text().splitlines():
            parts = line.split(None, 5)
            if "w" not in parts[1]:
                continue
            low, high = (int(x, 16) for x in parts[0].split("-"))
            kind = kind_of(parts[5].strip() if len(parts) > 5 else "")
            pagemap.seek(low // PAGE * 8)
            data = pagemap.read((high - low) // PAGE * 8)
            for index, entry in enumerate(struct.unpack(f"{len(data) // 8}Q", data)):
                if entry & PRESENT:
                    pages[low + index * PAGE] = (kind, entry & FRAME)
    return pages
