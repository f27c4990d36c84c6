"""The game in the terminal: one line per decision, worth watching, plain when piped.

Each game's decisions have a line of their own; a decision with no line (a change of turn unless
``verbose``) prints nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console
from rich.text import Text

from table import eights_lines
from table.buttons import CLOSE_CALL_NS
from table.cards import SUIT_NAMES
from table.decisions import (
    BadSlap,
    CardMismatch,
    CardPlayed,
    CardsBurned,
    ChallengeLost,
    ChallengePassed,
    ChallengeStarted,
    CountCorrected,
    Decision,
    GameOver,
    GameStarted,
    GameWon,
    GoodSlap,
    InputTooLate,
    LastChance,
    PileWon,
    PlayerBackIn,
    PlayerOut,
    Rejected,
    RoundStarted,
    SlapIgnored,
    SlapLead,
    StrikeGiven,
    TurnChanged,
    TurnSkipped,
)
from table.games import cuckoo_decisions as cd
from table.games import ohhell_decisions as od
from table.lights import LightKind, Pattern

TITLES = {
    "ers": "Egyptian Rat Screw",
    "cuckoo": "The trading game (Cuckoo)",
    "oh-hell": "The bidding game (Oh Hell)",
    "eights": "The shedding game (Crazy Eights)",
}

_RED = {"D", "H"}


_GLYPHS = {LightKind.OFF: "·", LightKind.STEADY: "●", LightKind.PULSE: "◍", LightKind.BLINK: "◉", LightKind.FLASH: "◉"}


def light_glyph(pattern: Pattern) -> tuple[str, str]:
    """A seat's light as one character and its style: its colour, blinking when it blinks."""
    if pattern.kind == LightKind.OFF:
        return _GLYPHS[LightKind.OFF], "dim"
    r, g, b = pattern.colour
    blinks = pattern.kind in (LightKind.BLINK, LightKind.FLASH)
    return _GLYPHS[pattern.kind], f"rgb({r},{g},{b})" + (" blink" if blinks else "")


def lead_text(ns: int) -> str:
    """A slap's lead as people say it: "23 ms", "0.41 ms", "3 µs"."""
    if ns >= 10_000_000:
        return f"{ns / 1e6:.0f} ms"
    if ns >= 100_000:
        return f"{ns / 1e6:.2g} ms" if ns < 1_000_000 else f"{ns / 1e6:.1f} ms"
    return f"{max(ns, 0) / 1e3:.2g} µs" if ns < 10_000 else f"{ns / 1e3:.0f} µs"


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

    def counts(self, referee: Any) -> str:
        return " ".join(f"{self.names[s]}:{len(h)}" for s, h in enumerate(referee.hands))

    def seats(self, values: Sequence[int]) -> str:
        return " ".join(f"{self.names[s]}:{v}" for s, v in enumerate(values))

    def show(self, d: Decision, referee: Any) -> None:
        if isinstance(d, CardPlayed):
            where = "trick" if referee.GAME == "oh-hell" else "pile"
            detail = Text(f"  {where} {d.pile_size:2}", style="dim")
            self._line(d.t_ns, f"{self.name(d.seat):>4} plays ", card_text(d.card.code), detail)
            return
        described = self.describe(d, referee)
        if described is not None:
            text, style = described
            self._line(d.t_ns, Text(text, style=style))

    def describe(self, d: Decision, referee: Any) -> tuple[str, str] | None:
        """The line for a decision and its colour, or None for decisions not worth a line."""
        return (
            self._describe_common(d)
            or self._describe_ers(d, referee)
            or self._describe_cuckoo(d, referee)
            or self._describe_ohhell(d)
            or eights_lines.describe(d, self.name)
        )

    def _describe_common(self, d: Decision) -> tuple[str, str] | None:
        n = self.name
        pad = "      "
        if isinstance(d, GameStarted):
            title = TITLES.get(d.game, d.game)
            if d.game != "ers":
                return f"{title}, {d.players} players", "bold"
            seats = ", ".join(f"{self.names[s]} {k}" for s, k in enumerate(d.hand_sizes))
            return f"{title}, {d.players} players; cards dealt: {seats}", "bold"
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
        if isinstance(d, TurnChanged) and self.verbose:
            return f"{pad}turn: {n(d.seat)}", "dim"
        return None

    def _describe_ers(self, d: Decision, referee: Any) -> tuple[str, str] | None:
        n = self.name
        pad = "      "
        if isinstance(d, ChallengeStarted):
            return f"{pad}challenge: {n(d.seat)} has {d.chances} chance(s)", "yellow"
        if isinstance(d, ChallengePassed):
            return f"{pad}{n(d.from_seat)} ran out: {n(d.seat)} goes on, {d.chances} chance(s)", "yellow"
        if isinstance(d, ChallengeLost):
            return f"{pad}challenge lost: {n(d.challenger)} takes the pile", "yellow"
        if isinstance(d, GoodSlap):
            tie = f" (exact tie with {', '.join(n(s) for s in d.tied_with)})" if d.tied_with else ""
            return f"{n(d.seat):>4} SLAPS: {d.condition.replace('_', '-')}{tie}", "bold green"
        if isinstance(d, SlapLead):
            close = d.lead_ns < self.close_call_ns()
            text = f"{pad}{n(d.seat)} took the pile, {lead_text(d.lead_ns)} ahead of {n(d.behind)}"
            return text + (": a close call" if close else ""), "bold yellow" if close else "green"
        if isinstance(d, BadSlap):
            return f"{n(d.seat):>4} slaps for nothing", "bold red"
        if isinstance(d, CardsBurned):
            return f"{pad}{n(d.seat)} burns {d.count} card(s) under the pile", "red"
        if isinstance(d, CountCorrected):
            return (
                f"{pad}{n(d.seat)} has no card: the {d.count} counted go under the pile (the camera missed some)",
                "yellow",
            )
        if isinstance(d, StrikeGiven):
            return f"{pad}{n(d.seat)} gets strike {d.strikes}{': barred' if d.barred else ''}", "red"
        if isinstance(d, SlapIgnored):
            return f"{n(d.seat):>4} slap ignored: {d.reason}", "dim"
        if isinstance(d, PileWon):
            return f"{pad}{n(d.seat)} takes {d.cards} cards ({d.reason})   [{self.counts(referee)}]", "cyan"
        if isinstance(d, PlayerBackIn):
            return f"{pad}{n(d.seat)} slaps back in!", "bold magenta"
        if isinstance(d, LastChance):
            return f"{pad}{n(d.seat)} holds every card: {d.cards} more for a last slap-in", "magenta"
        if isinstance(d, GameWon):
            return f"{n(d.seat)} wins the game, holding all the cards!", "bold green"
        return None

    def _describe_cuckoo(self, d: Decision, referee: Any) -> tuple[str, str] | None:
        n = self.name
        pad = "      "
        if isinstance(d, RoundStarted) and referee.GAME == "cuckoo":
            scores = self.seats(referee.scores())
            what = "points" if referee.rules.scoring == "points" else "lives"
            return f"Round {d.round}, {n(d.dealer)} deals   [{what} {scores}]", "bold cyan"
        if isinstance(d, cd.Kept):
            return f"{n(d.seat):>4} keeps", ""
        if isinstance(d, cd.Traded):
            target = "the stock" if d.with_seat is None else n(d.with_seat)
            return f"{n(d.seat):>4} trades with {target}", ""
        if isinstance(d, cd.KingShown):
            return f"{pad}{n(d.seat)} turns up {d.card}", "yellow"
        if isinstance(d, cd.TradeBlocked):
            return f"{pad}{n(d.by_seat)} shows {d.card}: {n(d.seat)} keeps their card", "bold yellow"
        if isinstance(d, cd.DealerDrew):
            kept = ": a king, so the dealer keeps the old card" if d.kept_original else ""
            return f"{pad}{n(d.seat)} draws {d.card}{kept}", ""
        if isinstance(d, cd.TradingClosed):
            return f"{pad}trading over ({d.reason}): turn the cards up", "dim"
        if isinstance(d, cd.CardRevealed):
            return f"{n(d.seat):>4} shows {d.card}", ""
        if isinstance(d, cd.RoundLost):
            who = " and ".join(n(s) for s in d.seats) or "nobody"
            return f"{pad}{who} lose{'s' if len(d.seats) == 1 else ''} the round: {d.reason}", "bold red"
        if isinstance(d, cd.LifeLost):
            pot = f" (pot {d.pot})" if d.pot else ""
            return f"{pad}{n(d.seat)} has {d.lives} {'life' if d.lives == 1 else 'lives'} left{pot}", "red"
        if isinstance(d, cd.PointScored):
            return f"{pad}{n(d.seat)} now has {d.points} point(s)", "red"
        if isinstance(d, cd.AllOutTie):
            return f"{pad}everyone left went out together: {d.settle}", "bold magenta"
        if isinstance(d, cd.CutCard):
            return f"{pad}{n(d.seat)} cuts {d.card}", ""
        return None

    def _describe_ohhell(self, d: Decision) -> tuple[str, str] | None:
        n = self.name
        pad = "      "
        if isinstance(d, RoundStarted):
            return f"Hand {d.round}: {d.cards} card(s) each, {n(d.dealer)} deals", "bold cyan"
        if isinstance(d, od.TrumpTurned):
            turned = "no card left to turn" if d.card is None else f"{d.card} turned"
            trump = "no trump" if d.suit is None else f"{SUIT_NAMES[d.suit]} are trump"
            return f"{pad}{turned}: {trump}", "yellow"
        if isinstance(d, od.BidMade):
            return f"{n(d.seat):>4} bids {d.bid}   (total {d.total})", ""
        if isinstance(d, od.TrickWon):
            extra = f", with {d.tricks - 1} cancelled trick(s)" if d.tricks > 1 else ""
            cancelled = f"; cancelled {' '.join(c.code for c in d.cancelled)}" if d.cancelled else ""
            return f"{pad}{n(d.seat)} takes trick {d.trick}{extra}{cancelled}", "cyan"
        if isinstance(d, od.TrickCancelled):
            return f"{pad}every card of trick {d.trick} cancelled: {n(d.leader)} leads again", "yellow"
        if isinstance(d, od.RevokeFound):
            cost = f": -{d.penalty}" if d.penalty else ""
            return (
                f"{pad}REVOKE: {n(d.seat)} had {SUIT_NAMES.get(d.suit, d.suit)} in trick {d.trick} "
                f"(shown in trick {d.evidence}){cost}",
                "bold red",
            )
        if isinstance(d, od.HandScored):
            return f"{pad}hand {d.hand}: points {self.seats(d.points)}   totals {self.seats(d.totals)}", "bold"
        return None
