"""What the shedding game's own decisions tell the seats' lights (``table.signals``)."""

from __future__ import annotations

from table.decisions import Decision
from table.games.eights.decisions import DrawOwed, LastCardCalled, LastCardCaught, Misplay, RoundWon
from table.games.game import News, SeatNews


def news(d: Decision) -> dict[int, News]:
    if isinstance(d, Misplay):
        return {d.seat: SeatNews.REFUSED}
    if isinstance(d, DrawOwed):
        return {d.seat: SeatNews.OWES}
    if isinstance(d, LastCardCaught):
        return {d.seat: SeatNews.LOST, d.by: SeatNews.WON}
    if isinstance(d, LastCardCalled):
        return {d.seat: SeatNews.CALLED}
    if isinstance(d, RoundWon):
        return {d.seat: SeatNews.WON}
    return {}
