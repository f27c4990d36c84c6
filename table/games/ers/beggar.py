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
        bad = [ch for ch in dict.fromkeys(hand) if ch.upper() not in _VALUE]  # each once, as written
        if bad:
            listed, verb = ", ".join(map(repr, bad)), "is" if len(bad) == 1 else "are"
            raise DealError(f"hand {i} {hand!r}: {listed} {verb} not A, K, Q, J or '-' (a card 2 to 10 is '-')")
        out.append(bytes(_VALUE[ch.upper()] for ch in hand))
    if not any(out):
        raise DealError(f"every hand is empty: {text!r}")
    return out


def format_deal(hands: Sequence[bytes]) -> str:
    return "/".join("".join(_SYMBOL[v] for v in hand) for hand in hands)


def deal_from_cards(hands: Sequence[Sequence[Card]]) -> list[bytes]:
    """Concrete hands (top first) to the kernel's values; jokers count as plain cards."""
    return [bytes(FACE_CHANCES.get(c.rank, 0) for c in h) for h in hands]


WATCH_AFTER = 2_000  # tricks before positions are recorded: the longest known game ending has 1,164


class CardByCard:
    """A deal being played card by card, a trick at a time (any number of hands)."""

    def __init__(self, hands: Sequence[bytes], first: int, passing_on: bool) -> None:
        self.n = len(hands)
        self.decks = [deque(h) for h in hands]
        self.passing_on = passing_on
        self.turn = first
        while not self.decks[self.turn]:
            self.turn = (self.turn + 1) % self.n
        self.cards = self.tricks = 0
        self.winner = -1

    def position(self) -> tuple[int, tuple[bytes, ...]]:
        return self.turn, tuple(bytes(d) for d in self.decks)

    def next_holder(self, seat: int) -> int:
        decks, n = self.decks, self.n
        for i in range(1, n):
            s = (seat + i) % n
            if decks[s]:
                return s
        return -1

    def trick(self) -> bool:
        """Play until somebody takes the pile; False when that ends the game."""
        decks, pile, turn = self.decks, [], self.turn
        challenger, need = -1, 0
        while True:
            deck = decks[turn]
            value = deck.popleft()
            pile.append(value)
            self.cards += 1
            if value:
                challenger, need = turn, value
                nxt = self.next_holder(turn)
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
                nxt = self.next_holder(turn) if self.passing_on else challenger
                if nxt < 0 or nxt == challenger:
                    winner = challenger
                    break
                turn = nxt
                continue
            nxt = self.next_holder(turn)
            if nxt < 0:
                winner = turn
                break
            turn = nxt
        decks[winner].extend(pile)
        self.tricks += 1
        self.turn = winner
        if self.next_holder(winner) < 0:
            self.winner = winner
            return False
        return True

    def play(self, most: int) -> bool:
        """Play up to ``most`` tricks; False once the game has ended."""
        return all(self.trick() for _ in range(most))


_COURTS_MARKED = bytes.maketrans(b"\2\3\4", b"\1\1\1")


class TwoHands:
    """Two hands played a trick at a time, a few integer steps for each court card.

    Between court cards nothing but plain cards is played, so a hand is kept as its court cards
    (``courts``, their chances) and the runs of plain cards around them (``plains``: before each
    court card, and after the last). Plain cards go leader, other, leader...: whoever has fewer
    plain cards before a court card lays one first (the leader on a tie), and an answer pays
    when the answering hand has as many plain cards before its next court card as the chances
    asked. Two hands leave no one to pass a challenge on to, so both runout rules play alike.
    Results equal :class:`CardByCard`'s, card for card (the tests play both on random deals)."""

    def __init__(self, hands: Sequence[bytes], first: int) -> None:
        one, two = hands
        self.plains = [
            deque(map(len, one.translate(_COURTS_MARKED).split(b"\1"))),
            deque(map(len, two.translate(_COURTS_MARKED).split(b"\1"))),
        ]
        self.courts = [deque(one.translate(None, b"\0")), deque(two.translate(None, b"\0"))]
        self.turn = first if hands[first] else 1 - first
        self.cards = self.tricks = 0
        self.winner = -1

    def position(self) -> tuple[int, tuple[bytes, ...]]:
        hands = (
            b"".join(bytes(plain) + bytes((court,)) for plain, court in zip(plains, courts, strict=False))
            + bytes(plains[-1])
            for plains, courts in zip(self.plains, self.courts, strict=True)
        )
        return self.turn, tuple(hands)

    def trick(self) -> bool:
        """Play until somebody takes the pile; False when that ends the game."""
        return self.play(1)

    def play(self, most: int) -> bool:
        """Play up to ``most`` tricks; False once the game has ended."""
        plains, courts, turn, cards, tricks = self.plains, self.courts, self.turn, 0, 0
        # The leader's hand, then the other's; the winner of a trick leads the next.
        a_plains, a_courts, b_plains, b_courts = plains[turn], courts[turn], plains[1 - turn], courts[1 - turn]
        while tricks < most:
            # ``a`` lays the first court card (or runs out) and ``b`` answers it: the leader
            # lays first on a tie; by then ``b`` has laid ``plain`` plain cards, ``a`` ``laid``.
            lead, other = a_plains[0], b_plains[0]
            if lead <= other:
                plain = laid = lead
            else:
                a_plains, a_courts, b_plains, b_courts = b_plains, b_courts, a_plains, a_courts
                plain, laid = other + 1, other
            b_plains[0] -= plain
            if not a_courts:  # ``a`` has run out: ``b`` took the pile with its last card
                a_plains[0] = 0
                b_plains[-1] += plain + laid
                cards += plain + laid
                tricks += 1
                a_plains = b_plains
                self.winner = 0 if b_plains is plains[0] else 1
                break
            a_plains.popleft()
            need = a_courts.popleft()
            first = plain + laid  # the pile's plain cards before its first court card
            pile_plains, pile_courts = [], [need]  # then before each later one, and after the last
            count = first + 1
            while True:  # ``b`` answers ``a``'s court card
                before = b_plains[0]
                if before >= need:  # paid
                    b_plains[0] = before - need
                    pile_plains.append(need)
                    count += need
                    break
                if not b_courts:  # ``b`` runs out paying
                    b_plains[0] = 0
                    pile_plains.append(before)
                    count += before
                    break
                b_plains.popleft()
                need = b_courts.popleft()
                pile_plains.append(before)
                pile_courts.append(need)
                count += before + 1
                a_plains, a_courts, b_plains, b_courts = b_plains, b_courts, a_plains, a_courts
            a_plains[-1] += first  # ``a`` takes the pile under its hand
            a_plains.extend(pile_plains)
            a_courts.extend(pile_courts)
            cards += count
            tricks += 1
            if not b_courts and not b_plains[0]:
                self.winner = 0 if a_plains is plains[0] else 1
                break
        self.turn = 0 if a_plains is plains[0] else 1
        self.cards += cards
        self.tricks += tricks
        return self.winner < 0


def _game(hands: Sequence[bytes], first: int, passing_on: bool) -> CardByCard | TwoHands:
    return TwoHands(hands, first) if len(hands) == 2 else CardByCard(hands, first, passing_on)


def playout(
    hands: Sequence[bytes],
    first: int = 0,
    runout: Literal["next-player", "challenger-takes"] = "next-player",
) -> Playout:
    """Play a deal to its end, or until a repeated position proves a cycle. Positions are
    recorded only past ``WATCH_AFTER`` tricks (no game that ends is that long); a cycle found
    is then placed by playing the deal twice, a period apart, to the first position they share."""
    passing_on = runout == "next-player"
    game = _game(hands, first, passing_on)
    if not game.play(WATCH_AFTER):
        return Playout(game.cards, game.tricks, game.winner, "win")
    seen: dict[tuple[int, tuple[bytes, ...]], int] = {}
    while True:  # past WATCH_AFTER tricks: every position is recorded
        key = game.position()
        earlier = seen.get(key)
        if earlier is not None:
            return _cycle(hands, first, passing_on, game.tricks - earlier)
        seen[key] = game.tricks
        if not game.trick():
            return Playout(game.cards, game.tricks, game.winner, "win")


def _cycle(hands: Sequence[bytes], first: int, passing_on: bool, period: int) -> Playout:
    """Where a cycle of ``period`` tricks begins: the first position met again a period later."""
    early, late = _game(hands, first, passing_on), _game(hands, first, passing_on)
    for _ in range(period):
        late.trick()
    while early.position() != late.position():
        early.trick()
        late.trick()
    return Playout(late.cards, late.tricks, None, "cycle", early.cards, late.cards - early.cards, period)
