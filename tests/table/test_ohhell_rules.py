"""The bidding-game referee (Screw Your Neighbour, an Oh Hell variant) against hand-built situations.

Every test sets a game up through ``setup_game`` (usually with ``hand_sizes = "listed"`` so that
hands are small), feeds the referee the turned trump card, the bids and the cards played on a
simple clock (``Table``) and checks the decisions and the state. Decisions are compared without
their timestamps (``untimed``, expectations written with ``NOW``).

With four players and the dealer at seat 0, seat 1 bids first and leads the first trick, so the
cards of trick 1 come from seats 1, 2, 3 and 0 in that order. Unless a test says otherwise the
turned card is the 7 of clubs: clubs are trump.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from table.cards import parse_card, parse_cards
from table.decisions import (
    CardPlayed,
    Decision,
    GameOver,
    GameStarted,
    Rejected,
    RoundStarted,
    TurnChanged,
)
from table.events import END, ButtonPressed, ButtonReleased, CardGone, CardSeen, Command, Event, SeatAction
from table.games import setup_game
from table.games.oh_hell.decisions import (
    BidMade,
    HandScored,
    RevokeFound,
    TrickCancelled,
    TrickWon,
    TrumpTurned,
)
from table.games.oh_hell.referee import OhHellReferee, OhHellState, trick_winner
from table.games.oh_hell.rules import OhHellRules
from table.referee import Expectation, GameSetupError
from table.rules import RulesError, build_rules, load_preset, shipped_presets
from tests.decision_helpers import NOW, of, one, untimed

# ====================================================================== helpers


STEP = 10_000
"""Nanoseconds between two events on a ``Table``."""


def rejected(out: list[Decision], match: str = "") -> Rejected:
    """``out`` is exactly one refusal, whose reason contains ``match``."""
    assert len(out) == 1 and isinstance(out[0], Rejected), f"expected a refusal, got {out}"
    assert match in out[0].reason, f"{match!r} not in {out[0].reason!r}"
    return out[0]


class Table:
    """A referee set up through ``setup_game`` and a clock: each input is ``STEP`` ns after the last."""

    def __init__(
        self,
        players: int = 4,
        *,
        dealer: int = 0,
        preset: str | None = None,
        seed: int = 0,
        **rules: Any,
    ) -> None:
        self.setup = setup_game("oh-hell", preset, rules, players, dealer, seed)
        ref = self.setup.referee()
        assert isinstance(ref, OhHellReferee)
        self.ref = ref
        self.t = 0
        self.log: list[Decision] = ref.start(self.t)

    @property
    def st(self) -> OhHellState:
        return self.ref.state

    def tick(self) -> int:
        self.t += STEP
        return self.t

    def send(self, event: Event) -> list[Decision]:
        out = self.ref.handle(event)
        self.log += out
        return out

    def card(self, code: str, zone: str = "pile", seat: int | None = None) -> list[Decision]:
        return self.send(CardSeen(self.tick(), "camera", parse_card(code), zone, seat))

    def trump(self, code: str) -> list[Decision]:
        return self.card(code, "trump")

    def bid(self, seat: int, value: int | None, action: str = "bid") -> list[Decision]:
        return self.send(SeatAction(self.tick(), "gpio", seat, action, value))

    def bids(self, *values: int) -> list[Decision]:
        """Bids in turn, each by the seat the referee expects; every one must be accepted."""
        out: list[Decision] = []
        for value in values:
            seat = self.ref.expects().seat
            assert seat is not None
            got = self.bid(seat, value)
            assert of(got, BidMade), f"bid {value} by seat {seat} refused: {got}"
            out += got
        return out

    def play(self, codes: str) -> list[Decision]:
        """Cards to the pile one after the other, each played by whoever's turn it is."""
        out: list[Decision] = []
        for code in codes.split():
            got = self.card(code)
            assert not of(got, Rejected), f"{code} refused: {got}"
            out += got
        return out

    def frozen(self) -> dict[str, Any]:
        """The snapshot without the referee's clock, which any in-order event moves on."""
        snap = self.ref.snapshot()
        del snap["state"]["last_t"]
        return snap


def dealt(
    *sizes: int,
    players: int = 4,
    trump: str | None = "7C",
    bids: tuple[int, ...] | None = None,
    **rules: Any,
) -> Table:
    """A table of listed hand ``sizes`` with the trump card turned and every bid made (0 unless given)."""
    table = Table(players, hand_sizes="listed", hand_list=list(sizes), **rules)
    if trump is not None:
        assert of(table.trump(trump), TrumpTurned)
    table.bids(*(bids if bids is not None else (0,) * players))
    assert table.st.phase == "playing"
    return table


def won(out: list[Decision]) -> TrickWon:
    return one(out, TrickWon)


# ================================================================ hand sizes and set-up


def test_start_announces_the_game_the_first_hand_and_waits_for_trump() -> None:
    table = Table(players=4, hand_sizes="listed", hand_list=[3, 1])
    assert untimed(table.log) == [
        GameStarted(NOW, "oh-hell", 4, 0, (3, 3, 3, 3)),
        RoundStarted(NOW, 1, 0, (0, 1, 2, 3), 3),
    ]
    assert table.st.phase == "trump"
    assert table.ref.expects() == Expectation("trump-card", 0, "turn up the trump card")


@pytest.mark.parametrize(("players", "most"), [(3, 17), (4, 12), (5, 10), (7, 7), (26, 1)])
def test_up_grows_from_one_to_the_largest_hand_that_leaves_a_trump_card(players: int, most: int) -> None:
    """The Game Rules for Screw Your Neighbor score sheet: one card in the first hand, one more each
    hand; 52 cards keep one back for trump."""
    table = Table(players)
    assert table.st.sizes == list(range(1, most + 1))
    assert most * players < 52 <= (most + 1) * players


def test_down_shrinks_from_the_largest_hand_to_one() -> None:
    """The Screw Your Neighbour trick-taking rule sheet: five players in one deck get ten cards, then
    nine, ... then one."""
    table = Table(5, hand_sizes="down")
    assert table.st.sizes == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    assert one(table.log, RoundStarted).cards == 10


def test_down_up_and_up_down_turn_round_at_one_and_at_the_largest_hand() -> None:
    assert Table(4, hand_sizes="down-up", max_hand=3).st.sizes == [3, 2, 1, 2, 3]
    assert Table(4, hand_sizes="up-down", max_hand=3).st.sizes == [1, 2, 3, 2, 1]
    assert Table(5, hand_sizes="down-up").st.sizes == [*range(10, 0, -1), *range(2, 11)]


def test_max_hand_caps_the_largest_hand() -> None:
    assert Table(4, max_hand=5).st.sizes == [1, 2, 3, 4, 5]
    assert Table(4, hand_sizes="down", max_hand=12).st.sizes == list(range(12, 0, -1))


def test_a_max_hand_that_leaves_no_trump_card_is_refused() -> None:
    with pytest.raises(GameSetupError, match=r"'max_hand'.*at most 12"):
        Table(4, max_hand=13)


def test_listed_sizes_are_played_in_the_order_given() -> None:
    table = Table(4, hand_sizes="listed", hand_list=[3, 1, 2])
    assert table.st.sizes == [3, 1, 2]


def test_a_listed_hand_that_cannot_be_dealt_is_refused() -> None:
    with pytest.raises(GameSetupError, match="'hand_list': 14 cards each is 56, more than 52"):
        Table(4, hand_sizes="listed", hand_list=[2, 14])


def test_a_hand_that_uses_every_card_has_no_trump() -> None:
    """Four hands of 13 leave no card to turn: no trump at once, and bidding starts."""
    table = Table(4, hand_sizes="listed", hand_list=[13])
    assert untimed(table.log[1:]) == [
        RoundStarted(NOW, 1, 0, (0, 1, 2, 3), 13),
        TrumpTurned(NOW, None, None),
        TurnChanged(NOW, 1),
    ]
    assert table.st.phase == "bidding" and table.st.trump is None
    rejected(table.trump("7H"), "already turned")


def test_jokers_count_when_a_hand_uses_every_card() -> None:
    """52 cards and two jokers make 54: three hands of 18 use them all, three of 17 leave a trump card."""
    assert Table(3, hand_sizes="listed", hand_list=[18], jokers_per_deck=2).st.phase == "bidding"
    assert Table(3, hand_sizes="listed", hand_list=[17], jokers_per_deck=2).st.phase == "trump"


def test_the_dealer_moves_left_each_hand() -> None:
    table = Table(4, dealer=2, hand_sizes="listed", hand_list=[1, 1, 1])
    for hand, dealer in enumerate([2, 3, 0], start=1):
        assert table.st.dealer == dealer
        assert table.ref.expects() == Expectation("trump-card", dealer, "turn up the trump card")
        table.trump("7C")
        assert table.ref.expects().seat == (dealer + 1) % 4
        table.bids(0, 0, 0, 0)
        table.play("2S 3S 4S 5S")
        assert of(table.log, RoundStarted)[hand - 1].dealer == dealer
    assert [r.dealer for r in of(table.log, RoundStarted)] == [2, 3, 0]


@pytest.mark.parametrize(("players", "dealer", "match"), [(2, 0, "3 to 51"), (52, 0, "3 to 51"), (4, 4, "dealer")])
def test_impossible_tables_are_refused(players: int, dealer: int, match: str) -> None:
    with pytest.raises(GameSetupError, match=match):
        Table(players, dealer=dealer)


# ================================================================ trump


@pytest.mark.parametrize(("code", "suit"), [("7H", "H"), ("2C", "C"), ("AS", "S"), ("KD", "D"), ("10H", "H")])
def test_the_turned_cards_suit_is_trump(code: str, suit: str) -> None:
    table = Table(4)
    assert untimed(table.trump(code)) == [TrumpTurned(NOW, parse_card(code), suit), TurnChanged(NOW, 1)]
    assert table.st.trump == suit and table.st.trump_card == parse_card(code)
    assert table.st.phase == "bidding"


@pytest.mark.parametrize(
    ("code", "suit"),
    [("AH", None), ("10S", None), ("JD", None), ("QC", None), ("KH", None)]
    + [(f"{rank}D", "D") for rank in range(2, 10)],
)
def test_no_trump_on_honours(code: str, suit: str | None) -> None:
    """The Screw Your Neighbour trick-taking rule sheet: an ace, ten or face card turned means no
    trump; 2 to 9 make their suit trump."""
    table = Table(5, preset="squares")
    assert one(table.trump(code), TrumpTurned).suit == suit
    assert table.st.trump == suit


@pytest.mark.parametrize("mode", ["turned", "no-trump-on-honours"])
def test_a_turned_joker_means_no_trump(mode: str) -> None:
    table = Table(4, trump=mode, jokers_per_deck=1)
    assert untimed(table.trump("RJ")) == [TrumpTurned(NOW, parse_card("RJ"), None), TurnChanged(NOW, 1)]


def test_a_joker_not_in_the_deck_cannot_be_turned() -> None:
    table = Table(4)
    rejected(table.trump("RJ"), "not in this game's deck")
    assert table.st.phase == "trump"


def test_a_second_trump_card_is_refused() -> None:
    table = Table(4)
    table.trump("7C")
    before = table.frozen()
    rejected(table.trump("8H"), "already turned")
    assert table.frozen() == before


def test_the_turned_card_cannot_be_played_from_one_deck() -> None:
    table = dealt(2)
    rejected(table.card("7C"), "already seen")


# ================================================================ bidding


def test_bidding_goes_clockwise_from_the_dealers_left() -> None:
    table = Table(4, dealer=2, hand_sizes="listed", hand_list=[2])
    assert one(table.trump("7C"), TurnChanged).seat == 3
    out = table.bids(1, 0, 2, 0)
    assert [b.seat for b in of(out, BidMade)] == [3, 0, 1, 2]
    assert [b.total for b in of(out, BidMade)] == [1, 1, 3, 3]
    assert table.st.bids == [0, 2, 0, 1]


def test_a_bid_out_of_turn_is_refused() -> None:
    table = Table(4, hand_sizes="listed", hand_list=[2])
    table.trump("7C")
    before = table.frozen()
    rejected(table.bid(2, 1), "not your turn to bid: seat 1 bids next")
    rejected(table.bid(0, 1), "seat 1")
    assert table.frozen() == before


def test_a_bid_above_the_hand_size_is_refused_and_the_hand_size_is_allowed() -> None:
    table = Table(4, hand_sizes="listed", hand_list=[2])
    table.trump("7C")
    rejected(table.bid(1, 3), "a bid is 0 to 2 tricks, not 3")
    assert table.st.bids == [None] * 4
    assert untimed(table.bid(1, 2)) == [BidMade(NOW, 1, 2, 2), TurnChanged(NOW, 2)]


def test_a_bid_without_a_number_is_refused() -> None:
    table = Table(4)
    table.trump("7C")
    rejected(table.bid(1, None), "not None")
    assert table.st.turn == 1


def test_the_dealer_may_not_make_the_bids_add_up() -> None:
    """The Game Rules for Screw Your Neighbor score sheet's example: one player bids 1 in a one-card
    hand, so the dealer may not bid 0."""
    table = Table(4)
    table.trump("7C")
    table.bids(1, 0, 0)
    assert table.ref.forbidden_bid() == 0
    assert table.ref.expects() == Expectation("bid", 0, "0 to 1, not 0")
    before = table.frozen()
    refusal = rejected(table.bid(0, 0), "the dealer may not bid 0")
    assert "1 trick" in refusal.reason and refusal.seat == 0
    assert table.frozen() == before
    assert untimed(table.bid(0, 1)) == [BidMade(NOW, 0, 1, 2), TurnChanged(NOW, 1)]


def test_the_dealers_other_bids_are_accepted() -> None:
    """The Screw Your Neighbour trick-taking rule sheet: ten cards, nine claimed, the dealer may not
    bid 1 but may bid anything else."""
    for bid in (0, 2, 10):
        table = Table(5, preset="squares")
        table.trump("7C")
        table.bids(3, 3, 2, 1)
        assert table.ref.forbidden_bid() == 1
        rejected(table.bid(0, 1), "may not bid 1")
        assert one(table.bid(0, bid), BidMade).bid == bid
        assert table.st.phase == "playing"


def test_only_the_dealer_has_a_forbidden_bid() -> None:
    table = Table(4, hand_sizes="listed", hand_list=[2])
    table.trump("7C")
    assert table.ref.forbidden_bid() is None
    table.bids(2)
    assert table.ref.forbidden_bid() is None
    assert table.ref.expects() == Expectation("bid", 2, "0 to 2")
    table.bids(0)  # seat 2 could bid 0 though 2 + 0 = 2: only the dealer is restricted
    table.bids(0)
    assert table.ref.forbidden_bid() == 0


def test_the_restriction_follows_the_dealer_to_the_next_hand() -> None:
    table = Table(4, hand_sizes="listed", hand_list=[1, 1])
    table.trump("7C")
    table.bids(0, 0, 0, 0)
    table.play("2S 3S 4S 5S")
    table.trump("8C")
    assert table.ref.expects().seat == 2
    table.bids(0, 0, 0)  # seats 2, 3 and 0: seat 0 is no longer the dealer
    assert table.ref.expects().seat == 1
    rejected(table.bid(1, 1), "the dealer may not bid 1")


def test_dealer_restriction_off_lets_the_bids_add_up() -> None:
    table = Table(4, dealer_restriction=False)
    table.trump("7C")
    table.bids(1, 0, 0)
    assert table.ref.forbidden_bid() is None
    assert table.ref.expects() == Expectation("bid", 0, "0 to 1")
    assert one(table.bid(0, 0), BidMade).total == 1


def test_no_forbidden_bid_when_the_others_already_bid_too_much() -> None:
    table = Table(4)
    table.trump("7C")
    table.bids(1, 1, 0)
    assert table.ref.forbidden_bid() is None
    assert one(table.bid(0, 0), BidMade).total == 2


def test_after_the_dealer_bids_the_dealers_left_leads_the_first_trick() -> None:
    table = Table(4, dealer=3, hand_sizes="listed", hand_list=[2])
    table.trump("7C")
    out = table.bids(0, 0, 0, 0)
    assert untimed(out[-2:]) == [BidMade(NOW, 3, 0, 0), TurnChanged(NOW, 0)]
    assert table.st.phase == "playing" and table.st.leader == 0 and table.st.trick_no == 1
    assert table.ref.expects() == Expectation("play", 0, "trick 1 of 2")
    assert one(table.card("5H"), CardPlayed).seat == 0


# ================================================================ tricks


@pytest.mark.parametrize(
    ("cards", "winner"),
    [
        ("5H 9H 2H KS", 2),  # highest of the led suit
        ("KH 5H AH 2D", 3),  # aces high
        ("2H AS KD QS", 1),  # off-suit cards never win, however high
        ("AH 3C 9C KH", 3),  # the highest trump beats the led ace
        ("AH KH 2C QH", 3),  # the lowest trump still wins
        ("5C 9H AH 2C", 1),  # a trump led beats everything else
        ("2S 3S 4S 5S", 0),  # the dealer plays last
    ],
)
def test_who_wins_a_trick(cards: str, winner: int) -> None:
    table = dealt(2)
    out = table.play(cards)
    assert untimed(out[-2:]) == [TrickWon(NOW, winner, 1, 1, ()), TurnChanged(NOW, winner)]
    assert table.st.tricks[winner] == 1 and sum(table.st.tricks) == 1


def test_with_no_trump_the_highest_of_the_led_suit_wins() -> None:
    table = Table(5, preset="squares", hand_sizes="listed", hand_list=[2])
    table.trump("AC")  # an honour: no trump
    table.bids(0, 0, 0, 0, 0)
    assert won(table.play("5H AS KC 9H 2H")).seat == 4


def test_cards_follow_the_turn_and_the_winner_leads_the_next_trick() -> None:
    table = dealt(2)
    seats = [one(table.card(code), CardPlayed).seat for code in ("5H", "9H", "2H", "KS")]
    assert seats == [1, 2, 3, 0]
    assert table.st.leader == 2 and table.st.turn == 2 and table.st.trick_no == 2
    assert table.ref.expects() == Expectation("play", 2, "trick 2 of 2")
    rejected(table.card("3D", seat=1), "not seat 1's turn: seat 2 plays next")
    out = table.card("3D", seat=2)
    assert untimed(out) == [CardPlayed(NOW, 2, parse_card("3D"), 1), TurnChanged(NOW, 3)]


def test_a_card_out_of_turn_changes_nothing() -> None:
    table = dealt(2)
    table.play("5H")
    before = table.frozen()
    rejected(table.card("9H", seat=3), "not seat 3's turn")
    assert table.frozen() == before


def test_a_card_seen_twice_from_one_deck_is_refused() -> None:
    table = dealt(2)
    table.play("5H 9H")
    rejected(table.card("5H"), "5H was already seen this deal (the only copy)")
    assert table.st.trick_cards == parse_cards("5H 9H")


def test_a_card_not_in_the_deck_is_refused() -> None:
    table = dealt(2)
    rejected(table.card("BJ"), "not in this game's deck")
    assert table.st.trick_cards == []


def test_the_hand_ends_after_its_last_trick() -> None:
    table = Table(4, hand_sizes="listed", hand_list=[2, 1])
    table.trump("7C")
    table.bids(0, 0, 0, 0)
    table.play("5H 9H 2H KS")
    out = table.play("3D 4D 5D 6D")  # led by seat 2: 6D is seat 1's
    assert won(out).seat == 1 and won(out).trick == 2
    assert one(out, HandScored).tricks == (0, 1, 1, 0)
    assert one(out, RoundStarted) == RoundStarted(table.t, 2, 1, (0, 1, 2, 3), 1)
    assert table.st.phase == "trump" and table.st.hand == 2
    assert table.st.seen == [] and table.st.tricks == [0, 0, 0, 0] and table.st.bids == [None] * 4
    table.trump("5H")  # a new deal: the cards of the last hand may be seen again
    assert table.st.trump == "H"


# ================================================================ several decks: cancellation


def test_identical_cards_cancel_and_the_next_best_card_wins() -> None:
    """The Screw Your Neighbour trick-taking rule sheet: two aces of hearts cancel, so the king of
    hearts takes the trick."""
    table = dealt(2, decks=2)
    out = table.play("AH KH AH 2H")
    assert untimed(out[-2:]) == [TrickWon(NOW, 2, 1, 1, tuple(parse_cards("AH AH"))), TurnChanged(NOW, 2)]


def test_identical_trumps_cancel_and_the_led_suit_wins() -> None:
    table = dealt(2, decks=2)
    assert won(table.play("5H 9C 9C 2H")).seat == 1


def test_cancelled_cards_that_would_not_win_still_cancel() -> None:
    table = dealt(2, decks=2)
    out = table.play("2H AH 2H 3H")
    assert won(out) == TrickWon(table.t, 2, 1, 1, tuple(parse_cards("2H 2H")))


def test_when_the_led_suit_and_trumps_all_cancel_the_highest_card_left_wins() -> None:
    """trick_winner's docstring: with every trump and led-suit card cancelled, rank alone decides."""
    table = dealt(2, decks=2)
    assert won(table.play("5H 5H 9D 3S")).seat == 3


def test_a_fully_cancelled_trick_is_led_again_and_goes_to_the_next_winner() -> None:
    table = dealt(2, decks=2)
    out = table.play("AH AH KS KS")
    assert untimed(out[-2:]) == [TrickCancelled(NOW, 1, 1), TurnChanged(NOW, 1)]
    assert table.st.carried == 1 and table.st.tricks == [0, 0, 0, 0]
    assert table.st.leader == 1 and table.st.trick_no == 2
    out = table.play("2D 5D 9D 3D")
    assert won(out) == TrickWon(table.t, 3, 2, 2, ())
    assert one(out, HandScored).tricks == (0, 0, 0, 2)


def test_two_fully_cancelled_tricks_go_together_to_the_next_winner() -> None:
    table = dealt(3, decks=2)
    table.play("AH AH KS KS")
    table.play("QD QD JD JD")
    assert table.st.carried == 2 and table.ref.expects().seat == 1
    out = table.play("2S 3S 4S 5S")
    assert won(out) == TrickWon(table.t, 0, 3, 3, ())
    assert one(out, HandScored).tricks == (3, 0, 0, 0)


def test_the_carried_trick_is_taken_once() -> None:
    table = dealt(3, decks=2)
    table.play("AH AH KS KS")
    assert won(table.play("2S 3S 4S 5S")).tricks == 2
    assert table.st.carried == 0
    assert won(table.play("2D 3D 4D 6D")).tricks == 1  # led by seat 0: 6D is seat 3's
    assert table.st.tricks == [2, 0, 0, 1]


def test_off_suit_cards_of_equal_rank_go_to_the_earliest() -> None:
    """docs/games/oh-hell.md: with the led suit cancelled, rank alone decides, the earliest card on equal ranks."""
    table = dealt(2, decks=2)
    assert won(table.play("5H 5H 9D 9S")).seat == 3


def test_a_fully_cancelled_last_trick_goes_to_nobody() -> None:
    """docs/games/oh-hell.md: a fully cancelled last trick of a hand is nobody's; the hand is scored without it."""
    table = dealt(1, decks=2)
    out = table.play("AH AH KS KS")
    assert not of(out, TrickWon)
    assert untimed(out[-3:-1]) == [
        TrickCancelled(NOW, 1, 1),
        HandScored(NOW, 1, (0, 0, 0, 0), (0, 0, 0, 0), (10, 10, 10, 10), (10, 10, 10, 10)),
    ]
    assert one(out, GameOver).winners == (0, 1, 2, 3)


def test_without_cancellation_the_first_of_identical_cards_wins() -> None:
    table = dealt(2, decks=2, cancellation=False)
    out = table.play("AH 5H AH 2H")
    assert won(out) == TrickWon(table.t, 1, 1, 1, ())
    table2 = dealt(2, decks=2, cancellation=False)
    assert won(table2.play("2H AH KH AH")).seat == 2


def test_a_card_seen_more_often_than_the_decks_hold_it_is_refused() -> None:
    table = dealt(2, decks=2)
    table.play("AH AH 2H 3H")
    assert table.ref.expects().seat == 0
    rejected(table.card("AH"), "AH was already seen this deal (all 2 copies)")
    assert table.st.trick_cards == []


def test_the_turned_card_counts_among_the_copies() -> None:
    table = dealt(2, decks=2, trump="7C")
    table.play("7C")
    rejected(table.card("7C"), "all 2 copies")


# ================================================================ jokers


def test_a_joker_is_a_zero_of_the_led_suit() -> None:
    """The Screw Your Neighbour trick-taking rule sheet: the joker is lower than the 2 of the led suit."""
    table = dealt(2, jokers_per_deck=2)
    assert won(table.play("2H RJ 3S 4D")).seat == 1


def test_a_led_joker_takes_the_suit_of_the_next_card() -> None:
    table = dealt(2, jokers_per_deck=2)
    assert won(table.play("RJ 5S 9S KD")).seat == 3


def test_a_led_joker_loses_to_the_two_of_the_suit_it_takes() -> None:
    table = dealt(2, jokers_per_deck=2)
    assert won(table.play("BJ 2S 3D 4D")).seat == 2


def test_a_joker_led_before_a_trump_makes_trumps_the_led_suit() -> None:
    """The next card after a led joker is a trump: trumps are led, so a club must be followed."""
    table = dealt(2, jokers_per_deck=2)
    out = table.play("RJ 3C 9H AH")
    assert won(out).seat == 2
    assert table.st.voids["3"] == {"C": [1]} and table.st.voids["0"] == {"C": [1]}


def test_an_uncancelled_joker_beats_off_suit_cards() -> None:
    """With the led-suit cards cancelled the joker, still a card of the led suit, beats an off-suit ace."""
    table = dealt(2, decks=2, jokers_per_deck=1)
    assert won(table.play("5H 5H RJ AD")).seat == 3


def test_a_joker_of_the_trump_suit_loses_to_any_trump() -> None:
    table = dealt(2, jokers_per_deck=2)
    assert won(table.play("2C RJ AH KH")).seat == 1


def test_a_trick_of_jokers_goes_to_the_first_joker_that_did_not_cancel() -> None:
    """docs/games/oh-hell.md: two red jokers cancel, the black joker (seat 0's, played last) takes the trick."""
    table = dealt(2, players=3, decks=2, jokers_per_deck=2)
    out = table.play("RJ RJ BJ")
    assert won(out) == TrickWon(table.t, 0, 1, 1, tuple(parse_cards("RJ RJ")))
    assert table.st.voids == {}  # jokers claim nothing


def test_a_joker_never_fails_to_follow_suit() -> None:
    table = dealt(2, jokers_per_deck=2)
    table.play("5H RJ 9H 2H")  # seat 2's joker: no claim to have no hearts
    assert table.st.voids.get("2", {}) == {}
    out = table.play("3H 4H 6H 7H")  # seat 3 leads, seat 2 plays 7H
    assert not of(out, RevokeFound)


@pytest.mark.parametrize(
    ("cards", "trump", "cancellation", "winner"),
    [
        ("2H RJ", None, False, 0),
        ("RJ 2H", None, False, 1),
        ("RJ BJ", None, False, 0),  # only jokers: no suit, the first of equal cards wins
        ("5H 5H RJ AD", None, True, 2),
        ("5H 5H 9D 3S", "C", True, 2),
        ("AH AH KS KS", "C", True, None),
        ("AH AH KS KS", "C", False, 0),
        ("KH AH 3D 2D", "D", False, 2),
    ],
)
def test_trick_winner(cards: str, trump: str | None, cancellation: bool, winner: int | None) -> None:
    assert trick_winner(parse_cards(cards), trump, cancellation) == winner


# ================================================================ revokes


def revoke_table(**rules: Any) -> tuple[Table, list[Decision]]:
    """Seat 2 shows no heart in trick 1 (2S), then plays the king of hearts in trick 2.

    Trick 1: 5H 2S 9H 3H, seat 3 wins. Trick 2 from seat 3: 4D 6D 8D KH, seat 1 wins. Trick 3 from
    seat 1: 2C 4S 5C 6S, seat 3 wins. All bid 0: seat 0 and seat 2 make it.
    """
    table = dealt(3, **{"revoke_penalty": "points", **rules})
    out = table.play("5H 2S 9H 3H")
    assert table.st.voids["2"] == {"H": [1]}
    out = table.play("4D 6D 8D KH")
    return table, out


def test_playing_off_suit_claims_a_void() -> None:
    table = dealt(2)
    table.play("5H 2S 9C")
    assert table.st.voids["2"] == {"H": [1]} and table.st.voids["3"] == {"H": [1]}
    assert table.st.voids.get("1", {}) == {}


def test_a_card_of_a_suit_claimed_void_is_a_revoke() -> None:
    table, out = revoke_table()
    assert of(out, RevokeFound) == [RevokeFound(table.t, 2, 1, "H", 2, 10)]
    assert table.st.penalties == [0, 0, 10, 0]
    assert "H" not in table.st.voids["2"] and table.st.voids["2"] == {"D": [2]}


def test_a_points_revoke_costs_that_hands_score() -> None:
    table, _ = revoke_table()
    out = table.play("2C 4S 5C 6S")
    assert one(out, HandScored) == HandScored(table.t, 1, (0, 0, 0, 0), (0, 1, 0, 2), (10, 0, 0, 0), (10, 0, 0, 0))


def test_revoke_points_sets_the_penalty() -> None:
    table, out = revoke_table(revoke_points=3)
    assert one(out, RevokeFound).penalty == 3
    out = table.play("2C 4S 5C 6S")
    assert one(out, HandScored).points == (10, 0, 7, 0)


def test_a_flagged_revoke_costs_nothing() -> None:
    table, out = revoke_table(revoke_penalty="flag")
    assert of(out, RevokeFound) == [RevokeFound(table.t, 2, 1, "H", 2, 0)]
    out = table.play("2C 4S 5C 6S")
    assert one(out, HandScored).points == (10, 0, 10, 0)


def test_two_revokes_in_one_suit_are_both_flagged() -> None:
    table = dealt(3, revoke_penalty="points")
    table.play("5H 2S 9H 3H")  # seat 2 shows no heart; seat 3 wins
    table.play("4H 6H 8H 3S")  # seat 2 shows no heart again; seat 1 wins
    assert table.st.voids["2"] == {"H": [1, 2]}
    out = table.play("2D 7H")
    assert of(out, RevokeFound) == [RevokeFound(table.t, 2, 1, "H", 3, 10), RevokeFound(table.t, 2, 2, "H", 3, 10)]
    assert table.st.penalties == [0, 0, 20, 0]


def test_leading_a_suit_claimed_void_is_a_revoke() -> None:
    table = dealt(2, revoke_penalty="points")
    assert won(table.play("5H 2C 9H 3H")).seat == 2  # seat 2 trumps the hearts
    out = table.card("KH")
    assert of(out, RevokeFound) == [RevokeFound(table.t, 2, 1, "H", 2, 10)]


def test_a_trump_can_be_the_evidence() -> None:
    table = dealt(2, revoke_penalty="points")
    assert won(table.play("5C 2S 9C 3C")).seat == 3  # seat 2 shows no club when clubs are led
    out = table.play("4H 6H 8H 2C")
    assert of(out, RevokeFound) == [RevokeFound(table.t, 2, 1, "C", 2, 10)]
    assert won(out).seat == 2


def test_following_suit_is_no_revoke() -> None:
    table = dealt(2)
    out = table.play("5H 9H 2H KS") + table.play("3S 4H 5S 6S")  # seat 0 showed no heart, then plays spades
    assert not of(out, RevokeFound)
    assert table.st.penalties == [0, 0, 0, 0]


def test_no_false_revoke_after_a_led_joker() -> None:
    """The first card after a led joker sets the led suit; it claims nothing itself."""
    table = dealt(2, jokers_per_deck=2)
    out = table.play("RJ 5H 3S 7H")  # seat 3 shows no heart; seat 0's 7H wins
    assert won(out).seat == 0
    assert table.st.voids.get("2", {}) == {} and table.st.voids["3"] == {"H": [1]}
    out = table.play("2S 6S 8H 4S")  # seat 2 plays a heart on spades: a claim, no revoke
    assert not of(out, RevokeFound)
    assert table.st.voids["2"] == {"S": [2]}


def test_a_void_claimed_in_one_hand_is_forgotten_in_the_next() -> None:
    table = Table(4, hand_sizes="listed", hand_list=[1, 1])
    table.trump("7C")
    table.bids(0, 0, 0, 0)
    table.play("5H 2S 9H 3H")  # seat 2 shows no heart
    table.trump("8C")
    table.bids(0, 0, 0, 0)
    assert table.st.voids == {}
    out = table.card("KH")  # seat 2 leads hand 2
    assert one(out, CardPlayed).seat == 2 and not of(out, RevokeFound)


# ================================================================ scoring


@pytest.mark.parametrize(
    ("scoring", "bid", "took", "points"),
    [
        ("bonus", 3, 3, 13),
        ("bonus", 0, 0, 10),
        ("bonus", 2, 1, 0),
        ("bonus", 0, 4, 0),
        ("squares", 2, 2, 14),
        ("squares", 0, 0, 10),
        ("squares", 4, 2, -4),
        ("squares", 1, 4, -9),
        ("tricks", 2, 2, 12),
        ("tricks", 1, 3, 3),
        ("tricks", 3, 1, 1),
        ("tricks", 0, 0, 10),
    ],
)
def test_score_of_one_bid(scoring: str, bid: int, took: int, points: int) -> None:
    assert Table(4, scoring=scoring).ref.score(bid, took) == points


@pytest.mark.parametrize(
    ("scoring", "points"), [("bonus", (0, 11, 10, 10)), ("squares", (-1, 11, 10, 10)), ("tricks", (1, 11, 10, 10))]
)
def test_a_hand_is_scored(scoring: str, points: tuple[int, ...]) -> None:
    """Seat 1 bids 1, seats 2 and 3 bid 0, the dealer 2; seat 1 and the dealer take a trick each."""
    table = dealt(2, bids=(1, 0, 0, 2), scoring=scoring)
    table.play("AH 2H 3H 4H")
    out = table.play("2D 3D 5D KD")
    assert untimed(of(out, HandScored)) == [HandScored(NOW, 1, (2, 1, 0, 0), (1, 1, 0, 0), points, points)]
    assert table.st.totals == list(points)


def play_two_one_card_hands(hand2: str) -> Table:
    """Hand 1: bids 1 0 0 1, seat 1 takes the ace. Hand 2 (dealer 1): all bid 0, ``hand2`` from seat 2."""
    table = Table(4, hand_sizes="listed", hand_list=[1, 1])
    table.trump("7C")
    table.bids(1, 0, 0, 1)
    out = table.play("AH 2H 3H 4H")
    assert one(out, HandScored).totals == (0, 11, 10, 10)
    assert not of(out, GameOver) and not table.ref.finished
    table.trump("8C")
    table.bids(0, 0, 0, 0)
    table.play(hand2)
    return table


def test_totals_add_up_and_the_highest_total_wins() -> None:
    table = play_two_one_card_hands("AS 2S 3S 4S")  # seat 2 takes a trick it did not bid
    assert one(table.log[-2:], HandScored).points == (10, 10, 0, 10)
    assert untimed(table.log[-1:]) == [GameOver(NOW, (1,), (10, 21, 10, 20), "highest total after 2 hands")]
    assert table.st.phase == "over" and table.st.winners == [1] and table.ref.finished
    assert table.ref.expects() == Expectation("none", None, "game over")


def test_tied_highest_totals_are_joint_winners() -> None:
    table = play_two_one_card_hands("2S 3S 4S 5S")  # seat 1, the dealer, takes the trick
    game_over = one(table.log, GameOver)
    assert game_over.winners == (2, 3) and game_over.scores == (10, 11, 20, 20)
    assert table.st.winners == [2, 3]


# ================================================================ bad input changes nothing


def test_a_bid_while_cards_are_played_is_refused() -> None:
    table = dealt(2)
    table.play("5H")
    before = table.frozen()
    rejected(table.bid(2, 1), "no bids now: waiting for play")
    assert table.frozen() == before


def test_a_card_before_the_trump_card_is_refused() -> None:
    table = Table(4)
    before = table.frozen()
    rejected(table.card("5H"), "no cards to the pile now: waiting for trump-card")
    rejected(table.bid(1, 0), "no bids now")
    assert table.frozen() == before


def test_a_card_during_bidding_is_refused() -> None:
    table = Table(4)
    table.trump("7C")
    table.bids(0)
    before = table.frozen()
    rejected(table.card("5H"), "waiting for bid")
    assert table.frozen() == before


@pytest.mark.parametrize("action", ["pass", "keep", "trade", "Bid"])
def test_an_unknown_action_is_refused(action: str) -> None:
    """Even from the seat whose turn it is, with a bid it could make."""
    table = Table(4)
    table.trump("7C")
    before = table.frozen()
    rejected(table.bid(1, 1, action=action), f"takes bids, not {action!r}")
    assert table.frozen() == before


def test_an_unknown_zone_is_refused() -> None:
    table = dealt(2)
    before = table.frozen()
    rejected(table.card("5H", zone="discard"), "zone 'discard'")
    assert table.frozen() == before


def test_an_event_out_of_time_order_is_refused() -> None:
    table = Table(4)
    table.trump("7C")
    snap = table.ref.snapshot()
    rejected(table.send(SeatAction(table.t - 1, "gpio", 1, "bid", 0)), "out of order")
    rejected(table.send(CardSeen(table.t - 1, "camera", parse_card("5H"), "pile")), "out of order")
    assert table.ref.snapshot() == snap
    assert of(table.send(SeatAction(table.t, "gpio", 1, "bid", 0)), BidMade)  # the same time is in order


def test_a_seat_that_does_not_exist_is_refused() -> None:
    table = Table(4)
    table.trump("7C")
    before = table.frozen()
    rejected(table.bid(4, 0), "seat 4 does not exist at a table of 4")
    assert table.frozen() == before
    table.bids(0, 0, 0, 0)
    before = table.frozen()
    rejected(table.card("5H", seat=7), "seat 7 does not exist")
    assert table.frozen() == before


def test_presses_and_cards_leaving_change_nothing() -> None:
    table = dealt(2)
    table.play("5H")
    before = table.frozen()
    for event in (
        ButtonPressed(table.tick(), "gpio", 2),
        ButtonReleased(table.tick(), "gpio", 2),
        CardGone(table.tick(), "camera", "pile", None),
    ):
        assert table.send(event) == []
    assert table.frozen() == before


def test_a_command_is_refused_by_name_and_changes_nothing() -> None:
    table = dealt(2)
    table.play("5H")
    before = table.frozen()
    rejected(table.send(Command(table.tick(), "cli", "pause")), "takes no command 'pause'")
    assert table.frozen() == before


def test_nothing_is_taken_after_the_game_is_over() -> None:
    table = play_two_one_card_hands("AS 2S 3S 4S")
    before = table.frozen()
    rejected(table.bid(2, 0), "the game is over")
    rejected(table.card("5H"), "the game is over")
    rejected(table.trump("6H"), "the game is over")
    assert table.send(ButtonPressed(table.tick(), "gpio", 0)) == []
    assert table.frozen() == before
    assert table.ref.expects() == Expectation("none", None, "game over")


JUNK: list[tuple[str, Any]] = [
    ("bid-seat-9", lambda t: SeatAction(t, "gpio", 9, "bid", 0)),
    ("bid-too-big", lambda t: SeatAction(t, "gpio", 1, "bid", 40)),
    ("action-keep", lambda t: SeatAction(t, "gpio", 1, "keep", None)),
    ("card-zone-hand", lambda t: CardSeen(t, "camera", parse_card("5D"), "hand")),
    ("card-not-in-deck", lambda t: CardSeen(t, "camera", parse_card("RJ"), "pile")),
    ("card-seat-8", lambda t: CardSeen(t, "camera", parse_card("5D"), "pile", 8)),
    ("trump-joker", lambda t: CardSeen(t, "camera", parse_card("BJ"), "trump")),
    ("late", lambda t: SeatAction(t - 2 * STEP, "gpio", 1, "bid", 0)),
]


@pytest.mark.parametrize("phase", ["trump", "bidding", "playing", "over"])
@pytest.mark.parametrize(("name", "make"), JUNK, ids=[j[0] for j in JUNK])
def test_junk_in_every_phase_is_refused_and_changes_nothing(phase: str, name: str, make: Any) -> None:
    table = Table(4, hand_sizes="listed", hand_list=[1])
    if phase != "trump":
        table.trump("7C")
    if phase in ("playing", "over"):
        table.bids(0, 0, 0, 0)
    if phase == "over":
        table.play("2S 3S 4S 5S")
    assert table.st.phase == phase
    before = table.frozen()
    out = table.send(make(table.tick()))
    assert len(out) == 1 and isinstance(out[0], Rejected), out
    assert table.frozen() == before


# ================================================================ presets and rules


PRESETS: dict[str, tuple[int, dict[str, Any], list[int]]] = {
    # name: players, rules keys the preset must set, hand sizes
    "classic": (4, {"hand_sizes": "up", "trump": "turned", "scoring": "bonus", "decks": 1}, list(range(1, 13))),
    "tricks": (4, {"hand_sizes": "up", "scoring": "tricks"}, list(range(1, 13))),
    "squares": (
        5,
        {"hand_sizes": "down", "trump": "no-trump-on-honours", "scoring": "squares", "decks": 1},
        list(range(10, 0, -1)),
    ),
    "down-and-up": (5, {"hand_sizes": "down-up", "scoring": "squares"}, [*range(10, 0, -1), *range(2, 11)]),
    "big-table": (8, {"decks": 2, "cancellation": True, "scoring": "squares"}, list(range(12, 0, -1))),
    "jokers": (8, {"decks": 2, "jokers_per_deck": 2, "scoring": "squares"}, list(range(13, 0, -1))),
}


def test_the_expected_presets_are_shipped() -> None:
    assert set(shipped_presets("oh-hell")) == set(PRESETS)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_shipped_preset_sets_up_its_seed(name: str) -> None:
    players, keys, sizes = PRESETS[name]
    setup = setup_game("oh-hell", name)
    assert setup.players == players and setup.preset == name
    for key, value in keys.items():
        assert setup.rules[key] == value, key
    ref = setup.referee()
    assert isinstance(ref, OhHellReferee)
    out = ref.start(0)
    assert one(out, GameStarted).hand_sizes == (sizes[0],) * players
    assert ref.state.sizes == sizes
    assert ref.expects() == Expectation("trump-card", 0, "turn up the trump card")


def test_the_defaults_are_seed_001() -> None:
    r = OhHellRules()
    assert (r.hand_sizes, r.trump, r.scoring, r.dealer_restriction) == ("up", "turned", "bonus", True)
    assert build_rules(OhHellRules, load_preset("oh-hell", "classic").values) == r


@pytest.mark.parametrize(
    ("values", "match"),
    [
        ({"hand_list": [3, 2]}, "'hand_list' needs hand_sizes"),
        ({"hand_sizes": "listed"}, "'hand_list'"),
        ({"hand_sizes": "listed", "hand_list": [2, 0]}, "'hand_list'"),
        ({"hand_sizes": "listed", "hand_list": [2], "max_hand": 3}, "'max_hand'"),
        ({"hand_sizes": "listed", "hand_list": "3"}, "'hand_list'"),
        ({"trumps": "turned"}, "unknown rules key 'trumps' \\(did you mean 'trump'\\?\\)"),
        ({"decks": "two"}, "'decks'"),
        ({"decks": 9}, "'decks'"),
        ({"decks": 0}, "'decks'"),
        ({"jokers_per_deck": 3}, "'jokers_per_deck'"),
        ({"cancellation": 1}, "'cancellation'"),
        ({"dealer_restriction": "yes"}, "'dealer_restriction'"),
        ({"max_hand": True}, "'max_hand'"),
        ({"max_hand": -1}, "'max_hand'"),
        ({"scoring": "golf"}, "'scoring'"),
        ({"hand_sizes": "sideways"}, "'hand_sizes'"),
        ({"trump": "spades"}, "'trump'"),
        ({"revoke_penalty": "exile"}, "'revoke_penalty'"),
        ({"revoke_points": -1}, "'revoke_points'"),
    ],
)
def test_rules_conflicts_are_refused_naming_the_key(values: dict[str, Any], match: str) -> None:
    with pytest.raises(RulesError, match=match):
        setup_game("oh-hell", None, values, 4)


def test_an_unknown_preset_is_refused() -> None:
    with pytest.raises(RulesError, match="unknown oh-hell preset 'bridge'"):
        setup_game("oh-hell", "bridge")


# ================================================================ snapshot and restore


def test_a_restored_snapshot_continues_identically() -> None:
    """Mid-trick, with a fully cancelled trick carried and a void claimed; on to the next hand."""
    table = dealt(3, 1, decks=2)
    table.play("AH AH KS KS")
    table.play("5H 2S")
    snap = json.loads(json.dumps(table.ref.snapshot()))
    copy = OhHellReferee.restore(snap)
    assert copy.snapshot() == table.ref.snapshot()
    codes = ("9H", "3H", "4D", "6D", "8D", "KH")
    later: list[Event] = [
        CardSeen(table.t + (i + 1) * STEP, "camera", parse_card(c), "pile") for i, c in enumerate(codes)
    ]
    t = table.t + 10 * STEP
    later += [CardSeen(t, "camera", parse_card("3C"), "trump")]
    later += [SeatAction(t + 1 + i, "gpio", seat, "bid", 0) for i, seat in enumerate([2, 3, 0, 1])]
    original = [d for e in later for d in table.ref.handle(e)]
    restored = [d for e in later for d in copy.handle(e)]
    assert restored == original
    assert of(original, RevokeFound) and of(original, HandScored)
    assert [w.tricks for w in of(original, TrickWon)] == [2, 1]
    assert copy.snapshot() == table.ref.snapshot()


def test_restore_refuses_a_snapshot_of_another_game() -> None:
    snap = Table(4).ref.snapshot()
    snap["game"] = "ers"
    with pytest.raises(GameSetupError, match="snapshot"):
        OhHellReferee.restore(snap)


def test_the_first_score_sheet_has_no_negative_points_so_a_revoke_is_flagged() -> None:
    table = dealt(3, preset="classic")
    table.play("5H 2S 9H 3H")
    out = table.play("4D 6D 8D KH")
    assert one(out, RevokeFound).penalty == 0
    assert min(one(table.play("2C 4S 5C 6S"), HandScored).points) >= 0


@pytest.mark.parametrize(("players", "decks"), [(5, 1), (6, 2), (7, 2)])
def test_the_second_rule_sheet_adds_a_deck_for_more_than_five_players(players: int, decks: int) -> None:
    table = Table(players, preset="squares")
    assert table.ref.rules.decks == decks and sum(table.ref.copies.values()) == 52 * decks


def test_the_players_declare_the_game_over_and_the_hands_scored_decide() -> None:
    """The second rule sheet leaves when the game is over to the players: the hand under way
    counts for nothing."""
    table = dealt(1, 1)
    table.play("5H 2S 9H 3H")  # hand 1 scored; hand 2 dealt
    totals = tuple(table.st.totals)
    out = table.send(Command(table.tick(), "command", END))
    over = one(out, GameOver)
    assert over.scores == totals and over.winners == tuple(s for s in range(4) if totals[s] == max(totals))
    assert over.reason == "ended by the players: highest total after 1 hand"
