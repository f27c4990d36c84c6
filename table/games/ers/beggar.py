"""Beggar-my-neighbour playouts: a whole game from a deal, fast enough for Monte-Carlo study.

A game without slaps has no choices, so it is a pure function of the deal. This kernel plays it
on small integers (a card is its number of chances: 4 ace, 3 king, 2 queen, 1 jack, 0 other) with
the same rules as :class:`table.games.ers.ErsReferee` under the ``beggar-my-neighbour`` preset;
the tests hold the two to the same results on random deals. A position at the start of a trick
(who leads, every hand) that comes round again proves the game never ends: outcome ``cycle``.

Deal notation: hands separated by ``/``, each listed from the top (first played) down, ``A K Q J``
for court cards and ``-`` for any other card, first hand playing first:
``---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from table.cards import Card
from table.errors import CardtableError
from table.games.ers.referee import ErsReferee
from table.games.ers.slaps import FACE_CHANCES

GAME = ErsReferee.GAME  # its presets are Egyptian Rat Screw's (``beggar-my-neighbour``: slaps off)

_VALUE = {"A": 4, "K": 3, "Q": 2, "J": 1, "-": 0}
_SYMBOL = {v: k for k, v in _VALUE.items()}


class DealError(CardtableError, ValueError):
    """A deal string that is not in the notation; the message quotes the bad part."""


@dataclass(frozen=True, slots=True)
class Playout:
    cards: int
    tricks: int
    winner: int | None
    outcome: Literal["win", "cycle"]
    # For a cycle: the card count at which the repeated position first stood, and its period.
    cycle_start: int | None = None
    cycle_cards: int | None = None
    cycle_tricks: int | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "cards": self.cards,
            "tricks": self.tricks,
            "winner": self.winner,
            "outcome": self.outcome,
        }
        if self.outcome == "cycle":
            out["cycle"] = {"start_card": self.cycle_start, "cards": self.cycle_cards, "tricks": self.cycle_tricks}
        return out


def parse_deal(text: str) -> list[bytes]:
    """``"P1/P2[/P3...]"`` to one byte string of chance values per hand."""
    if not isinstance(text, str):  # argparse hands "--deal --" over as an empty list
        raise DealError(f'a deal is hands separated by "/", like "A-K-/-Q--", not {text!r}')
    hands = text.strip().split("/")
    if len(hands) < 2:
        raise DealError(f"a deal needs at least two hands separated by '/': {text!r}")
    out = []
    for i, hand in enumerate(hands, start=1):
        bad = sorted({ch for ch in hand if ch.upper() not in _VALUE})
        if bad:
            raise DealError(f"hand {i} {hand!r}: {''.join(bad)!r} is not A, K, Q, J or '-'")
        out.append(bytes(_VALUE[ch.upper()] for ch in hand))
    if not any(out):
        raise DealError(f"every hand is empty: {text!r}")
    return out


def format_deal(hands: Sequence[bytes]) -> str:
    return "/".join("".join(_SYMBOL[v] for v in hand) for hand in hands)


def deal_from_cards(hands: Sequence[Sequence[Card]]) -> list[bytes]:
    """Concrete hands (top first) to the kernel's values; jokers count as plain cards."""
    return [bytes(FACE_CHANCES.get(c.rank, 0) for c in h) for h in hands]


def playout(
    hands: Sequence[bytes],
    first: int = 0,
    runout: Literal["next-player", "challenger-takes"] = "next-player",
) -> Playout:
    """Play a deal to its end, or until a repeated position proves a cycle."""
    n = len(hands)
    decks = [deque(h) for h in hands]
    pile: list[int] = []
    turn = first
    while not decks[turn]:
        turn = (turn + 1) % n
    cards = tricks = 0
    seen: dict[tuple[int, tuple[bytes, ...]], tuple[int, int]] = {}
    passing_on = runout == "next-player"

    def next_holder(seat: int) -> int:
        for i in range(1, n):
            s = (seat + i) % n
            if decks[s]:
                return s
        return -1

    while True:
        key = (turn, tuple(bytes(d) for d in decks))
        first_seen = seen.get(key)
        if first_seen is not None:
            start, start_tricks = first_seen
            return Playout(cards, tricks, None, "cycle", start, cards - start, tricks - start_tricks)
        seen[key] = (cards, tricks)
        # One trick: play until somebody takes the pile.
        challenger = -1
        need = 0
        while True:
            deck = decks[turn]
            value = deck.popleft()
            pile.append(value)
            cards += 1
            if value:
                challenger, need = turn, value
                nxt = next_holder(turn)
                if nxt < 0:
                    winner = turn
                    break
                turn = nxt
                continue
            if challenger >= 0:
                need -= 1
                if need == 0:
                    winner = challenger
                    break
                if deck:
                    continue
                nxt = next_holder(turn) if passing_on else challenger
                if nxt < 0 or nxt == challenger:
                    winner = challenger
                    break
                turn = nxt
                continue
            nxt = next_holder(turn)
            if nxt < 0:
                winner = turn
                break
            turn = nxt
        decks[winner].extend(pile)
        pile.clear()
        tricks += 1
        turn = winner
        if next_holder(winner) < 0:
            return Playout(cards, tricks, winner, "win")
