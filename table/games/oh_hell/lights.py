"""What the bidding game's own decisions tell the seats' lights (``table.signals``)."""

from __future__ import annotations

from table.decisions import Decision
from table.games.game import Bid, News, SeatNews
from table.games.oh_hell.decisions import BidMade, TrickWon


def news(d: Decision) -> dict[int, News]:
    if isinstance(d, TrickWon):
        return {d.seat: SeatNews.WON}
    if isinstance(d, BidMade):
        return {d.seat: Bid(d.bid)}
    return {}
