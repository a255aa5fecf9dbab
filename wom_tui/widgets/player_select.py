"""The selector of a registered player (or a guest / everyone entry first), as the solo setup, My stats,
Replays and the daily code show it: :class:`PlayerChoice`, a light :class:`~wom_tui.widgets.choice.Choice`.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from ..domain.users import name_key
from .choice import Choice

GUEST = ""
"""The selector's value for its first entry, a guest or everyone (no registered user has an empty name)."""


def player_options(names: Sequence[str], value: str | None, guest: str) -> tuple[list[tuple[Text, str]], str]:
    """The entries (``guest`` first, then ``names``) and the one to open on: ``value`` matched ignoring
    case (None or an unknown name opens on the guest entry).
    """
    options = [(Text(guest), GUEST), *((Text(name), name) for name in names)]
    chosen = GUEST
    if value is not None:
        chosen = next((name for name in names if name_key(name) == name_key(value)), GUEST)
    return options, chosen


def chosen_player(value: object) -> str | None:
    """The registered user a selector's value names, or None for its first entry."""
    return value if isinstance(value, str) and value != GUEST else None


class PlayerChoice(Choice[str]):
    """A compact selector of ``names`` (registered users) after a ``guest`` entry, opening on ``value``
    (a name matched ignoring case; None or an unknown name opens on the guest entry).
    """

    def __init__(self, names: Sequence[str], value: str | None, *, guest: str = "Guest", id: str | None = None) -> None:
        options, chosen = player_options(names, value, guest)
        super().__init__(options, value=chosen, id=id)

    @property
    def chosen(self) -> str | None:
        """The registered user chosen, or None for the first entry."""
        return chosen_player(self.value)
