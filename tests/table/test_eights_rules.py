"""The shedding-game referee (Screw Your Neighbour as Crazy Eights) against hand-built situations.

A ``Game`` sets a game up with four players, the dealer at seat 0, so seat 1 plays first. Cards
on the pile are the plays of the seat whose turn it is; the clock moves 2 s between inputs, more
than the match window, unless a test lays cards together (``together``). Most tests put the game
straight into play on a chosen top card (``Game.on``) with the dealer's option and safe cards
as the rules say.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table.cards import parse_card
from table.decisions import CardPlayed, CountCorrected, Decision, GameOver, Rejected, TurnChanged, TurnSkipped
from table.events import CardGone, CardSeen, SeatAction
from table.games import setup_game
from table.games.eights.decisions import (
    CardsDrawn,
    CardTurned,
    ChoiceMade,
    ChoiceOffered,
    DirectionChanged,
    DrawOwed,
    HandRenewed,
    HandsPassed,
    HandsSwapped,
    LastCardCalled,
    LastCardCaught,
    MatchPlayed,
    Misplay,
    RoundWon,
    SafeCardTraded,
    SafeCardUsed,
    Shielded,
    StockReshuffled,
    TurnedCardTaken,
)
from table.games.eights.referee import CHOOSE, OVER, PLAY, EightsReferee
from table.referee import Expectation, GameSetupError
from table.rules import RulesError
from tests.decision_helpers import NOW, of, one, untimed

S = 1_000_000_000
ALL = 108


class Game:
    def __init__(self, players: int = 4, **rules: Any) -> None:
        self.setup = setup_game("eights", None, rules, players)
        self.ref: EightsReferee = self.setup.referee()  # type: ignore[assignment]
        self.t = 0
        self.log: list[Decision] = self.ref.start(0)

    @property
    def st(self) -> Any:
        return self.ref.state

    def _feed(self, event: Any) -> list[Decision]:
        out = self.ref.handle(event)
        self.log += out
        return out

    def card(self, code: str, gap: float = 2.0, zone: str = "pile") -> list[Decision]:
        """A card seen on the pile ``gap`` seconds after the last input, with the window settled."""
        self.t += int(gap * S)
        out = self._feed(CardSeen(self.t, "camera", parse_card(code), zone))
        return out + self.settle()

    def together(self, *codes: str) -> list[Decision]:
        """Cards laid as one play: seen 100 ms apart, then the window passes."""
        out: list[Decision] = []
        for i, code in enumerate(codes):
            self.t += int((2.0 if i == 0 else 0.1) * S)
            out += self._feed(CardSeen(self.t, "camera", parse_card(code), "pile"))
        return out + self.settle()

    def settle(self) -> list[Decision]:
        out = self.ref.advance(self.t + S)
        self.log += out
        return out

    def act(self, seat: int, action: str, value: int | None = None) -> list[Decision]:
        self.t += 2 * S
        return self._feed(SeatAction(self.t, "buttons", seat, action, value))

    def gone(self, zone: str = "pile", seat: int | None = None) -> list[Decision]:
        self.t += 2 * S
        return self._feed(CardGone(self.t, "camera", zone, None, seat))

    def on(self, code: str) -> list[Decision]:
        """Turn ``code`` up and have the dealer leave it: play starts with seat 1 (or as it says)."""
        out = self.card(code)
        if self.st.phase != PLAY:
            out += self.act(0, "leave")
        return out

    def conserved(self) -> bool:
        return self.ref.card_count() == sum(self.ref.copies.values())  # ALL with the default two decks


def rejected(out: list[Decision], match: str = "") -> Rejected:
    assert len(out) == 1 and isinstance(out[0], Rejected), f"expected a refusal, got {out}"
    assert match in out[0].reason, f"{match!r} not in {out[0].reason!r}"
    return out[0]


def same(d: Decision) -> Decision:
    """``d`` with its timestamp zeroed, to compare with one written at ``NOW``."""
    return untimed([d])[0]


def turn(out: list[Decision]) -> int:
    return of(out, TurnChanged)[-1].seat


# ====================================================================== the deal and the turned card


def test_the_deal_gives_eight_cards_with_one_laid_safe_and_the_rest_is_the_stock() -> None:
    g = Game()
    assert g.st.hands == [7, 7, 7, 7] and g.st.safe == [True] * 4 and g.st.stock == ALL - 32
    assert g.ref.expects().action == "turn-up" and g.conserved()
    out = g.card("5H")
    assert one(out, CardTurned).card == parse_card("5H") and turn(out) == 0  # the dealer's option
    assert g.st.stock == ALL - 33 and g.conserved()
    out = g.act(0, "leave")
    assert turn(out) == 1 and g.ref.expects().action == "play"


def test_the_dealer_may_take_the_turned_card_and_discard_any_card_whose_function_applies() -> None:
    g = Game()
    g.card("5H")
    assert one(g.gone(), TurnedCardTaken).seat == 0 and g.st.hands[0] == 8
    out = g.card("2C")  # any card, even one that does not match: a two, so seat 1 owes two
    assert one(out, CardPlayed).seat == 0 and g.st.hands[0] == 7
    assert same(one(out, DrawOwed)) == DrawOwed(NOW, 1, 2, 0, "two") and turn(out) == 1 and g.conserved()


def test_a_turned_joker_goes_to_the_dealer() -> None:
    g = Game()
    g.card("RJ")
    assert g.ref.expects().action == "take" and g.ref.legal_actions()[0] == {"take", "red-aces"}
    rejected(g.act(0, "leave"), "a turned joker goes to the dealer")
    g.gone()
    g.card("9D")
    assert g.st.hands[0] == 7 and g.st.match == parse_card("9D") and g.st.turn == 1 and g.conserved()
    g = Game()
    g.card("BJ")
    out = g.card("9D")  # the camera missed the joker taken: the card on the pile is the discard
    assert one(out, TurnedCardTaken) and one(out, CardPlayed).seat == 0 and g.st.hands[0] == 7 and g.conserved()


@pytest.mark.parametrize(
    ("code", "first", "owed"),
    [("2H", 1, (2, 0)), ("QS", 1, (5, 0)), ("4D", 1, (0, 1)), ("JC", 3, (0, 0)), ("9C", 1, (0, 0))],
)
def test_special_cards_apply_to_the_turned_card(code: str, first: int, owed: tuple[int, int]) -> None:
    g = Game()
    out = g.on(code)
    assert turn(out) == first and (g.st.owed, g.st.skips) == owed  # a jack reverses: the dealer's right starts


def test_a_turned_card_is_only_a_card_when_the_rules_say_so() -> None:
    g = Game(turned_card_effects=False)
    assert turn(g.on("2H")) == 1 and g.st.owed == 0


def test_a_turned_eight_sets_the_suit_and_a_turned_black_ace_passes_the_hands() -> None:
    g = Game()
    g.on("8D")
    assert g.st.suit == "D" and g.st.phase == PLAY
    g = Game()
    g.st.hands = [7, 6, 5, 4]
    out = g.on("AS")
    assert one(out, HandsPassed).hands == (4, 7, 6, 5) and g.st.hands == [4, 7, 6, 5]  # to the left


def test_a_switch_on_the_turned_card_sends_the_hand_under_the_stock_for_eight_new_cards() -> None:
    g = Game()
    g.on("9C")
    g.st.hands[1] = 3
    g.st.hands[2] += 4  # keep the count whole: seat 1's four other cards are somewhere
    out = g.card("9C")  # seat 1 switches the turned card, which nobody played
    renewed = one(out, HandRenewed)
    assert (renewed.seat, renewed.returned, renewed.count) == (1, 2, 8) and turn(out) == 2
    assert g.st.hands[1] == 8 and g.conserved()


def test_the_dealers_discard_sets_rank_and_suit_so_is_no_joker_and_a_switch_on_it_renews_a_hand() -> None:
    """Seed: the dealer "may discard any of their own cards to determine rank and suit"; and
    whether the card is left or the dealer's, a switch on it takes eight fresh cards."""
    g = Game()
    g.card("5H")
    g.gone()
    out = g.card("RJ")
    assert one(out, Misplay).seat == 0 and g.st.hands[0] == 8 and g.st.pile == []
    g.gone()  # taken back
    g.card("9D")
    assert g.st.match == parse_card("9D") and g.st.turn == 1 and g.conserved()
    g.st.hands[1] = 3
    g.st.hands[2] += 4
    renewed = one(g.card("9D"), HandRenewed)  # seat 1 switches the dealer's discard
    assert (renewed.seat, renewed.count) == (1, 8) and g.st.hands[1] == 8 and g.conserved()


# ====================================================================== matching, drawing, passing


def test_a_card_must_match_the_rank_or_suit_and_a_misplay_is_taken_back() -> None:
    g = Game()
    g.on("9C")
    out = g.card("5H")
    assert (
        isinstance(out[0], Misplay) and out[0].reason == "5H does not go on 9C: it takes clubs or a 9, an 8 or a joker"
    )
    assert g.st.hands[1] == 7 and g.st.turn == 1 and g.st.pile == [parse_card("9C")]
    assert turn(g.card("9H")) == 2  # by rank
    assert turn(g.card("3H")) == 3  # by suit
    assert g.conserved()


def test_an_eight_goes_on_anything_and_its_player_chooses_the_suit() -> None:
    g = Game()
    g.on("9C")
    out = g.card("8H")
    offered = one(out, ChoiceOffered)
    assert offered.seat == 1 and offered.options == ("clubs", "diamonds", "hearts", "spades")
    assert offered.default == "hearts" and g.st.phase == CHOOSE
    out = g.act(1, "taps", 4)
    assert one(out, ChoiceMade).option == "spades" and g.st.suit == "S" and turn(out) == 2
    assert isinstance(g.card("5H")[0], Misplay)
    assert turn(g.card("5S")) == 3


def test_a_choice_not_made_takes_its_default_when_the_next_player_plays() -> None:
    g = Game()
    g.on("9C")
    g.card("8H")
    out = g.card("4H")  # seat 2 plays on without waiting: seat 1 kept hearts
    assert one(out, ChoiceMade).option == "hearts" and one(out, CardPlayed).seat == 2


def test_drawing_then_playing_or_passing() -> None:
    g = Game()
    g.on("9C")
    rejected(g.act(1, "pass"), "draw a card before passing")
    out = g.act(1, "hold")  # a long press: draw
    assert same(one(out, CardsDrawn)) == CardsDrawn(NOW, 1, 1, "draw", 9) and g.st.stock == ALL - 34
    rejected(g.act(1, "draw"), "one card a turn")
    assert turn(g.act(1, "hold")) == 2  # a second long press: pass
    g.act(2, "draw")
    assert turn(g.card("9S")) == 3  # the drawn card played
    rejected(g.act(1, "draw"), "not your turn")
    assert g.conserved()


# ====================================================================== matches and switches


def test_two_identical_cards_laid_together_are_one_play_and_beyond_the_window_a_switch() -> None:
    g = Game()
    g.on("9C")
    out = g.together("5C", "5C")
    assert one(out, MatchPlayed).natural and turn(out) == 2 and g.st.hands[1] == 5
    g = Game(switch_safe_trade=False)
    g.on("9C")
    g.card("5C")
    out = g.card("5C")  # seat 2, two seconds later: a switch with seat 1
    assert same(one(out, HandsSwapped)) == HandsSwapped(NOW, 2, 1, 7, 7) and turn(out) == 3


def test_a_switch_swaps_hands_or_trades_for_the_safe_card() -> None:
    g = Game()
    g.on("9C")
    g.card("5C")  # seat 1 now holds 6 and its safe card
    out = g.card("5C")  # seat 2 switches
    offered = one(out, ChoiceOffered)
    assert (offered.choice, offered.options) == ("switch", ("hands", "safe-card"))
    out = g.act(2, "taps", 1)
    assert one(out, HandsSwapped) and g.st.hands[1:3] == [6, 6] and turn(out) == 3
    g = Game()
    g.on("9C")
    g.card("5C")
    g.card("5C")
    out = g.act(2, "taps", 2)  # the safe card is lost, the card given for it held
    assert same(one(out, SafeCardTraded)) == SafeCardTraded(NOW, 2, 1) and g.st.hands[1:3] == [7, 6]
    assert g.st.safe[1:3] == [False, True] and g.conserved()
    g = Game(safe_trade_gives="safe")
    g.on("9C")
    g.card("5C")
    g.card("5C")
    g.act(2, "taps", 2)  # the card given is laid face down in its stead
    assert g.st.hands[1:3] == [6, 6] and g.st.safe[1:3] == [True, True] and g.conserved()


def test_a_traded_safe_cards_place_emptying_is_the_exchange_and_later_the_card_taken_up() -> None:
    """Where the card given for a safe card is laid in its stead, the camera sees the place empty
    while it is: that is no safe card taken up. Emptying again later, it is."""
    g = Game(safe_trade_gives="safe")
    g.on("9C")
    g.card("5C")
    g.card("5C")
    g.act(2, "taps", 2)  # seat 2 trades a card of its hand for seat 1's safe card
    assert g.gone("seat", 1) == [] and g.st.safe[1] and g.st.hands[1] == 6
    out = g.gone("seat", 1)  # seat 1 takes up the card now lying there
    assert one(out, SafeCardUsed).seat == 1 and not g.st.safe[1] and g.st.hands[1] == 7
    assert g.conserved()


@pytest.mark.parametrize("order", [("9C", "RJ"), ("RJ", "9C")])
def test_a_switch_is_on_the_card_a_match_with_a_joker_counts_as_whichever_order_it_was_laid(order) -> None:
    g = Game()
    g.on("5C")
    g.card("7C")  # seat 1
    g.together(*order)  # seat 2: one play, the nine of clubs
    out = g.card("9C")  # seat 3: identical to it
    assert one(out, ChoiceOffered).choice == "switch" and one(out, ChoiceOffered).seat == 3


def test_a_switch_on_a_shielded_card_is_as_if_the_joker_were_not_there() -> None:
    g = Game()
    g.on("9C")
    g.card("2C")  # seat 1
    g.card("RJ")  # seat 2 shields: seat 1 draws the two
    out = g.card("2C")  # seat 3 plays the other two of clubs: a switch with seat 1, and a two
    assert one(out, ChoiceOffered).choice == "switch" and g.st.owed == 2
    g = Game()
    g.on("2H")
    g.card("RJ")  # seat 1 shields the turned two: the dealer draws
    out = g.card("2H")  # seat 2 switches the turned card: eight fresh cards
    assert one(out, HandRenewed).seat == 2 and g.conserved()


def test_a_joker_alone_is_a_switch_taking_on_the_function_of_the_card_under_it() -> None:
    g = Game()
    g.on("9C")
    g.st.hands[1] = 3
    g.st.hands[2] += 4
    g.card("4C")  # seat 1: seat 2 misses a turn...
    assert g.st.skips == 1
    out = g.card("BJ")  # ...unless it plays a four, and a joker on a four is one
    assert one(out, HandsSwapped).other == 1 and g.st.skips == 2 and turn(out) == 3
    g = Game(joker_alone="wild")
    g.on("9C")
    g.card("4C")
    assert not of(g.card("BJ"), HandsSwapped)


# ====================================================================== twos, jokers as shields, queens


def test_twos_make_the_next_player_draw_two_and_miss_a_turn_and_stack() -> None:
    g = Game()
    g.on("9C")
    out = g.card("2C")
    assert one(out, DrawOwed).draw == 2
    rejected(g.act(2, "pass"), "first draw 2")
    out = g.card("2H")  # stacked
    assert same(one(out, DrawOwed)) == DrawOwed(NOW, 3, 4, 0, "two")
    assert isinstance(g.card("9H")[0], Misplay)
    out = g.act(3, "hold")
    assert one(out, CardsDrawn).count == 4 and one(out, TurnSkipped).seat == 3 and turn(out) == 0
    assert g.st.hands[3] == 11 and g.conserved()


@pytest.mark.parametrize(("rules", "owed"), [({}, 4), ({"two_joker_draw": 6}, 6)])
def test_a_two_matched_with_a_joker(rules: dict[str, int], owed: int) -> None:
    g = Game(**rules)
    g.on("9C")
    g.together("2C", "RJ")
    assert g.st.owed == owed and g.st.turn == 2


def test_a_natural_pair_of_twos_may_split_the_draw_over_the_next_two_players() -> None:
    g = Game()
    g.on("9C")
    g.card("2C")  # seat 1
    out = g.together("2H", "2H")  # seat 2 stacks a natural pair: 2 + 4 = 6
    assert one(out, ChoiceOffered).options == ("all-to-next", "split")
    out = g.act(2, "taps", 2)
    assert same(one(out, DrawOwed)) == DrawOwed(NOW, 3, 3, 0, "two")
    rejected(g.act(0, "hold"), "not your turn")
    out = g.act(3, "hold")
    assert one(out, CardsDrawn).count == 3 and same(one(out, DrawOwed)) == DrawOwed(NOW, 0, 3, 0, "two")
    assert isinstance(g.card("2D")[0], Misplay)  # a share of a split is drawn or shielded, not stacked
    out = g.act(0, "hold")
    assert one(out, CardsDrawn).count == 3 and turn(out) == 1 and g.conserved()


def test_an_odd_split_gives_the_first_player_the_extra_card() -> None:
    g = Game()
    g.on("9C")
    g.together("2C", "2C")
    g.act(1, "choose", 2)
    assert (g.st.owed, g.st.owed_split) == (2, 2)
    g = Game(twos_draw=3)
    g.on("9C")
    g.together("2C", "2C")
    g.act(1, "choose", 2)
    assert (g.st.owed, g.st.owed_split) == (3, 3)
    g = Game()
    g.on("9C")
    g.card("2C")
    g.card("2H")  # 4
    g.card("2D")  # 6
    g.together("2S", "2S")  # a pair of 2S after 6 owed: 6 + 4 = 10, then split 5 and 5
    g.act(0, "choose", 2)
    assert (g.st.owed, g.st.owed_split) == (5, 5)
    g = Game(twos_draw=3)
    g.on("9C")
    g.card("2C")  # 3
    g.together("2H", "2H")  # 3 + 6 = 9: split 5 to the first player, 4 to the second
    g.act(2, "choose", 2)
    assert (g.st.owed, g.st.owed_split) == (5, 4)


def test_a_joker_shields_a_draw_onto_whoever_played_it() -> None:
    g = Game()
    g.on("9C")
    g.card("2C")  # seat 1
    g.card("2H")  # seat 2: seat 3 owes 4
    out = g.card("RJ")  # seat 3 shields
    assert same(one(out, Shielded)) == Shielded(NOW, 3, 2, 4)
    assert same(one(out, CardsDrawn)) == CardsDrawn(NOW, 2, 4, "shielded", 11)
    assert turn(out) == 0 and g.st.owed == 0 and g.st.match == parse_card("2H")
    assert turn(g.card("5H")) == 1  # as if the joker were not there


def test_the_queen_of_spades_makes_the_next_player_draw_five_or_ten_with_a_joker() -> None:
    g = Game()
    g.on("9S")
    assert g.card("QS") and g.st.owed == 5
    g = Game()
    g.on("9S")
    g.together("QS", "BJ")
    assert g.st.owed == 10
    g = Game()
    g.on("9S")
    out = g.together("QS", "QS")
    assert one(out, ChoiceOffered).choice == "pair" and g.st.owed == 10


def test_the_queen_and_two_of_spades_combine_in_the_variation() -> None:
    g = Game(spade_combo=True)
    g.on("9S")
    out = g.together("QS", "2S")
    assert one(out, MatchPlayed) and g.st.owed == 7
    g.card("2S")  # seat 2 stacks the two of spades on the queen
    assert g.st.owed == 9
    g = Game()
    g.on("9S")
    g.card("2S")
    assert isinstance(g.card("QS")[0], Misplay)  # not without the variation


# ====================================================================== fours, sevens, jacks, kings


def test_the_queen_of_spades_is_drawn_not_stacked_unless_the_rules_say() -> None:
    """Seed: only twos "add to the number of cards the next player must draw"."""
    g = Game()
    g.on("9S")
    g.card("QS")  # seat 1: seat 2 owes 5
    misplay = one(g.card("QS"), Misplay)
    assert misplay.seat == 2 and "stack" not in misplay.reason and g.st.owed == 5
    g = Game(queen_stacks=True)
    g.on("9S")
    g.card("QS")
    out = g.card("QS")  # stacked, and identical: a switch too
    assert g.st.owed == 10 and one(out, ChoiceOffered).choice == "switch"


def test_fours_skip_and_stack() -> None:
    g = Game()
    g.on("9C")
    g.card("4C")  # seat 1: seat 2 misses
    out = g.act(2, "hold")
    assert [d.seat for d in of(out, TurnSkipped)] == [2] and turn(out) == 3
    g = Game()
    g.on("9C")
    g.card("4C")
    g.together("4H", "4H")  # seat 2 passes it on doubled: three turns missed from seat 3
    out = g.act(3, "accept")
    assert [d.seat for d in of(out, TurnSkipped)] == [3, 0, 1] and turn(out) == 2


def test_a_natural_pair_of_sevens_is_a_bomb_and_the_next_player_may_send_it_back() -> None:
    g = Game()
    g.on("9C")
    out = g.together("7C", "7C")
    draws = of(out, CardsDrawn)
    assert [(d.seat, d.count, d.reason) for d in draws] == [(2, 3, "bomb"), (3, 3, "bomb"), (0, 3, "bomb")]
    assert turn(out) == 2  # no turn missed
    out = g.together("7H", "7H")  # seat 2 answers with a natural pair of its own
    assert [(d.seat, d.count, d.reason) for d in of(out, CardsDrawn)] == [(1, 3, "bomb-returned")]
    g = Game()
    g.on("9C")
    out = g.together("7C", "RJ")  # not natural: no bomb
    assert not of(out, CardsDrawn)


def test_a_jack_reverses_and_a_pair_of_jacks_does_not() -> None:
    g = Game()
    g.on("9C")
    out = g.card("JC")
    assert one(out, DirectionChanged).direction == -1 and turn(out) == 0
    out = g.together("JH", "JH")
    assert not of(out, DirectionChanged) and turn(out) == 3


def test_three_natural_kings_start_a_run_the_next_player_without_a_king_pays_for() -> None:
    g = Game()
    g.on("9C")
    g.card("KC")
    g.card("KH")
    out = g.card("KS")  # seat 3: the third king
    assert same(one(out, DrawOwed)) == DrawOwed(NOW, 0, 3, 0, "kings")
    g.card("KD")  # seat 0 plays a fourth
    out = g.act(1, "hold")  # seat 1 tries the stock
    assert one(out, CardsDrawn).reason == "king-try" and g.st.turn == 1
    assert g.ref.expects().action == "king-or-pass"  # no second try: a card, or pass and pay
    out = g.card("5D")  # a card that goes, then the four kings' cards
    assert same(one(out, CardsDrawn)) == CardsDrawn(NOW, 1, 4, "kings", 11) and turn(out) == 2 and g.st.kings == 0
    g = Game()
    g.on("9C")
    g.together("KC", "KC")
    g.card("KH")
    out = g.card("2H")  # straight on without trying: the two's draw stands, and three kings' cards
    assert [d.count for d in of(out, CardsDrawn)] == [3] and g.st.owed == 2
    g = Game()
    g.on("9C")
    g.card("KC")
    g.card("KH")
    g.together("KS", "RJ")  # a natural king laid with a joker: the third natural king
    assert g.st.kings == 3 and not of(g.log, CardsDrawn)


# ====================================================================== aces


def test_black_aces_pass_every_hand_but_the_safe_cards_on_in_the_direction_of_play() -> None:
    g = Game()
    g.on("9C")
    g.st.hands = [7, 6, 5, 4]
    out = g.card("AC")  # seat 1 (6 -> 5 once played)
    assert one(out, HandsPassed).hands == (4, 7, 5, 5) and g.st.safe == [True] * 4
    g = Game()
    g.on("9C")
    g.st.hands = [7, 6, 5, 4]
    out = g.together("AC", "BJ")  # a match: two seats on
    assert one(out, HandsPassed).hands == (5, 4, 7, 4)


def test_a_black_ace_switch_passes_and_swaps_in_the_order_its_player_chooses() -> None:
    g = Game()
    g.on("9C")
    g.st.hands = [7, 6, 5, 4]
    g.st.stock += 28 - 22  # the count kept whole
    g.card("AC")  # seat 1: the hands pass left
    before = list(g.st.hands)
    out = g.card("AC")  # seat 2 switches it
    assert one(out, ChoiceOffered).options == ("pass-first", "swap-first")
    out = g.act(2, "taps", 2)
    swapped = one(out, HandsSwapped)
    assert (swapped.seat, swapped.other) == (2, 1) and one(out, HandsPassed)
    assert sum(g.st.hands) == sum(before) - 1 and g.conserved()


def test_red_aces_let_the_dealer_swap_hands_when_claimed() -> None:
    g = Game()
    assert one(g.act(0, "taps", 1), ChoiceMade).choice == "red-aces"  # the dealer claims them at the deal
    g.on("9D")
    g.st.hands = [3, 7, 7, 7]
    g.card("9H")  # seat 1
    g.card("5H")  # seat 2
    g.card("6H")  # seat 3
    out = g.card("AH")  # the dealer
    assert one(out, ChoiceOffered).options == ("seat 1", "seat 2", "seat 3")
    out = g.act(0, "taps", 2)
    assert same(one(out, HandsSwapped)) == HandsSwapped(NOW, 0, 2, 7, 3) and turn(out) == 1
    g = Game()
    g.on("9D")
    g.card("AD")  # not the dealer, not claimed: an ordinary card
    assert g.st.phase == PLAY and g.st.turn == 2


def test_red_aces_are_not_claimed_by_others_or_after_play_starts() -> None:
    g = Game()
    rejected(g.act(1, "red-aces"), "only the dealer")
    g.on("9D")
    g.card("9H")
    rejected(g.act(0, "red-aces"), "only the dealer")
    g = Game()
    g.on("9D")
    g.act(1, "draw")  # seat 1 draws: play has started, though no card was laid
    rejected(g.act(0, "red-aces"), "before play starts")
    g = Game()
    g.on("9D")  # the turned card left: still before play
    assert one(g.act(0, "red-aces"), ChoiceMade).choice == "red-aces"


# ====================================================================== the stock runs out


def test_an_empty_stock_takes_the_pile_but_its_active_cards_and_the_dealer_gives_each_other_player_one() -> None:
    g = Game()
    g.on("9C")
    g.card("2C")  # seat 1
    g.card("2H")  # seat 2: seat 3 owes 4, the twos are active
    g.st.hands[0] += g.st.stock  # the stock is gone into the dealer's hand, say
    g.st.stock = 0
    out = g.act(3, "hold")
    reshuffled = one(out, StockReshuffled)
    assert reshuffled.cards == 1 and reshuffled.kept == (parse_card("2C"), parse_card("2H"))
    extra = [d for d in of(out, CardsDrawn) if d.reason == "reshuffle-extra"]
    assert [d.seat for d in extra] == [1, 2, 3] and [d.count for d in extra] == [1, 0, 0]
    assert one([d for d in of(out, CardsDrawn) if d.reason == "two"], CardsDrawn).count == 0
    assert g.conserved()


# ====================================================================== last card, going out, scores


def test_a_player_left_with_one_card_must_say_last_card_or_draw_two_when_caught() -> None:
    g = Game(safe_card=False)
    g.on("9C")
    g.st.hands[1] = 2
    g.st.stock -= 0
    g.card("5C")  # seat 1 holds one card
    out = g.act(3, "taps", 1)  # seat 3 taps: seat 1 did not say it
    assert same(one(out, LastCardCaught)) == LastCardCaught(NOW, 1, 3) and g.st.hands[1] == 3
    g = Game(safe_card=False)
    g.on("9C")
    g.st.hands[1] = 2
    g.card("5C")
    assert one(g.act(1, "taps", 1), LastCardCalled).seat == 1
    rejected(g.act(3, "challenge"), "nobody holds one card unannounced")


def test_last_card_may_be_said_as_the_card_goes_down() -> None:
    g = Game(safe_card=False)
    g.on("9C")
    g.st.hands[1] = 2
    assert one(g.act(1, "last-card"), LastCardCalled)
    g.card("5C")
    rejected(g.act(2, "challenge"), "nobody")
    rejected(g.act(2, "last-card"), "you hold 8 cards")


def test_the_first_player_out_of_cards_wins() -> None:
    g = Game(safe_card=False)
    g.on("9C")
    g.st.hands[1] = 1
    out = g.card("5C")
    won = one(out, RoundWon)
    assert won.seat == 1 and won.totals == (0, 1, 0, 0)
    assert one(out, GameOver).winners == (1,) and g.st.phase == OVER and g.ref.finished
    rejected(g.card("6C"), "the game is over")


def test_a_safe_card_counts_and_is_the_last_card_once_the_hand_is_gone() -> None:
    g = Game()
    g.on("9C")
    g.st.hands[1] = 1
    out = g.card("5C")  # the hand is empty: the safe card is now held
    assert one(out, SafeCardUsed).seat == 1 and g.st.hands[1] == 1 and not g.st.safe[1]
    assert g.ref.owes_call(1) and not g.ref.finished
    g = Game()
    g.on("9C")
    assert one(g.gone("seat", 1), SafeCardUsed) and g.st.hands[1] == 8 and g.conserved()
    g.card("5C")
    assert g.st.hands[1] == 7 and not g.st.safe[1]


def test_games_scored_by_cards_left_over_several_rounds() -> None:
    g = Game(safe_card=False, rounds=2, scoring="cards-left")
    g.on("9C")
    g.st.hands[1] = 1
    out = g.card("5C")
    assert one(out, RoundWon).points == (8, 0, 8, 8) and g.st.round == 2 and g.st.dealer == 1
    g.card("9H")  # round 2: seat 2 starts
    g.act(1, "leave")
    g.st.hands[2] = 1
    out = g.card("3H")
    over = one(out, GameOver)
    assert over.scores == (16, 8, 8, 16) and over.winners == (1, 2)


# ====================================================================== seat buttons, rules, snapshots


def test_taps_and_long_presses_mean_what_the_game_needs() -> None:
    g = Game()
    assert one(g.act(0, "taps", 2), ChoiceMade).choice == "red-aces"
    g.card("9C")
    assert turn(g.act(0, "hold")) == 1  # the dealer leaves the turned card
    assert one(g.act(1, "hold"), CardsDrawn).reason == "draw"
    rejected(g.act(2, "taps", 1), "nobody holds one card unannounced")


def test_cards_beyond_the_decks_and_zones_of_no_use_are_refused() -> None:
    g = Game(decks=2)
    g.on("9C")
    g.card("5C")
    g.card("5C")
    assert "already seen" in one(g.card("5C"), Rejected).reason
    rejected(g.card("6C", zone="trump"), "plays no part")


def test_rules_are_checked_by_name() -> None:
    for rules, says in (
        ({"hand_size": 0}, "'hand_size'"),
        ({"match_window_ms": -1}, "'match_window_ms'"),
        ({"match_window_ms": 100}, "matches need 200 ms"),
        ({"king_run": 1}, "'king_run'"),
        ({"decks": 1}, "switch and bomb need"),
        ({"spade_combo": True, "stacking": False}, "'spade_combo' needs stacking"),
        ({"bomb_draw": 30}, "'bomb_draw'"),
    ):
        with pytest.raises(RulesError, match=says):
            setup_game("eights", None, rules, 4)
    with pytest.raises(GameSetupError, match="3 to 13 players"):
        setup_game("eights", None, {}, 14)


def test_a_snapshot_mid_choice_restores_a_referee_that_decides_the_same() -> None:
    g = Game()
    g.on("9C")
    g.card("8H")
    copy = EightsReferee.restore(g.ref.snapshot())
    event = SeatAction(g.t + S, "buttons", 1, "taps", 3)
    assert copy.handle(event) == g.ref.handle(event)
    assert copy.snapshot() == g.ref.snapshot()


def test_a_player_out_of_cards_by_its_word_where_the_count_says_otherwise_has_won() -> None:
    g = Game(safe_card=False)
    g.on("9C")
    g.st.hands[1] = 1  # the referee still counts one card...
    g.st.hands[2] += 7  # (keeping the count whole: the missed cards went elsewhere)
    out = g.act(1, "out-of-cards")  # ...but the player has none: a card went down unseen
    assert one(out, CountCorrected).count == 1 and one(out, RoundWon).seat == 1 and g.conserved()
    g = Game(safe_card=False)
    g.on("9C")
    g.st.hands[1], g.st.hands[2] = 0, 14
    rejected(g.act(1, "out-of-cards"), "you hold no card by the count already")


# ====================================================================== found in review


def test_a_game_won_through_the_effects_of_a_last_eight_deals_the_next_with_whole_counts() -> None:
    g = Game(going_out="effects", rounds=2, safe_card=False)
    g.on("5C")
    g.st.stock += g.st.hands[1] - 1
    g.st.hands[1] = 1
    out = g.card("8H")  # the last card: no suit to choose with no card left
    assert not of(out, ChoiceOffered) and one(out, RoundWon).seat == 1
    g.card("9D")  # the next deal's turned card
    assert g.st.round == 2 and g.st.hands == [8, 8, 8, 8] and g.conserved()


def test_no_last_card_is_owed_while_the_play_may_still_be_a_match() -> None:
    g = Game(safe_card=False)
    g.on("9C")
    g.st.hands[1], g.st.hands[2] = 2, 14
    g.t += 2 * S
    g.ref.handle(CardSeen(g.t, "camera", parse_card("5C"), "pile"))  # the first of a pair
    rejected(g.ref.handle(SeatAction(g.t + S // 10, "buttons", 3, "challenge")), "nobody")
    out = g.ref.handle(CardSeen(g.t + S // 5, "camera", parse_card("5C"), "pile"))
    assert one(out, RoundWon).seat == 1


def test_no_last_card_is_owed_while_the_player_makes_the_choice_its_play_offered() -> None:
    """Its taps are the choice then: nobody catches it before it could say "last card"."""
    g = Game(safe_card=False)
    g.on("9H")
    g.st.hands[1], g.st.hands[2] = 2, 14
    g.card("8H")  # seat 1, one card left, chooses a suit
    rejected(g.act(3, "taps", 1), "nobody")
    assert one(g.act(1, "taps", 1), ChoiceMade).choice == "suit"
    assert one(g.act(1, "taps", 1), LastCardCalled).seat == 1


def test_the_dealer_owes_no_last_card_while_its_taps_are_the_red_aces() -> None:
    """A deal of two with the safe card not counted leaves everyone one card. At the deal the
    dealer's taps say the red aces: nobody catches it before play starts and it can speak."""
    g = Game(players=3, hand_size=2, last_card_counts_safe=False)
    assert one(g.act(0, "taps", 1), ChoiceMade).choice == "red-aces"
    assert one(g.act(1, "taps", 1), LastCardCalled).seat == 1
    caught = of(g.act(1, "taps", 1), LastCardCaught)
    assert [c.seat for c in caught] == [2]
    g.on("9C")
    assert one(g.act(2, "taps", 1), LastCardCaught).seat == 0  # in play, the dealer could have said it


def test_only_the_next_player_going_on_takes_a_choice_as_made() -> None:
    g = Game()
    g.on("9C")
    g.card("8H")  # seat 1 chooses a suit
    rejected(g.act(3, "hold"), "not your turn")
    assert g.st.phase == CHOOSE
    out = g.act(2, "hold")  # seat 2 goes on: hearts it is, and seat 2 draws
    assert one(out, ChoiceMade).option == "hearts" and one(out, CardsDrawn).seat == 2


def test_the_shares_of_a_split_draw_cannot_be_stacked() -> None:
    g = Game()
    g.on("9C")
    g.together("2C", "2C")
    g.act(1, "choose", 2)
    out = g.card("2H")
    assert isinstance(out[0], Misplay) and g.st.owed == 2 and g.st.owed_split == 2


def test_a_bomb_is_answered_by_the_next_player_or_not_at_all() -> None:
    g = Game()
    g.on("9C")
    g.together("7C", "7C")  # seat 1 bombs
    g.act(2, "draw")
    g.act(2, "pass")
    out = g.together("7H", "7H")  # seat 3: a bomb of its own, not an answer
    assert [d.reason for d in of(out, CardsDrawn)] == ["bomb"] * 3


def test_a_refused_accept_leaves_the_bomb_to_be_answered() -> None:
    g = Game()
    g.on("9C")
    g.together("7C", "7C")  # seat 1 bombs
    rejected(g.act(2, "accept"), "nothing to take")  # a stray input: nothing owed, nothing skipped
    out = g.together("7H", "7H")  # seat 2 still answers it
    assert [(d.seat, d.reason) for d in of(out, CardsDrawn)] == [(1, "bomb-returned")]


def test_a_card_refused_as_a_misreading_leaves_what_waits_as_it_was() -> None:
    """A card the decks cannot hold (or a copy too many) is shown again: the dealer's option, a
    play open to a match and a choice waiting are not moved on by it."""
    g = Game(jokers_per_deck=0)
    g.card("5H")
    rejected(g.card("RJ"), "not in this game's deck")
    assert g.ref.expects().action == "take-or-leave"
    assert one(g.gone(), TurnedCardTaken).seat == 0  # the dealer may still take it

    g = Game(jokers_per_deck=0)
    g.on("9C")
    g.t += 2 * S
    g._feed(CardSeen(g.t, "camera", parse_card("9H"), "pile"))
    rejected(g._feed(CardSeen(g.t + S // 10, "camera", parse_card("RJ"), "pile")), "not in this game's deck")
    out = g._feed(CardSeen(g.t + S // 5, "camera", parse_card("9H"), "pile")) + g.settle()
    assert one(out, MatchPlayed).cards == (parse_card("9H"), parse_card("9H"))  # still open to the match

    g = Game(jokers_per_deck=0)
    g.on("5C")
    g.card("8C")  # seat 1 names a suit
    assert g.st.phase == CHOOSE
    rejected(g.card("RJ"), "not in this game's deck")
    assert g.st.phase == CHOOSE
    assert one(g.act(1, "taps", 3), ChoiceMade).option == "hearts"  # the choice is still the player's


def test_a_card_no_count_can_account_for_is_shown_again() -> None:
    g = Game(safe_card=False)
    g.on("9C")
    g.st.hands[0] += g.st.stock + g.st.hands[1]
    g.st.stock, g.st.hands[1] = 0, 0
    out = g.card("5C")
    assert "holds no card and the stock is empty" in one(out, Rejected).reason and g.conserved()


def test_with_effects_first_a_seat_a_last_switch_leaves_with_no_card_has_won() -> None:
    g = Game(going_out="effects", safe_card=False, switch_safe_trade=False)
    g.on("9C")
    g.card("5C")  # seat 1
    g.st.hands[2], g.st.hands[3] = 1, g.st.hands[3] + g.st.hands[2] - 1
    out = g.card("5C")  # seat 2's last card, a switch: seat 1 takes its empty hand
    assert one(out, HandsSwapped) and one(out, RoundWon).seat == 1 and g.conserved()


def test_a_joker_shielding_a_turned_two_sends_the_draw_to_the_dealer() -> None:
    g = Game()
    g.on("2H")
    out = g.card("RJ")
    assert same(one(out, Shielded)) == Shielded(NOW, 1, 0, 2) and one(out, CardsDrawn).seat == 0


def test_a_match_of_eights_chooses_no_suit_unless_the_rules_say() -> None:
    g = Game()
    g.on("9C")
    assert not of(g.together("8H", "8H"), ChoiceOffered) and g.st.suit == "H"
    g = Game(eight_match_suit=True)
    g.on("9C")
    assert one(g.together("8H", "8H"), ChoiceOffered).choice == "suit"


def test_a_joker_alone_on_a_black_ace_chooses_the_order_and_no_joker_trades_for_a_safe_card() -> None:
    g = Game()
    g.on("9C")
    g.card("AC")  # seat 1
    assert one(g.card("BJ"), ChoiceOffered).choice == "order"  # seat 2
    g = Game()
    g.on("9C")
    g.card("5C")  # seat 1, who has a safe card
    out = g.together("5C", "RJ")  # seat 2: a switch with a joker in it swaps hands only
    assert one(out, HandsSwapped) and not of(out, ChoiceOffered)


CODES = ["9C", "5C", "2C", "2H", "4C", "7C", "8H", "JC", "QS", "KC", "AC", "AH", "RJ", "BJ", "3D", "9D"]
ACTIONS = ["taps", "hold", "draw", "pass", "accept", "choose", "last-card", "challenge", "leave", "red-aces", "dance"]
inputs = st.lists(
    st.one_of(
        st.tuples(st.just("card"), st.sampled_from(CODES), st.floats(0.05, 3.0)),
        st.tuples(st.just("action"), st.integers(0, 3), st.sampled_from(ACTIONS), st.integers(0, 6)),
        st.tuples(st.just("gone"), st.sampled_from(["pile", "seat"]), st.integers(0, 3)),
    ),
    max_size=120,
)


@settings(max_examples=150, deadline=None)
@given(
    steps=inputs,
    rules=st.sampled_from(
        [{}, {"going_out": "effects", "rounds": 2}, {"spade_combo": True}, {"dealer_option": False, "decks": 3}]
    ),
)
def test_any_inputs_in_any_order_never_break_the_referee_or_lose_a_card(steps: list, rules: dict) -> None:
    """Whatever the camera and the buttons say, in any phase, the referee answers with decisions
    (refusals among them), never an exception, and every card stays counted."""
    g = Game(**rules)
    for step in steps:
        if step[0] == "card":
            g.card(step[1], gap=step[2])
        elif step[0] == "action":
            g.act(step[1], step[2], step[3] or None)
        else:
            g.gone(step[1], step[2] if step[1] == "seat" else None)
        st_ = g.st
        assert g.conserved() and min(st_.hands) >= 0 and st_.stock >= 0 and st_.unseen >= 0
        assert (st_.phase == CHOOSE) == bool(st_.choices) or st_.phase == OVER


def test_a_tap_while_laying_a_match_leaves_the_play_open_and_a_long_press_closes_it() -> None:
    g = Game(safe_card=False)
    g.on("9C")
    g.t += 2 * S
    g.ref.handle(CardSeen(g.t, "camera", parse_card("5C"), "pile"))
    rejected(g.ref.handle(SeatAction(g.t + S // 10, "buttons", 1, "taps", 1)), "nobody")  # a challenge: none owed
    out = g.ref.handle(CardSeen(g.t + S // 5, "camera", parse_card("5C"), "pile"))
    assert one(out, MatchPlayed).seat == 1
    g = Game(safe_card=False)
    g.on("9C")
    g.t += 2 * S
    g.ref.handle(CardSeen(g.t, "camera", parse_card("5C"), "pile"))
    out = g.ref.handle(SeatAction(g.t + S // 10, "buttons", 1, "hold"))  # done: the play closes, nothing refused
    assert turn(out) == 2 and not of(out, Rejected)
    rejected(g.ref.handle(SeatAction(g.t + S // 5, "buttons", 1, "hold")), "not your turn")  # a second one is
    g = Game(safe_card=False)
    g.on("9C")
    g.t += 2 * S
    g.ref.handle(CardSeen(g.t, "camera", parse_card("8H"), "pile"))
    out = g.ref.handle(SeatAction(g.t + S // 10, "buttons", 1, "hold"))  # closed, and the suit's default taken
    assert one(out, ChoiceMade).seat == 1 and turn(out) == 2 and not of(out, Rejected)


def test_while_a_play_is_open_the_table_asks_its_player_for_a_match_or_a_long_press() -> None:
    """Seat 2 stacks a two on the two it owes for: until the window ends, the table waits on
    seat 2's match or its long press, not on its draw; the long press closes the play and passes
    the draw on, drawing nothing."""
    g = Game(players=3, safe_card=False)
    g.on("5H")
    g.card("2H")  # seat 1: seat 2 owes 2
    assert g.ref.expects().action == "draw-or-stack"
    assert g.ref.legal_actions()[2] == {"draw-or-stack"}  # "draw" is taken: the cards owed
    g.t += 2 * S
    g.ref.handle(CardSeen(g.t, "camera", parse_card("2C"), "pile"))  # seat 2 stacks
    assert g.ref.expects() == Expectation("match-or-done", 2, "lay a match, or hold: done")
    assert g.ref.legal_actions() == {2: {"match-or-done"}, 0: {"play"}}  # the next player's card closes it
    out = g.ref.handle(SeatAction(g.t + S // 10, "buttons", 2, "hold"))
    assert one(out, DrawOwed).seat == 0 and turn(out) == 0 and not of(out, CardsDrawn)


@pytest.mark.parametrize("action", ["draw", "pass", "accept"])
def test_any_going_on_that_closes_a_play_leaving_a_choice_takes_its_default_and_is_refused_nothing(action) -> None:
    """Not only a long press: any action of the player saying it goes on, while its play is
    open, closes it; the choice the play leaves it takes its default, and nothing is refused
    after the game has moved."""
    g = Game(safe_card=False)
    g.on("9C")
    g.t += 2 * S
    g.ref.handle(CardSeen(g.t, "camera", parse_card("8H"), "pile"))
    out = g.ref.handle(SeatAction(g.t + S // 10, "buttons", 1, action))
    assert one(out, ChoiceMade).seat == 1 and turn(out) == 2 and not of(out, Rejected)


def test_a_reshuffle_after_a_draw_is_taken_keeps_the_whole_latest_play() -> None:
    """The text keeps "the latest play" out of a reshuffle: after the draw it passed on is
    taken, a two matched with a joker stays whole (the joker counts as the two under it)."""
    g = Game(safe_card=False)
    g.on("9C")
    g.card("2C")  # seat 1
    g.together("2H", "RJ")  # seat 2: a two matched with a joker, stacked: seat 3 owes 6
    g.act(3, "hold")  # seat 3 draws its 6
    g.st.hands[1] += g.st.stock
    g.st.stock = 0
    out = g.act(0, "hold")  # seat 0 draws from a stock that must be reshuffled
    assert one(out, StockReshuffled).kept == (parse_card("2H"), parse_card("RJ")) and g.conserved()


def test_a_card_taken_back_before_the_reshuffle_s_active_cards_are_put_back_forgets_nothing() -> None:
    """After a reshuffle the pile is lifted and its active cards put back; a misplay laid and
    taken back in between does not make the card put back a play."""
    g = Game(safe_card=False)
    g.on("9C")
    g.card("2C")  # seat 1
    g.card("2H")  # seat 2: seat 3 owes 4, the twos are active
    g.st.hands[0] += g.st.stock
    g.st.stock = 0
    g.act(3, "hold")  # the stock is reshuffled: 2C and 2H are kept on the pile
    hands = list(g.st.hands)
    g.gone()  # the pile lifted
    assert of(g.card("5D"), Misplay)  # laid and taken back
    assert g.card("2C") == [] and g.card("2H") == []  # put back: no plays
    assert g.st.hands == hands and g.conserved()


# ====================================================================== counts kept whole


def test_a_safe_card_taken_up_while_a_switch_waits_cannot_be_traded_for() -> None:
    """Seat 2 switches seat 1's card and is offered the trade; before it chooses, seat 1 takes
    up its safe card (allowed at any time). The trade is refused, the hands may be swapped, and
    no card comes from nowhere."""
    g = Game()
    g.on("9C")
    g.card("5C")
    g.card("5C")  # seat 2 switches: the choice waits
    g.gone("seat", 1)  # seat 1 takes up its safe card
    out = g.act(2, "taps", 2)
    assert "taken up its safe card" in out[0].reason and one(out, ChoiceOffered).options == ("hands",)
    assert g.conserved() and g.st.hands[1] == 7
    out = g.act(2, "taps", 1)
    assert one(out, HandsSwapped) and g.conserved()


def test_three_active_fours_at_three_players_skip_everyone_once() -> None:
    g = Game(players=3)
    g.on("9C")
    g.card("4C")  # seat 1: one four
    g.together("4H", "4H")  # seat 2 passes it on doubled: three
    out = g.act(0, "accept")
    assert [d.seat for d in of(out, TurnSkipped)] == [0, 1, 2] and turn(out) == 0


def test_a_king_run_whose_draw_is_owed_stays_out_of_a_reshuffled_stock() -> None:
    g = Game()
    g.on("9C")
    g.card("KC")
    g.card("KH")
    g.card("KS")  # seat 3: the third king, seat 0 owes their cards
    g.st.hands[1] += g.st.stock  # the stock is gone into a hand, say
    g.st.stock = 0
    out = g.act(0, "hold")  # seat 0 tries the stock, and it is reshuffled
    kept = one(out, StockReshuffled).kept
    assert kept == tuple(parse_card(c) for c in ("KC", "KH", "KS")) and g.conserved()


@pytest.mark.parametrize(("preset", "switched"), [("screw-your-neighbour", True), ("no-joker-switch", False)])
def test_a_switch_with_a_joker_in_it_is_one_unless_the_text_is_read_literally(preset: str, switched: bool) -> None:
    g = Game()
    g.setup = setup_game("eights", preset, {}, 4)
    g.ref = g.setup.referee()  # type: ignore[assignment]
    g.log = g.ref.start(0)
    g.on("5C")
    g.card("9C")  # seat 1
    out = g.together("9C", "RJ")  # seat 2: the nine matched with a joker, identical to seat 1's
    assert bool(of(out, HandsSwapped)) is switched and not of(out, ChoiceOffered)
    out = g.card("RJ")  # seat 3: a joker alone
    assert bool(of(out, HandsSwapped)) is switched and g.conserved()


def test_the_literal_joker_reading_needs_a_joker_alone_to_be_wild() -> None:
    with pytest.raises(RulesError, match="joker_switch"):
        setup_game("eights", None, {"joker_switch": False}, 4)


def test_the_legal_actions_name_what_other_seats_may_do_meanwhile() -> None:
    """The text lets more than the player in turn act: the calls listed are taken, and the next
    player's card is its play."""
    g = Game(jokers_per_deck=0)
    g.card("5H")  # the dealer's option: the next player may play on, leaving the turned card
    assert g.ref.legal_actions() == {0: {"take-or-leave", "red-aces"}, 1: {"play"}}
    g.act(0, "leave")
    g.card("8H")  # seat 1 names a suit; seat 2 may go on, the choice taking its default
    assert g.ref.legal_actions() == {1: {"choose"}, 2: {"play"}}
    assert not of(g.card("5H"), Rejected)
    g.st.hands[3], g.st.safe[3] = 1, False  # seat 3 holds one card, not announced
    legal = g.ref.legal_actions()
    assert legal[3] >= {"last-card"} and all("challenge" in legal[s] for s in (0, 1, 2))
    assert one(g.act(0, "challenge"), LastCardCaught).seat == 3
    g.st.hands[3] = 1
    assert "last-card" in g.ref.legal_actions()[3] and one(g.act(3, "last-card"), LastCardCalled).seat == 3


def test_a_player_owing_cards_who_says_draw_draws_them() -> None:
    g = Game(players=3, safe_card=False)
    g.on("5H")
    g.card("2H")  # seat 2 owes two
    out = g.act(2, "draw")
    assert same(one(out, CardsDrawn)) == CardsDrawn(NOW, 2, 2, "two", 10) and turn(out) == 0


def test_the_player_who_plays_on_after_a_jack_is_the_one_its_reversal_makes() -> None:
    g = Game(jokers_per_deck=0)
    g.on("5C")
    g.t += 2 * S
    g._feed(CardSeen(g.t, "camera", parse_card("JC"), "pile"))  # seat 1's jack, open to a match
    assert g.ref.legal_actions()[0] == {"play"}  # the direction turns as the play closes
    out = g._feed(CardSeen(g.t + S // 10, "camera", parse_card("4C"), "pile"))  # not a match: the next play
    assert one(out, CardPlayed).seat == 0
    g = Game(jokers_per_deck=0)
    g.card("JD")  # a turned jack at the dealer's option
    assert g.ref.legal_actions()[3] == {"play"}
    assert one(g.card("5D"), CardPlayed).seat == 3


def test_a_misread_card_is_refused_to_the_player_who_would_have_laid_it() -> None:
    g = Game(jokers_per_deck=0)
    g.card("5H")  # the dealer's option: a card now is seat 1's, playing on
    assert rejected(g.card("RJ")).seat == 1
    g.act(0, "leave")
    g.card("8H")  # seat 1's eight: its suit to choose, seat 2 next
    assert rejected(g.card("RJ")).seat == 2


def test_a_draw_pass_or_accept_the_next_player_may_not_make_leaves_the_choice_waiting() -> None:
    g = Game(jokers_per_deck=0)
    g.on("5C")
    g.card("8C")  # seat 1 names a suit
    rejected(g.act(2, "pass"), "draw a card before passing")
    rejected(g.act(2, "accept"), "nothing to take")
    assert g.st.phase == CHOOSE and one(g.act(1, "taps", 3), ChoiceMade).option == "hearts"
