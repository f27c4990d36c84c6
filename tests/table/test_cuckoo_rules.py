"""The trading-game referee (Cuckoo, Chase the Ace, Screw Your Neighbor) against hand-built situations.

Every test sets a game up the way the table does (``setup_game``), feeds it seat decisions and
camera readings on a simple clock (``Table``) and checks the decisions, ``expects()`` and the
state. Decisions are compared without their timestamps (``untimed``, expectations written with
``NOW``) where the whole sequence is the point.

Seats are clockwise, "left" is the next seat up; with the dealer at seat 0 of four, the turns go
1, 2, 3 and the dealer (0) last. Sources: the 2020 "Screw Your Neighbor Card Game" article (its first
part) and pagat.com's Cuckoo page.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

from table.cards import parse_card
from table.decisions import (
    CardMismatch,
    Decision,
    GameOver,
    GameStarted,
    PlayerOut,
    Rejected,
    RoundStarted,
    TurnChanged,
    TurnSkipped,
)
from table.events import END, ButtonPressed, CardGone, CardSeen, Command, Event, SeatAction
from table.games import setup_game
from table.games.cuckoo.decisions import (
    AllOutTie,
    CardRevealed,
    CutCard,
    DealerDrew,
    Kept,
    KingShown,
    LifeLost,
    PointScored,
    RoundLost,
    TradeBlocked,
    Traded,
    TradingClosed,
)
from table.games.cuckoo.referee import CuckooReferee
from table.referee import Expectation, GameSetupError
from table.rules import RulesError, load_preset, shipped_presets
from tests.decision_helpers import NOW, of, one, untimed

# ====================================================================== helpers

STEP = 1_000


def game_state(ref: CuckooReferee) -> dict[str, Any]:
    """The snapshot without the clock (``last_t``), which any in-order event moves on."""
    snap = ref.snapshot()
    del snap["state"]["last_t"]
    return snap


class Table:
    """A cuckoo referee and a clock: every input is ``STEP`` ns after the previous one."""

    def __init__(self, players: int = 4, dealer: int = 0, preset: str | None = None, **rules: Any) -> None:
        self.setup = setup_game("cuckoo", preset, rules, players, dealer, 7)
        ref = self.setup.referee()
        assert isinstance(ref, CuckooReferee)
        self.ref = ref
        self.t = 0
        self.log: list[Decision] = ref.start(0)

    @property
    def st(self) -> Any:
        return self.ref.state

    def tick(self) -> int:
        self.t += STEP
        return self.t

    def send(self, event: Event) -> list[Decision]:
        out = self.ref.handle(event)
        self.log += out
        return out

    def act(self, seat: int, action: str) -> list[Decision]:
        return self.send(SeatAction(self.tick(), "gpio", seat, action))

    def keep(self, seat: int) -> list[Decision]:
        return self.act(seat, "keep")

    def trade(self, seat: int) -> list[Decision]:
        return self.act(seat, "trade")

    def show(self, seat: int, code: str) -> list[Decision]:
        """A card read face up on ``seat``'s zone (a king during trading, any card at the reveal)."""
        return self.send(CardSeen(self.tick(), "camera", parse_card(code), "seat", seat))

    def stock(self, code: str) -> list[Decision]:
        return self.send(CardSeen(self.tick(), "camera", parse_card(code), "stock"))

    def cut(self, seat: int, code: str) -> list[Decision]:
        return self.send(CardSeen(self.tick(), "camera", parse_card(code), "cut", seat))

    def keep_all(self) -> list[Decision]:
        """Everyone whose turn comes keeps, up to and including the dealer."""
        out: list[Decision] = []
        while self.ref.expects().action == "keep-or-trade":
            out += self.keep(self.ref.expects().seat)  # type: ignore[arg-type]
        return out

    def reveal(self, cards: dict[int, str] | str) -> list[Decision]:
        """Read cards at the seats: a dict, or codes for the dealt seats in seat order."""
        if isinstance(cards, str):
            cards = dict(zip(self.st.seats, cards.split(), strict=True))
        out: list[Decision] = []
        for seat, code in cards.items():
            out += self.show(seat, code)
        return out

    def play_round(self, cards: dict[int, str] | str) -> list[Decision]:
        """Everyone keeps, then the cards are read: the whole round's decisions."""
        return self.keep_all() + self.reveal(cards)

    def refused(self, event: Event) -> str:
        """``event`` is rejected and changes nothing; returns the reason."""
        before = game_state(self.ref)
        out = self.send(event)
        assert len(out) == 1 and isinstance(out[0], Rejected), out
        assert game_state(self.ref) == before
        return out[0].reason


def card(code: str) -> Any:
    return parse_card(code)


# ====================================================================== start and turn order


def test_start_deals_everyone_and_the_dealers_left_begins() -> None:
    table = Table(4, dealer=0)
    assert untimed(table.log) == [
        GameStarted(NOW, "cuckoo", 4, 0, (1, 1, 1, 1)),
        RoundStarted(NOW, 1, 0, (0, 1, 2, 3)),
        TurnChanged(NOW, 1),
    ]
    assert table.ref.expects() == Expectation("keep-or-trade", 1, "keep, or trade with seat 2")


def test_turns_go_left_and_end_with_the_dealer() -> None:
    table = Table(4, dealer=2)
    seen = []
    while table.ref.expects().action == "keep-or-trade":
        seat = table.ref.expects().seat
        seen.append(seat)
        if seat == 2:
            assert "the stock" in table.ref.expects().detail
        table.keep(seat)  # type: ignore[arg-type]
    assert seen == [3, 0, 1, 2]
    assert table.st.phase == "reveal"


def test_keep_moves_the_turn_and_closes_after_the_dealer() -> None:
    table = Table(3)
    assert untimed(table.keep(1)) == [Kept(NOW, 1), TurnChanged(NOW, 2)]
    assert untimed(table.keep(2)) == [Kept(NOW, 2), TurnChanged(NOW, 0)]
    assert untimed(table.keep(0)) == [Kept(NOW, 0), TradingClosed(NOW, "the dealer has had their turn")]
    assert table.ref.expects() == Expectation("reveal", None, "cards to read at seats 0, 1, 2")


def test_a_trade_is_with_the_left_neighbour() -> None:
    table = Table(4)
    table.keep(1)
    assert untimed(table.trade(2)) == [Traded(NOW, 2, 3), TurnChanged(NOW, 3)]
    assert untimed(table.trade(3)) == [Traded(NOW, 3, 0), TurnChanged(NOW, 0)]


# ====================================================================== ranking


LOW_TO_HIGH = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


@pytest.mark.parametrize("low,high", list(itertools.pairwise(LOW_TO_HIGH)))
def test_ace_low_ranking_lower_card_loses(low: str, high: str) -> None:
    table = Table(3)
    out = table.play_round({0: high + "S", 1: low + "H", 2: high + "D"})
    assert one(out, RoundLost).seats == (1,)


def test_ace_is_low_by_default() -> None:
    table = Table(4)
    out = table.play_round("2C AS 9C QD")
    assert one(out, RoundLost) == RoundLost(table.t, (1,), "lowest card (ace)")


def test_ace_high_makes_the_two_lowest() -> None:
    table = Table(4, ace="high")
    out = table.play_round("2C AS 9C KD")
    assert one(out, RoundLost).seats == (0,)
    assert table.st.lives == [2, 3, 3, 3]


def test_ace_high_beats_the_king() -> None:
    table = Table(3, ace="high")
    out = table.play_round("AS KH KD")
    assert one(out, RoundLost).seats == (1, 2)


def test_suits_do_not_count_equal_ranks_tie() -> None:
    table = Table(4)
    out = table.play_round("5C 5H 9C QD")
    assert one(out, RoundLost).seats == (0, 1)
    assert table.st.lives == [2, 2, 3, 3]


# ====================================================================== kings: traded


def test_traded_kings_may_not_be_shown() -> None:
    table = Table(4, kings="traded")
    table.trade(1)
    reason = table.refused(CardSeen(table.tick(), "camera", card("KS"), "seat", 2))
    assert "traded like any card" in reason


def test_traded_king_goes_with_the_trade() -> None:
    table = Table(4, kings="traded")
    assert untimed(table.trade(1)) == [Traded(NOW, 1, 2), TurnChanged(NOW, 2)]
    table.keep_all()
    out = table.reveal({0: "5C", 1: "KS", 2: "3D", 3: "9H"})
    assert one(out, RoundLost).seats == (2,)


def test_traded_dealer_takes_a_drawn_king_like_any_card() -> None:
    """pagat.com's Cuckoo page, Ackerson's rule 1: kings are traded like any card and have no special effect."""
    table = Table(4, kings="traded")
    for seat in (1, 2, 3):
        table.keep(seat)
    table.trade(0)
    out = table.stock("KS")
    assert one(out, DealerDrew).kept_original is False
    assert table.st.known[0] == card("KS")


# ====================================================================== kings: locked (the 2020 article)


def test_locked_king_skips_its_right_neighbour_and_its_holder() -> None:
    table = Table(4, kings="locked")
    out = table.show(2, "KS")
    assert [type(d) for d in out] == [KingShown, TurnSkipped, TurnSkipped, TurnChanged]
    assert out[0] == KingShown(table.t, 2, card("KS"), "dealt")
    assert [d.seat for d in of(out, TurnSkipped)] == [1, 2]
    assert "king" in out[1].reason  # type: ignore[attr-defined]
    assert out[3] == TurnChanged(table.t, 3)
    assert table.ref.expects().seat == 3


def test_locked_skipped_seat_trade_press_is_rejected_naming_the_king() -> None:
    table = Table(4, kings="locked")
    table.show(2, "KS")
    reason = table.refused(SeatAction(table.tick(), "gpio", 1, "trade"))
    assert "king" in reason and "skipped" in reason


def test_locked_king_holder_cannot_trade() -> None:
    table = Table(4, kings="locked")
    table.show(2, "KS")
    reason = table.refused(SeatAction(table.tick(), "gpio", 2, "trade"))
    assert "face-up king" in reason


def test_locked_king_further_round_skips_when_its_turn_comes() -> None:
    table = Table(4, kings="locked")
    out = table.show(3, "KH")
    assert untimed(out) == [KingShown(NOW, 3, card("KH"), "dealt")]
    assert table.ref.expects().seat == 1
    out = table.keep(1)
    assert [(type(d), getattr(d, "seat", None)) for d in out] == [
        (Kept, 1),
        (TurnSkipped, 2),
        (TurnSkipped, 3),
        (TurnChanged, 0),
    ]


def test_locked_dealer_with_a_king_is_skipped_and_does_not_draw() -> None:
    table = Table(4, kings="locked")
    table.show(0, "KD")
    table.keep(1)
    out = table.keep(2)
    assert [type(d) for d in out] == [Kept, TurnSkipped, TurnSkipped, TradingClosed]
    assert [d.seat for d in of(out, TurnSkipped)] == [3, 0]
    assert table.st.phase == "reveal"
    table.refused(CardSeen(table.tick(), "camera", card("5H"), "stock"))


def test_locked_king_left_of_the_dealer_leaves_the_dealers_draw() -> None:
    """The dealer trades with the stock, never with seat 1: a king there skips only its holder."""
    table = Table(4, kings="locked")
    out = table.show(1, "KS")
    assert [(type(d), getattr(d, "seat", None)) for d in out[1:]] == [(TurnSkipped, 1), (TurnChanged, 2)]
    table.keep(2)
    table.keep(3)
    assert table.ref.expects() == Expectation("keep-or-trade", 0, "keep, or trade with the stock")
    table.trade(0)
    assert one(table.stock("6H"), DealerDrew).kept_original is False


def test_locked_king_after_trading_started_is_refused() -> None:
    table = Table(4, kings="locked")
    table.keep(1)
    reason = table.refused(CardSeen(table.tick(), "camera", card("KS"), "seat", 3))
    assert "before trading" in reason


def test_locked_non_king_cannot_be_shown_during_trading() -> None:
    table = Table(4, kings="locked")
    reason = table.refused(CardSeen(table.tick(), "camera", card("QS"), "seat", 2))
    assert "only kings" in reason


def test_locked_face_up_king_needs_no_reading_at_the_reveal() -> None:
    table = Table(4, kings="locked")
    table.show(2, "KS")
    table.keep_all()
    assert table.st.revealed[2] == card("KS")
    assert table.ref.expects().detail == "cards to read at seats 0, 1, 3"
    out = table.reveal({0: "4C", 1: "8D", 3: "JH"})
    assert one(out, RoundLost).seats == (0,)


def test_locked_three_dealt_kings_at_three_seats_start_one_new_round() -> None:
    """Every seat locked by its king: trading closes, the round is judged, one new turn begins."""
    table = Table(3, kings="locked")
    table.show(1, "KS")
    table.show(2, "KH")
    out = table.show(0, "KD")
    assert one(out, RoundLost).seats == (0, 1, 2)
    assert one(out, RoundStarted).round == 2
    assert of(out, TurnChanged) == [TurnChanged(table.t, 2)]


# ====================================================================== kings: no-trade (pagat, rule 2)


def test_no_trade_king_closes_trading_at_once() -> None:
    table = Table(4, kings="no-trade")
    out = table.show(3, "KC")
    assert untimed(out) == [
        KingShown(NOW, 3, card("KC"), "dealt"),
        TradingClosed(NOW, "a king is showing: no trading this deal"),
    ]
    assert table.ref.expects().action == "reveal"
    table.refused(SeatAction(table.tick(), "gpio", 1, "trade"))
    table.refused(CardSeen(table.tick(), "camera", card("5H"), "stock"))
    out = table.reveal({0: "2C", 1: "8D", 2: "JH"})
    assert one(out, RoundLost).seats == (0,)


def test_no_trade_without_kings_trades_as_usual() -> None:
    table = Table(4, kings="no-trade")
    assert of(table.trade(1), Traded) == [Traded(table.t, 1, 2)]
    table.keep(2)
    table.keep(3)
    table.trade(0)
    assert one(table.stock("7S"), DealerDrew).card == card("7S")


def test_no_trade_king_after_the_first_action_is_refused() -> None:
    table = Table(4, kings="no-trade")
    table.keep(1)
    reason = table.refused(CardSeen(table.tick(), "camera", card("KS"), "seat", 3))
    assert "before trading" in reason


# ====================================================================== kings: cuckoo (pagat)


def test_cuckoo_king_blocks_the_trade_and_the_trader_keeps() -> None:
    table = Table(4)
    table.trade(1)
    out = table.show(2, "KS")
    assert untimed(out) == [TradeBlocked(NOW, 1, 2, card("KS"))]
    assert table.st.known[2] == card("KS") and table.st.known[1] is None
    assert table.ref.expects() == Expectation("keep-or-trade", 2, "keep, or trade with seat 3")
    assert untimed(table.keep(2)) == [Kept(NOW, 2), TurnChanged(NOW, 3)]


def test_cuckoo_blocked_king_is_read_at_its_seat() -> None:
    table = Table(4)
    table.trade(1)
    table.show(2, "KS")
    table.keep_all()
    assert table.st.revealed[2] == card("KS")
    out = table.reveal({0: "6C", 1: "3D", 3: "9H"})
    assert one(out, RoundLost).seats == (1,)


def test_cuckoo_king_after_the_next_action_is_no_block() -> None:
    table = Table(4)
    table.trade(1)
    table.keep(2)
    out = table.show(2, "KS")
    assert not of(out, TradeBlocked)
    assert table.st.turn == 3


def test_cuckoo_king_at_another_seat_is_no_block() -> None:
    table = Table(4)
    table.trade(1)
    out = table.show(3, "KS")
    assert not of(out, TradeBlocked)
    assert table.st.pending_trade == [1, 2]


def test_cuckoo_dealer_blocks_the_last_trade() -> None:
    table = Table(4)
    table.keep(1)
    table.keep(2)
    table.trade(3)
    out = table.show(0, "KH")
    assert untimed(out) == [TradeBlocked(NOW, 3, 0, card("KH"))]
    assert table.ref.expects().action == "keep-or-trade" and table.ref.expects().seat == 0


def test_cuckoo_trade_towards_a_shown_king_is_refused() -> None:
    table = Table(4)
    table.show(2, "KS")
    out = table.trade(1)
    assert len(out) == 1 and isinstance(out[0], Rejected) and "king" in out[0].reason
    assert table.st.turn == 1 and table.st.known[1] is None
    assert of(table.keep(1), Kept)


def test_a_refused_trade_changes_nothing() -> None:
    """``Rejected``: nothing changed. A trade refused for a shown king must leave the state alone."""
    table = Table(4)
    table.show(2, "KS")
    table.refused(SeatAction(table.tick(), "gpio", 1, "trade"))


def test_a_refused_trade_does_not_close_the_window_to_block() -> None:
    """Seat 2's refused trade is no action: seat 2 may still show a king against seat 1's trade."""
    table = Table(4)
    table.trade(1)
    table.show(3, "KD")
    assert of(table.trade(2), Rejected)
    assert of(table.show(2, "KH"), TradeBlocked) == [TradeBlocked(table.t, 1, 2, card("KH"))]


# ====================================================================== kings: stop (pagat, rule 3)


def test_stop_king_blocks_and_ends_the_trading() -> None:
    table = Table(4, kings="stop")
    table.trade(1)
    out = table.show(2, "KD")
    assert untimed(out) == [
        TradeBlocked(NOW, 1, 2, card("KD")),
        TradingClosed(NOW, "seat 2's king stopped the trading"),
    ]
    assert table.ref.expects().action == "reveal"
    table.refused(SeatAction(table.tick(), "gpio", 2, "trade"))
    table.refused(CardSeen(table.tick(), "camera", card("5H"), "stock"))


def test_stop_without_a_king_trading_goes_on() -> None:
    table = Table(4, kings="stop")
    table.trade(1)
    table.trade(2)
    assert table.st.phase == "trading" and table.st.turn == 3


def test_stop_dealer_king_stops_before_the_draw() -> None:
    table = Table(4, kings="stop")
    table.keep(1)
    table.keep(2)
    table.trade(3)
    out = table.show(0, "KS")
    assert of(out, TradingClosed)
    assert table.ref.expects().action == "reveal"


# ====================================================================== the dealer's draw


def test_dealer_trade_then_stock_card() -> None:
    table = Table(4)
    for seat in (1, 2, 3):
        table.keep(seat)
    assert untimed(table.trade(0)) == [Traded(NOW, 0, None)]
    assert table.ref.expects() == Expectation("stock-card", 0, "turn up the top card of the stock")
    out = table.stock("9H")
    assert untimed(out) == [
        DealerDrew(NOW, 0, card("9H"), False),
        TradingClosed(NOW, "the dealer has had their turn"),
    ]
    assert table.st.known[0] == card("9H")


def test_dealer_drawing_a_king_keeps_the_original() -> None:
    table = Table(4)
    for seat in (1, 2, 3):
        table.keep(seat)
    table.trade(0)
    assert one(table.stock("KC"), DealerDrew).kept_original is True
    assert table.st.known[0] is None
    assert "already seen" in table.refused(CardSeen(table.tick(), "camera", card("KC"), "seat", 0))
    assert one(table.show(0, "3D"), CardRevealed) == CardRevealed(table.t, 0, card("3D"))


def test_dealer_draw_without_a_trade_press() -> None:
    table = Table(3)
    table.keep(1)
    table.keep(2)
    out = table.stock("4S")
    assert untimed(out) == [
        Traded(NOW, 0, None),
        DealerDrew(NOW, 0, card("4S"), False),
        TradingClosed(NOW, "the dealer has had their turn"),
    ]


def test_stock_card_before_the_dealers_turn_is_refused() -> None:
    table = Table(4)
    table.keep(1)
    assert "only the dealer" in table.refused(CardSeen(table.tick(), "camera", card("4S"), "stock"))


def test_stock_card_after_the_dealer_kept_is_refused() -> None:
    table = Table(3)
    table.keep_all()
    table.refused(CardSeen(table.tick(), "camera", card("4S"), "stock"))


def test_actions_wait_while_the_dealer_draws() -> None:
    table = Table(3)
    table.keep(1)
    table.keep(2)
    table.trade(0)
    assert "trading is over" in table.refused(SeatAction(table.tick(), "gpio", 0, "keep"))
    table.refused(CardSeen(table.tick(), "camera", card("KS"), "seat", 1))


def test_dealer_draw_read_differently_is_a_mismatch() -> None:
    table = Table(3)
    table.keep(1)
    table.keep(2)
    table.stock("9H")
    out = table.show(0, "4C")
    assert out == [CardMismatch(table.t, 0, card("9H"), card("4C"))]
    assert table.st.revealed[0] is None
    assert "0" in table.ref.expects().detail
    assert of(table.show(0, "9H"), CardRevealed)


# ====================================================================== who loses


def test_all_lowest_every_tied_seat_loses() -> None:
    table = Table(5)
    out = table.play_round("3C 9S 3H 3D 10S")
    assert one(out, RoundLost).seats == (0, 2, 3)
    assert [d.seat for d in of(out, LifeLost)] == [0, 2, 3]


@pytest.mark.parametrize(
    "dealer,cards,loser",
    [
        (0, "9C 4S 4H 9D", 1),  # seats 1 and 2 tie: 1 is nearer the dealer's left
        (0, "4C 9S 9H 4D", 3),  # the dealer and seat 3 tie: the dealer comes last
        (2, "4C 4S 9H 4D", 3),  # turn order 3, 0, 1, 2
        (1, "4C 9S 9H 4D", 3),  # turn order 2, 3, 0, 1
    ],
)
def test_nearest_dealer_left_loses_a_tie(dealer: int, cards: str, loser: int) -> None:
    table = Table(4, dealer=dealer, ties="nearest-dealer-left")
    out = table.play_round(cards)
    assert one(out, RoundLost).seats == (loser,)
    assert "dealer's left" in one(out, RoundLost).reason


def test_nearest_dealer_left_without_a_tie_the_lowest_loses() -> None:
    table = Table(4, ties="nearest-dealer-left")
    out = table.play_round("9C 4S 3H 9D")
    assert one(out, RoundLost) == RoundLost(table.t, (2,), "lowest card (3)")


def test_lowest_unique_tied_lowest_are_safe() -> None:
    table = Table(4, ties="lowest-unique")
    out = table.play_round("3C 3S 5H 9D")
    assert one(out, RoundLost) == RoundLost(table.t, (2,), "lowest unique rank (5)")
    assert table.st.lives == [3, 3, 2, 3]


def test_lowest_unique_all_unique_lowest_loses() -> None:
    table = Table(4, ties="lowest-unique")
    out = table.play_round("JC 2S 5H 9D")
    assert one(out, RoundLost).seats == (1,)


def test_lowest_unique_no_unique_rank_nobody_loses() -> None:
    table = Table(4, ties="lowest-unique")
    out = table.play_round("3C 3S 9H 9D")
    assert one(out, RoundLost) == RoundLost(table.t, (), "no rank is unique: nobody loses")
    assert not of(out, LifeLost)
    assert table.st.lives == [3, 3, 3, 3]
    assert table.st.round == 2


# ====================================================================== lives


@pytest.mark.parametrize("lives", [1, 3, 4, 7])
def test_lives_start_at_the_rules_value_and_a_loss_takes_one(lives: int) -> None:
    table = Table(4, lives=lives)
    assert table.st.lives == [lives] * 4
    out = table.play_round("9C 2S 9H 9D")
    assert one(out, LifeLost).seat == 1 and one(out, LifeLost).lives == lives - 1
    assert bool(of(out, PlayerOut)) == (lives == 1)


def test_the_deal_passes_left_each_round() -> None:
    table = Table(4, dealer=3)
    out = table.play_round("9C 2S 9H 9D")
    assert one(out, RoundStarted) == RoundStarted(table.t, 2, 0, (0, 1, 2, 3))
    assert table.ref.expects().seat == 1


def test_player_out_at_zero_is_not_dealt_and_the_deal_skips_them() -> None:
    table = Table(4, lives=1, dealer=0)
    out = table.play_round("9C 2S 9H 9D")  # seat 1 goes out; the deal would pass to seat 1
    assert of(out, PlayerOut) == [PlayerOut(table.t, 1)]
    assert one(out, RoundStarted) == RoundStarted(table.t, 2, 2, (0, 2, 3))
    assert table.ref.expects().seat == 3
    table.keep(3)
    assert table.ref.expects() == Expectation("keep-or-trade", 0, "keep, or trade with seat 2")


def test_a_trade_passes_over_an_out_seat() -> None:
    table = Table(4, lives=1, dealer=3)
    table.play_round("9C 9S 2H 9D")  # seat 2 goes out; the deal passes to seat 0
    assert table.ref.expects() == Expectation("keep-or-trade", 1, "keep, or trade with seat 3")
    assert untimed(table.trade(1)) == [Traded(NOW, 1, 3), TurnChanged(NOW, 3)]


def test_out_seats_actions_and_cards_are_refused() -> None:
    table = Table(4, lives=1)
    table.play_round("9C 2S 9H 9D")
    assert "not dealt" in table.refused(SeatAction(table.tick(), "gpio", 1, "keep"))
    table.keep_all()
    assert "not dealt" in table.refused(CardSeen(table.tick(), "camera", card("5C"), "seat", 1))
    assert table.ref.expects().detail == "cards to read at seats 0, 2, 3"


def test_last_player_in_wins() -> None:
    table = Table(3, lives=1, pot="none")
    out = table.play_round("9C 2S 2H")
    assert one(out, GameOver) == GameOver(table.t, (0,), (1, 0, 0), "last player in", 0)
    assert table.ref.finished and table.st.winners == [0]
    assert table.ref.expects() == Expectation("none", None, "game over")


def test_two_rounds_to_the_last_player_in() -> None:
    table = Table(3, lives=2)
    table.play_round("9C 2S 2H")
    assert table.st.lives == [2, 1, 1]
    out = table.play_round("3C 9S 2H")  # dealer 1 now
    assert of(out, PlayerOut) == [PlayerOut(table.t, 2)]
    assert not of(out, GameOver)
    out = table.play_round({0: "QC", 1: "JS"})
    assert one(out, GameOver).winners == (0,)


def test_everyone_tied_with_lives_to_spare_each_lose_one() -> None:
    table = Table(3, lives=2)
    out = table.play_round("5C 5S 5H")
    assert not of(out, AllOutTie)
    assert table.st.lives == [1, 1, 1]


def test_seats_with_last_lives_going_out_while_one_survives() -> None:
    table = Table(3, lives=1)
    out = table.play_round("5C 5S 9H")
    assert not of(out, AllOutTie)
    assert one(out, GameOver).winners == (2,)


# ====================================================================== points (the 2020 article)


def test_points_loser_scores_a_point_and_nobody_goes_out() -> None:
    table = Table(4, scoring="points", rounds=3)
    out = table.play_round("9C 2S 9H 9D")
    assert untimed(of(out, PointScored)) == [PointScored(NOW, 1, 1)]
    assert table.st.points == [0, 1, 0, 0]
    table.play_round("9C 2S 9H 9D")
    assert table.st.points == [0, 2, 0, 0] and table.st.seats == [0, 1, 2, 3]


def test_points_fewest_after_the_rounds_wins() -> None:
    table = Table(3, scoring="points", rounds=2, pot="none")
    table.play_round("2C 9S 9H")
    assert not table.ref.finished
    out = table.play_round("9C 2S 9H")
    assert one(out, GameOver) == GameOver(table.t, (2,), (1, 1, 0), "fewest points after 2 rounds", 0)


def test_points_tied_fewest_are_joint_winners() -> None:
    table = Table(4, scoring="points", rounds=2)
    table.play_round("2C 9S 9H 9D")
    out = table.play_round("9C 2S 9H 9D")
    assert one(out, GameOver).winners == (2, 3)


def test_points_game_lasts_exactly_the_rounds() -> None:
    table = Table(3, scoring="points", rounds=1)
    out = table.play_round("5C 5S 9H")
    assert one(out, GameOver).winners == (2,)
    assert table.st.points == [1, 1, 0]


# ====================================================================== the pot


def test_ante_puts_a_stake_from_each_player_in_the_pot() -> None:
    table = Table(5, stake=2, lives=1)
    assert table.st.pot == 10
    while not table.ref.finished:  # the lowest seat still in loses each round
        others = iter(["9S", "9H", "9D", "9C"])
        table.play_round({s: "2C" if s == table.st.seats[0] else next(others) for s in table.st.seats})
    over = one(table.log, GameOver)
    assert over.pot == 10 and over.winners == (4,) and table.st.round == 4


def test_per_life_pot_grows_a_stake_per_life_lost() -> None:
    table = Table(3, pot="per-life", stake=3, lives=2)
    assert table.st.pot == 0
    out = table.play_round("2C 2S 9H")
    assert [(d.seat, d.lives, d.pot) for d in of(out, LifeLost)] == [(0, 1, 3), (1, 1, 6)]
    out = table.play_round("2C 2S 9H")
    assert one(out, GameOver) == GameOver(table.t, (2,), (0, 0, 2), "last player in", 12)


def test_no_pot_stays_empty() -> None:
    table = Table(3, pot="none", lives=1)
    assert table.st.pot == 0
    assert one(table.play_round("2C 2S 9H"), GameOver).pot == 0


# ====================================================================== everyone out together (pagat)


def all_out_table(how: str, **rules: Any) -> tuple[Table, list[Decision]]:
    table = Table(3, lives=1, all_out=how, **rules)
    return table, table.play_round("5C 5S 5H")


def test_all_out_joint_winners_share_the_pot() -> None:
    table, out = all_out_table("joint-winners")
    assert one(out, AllOutTie) == AllOutTie(table.t, (0, 1, 2), "joint-winners")
    over = one(out, GameOver)
    assert over.winners == (0, 1, 2) and over.pot == 3 and over.scores == (1, 1, 1)
    assert not of(out, LifeLost)


def test_all_out_replay_keeps_last_lives_and_deals_again() -> None:
    table, out = all_out_table("replay")
    assert one(out, AllOutTie).settle == "replay"
    assert not of(out, GameOver, LifeLost)
    assert one(out, RoundStarted) == RoundStarted(table.t, 2, 1, (0, 1, 2))
    assert table.st.lives == [1, 1, 1]
    out = table.play_round("8C 3S 3H")
    assert one(out, GameOver).winners == (0,)


def test_all_out_replay_only_between_those_still_in() -> None:
    table = Table(3, lives=1, all_out="replay", dealer=2)
    table.play_round("9C 9S 2H")  # seat 2 out; dealer 0
    out = table.play_round({0: "6C", 1: "6S"})
    assert one(out, AllOutTie).seats == (0, 1)
    assert one(out, RoundStarted).seats == (0, 1)


def test_all_out_cut_highest_cut_takes_the_pot() -> None:
    table, out = all_out_table("cut")
    assert one(out, AllOutTie).settle == "cut"
    assert table.ref.expects() == Expectation("cut", None, "cuts to read at seats 0, 1, 2")
    assert untimed(table.cut(0, "9H")) == [CutCard(NOW, 0, card("9H"))]
    table.cut(1, "QS")
    out = table.cut(2, "3D")
    assert one(out, GameOver) == GameOver(table.t, (1,), (1, 1, 1), "highest cut (queen) takes the pot", 3)


def test_all_out_cut_tied_cut_again_among_the_tied() -> None:
    table, _ = all_out_table("cut")
    table.cut(0, "QS")
    table.cut(1, "3D")
    out = table.cut(2, "QH")
    assert untimed(out) == [CutCard(NOW, 2, card("QH")), AllOutTie(NOW, (0, 2), "cut again")]
    assert "not cutting" in table.refused(CardSeen(table.tick(), "camera", card("KD"), "cut", 1))
    table.cut(0, "2C")
    out = table.cut(2, "5D")
    assert one(out, GameOver).winners == (2,)


def test_all_out_cut_uses_the_ace_rule() -> None:
    table, _ = all_out_table("cut", ace="high")
    table.cut(0, "KS")
    table.cut(1, "AS")
    out = table.cut(2, "QD")
    assert one(out, GameOver).winners == (1,)


def test_all_out_cut_a_second_different_cut_is_refused() -> None:
    table, _ = all_out_table("cut")
    table.cut(0, "9H")
    assert "already cut" in table.refused(CardSeen(table.tick(), "camera", card("JD"), "cut", 0))
    assert table.cut(0, "9H") == []


def test_all_out_cut_two_seats_cannot_cut_the_same_card_of_one_deck() -> None:
    """One deck holds one queen of spades: a second seat cannot have cut it in the same cut."""
    table, _ = all_out_table("cut")
    table.cut(0, "QS")
    table.refused(CardSeen(table.tick(), "camera", card("QS"), "cut", 1))


def test_cut_card_when_nobody_cuts_is_refused() -> None:
    table = Table(3)
    assert "nobody is cutting" in table.refused(CardSeen(table.tick(), "camera", card("QS"), "cut", 1))


def test_all_out_carry_new_stakes_is_undecided() -> None:
    table, out = all_out_table("carry-new-stakes")
    over = one(out, GameOver)
    assert over.winners == () and over.pot == 3
    assert "pot" in over.reason and "new stake" in over.reason
    assert table.ref.finished and table.st.winners == []


def test_all_out_carry_is_undecided_without_new_stakes() -> None:
    _, out = all_out_table("carry")
    over = one(out, GameOver)
    assert over.winners == () and "pot" in over.reason and "new stake" not in over.reason


# ====================================================================== knowledge and readings


def test_a_trade_moves_a_known_king() -> None:
    """Cuckoo: a shown king that its holder trades away is known at the left neighbour."""
    table = Table(4)
    table.show(2, "KS")
    table.keep(1)
    table.trade(2)
    assert table.st.known[3] == card("KS") and table.st.known[2] is None
    table.keep_all()
    out = table.show(3, "7D")
    assert out == [CardMismatch(table.t, 3, card("KS"), card("7D"))]
    assert table.st.revealed[3] is None
    assert "already seen" in table.refused(CardSeen(table.tick(), "camera", card("KS"), "seat", 2))
    assert of(table.show(3, "KS"), CardRevealed)
    out = table.reveal({0: "5C", 1: "6C", 2: "7C"})
    assert one(out, RoundLost).seats == (0,)


def test_a_blocked_trade_leaves_the_knowledge_where_it_was() -> None:
    table = Table(4)
    table.trade(1)
    table.show(2, "KH")
    table.keep_all()
    assert table.st.known == [None, None, card("KH"), None]


def test_a_blocked_trade_gives_the_trader_back_a_known_card() -> None:
    """Seat 3 holds a known king (traded on from seat 2); the dealer's king blocks seat 3's trade."""
    table = Table(4)
    table.show(2, "KS")
    table.keep(1)
    table.trade(2)
    table.trade(3)
    assert table.st.known[0] == card("KS")
    out = table.show(0, "KH")
    assert out == [TradeBlocked(table.t, 3, 0, card("KH"))]
    assert table.st.known[3] == card("KS") and table.st.known[0] == card("KH")
    table.keep(0)
    assert table.show(3, "7D") == [CardMismatch(table.t, 3, card("KS"), card("7D"))]


def test_more_copies_than_the_deck_holds_are_refused() -> None:
    table = Table(4)
    table.keep_all()
    table.show(0, "7H")
    assert "already seen" in table.refused(CardSeen(table.tick(), "camera", card("7H"), "seat", 1))


def test_two_decks_hold_two_copies() -> None:
    table = Table(4, decks=2)
    table.keep_all()
    table.show(0, "7H")
    assert of(table.show(1, "7H"), CardRevealed)
    table.refused(CardSeen(table.tick(), "camera", card("7H"), "seat", 2))


def test_second_reading_of_a_revealed_seat() -> None:
    table = Table(4)
    table.keep_all()
    table.show(1, "7H")
    assert "already read as 7H" in table.refused(CardSeen(table.tick(), "camera", card("8H"), "seat", 1))
    assert table.show(1, "7H") == []


def test_seat_cards_are_refused_during_trading_unless_kings() -> None:
    table = Table(4)
    assert "face down" in table.refused(CardSeen(table.tick(), "camera", card("7H"), "seat", 1))


def test_the_same_king_shown_twice_changes_nothing() -> None:
    table = Table(4, kings="locked")
    table.show(2, "KS")
    before = game_state(table.ref)
    assert table.show(2, "KS") == []
    assert game_state(table.ref) == before


def test_a_king_already_seen_cannot_be_shown_again_elsewhere() -> None:
    table = Table(4, kings="locked")
    table.show(3, "KS")
    assert "already seen" in table.refused(CardSeen(table.tick(), "camera", card("KS"), "seat", 1))


# ====================================================================== bad input


@pytest.mark.parametrize("action", ["bid", "pass", "swap", "Keep"])
def test_unknown_action_names_are_refused(action: str) -> None:
    table = Table(4)
    assert repr(action) in table.refused(SeatAction(table.tick(), "gpio", 1, action))


def test_out_of_turn_actions_are_refused() -> None:
    table = Table(4)
    assert "not your turn" in table.refused(SeatAction(table.tick(), "gpio", 2, "keep"))
    assert "seat 1's turn" in table.refused(SeatAction(table.tick(), "gpio", 0, "trade"))


def test_cards_in_unknown_zones_are_refused() -> None:
    table = Table(4)
    assert "pile" in table.refused(CardSeen(table.tick(), "camera", card("7H"), "pile"))
    table.refused(CardSeen(table.tick(), "camera", card("7H"), "discard", 1))


def test_seat_card_without_a_seat_is_refused() -> None:
    table = Table(4)
    table.keep_all()
    assert "whose seat" in table.refused(CardSeen(table.tick(), "camera", card("7H"), "seat"))
    table.refused(CardSeen(table.tick(), "camera", card("7H"), "cut"))


@pytest.mark.parametrize("joker", ["RJ", "BJ"])
def test_jokers_are_refused(joker: str) -> None:
    table = Table(4)
    table.keep_all()
    assert "jokers" in table.refused(CardSeen(table.tick(), "camera", card(joker), "seat", 1))
    table.refused(CardSeen(table.tick(), "camera", card(joker), "stock"))


def test_events_out_of_time_order_are_refused() -> None:
    table = Table(4)
    table.keep(1)
    assert "out of order" in table.refused(SeatAction(table.t - 1, "gpio", 2, "keep"))
    assert of(table.send(SeatAction(table.t, "gpio", 2, "keep")), Kept)  # the same instant is fine


@pytest.mark.parametrize("seat", [4, 9])
def test_seats_that_do_not_exist_are_refused(seat: int) -> None:
    table = Table(4)
    assert "does not exist" in table.refused(SeatAction(table.tick(), "gpio", seat, "keep"))
    table.refused(CardSeen(table.tick(), "camera", card("KS"), "seat", seat))


def test_presses_and_cards_taken_away_change_nothing() -> None:
    table = Table(4)
    before = game_state(table.ref)
    assert table.send(ButtonPressed(table.tick(), "gpio", 1)) == []
    assert table.send(CardGone(table.tick(), "camera", "seat", card("5C"))) == []
    assert game_state(table.ref) == before


def test_anything_after_the_game_is_over_is_refused() -> None:
    table = Table(3, lives=1)
    table.play_round("9C 2S 9H")
    table.play_round({0: "9C", 2: "2H"})
    assert table.ref.finished
    assert "game is over" in table.refused(SeatAction(table.tick(), "gpio", 0, "keep"))
    assert "game is over" in table.refused(CardSeen(table.tick(), "camera", card("5C"), "seat", 0))
    table.refused(CardSeen(table.tick(), "camera", card("5C"), "stock"))


# ====================================================================== set-up and rules


@pytest.mark.parametrize("players", [3, 4, 13, 26])
def test_three_to_twenty_six_players(players: int) -> None:
    table = Table(players)
    assert table.st.seats == list(range(players))


@pytest.mark.parametrize("players", [0, 2, 27, 52])
def test_too_few_or_too_many_players_are_refused(players: int) -> None:
    with pytest.raises(GameSetupError, match="3 to 26"):
        setup_game("cuckoo", None, {}, players)


def test_two_decks_seat_more_players() -> None:
    assert Table(52, decks=2).st.seats == list(range(52))


def test_dealer_must_be_a_seat() -> None:
    with pytest.raises(GameSetupError, match="dealer"):
        setup_game("cuckoo", None, {}, 4, 4)


@pytest.mark.parametrize(
    "values,key",
    [
        ({"scoring": "points", "pot": "per-life"}, "'pot'"),
        ({"rounds": 5}, "'rounds'"),
        ({"scoring": "points", "lives": 5}, "'lives'"),
        ({"scoring": "points", "all_out": "cut"}, "'all_out'"),
        ({"kings": "sometimes"}, "'kings'"),
        ({"ties": "all"}, "'ties'"),
        ({"lives": 0}, "'lives'"),
        ({"stake": 0}, "'stake'"),
        ({"decks": 9}, "'decks'"),
        ({"scoring": "points", "rounds": 0}, "'rounds'"),
        ({"king": "locked"}, "'king'"),
    ],
)
def test_rules_conflicts_are_refused_by_key(values: dict[str, Any], key: str) -> None:
    with pytest.raises(RulesError, match=key):
        setup_game("cuckoo", None, values, 4)


def test_shipped_presets_are_the_known_ones() -> None:
    assert set(shipped_presets("cuckoo")) == {
        "aces-high",
        "ackerson-kings-stop",
        "ackerson-kings-up",
        "ackerson-traded",
        "betting",
        "cuckoo",
        "murphy",
        "screw-your-neighbor",
    }


@pytest.mark.parametrize("name", shipped_presets("cuckoo"))
def test_every_preset_sets_up_and_plays_a_round(name: str) -> None:
    table = Table(4, preset=name)
    assert table.ref.expects().action == "keep-or-trade"
    out = table.play_round("9C 2S 9H 8D")
    assert one(out, RoundLost).seats == (1,)
    assert load_preset("cuckoo", name).description


@pytest.mark.parametrize(
    "name,expected",
    [
        ("cuckoo", {"ace": "low", "kings": "cuckoo", "ties": "all-lowest", "lives": 3, "pot": "ante"}),
        (
            "screw-your-neighbor",
            {"ace": "low", "kings": "locked", "ties": "nearest-dealer-left", "scoring": "points", "rounds": 10},
        ),
        ("aces-high", {"ace": "high", "kings": "locked", "scoring": "points"}),
        ("ackerson-traded", {"kings": "traded", "lives": 4, "pot": "per-life"}),
        ("ackerson-kings-up", {"kings": "no-trade", "lives": 4, "pot": "per-life"}),
        ("ackerson-kings-stop", {"kings": "stop", "lives": 4, "pot": "per-life"}),
        ("betting", {"scoring": "lives", "lives": 5, "pot": "per-life"}),
        ("murphy", {"ties": "lowest-unique", "kings": "cuckoo", "scoring": "lives"}),
    ],
)
def test_presets_describe_their_variants(name: str, expected: dict[str, Any]) -> None:
    rules = setup_game("cuckoo", name, {}, 4).rules
    assert {k: rules[k] for k in expected} == expected


def test_screw_your_neighbor_preset_plays_seed_000() -> None:
    table = Table(4, preset="screw-your-neighbor")
    table.show(2, "KS")
    assert table.st.turn == 3
    table.keep_all()
    out = table.reveal({0: "4C", 1: "4H", 3: "9D"})
    assert one(out, RoundLost).seats == (1,)
    assert table.st.points == [0, 1, 0, 0]


def test_preset_values_can_be_overridden() -> None:
    table = Table(4, preset="ackerson-traded", lives=2)
    assert table.st.lives == [2, 2, 2, 2]


# ====================================================================== snapshot and restore


def restored(ref: CuckooReferee) -> CuckooReferee:
    return CuckooReferee.restore(json.loads(json.dumps(ref.snapshot())))


def test_restore_mid_round_continues_identically() -> None:
    table = Table(4, kings="cuckoo")
    table.keep(1)
    table.trade(2)  # the window for seat 3 to show a king is open
    copy = restored(table.ref)
    assert game_state(copy) == game_state(table.ref)
    t = table.t
    later: list[Event] = [
        CardSeen(t + 1, "camera", card("KD"), "seat", 3),
        SeatAction(t + 2, "gpio", 3, "keep"),
        SeatAction(t + 3, "gpio", 0, "trade"),
        CardSeen(t + 4, "camera", card("8S"), "stock"),
        CardSeen(t + 5, "camera", card("8S"), "seat", 0),
        CardSeen(t + 6, "camera", card("3C"), "seat", 1),
        CardSeen(t + 7, "camera", card("4C"), "seat", 2),
    ]
    original = [d for e in later for d in table.ref.handle(e)]
    again = [d for e in later for d in copy.handle(e)]
    assert again == original
    assert of(original, TradeBlocked) and of(original, RoundStarted)
    assert game_state(copy) == game_state(table.ref)


def test_restore_while_cutting_continues_identically() -> None:
    table, _ = all_out_table("cut")
    table.cut(0, "9H")
    copy = restored(table.ref)
    later = [
        CardSeen(table.t + 1, "camera", card("JD"), "cut", 1),
        CardSeen(table.t + 2, "camera", card("2D"), "cut", 2),
    ]
    assert [d for e in later for d in copy.handle(e)] == [d for e in later for d in table.ref.handle(e)]
    assert copy.state.winners == [1]


def test_restore_refuses_something_that_is_not_a_snapshot() -> None:
    with pytest.raises(GameSetupError, match="snapshot"):
        CuckooReferee.restore({"game": "cuckoo"})
    with pytest.raises(GameSetupError, match="snapshot"):
        CuckooReferee.restore({**Table(3).ref.snapshot(), "game": "ers"})


# ====================================================================== a series of games, and ending one


@pytest.mark.parametrize(("how", "next_pot"), [("carry", 3), ("carry-new-stakes", 6)])
def test_an_undecided_games_pot_goes_to_the_next_game(how: str, next_pot: int) -> None:
    """The pot carried forward to the next game, with or without new stakes (pagat)."""
    table, _ = all_out_table(how)
    carried = table.ref.carried_over()
    assert carried == {"pot_carried": 3}
    assert Table(3, lives=1, all_out=how, **carried).st.pot == next_pot


def test_a_decided_game_carries_nothing() -> None:
    table, _ = all_out_table("joint-winners")
    assert table.ref.finished and table.ref.carried_over() == {}
    assert Table(3).ref.carried_over() == {}  # nor a game under way


def test_the_players_end_a_points_game_and_the_fewest_points_win() -> None:
    table = Table(3, scoring="points", rounds=10)
    table.play_round("9C 5S 2H")  # seat 2 scores a point
    out = table.send(Command(table.tick(), "command", END))
    over = one(out, GameOver)
    assert over.winners == (0, 1) and over.scores == (0, 0, 1)
    assert over.reason == "ended by the players: fewest points after 1 round"  # the one played
    assert "over already" in table.refused(Command(table.tick(), "command", END))


def test_the_players_end_a_lives_game_and_the_most_lives_win() -> None:
    table = Table(3)
    table.play_round("9C 5S 2H")
    assert one(table.send(Command(table.tick(), "command", END)), GameOver).winners == (0, 1)
    assert "takes no command 'deal'" in Table(3).refused(Command(1, "command", "deal"))


def test_a_stock_card_refused_as_a_misreading_leaves_a_trade_to_be_blocked() -> None:
    """The dealer's card taken by the last trade is still behind the dealer's king when the
    camera misreads the stock card (a card already seen this deal): the king shown blocks it."""
    ref = setup_game("cuckoo", "cuckoo", {}, players=3, dealer=0, seed=1).referee()
    ref.start(0)
    ref.handle(CardSeen(1, "camera", parse_card("KH"), "seat", 1))  # seat 1 shows a dealt king
    ref.handle(SeatAction(2, "gpio", 1, "keep"))
    ref.handle(SeatAction(3, "gpio", 2, "trade"))  # seat 2 tries to take the dealer's card
    assert of(ref.handle(CardSeen(4, "camera", parse_card("KH"), "stock")), Rejected)
    out = ref.handle(CardSeen(5, "camera", parse_card("KS"), "seat", 0))  # the dealer's king
    assert untimed(out) == [TradeBlocked(NOW, 2, 0, card("KS"))]
