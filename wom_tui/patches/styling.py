"""A workaround for work Textual 8.2 does in vain: styling a widget that is not in the app yet.

A widget's class changes restyle it at once (``DOMNode.update_node_styles``), even while it is still
being built in a ``compose`` and not yet mounted: a RadioButton created pressed, a Select given a
value, a FooterKey told it is compact. Each is styled then without its parents (so wrongly), and
styled again, rightly, when it mounts. A quarter of the styling done to open the solo setup was this
(98 of 375 applications of the stylesheet). Until a widget is attached to the app, its classes are
only noted; it is styled once, as it mounts.
"""

from __future__ import annotations

from textual.dom import DOMNode

from .versions import MEASURED

MEASURED_ON = MEASURED
"""The Textual releases this patch was measured on (:func:`wom_tui.patches.install` skips it on others)."""

_original_update_node_styles = DOMNode.update_node_styles


def _update_node_styles(self: DOMNode, animate: bool = True) -> None:
    if not self.is_attached:
        return  # styled as it mounts, with its classes as they are then
    _original_update_node_styles(self, animate)


def install() -> None:
    """Replace ``DOMNode.update_node_styles`` with the one that skips detached nodes (idempotent)."""
    DOMNode.update_node_styles = _update_node_styles  # type: ignore[method-assign]
