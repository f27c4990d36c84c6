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
from table.decisions import CardPlayed, Decision
from table.games import game_of
from table.lights import LightKind, Pattern
from table.narration import Narrator

_RED = {"D", "H"}


_GLYPHS = {LightKind.OFF: "·", LightKind.STEADY: "●", LightKind.PULSE: "◍", LightKind.BLINK: "◉", LightKind.FLASH: "◉"}


LEGEND = (
    "Each line begins with the time and the seats' lights, {names} from the left: "
    "● lit (white: whose turn), ◉ flashing (news: a pile won, a bad slap), ◍ pulsing, · off."
)


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


class TerminalView(Narrator):
    """Prints each decision as it happens, in its colour, after the seats' lights."""

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
        ``close_call_ns``: a slap's lead under this is a close call."""
        super().__init__(names, verbose, close_call_ns)
        self.console = console or Console(highlight=False, soft_wrap=True)
        self.lights = lights
        self.zero_ns: int | None = None

    def _line(self, t_ns: int, *parts: str | Text) -> None:
        if self.zero_ns is None:
            self.zero_ns = t_ns  # times from the first line: the host's clock counts from its boot
            if self.lights is not None:
                self.console.print(Text(LEGEND.format(names=", ".join(self.names)), style="dim"))
        line = Text(f"{(t_ns - self.zero_ns) / 1e9:8.2f}s  ", style="dim")
        if self.lights is not None:
            for pattern in self.lights():
                line.append(*light_glyph(pattern))
            line.append("  ")
        for part in parts:
            line.append(part if isinstance(part, Text) else Text(part))
        self.console.print(line)

    def show(self, d: Decision, referee: Any) -> None:
        if isinstance(d, CardPlayed):
            detail = Text(f"  {game_of(referee).played_to} {d.pile_size:2}", style="dim")
            self._line(d.t_ns, f"{self.name(d.seat):>4} plays ", card_text(d.card.code), detail)
            return
        described = self.describe(d, referee)
        if described is not None:
            text, style = described
            self._line(d.t_ns, Text(text, style=style))
