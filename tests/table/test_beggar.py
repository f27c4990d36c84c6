"""Beggar-my-neighbour: the playout kernel against published figures and against the referee."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table.cards import make_deck
from table.decisions import CardPlayed, GameWon, PileWon
from table.events import CardSeen
from table.games.ers import beggar
from table.games.ers.beggar import DealError, deal_from_cards, format_deal, parse_deal, playout
from table.games.ers.referee import ErsReferee
from table.games.ers.rules import ErsRules
from table.rules import build_rules, load_preset

# Longest known games (Richard P. Mann's record list, as on Wikipedia), first player first.
RECORDS = [
    ("Paulhus 1999", "------------KAQ----J------/-JQQK---K----JK--QA-A-JA--", 4791, 670),
    ("Kleber 1999", "---JQ---K-A----A-J-K---QK-/-J-----------AJQA----K---Q", 5790, 805),
    ("Collins 2006", "A-QK------Q----KA-----J---/-JAK----A--Q----J---QJ--K-", 6913, 960),
    ("Mann and Wu 2007", "K-KK----K-A-----JAA--Q--J-/---Q---Q-J-----J------AQ--", 7157, 1007),
    ("Nessler 2012", "----Q------A--K--A-A--QJK-/-Q--J--J---QK---K----JA---", 7207, 1015),
    ("Rucklidge 2014", "-J------Q------AAA-----QQ-/K----JA-----------KQ-K-JJK", 7959, 1122),
    ("Nessler 2022", "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---", 8344, 1164),
]
# Casella 2024: the first known game that never ends; its cycle is 62 tricks long.
CASELLA = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA"


def bmn_rules() -> ErsRules:
    return build_rules(ErsRules, load_preset("ers", "beggar-my-neighbour").values)


@pytest.mark.parametrize(("who", "deal", "cards", "tricks"), RECORDS, ids=[r[0] for r in RECORDS])
def test_record_games(who: str, deal: str, cards: int, tricks: int) -> None:
    result = playout(parse_deal(deal))
    assert (result.cards, result.tricks, result.outcome) == (cards, tricks, "win")


def test_the_non_terminating_game_is_found_to_cycle() -> None:
    result = playout(parse_deal(CASELLA))
    assert result.outcome == "cycle"
    assert result.winner is None
    assert result.cycle_tricks == 62
    again = playout(parse_deal(CASELLA))
    assert again == result


def test_small_deal_by_hand() -> None:
    # P1 J, P2 pays one plain card: P1 takes 2 (hand - J -). P1 -, P2 - (now empty), P1 J: nobody
    # can answer, so P1 takes the pile and holds every card.
    result = playout(parse_deal("J-/--"))
    assert (result.cards, result.tricks, result.winner) == (5, 2, 0)


@pytest.mark.parametrize(
    ("deal", "message"),
    [("AKQJ", "at least two hands"), ("A-X/--", "'X' is not"), ("/", "every hand is empty")],
)
def test_bad_deals_are_named(deal: str, message: str) -> None:
    with pytest.raises(DealError, match=message):
        parse_deal(deal)


def test_deal_notation_round_trips() -> None:
    assert format_deal(parse_deal(CASELLA)) == CASELLA


def referee_playout(hands: list[list], rules: ErsRules) -> tuple[int, int, int | None]:
    """Play the deal through the real referee, the camera reporting each card."""
    ref = ErsReferee(rules, len(hands), dealer=len(hands) - 1, deal=hands)
    ref.start()
    t = cards = tricks = 0
    while not ref.finished and cards < 20_000:
        seat = ref.expects().seat
        assert seat is not None
        top = ref.hands[seat][0]
        t += 1_000_000
        for d in ref.handle(CardSeen(t, "camera", top, "pile")):
            cards += isinstance(d, CardPlayed)
            tricks += isinstance(d, PileWon)
            if isinstance(d, GameWon):
                return cards, tricks, d.seat
    return cards, tricks, None


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 4), st.sampled_from(["next-player", "challenger-takes"]))
def test_kernel_and_referee_agree_on_random_deals(seed: int, players: int, runout: str) -> None:
    deck = make_deck()
    random.Random(seed).shuffle(deck)
    hands = [deck[i::players] for i in range(players)]
    rules = build_rules(ErsRules, {**load_preset("ers", "beggar-my-neighbour").values, "runout": runout})
    fast = playout(deal_from_cards(hands), runout=runout)  # type: ignore[arg-type]
    if fast.outcome == "cycle":
        return
    assert referee_playout(hands, rules) == (fast.cards, fast.tricks, fast.winner)


def test_referee_plays_a_record_game_like_the_kernel() -> None:
    deal = RECORDS[3][1]
    plain = iter(c for c in make_deck() if c.rank.value in range(2, 11))
    courts: dict[str, list] = {k: [c for c in make_deck() if c.code[0] == k] for k in "AKQJ"}
    hands = [[next(plain) if ch == "-" else courts[ch].pop() for ch in hand] for hand in deal.split("/")]
    assert sorted(repr(c) for hand in hands for c in hand) == sorted(map(repr, make_deck()))
    assert referee_playout(hands, bmn_rules()) == (7157, 1007, 1)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 52), st.integers(0, 1))
def test_two_hands_found_a_trick_at_a_time_play_as_card_by_card(seed: int, split: int, first: int) -> None:
    """Two hands are played by finding each trick's court cards, not card by card: on any
    split of a deck (uneven, or one hand empty) both ways play the same game."""
    deck = make_deck()
    random.Random(seed).shuffle(deck)
    hands = deal_from_cards([deck[:split], deck[split:]])
    fast, plain = beggar.TwoHands(hands, first), beggar.CardByCard(hands, first, passing_on=True)
    while fast.trick() | plain.trick():  # both, every time
        assert fast.position() == plain.position()
        assert (fast.cards, fast.tricks) == (plain.cards, plain.tricks)
        if fast.tricks > 3_000:
            break
    assert (fast.cards, fast.tricks, fast.winner) == (plain.cards, plain.tricks, plain.winner)


def test_a_cycle_between_two_hands_is_placed_as_card_by_card_places_it() -> None:
    hands = parse_deal(CASELLA)
    fast, plain = beggar.TwoHands(hands, 0), beggar.CardByCard(hands, 0, passing_on=True)
    for _ in range(500):
        fast.trick()
        plain.trick()
    assert fast.position() == plain.position()
    assert playout(hands) == playout(hands, runout="challenger-takes")
