"""Referee state as JSON and back: cards become ``{"card": "QH"}``, tuples become lists.

The newer referees keep their whole mutable state in one dataclass of plain values and cards,
so one codec snapshots and restores all of them, random generator included.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from table.cards import Card, CardError, parse_card
from table.errors import CardtableError


class SnapshotError(CardtableError, ValueError):
    """A snapshot that does not fit the referee it is restored into."""


def encode(value: Any) -> Any:
    if isinstance(value, Card):
        return {"card": value.code}
    if isinstance(value, list | tuple):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {str(k): encode(v) for k, v in value.items()}
    return value


def decode(value: Any) -> Any:
    if isinstance(value, list):
        return [decode(v) for v in value]
    if isinstance(value, dict):
        if set(value) == {"card"}:
            try:
                return parse_card(value["card"])
            except CardError as exc:
                raise SnapshotError(str(exc)) from None
        return {k: decode(v) for k, v in value.items()}
    return value


def encode_state(state: Any) -> dict[str, Any]:
    return {f.name: encode(getattr(state, f.name)) for f in dataclasses.fields(state)}


def decode_state(cls: type, data: Any) -> Any:
    """Rebuild a state dataclass, refusing unknown fields and missing ones without a default by name."""
    if not isinstance(data, dict):
        raise SnapshotError("the state must be a JSON object")
    fields = dataclasses.fields(cls)
    names = {f.name for f in fields}
    # A field with a default may be missing: the snapshot was made before the field was kept.
    needed = {f.name for f in fields if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}
    if not needed <= set(data) <= names:
        wrong = sorted((set(data) - names) | (needed - set(data)))
        raise SnapshotError(f"state fields do not match {cls.__name__}: {', '.join(wrong)}")
    return cls(**{k: decode(v) for k, v in data.items()})


def rng_state(rng: random.Random) -> list[Any]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def set_rng_state(rng: random.Random, data: Any) -> None:
    try:
        version, internal, gauss = data
        rng.setstate((version, tuple(internal), gauss))
    except (TypeError, ValueError) as exc:
        raise SnapshotError(f"bad generator state: {exc}") from None
