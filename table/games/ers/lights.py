"""What Egyptian Rat Screw's own decisions tell the seats' lights (``table.signals``)."""

from __future__ import annotations

from table.decisions import CardDead, Decision, PlayContested
from table.games.game import News, SeatNews


def news(d: Decision) -> dict[int, News]:
    """A contest settled: whoever was wrong flashes as for a bad slap, the other as for a win. A
    card laid out of turn: its player flashes as for a bad slap."""
    if isinstance(d, PlayContested):
        wrong, right = (d.player, d.seat) if d.upheld else (d.seat, d.player)
        return {wrong: SeatNews.BAD_SLAP, right: SeatNews.WON}
    if isinstance(d, CardDead):
        return {d.seat: SeatNews.BAD_SLAP}
    return {}
