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


def shown(value: Any) -> str:
    """A value as the TOML or command line it came from spells it: ``true``, not ``True``."""
    if value is True or value is False:
        return str(value).lower()
    if isinstance(value, list | tuple):
        return f"[{', '.join(map(shown, value))}]"
    return repr(value)


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
            raise error(f"{label}: {shown(value)} is not one of {', '.join(repr(c) for c in choices)}")
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
        raise error(f"{label}: expected {_described(hint)}, not {shown(value)}")
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise error(f"{label}: expected a list, not {shown(value)}")
        items = typing.get_args(hint)
        if len(items) == 2 and items[1] is Ellipsis:
            return tuple(check_value(label, items[0], v, error) for v in value)
        if len(value) != len(items):
            raise error(f"{label}: expected a list of {len(items)}, not {shown(value)}")
        return tuple(check_value(label, item, v, error) for item, v in zip(items, value, strict=True))
    if origin is dict:
        if not isinstance(value, Mapping):
            raise error(f"{label}: expected a table of keys, not {shown(value)}")
        return dict(value)
    if hint is bool:
        if not isinstance(value, bool):
            raise error(f"{label}: expected true or false, not {shown(value)}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise error(f"{label}: expected a whole number, not {shown(value)}")
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise error(f"{label}: expected a number, not {shown(value)}")
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise error(f"{label}: expected text, not {shown(value)}")
        return value
    raise error(f"{label}: unsupported type {hint!r}")


@functools.cache
def _hints(cls: type) -> tuple[dict[str, Any], list[str]]:
    """A dataclass's fields' type hints and names, worked out once."""
    return typing.get_type_hints(cls), [f.name for f in dataclasses.fields(cls)]


def checked_fields(
    cls: type, values: Mapping[str, Any], label: Callable[[str], str], error: type[Exception]
) -> dict[str, Any]:
    """The values of a dataclass's fields, each checked against its type hint. ``label(key)``
    names a key in messages ("rules key 'slaps'"); an unknown key is refused with the nearest
    known one suggested."""
    hints, known = _hints(cls)
    checked: dict[str, Any] = {}
    for key, value in values.items():
        refuse_unknown(key, known, label, error)
        checked[key] = check_value(label(key), hints[key], value, error)
    return checked


def refuse_unknown(key: str, known: list[str], label: Callable[[str], str], error: type[Exception]) -> None:
    """``error`` naming an unknown key, with the nearest known one suggested; nothing for a known one."""
    if key not in known:
        close = difflib.get_close_matches(key, known, n=1)
        raise error(f"unknown {label(key)}" + (f" (did you mean {close[0]!r}?)" if close else ""))
