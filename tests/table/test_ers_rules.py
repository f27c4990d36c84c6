"""The Egyptian Rat Screw referee against hand-built situations, one rule at a time.

Every test stacks the deck (``stacked_deal``), feeds the referee camera cards and seat presses on
a simple clock (``Table``) and checks the decisions. Decisions are compared without their
timestamps (``untimed``, expectations written with ``NOW``) except where time is the point.

The seat that leads is the one after the dealer: with the dealer at seat 0, seat 1 plays first.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from table.cards import Card, deal_round_robin, make_deck, parse_card, parse_cards, shuffled_deck
from table.decisions import (
    BadSlap,
    CardDead,
    CardMismatch,
    CardPlayed,
    CardsBurned,
    ChallengeLost,
    ChallengePassed,
    ChallengeStarted,
    CountCorrected,
    Decision,
    GameStarted,
    GameWon,
    GoodSlap,
    LastChance,
    PenaltyCard,
    PenaltyOwed,
    PileWon,
    PlayContested,
    PlayerBackIn,
    PlayerOut,
    Rejected,
    SlapIgnored,
    SlapLead,
    StrikeGiven,
    TurnChanged,
)
from table.events import (
    OUT_OF_CARDS,
    OUT_OF_TURN,
    ButtonPressed,
    CardGone,
    CardSeen,
    Command,
    Event,
    SeatAction,
    event_from_json,
)
from table.games.ers.referee import CONTEST, CONTESTABLE, TAKE_PILE, ErsReferee
from table.games.ers.rules import SLAP_CONDITIONS, ErsRules
from table.games.ers.slaps import slap_condition
from table.referee import Expectation, GameSetupError
from table.rules import RulesError, build_rules, load_preset, shipped_presets
from table.units import MS, SECOND
from tests.decision_helpers import NOW, of, one, untimed

# ====================================================================== helpers


STEP = 10_000
"""Nanoseconds between two events on a ``Table`` unless a test gives the time itself."""


def rules(**values: Any) -> ErsRules:
    """A checked rules value: the defaults with ``values`` changed."""
    return build_rules(ErsRules, values)


def only(*conditions: str, **values: Any) -> ErsRules:
    """Rules with exactly the named slap conditions on (plus any other ``values``)."""
    flags = {c: c in conditions for c in SLAP_CONDITIONS if c != "joker"}
    return build_rules(ErsRules, {**flags, **values})


DOUBLES = only("double")
"""Only doubles slap: for tests about challenges and timing, so that no stray condition fires."""

BEGGAR = build_rules(ErsRules, load_preset("ers", "beggar-my-neighbour").values)


def stacked_deal(
    ruleset: ErsRules,
    players: int,
    tops: Sequence[Sequence[str] | str] = (),
    sizes: Sequence[int | None] | None = None,
) -> list[list[Card]]:
    """The rules' whole deck dealt so that each hand starts with its ``tops`` (top card first).

    The rest of the deck, in ``make_deck`` order, fills the hands: a hand with an ``int`` in
    ``sizes`` gets exactly that many cards, the others (``None``, or all when ``sizes`` is None)
    share the remainder as evenly as possible, lower seats first.
    """
    rest = [c.face for c in make_deck(ruleset.decks, ruleset.jokers_per_deck)]
    hands: list[list[Card]] = []
    for seat in range(players):
        codes = tops[seat] if seat < len(tops) else []
        hand = parse_cards(codes)
        for card in hand:
            if card not in rest:
                raise ValueError(f"stacked_deal: {card} is not left in the deck for seat {seat}")
            rest.remove(card)
        hands.append(hand)
    wanted = list(sizes) if sizes is not None else [None] * players
    for seat, size in enumerate(wanted):
        if size is not None:
            if size < len(hands[seat]):
                raise ValueError(f"stacked_deal: seat {seat} has more tops than its size {size}")
            while len(hands[seat]) < size:
                hands[seat].append(rest.pop(0))
    flexible = [s for s, size in enumerate(wanted) if size is None]
    if rest and not flexible:
        raise ValueError(f"stacked_deal: {len(rest)} cards left over and no hand to take them")
    while rest:
        smallest = min(flexible, key=lambda s: (len(hands[s]), s))
        hands[smallest].append(rest.pop(0))
    return hands


def game_state(referee: ErsReferee) -> dict[str, Any]:
    """The snapshot without the referee's clock (``last_t``), which any in-order event moves on."""
    state = referee.snapshot()
    del state["last_t"]
    return state


class Table:
    """A referee and a clock: each card or press is ``STEP`` ns after the previous input."""

    def __init__(
        self,
        ruleset: ErsRules,
        players: int = 2,
        tops: Sequence[Sequence[str] | str] = (),
        sizes: Sequence[int | None] | None = None,
        dealer: int = 0,
        seed: int = 0,
    ) -> None:
        deal = stacked_deal(ruleset, players, tops, sizes)
        self.ref = ErsReferee(ruleset, players, dealer=dealer, seed=seed, deal=deal)
        self.t = 0
        self.log: list[Decision] = self.ref.start(self.t)

    def tick(self, at: int | None = None) -> int:
        """Move the clock on by ``STEP`` (or to ``at``) and return the new time."""
        self.t = self.t + STEP if at is None else at
        return self.t

    def send(self, event: Event) -> list[Decision]:
        out = self.ref.handle(event)
        self.log += out
        return out

    def card(self, code: str, *, at: int | None = None, zone: str = "pile", stacked: bool = True) -> list[Decision]:
        """The camera sees ``code`` land in ``zone``; with ``stacked`` the deal must have predicted it."""
        out = self.send(CardSeen(self.tick(at), "camera", parse_card(code), zone))
        if stacked:
            assert not of(out, CardMismatch), f"the stacked deal did not put {code} there: {out}"
        return out

    def play(self, codes: str) -> list[Decision]:
        """Several cards, one after the other, each played by whoever's turn it is."""
        out: list[Decision] = []
        for code in codes.split():
            out += self.card(code)
        return out

    def press(self, *seats: int, at: int | None = None) -> list[Decision]:
        """The seats' buttons go down at the very same time (one seat: a plain press)."""
        t = self.tick(at)
        out: list[Decision] = []
        for seat in seats:
            out += self.send(ButtonPressed(t, "gpio", seat))
        return out

    def settle(self) -> list[Decision]:
        """Tell the referee that time has moved past the last press, so it decides."""
        out = self.ref.advance(self.t + 1)
        self.log += out
        return out

    def slap(self, *seats: int, at: int | None = None) -> list[Decision]:
        """Press (tied presses when several seats) and let the referee decide."""
        return self.press(*seats, at=at) + self.settle()

    def hand(self, seat: int) -> list[str | None]:
        return self.ref.snapshot()["hands"][seat]

    def hand_sizes(self) -> list[int]:
        return [len(h) for h in self.ref.snapshot()["hands"]]


def tops_for(ruleset: ErsRules, codes: str, players: int = 2, dealer: int = 0) -> list[list[str]]:
    """Which hand each card of ``codes`` must come from when they are played in turn, no slaps.

    Found by a dry run on a referee with unknown hands; the sequence must not end a challenge.
    """
    dry = ErsReferee(ruleset, players, dealer)
    tops: list[list[str]] = [[] for _ in range(players)]
    for i, code in enumerate(codes.split()):
        out = dry.handle(CardSeen(i, "dry-run", parse_card(code), "pile"))
        assert not of(out, ChallengeLost, PileWon), f"{codes!r} ends a challenge: not a plain sequence"
        tops[one(out, CardPlayed).seat].append(code)
    return tops


def playing(ruleset: ErsRules, codes: str, players: int = 2) -> Table:
    """A table on which ``codes`` have just been played, in turn, from a deal stacked for them."""
    table = Table(ruleset, players, tops_for(ruleset, codes, players))
    table.play(codes)
    return table


def pressed_good(table: Table, seat: int, condition: str) -> None:
    """``seat`` slaps now and takes the whole pile for ``condition``."""
    pile = table.ref.pile_size()
    out = table.slap(seat)
    assert untimed(out) == [
        GoodSlap(NOW, seat, condition),
        PileWon(NOW, seat, pile, f"slap: {condition}"),
        TurnChanged(NOW, seat),
    ]


def pressed_bad(table: Table, seat: int) -> None:
    """``seat`` slaps now on a pile that is not slappable: a bad slap, cards burned."""
    out = table.slap(seat)
    assert of(out, BadSlap) == [BadSlap(table.t, seat)]
    assert one(out, CardsBurned).seat == seat
    assert not of(out, GoodSlap, PileWon)


# ================================================================ set-up and deal


def test_start_announces_game_and_first_player() -> None:
    """The player on the dealer's left leads; a dealt deck's extra card goes to that player."""
    ref = ErsReferee(DOUBLES, 3, dealer=1)
    assert ref.start(0) == [GameStarted(0, "ers", 3, 1, (17, 17, 18)), TurnChanged(0, 2)]
    assert ref.expects() == Expectation("play", 2)


def test_stacked_deal_uses_the_whole_deck() -> None:
    hands = stacked_deal(DOUBLES, 3, tops=[["5H"], [], ["KS", "2C"]], sizes=[None, None, 2])
    assert [len(h) for h in hands] == [25, 25, 2]
    assert sorted(c.code for h in hands for c in h) == sorted(c.code for c in make_deck())
    assert hands[0][0] == parse_card("5H") and hands[2] == parse_cards("KS 2C")


def test_deal_that_is_not_the_rules_deck_is_refused() -> None:
    deal = stacked_deal(DOUBLES, 2)
    deal[0].pop()
    with pytest.raises(GameSetupError, match="missing"):
        ErsReferee(DOUBLES, 2, deal=deal)
    with pytest.raises(GameSetupError, match="missing BJ RJ"):
        ErsReferee(only("double", jokers_per_deck=2), 2, deal=stacked_deal(DOUBLES, 2))


# ================================================================ slap conditions

GOOD_SLAPS = [
    # id, rules, cards played (bottom first), condition reported
    ("double", only("double"), "5H 5C", "double"),
    ("triple-with-double-off", only("triple"), "4H 4C 4D", "triple"),
    ("sandwich", only("sandwich"), "5H 7C 5D", "sandwich"),
    ("hoagie", only("hoagie"), "5H 7C 8D 5S", "hoagie"),
    ("top-bottom", only("top_bottom"), "4H 7C 2D 8S 4D", "top_bottom"),
    ("tens-three-cards", only("tens"), "3H 5C 2D", "tens"),
    ("tens-ace-counts-one", only("tens"), "9H AC", "tens"),
    ("tens-face-zero", only("tens", tens_face_cards="zero"), "4H KC 6D", "tens"),
    ("tens-ace-as-face-zero", only("tens", tens_face_cards="zero", tens_ace_counts_one=False), "4H AC 6D", "tens"),
    ("run3-up", only("run", run_length=3), "5H 6C 7D", "run"),
    ("run3-down", only("run", run_length=3), "7H 6C 5D", "run"),
    ("run4-up", only("run"), "5H 6C 7D 8S", "run"),
    ("run4-down", only("run"), "8H 7C 6D 5S", "run"),
    ("run-ace-low-up", only("run"), "AH 2C 3D 4S", "run"),
    ("run-ace-low-down", only("run"), "4H 3C 2D AS", "run"),
    ("run-ace-high-up", only("run"), "JH QC KD AS", "run"),
    ("run-ace-high-down", only("run"), "AH KC QD JS", "run"),
    ("run-wrap-up", only("run", run_wrap=True), "QH KC AD 2S", "run"),
    ("run-wrap-down", only("run", run_wrap=True), "2H AC KD QS", "run"),
    ("marriage-queen-on-king", only("marriage"), "KH QC", "marriage"),
    ("marriage-king-on-queen", only("marriage"), "QH KC", "marriage"),
    ("joker-alone", only(jokers_per_deck=2), "RJ", "joker"),
    ("joker-on-a-card", only(jokers_per_deck=2), "5H BJ", "joker"),
]


@pytest.mark.parametrize(("ruleset", "codes", "condition"), [c[1:] for c in GOOD_SLAPS], ids=[c[0] for c in GOOD_SLAPS])
def test_condition_on_is_a_good_slap(ruleset: ErsRules, codes: str, condition: str) -> None:
    table = playing(ruleset, codes)
    assert table.ref.slap_condition() == condition
    pressed_good(table, 0, condition)
    assert table.ref.pile_size() == 0
    assert table.ref.expects() == Expectation("play", 0)


BAD_SLAPS = [
    # id, rules (the condition the cards would show is off, another is on), cards played
    ("double-off", only("sandwich"), "5H 5C"),
    ("triple-off", only("hoagie"), "4H 4C 4D"),
    ("double-off-triple-on-pair", only("triple"), "4H 4C"),
    ("sandwich-off", only("double"), "5H 7C 5D"),
    ("hoagie-off", only("double"), "5H 7C 8D 5S"),
    ("top-bottom-off", only("double"), "4H 7C 2D 8S 4D"),
    ("tens-off", only("double"), "3H 5C 2D"),
    ("tens-over-ten", only("tens"), "3H 5C 4D"),
    ("tens-ten-alone", only("tens"), "2H 10C"),
    ("tens-face-breaks", only("tens"), "4H KC 6D"),
    ("tens-ace-not-one", only("tens", tens_ace_counts_one=False), "9H AC"),
    ("tens-zero-but-ace-counts-one", only("tens", tens_face_cards="zero"), "4H AC 6D"),
    ("run-off", only("double"), "5H 6C 7D 8S"),
    ("run-of-3-when-4-needed", only("run"), "5H 6C 7D"),
    ("run-with-a-gap", only("run", run_length=3), "5H 6C 8D"),
    ("run-up-then-down", only("run", run_length=3), "5H 6C 5D"),
    ("run-no-wrap", only("run"), "QH KC AD 2S"),
    ("run-no-wrap-down", only("run"), "2H AC KD QS"),
    ("marriage-off", only("double"), "KH QC"),
    ("marriage-not-adjacent", only("marriage"), "KH 5C QD"),
    ("joker-off", only("double", jokers_per_deck=2, joker_slap=False), "5H RJ"),
    ("jokers-are-no-double", only("double", jokers_per_deck=2, joker_slap=False), "RJ BJ"),
    ("empty-pile", DOUBLES, ""),
]


@pytest.mark.parametrize(("ruleset", "codes"), [c[1:] for c in BAD_SLAPS], ids=[c[0] for c in BAD_SLAPS])
def test_condition_off_is_a_bad_slap(ruleset: ErsRules, codes: str) -> None:
    table = playing(ruleset, codes)
    assert table.ref.slap_condition() is None
    pressed_bad(table, 0)


def test_triple_is_reported_before_double() -> None:
    """With both on, three of a kind is a triple (the most specific condition)."""
    assert playing(only("double", "triple"), "4H 4C 4D").ref.slap_condition() == "triple"


def test_top_bottom_does_not_count_once_cards_are_burned_under_the_pile() -> None:
    table = Table(only("top_bottom"), tops=[["7C", "2S", "3S", "8S"], ["4H", "2D", "4D"]])
    table.play("4H 7C")
    pressed_bad(table, 0)  # seat 0 burns 2S 3S under the 4H
    table.play("2D 8S 4D")
    assert table.ref.played[0] == parse_card("4H") and table.ref.played[-1] == parse_card("4D")
    assert table.ref.slap_condition() is None
    pressed_bad(table, 1)


def test_top_bottom_counts_again_on_the_next_pile() -> None:
    """Burned cards stop top-bottom only for the pile they are under."""
    table = Table(rules(), tops=[["7C", "2S", "3S", "7S", "9D"], ["4H", "7D", "9C", "2H"]])
    table.play("4H 7C")
    pressed_bad(table, 0)  # 2S 3S burned under the pile
    table.card("7D")
    pressed_good(table, 1, "double")  # seat 1 takes the pile, burned cards and all
    table.play("9C 7S 2H 9D")  # a new pile with nothing burned under it
    pressed_good(table, 0, "top_bottom")


# ================================================================ bad slaps


@pytest.mark.parametrize("burn", [1, 2, 3])
def test_bad_slap_burns_cards_that_the_pile_winner_gets(burn: int) -> None:
    table = Table(only("double", burn=burn), tops=[["8C", "2S", "4S", "6S", "10D"], ["3H", "8H"]])
    table.play("3H 8C")
    out = table.slap(0)
    burned = parse_cards("2S 4S 6S")[:burn]
    assert untimed(out) == [BadSlap(NOW, 0), CardsBurned(NOW, 0, burn, tuple(burned))]
    assert table.ref.pile_size() == 2 + burn
    assert table.ref.expects() == Expectation("play", 1), "play goes on with whoever's turn it was"
    table.card("8H")
    pressed_good(table, 1, "double")
    hand = table.hand(1)
    assert len(hand) == 24 + 3 + burn
    assert sorted(hand[-(3 + burn) : -3]) == sorted(c.code for c in burned)
    assert hand[-3:] == ["3H", "8C", "8H"]


def test_a_card_played_before_its_player_burned_is_played_and_the_burn_took_the_next_cards() -> None:
    """Seat 0 puts 5S down and, before the camera has reported it, slaps badly: the referee burns
    what it believes are seat 0's top cards, 5S and 7S, but 5S lies on the pile and the burn took
    7S and 9S. The 5S reported next is played (with a mismatch: 9S was expected), and the burned
    cards are what seat 0 really burned."""
    table = Table(DOUBLES, tops=[["5S", "7S", "9S", "JS"], ["3H"]])
    table.card("3H")
    out = table.slap(0)
    assert one(out, CardsBurned).cards == tuple(parse_cards("5S 7S"))
    out = table.card("5S", stacked=False)
    assert untimed(out)[:2] == [
        CardMismatch(NOW, 0, parse_card("9S"), parse_card("5S")),
        CardPlayed(NOW, 0, parse_card("5S"), 4),
    ]
    assert sorted(table.ref.snapshot()["burned"]) == ["7S", "9S"]
    assert table.hand(0)[0] == "JS"


def test_a_card_played_that_was_guessed_at_the_bottom_of_a_hand_is_guessed_there_no_more() -> None:
    """The deal is not known (as at a real table). Seat 0 wins JD JC to the bottom of its hand,
    then puts that pile on top by mistake and lays the JD from what the referee thought were its
    unknown cards: the JD guessed at the bottom is not known any more, and when seat 0 reaches
    that place, whatever card comes is no mismatch."""
    ref = ErsReferee(DOUBLES, 3)
    ref.start(0)
    ref.handle(CardSeen(1 * SECOND, "camera", parse_card("JD"), "pile"))
    ref.handle(CardSeen(2 * SECOND, "camera", parse_card("JC"), "pile"))
    ref.handle(ButtonPressed(3 * SECOND, "gpio", 0))
    assert of(ref.advance(3 * SECOND), PileWon)
    assert list(ref.hands[0])[-2:] == parse_cards("JD JC")
    ref.handle(CardSeen(4 * SECOND, "camera", parse_card("JD"), "pile"))
    assert list(ref.hands[0])[-2:] == [None, parse_card("JC")]
    assert sum(c == parse_card("JD") for hand in ref.hands for c in hand) == 0
    restored = ErsReferee.restore(ref.snapshot())
    assert restored.snapshot() == ref.snapshot()


def test_bad_slap_burns_no_more_than_the_hand_holds() -> None:
    table = Table(only("double", burn=3), players=3, tops=[["KD"], ["3H"]], sizes=[1, None, None])
    table.card("3H")
    out = table.slap(0)
    assert untimed(out) == [BadSlap(NOW, 0), CardsBurned(NOW, 0, 1, (parse_card("KD"),)), PlayerOut(NOW, 0)]
    assert table.ref.expects() == Expectation("play", 2), "not seat 0's turn: play goes on"
    assert table.ref.pile_size() == 2


def test_bad_slap_that_empties_the_player_to_play_passes_the_turn() -> None:
    table = Table(DOUBLES, players=3, tops=[["9C"], ["3H"], ["KD", "2D"]], sizes=[None, None, 2])
    table.card("3H")
    assert table.ref.expects().seat == 2
    out = table.slap(2)
    assert untimed(out) == [
        BadSlap(NOW, 2),
        CardsBurned(NOW, 2, 2, tuple(parse_cards("KD 2D"))),
        PlayerOut(NOW, 2),
        TurnChanged(NOW, 0),
    ]


@pytest.mark.parametrize("limit", [1, 3])
def test_bad_slaps_without_cards_are_strikes_until_barred(limit: int) -> None:
    table = Table(only("double", strikes_limit=limit), players=3, tops=[["3C"], ["3H"]], sizes=[None, None, 0])
    table.card("3H")
    for strike in range(1, limit + 1):
        out = table.slap(2)
        assert untimed(out) == [BadSlap(NOW, 2), StrikeGiven(NOW, 2, strike, strike == limit)]
        assert table.ref.pile_size() == 1, "a strike burns nothing"
    table.card("3C")  # a double now: still no slapping back in
    out = table.slap(2)
    assert len(out) == 1 and isinstance(out[0], SlapIgnored) and out[0].seat == 2
    assert "strikes" in out[0].reason
    assert table.ref.pile_size() == 2


def test_strikes_count_only_for_players_without_cards() -> None:
    table = Table(only("double", strikes_limit=1), tops=[["9C", "2S", "3S"], ["3H"]])
    table.card("3H")
    out = table.slap(0)
    assert not of(out, StrikeGiven) and one(out, CardsBurned).count == 2
    assert table.ref.snapshot()["strikes"] == [0, 0]


# ================================================================ face-card challenges

CHALLENGES = [("AH", 4), ("KH", 3), ("QH", 2), ("JH", 1)]


@pytest.mark.parametrize(("face", "chances"), CHALLENGES, ids=[f[0] for f in CHALLENGES])
def test_face_card_gives_the_next_player_its_chances(face: str, chances: int) -> None:
    answers = ["2C", "4D", "6S", "8C"][:chances]
    table = Table(DOUBLES, tops=[[*answers, "9S"], [face, "3C"]])
    out = table.card(face)
    assert untimed(out[1:]) == [ChallengeStarted(NOW, 1, 0, parse_card(face), chances), TurnChanged(NOW, 0)]
    for code in answers[:-1]:
        out = table.card(code)
        assert untimed(out) == [CardPlayed(NOW, 0, parse_card(code), table.ref.pile_size())]
        assert table.ref.expects().seat == 0
    out = table.card(answers[-1])
    assert untimed(out[1:]) == [
        ChallengeLost(NOW, 0, 1),
        PileWon(NOW, 1, chances + 1, "challenge"),
        TurnChanged(NOW, 1),
    ]
    assert table.ref.expects() == Expectation("play", 1), "the challenger leads the next pile"
    assert table.hand_sizes() == [26 - chances, 26 + chances]
    assert one(table.card("3C"), CardPlayed).seat == 1


def test_answering_with_a_face_card_passes_the_challenge_on() -> None:
    table = Table(DOUBLES, tops=[["5C", "QD"], ["KH", "7S", "8S"]])
    table.play("KH 5C")
    out = table.card("QD")
    assert untimed(out[1:]) == [ChallengeStarted(NOW, 0, 1, parse_card("QD"), 2), TurnChanged(NOW, 1)]
    table.card("7S")
    out = table.card("8S")
    assert untimed(out[1:]) == [ChallengeLost(NOW, 1, 0), PileWon(NOW, 0, 5, "challenge"), TurnChanged(NOW, 0)]


def test_face_card_challenge_goes_to_the_next_player_with_cards() -> None:
    """With three players, the face card challenges the next seat clockwise that holds cards."""
    table = Table(DOUBLES, players=3, tops=[["4C"], ["AH"], []], sizes=[None, None, 0])
    out = table.card("AH")
    assert untimed(out[1:]) == [ChallengeStarted(NOW, 1, 0, parse_card("AH"), 4), TurnChanged(NOW, 0)]


def test_good_slap_during_a_challenge_wins_the_pile_and_ends_the_challenge() -> None:
    table = Table(DOUBLES, tops=[["5C", "5D", "9C"], ["KH", "2S"]])
    table.play("KH 5C 5D")  # the king still has a chance left
    assert table.ref.expects().seat == 0 and table.ref.challenger == 1
    pressed_good(table, 1, "double")
    assert table.ref.challenger is None
    out = table.card("2S")
    assert untimed(out) == [CardPlayed(NOW, 1, parse_card("2S"), 1), TurnChanged(NOW, 0)]


def test_slap_on_the_card_that_fails_a_challenge_beats_the_challenger() -> None:
    table = Table(DOUBLES, tops=[["7C", "7D"], ["QH", "2S"]])
    table.play("QH 7C")
    out = table.card("7D")
    assert untimed(out[1:]) == [ChallengeLost(NOW, 0, 1), TurnChanged(NOW, 1)], "the claim waits for slaps"
    assert table.ref.expects() == Expectation("play", 1, "takes the pile, then leads")
    pressed_good(table, 0, "double")
    assert table.hand_sizes() == [27, 25]


def test_seed_example_top_bottom_on_the_card_that_fails_a_queen() -> None:
    """The rule sheet's top-bottom example 4-7-2-Q-8-4, where the last 4 is also the queen's last chance."""
    table = Table(rules(), tops=[["7C", "QD"], ["4H", "2D", "8S", "4S"]])
    out = table.play("4H 7C 2D QD 8S 4S")
    assert one(out, ChallengeLost) == ChallengeLost(table.t, 1, 0)
    assert not of(out, PileWon)
    pressed_good(table, 1, "top_bottom")


def test_unslapped_failed_challenge_goes_to_the_challenger_with_the_next_card() -> None:
    table = Table(DOUBLES, tops=[["7C", "7D"], ["QH", "2S"]])
    table.play("QH 7C 7D")
    out = table.card("2S")
    assert untimed(out) == [
        PileWon(NOW, 1, 3, "challenge"),
        TurnChanged(NOW, 1),
        CardPlayed(NOW, 1, parse_card("2S"), 1),
        TurnChanged(NOW, 0),
    ]
    pressed_bad(table, 0)  # the slap now is on the new pile: 2S alone


def test_camera_seeing_the_pile_taken_settles_the_challengers_claim() -> None:
    table = Table(DOUBLES, tops=[["7C", "7D"], ["QH", "2S"]])
    table.play("QH 7C 7D")
    out = table.send(CardGone(table.tick(), "camera", "pile", None))
    assert untimed(out) == [PileWon(NOW, 1, 3, "challenge"), TurnChanged(NOW, 1)]
    out = table.slap(0)
    assert untimed(out) == [SlapIgnored(NOW, 0, "late: the pile was already won on this card")]


def test_runout_next_player_goes_on_with_the_chances_left() -> None:
    table = Table(DOUBLES, players=3, tops=[["2D", "3S"], ["KH"], ["5C"]], sizes=[None, None, 1])
    table.card("KH")
    out = table.card("5C")
    assert untimed(out[1:]) == [PlayerOut(NOW, 2), ChallengePassed(NOW, 2, 0, 2), TurnChanged(NOW, 0)]
    assert table.ref.expects().seat == 0
    assert not of(table.card("2D"), ChallengeLost)
    out = table.card("3S")
    assert untimed(out[1:]) == [ChallengeLost(NOW, 0, 1), PileWon(NOW, 1, 4, "challenge"), TurnChanged(NOW, 1)]


def test_runout_challenger_takes_gives_the_pile_at_once() -> None:
    rule = only("double", runout="challenger-takes")
    table = Table(rule, players=3, tops=[["2D"], ["KH"], ["5C"]], sizes=[None, None, 1])
    table.card("KH")
    out = table.card("5C")
    assert untimed(out[1:]) == [
        PlayerOut(NOW, 2),
        ChallengeLost(NOW, 2, 1),
        PileWon(NOW, 1, 2, "challenge"),
        TurnChanged(NOW, 1),
    ]


def test_runout_next_player_never_passes_back_to_the_challenger() -> None:
    """Two players: the only next player is the challenger, so the challenge is lost."""
    table = Table(DOUBLES, tops=[["5C"], ["KH"]], sizes=[1, None])
    table.card("KH")
    out = table.card("5C")
    assert untimed(out[1:]) == [
        PlayerOut(NOW, 0),
        ChallengeLost(NOW, 0, 1),
        PileWon(NOW, 1, 2, "challenge"),
        TurnChanged(NOW, 1),
        LastChance(NOW, 1, 3),
    ]


# ================================================================ slapping back in


def test_player_out_of_cards_slaps_back_in() -> None:
    table = Table(rules(), players=3, tops=[["8C"], ["3H"], ["8H"]], sizes=[None, None, 1])
    out = table.play("3H 8H")
    assert untimed(out[-2:]) == [PlayerOut(NOW, 2), TurnChanged(NOW, 0)]
    table.card("8C")
    out = table.slap(2)
    assert untimed(out) == [
        GoodSlap(NOW, 2, "double"),
        PileWon(NOW, 2, 3, "slap: double"),
        PlayerBackIn(NOW, 2),
        TurnChanged(NOW, 2),
    ]
    assert table.hand_sizes()[2] == 3


def test_slap_in_off_refuses_players_without_cards() -> None:
    table = Table(only("double", slap_in=False), players=3, tops=[["8C"], ["8H"]], sizes=[None, None, 0])
    table.play("8H 8C")
    before = game_state(table.ref)
    out = table.slap(2)
    assert untimed(out) == [SlapIgnored(NOW, 2, "out of cards, and slapping back in is off")]
    assert game_state(table.ref) == before


def test_no_slap_in_when_fewer_than_two_players_hold_cards() -> None:
    table = Table(DOUBLES, tops=[["5H"], ["3H", "5C"]], sizes=[None, 2])
    out = table.play("3H 5H 5C")
    assert untimed(out[-2:]) == [PlayerOut(NOW, 1), TurnChanged(NOW, 0)]
    out = table.slap(1)
    assert untimed(out) == [SlapIgnored(NOW, 1, "fewer than two players hold cards")]
    assert table.ref.pile_size() == 3


# ================================================================ last chance


def lone_table(rule: ErsRules, seat0: str = "") -> tuple[Table, list[Decision]]:
    """Two players; seat 1 runs out failing seat 0's jack, so seat 0 holds every card."""
    table = Table(rule, tops=[["JC", *seat0.split()], ["4C", "6D"]], sizes=[None, 2])
    out = table.play("4C JC 6D")
    return table, out


def test_one_player_with_every_card_plays_last_chance_cards() -> None:
    table, out = lone_table(rules(), "2D 9H 5S 3C")
    assert untimed(out[-4:]) == [
        ChallengeLost(NOW, 1, 0),
        PileWon(NOW, 0, 3, "challenge"),
        TurnChanged(NOW, 0),
        LastChance(NOW, 0, 3),
    ]
    assert table.ref.expects() == Expectation("play", 0, "last chance: 3 more card(s)")
    assert untimed(table.play("2D 9H")) == [
        CardPlayed(NOW, 0, parse_card("2D"), 1),
        CardPlayed(NOW, 0, parse_card("9H"), 2),
    ]
    out = table.card("5S")
    assert untimed(out) == [
        CardPlayed(NOW, 0, parse_card("5S"), 3),
        PileWon(NOW, 0, 3, "last chance over"),
        TurnChanged(NOW, 0),
        GameWon(NOW, 0),
    ]
    assert table.ref.finished and table.ref.expects().action == "none"
    assert table.hand_sizes() == [52, 0]


def test_face_cards_in_the_last_chance_start_no_challenge() -> None:
    table, _ = lone_table(rules(), "KD 2D 9H")
    out = table.play("KD 2D 9H")
    assert not of(out, ChallengeStarted)
    assert of(out, GameWon) == [GameWon(table.t, 0)]


def test_slap_in_during_the_last_chance_puts_the_slapper_back_in() -> None:
    table, _ = lone_table(rules(), "7H 7S 9H")
    table.play("7H 7S")
    out = table.slap(1)
    assert untimed(out) == [
        GoodSlap(NOW, 1, "double"),
        PileWon(NOW, 1, 2, "slap: double"),
        PlayerBackIn(NOW, 1),
        TurnChanged(NOW, 1),
    ]
    assert not table.ref.finished
    assert table.ref.expects() == Expectation("play", 1)
    assert table.hand_sizes() == [50, 2]


def test_slap_in_on_the_last_last_chance_card_counts() -> None:
    table, _ = lone_table(rules(), "2D 7H 7S")
    table.play("2D 7H 7S")  # the third and last card makes a double
    out = table.slap(1)
    assert of(out, GoodSlap) == [GoodSlap(table.t, 1, "double")]
    assert of(out, PlayerBackIn) == [PlayerBackIn(table.t, 1)]


def test_no_last_chance_cards_wins_at_once() -> None:
    _, out = lone_table(rules(last_chance_cards=0))
    assert untimed(out[-3:]) == [PileWon(NOW, 0, 3, "challenge"), TurnChanged(NOW, 0), GameWon(NOW, 0)]
    assert not of(out, LastChance)


def test_no_last_chance_when_nobody_may_slap_in() -> None:
    _, out = lone_table(rules(slap_in=False))
    assert not of(out, LastChance)
    assert untimed(out[-1:]) == [GameWon(NOW, 0)]


def test_last_chance_card_count_is_what_the_rules_say() -> None:
    _, out = lone_table(rules(last_chance_cards=5))
    assert of(out, LastChance)[0].cards == 5


# ================================================================ slap timing


def double_on_three_seats(rule: ErsRules = DOUBLES) -> Table:
    """Three seats; seat 1 plays 8H at t=1000, seat 2 plays 8C at t=2000 (a double)."""
    table = Table(rule, players=3, tops=[["2C", "4C", "6C"], ["8H", "9D"], ["8C", "JD", "KD"]])
    table.card("8H", at=1000)
    table.card("8C", at=2000)
    return table


def test_a_press_is_decided_only_when_time_moves_on() -> None:
    table = double_on_three_seats()
    assert table.press(0, at=2100) == []
    assert table.ref.advance(2099) == []
    out = table.ref.advance(2100)
    assert one(out, GoodSlap) == GoodSlap(2100, 0, "double")


def test_earlier_press_wins_and_the_later_one_is_late() -> None:
    table = double_on_three_seats()
    assert table.press(2, at=2100) == []
    out = table.press(1, at=2101)
    assert out == [GoodSlap(2100, 2, "double"), PileWon(2100, 2, 2, "slap: double"), TurnChanged(2100, 2)]
    out = table.settle()
    assert out == [SlapLead(2101, 2, 1, 1), SlapIgnored(2101, 1, "late: the pile was already won on this card")]


def test_press_before_the_card_that_makes_a_double_is_a_bad_slap() -> None:
    table = Table(DOUBLES, players=3, tops=[["2C", "4C", "6C"], ["8H"], ["8C"]])
    table.card("8H", at=1000)
    table.press(0, at=1999)
    out = table.card("8C", at=2000)
    assert out[:2] == [BadSlap(1999, 0), CardsBurned(1999, 0, 2, tuple(parse_cards("2C 4C")))]
    assert out[2] == CardPlayed(2000, 2, parse_card("8C"), 4)
    out = table.slap(1, at=2001)  # after the card: the double (burned cards under it) is good
    assert one(out, GoodSlap) == GoodSlap(2001, 1, "double")
    assert one(out, PileWon).cards == 4


def test_press_at_the_same_time_as_the_card_sees_the_card() -> None:
    """A card and a press at the same nanosecond: the referee takes the card first, as the
    sequencer hands them over, whatever order they come in."""
    table = Table(DOUBLES, players=3, tops=[["2C"], ["8H"], ["8C"]])
    table.card("8H", at=1000)
    table.card("8C", at=2000)
    table.press(0, at=2000)
    assert one(table.settle(), GoodSlap) == GoodSlap(2000, 0, "double")


def test_press_is_decided_by_the_next_card_but_on_the_pile_at_its_time() -> None:
    """A press at 2100 waits until the card at 2200; it is judged, and stamped, as of 2100."""
    table = double_on_three_seats()
    table.press(1, at=2100)
    out = table.card("9D", at=2200)  # seat 1 took the pile, so it leads
    assert out == [
        GoodSlap(2100, 1, "double"),
        PileWon(2100, 1, 2, "slap: double"),
        TurnChanged(2100, 1),
        CardPlayed(2200, 1, parse_card("9D"), 1),
        TurnChanged(2200, 2),
    ]


@pytest.mark.parametrize("late_slaps", ["ignore", "penalty"])
def test_late_presses(late_slaps: str) -> None:
    table = double_on_three_seats(only("double", late_slaps=late_slaps))
    table.slap(2, at=2100)
    out = table.slap(0, at=2200)
    assert out[0] == SlapLead(2200, 2, 0, 100)  # seat 0 was 100 ns behind
    if late_slaps == "ignore":
        assert out[1:] == [SlapIgnored(2200, 0, "late: the pile was already won on this card")]
        assert table.ref.pile_size() == 0
    else:
        assert out[1:] == [BadSlap(2200, 0), CardsBurned(2200, 0, 2, tuple(parse_cards("2C 4C")))]
        assert table.ref.pile_size() == 2


def test_late_press_after_a_challenge_won() -> None:
    table = Table(DOUBLES, tops=[["2C"], ["JH"]])
    table.play("JH 2C")
    assert table.slap(0) == [SlapIgnored(table.t, 0, "late: the pile was already won on this card")]


def test_presses_after_the_next_card_are_on_time_again() -> None:
    table = double_on_three_seats()
    table.slap(2, at=2100)
    table.card("JD", at=2200)  # seat 2 leads the new pile
    out = table.slap(0, at=2300)
    assert of(out, BadSlap) == [BadSlap(2300, 0)]


# ================================================================ exact ties


def tie_table(tie: str, players: int = 3, seed: int = 0) -> Table:
    """Seat 1 plays 8H and seat 2 8C: a double for the tests to slap at the very same time."""
    table = Table(only("double", tie=tie), players, tops=[[], ["8H"], ["8C"]], seed=seed)
    table.play("8H 8C")
    return table


def random_tie_winner(seed: int) -> int:
    return one(tie_table("random", seed=seed).slap(0, 2), GoodSlap).seat


def test_random_tie_picks_one_and_ignores_the_other() -> None:
    table = tie_table("random", seed=7)
    out = table.slap(0, 2)
    good = one(out, GoodSlap)
    loser = 2 if good.seat == 0 else 0
    assert good.tied_with == (loser,)
    assert of(out, SlapIgnored) == [SlapIgnored(table.t, loser, f"exact tie lost to seat {good.seat}")]
    assert one(out, PileWon).seat == good.seat
    assert not of(out, BadSlap, CardsBurned)


def test_random_tie_is_reproducible_for_a_seed_and_varies_between_seeds() -> None:
    winners = [random_tie_winner(seed) for seed in range(20)]
    assert winners == [random_tie_winner(seed) for seed in range(20)]
    assert set(winners) == {0, 2}


@pytest.mark.parametrize(("seats", "winner"), [((0, 3), 3), ((3, 0), 3), ((0, 1), 0), ((1, 2), 1), ((2, 0), 0)])
def test_seat_order_tie_goes_to_the_first_seat_after_the_top_cards_player(seats: tuple[int, ...], winner: int) -> None:
    """Seat 2 played the top card: clockwise after it come seats 3, 0, 1, then 2 itself."""
    table = tie_table("seat-order", players=4)
    out = table.slap(*seats)
    assert one(out, GoodSlap) == GoodSlap(table.t, winner, "double", tuple(s for s in seats if s != winner))
    assert one(out, PileWon).seat == winner


def test_nobody_tie_leaves_the_pile_and_gives_no_penalty() -> None:
    table = tie_table("nobody")
    before = game_state(table.ref)
    out = table.slap(0, 1)
    assert untimed(out) == [
        SlapIgnored(NOW, 0, "exact tie: nobody takes the pile"),
        SlapIgnored(NOW, 1, "exact tie: nobody takes the pile"),
    ]
    assert game_state(table.ref) == before
    assert one(table.slap(0), GoodSlap).seat == 0, "a later single press still takes it"


def test_tie_among_bad_slaps_penalises_everyone() -> None:
    table = Table(only("double", tie="nobody"), players=3, tops=[["2C", "4C", "6C"], ["8H"], ["9C", "JD", "KD"]])
    table.play("8H 9C")
    out = table.slap(0, 1)
    assert of(out, BadSlap) == [BadSlap(table.t, 0), BadSlap(table.t, 1)]


def test_same_seat_pressing_twice_at_one_time_is_one_press() -> None:
    """A bouncing button is no tie with itself, and burns once on a bad pile."""
    table = tie_table("nobody")
    out = table.slap(0, 0)
    assert untimed(out) == [GoodSlap(NOW, 0, "double"), PileWon(NOW, 0, 2, "slap: double"), TurnChanged(NOW, 0)]
    table = Table(DOUBLES, players=3, tops=[["2C", "4C", "6C"], ["8H"], ["9C"]])
    table.play("8H 9C")
    out = table.slap(0, 0)
    assert untimed(out) == [BadSlap(NOW, 0), CardsBurned(NOW, 0, 2, tuple(parse_cards("2C 4C")))]


# ================================================================ beggar-my-neighbour


def test_beggar_preset_has_no_slaps() -> None:
    assert BEGGAR.slaps is False and BEGGAR.last_chance_cards == 0
    table = Table(BEGGAR, tops=[["8C"], ["8H"]])
    table.play("8H 8C")
    before = game_state(table.ref)
    assert untimed(table.slap(0, 1)) == [
        SlapIgnored(NOW, 0, "this game has no slaps"),
        SlapIgnored(NOW, 1, "this game has no slaps"),
    ]
    assert game_state(table.ref) == before


def test_beggar_failed_challenge_is_won_at_once_even_on_a_double() -> None:
    table = Table(BEGGAR, tops=[["7C", "7D"], ["QH"]])
    out = table.play("QH 7C 7D")
    assert untimed(out[-3:]) == [ChallengeLost(NOW, 0, 1), PileWon(NOW, 1, 3, "challenge"), TurnChanged(NOW, 1)]


def test_beggar_ends_when_one_player_has_every_card() -> None:
    table = Table(BEGGAR, tops=[["JC"], ["4C", "6D"]], sizes=[None, 2])
    out = table.play("4C JC 6D")
    assert untimed(out[-3:]) == [PileWon(NOW, 0, 3, "challenge"), TurnChanged(NOW, 0), GameWon(NOW, 0)]
    assert table.hand_sizes() == [52, 0]


@pytest.mark.parametrize("seed", [0, 2])
def test_beggar_whole_game_from_a_shuffled_deal(seed: int) -> None:
    """Play a whole seeded deal card by card; cards are never lost and the winner holds them all."""
    hands = deal_round_robin(shuffled_deck(random.Random(seed)), 2, 0)
    ref = ErsReferee(BEGGAR, 2, seed=seed, deal=hands)
    t = 0
    while not ref.finished and t < 5000:
        t += 1
        out = ref.handle(CardSeen(t, "camera", ref.hands[ref.turn][0], "pile"))
        assert not of(out, Rejected, CardMismatch)
        assert sum(len(h) for h in ref.hands) + ref.pile_size() == 52
    assert ref.winner is not None, "this deal should end"
    assert len(ref.hands[ref.winner]) == 52


# ================================================================ bad input


def mid_game() -> Table:
    """Four seats, standard rules; seat 1 played 5H and seat 2 played 9C."""
    table = Table(rules(), players=4, tops=[[], ["5H"], ["9C"], ["3D"]])
    table.play("5H 9C")
    return table


def seen(code: str, zone: str = "pile", earlier: int = 0) -> Callable[[int], Event]:
    """An event maker: the camera sees ``code`` in ``zone``, ``earlier`` ns before the time given."""
    return lambda t: CardSeen(t - earlier, "camera", parse_card(code), zone)


BAD_INPUTS: list[tuple[str, Callable[[int], Event], str]] = [
    ("joker-in-no-joker-game", seen("RJ"), "RJ is not in this game's deck"),
    ("card-already-on-pile", seen("5H"), "5H is already on the pile"),
    ("seat-that-does-not-exist", lambda t: ButtonPressed(t, "gpio", 7), "seat 7 does not exist at a table of 4"),
    ("older-than-the-last-event", seen("3D", earlier=STEP + 1), "out of order"),
    ("card-in-another-zone", seen("3D", zone="hand"), "zone 'hand' plays no part"),
    ("command", lambda t: Command(t, "cli", "deal"), "takes no command deal"),
]


@pytest.mark.parametrize(("make", "reason"), [b[1:] for b in BAD_INPUTS], ids=[b[0] for b in BAD_INPUTS])
def test_bad_input_is_rejected_and_changes_nothing(make: Callable[[int], Event], reason: str) -> None:
    table = mid_game()
    before = game_state(table.ref)
    out = table.send(make(table.t + STEP))
    assert len(out) == 1 and isinstance(out[0], Rejected), out
    assert reason in out[0].reason
    assert game_state(table.ref) == before
    assert one(table.card("3D"), CardPlayed).seat == 3, "the game goes on as before"


def test_second_deck_allows_the_same_card_twice_but_not_three_times() -> None:
    rule = only("double", decks=2)
    table = Table(rule, tops=[["5H"], ["5H", "7C"]])
    table.play("5H 5H")
    assert table.ref.slap_condition() == "double"
    out = table.card("5H", stacked=False)
    assert len(out) == 1 and isinstance(out[0], Rejected) and "already on the pile" in out[0].reason


@pytest.mark.parametrize(
    "make",
    [
        lambda t: ButtonPressed(t, "gpio", 1),
        lambda t: CardSeen(t, "camera", parse_card("2D"), "pile"),
    ],
    ids=["press", "card"],
)
def test_any_input_after_the_game_is_won_is_rejected(make: Callable[[int], Event]) -> None:
    table, _ = lone_table(rules(last_chance_cards=0))
    assert table.ref.finished
    before = game_state(table.ref)
    out = table.send(make(table.tick()))
    assert len(out) == 1 and isinstance(out[0], Rejected), out
    assert out[0].reason == "the game is over"
    assert game_state(table.ref) == before


def test_camera_reading_another_card_than_the_known_one_is_flagged() -> None:
    table = Table(DOUBLES, tops=[[], ["5H"]])
    out = table.card("6C", stacked=False)
    assert untimed(out) == [
        CardMismatch(NOW, 1, parse_card("5H"), parse_card("6C")),
        CardPlayed(NOW, 1, parse_card("6C"), 1),
        TurnChanged(NOW, 0),
    ]


# ======================================================== a count the camera made wrong


def _out_of_cards(table: Table, seat: int) -> list[Decision]:
    return table.send(SeatAction(table.tick(), "command", seat, OUT_OF_CARDS))


def test_a_seat_out_of_cards_on_its_turn_is_out_and_its_counted_cards_go_under_the_pile() -> None:
    """The camera missed seat 1's 4C under seat 2's 9D: the referee credited the 9D to seat 1,
    so seat 2 runs out while the referee still counts a card for it."""
    table = Table(DOUBLES, players=3, tops=[[], ["4C", "9D"], ["8S"]], sizes=[20, 16, 16])
    table.card("9D", stacked=False)  # seat 1's turn: credited to seat 1 (which held 4C, the camera says 9D)
    sizes = table.hand_sizes()
    out = _out_of_cards(table, 1)  # not seat 1's turn now: it is out, the turn stays
    assert untimed(out) == [CountCorrected(NOW, 1, sizes[1]), PlayerOut(NOW, 1)]
    assert table.ref.turn == 2 and table.ref.pile_size() == 1 + sizes[1]
    out = _out_of_cards(table, 2)  # seat 2's turn: out, and the turn passes on
    assert untimed(out) == [CountCorrected(NOW, 2, sizes[2]), PlayerOut(NOW, 2), TurnChanged(NOW, 0)]
    assert sum(table.hand_sizes()) + table.ref.pile_size() == 52  # every card still somewhere
    rejected = _out_of_cards(table, 2)
    assert len(rejected) == 1 and "holds no card by the referee's count already" in rejected[0].reason


def test_out_of_cards_while_answering_a_challenge_passes_it_on_as_running_out_does() -> None:
    table = Table(DOUBLES, players=3, tops=[[], ["KC"], ["5D"]], sizes=[18, 17, 17])
    out = table.card("KC")  # seat 2 answers with 3 chances
    assert one(out, ChallengeStarted).challenger == 1
    out = _out_of_cards(table, 2)
    assert untimed(out)[2:] == [ChallengePassed(NOW, 2, 0, 3), TurnChanged(NOW, 0)]


def test_out_of_cards_on_a_last_chance_ends_it_and_the_game() -> None:
    """Review: the lone player took the pile back and went on for ever."""
    table, _ = lone_table(rules(), "2D 9H 5S 3C")
    table.play("2D")
    out = _out_of_cards(table, 0)
    assert untimed(out)[:2] == [CountCorrected(NOW, 0, 51), PlayerOut(NOW, 0)]  # 52 less the 2D played
    assert untimed(out)[-1] == GameWon(NOW, 0) and table.ref.finished


def test_a_game_replayed_with_its_out_of_cards_reaches_the_same_state() -> None:
    """Replayed as a journal keeps it: each input written as JSON and read back."""
    tables = [Table(DOUBLES, players=3, tops=[[], ["4C", "9D"], ["8S"]], sizes=[20, 16, 16]) for _ in range(2)]
    events = [CardSeen(STEP, "camera", parse_card("9D"), "pile"), SeatAction(2 * STEP, "command", 2, OUT_OF_CARDS)]
    for event in events:
        tables[0].send(event)
        tables[1].send(event_from_json(json.loads(json.dumps(event.to_json()))))
    assert of(tables[0].log, PlayerOut) and tables[0].log == tables[1].log
    assert game_state(tables[0].ref) == game_state(tables[1].ref)
    assert ErsReferee.restore(tables[0].ref.snapshot()).snapshot() == tables[0].ref.snapshot()
    burned = tables[0].ref.burned
    assert len(burned) == 16 and burned[0] == parse_card("8S")  # seat 2's cards, as known, under the pile


# ================================================================ snapshot and restore


def test_restored_snapshot_gives_the_same_decisions() -> None:
    """Mid-challenge, burned cards under the pile and a random tie waiting to be settled."""
    rule = rules(tie="random")
    table = Table(rule, players=3, tops=[["2C", "4C", "7S", "JH"], ["KH", "6D"], ["9D", "9S", "3H"]], seed=11)
    table.play("KH")
    table.slap(0)  # bad: burns 2C 4C
    table.play("9D 9S")  # seat 2 answers the king: a double with a chance left
    table.press(0, 1)  # a tie, not yet settled
    snap = json.loads(json.dumps(table.ref.snapshot()))
    copy = ErsReferee.restore(snap)
    assert copy.snapshot() == table.ref.snapshot()
    later = [
        ButtonPressed(table.t + 1, "gpio", 2),
        CardSeen(table.t + 2 * STEP, "camera", parse_card("7S"), "pile"),
        CardSeen(table.t + 3 * STEP, "camera", parse_card("JH"), "pile"),
        ButtonPressed(table.t + 4 * STEP, "gpio", 1),
    ]
    original = [d for e in later for d in table.ref.handle(e)] + table.ref.advance(table.t + 5 * STEP)
    restored = [d for e in later for d in copy.handle(e)] + copy.advance(table.t + 5 * STEP)
    assert restored == original
    assert of(original, GoodSlap), "the scenario should settle the tie"
    assert copy.snapshot() == table.ref.snapshot()


def test_restore_refuses_something_that_is_not_a_snapshot() -> None:
    with pytest.raises(GameSetupError, match="snapshot"):
        ErsReferee.restore({"game": "ers"})


# ================================================================ the rules value


def test_defaults_are_the_seeds_standard_game() -> None:
    r = ErsRules()
    assert (r.double, r.triple, r.sandwich, r.top_bottom, r.tens, r.run) == (True,) * 6
    assert (r.hoagie, r.marriage, r.run_length, r.burn, r.slap_in) == (False, False, 4, 2, True)
    assert rules() == r


def test_unknown_key_is_refused_by_name() -> None:
    with pytest.raises(RulesError, match=r"unknown rules key 'doubles' \(did you mean 'double'\?\)"):
        rules(doubles=True)


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"burn": "2"}, "rules key 'burn': expected a whole number"),
        ({"burn": True}, "rules key 'burn': expected a whole number"),
        ({"double": 1}, "rules key 'double': expected true or false"),
        ({"tie": "coin"}, "rules key 'tie': 'coin' is not one of"),
        ({"runout": "next"}, "rules key 'runout'"),
    ],
)
def test_bad_type_is_refused_by_name(values: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        build_rules(ErsRules, values)


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"run_length": 5}, "rules key 'run_length': 5 is outside 3..4"),
        ({"run_length": 2}, "rules key 'run_length': 2 is outside 3..4"),
        ({"burn": 0}, "rules key 'burn': 0 is outside 1..3"),
        ({"burn": 4}, "rules key 'burn': 4 is outside 1..3"),
        ({"jokers_per_deck": 3}, "rules key 'jokers_per_deck'"),
        ({"run": False, "run_wrap": True}, "rules key 'run_wrap' is set but 'run' is off"),
        ({"tens": False, "tens_face_cards": "zero"}, "rules key 'tens_face_cards' is set but 'tens' is off"),
        ({"slaps": False, "hoagie": True}, "rules key 'hoagie' is on but 'slaps' is off"),
        (
            {c: False for c in SLAP_CONDITIONS if c != "joker"},
            "rules key 'slaps' is on but every slap condition is off",
        ),
    ],
)
def test_impossible_values_and_combinations_are_refused(values: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        build_rules(ErsRules, values)


def test_a_key_left_at_its_default_is_not_a_conflict() -> None:
    """Only values changed from the defaults count as set: a full rules dict (a journal's) loads."""
    assert not build_rules(ErsRules, {"slaps": False, "double": True}).slaps
    with pytest.raises(RulesError, match="'hoagie'"):
        build_rules(ErsRules, {"slaps": False, "hoagie": True})


def test_only_jokers_is_enough_to_slap() -> None:
    """No condition but the joker: allowed when the deck has jokers."""
    assert only(jokers_per_deck=2).slaps


@pytest.mark.parametrize("name", shipped_presets("ers"))
def test_every_shipped_preset_loads_and_builds(name: str) -> None:
    preset = load_preset("ers", name)
    rule = build_rules(ErsRules, preset.values)
    players = preset.players or 4
    ref = ErsReferee(rule, players)
    assert sum(len(h) for h in ref.hands) == rule.total_cards


def test_the_expected_presets_are_shipped() -> None:
    assert {"standard", "beggar-my-neighbour", "screw", "wikipedia"} <= set(shipped_presets("ers"))
    screw = build_rules(ErsRules, load_preset("ers", "screw").values)
    assert screw.jokers_per_deck == 2 and screw.marriage and screw.double


# ================================================================ the slap's lead


def test_the_next_seats_press_on_the_card_tells_by_how_much_the_slap_won() -> None:
    table = tie_table("random")
    won = table.slap(2, at=1_000_000)
    assert one(won, GoodSlap).seat == 2 and not of(won, SlapLead)
    later = table.slap(0, at=1_023_000)  # Ann 23 µs behind
    assert of(later, SlapLead) == [SlapLead(1_023_000, 2, 0, 23_000)]
    assert not of(table.slap(1, at=1_050_000), SlapLead)  # only the first one behind: the runner-up


def test_no_lead_for_the_winners_own_second_press_a_press_long_after_or_a_tie() -> None:
    table = tie_table("random")
    table.slap(2, at=1_000_000)
    assert not of(table.slap(2, at=1_100_000), SlapLead)  # the winner again
    assert not of(table.slap(0, at=2_500_000_000), SlapLead)  # 2.5 s later: no race any more
    tied = tie_table("random", seed=3)
    tied.slap(0, 2, at=1_000_000)
    assert not of(tied.slap(1, at=1_200_000), SlapLead)  # the tie said it: a dead heat


def test_a_lead_survives_a_snapshot_and_ends_with_the_next_card() -> None:
    table = tie_table("random")
    table.slap(2, at=1_000_000)
    restored = ErsReferee.restore(json.loads(json.dumps(table.ref.snapshot())))
    assert of(restored.handle(ButtonPressed(1_400_000, "gpio", 0)) + restored.advance(1_400_001), SlapLead)
    table.card(table.hand(2)[0] or "2C", at=1_200_000, stacked=False)  # the pile's winner plays on
    assert not of(table.slap(0, at=1_300_000), SlapLead)


# ============================================== settled together, and games that must end


def test_a_last_chance_burned_away_by_bad_slaps_ends_the_game() -> None:
    """Seat 0, alone with every card, plays one last-chance card and slaps badly until its
    hand is under the pile: the last chance is over, it takes the pile back and has won (the
    turn is never left with an empty hand)."""
    table, _ = lone_table(rules(), "2D 9H 5S 3C")
    table.play("2D")
    for _ in range(52):  # a card or two burned a slap: 51 cards gone well within
        out = table.slap(0)
        if not table.hand_sizes()[0] or table.ref.finished:
            break
    assert of(out, GameWon) == [GameWon(table.t, 0)] and table.hand_sizes() == [52, 0]
    assert untimed(table.card("9H", stacked=False)) == [Rejected(NOW, "the game is over", "card-seen")]


def test_tied_bad_slaps_all_burn_before_the_game_is_decided() -> None:
    """Seat 0 answers seat 1's queen, one card left in hand; both slap badly at the same
    nanosecond. Both burn, then seat 0, out of cards, loses the challenge and seat 1 wins: no
    card is burned into a pile after the game is won."""
    table = Table(rules(last_chance_cards=0), tops=[["4C"], ["QC"]], sizes=[2, None])
    table.play("QC 4C")
    out = table.slap(0, 1)
    assert [type(d).__name__ for d in out] == [
        "BadSlap", "CardsBurned", "PlayerOut", "BadSlap", "CardsBurned",
        "ChallengeLost", "PileWon", "TurnChanged", "GameWon",
    ]  # fmt: skip
    assert out[-1] == GameWon(table.t, 1) and table.hand_sizes() == [0, 52]


def test_a_card_and_a_press_at_the_same_nanosecond_count_the_card_first_in_any_order() -> None:
    table = Table(DOUBLES, tops=[["7S"], ["7H"]])
    table.play("7H")
    t = table.tick()
    out = table.send(ButtonPressed(t, "gpio", 1))  # handed over before the card of its moment
    out += table.send(CardSeen(t, "camera", parse_card("7S"), "pile"))
    out += table.settle()
    assert of(out, GoodSlap) == [GoodSlap(t, 1, "double")]


# ==================================================== the Wikipedia article's further slaps


def shows(codes: str, burned: bool = False, **values: Any) -> str | None:
    """The condition a pile of ``codes`` (bottom first) shows under rules with only ``values`` on."""
    return slap_condition(parse_cards(codes), burned, only(**values))


def test_suit_and_colour_runs_are_slaps_where_the_rules_say() -> None:
    assert shows("2H 9H 5H", suit_run=True) == "suit_run" and shows("2H 9H 5H", double=True) is None
    assert shows("2H 9D 5H", suit_run=True) is None
    assert shows("2H 9D 5H 7D", colour_run=True) == "colour_run"
    assert shows("2H 9D 5S 7D", colour_run=True) is None
    assert shows("9D 5H 7D", colour_run=True) is None  # three red: four are needed
    assert shows("2H 9H", suit_run=True, suit_run_length=2) == "suit_run"


@pytest.mark.parametrize(
    ("match", "pile", "slaps"),
    [("rank", "3H 8C 3S", True), ("colour", "3H 8C 3S", False), ("colour", "3H 8C 3D", True),
     ("suit", "3H 8C 3D", False), ("suit", "3H 8C 9C 3H", True)],
)  # fmt: skip
def test_the_first_card_played_again_by_rank_colour_or_suit(match: str, pile: str, slaps: bool) -> None:
    rules = only("top_bottom", top_bottom_match=match, decks=2)
    assert (slap_condition(parse_cards(pile), False, rules) == "top_bottom") is slaps


def test_the_rule_sheets_run_7_8_9_j_read_literally() -> None:
    assert shows("7C 8D 9H JS", run=True) is None  # the usual reading: 7 8 9 10
    assert shows("7C 8D 9H TS", run=True) == "run"
    assert shows("7C 8D 9H JS", run=True, run_skips_ten=True) == "run"
    assert shows("8D 9H TS JC", run=True, run_skips_ten=True) is None  # the ten is no step
    assert shows("JC QD KH AS", run=True, run_skips_ten=True) == "run"


def test_jokers_told_apart_the_red_one_slaps_the_black_one_challenges_with_13_chances() -> None:
    ruled = rules(jokers_per_deck=2, jokers="apart")
    assert slap_condition(parse_cards("RJ"), False, ruled) == "joker"
    assert slap_condition(parse_cards("BJ"), False, ruled) is None
    table = Table(ruled, tops=["2C 3C 4C 5C 6C 7C 8C 9C TC 2D 3D 4D 5D", "BJ"], sizes=[20, None])
    out = table.card("BJ")
    assert one(out, ChallengeStarted).chances == 13
    out = table.play("2C 3C 4C 5C 6C 7C 8C 9C TC 2D 3D 4D")
    assert not of(out, ChallengeLost)
    assert of(table.card("5D"), ChallengeLost) == [ChallengeLost(table.t, 0, 1)]


def test_slapping_back_in_at_any_time_where_the_rule_sheet_says_you_can_always_slap() -> None:
    for always, says in ((False, SlapIgnored), (True, GoodSlap)):
        table = Table(only("double", slap_in_always=always), tops=[["5H"], ["3H", "5C"]], sizes=[None, 2])
        table.play("3H 5H 5C")  # seat 1 out, and seat 0 alone holds cards
        assert of(table.slap(1), says)


def test_a_pile_the_last_holder_claims_waits_for_a_slap_back_in_where_you_can_always_slap() -> None:
    """Seat 1 lays its last card and seat 0, alone holding cards, doubles it: the pile is seat
    0's at once where slapping back in needs two holders, and waits for seat 1's slap where
    "you can always slap"."""
    for always in (False, True):
        table = Table(only("double", slap_in_always=always), tops=[["5D"], ["5C"]], sizes=[None, 1])
        out = table.play("5C 5D")
        assert bool(of(out, PileWon)) is not always
        assert bool(of(table.slap(1), GoodSlap)) is always


def test_a_late_slap_penalty_spares_the_piles_winner() -> None:
    table = double_on_three_seats(only("double", late_slaps="penalty"))
    table.slap(2, at=2100)
    out = table.slap(0, 2, at=2200)
    assert of(out, SlapIgnored) == [SlapIgnored(2200, 2, "the pile is yours already")]
    assert [d.seat for d in of(out, BadSlap)] == [0]


def test_a_card_whose_number_is_its_count_answering_a_challenge_is_a_slap() -> None:
    """The Wikipedia article: "if the number of the card played (e.g. the second card played)
    matches the card's value (in this case, a two), then this is slap-able"."""
    for on in (True, False):
        table = Table(only("double", counted=on), tops=[["5H", "2D"], ["QC"]])
        table.play("QC 5H")  # seat 1's queen, seat 0's first answer
        assert table.ref.slap_condition() is None
        table.play("2D")  # the second card answering it, a two
        assert table.ref.slap_condition() == ("counted" if on else None)
        if on:
            assert of(table.slap(1), GoodSlap) == [GoodSlap(table.t, 1, "counted")]


def test_a_hand_under_the_pile_bars_slapping_in_until_the_pile_is_won() -> None:
    """The Wikipedia article's variation: a player with no cards who slaps badly puts their hand
    under the pile, and may slap in again once the pile is awarded."""
    table = Table(only("double", out_slaps="hand-under"), players=3, tops=[["5H", "9S"], ["3H", "9D"], ["2C"]],
                  sizes=[None, None, 1])  # fmt: skip
    table.play("3H 2C 5H")  # seat 1, seat 2 (its only card: it is out), seat 0
    out = table.slap(2)
    assert of(out, StrikeGiven) == [StrikeGiven(table.t, 2, 0, True)] and table.ref.strikes[2] == 0
    assert table.slap(2) == [SlapIgnored(table.t, 2, "your hand is under the pile until it is won")]
    table.play("9D 9S")  # seat 1, seat 0: a double
    assert of(table.slap(0), PileWon)
    assert table.ref.hands_under == [] and "late" in table.slap(2)[-1].reason  # no longer barred


# ================================================================ contests


CONTESTS = only("double", bad_slaps="contest")


def contest(table: Table, seat: int, at: int | None = None) -> list[Decision]:
    """``seat`` contests (its long press) now."""
    return table.send(SeatAction(table.tick(at), "gpio", seat, CONTEST))


def test_a_bad_slap_costs_nothing_until_it_is_contested_and_then_a_card_to_each_contester() -> None:
    """The Wikipedia article: "if the player was incorrect, the player must give a card from the
    top of their deck to each player that contested the play"."""
    table = Table(CONTESTS, players=3, tops=[["2C", "4C"], ["8H", "9D"], ["7C", "JD"]])
    table.play("8H 7C")  # no double
    sizes = table.hand_sizes()
    assert untimed(table.slap(0)) == [SlapIgnored(NOW, 0, CONTESTABLE)]  # no burn; the table keeps quiet
    assert table.hand_sizes() == sizes
    assert CONTEST in table.ref.legal_actions()[1] and CONTEST in table.ref.legal_actions()[2]
    assert untimed(contest(table, 1)) == [PlayContested(NOW, 1, 0, True, 1)]
    assert untimed(contest(table, 2)) == [PlayContested(NOW, 2, 0, True, 1)]
    assert table.hand_sizes() == [sizes[0] - 2, sizes[1] + 1, sizes[2] + 1]
    assert table.hand(1)[-1] == "2C" and table.hand(2)[-1] == "4C"  # its top cards, to the bottom


def test_a_bad_slap_still_to_be_judged_may_be_contested_next() -> None:
    table = Table(CONTESTS, players=3, tops=[["2C", "4C"], ["8H", "9D"], ["7C", "JD"]])
    table.play("8H 7C")
    table.press(0)  # judged before the next input, whatever it is: a contest may be that input
    legal = table.ref.legal_actions()
    assert CONTEST in legal[1] and CONTEST in legal[2] and CONTEST not in legal.get(0, ())
    assert table.ref.pending_presses == [0]  # asking judged nothing
    assert untimed(contest(table, 1, at=table.t + 1)) == [
        SlapIgnored(NOW, 0, CONTESTABLE),
        PlayContested(NOW, 1, 0, True, 1),
    ]


def test_a_good_slap_still_to_be_judged_is_expected_to_have_taken_the_pile() -> None:
    table = Table(rules(), players=3, tops=[[], ["8H"], ["8C"]])
    table.play("8H 8C")
    table.press(1)  # a double: the pile is seat 1's once the press is judged, before anything else
    assert table.ref.expects() == Expectation("play", 1) and "play" in table.ref.legal_actions()[1]
    assert table.ref.pending_presses == [1]


def test_what_is_expected_of_presses_still_to_be_judged_follows_each_new_press() -> None:
    asked = Table(rules(), players=3, tops=[["2C"], ["8H"], ["8C"]])
    asked.play("8H 8C")
    asked.press(0)
    assert asked.ref.expects() == Expectation("play", 0)  # alone, seat 0 would take the pile
    asked.press(2, at=asked.t)  # ... but seat 2 pressed at the very same moment: a tie
    told = Table(rules(), players=3, tops=[["2C"], ["8H"], ["8C"]])
    told.play("8H 8C")
    told.press(0, 2)
    told.settle()
    assert told.ref.expects() != Expectation("play", 0)
    assert asked.ref.expects() == told.ref.expects() and asked.ref.legal_actions() == told.ref.legal_actions()


def test_a_contest_once_the_game_is_won_changes_nothing() -> None:
    table = Table(
        only("double", bad_slaps="contest", last_chance_cards=0, slap_in_always=True),
        players=2,
        tops=[["5S"], ["5H"]],
        sizes=[None, 1],
    )
    table.play("5H 5S")
    assert of(table.slap(0), GameWon)  # the long press that began with this slap ends after the game
    before = table.ref.snapshot()
    assert of(contest(table, 0), Rejected)[0].reason == "the game is over"
    assert table.ref.snapshot() == {**before, "last_t": table.t}


def test_a_pile_taken_by_a_good_slap_contested_costs_each_contester_a_card() -> None:
    """ "if the player was correct, any who contested the play must give the top card of their
    deck to the player" """
    table = double_on_three_seats(only("double", bad_slaps="contest"))
    table.slap(2, at=2100)
    sizes = table.hand_sizes()
    out = contest(table, 0, at=3_000)
    assert out == [PlayContested(3_000, 0, 2, False, 1)]
    assert table.hand_sizes() == [sizes[0] - 1, sizes[1], sizes[2] + 1] and table.hand(2)[-1] == "2C"
    assert of(contest(table, 0), Rejected)[0].reason == "seat 2's play is contested by this seat already"


def test_a_pile_won_by_a_challenge_may_be_contested() -> None:
    table = Table(CONTESTS, tops=[["2C", "3C"], ["JH", "5D"]])
    table.play("JH 2C")  # seat 1's jack, seat 0's one chance fails: seat 1 takes the pile
    assert one(table.log, PileWon).seat == 1
    assert untimed(contest(table, 0)) == [PlayContested(NOW, 0, 1, False, 1)]
    assert table.hand(1)[-1] == "3C"


def test_the_press_that_begins_a_contest_is_no_bad_slap_to_contest() -> None:
    """A long press starts with a press: on a pile slapped badly it is a bad slap of its own,
    but once it is a contest it is not one that others can contest."""
    table = Table(CONTESTS, players=3, tops=[["2C", "4C"], ["8H", "9D"], ["7C", "JD"]])
    table.play("8H 7C")
    table.slap(0)  # seat 0 slaps badly
    table.slap(1)  # seat 1's press-down: a bad slap too, for now
    assert untimed(contest(table, 1)) == [PlayContested(NOW, 1, 0, True, 1)]  # it contests seat 0, not itself
    assert untimed(contest(table, 2)) == [PlayContested(NOW, 2, 0, True, 1)]  # seat 1's press is gone


def test_a_contest_leaves_the_contester_s_own_slaps_before_it_open_to_contest() -> None:
    """Only the press a long press began with is taken out: a bad slap the contester made
    before it, a press of its own, is still there for the others to contest."""
    table = Table(CONTESTS, players=3, tops=[["2C", "4C"], ["8H", "9D"], ["7C", "JD"]])
    table.play("8H 7C")
    table.slap(0)  # seat 0 slaps badly
    table.slap(2)  # seat 2 slaps badly too, a press of its own
    table.slap(2)  # and later presses long: its contest
    assert untimed(contest(table, 2)) == [PlayContested(NOW, 2, 0, True, 1)]
    assert untimed(contest(table, 1)) == [PlayContested(NOW, 1, 2, True, 1)]  # seat 2's first bad slap


def test_a_refused_contest_changes_nothing_but_its_own_press() -> None:
    """A contest refused (this seat contested that play already) still began with a press that
    is no slap to contest; the seat's bad slap before it stays open to the others."""
    table = Table(CONTESTS, players=3, tops=[["2C", "4C"], ["8H", "9D"], ["7C", "JD"]])
    table.play("8H 7C")
    table.slap(0)
    table.slap(2)
    contest(table, 2)  # seat 2 contests seat 0
    table.slap(2)  # a bad slap of seat 2's, contestable
    table.slap(2)  # a long press again: seat 0's play is still the last by another seat
    assert of(contest(table, 2), Rejected)[0].reason == "seat 0's play is contested by this seat already"
    assert untimed(contest(table, 1)) == [PlayContested(NOW, 1, 2, True, 1)]


def test_contests_end_with_the_next_card_and_need_something_to_contest() -> None:
    table = Table(CONTESTS, players=3, tops=[["2C", "4C"], ["8H", "9D"], ["7C", "JD"]])
    assert of(contest(table, 0), Rejected)[0].reason.startswith("nothing to contest")
    table.play("8H 7C")
    table.slap(1)
    table.play("2C")  # the next card: seat 1's bad slap can no longer be contested
    assert of(contest(table, 0), Rejected)[0].reason.startswith("nothing to contest")
    assert all(CONTEST not in actions for actions in table.ref.legal_actions().values())


def test_a_player_with_no_cards_cannot_contest_and_gets_a_strike_for_a_bad_slap() -> None:
    table = Table(CONTESTS, players=3, tops=[["5H", "9S"], ["3H", "9D"], ["2C"]], sizes=[None, None, 1])
    table.play("3H 2C 5H")  # seat 2 plays its only card
    out = table.slap(2)
    assert of(out, StrikeGiven) == [StrikeGiven(table.t, 2, 1, False)]  # out of cards: a strike, as ever
    table.slap(0)
    assert of(contest(table, 2), Rejected)[0].reason.startswith("no card to give")


def test_a_contest_that_takes_the_last_card_of_the_player_to_play_passes_the_turn() -> None:
    table = Table(CONTESTS, players=3, tops=[["2C"], ["8H", "9D"], ["7C", "JD"]], sizes=[2, None, None])
    table.play("8H 7C")  # seat 0 to play, holding 2C and one more
    table.slap(0)
    contest(table, 1)
    assert table.ref.turn == 0
    out = contest(table, 2)  # seat 0 gives its last card
    assert untimed(out) == [PlayContested(NOW, 2, 0, True, 1), PlayerOut(NOW, 0), TurnChanged(NOW, 1)]


def test_a_contest_can_end_the_game() -> None:
    """Two players; seat 1 wins the pile, seat 0 contests with its last card: seat 1 holds every
    card, and with no last chance configured the game is won."""
    table = Table(only("double", bad_slaps="contest", last_chance_cards=0), tops=[["5C", "2D"], ["5H"]],
                  sizes=[2, None])  # fmt: skip
    table.play("5H 5C")
    table.slap(1)
    assert table.hand_sizes() == [1, 51]
    out = contest(table, 0)
    assert untimed(out) == [PlayContested(NOW, 0, 1, False, 1), PlayerOut(NOW, 0), GameWon(NOW, 1)]


def test_a_long_press_where_contests_are_off_means_nothing() -> None:
    table = double_on_three_seats()
    table.slap(2, at=2100)
    assert contest(table, 0) == []
    assert all(CONTEST not in actions for actions in table.ref.legal_actions().values())


def test_contests_and_late_slap_penalties_do_not_go_together() -> None:
    with pytest.raises(RulesError, match="late_slaps"):
        rules(bad_slaps="contest", late_slaps="penalty")
    with pytest.raises(RulesError, match="'burn' is set"):
        rules(bad_slaps="contest", burn=1)


def test_a_snapshot_keeps_the_plays_open_to_contest() -> None:
    table = Table(CONTESTS, players=3, tops=[["2C", "4C"], ["8H", "9D"], ["7C", "JD"]])
    table.play("8H 7C")
    table.slap(0)
    contest(table, 1)
    clone = ErsReferee.restore(json.loads(json.dumps(table.ref.snapshot())))
    event = SeatAction(table.tick(), "gpio", 2, CONTEST)
    assert clone.handle(event) == table.ref.handle(event) == [PlayContested(table.t, 2, 0, True, 1)]
    assert clone.snapshot() == table.ref.snapshot()


# ================================================================ cards laid out of turn


DEAD = only("double", "sandwich", out_of_turn="dead")


def out_of_turn(table: Table, seat: int, at: int | None = None) -> list[Decision]:
    """The table is told (``cardtable send out-of-turn``) that the top card was ``seat``'s."""
    return table.send(SeatAction(table.tick(at), "command", seat, OUT_OF_TURN))


def three_seats(rule: ErsRules = DEAD) -> Table:
    """Three seats, seat 1 to play first: seat 1 holds 8H 9D, seat 2 8C JD KD, seat 0 2C 8D 8S."""
    return Table(rule, players=3, tops=[["2C", "8D", "8S"], ["8H", "9D"], ["8C", "JD", "KD"]])


def test_a_card_laid_out_of_turn_is_dead_and_comes_from_its_players_hand() -> None:
    """The Wikipedia article: "If cards are played out of turn, these cards become dead cards"."""
    table = three_seats()
    table.card("8H")  # seat 1
    sizes = table.hand_sizes()
    table.card("2C", stacked=False)  # seat 0 lays its card while it is seat 2's turn: credited to seat 2
    assert table.hand_sizes() == [sizes[0], sizes[1], sizes[2] - 1]
    assert OUT_OF_TURN in table.ref.legal_actions()[0]
    out = out_of_turn(table, 0)
    assert untimed(out) == [CardDead(NOW, 0, parse_card("2C")), TurnChanged(NOW, 2)]
    assert table.hand_sizes() == [sizes[0] - 1, sizes[1], sizes[2]]
    assert table.hand(2)[0] == "8C" and table.hand(0)[0] == "8D"  # what each still holds, known
    assert table.ref.pile_size() == 2 and table.ref.turn == 2
    assert untimed(table.card("8C")) == [CardPlayed(NOW, 2, parse_card("8C"), 3), TurnChanged(NOW, 0)]


def test_a_slap_on_a_dead_card_is_a_bad_slap_even_where_it_makes_a_double() -> None:
    """ "Any slap over a dead card, even if a player intentionally places it out of turn, results
    in a penalty." """
    table = three_seats()
    table.card("8H")
    table.card("8D", stacked=False)  # seat 0's 8 on seat 1's: a double, but laid out of turn
    out_of_turn(table, 0)
    assert table.ref.slap_condition() is None
    pressed_bad(table, 1)


def test_a_dead_card_makes_no_slap_under_the_next_cards() -> None:
    """Dead cards make no slap: an 8 on a dead 8 is no double; the cards laid on the dead one
    count among themselves; top-bottom does not count over a dead card."""
    table = Table(DEAD, players=3, tops=[["8D", "9S"], ["8H", "9D"], ["8C", "JD"]])
    table.card("8H")  # seat 1
    table.card("8D", stacked=False)  # seat 0's own top card, out of turn (credited to seat 2)
    out_of_turn(table, 0)
    table.card("8C")  # seat 2, in turn: on the dead 8
    assert table.ref.slap_condition() is None
    table.play("9S 9D")  # seat 0, then seat 1: a double above the dead card
    assert table.ref.slap_condition() == "double"
    for told in (False, True):
        table = Table(only("top_bottom", out_of_turn="dead"), players=3, tops=[["2C"], ["8H"], ["8C"]])
        table.card("8H")
        table.card("2C", stacked=False)  # seat 0's, out of turn
        if told:
            out_of_turn(table, 0)
            table.card("8C")  # seat 2: the pile's first card and its top, with a dead card between
            assert table.ref.slap_condition() is None
        else:  # the same cards with nothing told: seat 2's 2C, then seat 0's 8C
            table.card("8C", stacked=False)
            assert table.ref.slap_condition() == "top_bottom"


def test_a_dead_card_leaves_a_challenge_its_chances() -> None:
    table = Table(DEAD, players=3, tops=[["2C", "3C"], ["QH", "9D"], ["5C", "6C", "7C"]])
    table.card("QH")  # seat 1's queen: seat 2 has two chances
    table.card("2C", stacked=False)  # seat 0 answers for seat 2, out of turn
    assert table.ref.chances == 1
    out = out_of_turn(table, 0)
    assert untimed(out) == [CardDead(NOW, 0, parse_card("2C")), TurnChanged(NOW, 2)]
    assert (table.ref.challenger, table.ref.chances, table.ref.turn) == (1, 2, 2)
    table.play("5C 6C")  # seat 2's two chances fail: seat 1 takes the pile, the dead card with it
    table.send(CardGone(table.tick(), "camera", "pile"))
    assert one(table.log, PileWon) == PileWon(table.t, 1, 4, "challenge") and table.ref.pile_size() == 0


def test_a_card_laid_out_of_turn_that_ended_a_challenge_gives_no_pile_until_it_is_picked_up() -> None:
    """The common case: someone lays a card while another answers a challenge. Credited to the
    answer, it ends the challenge, but the pile waits to be picked up, so the table can still
    be told; then the challenge goes on, and the seat the card had emptied is back in."""
    table = Table(DEAD, players=3, tops=[["5C"], ["JH"], ["6C"]], sizes=[None, None, 1])
    table.card("JH")  # seat 1's jack: seat 2, holding one card, has one chance
    table.card("5C", stacked=False)  # seat 0's card, out of turn: credited to seat 2, it ends the challenge
    assert of(table.log, PlayerOut) == [PlayerOut(table.t, 2)] and not of(table.log, PileWon)
    out = out_of_turn(table, 0)
    assert untimed(out) == [PlayerBackIn(NOW, 2), CardDead(NOW, 0, parse_card("5C")), TurnChanged(NOW, 2)]
    assert (table.ref.challenger, table.ref.chances, table.ref.turn, table.hand(2)) == (1, 1, 2, ["6C"])
    table.card("6C")  # seat 2's own answer fails the challenge: seat 1 takes the pile as it is picked up
    assert not of(table.log, PileWon)
    out = table.send(CardGone(table.tick(), "camera", "pile"))
    assert of(out, PileWon) == [PileWon(table.t, 1, 3, "challenge")]


def test_the_card_named_must_be_the_top_card() -> None:
    """By the time the table is told, the next player may have laid a card in turn: the card
    named is not the top card, and nothing changes."""
    table = three_seats()
    table.card("8H")
    table.card("2C", stacked=False)  # seat 0's, out of turn
    told = table.send(SeatAction(table.tick(), "command", 0, OUT_OF_TURN, parse_card("QS").key))
    assert of(told, Rejected)[0].reason == "the top card is 2C, not the card named"
    told = table.send(SeatAction(table.tick(), "command", 0, OUT_OF_TURN, parse_card("2C").key))
    assert of(told, CardDead) == [CardDead(table.t, 0, parse_card("2C"))]


def test_a_press_that_judged_nothing_leaves_the_card_open_to_be_told() -> None:
    table = three_seats(only("double", out_of_turn="dead", slap_in=False, last_chance_cards=0))
    table.card("8H")
    table.card("2C", stacked=False)
    table.send(CardGone(table.tick(), "camera", "pile"))  # a hand resting on the pile: no award waits
    assert of(out_of_turn(table, 0), CardDead)


def test_laying_out_of_turn_may_cost_a_burn() -> None:
    """ "In some cases, this same penalty is applied to putting down a card when it is not one's
    turn": cards burned, or for a player who laid their last card, a strike."""
    table = three_seats(only("double", out_of_turn="dead-and-burn", burn=1))
    table.card("8H")
    table.card("2C", stacked=False)
    out = out_of_turn(table, 0)
    assert untimed(out) == [
        CardDead(NOW, 0, parse_card("2C")),
        CardsBurned(NOW, 0, 1, (parse_card("8D"),)),
        TurnChanged(NOW, 2),
    ]
    table = Table(only("double", out_of_turn="dead-and-burn"), players=3, tops=[["2C"], ["8H"]], sizes=[1, None, None])
    table.card("8H")
    table.card("2C", stacked=False)  # seat 0's last card
    out = out_of_turn(table, 0)
    assert untimed(out) == [
        CardDead(NOW, 0, parse_card("2C")),
        PlayerOut(NOW, 0),
        StrikeGiven(NOW, 0, 1, False),
        TurnChanged(NOW, 2),
    ]
    with pytest.raises(RulesError, match="out_of_turn"):
        rules(bad_slaps="contest", out_of_turn="dead-and-burn")


def test_a_card_laid_out_of_turn_is_told_before_anything_is_judged_on_it() -> None:
    table = three_seats()
    table.card("8H")
    table.card("2C", stacked=False)
    table.press(1)  # a slap, to be judged on it: too late to take it back
    assert OUT_OF_TURN not in table.ref.legal_actions().get(0, set())
    assert of(table.settle(), BadSlap)
    assert of(out_of_turn(table, 0), Rejected)[0].reason.startswith("only the pile's top card")
    assert OUT_OF_TURN not in table.ref.legal_actions().get(0, set())

    table = three_seats()
    table.card("8H")
    assert of(out_of_turn(table, 1), Rejected)[0].reason == "seat 1 laid the top card in turn"
    table.card("2C", stacked=False)
    out_of_turn(table, 0)
    assert of(out_of_turn(table, 0), Rejected)[0].reason == "the top card is dead already"


def test_where_cards_laid_out_of_turn_are_the_turns_players_the_table_cannot_be_told_otherwise() -> None:
    table = three_seats(DOUBLES)
    table.card("8H")
    table.card("2C", stacked=False)
    assert all(OUT_OF_TURN not in actions for actions in table.ref.legal_actions().values())
    assert "out_of_turn = 'credited'" in of(out_of_turn(table, 0), Rejected)[0].reason


def test_a_snapshot_keeps_the_dead_cards() -> None:
    table = three_seats()
    table.card("8H")
    table.card("8D", stacked=False)
    out_of_turn(table, 0)
    clone = ErsReferee.restore(json.loads(json.dumps(table.ref.snapshot())))
    assert clone.snapshot() == table.ref.snapshot() and clone.slap_condition() is None
    event = CardSeen(table.tick(), "camera", parse_card("8C"), "pile")
    assert clone.handle(event) == table.ref.handle(event)


# ================================================================ penalty cards on top


ON_TOP = only("double", "sandwich", penalty_cards="on-top")


def test_a_bad_slaps_penalty_cards_are_laid_on_top_as_dead_cards_before_play_goes_on() -> None:
    """The Wikipedia article: "Penalty cards may be placed at the top of the deck as dead cards"."""
    table = Table(ON_TOP, players=3, tops=[["2C", "7D", "7S"], ["8H", "9D"], ["7C", "JD"]])
    table.card("8H")  # seat 1; seat 2 to play
    sizes = table.hand_sizes()
    out = table.slap(0, at=table.t + 100)
    assert untimed(out) == [BadSlap(NOW, 0), PenaltyOwed(NOW, 0, 2), TurnChanged(NOW, 0)]
    assert table.ref.expects().seat == 0 and table.hand_sizes() == sizes  # owed, not yet laid
    table.card("2C", at=table.t + 2 * SECOND)
    out = table.card("7D", at=table.t + SECOND)
    assert untimed(out) == [PenaltyCard(NOW, 0, parse_card("7D"), 0), TurnChanged(NOW, 2)]
    assert table.hand_sizes() == [sizes[0] - 2, sizes[1], sizes[2]] and table.ref.dead == [1, 2]
    assert table.ref.slap_condition() is None
    table.card("7C")  # seat 2 in turn: a 7 on a dead 7 is no double
    assert table.ref.slap_condition() is None


def test_a_slap_on_a_penalty_card_is_bad_and_owes_its_own() -> None:
    table = Table(only("double", penalty_cards="on-top", burn=1), players=3, tops=[["8D"], ["8H", "9D"], ["7C"]])
    table.card("8H")
    table.slap(0, at=table.t + 100)
    table.card("8D", at=table.t + 2 * SECOND)  # seat 0's penalty card: an 8 on the 8, dead
    assert table.ref.slap_condition() is None
    out = table.slap(2, at=table.t + 300 * MS)
    assert untimed(out) == [BadSlap(NOW, 2), PenaltyOwed(NOW, 2, 1), TurnChanged(NOW, 2)]


def test_a_card_seen_just_after_the_bad_slap_was_on_its_way_and_is_played() -> None:
    """A card thrown as the slap came down lands within 0.6 s: the turn's play, not a penalty card."""
    table = Table(ON_TOP, players=3, tops=[["2C", "3C"], ["8H", "9D"], ["7C", "JD"]])
    table.card("8H")
    table.slap(0, at=table.t + 100)
    out = table.card("7C", at=table.t + 400 * MS)  # seat 2's card, in flight
    assert of(out, CardPlayed) == [CardPlayed(table.t, 2, parse_card("7C"), 2)] and not of(out, PenaltyCard)
    assert table.ref.expects().seat == 0  # the penalty cards are still owed
    out = table.card("2C", at=table.t + SECOND)
    assert of(out, PenaltyCard) == [PenaltyCard(table.t, 0, parse_card("2C"), 1)]


def test_a_player_with_no_card_for_its_penalty_says_so_and_play_goes_on() -> None:
    table = Table(ON_TOP, players=3, tops=[["2C"], ["8H", "9D"], ["7C", "JD"]], sizes=[1, None, None])
    table.card("8H")
    table.slap(0, at=table.t + 100)
    assert table.ref.penalty_owed == [0]  # one card held: one owed
    table.card("2C", at=table.t + SECOND)
    assert of(table.log, PlayerOut)[-1] == PlayerOut(table.t, 0) and table.ref.expects().seat == 2
    table = Table(ON_TOP, players=3, tops=[["2C", "3C"], ["8H", "9D"], ["7C", "JD"]])
    table.card("8H")
    table.slap(0, at=table.t + 100)
    out = table.send(SeatAction(table.tick(), "command", 0, OUT_OF_CARDS))  # its cards went unseen before
    assert untimed(out)[-1] == TurnChanged(NOW, 2) and table.ref.penalty_owed == []


def test_penalty_cards_on_top_and_contests_do_not_go_together() -> None:
    with pytest.raises(RulesError, match="penalty_cards"):
        rules(bad_slaps="contest", penalty_cards="on-top")


def test_a_snapshot_keeps_the_penalty_cards_owed_and_when_they_came_to_be() -> None:
    table = Table(ON_TOP, players=3, tops=[["2C", "3C"], ["8H", "9D"], ["7C", "JD"]])
    table.card("8H", at=2 * SECOND)
    table.slap(0, at=table.t + 100)
    clone = ErsReferee.restore(json.loads(json.dumps(table.ref.snapshot())))
    early = CardSeen(table.t + 300 * MS, "camera", parse_card("7C"), "pile")  # in flight: seat 2's play
    played = table.ref.handle(early)
    assert clone.handle(early) == played and of(played, CardPlayed)
    event = CardSeen(table.t + SECOND, "camera", parse_card("2C"), "pile")
    assert clone.handle(event) == table.ref.handle(event) == [PenaltyCard(event.t_ns, 0, parse_card("2C"), 1)]
    assert clone.snapshot() == table.ref.snapshot()


def test_a_second_bad_slap_while_penalty_cards_are_owed_opens_no_window_for_a_card_in_flight() -> None:
    """While penalty cards are owed the player whose turn it is waits: a card seen soon after a
    second bad slap is still a penalty card."""
    table = Table(ON_TOP, players=3, tops=[["2C", "7D"], ["8H", "9D"], ["7C", "JD"]])
    table.card("8H")
    table.slap(0, at=table.t + 100)
    table.card("2C", at=table.t + SECOND)  # seat 0's first penalty card
    table.slap(1, at=table.t + 100)  # a slap on the dead card: seat 1 owes two
    out = table.card("7D", at=table.t + 300 * MS)
    assert of(out, PenaltyCard) == [PenaltyCard(table.t, 0, parse_card("7D"), 0)]
    assert table.ref.penalty_owed == [1, 1] and table.ref.expects().seat == 1


def test_the_turns_player_laying_its_last_card_as_a_penalty_cannot_go_on_once_none_is_owed() -> None:
    table = Table(ON_TOP, players=3, tops=[["2C", "3C"], ["8H", "9D"], ["7C"]], sizes=[None, None, 1])
    table.card("8H")  # seat 2 to play, holding one card
    table.press(0, 2, at=table.t + 100)  # both slap badly at once: seat 0 owes two, seat 2 one
    table.settle()
    assert table.ref.penalty_owed == [0, 0, 2]
    table.card("2C", at=table.t + SECOND)
    table.card("3C", at=table.t + SECOND)
    out = table.card("7C", at=table.t + SECOND)  # seat 2's last card, as its penalty card
    assert of(out, PlayerOut) == [PlayerOut(table.t, 2)] and table.ref.expects().seat == 0  # it cannot go on
    assert table.ref.hands[table.ref.expects().seat]


def test_a_pile_waiting_to_be_picked_up_that_ends_the_game_is_said_to_win_it() -> None:
    table = Table(
        only("double", out_of_turn="dead", slap_in=False, last_chance_cards=0), tops=[["5C"], ["JH"]], sizes=[1, None]
    )
    table.play("JH 5C")  # seat 0's last card fails the jack: seat 1 takes the pile as it is picked up
    assert table.ref.expects() == Expectation(TAKE_PILE, 1, "takes the pile and wins")
    assert table.ref.legal_actions() == {1: {TAKE_PILE, "slap", OUT_OF_TURN}}  # no card follows: the next is refused
    assert of(table.card("9D", at=table.t + 1), Rejected)[0].reason == "the game is over"

    table = Table(
        only("double", out_of_turn="dead", slap_in=False, last_chance_cards=0), tops=[["5C"], ["JH"]], sizes=[1, None]
    )
    table.play("JH 5C")
    out = table.send(CardGone(table.tick(), "camera", "pile"))
    assert of(out, GameWon) == [GameWon(table.t, 1)]


def test_a_last_chance_ended_on_a_pile_waiting_to_be_picked_up_says_its_taker_wins() -> None:
    table, _ = lone_table(rules(), "2D 7H 7S")
    table.play("2D 7H 7S")  # the last chance ends on a double: the pile waits for slaps
    assert table.ref.pending_award == 0 and table.ref.expects() == Expectation(TAKE_PILE, 0, "takes the pile and wins")
    assert of(table.send(CardGone(table.tick(), "camera", "pile")), GameWon) == [GameWon(table.t, 0)]
