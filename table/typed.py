"""Typed values from TOML: a frozen dataclass's fields checked one by one, each error naming its key.

Rules (``table.rules``) and the table's configuration (``table.config``) are both written by
people in TOML files; both are frozen dataclasses whose type hints say what each key takes. This
checks a parsed mapping against them: unknown keys (with the nearest known one suggested), wrong
types, and choices outside a ``Literal``, each refused with the key's name.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

_NAMES = {bool: "true or false", int: "a whole number", float: "a number", str: "text"}


def _described(hint: Any) -> str:
    origin = typing.get_origin(hint)
    if origin is tuple:
        return "a list"
    if origin in (typing.Union, types.UnionType):
        kinds = [_described(a) for a in typing.get_args(hint) if a is not type(None)]
        return ", ".join(kinds[:-1]) + " or " + kinds[-1]
    if origin is typing.Literal:
        return "one of " + ", ".join(repr(c) for c in typing.get_args(hint))
    return _NAMES.get(hint, getattr(hint, "__name__", str(hint)))


def check_value(label: str, hint: Any, value: Any, error: type[Exception]) -> Any:
    """``value`` as the type ``hint`` says (a list becomes a tuple, a whole number a float where
    a number is asked), or ``error`` naming ``label`` and what was expected."""
    origin = typing.get_origin(hint)
    if hint is Any:
        return value
    if origin is typing.Literal:
        choices = typing.get_args(hint)
        if value not in choices or isinstance(value, bool) != any(isinstance(c, bool) for c in choices):
            raise error(f"{label}: {value!r} is not one of {', '.join(repr(c) for c in choices)}")
        return value
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if value is None and len(args) < len(typing.get_args(hint)):
            return None
        if len(args) == 1:
            return check_value(label, args[0], value, error)
        for arg in args:
            try:
                return check_value(label, arg, value, error)
            except error:
                continue
        raise error(f"{label}: expected {_described(hint)}, not {value!r}")
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise error(f"{label}: expected a list, not {value!r}")
        items = typing.get_args(hint)
        if len(items) == 2 and items[1] is Ellipsis:
            return tuple(check_value(label, items[0], v, error) for v in value)
        if len(value) != len(items):
            raise error(f"{label}: expected a list of {len(items)}, not {value!r}")
        return tuple(check_value(label, item, v, error) for item, v in zip(items, value, strict=True))
    if origin is dict:
        if not isinstance(value, Mapping):
            raise error(f"{label}: expected a table of keys, not {value!r}")
        return dict(value)
    if hint is bool:
        if not isinstance(value, bool):
            raise error(f"{label}: expected true or false, not {value!r}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise error(f"{label}: expected a whole number, not {value!r}")
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise error(f"{label}: expected a number, not {value!r}")
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise error(f"{label}: expected text, not {value!r}")
        return value
    raise error(f"{label}: unsupported type {hint!r}")


_ASK = object()  # a quick check's answer where only ``check_value`` can say


def _quick(hint: Any) -> Callable[[Any], Any]:
    """A check of ``hint`` for the values files mostly hold (exactly the type asked, a listed
    choice), answering ``_ASK`` for anything else: a referee is built per game, a study builds
    thousands, and ``check_value`` need only see what may be wrong."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(args) == 1 and len(args) < len(typing.get_args(hint)):
            inner = _quick(args[0])
            return lambda v: None if v is None else inner(v)
        return lambda v: _ASK
    if origin is typing.Literal:
        choices = frozenset((c.__class__, c) for c in typing.get_args(hint))
        return lambda v: v if v.__class__ in (str, int, bool) and (v.__class__, v) in choices else _ASK
    if hint in (bool, int, str):
        return lambda v: v if v.__class__ is hint else _ASK
    items = typing.get_args(hint)
    if origin is tuple and len(items) == 2 and items[1] is Ellipsis and items[0] in (bool, int, str):
        return lambda v: tuple(v) if v.__class__ in (list, tuple) and all(x.__class__ is items[0] for x in v) else _ASK
    if hint is float:
        return lambda v: float(v) if v.__class__ is float or v.__class__ is int else _ASK
    return lambda v: _ASK


@functools.cache
def _hints(cls: type) -> tuple[dict[str, Any], dict[str, Callable[[Any], Any]]]:
    """A dataclass's fields' type hints and quick checks by name, worked out once."""
    hints = typing.get_type_hints(cls)
    names = [f.name for f in dataclasses.fields(cls)]
    return {name: hints[name] for name in names}, {name: _quick(hints[name]) for name in names}


def checked_fields(
    cls: type, values: Mapping[str, Any], label: Callable[[str], str], error: type[Exception]
) -> dict[str, Any]:
    """The values of a dataclass's fields, each checked against its type hint. ``label(key)``
    names a key in messages ("rules key 'slaps'"); an unknown key is refused with the nearest
    known one suggested."""
    hints, quick = _hints(cls)
    checked: dict[str, Any] = {}
    for key, value in values.items():
        if key not in quick:
            refuse_unknown(key, list(hints), label, error)
        got = quick[key](value)
        checked[key] = check_value(label(key), hints[key], value, error) if got is _ASK else got
    return checked


def refuse_unknown(key: str, known: list[str], label: Callable[[str], str], error: type[Exception]) -> None:
    """``error`` naming an unknown key, with the nearest known one suggested; nothing for a known one."""
    if key not in known:
        close = difflib.get_close_matches(key, known, n=1)
        raise error(f"unknown {label(key)}" + (f" (did you mean {close[0]!r}?)" if close else ""))
