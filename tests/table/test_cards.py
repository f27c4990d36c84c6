"""The card model and its one text notation."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from table.cards import (
    Card,
    CardError,
    Rank,
    Suit,
    deal_round_robin,
    format_cards,
    make_deck,
    parse_card,
    parse_cards,
    shuffled_deck,
)


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("AS", Rank.ACE, Suit.SPADES),
        ("10C", Rank.TEN, Suit.CLUBS),
        ("TD", Rank.TEN, Suit.DIAMONDS),
        ("qh", Rank.QUEEN, Suit.HEARTS),
        (" 7d ", Rank.SEVEN, Suit.DIAMONDS),
        ("RJ", Rank.RED_JOKER, None),
        ("BJ", Rank.BLACK_JOKER, None),
    ],
)
def test_parse_accepts_the_notation(text: str, rank: Rank, suit: Suit | None) -> None:
    card = parse_card(text)
    assert (card.rank, card.suit, card.deck) == (rank, suit, 0)


@pytest.mark.parametrize("text", ["", "1S", "11H", "QX", "Q", "J", "JJ", "10", "AS2", "ace of spades", "R J"])
def test_parse_rejects_anything_else_quoting_it(text: str) -> None:
    with pytest.raises(CardError) as err:
        parse_card(text)
    assert repr(text) in str(err.value)


def test_parse_rejects_non_text() -> None:
    with pytest.raises(CardError, match="must be text"):
        parse_card(12)  # type: ignore[arg-type]


def test_code_round_trips_for_every_card() -> None:
    for card in make_deck(1, 2):
        assert parse_card(card.code) == card
    assert parse_card("TD").code == "10D"


def test_parse_cards_and_format() -> None:
    cards = parse_cards("AS, 10h 2c")
    assert format_cards(cards) == "AS 10H 2C"
    assert format_cards([cards[0], None]) == "AS ??"


def test_several_decks_keep_their_deck_number() -> None:
    deck = make_deck(decks=2, jokers_per_deck=2)
    assert len(deck) == 108
    two_qh = [c for c in deck if c.code == "QH"]
    assert [c.deck for c in two_qh] == [0, 1]
    assert two_qh[0] != two_qh[1]
    assert two_qh[0].face == two_qh[1].face == parse_card("QH")


def test_joker_must_have_no_suit_and_others_must() -> None:
    with pytest.raises(CardError):
        Card(Rank.RED_JOKER, Suit.HEARTS)
    with pytest.raises(CardError):
        Card(Rank.ACE, None)


@pytest.mark.parametrize(("decks", "jokers"), [(0, 0), (1, 3), (1, -1)])
def test_make_deck_refuses_impossible_decks(decks: int, jokers: int) -> None:
    with pytest.raises(CardError):
        make_deck(decks, jokers)


def test_shuffle_is_seeded_only() -> None:
    a = shuffled_deck(random.Random(5))
    b = shuffled_deck(random.Random(5))
    assert a == b
    assert sorted(a, key=repr) == sorted(make_deck(), key=repr)


@given(st.integers(2, 10), st.integers(0, 9), st.integers(1, 3))
def test_round_robin_deal_gives_extras_from_the_dealers_left(players: int, dealer: int, decks: int) -> None:
    dealer %= players
    cards = make_deck(decks)
    hands = deal_round_robin(cards, players, dealer)
    sizes = [len(h) for h in hands]
    assert sum(sizes) == len(cards)
    assert max(sizes) - min(sizes) <= 1
    extras = len(cards) % players
    for k in range(extras):
        assert sizes[(dealer + 1 + k) % players] == max(sizes)
    # the first card dealt goes to the dealer's left and ends at the bottom of that hand
    assert hands[(dealer + 1) % players][-1] is cards[0]
