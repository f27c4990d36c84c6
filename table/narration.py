"""A decision as people say it, with the players' names: "Bob slaps a double", "Dee is out".

One narration for every output that speaks (the terminal's lines, the scoreboard's events, the
replay told again), so a game reads the same everywhere. Each game writes the lines for its own
decisions (``Game.lines``); the lines every game shares are here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from table.buttons import CLOSE_CALL_NS
from table.cards import counted, spoken
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

PAD = "      "  # the terminal's indent for a line that follows a play
SEAT = re.compile(r"\bseat (\d+)\b")  # a seat by its number, in a referee's reason


def named(text: str, names: Sequence[str]) -> str:
    """A referee's text (a reason, a view's fact) with each seat it names by number ("seat 2")
    named by its player."""
    return SEAT.sub(lambda m: names[int(m[1])] if int(m[1]) < len(names) else m[0], text)


class Narrator:
    """Says each decision in a sentence with names; ``verbose`` also says each change of turn."""

    def __init__(
        self,
        names: Sequence[str],
        verbose: bool = False,
        close_call_ns: Callable[[], int] = lambda: CLOSE_CALL_NS,
    ) -> None:
        """``close_call_ns``: a slap's lead under this is a close call (the clock's own bound on
        the bridge; a millisecond on the Pi's pins)."""
        self.names = list(names)
        self.verbose = verbose
        self.close_call_ns = close_call_ns

    def name(self, seat: int | None) -> str:
        return "-" if seat is None else self.names[seat]

    def seats(self, values: Sequence[int]) -> str:
        return ", ".join(f"{self.names[s]} {v}" for s, v in enumerate(values))

    def describe(self, d: Decision, referee: Any) -> tuple[str, str] | None:
        """The line for a decision and its colour (rich's style), or None for decisions not worth
        a line: the game's own line for it (``Game.lines``), else the line every game shares.
        A seat a referee names by number in a reason ("seat 2 plays next") is named."""
        game = game_of(referee)
        described = game.lines(d, referee, self) or self._shared(d, referee, game.title)
        if described is None:
            return None
        return named(described[0], self.names), described[1]

    def sentence(self, d: Decision, referee: Any) -> str | None:
        """The decision as a sentence on its own (a scoreboard's event), or None."""
        described = self.describe(d, referee)
        return None if described is None else " ".join(described[0].split())

    def told(self, d: Decision, referee: Any) -> dict[str, Any]:
        """The decision as the scoreboard's events carry it: its fields, ``said`` (its sentence,
        where it has one) and, for a slap's lead, ``close`` (a close call)."""
        out = d.to_json()
        said = self.sentence(d, referee)
        if said is not None:
            out["said"] = said
        lead = getattr(d, "lead_ns", None)
        if lead is not None:
            out["close"] = lead < self.close_call_ns()
        return out

    def _shared(self, d: Decision, referee: Any, title: str) -> tuple[str, str] | None:
        n = self.name
        if isinstance(d, CardPlayed):
            return f"{n(d.seat)} plays {spoken(d.card.code)}", ""
        if isinstance(d, GameStarted):
            return f"{title}, {d.players} players", "bold"
        if isinstance(d, RoundStarted):
            return f"Hand {d.round}: {counted(d.cards, 'card')} each, {n(d.dealer)} deals", "bold cyan"
        if isinstance(d, GameOver):
            who = " and ".join(n(s) for s in d.winners) or "nobody"
            pot = f", pot {d.pot}" if d.pot else ""
            return f"{who} win{'s' if len(d.winners) == 1 else ''} the game: {d.reason}{pot}", "bold green"
        if isinstance(d, CardMismatch):
            return f"{PAD}the camera saw {d.seen}, not {d.expected} from {n(d.seat)}: show it again", "red"
        if isinstance(d, InputTooLate):
            return f"{PAD}{d.event} from {n(d.seat)} came {d.late_by_ns / 1e6:.0f} ms too late", "red"
        if isinstance(d, Rejected):
            who = "" if d.seat is None else f"{n(d.seat)}: "
            return f"{PAD}not taken: {who}{d.reason}", "red"
        if isinstance(d, TurnSkipped):
            return f"{PAD}{n(d.seat)} is skipped: {d.reason}", "yellow"
        if isinstance(d, PlayerOut):
            return f"{PAD}{n(d.seat)} is out", "magenta"
        if isinstance(d, CountCorrected):
            return (
                f"{PAD}{n(d.seat)} has no card: the {d.count} counted go under the pile (the camera missed some)",
                "yellow",
            )
        if isinstance(d, TurnChanged) and self.verbose:
            return f"{PAD}{n(d.seat)}'s turn", "dim"
        return None
