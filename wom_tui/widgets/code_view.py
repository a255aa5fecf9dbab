"""CodePegs: a read-only row of pegs (a guess, a revealed code, a hint mask) that follows the theme."""

from __future__ import annotations

from textual.widgets import Static

from ..domain.codes import Palette
from .pegs import code_pegs


class CodePegs(Static):
    """Shows ``code`` as coloured pegs with their letters; ``masked`` shows ``•`` pegs instead.

    Call :meth:`show` to change the code; the pegs are redrawn when the theme changes.
    """

    def __init__(
        self,
        code: str,
        palette: Palette | None,
        *,
        masked: bool = False,
        gap: str = " ",
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.code = code
        self.palette = palette
        self.masked = masked
        self.gap = gap

    def on_mount(self) -> None:
        self._paint()
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._paint())

    def show(self, code: str, *, masked: bool | None = None) -> None:
        """Display another code (and optionally hide or reveal it)."""
        self.code = code
        if masked is not None:
            self.masked = masked
        self._paint()

    def _paint(self) -> None:
        self.update(code_pegs(self.code, self.palette, gap=self.gap, masked=self.masked))
