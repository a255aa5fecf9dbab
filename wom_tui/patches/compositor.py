"""A workaround for work Textual 8.2 does in vain at every partial repaint (a key typed, a timer ticking).

To repaint a dirty part of the screen, ``Compositor._get_renders`` renders every visible widget whose
*clip* (its container's visible area) touches that part, whatever the widget's own place: typing a
letter in the register screen's name field rendered nine widgets (the footer and the badge in the top
row among them), each looked up in its line cache and restyled, to keep the one line of the field. A
widget that does not itself touch the dirty part adds nothing to it (the update writes the dirty spans
only), so here it is skipped. Full repaints (no crop) are Textual's own.
"""

from __future__ import annotations

from collections.abc import Iterable

from textual._compositor import Compositor
from textual.geometry import Region
from textual.strip import Strip

from .versions import MEASURED

MEASURED_ON = MEASURED
"""The Textual releases this patch was measured on (:func:`wom_tui.patches.install` skips it on others)."""

_original_get_renders = Compositor._get_renders


def _get_renders(self: Compositor, crop: Region | None = None) -> Iterable[tuple[Region, Region, list[Strip]]]:
    if not crop:
        yield from _original_get_renders(self, crop)
        return
    _rich_traceback_guard = True  # as Textual's: a render error's traceback starts here
    crop_overlaps = crop.overlaps
    intersection = Region.intersection
    for widget, (region, clip) in list(self.visible_widgets.items()):
        visible = intersection(region, clip)
        x, y, width, height = visible
        if not (width and height and crop_overlaps(visible)):
            continue  # nothing of it is in the part repainted
        yield region, clip, widget.render_lines(Region(x - region.x, y - region.y, width, height))


def install() -> None:
    """Replace ``Compositor._get_renders`` with the one that skips widgets outside the repaint (idempotent)."""
    Compositor._get_renders = _get_renders  # type: ignore[method-assign]
