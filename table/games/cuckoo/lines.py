"""The terminal's line for each decision of the trading game's own (``table.terminal_view``)."""

from __future__ import annotations

from table.cards import counted, spoken
from table.decisions import Decision, RoundStarted
from table.games.cuckoo import decisions as cd
from table.games.game import Line, Names
from table.referee import Referee

PAD = "      "


def describe(d: Decision, referee: Referee, names: Names) -> Line | None:
    """The line for a decision of the game's own and its style; None for others."""
    n = names.name
    if isinstance(d, RoundStarted):
        view = referee.view()
        return f"Round {d.round}, {n(d.dealer)} deals; {view.score}: {names.seats(view.scores)}", "bold cyan"
    if isinstance(d, cd.Kept):
        return f"{n(d.seat):>4} keeps", ""
    if isinstance(d, cd.Traded):
        target = "the stock" if d.with_seat is None else n(d.with_seat)
        return f"{n(d.seat):>4} trades with {target}", ""
    if isinstance(d, cd.KingShown):
        return f"{PAD}{n(d.seat)} turns up {spoken(d.card.code)}", "yellow"
    if isinstance(d, cd.TradeBlocked):
        return f"{PAD}{n(d.by_seat)} shows {spoken(d.card.code)}: {n(d.seat)} keeps their card", "bold yellow"
    if isinstance(d, cd.DealerDrew):
        kept = ": a king, so the dealer keeps the old card" if d.kept_original else ""
        return f"{PAD}{n(d.seat)} draws {spoken(d.card.code)}{kept}", ""
    if isinstance(d, cd.TradingClosed):
        return f"{PAD}trading over ({d.reason}): turn the cards up", "dim"
    if isinstance(d, cd.CardRevealed):
        return f"{n(d.seat):>4} shows {spoken(d.card.code)}", ""
    if isinstance(d, cd.RoundLost):
        who = " and ".join(n(s) for s in d.seats) or "nobody"
        return f"{PAD}{who} lose{'s' if len(d.seats) == 1 else ''} the round: {d.reason}", "bold red"
    if isinstance(d, cd.LifeLost):
        pot = f" (pot {d.pot})" if d.pot else ""
        return f"{PAD}{n(d.seat)} has {d.lives} {'life' if d.lives == 1 else 'lives'} left{pot}", "red"
    if isinstance(d, cd.PointScored):
        return f"{PAD}{n(d.seat)} now has {counted(d.points, 'point')}", "red"
    if isinstance(d, cd.AllOutTie):
        return f"{PAD}everyone left went out together: {d.settle}", "bold magenta"
    if isinstance(d, cd.CutCard):
        return f"{PAD}{n(d.seat)} cuts {spoken(d.card.code)}", ""
    return None
