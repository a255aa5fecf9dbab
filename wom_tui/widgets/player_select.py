"""The selector of a registered player (or a guest / everyone entry first), as My stats, Replays and the
daily code show it.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from ..domain.users import name_key
from .select import Select

GUEST = ""
"""The selector's value for its first entry, a guest or everyone (no registered user has an empty name)."""


class PlayerSelect(Select[str]):
    """A compact selector of ``names`` (registered users) after a ``guest`` entry, opening on ``value``
    (a name matched ignoring case; None or an unknown name opens on the guest entry).
    """

    def __init__(self, names: Sequence[str], value: str | None, *, guest: str = "Guest", id: str | None = None) -> None:
        options = [(Text(guest), GUEST), *((Text(name), name) for name in names)]
        chosen = GUEST
        if value is not None:
            chosen = next((name for name in names if name_key(name) == name_key(value)), GUEST)
        super().__init__(options, allow_blank=False, value=chosen, id=id, compact=True)

    @property
    def chosen(self) -> str | None:
        """The registered user chosen, or None for the first entry."""
        value = self.value
        return value if isinstance(value, str) and value != GUEST else None
