"""The game in the terminal: one line per decision, worth watching, plain when piped."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.text import Text

from table.decisions import (
    BadSlap,
    CardMismatch,
    CardPlayed,
    CardsBurned,
    ChallengeLost,
    ChallengePassed,
    ChallengeStarted,
    Decision,
    GameStarted,
    GameWon,
    GoodSlap,
    InputTooLate,
    LastChance,
    PileWon,
    PlayerBackIn,
    PlayerOut,
    Rejected,
    SlapIgnored,
    StrikeGiven,
    TurnChanged,
)
from table.games.ers import ErsReferee

_RED = {"D", "H"}


def card_text(code: str) -> Text:
    style = "bold red" if code[-1:] in _RED or code == "RJ" else "bold"
    return Text(f"{code:>3}", style=style)


class TerminalView:
    """Prints each decision as it happens, with the hand counts and the pile."""

    def __init__(self, names: Sequence[str], console: Console | None = None, verbose: bool = False) -> None:
        self.names = list(names)
        self.console = console or Console(highlight=False, soft_wrap=True)
        self.verbose = verbose

    def name(self, seat: int | None) -> str:
        return "-" if seat is None else self.names[seat]

    def _line(self, t_ns: int, *parts: str | Text) -> None:
        line = Text(f"{t_ns / 1e9:8.2f}s  ", style="dim")
        for part in parts:
            line.append(part if isinstance(part, Text) else Text(part))
        self.console.print(line)

    def counts(self, referee: ErsReferee) -> str:
        return " ".join(f"{self.names[s]}:{len(h)}" for s, h in enumerate(referee.hands))

    def show(self, d: Decision, referee: ErsReferee) -> None:
        if isinstance(d, CardPlayed):
            detail = Text(f"  pile {d.pile_size:2}", style="dim")
            self._line(d.t_ns, f"{self.name(d.seat):>4} plays ", card_text(d.card.code), detail)
            return
        described = self.describe(d, referee)
        if described is not None:
            text, style = described
            self._line(d.t_ns, Text(text, style=style))

    def describe(self, d: Decision, referee: ErsReferee) -> tuple[str, str] | None:
        """The line for a decision and its colour, or None for decisions not worth a line."""
        n = self.name
        pad = "      "
        if isinstance(d, GameStarted):
            seats = ", ".join(f"{self.names[s]} {k}" for s, k in enumerate(d.hand_sizes))
            return f"Egyptian Rat Screw, {d.players} players; cards dealt: {seats}", "bold"
        if isinstance(d, ChallengeStarted):
            return f"{pad}challenge: {n(d.seat)} has {d.chances} chance(s)", "yellow"
        if isinstance(d, ChallengePassed):
            return f"{pad}{n(d.from_seat)} ran out: {n(d.seat)} goes on, {d.chances} chance(s)", "yellow"
        if isinstance(d, ChallengeLost):
            return f"{pad}challenge lost: {n(d.challenger)} takes the pile", "yellow"
        if isinstance(d, GoodSlap):
            tie = f" (exact tie with {', '.join(n(s) for s in d.tied_with)})" if d.tied_with else ""
            return f"{n(d.seat):>4} SLAPS: {d.condition.replace('_', '-')}{tie}", "bold green"
        if isinstance(d, BadSlap):
            return f"{n(d.seat):>4} slaps for nothing", "bold red"
        if isinstance(d, CardsBurned):
            return f"{pad}{n(d.seat)} burns {d.count} card(s) under the pile", "red"
        if isinstance(d, StrikeGiven):
            return f"{pad}{n(d.seat)} gets strike {d.strikes}{': barred' if d.barred else ''}", "red"
        if isinstance(d, SlapIgnored):
            return f"{n(d.seat):>4} slap ignored: {d.reason}", "dim"
        if isinstance(d, PileWon):
            return f"{pad}{n(d.seat)} takes {d.cards} cards ({d.reason})   [{self.counts(referee)}]", "cyan"
        if isinstance(d, PlayerOut):
            return f"{pad}{n(d.seat)} is out of cards", "magenta"
        if isinstance(d, PlayerBackIn):
            return f"{pad}{n(d.seat)} slaps back in!", "bold magenta"
        if isinstance(d, LastChance):
            return f"{pad}{n(d.seat)} holds every card: {d.cards} more for a last slap-in", "magenta"
        if isinstance(d, GameWon):
            return f"{n(d.seat)} wins the game, holding all the cards!", "bold green"
        if isinstance(d, CardMismatch):
            return f"{pad}camera saw {d.seen}, expected {d.expected} from {n(d.seat)}", "red"
        if isinstance(d, InputTooLate):
            return f"{pad}{d.event} from {n(d.seat)} came {d.late_by_ns / 1e6:.0f} ms too late", "red"
        if isinstance(d, Rejected):
            return f"{pad}refused: {d.reason}", "red"
        if isinstance(d, TurnChanged) and self.verbose:
            return f"{pad}turn: {n(d.seat)}", "dim"
        return None
