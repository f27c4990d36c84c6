"""The game in the terminal: one line per decision, worth watching, plain when piped.

Each game's decisions have a line of their own; a decision with no line (a change of turn unless
``verbose``) prints nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console
from rich.text import Text

from table.buttons import CLOSE_CALL_NS
from table.decisions import (
    CardMismatch,
    CardPlayed,
    CountCorrected,
    Decision,
    GameOver,
    GameStarted,
    InputTooLate,
    PlayerOut,
    Rejected,
    RoundStarted,
    TurnChanged,
    TurnSkipped,
)
from table.games import game_of
from table.lights import LightKind, Pattern

_RED = {"D", "H"}


_GLYPHS = {LightKind.OFF: "·", LightKind.STEADY: "●", LightKind.PULSE: "◍", LightKind.BLINK: "◉", LightKind.FLASH: "◉"}


def light_glyph(pattern: Pattern) -> tuple[str, str]:
    """A seat's light as one character and its style: its colour, blinking when it blinks."""
    if pattern.kind == LightKind.OFF:
        return _GLYPHS[LightKind.OFF], "dim"
    r, g, b = pattern.colour
    blinks = pattern.kind in (LightKind.BLINK, LightKind.FLASH)
    return _GLYPHS[pattern.kind], f"rgb({r},{g},{b})" + (" blink" if blinks else "")


def card_text(code: str) -> Text:
    style = "bold red" if code[-1:] in _RED or code == "RJ" else "bold"
    return Text(f"{code:>3}", style=style)


class TerminalView:
    """Prints each decision as it happens, with the hand counts and the pile."""

    def __init__(
        self,
        names: Sequence[str],
        console: Console | None = None,
        verbose: bool = False,
        lights: Callable[[], Sequence[Pattern]] | None = None,
        close_call_ns: Callable[[], int] = lambda: CLOSE_CALL_NS,
    ) -> None:
        """``lights``: what each seat's light shows now; each line then starts with them, a dot a
        seat in its colour (``table.signals``: white, the seat the referee waits on).
        ``close_call_ns``: a slap's lead under this is a close call (the clock's own bound on
        the bridge; a millisecond on the Pi's pins)."""
        self.names = list(names)
        self.close_call_ns = close_call_ns
        self.console = console or Console(highlight=False, soft_wrap=True)
        self.verbose = verbose
        self.lights = lights
        self.zero_ns: int | None = None

    def name(self, seat: int | None) -> str:
        return "-" if seat is None else self.names[seat]

    def _line(self, t_ns: int, *parts: str | Text) -> None:
        if self.zero_ns is None:
            self.zero_ns = t_ns  # times from the first line: the host's clock counts from its boot
        line = Text(f"{(t_ns - self.zero_ns) / 1e9:8.2f}s  ", style="dim")
        if self.lights is not None:
            for pattern in self.lights():
                line.append(*light_glyph(pattern))
            line.append("  ")
        for part in parts:
            line.append(part if isinstance(part, Text) else Text(part))
        self.console.print(line)

    def seats(self, values: Sequence[int]) -> str:
        return " ".join(f"{self.names[s]}:{v}" for s, v in enumerate(values))

    def show(self, d: Decision, referee: Any) -> None:
        if isinstance(d, CardPlayed):
            detail = Text(f"  {game_of(referee).played_to} {d.pile_size:2}", style="dim")
            self._line(d.t_ns, f"{self.name(d.seat):>4} plays ", card_text(d.card.code), detail)
            return
        described = self.describe(d, referee)
        if described is not None:
            text, style = described
            self._line(d.t_ns, Text(text, style=style))

    def describe(self, d: Decision, referee: Any) -> tuple[str, str] | None:
        """The line for a decision and its colour, or None for decisions not worth a line: the
        game's own line for it (``Game.lines``), else the line every game shares."""
        game = game_of(referee)
        return game.lines(d, referee, self) or self._describe_common(d, game.title)

    def _describe_common(self, d: Decision, title: str) -> tuple[str, str] | None:
        n = self.name
        pad = "      "
        if isinstance(d, GameStarted):
            return f"{title}, {d.players} players", "bold"
        if isinstance(d, RoundStarted):
            return f"Hand {d.round}: {d.cards} card(s) each, {n(d.dealer)} deals", "bold cyan"
        if isinstance(d, GameOver):
            who = " and ".join(n(s) for s in d.winners) or "nobody"
            pot = f", pot {d.pot}" if d.pot else ""
            return f"{who} win{'s' if len(d.winners) == 1 else ''} the game: {d.reason}{pot}", "bold green"
        if isinstance(d, CardMismatch):
            return f"{pad}camera saw {d.seen}, expected {d.expected} from {n(d.seat)}: show it again", "red"
        if isinstance(d, InputTooLate):
            return f"{pad}{d.event} from {n(d.seat)} came {d.late_by_ns / 1e6:.0f} ms too late", "red"
        if isinstance(d, Rejected):
            who = "" if d.seat is None else f"{n(d.seat)}: "
            return f"{pad}refused {who}{d.reason}", "red"
        if isinstance(d, TurnSkipped):
            return f"{pad}{n(d.seat)} is skipped: {d.reason}", "yellow"
        if isinstance(d, PlayerOut):
            return f"{pad}{n(d.seat)} is out", "magenta"
        if isinstance(d, CountCorrected):
            return (
                f"{pad}{n(d.seat)} has no card: the {d.count} counted go under the pile (the camera missed some)",
                "yellow",
            )
        if isinstance(d, TurnChanged) and self.verbose:
            return f"{pad}turn: {n(d.seat)}", "dim"
        return None
