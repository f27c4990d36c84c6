"""The table from above, in the terminal: each seat where it sits with its light, name and count,
the pile (or trick) in the middle, and a progress line. Shown under the decisions' lines while a
game runs in a terminal (``rich.live``); the lines scroll above it.

Seats go round the sketch as they go round the table: seat 0 at the bottom, the next ones
clockwise (up the left side, along the top, down the right), as the camera sees them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from rich.panel import Panel
from rich.text import Text

from table.games import game_of
from table.lights import Pattern
from table.scoreboard import middle_cards, seat_counts
from table.terminal_view import card_text, light_glyph

WIDTH, HEIGHT = 64, 11  # the sketch's characters inside its frame


class TableSketch:
    """A ``rich`` renderable of the table now; ``progress`` is a line of the run's own."""

    def __init__(
        self,
        names: Sequence[str],
        referee: Callable[[], Any],
        lights: Callable[[], Sequence[Pattern]],
        progress: Callable[[], str] = lambda: "",
    ) -> None:
        self.names, self.referee, self.lights, self.progress = list(names), referee, lights, progress

    def __rich__(self) -> Panel:
        referee = self.referee()
        lights = list(self.lights())
        what, counts = seat_counts(referee)
        rows = [Text(" " * WIDTH) for _ in range(HEIGHT)]
        n = len(self.names)
        for seat, name in enumerate(self.names):
            angle = 2 * math.pi * seat / n  # seat 0 at the bottom, then clockwise up the left
            x = round((WIDTH - 1) / 2 - math.sin(angle) * (WIDTH / 2 - 9))
            y = round((HEIGHT - 1) / 2 + math.cos(angle) * (HEIGHT / 2 - 1))
            label = Text.assemble(
                light_glyph(lights[seat]) if seat < len(lights) else ("·", "dim"),
                f" {name} ",
                (counts[seat] if seat < len(counts) else "", "bold"),
            )
            _put(rows, y, x - len(label) // 2, label)
        title, cards = middle_cards(referee)
        middle = Text(" ").join(card_text(code) for code in cards) if cards else Text("(empty)", style="dim")
        _put(rows, HEIGHT // 2, (WIDTH - len(middle)) // 2, middle)
        _put(rows, HEIGHT // 2 + 1, (WIDTH - len(title)) // 2, Text(title, style="dim"))
        body = Text("\n").join(rows)
        return Panel(body, title=game_of(referee).title, subtitle=f"{what} · {self.progress()}", expand=False)


def _put(rows: list[Text], y: int, x: int, text: Text) -> None:
    """Write ``text`` over row ``y`` from column ``x``, kept inside the row."""
    row = rows[y]
    x = max(0, min(x, len(row) - len(text)))
    rows[y] = Text.assemble(row[:x], text, row[x + len(text) :])[: len(row)]
