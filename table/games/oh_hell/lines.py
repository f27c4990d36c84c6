"""The terminal's line for each decision of the bidding game's own (``table.terminal_view``)."""

from __future__ import annotations

from table.cards import SUIT_NAMES, counted, spoken
from table.decisions import Decision
from table.games.game import Line, Names
from table.games.oh_hell import decisions as od
from table.referee import Referee

PAD = "      "


def describe(d: Decision, referee: Referee, names: Names) -> Line | None:
    """The line for a decision of the game's own and its style; None for others."""
    n = names.name
    if isinstance(d, od.TrumpTurned):
        turned = "no card left to turn" if d.card is None else f"{spoken(d.card.code)} turned"
        trump = "no trump" if d.suit is None else f"{SUIT_NAMES[d.suit]} are trump"
        return f"{PAD}{turned}: {trump}", "yellow"
    if isinstance(d, od.BidMade):
        return f"{n(d.seat):>4} bids {d.bid}   (total {d.total})", ""
    if isinstance(d, od.TrickWon):
        extra = f", with {counted(d.tricks - 1, 'cancelled trick')}" if d.tricks > 1 else ""
        cancelled = f"; cancelled {' '.join(c.code for c in d.cancelled)}" if d.cancelled else ""
        return f"{PAD}{n(d.seat)} takes trick {d.trick}{extra}{cancelled}", "cyan"
    if isinstance(d, od.TrickCancelled):
        return f"{PAD}every card of trick {d.trick} cancelled: {n(d.leader)} leads again", "yellow"
    if isinstance(d, od.RevokeFound):
        cost = f": -{d.penalty}" if d.penalty else ""
        return (
            f"{PAD}REVOKE: {n(d.seat)} had {SUIT_NAMES.get(d.suit, d.suit)} in trick {d.trick} "
            f"(shown in trick {d.evidence}){cost}",
            "bold red",
        )
    if isinstance(d, od.HandScored):
        made = [names.names[s] for s, (bid, took) in enumerate(zip(d.bids, d.tricks, strict=True)) if bid == took]
        order = sorted(range(len(d.totals)), key=lambda s: -d.totals[s])
        totals = ", ".join(f"{names.names[s]} {d.totals[s]}" for s in order)
        said = f"{' and '.join(made)} made the bid" if made else "nobody made the bid"
        return f"{PAD}Hand {d.hand} scored: {said}; totals {totals}", "bold"
    return None
