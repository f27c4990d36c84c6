"""The physical truth of a shedding-game table and how its players play it.

``EightsCards`` holds every real card (hands, safe cards, the stock, the pile). Players move
cards themselves when they act (a card onto the pile, the turned card taken); the referee's
decisions that tell them to move cards (draw, swap, pass on, renew a hand, reshuffle, take a
misplay back, trade a safe card) are carried out by ``carry_out``. ``mismatch`` compares the
cards with the referee's counts: the two decks must be conserved and every count exact.

``choose_play`` and ``choose_option`` are the players' minds: legal plays mostly, matches when
they have them, wild cards kept for later, and now and then a card that does not go.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from table.cards import Card, Rank, deal_round_robin, shuffled_deck
from table.decisions import Decision
from table.games.eights.cards import SUIT_NAMES, naturals, playable, stacks_on
from table.games.eights.decisions import (
    CardsDrawn,
    HandRenewed,
    HandsPassed,
    HandsSwapped,
    Misplay,
    SafeCardTraded,
    SafeCardUsed,
    StockReshuffled,
)
from table.games.eights.referee import EightsReferee
from table.games.eights.rules import EightsRules

MISPLAY = 0.02


@dataclass
class EightsCards:
    hands: list[list[Card]] = field(default_factory=list)
    safe: list[Card | None] = field(default_factory=list)
    stock: list[Card] = field(default_factory=list)  # the top is the end
    pile: list[Card] = field(default_factory=list)  # the top is the end

    def deal(self, ref: EightsReferee, dealer: int, rng: random.Random) -> None:
        """Shuffle every card, deal each player their hand, and each lays a safe card."""
        rules, n = ref.rules, ref.players
        deck = shuffled_deck(rng, rules.decks, rules.jokers_per_deck)
        dealt = deal_round_robin(deck[: rules.hand_size * n], n, dealer)
        self.hands = [list(h) for h in dealt]
        self.stock = deck[rules.hand_size * n :][::-1]
        self.pile = []
        self.safe = [None] * n
        if rules.safe_card:
            for seat, hand in enumerate(self.hands):
                keep = max(hand, key=lambda c: worth(c))  # the most useful card, kept from black aces
                hand.remove(keep)
                self.safe[seat] = keep

    def total(self) -> int:
        return (
            sum(len(h) for h in self.hands) + sum(c is not None for c in self.safe) + len(self.stock) + len(self.pile)
        )

    def draw(self, seat: int, n: int) -> None:
        for _ in range(n):
            self.hands[seat].append(self.stock.pop())

    def carry_out(self, d: Decision, rng: random.Random, rules: EightsRules | None = None) -> bool:
        """What the players do when the referee tells them to move cards. False where they
        cannot (the referee, misled by the camera, names a card that is not where it says, or a
        safe card no one has): nothing is moved, and ``mismatch`` says how the table went wrong."""
        n = len(self.hands)
        if isinstance(d, StockReshuffled):
            # The active cards, and any played on them since the referee decided, stay.
            faces = [c.face for c in self.pile]
            k = len(d.kept)
            found = (i for i in range(len(faces) - k, -1, -1) if faces[i : i + k] == list(d.kept))
            keep = next(found, len(faces) - k)  # (not found: the table went wrong; mismatch says so)
            back, self.pile = self.pile[:keep], self.pile[keep:]
            rng.shuffle(back)
            self.stock = back + self.stock
        elif isinstance(d, CardsDrawn):
            self.draw(d.seat, d.count)
        elif isinstance(d, HandsSwapped):
            self.hands[d.seat], self.hands[d.other] = self.hands[d.other], self.hands[d.seat]
        elif isinstance(d, HandsPassed):
            self.hands = [self.hands[(s - d.steps * d.direction) % n] for s in range(n)]
        elif isinstance(d, HandRenewed):
            self.stock = self.hands[d.seat] + self.stock  # under the stock
            self.hands[d.seat] = []
            self.draw(d.seat, d.count)
        elif isinstance(d, SafeCardUsed):
            card = self.safe[d.seat]
            if card is not None:  # the safe card is held now (it may be in the hand already)
                self.hands[d.seat].append(card)
                self.safe[d.seat] = None
        elif isinstance(d, SafeCardTraded):
            hand = self.hands[d.seat]
            given = min(hand, key=worth, default=None)
            taken = self.safe[d.other]
            if taken is None or given is None:
                return False
            hand.remove(given)
            hand.append(taken)
            if rules is None or rules.safe_trade_gives == "hand":
                self.hands[d.other].append(given)
                self.safe[d.other] = None
            else:
                self.safe[d.other] = given
        elif isinstance(d, Misplay):
            if not self.pile or self.pile[-1].face != d.card.face:
                return False
            self.hands[d.seat].append(self.pile.pop())
        return True

    def mismatch(self, ref: EightsReferee) -> str | None:
        """What differs between the cards and the referee's counts (None: nothing)."""
        st = ref.state
        whole = ref.card_count()
        cards = self.total()
        if whole != cards or cards != sum(ref.copies.values()):
            return f"cards not conserved: the referee counts {whole}, the table holds {cards}"
        hands = [len(h) for h in self.hands]
        safe = [c is not None for c in self.safe]
        if hands != st.hands or safe != st.safe:
            return f"hands {hands} safe {safe}, the referee counts {st.hands} safe {st.safe}"
        if len(self.stock) != st.stock or [c.face for c in self.pile] != st.pile:
            return f"stock {len(self.stock)} pile {len(self.pile)}, the referee counts {st.stock} and {len(st.pile)}"
        return None


def worth(card: Card) -> int:
    """How much a player wants to keep a card: wild and punishing cards first."""
    if card.is_joker:
        return 20
    special = {Rank.EIGHT: 15, Rank.TWO: 10, Rank.FOUR: 8, Rank.ACE: 7, Rank.JACK: 6, Rank.KING: 5}
    return special.get(card.rank, 0) + (9 if card.code == "QS" else 0)


def choose_play(ref: EightsReferee, hand: list[Card], rng: random.Random) -> list[Card] | None:
    """The cards a player lays as its play, or None to hold its button (draw, take what it
    owes, or pass)."""
    st, rules = ref.state, ref.rules
    fits = [c for c in hand if playable(c, st.match, st.suit, rules)]
    jokers = [c for c in hand if c.is_joker]
    if st.owed:
        stack = [c for c in fits if not st.owed_locked and stacks_on([c], st.owed_kind, st.match, rules)]
        if stack and rng.random() < 0.8:
            return [stack[0]]
        if jokers and rules.joker_shield and rng.random() < 0.6:
            return [jokers[0]]
        return None
    if st.skips:
        fours = [c for c in fits if c.rank is Rank.FOUR and rules.stacking]
        return [fours[0]] if fours and rng.random() < 0.8 else None
    if ref.king_run():
        kings = [c for c in hand if c.rank is Rank.KING]
        if kings:
            return [kings[0]]
        if not st.drawn:
            return None  # try the stock for a king
    wrong = [c for c in hand if c not in fits]
    if wrong and rng.random() < MISPLAY:
        return [rng.choice(wrong)]
    if not fits:
        return None
    counts = Counter(c.face for c in fits)
    pairs = [c for c in fits if counts[c.face] > 1 and not c.is_joker]
    if pairs and rules.matches and rng.random() < 0.6:
        face = pairs[0].face
        return [c for c in hand if c.face == face][:2]
    plain = [c for c in fits if not c.is_joker and (c.rank is not Rank.EIGHT or len(fits) == 1)]
    if jokers and plain and rules.matches and rng.random() < 0.15:
        return [rng.choice(plain), jokers[0]]
    pick = plain or fits
    return [min(pick, key=lambda c: (worth(c), rng.random()))]


def choose_option(ref: EightsReferee, seat: int, hand: list[Card], rng: random.Random) -> int:
    """Which option (from 1) the player takes of the choice it is offered; 0: the default."""
    choice = ref.state.choices[0]
    kind, options = choice["kind"], choice["options"]
    if kind == "suit":
        suits = Counter(c.suit.value for c in naturals(hand) if c.suit is not None)
        if not suits:
            return 0
        best = SUIT_NAMES[suits.most_common(1)[0][0]]
        return options.index(best) + 1
    if kind == "red-ace":
        mine = ref.total(seat)
        fewer = [i for i, o in enumerate(options, 1) if ref.total(int(o.removeprefix("seat "))) < mine]
        return rng.choice(fewer) if fewer else 0
    if kind == "switch":
        return 1 if ref.total(choice["target"]) < ref.total(seat) else 2
    return rng.randint(0, len(options))
