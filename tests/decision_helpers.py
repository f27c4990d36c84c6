"""Helpers the hand-built rules tests share: pick decisions by type, compare them untimed."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import TypeVar

from table.decisions import Decision

NOW = 0
"""The timestamp expectations are written with: ``untimed`` zeroes the referee's."""

D = TypeVar("D", bound=Decision)


def untimed(decisions: Iterable[Decision]) -> list[Decision]:
    """The decisions with their timestamps set to ``NOW``, to compare with written ones."""
    return [dataclasses.replace(d, t_ns=NOW) for d in decisions]


def of(decisions: Iterable[Decision], *kinds: type[D]) -> list[D]:
    """The decisions of the given types, in order."""
    return [d for d in decisions if isinstance(d, kinds)]


def one(decisions: Iterable[Decision], kind: type[D]) -> D:
    """The single decision of type ``kind``; fails when there is none or more than one."""
    found = of(decisions, kind)
    assert len(found) == 1, f"expected one {kind.__name__}, got {found}"
    return found[0]
