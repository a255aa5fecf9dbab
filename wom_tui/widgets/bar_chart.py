"""A horizontal bar chart drawn with block characters: the guess distribution of *My stats*."""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

BLOCK = "█"
"""The character bars are drawn with (eighths give the fractional end)."""
_EIGHTHS = " ▏▎▍▌▋▊▉"


class BarChart(Widget):
    """One bar per row: its label, a bar as long as its share of the largest, and the count.

    ``bars`` is a sequence of ``(label, count, highlight)``; the highlighted bar is drawn in the
    theme's accent colour and marked ``◀`` (so it does not depend on colour alone). A zero still
    shows its count, so an empty row reads as 0, never as missing.
    """

    DEFAULT_CSS = """
    BarChart {
        height: auto;
        width: 1fr;
    }
    BarChart > .bar-chart--bar {
        color: $primary;
    }
    BarChart > .bar-chart--highlight {
        color: $success;
        text-style: bold;
    }
    BarChart > .bar-chart--label {
        color: $text-muted;
    }
    """
    COMPONENT_CLASSES = {"bar-chart--bar", "bar-chart--highlight", "bar-chart--label"}

    bars: reactive[tuple[tuple[str, int, bool], ...]] = reactive((), layout=True)
    """The bars to draw: ``(label, count, highlight)``."""

    def __init__(self, bars: Sequence[tuple[str, int, bool]] = (), **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.set_reactive(BarChart.bars, tuple(bars))

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        """One row per bar (at least one, for the empty chart's message)."""
        return max(1, len(self.bars))

    def render(self) -> Text:
        """The chart as text, fitted to the widget's width."""
        if not self.bars:
            return Text("No games on these rules yet.", style=Style(italic=True))
        label_width = max(len(label) for label, _, _ in self.bars)
        count_width = max(len(str(count)) for _, count, _ in self.bars)
        room = max(1, self.size.width - label_width - count_width - 5)
        top = max(count for _, count, _ in self.bars) or 1
        bar_style = self.get_component_rich_style("bar-chart--bar")
        high_style = self.get_component_rich_style("bar-chart--highlight")
        label_style = self.get_component_rich_style("bar-chart--label")
        text = Text(end="")
        for index, (label, count, highlight) in enumerate(self.bars):
            if index:
                text.append("\n")
            text.append(f"{label:>{label_width}} ", style=high_style if highlight else label_style)
            eighths = round(count * room * 8 / top)
            if count and eighths == 0:
                eighths = 1
            whole, part = divmod(eighths, 8)
            bar = BLOCK * whole + (_EIGHTHS[part] if part else "")
            text.append(bar, style=high_style if highlight else bar_style)
            text.append(f" {count}", style=high_style if highlight else Style())
            if highlight:
                text.append(" ◀", style=high_style)
        return text
