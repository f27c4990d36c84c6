"""The rules of the shedding game (Screw Your Neighbour as a Crazy Eights variant) as one value.

Source: the second half of the 2020 "Screw Your Neighbor Card Game" article. Defaults are that
text's game: two decks and four
jokers, 8 cards each, a safe card, and every special card it lists. Where the rule text can be read
two ways, the field says which reading is the default and offers the other
(docs/games/eights.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from table.rules import RulesError


@dataclass(frozen=True, slots=True)
class EightsRules:
    """Crazy Eights house rules. Field names are the keys of preset files."""

    decks: int = 2
    jokers_per_deck: int = 2
    hand_size: int = 8
    # Each player lays one card of the deal face down in front of them, safe from black aces.
    safe_card: bool = True
    # The dealer may take the turned card and discard any card instead.
    dealer_option: bool = True
    # Special cards apply to the turned card (or the dealer's discard) as if it had been played.
    turned_card_effects: bool = True
    eights_wild: bool = True
    # A match of eights "has no special function": no suit chosen (false); or the suit is chosen
    # as for one eight (true).
    eight_match_suit: bool = False
    # A card identical to the top one swaps hands with the player of that card (or trades for
    # their safe card); on the turned card it sends the hand under the stock for fresh cards.
    switch: bool = True
    switch_safe_trade: bool = True
    # Traded for a card of the switcher's hand, the safe card is lost: the card given goes into
    # its owner's hand (hand), who lays no other; or it is laid face down as their safe card (safe).
    safe_trade_gives: Literal["hand", "safe"] = "hand"
    # A player who plays their last card is out at once (out), or only if they hold no card once
    # its effects are done (effects: a last switch swaps hands, a last black ace passes them on).
    going_out: Literal["out", "effects"] = "out"
    # Two identical cards, or jokers with one other card, played as one play double its effect.
    matches: bool = True
    # Cards seen on the pile this close together are one play (a match), not two.
    match_window_ms: int = 800
    twos_draw: int = 2
    # A two matched with a joker: 4 (doubled, as the queen's 10) or 6 (two and "4 additional").
    two_joker_draw: int = 4
    queen_spades_draw: int = 5
    stacking: bool = True
    # The article stacks twos only: a queen of spades owed is drawn (or shielded). With this, the
    # other queen of spades on it adds its five (and, identical, is a switch too).
    queen_stacks: bool = False
    # A natural pair of twos or queens of spades may split the draw over the next two players.
    pair_split: bool = True
    # The variation: the queen and the two of spades are played together and stack on each other.
    spade_combo: bool = False
    fours_skip: bool = True
    # A natural pair of sevens: every other player draws ``bomb_draw``; the next player may answer
    # with a natural pair of their own and send ``bomb_draw`` back to the bomber.
    bomb: bool = True
    bomb_draw: int = 3
    bomb_counter: bool = True
    jacks_reverse: bool = True
    # This many consecutive natural kings start a run: the next player without one draws a card
    # for each (0: off).
    king_run: int = 3
    black_aces: bool = True
    # A red ace lets the dealer swap hands with anyone, when the deal left 2 or fewer cards over.
    red_aces: bool = True
    # A joker played alone: a switch with the player of the card under it, taking on that card's
    # function (switch), or only a wild card taking on the function (wild).
    joker_alone: Literal["switch", "wild"] = "switch"
    # "Switch ... cannot be done with a Joker": read as no trade for the safe card (true), or
    # literally, no play with a joker in it is a switch (false; with joker_alone = "wild").
    joker_switch: bool = True
    # A joker instead of drawing for a two or queen sends the draw back to whoever played it.
    joker_shield: bool = True
    # When the reshuffled stock is first drawn from, the dealer gives every other player a card.
    reshuffle_extra_card: bool = True
    # Forgetting "last card" and being challenged costs this many cards (0: no announcement).
    last_card_penalty: int = 2
    # A safe card counts as a card held for "last card" (the article: a safe card left alone is
    # the last card) or not (only the hand counts).
    last_card_counts_safe: bool = True
    rounds: int = 1
    # wins: a point for each game won, most wins best; cards-left: every other player scores the
    # cards they hold when someone goes out, fewest best.
    scoring: Literal["wins", "cards-left"] = "wins"

    def check(self, given: frozenset[str]) -> None:
        if not 1 <= self.decks <= 4:
            raise RulesError(f"rules key 'decks': 1 to 4 decks, not {self.decks}")
        if not 0 <= self.jokers_per_deck <= 2:
            raise RulesError(f"rules key 'jokers_per_deck': 0 to 2, not {self.jokers_per_deck}")
        if not 1 <= self.hand_size <= 20:
            raise RulesError(f"rules key 'hand_size': 1 to 20 cards, not {self.hand_size}")
        if self.safe_card and self.hand_size < 2:
            raise RulesError("rules key 'safe_card' needs hand_size of at least 2")
        if not 0 <= self.match_window_ms <= 5000:
            raise RulesError(f"rules key 'match_window_ms': 0 to 5000, not {self.match_window_ms}")
        if self.matches and self.match_window_ms < 200:
            raise RulesError("rules key 'match_window_ms': matches need 200 ms or more to lay their cards in")
        for key in ("twos_draw", "two_joker_draw", "queen_spades_draw", "bomb_draw", "last_card_penalty"):
            value = getattr(self, key)
            if not 0 <= value <= 20:
                raise RulesError(f"rules key {key!r}: 0 to 20 cards, not {value}")
        if self.king_run < 0 or self.king_run == 1:
            raise RulesError(f"rules key 'king_run': 0 (off) or 2 kings or more, not {self.king_run}")
        if self.rounds < 1:
            raise RulesError(f"rules key 'rounds': at least 1, not {self.rounds}")
        if self.decks < 2 and (self.bomb or self.switch) and {"decks"} <= given:
            names = " and ".join(k for k in ("switch", "bomb") if getattr(self, k))
            raise RulesError(f"rules key 'decks': {names} need(s) identical cards, so two decks or more")
        if self.spade_combo and not self.stacking:
            raise RulesError("rules key 'spade_combo' needs stacking = true")
        if not self.joker_switch and self.joker_alone == "switch":
            why = 'false needs joker_alone = "wild" (a joker alone is no switch either)'
            raise RulesError(f"rules key 'joker_switch': {why}")
        if self.jokers_per_deck == 0 and "joker_alone" in given:
            raise RulesError("rules key 'joker_alone' needs jokers (jokers_per_deck)")
