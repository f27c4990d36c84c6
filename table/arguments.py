"""Command-line arguments that ``cardtable``'s commands share (``table.cli``, ``sim.cli``)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from table.rules import parse_override


def overrides(items: Sequence[str]) -> dict[str, Any]:
    """``--set KEY=VALUE`` options as rules keys and values (checked by the game's rules)."""
    return dict(parse_override(item) for item in items)


def mqtt_arguments(parser: argparse.ArgumentParser) -> None:
    """``--mqtt`` and ``--table-id``: where a table publishes its game."""
    parser.add_argument("--mqtt", metavar="URL", help="publish to this broker: mqtt://[USER:PASS@]HOST:PORT")
    parser.add_argument("--table-id", help="the table's name in the MQTT topics (cardtable/ID/...)")


def more_than_zero(kind: type) -> Any:
    """An argument's type: a number of ``kind`` over 0 (a speed, a count), named when it is not."""

    def parsed(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or not value > 0 or value == float("inf"):
            raise argparse.ArgumentTypeError(f"{text!r} is not a number over 0")
        return value

    return parsed
