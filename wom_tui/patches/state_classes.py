"""Restyle only what a state class can change.

A screen or a container shows its state with a class on itself (``-over``, a phase such as
``-answer``, ``-computer``) and rules such as ``ComputerBreaksScreen.-fix #computer-breaks-count``.
Textual restyles the node and everything in it for each class added or removed: a change of phase
(one class off, one on) styled a whole game screen twice, a fifth of the CPU time of a
computer-breaks game. The stylesheet says which widgets such a class can reach: those named by the
last part of a rule whose earlier parts need the class. :func:`set_state_classes` restyles the node,
those widgets and what they hold, once. If a rule styles anything by the class itself (not
through an ancestor), it restyles all of it, as Textual would.
"""

from __future__ import annotations

from collections.abc import Mapping
from weakref import WeakKeyDictionary

from textual.css.model import CombinatorType, Selector, SelectorType
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode

from .versions import MEASURED

MEASURED_ON = MEASURED
"""The Textual releases this restyling was measured on."""

_Targets = tuple[str, ...] | None
_CACHE: WeakKeyDictionary[Stylesheet, tuple[int, dict[frozenset[str], _Targets]]] = WeakKeyDictionary()


def _css(compound: list[Selector]) -> str:
    """A query for the nodes a compound selector may match (its pseudo-classes left out: more, never fewer)."""
    parts = []
    for selector in compound:
        if selector.type == SelectorType.UNIVERSAL:
            parts.append("*")
        elif selector.type == SelectorType.TYPE:
            parts.append(selector.name)
        elif selector.type == SelectorType.CLASS:
            parts.append(f".{selector.name}")
        elif selector.type == SelectorType.ID:
            parts.append(f"#{selector.name}")
    return "".join(parts) or "*"


def _reached(stylesheet: Stylesheet, classes: frozenset[str]) -> _Targets:
    targets: dict[str, None] = {}
    for rule in stylesheet.rules:
        for selector_set in rule.selector_set:
            selectors = selector_set.selectors
            # The last compound selector starts at the last part joined to the one before by a combinator.
            start = max(i for i, part in enumerate(selectors) if i == 0 or part.combinator != CombinatorType.SAME)
            ancestors, last = selectors[:start], selectors[start:]
            if any(part.type == SelectorType.CLASS and part.name in classes for part in last):
                return None
            if any(part.type == SelectorType.CLASS and part.name in classes for part in ancestors):
                targets[_css(last)] = None
    return tuple(targets)


def reached_by(stylesheet: Stylesheet, classes: frozenset[str]) -> _Targets:
    """Queries for every node whose style can depend on an ancestor having one of ``classes``;
    None if a rule styles a node by one of them directly (restyle everything then).
    """
    version, known = _CACHE.get(stylesheet, (-1, {}))
    if version != id(stylesheet.rules):
        known = {}
        _CACHE[stylesheet] = (id(stylesheet.rules), known)
    if classes not in known:
        known[classes] = _reached(stylesheet, classes)
    return known[classes]


def set_state_classes(node: DOMNode, flags: Mapping[str, bool]) -> None:
    """Set or clear each class in ``flags`` on ``node`` and restyle, once, only what that can change."""
    changed = frozenset(name for name, on in flags.items() if on != node.has_class(name))
    if not changed:
        return
    for name in changed:
        node.set_class(flags[name], name, update=False)
    if not node.is_attached:
        return  # styled as it mounts
    stylesheet = node.app.stylesheet
    targets = reached_by(stylesheet, changed)
    if targets is None:
        node.update_node_styles()
        return
    nodes: dict[int, DOMNode] = {id(node): node}
    for query in targets:
        for match in node.query(query):
            for descendant in match.walk_children(with_self=True):
                nodes.setdefault(id(descendant), descendant)
    stylesheet.update_nodes(nodes.values(), animate=True)
