"""A workaround for work Textual 8.2 does for every message it delivers: finding its handlers anew.

``MessagePump._get_dispatch_methods`` walks the receiver's whole class hierarchy (a widget's is a dozen
classes deep, the app's more) and, in each class, the message's own hierarchy, looking up
``_decorated_handlers`` and two method names by string, for every message to every widget on its way up
the DOM. Which handlers a class has never changes once the class exists, so here that walk is done once
per (receiver class, message class, handler name) and kept; what depends on the message itself stays
as Textual does it, in the same order: a handler that calls ``prevent_default()`` still stops the
classes after its own, an ``@on`` handler with a selector is still matched against the message's
widget, and a method inherited by several classes is still called once. In the suite's screen tests
this walk was about a twentieth of all the CPU time (``bench/upstream/textual_dispatch.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from textual.css.match import match
from textual.message import Message
from textual.message_pump import MessagePump, OnNoWidget
from textual.widget import Widget

from .versions import MEASURED

MEASURED_ON = MEASURED
"""The Textual releases this patch was measured on (:func:`wom_tui.patches.install` skips it on others)."""

_original_get_dispatch_methods = MessagePump._get_dispatch_methods

Plan = tuple[tuple[type, tuple[tuple[Callable[..., Any], Any], ...], Callable[..., Any] | None], ...]
"""For each class of the receiver's hierarchy that has a handler: the class, its ``@on`` handlers (with
their selectors) for the message's classes in order, and its handler by name (or None)."""

_plans: dict[tuple[type, type, str], Plan] = {}


def _plan(pump_class: type, message_class: type, method_name: str) -> Plan:
    """What Textual's walk finds for these classes, without what depends on one message."""
    message_mro = [kind for kind in message_class.__mro__ if issubclass(kind, Message)]
    plan = []
    for cls in pump_class.__mro__:
        decorated = cls.__dict__.get("_decorated_handlers")
        handlers: list[tuple[Callable[..., Any], Any]] = []
        if decorated:
            for kind in message_mro:
                handlers.extend(decorated.get(kind, []))
        method = cls.__dict__.get(f"_{method_name}") or cls.__dict__.get(method_name)
        if method is not None and getattr(method, "_textual_on", None):
            method = None
        if handlers or method is not None:
            plan.append((cls, tuple(handlers), method))
    return tuple(plan)


def _get_dispatch_methods(
    self: MessagePump, method_name: str, message: Message
) -> Iterator[tuple[type, Callable[..., Any]]]:
    """Textual's ``_get_dispatch_methods`` over the handlers found once for these classes."""
    key = (self.__class__, message.__class__, method_name)
    plan = _plans.get(key)
    if plan is None:
        plan = _plans[key] = _plan(*key)
    if not plan:
        return
    methods_dispatched: set[Callable[..., Any]] = set()
    for cls, handlers, method in plan:
        if message._no_default_action:
            break
        for handler, selectors in handlers:
            if handler in methods_dispatched:
                continue
            if not selectors:
                yield cls, handler.__get__(self, cls)
                methods_dispatched.add(handler)
                continue
            if not message._sender:
                continue
            for attribute, selector in selectors.items():
                node = getattr(message, attribute)
                if node is None:
                    break
                if not isinstance(node, Widget):
                    raise OnNoWidget(f"on decorator can't match against {attribute!r} as it is not a widget.")
                if not match(selector, node):
                    break
            else:
                yield cls, handler.__get__(self, cls)
                methods_dispatched.add(handler)
        if method is not None:
            yield cls, method.__get__(self, cls)


def install() -> None:
    """Find each message's handlers through the plans kept per class (idempotent)."""
    MessagePump._get_dispatch_methods = _get_dispatch_methods  # type: ignore[method-assign]
