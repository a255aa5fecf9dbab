"""The selector of a registered player (or a guest / everyone entry first), as My stats, Replays and the
daily code show it: :class:`PlayerChoice` (a light :class:`~wom_tui.widgets.choice.Choice`) on My stats
and Replays, :class:`PlayerSelect` (a Textual Select) on the daily code.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from ..domain.users import name_key
from .choice import Choice
from .select import Select

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


class PlayerSelect(Select[str]):
    """A compact selector of ``names`` (registered users) after a ``guest`` entry, opening on ``value``
    (a name matched ignoring case; None or an unknown name opens on the guest entry).
    """

    def __init__(self, names: Sequence[str], value: str | None, *, guest: str = "Guest", id: str | None = None) -> None:
        options, chosen = player_options(names, value, guest)
        super().__init__(options, allow_blank=False, value=chosen, id=id, compact=True)

    @property
    def chosen(self) -> str | None:
        """The registered user chosen, or None for the first entry."""
        return chosen_player(self.value)


class PlayerChoice(Choice[str]):
    """:class:`PlayerSelect` as a light :class:`~wom_tui.widgets.choice.Choice`: the same entries, the same
    keys and look, fewer widgets to build.
    """

    def __init__(self, names: Sequence[str], value: str | None, *, guest: str = "Guest", id: str | None = None) -> None:
        options, chosen = player_options(names, value, guest)
        super().__init__(options, value=chosen, id=id)

    @property
    def chosen(self) -> str | None:
        """The registered user chosen, or None for the first entry."""
        return chosen_player(self.value)
