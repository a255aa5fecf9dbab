"""Who is playing: trusted local play, or over ``serve`` a verified SSH key, a signed-in browser or a guest.

For players: docs/serve.md, *Who you are: your SSH key*.

The entry point builds the :class:`Identity` and hands it to the app like the store and the RNG.
Over SSH it comes only from what the server verified: the fingerprint of the key whose
signature the server checked, passed to the session process by the server itself. The name is
whatever user holds that key in the store. A browser tab has no key: the server looks up the name its
sign-in cookie stands for (docs/serve.md, *Who you are in a browser*) and passes that name itself.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace

from .keys import check_fingerprint
from .users import computer_name, name_key


@dataclass(frozen=True)
class Identity:
    """Local play (``served`` False) trusts whoever sits at the keyboard, as it always has.

    A served session is a *guest* without a key, else the holder of ``fingerprint``, signed in
    as ``name`` once that key belongs to a registered user, or a browser tab signed in as ``name`` by
    its session cookie (``browser``).
    """

    served: bool = False
    fingerprint: str | None = None
    name: str | None = None
    browser: bool = False
    """True for a browser tab the server signed in as ``name`` by its session cookie (it has no key)."""

    def __post_init__(self) -> None:
        if self.fingerprint is not None:
            check_fingerprint(self.fingerprint)
            if not self.served:
                raise ValueError("only a served session has a key")
        if self.browser:
            if not self.served or self.name is None or self.fingerprint is not None:
                raise ValueError("a browser signs in served, as a name, without a key")
        elif self.name is not None and self.fingerprint is None:
            raise ValueError("a name comes with the key that signs in as it")

    @classmethod
    def local(cls) -> Identity:
        """Play on this machine: every registered user may be seated, as before."""
        return cls()

    @classmethod
    def guest(cls) -> Identity:
        """An SSH client without a usable key."""
        return cls(served=True)

    @classmethod
    def key(cls, fingerprint: str, name: str | None = None) -> Identity:
        """An SSH client that proved it holds the key ``fingerprint`` (signed in as ``name``, if any)."""
        return cls(served=True, fingerprint=fingerprint, name=name)

    @classmethod
    def browser_tab(cls, name: str) -> Identity:
        """A browser tab whose session cookie the server found signed in as ``name``."""
        return cls(served=True, name=name, browser=True)

    def signed_in_as(self, name: str) -> Identity:
        """The same key, now signed in as ``name`` (after registering or linking)."""
        return replace(self, name=name)

    @property
    def is_guest(self) -> bool:
        """True for a served session without a key or a browser sign-in: no name, no points, no saved games."""
        return self.served and self.fingerprint is None and not self.browser

    @property
    def signed_in(self) -> bool:
        """True once a served key belongs to a registered name."""
        return self.name is not None

    @property
    def may_register(self) -> bool:
        """Local play may register names; over SSH only a key that holds no name yet."""
        return not self.served or (self.fingerprint is not None and self.name is None)

    @property
    def preference_key(self) -> str | None:
        """Whose settings (the theme) this session keeps: ``"local"``, ``"user:Alan"``, ``"key:SHA256:…"``;
        None for a guest, whose choices are not remembered.
        """
        if not self.served:
            return "local"
        if self.name is not None:
            return f"user:{self.name.casefold()}"
        return None if self.fingerprint is None else f"key:{self.fingerprint}"

    @property
    def label(self) -> str:
        """Who this is, for the corner of the screen: ``Alan``, ``Guest`` or ``New player``."""
        if self.name is not None:
            return self.name
        return "Guest" if self.fingerprint is None else "New player"

    def may_seat(self, name: str, registered: Collection[str] = ()) -> bool:
        """True if this identity may put ``name`` in a World of Mastermind seat.

        Computers always; over SSH otherwise only yourself, or a guest seat ("Guest 1") that is
        not also a registered name (in ``registered``), since that would play as the user.
        """
        if not self.served or computer_name(name) is not None:
            return True
        if self.name is not None and name_key(name) == name_key(self.name):
            return True
        from .wom import GUEST_SEATS  # here: the game's rules (and numpy, for its computers) load after the menu

        return name in GUEST_SEATS and name_key(name) not in {name_key(other) for other in registered}

    def seatable(self, registered: list[str]) -> list[str]:
        """Of the registered names, those this identity may seat, in the given order."""
        return [name for name in registered if self.may_seat(name, registered) and computer_name(name) is None]

    def may_play_solo_as(self, name: str) -> bool:
        """True if a solo game may be recorded under the registered ``name``."""
        return self.may_seat(name)


__all__ = ["Identity"]
