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
