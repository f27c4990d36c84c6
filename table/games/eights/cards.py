"""What the cards of the shedding game are: which plays are matches, what a card asks of the next
player, what may go on the pile. Pure functions over card faces, shared by the referee and bots."""

from __future__ import annotations

from table.cards import SUIT_NAMES, Card, Rank, Suit, card_of
from table.games.eights.rules import EightsRules

QUEEN_OF_SPADES = card_of(Rank.QUEEN, Suit.SPADES)
TWO_OF_SPADES = card_of(Rank.TWO, Suit.SPADES)
SUITS = tuple(SUIT_NAMES)


def naturals(cards: list[Card]) -> list[Card]:
    return [c for c in cards if c.suit is not None]  # a joker has no suit


def is_black_ace(card: Card) -> bool:
    return card.rank is Rank.ACE and card.suit is not None and not card.suit.is_red


def is_red_ace(card: Card) -> bool:
    return card.rank is Rank.ACE and card.suit is not None and card.suit.is_red


def natural_pair(cards: list[Card]) -> bool:
    """Two identical cards, no joker: the pairs of twos, sevens and queens that do more."""
    return len(cards) == 2 and not cards[0].is_joker and cards[0].face == cards[1].face


def spade_combo(cards: list[Card], rules: EightsRules) -> bool:
    faces = sorted((c.face for c in cards), key=lambda c: c.rank)
    return rules.spade_combo and faces == [TWO_OF_SPADES, QUEEN_OF_SPADES]


def is_play(cards: list[Card], rules: EightsRules) -> bool:
    """One card; or, as a match, two identical cards or jokers with at most one other card; or the
    queen and two of spades together when that variation is on."""
    if len(cards) == 1:
        return True
    if not rules.matches:
        return False
    if natural_pair(cards) or spade_combo(cards, rules):
        return True
    return len(naturals(cards)) <= 1 and any(c.is_joker for c in cards)


def base_card(cards: list[Card], under: Card | None) -> Card | None:
    """The card a play counts as: its natural card (the queen in the spade combination), or, for
    jokers alone, the card they were played on."""
    natural = naturals(cards)
    if not natural:
        return under
    return QUEEN_OF_SPADES if QUEEN_OF_SPADES in [c.face for c in natural] else natural[0]


def playable(card: Card, match: Card | None, suit: str | None, rules: EightsRules) -> bool:
    """Whether ``card`` may go on a pile whose top counts as ``match`` in ``suit``."""
    if card.is_joker or match is None:
        return True
    if rules.eights_wild and card.rank is Rank.EIGHT:
        return True
    assert card.suit is not None
    return card.suit.value == suit or card.rank == match.rank


def draw_kind(card: Card | None, rules: EightsRules) -> str | None:
    """``two`` or ``queen`` for the cards that make the next player draw, else None."""
    if card is None:
        return None
    if card.rank is Rank.TWO and rules.twos_draw:
        return "two"
    if card.face == QUEEN_OF_SPADES and rules.queen_spades_draw:
        return "queen"
    return None


def draw_of(cards: list[Card], under: Card | None, rules: EightsRules) -> int:
    """How many cards a play of twos or the queen of spades makes the next player draw."""
    if spade_combo(cards, rules):
        return rules.twos_draw + rules.queen_spades_draw
    kind = draw_kind(base_card(cards, under), rules)
    one = rules.twos_draw if kind == "two" else rules.queen_spades_draw if kind == "queen" else 0
    if len(cards) == 1:
        return one
    if kind == "two" and any(c.is_joker for c in cards) and naturals(cards):
        return rules.two_joker_draw
    return 2 * one


def stacks_on(cards: list[Card], owed_kind: str, under: Card | None, rules: EightsRules) -> bool:
    """Whether a play may add to a draw the player faces instead of drawing it: twos on twos (the
    queen of spades on the queen with ``queen_stacks``); with the spade combination, also the two
    and queen of spades on each other (and the two played together on either)."""
    if not rules.stacking or not naturals(cards):
        return False
    if spade_combo(cards, rules):
        return True
    base = base_card(cards, under)
    if draw_kind(base, rules) == owed_kind and (owed_kind != "queen" or rules.queen_stacks):
        return True
    spades = {TWO_OF_SPADES, QUEEN_OF_SPADES}
    return rules.spade_combo and under is not None and base is not None and {under.face, base.face} == spades


def suit_of(card: Card | None) -> str | None:
    return None if card is None or card.suit is None else card.suit.value
