"""What the trading game's own decisions tell the seats' lights (``table.signals``)."""

from __future__ import annotations

from table.decisions import Decision
from table.games.cuckoo.decisions import LifeLost, RoundLost, TradeBlocked
from table.games.game import News, SeatNews


def news(d: Decision) -> dict[int, News]:
    if isinstance(d, LifeLost):
        return {d.seat: SeatNews.LOST}
    if isinstance(d, RoundLost):
        return dict.fromkeys(d.seats, SeatNews.LOST)
    if isinstance(d, TradeBlocked):
        return {d.seat: SeatNews.BLOCKED, d.by_seat: SeatNews.BLOCKER}
    return {}


def puts_out(d: Decision) -> int | None:
    """A seat's last life lost puts it out."""
    return d.seat if isinstance(d, LifeLost) and d.lives == 0 else None
