"""A part of the table that failed or recovered, queued for the live loop like any input."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Fault:
    """A part failed (``problem`` says how) or recovered (None)."""

    part: str
    problem: str | None
