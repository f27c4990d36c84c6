"""Cards and decks, and the one text notation used everywhere (CLI, journal, MQTT, tests).

A card is written rank then suit: ranks ``A 2 3 4 5 6 7 8 9 10 J Q K`` (``T`` is accepted for ten),
suits ``C D H S``; the jokers are ``RJ`` and ``BJ``. Parsing is case-insensitive and anything else
raises :class:`CardError` quoting the bad text.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum

from table.errors import CardtableError


class CardError(CardtableError, ValueError):
    """Text that is not a card in the table's notation."""


class Suit(StrEnum):
    """A suit is its letter (as a rank is its number): it compares and hashes as the letter."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)


SUIT_NAMES = {s.value: s.name.lower() for s in Suit}  # "C": "clubs", ...
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def counted(n: int, thing: str) -> str:
    """A number of things as people say it: "1 card", "2 cards", "no card"."""
    return f"{n or 'no'} {thing}{'' if n == 1 or n == 0 else 's'}"


def spoken(code: str) -> str:
    """A card's code as people read it on a scoreboard: "7♦", "10♥", "the red joker"."""
    if code in ("RJ", "BJ"):
        return f"the {'red' if code == 'RJ' else 'black'} joker"
    return code[:-1] + SUIT_SYMBOLS.get(code[-1], code[-1])


class Rank(IntEnum):
    """Ranks by their face value, ace as one; jokers sit above the king and have no suit."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    RED_JOKER = 14
    BLACK_JOKER = 15

    @property
    def symbol(self) -> str:
        return _RANK_SYMBOL[self]

    @property
    def is_joker(self) -> bool:
        return self >= Rank.RED_JOKER


_RANK_SYMBOL = {
    Rank.ACE: "A",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    Rank.RED_JOKER: "RJ",
    Rank.BLACK_JOKER: "BJ",
}
_RANK_SYMBOL.update({Rank(v): str(v) for v in range(2, 11)})
_RANK_BY_SYMBOL = {sym: rank for rank, sym in _RANK_SYMBOL.items() if not rank.is_joker}
_RANK_BY_SYMBOL["T"] = Rank.TEN
_SUIT_BY_LETTER = {s.value: s for s in Suit}
STANDARD_RANKS = tuple(Rank(v) for v in range(1, 14))


_SUIT_NUMBER = {None: 0, Suit.CLUBS: 1, Suit.DIAMONDS: 2, Suit.HEARTS: 3, Suit.SPADES: 4}


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One physical card: its face and which of the decks shuffled together it came from.

    ``deck`` lets rules that care about identical cards (two decks in one game) tell them apart;
    the camera cannot, so cards read from the table are deck 0 and games compare faces.
    Cards compare and hash by one number worked out when the card is made: referees compare
    cards at every input, and a study replays millions.
    """

    rank: Rank
    suit: Suit | None
    deck: int = 0
    key: int = field(init=False, repr=False)  # rank, suit and deck in one number

    def __post_init__(self) -> None:
        if (self.suit is None) != self.rank.is_joker:
            raise CardError(f"{self.rank.name} with suit {self.suit}: only jokers have no suit")
        object.__setattr__(self, "key", (self.deck * 16 + int(self.rank)) * 5 + _SUIT_NUMBER[self.suit])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Card:
            return NotImplemented
        return self.key == other.key  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return self.key

    def __copy__(self) -> Card:
        return self  # immutable: a copy of a game shares its cards

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self

    @property
    def code(self) -> str:
        return self.rank.symbol if self.suit is None else self.rank.symbol + self.suit.value

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    @property
    def face(self) -> Card:
        """The same card without its deck number: what a camera can see."""
        return self if self.deck == 0 else card_of(self.rank, self.suit)

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})" if self.deck == 0 else f"Card({self.code!r}, deck={self.deck})"


_FACES: dict[tuple[Rank, Suit | None], Card] = {}


def card_of(rank: Rank, suit: Suit | None) -> Card:
    """The shared deck-0 instance for a face (cards are immutable, so one object each will do)."""
    key = (rank, suit)
    found = _FACES.get(key)
    if found is None:
        found = _FACES[key] = Card(rank, suit)
    return found


_PARSED: dict[str, Card] = {}


def parse_card(text: str) -> Card:
    """Parse one card code such as ``QH``, ``10c``, ``TD`` or ``RJ``."""
    if not isinstance(text, str):
        raise CardError(f"card code must be text, not {type(text).__name__}: {text!r}")
    cached = _PARSED.get(text)
    if cached is not None:
        return cached
    code = text.strip().upper()
    if code == "RJ":
        card = card_of(Rank.RED_JOKER, None)
    elif code == "BJ":
        card = card_of(Rank.BLACK_JOKER, None)
    else:
        rank = _RANK_BY_SYMBOL.get(code[:-1])
        suit = _SUIT_BY_LETTER.get(code[-1:])
        if rank is None or suit is None:
            raise CardError(f"not a card: {text!r} (expected rank A 2-10 T J Q K then suit C D H S, or RJ / BJ)")
        card = card_of(rank, suit)
    _PARSED[text] = card
    return card


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse cards separated by spaces or commas, or a list of codes."""
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(p) for p in parts]


def format_cards(cards: Iterable[Card | None]) -> str:
    """Cards as codes separated by spaces; an unknown (face-down) card is ``??``."""
    return " ".join("??" if c is None else c.code for c in cards)


def make_deck(decks: int = 1, jokers_per_deck: int = 0) -> list[Card]:
    """Several decks in a fixed order, each card keeping its deck number.

    ``jokers_per_deck`` is 0, 1 (a red joker) or 2 (red and black).
    """
    if decks < 1:
        raise CardError(f"decks must be at least 1, not {decks}")
    if jokers_per_deck not in (0, 1, 2):
        raise CardError(f"jokers per deck must be 0, 1 or 2, not {jokers_per_deck}")
    cards = []
    for d in range(decks):
        cards.extend(Card(r, s, d) for s in Suit for r in STANDARD_RANKS)
        cards.extend(Card(j, None, d) for j in (Rank.RED_JOKER, Rank.BLACK_JOKER)[:jokers_per_deck])
    return cards


@functools.cache
def pack_counts(decks: int = 1, jokers_per_deck: int = 0) -> tuple[dict[Card, int], dict[int, int]]:
    """How many of each face the decks hold, by face and by card key (worked out once for each
    pack; the referees only read them)."""
    counts: dict[Card, int] = {}
    for card in make_deck(decks, jokers_per_deck):
        counts[card.face] = counts.get(card.face, 0) + 1
    return counts, {card.key: n for card, n in counts.items()}


@functools.cache
def pack_size(decks: int = 1, jokers_per_deck: int = 0) -> int:
    """How many cards the decks hold."""
    return sum(pack_counts(decks, jokers_per_deck)[0].values())


def shuffled_deck(rng: random.Random, decks: int = 1, jokers_per_deck: int = 0) -> list[Card]:
    """A deck shuffled by the given seeded generator (never the global one)."""
    cards = make_deck(decks, jokers_per_deck)
    rng.shuffle(cards)
    return cards


def deal_round_robin(cards: Sequence[Card], players: int, dealer: int) -> list[list[Card]]:
    """Deal every card one at a time clockwise from the dealer's left, as at a real table.

    Each hand is returned top card first. Cards land face down on the hand, so the first card a
    player was dealt ends up at the bottom. Extras go to the seats nearest the dealer's left.
    """
    hands: list[list[Card]] = [[] for _ in range(players)]
    for i, card in enumerate(cards):
        hands[(dealer + 1 + i) % players].append(card)
    for hand in hands:
        hand.reverse()
    return hands
