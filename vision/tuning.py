"""The vision stages' tuned numbers, and reading with others.

Each stage keeps its tuned numbers in one frozen dataclass, a field a number with its unit and
why it has its value, and one instance of it, ``TUNING``, in its module (``vision.detect``,
``vision.indices``, ``vision.by_index``, ``vision.middle``, ``vision.reader``,
``vision.identify``). A stage reads ``tuned(TUNING)``: its values, or those ``changed`` set for
the code it wraps. That is how a test shows what a rule does (reading without it) and how an
experiment tries a value, without touching a module's globals:

    with changed(indices.TUNING, mirror_reach=0.0):
        identify(image)

What ``changed`` sets holds in the thread (and the context) that set it, as ``decimal``'s
local contexts do: a camera thread reading meanwhile keeps its own.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from types import MappingProxyType
from typing import Any, TypeVar

T = TypeVar("T")

_CHANGED: ContextVar[Mapping[type, Any]] = ContextVar("vision_tuning", default=MappingProxyType({}))


def tuned(values: T) -> T:
    """The values a stage reads now: ``values`` (its module's ``TUNING``), or what ``changed``
    set in their place."""
    return _CHANGED.get().get(type(values), values)


@contextmanager
def changed(values: T, **fields: Any) -> Iterator[T]:
    """Read with ``fields`` of a stage's values changed (``values``: its module's ``TUNING``)
    until the block ends; a field the stage does not have is a ``TypeError``. Changes nest."""
    now = dataclasses.replace(tuned(values), **fields)
    token = _CHANGED.set(MappingProxyType({**_CHANGED.get(), type(values): now}))
    try:
        yield now
    finally:
        _CHANGED.reset(token)
