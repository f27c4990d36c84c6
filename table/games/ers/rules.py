"""The rules of Egyptian Rat Screw as one frozen value (the rule sheet), Beggar-my-neighbour included.

Defaults follow the most common reading of the Egyptian Rat Screw rule sheet: doubles, triples, sandwiches,
top-bottom, tens and four in a row, two cards burned for a bad slap, slapping back in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from table.rules import RulesError

SLAP_CONDITIONS = (
    "joker",
    "double",
    "triple",
    "sandwich",
    "hoagie",
    "top_bottom",
    "tens",
    "run",
    "marriage",
    "suit_run",
    "colour_run",
    "counted",
)


@dataclass(frozen=True, slots=True)
class ErsRules:
    """Egyptian Rat Screw house rules. Field names are the keys of preset files."""

    decks: int = 1
    jokers_per_deck: int = 0
    # Slapping at all; off gives Beggar-my-neighbour.
    slaps: bool = True
    double: bool = True
    triple: bool = True
    sandwich: bool = True
    hoagie: bool = False
    # Top card matches the first card of the pile; never counts once burned cards are in the pile.
    top_bottom: bool = True
    # What must match the first card (the Wikipedia article: "a suit/colour can also be
    # specified"): its rank, its rank and colour, or the card itself (rank and suit).
    top_bottom_match: Literal["rank", "colour", "suit"] = "rank"
    # Two or more consecutive top cards adding to ten.
    tens: bool = True
    # Face cards in a tens sum: "break" ends the run of cards, "zero" counts them as nothing.
    tens_face_cards: Literal["break", "zero"] = "break"
    # The ace counts one in a tens sum; otherwise it is treated like a face card.
    tens_ace_counts_one: bool = True
    run: bool = True
    run_length: int = 4
    # Runs may wrap round from king to ace to two (Q K A 2).
    run_wrap: bool = False
    # The rule sheet's own example of four in a row is "7-8-9-J": read literally, a ten is no
    # step of a run (9 J follow one another); off: the usual reading, 7-8-9-10.
    run_skips_ten: bool = False
    # The same suit this many times in a row, and the same colour the other many (the Wikipedia
    # article: three and four).
    suit_run: bool = False
    colour_run: bool = False
    suit_run_length: int = 3
    colour_run_length: int = 4
    # Answering a challenge, the card whose number is its count (the Wikipedia article: "the
    # second card played ... a two").
    counted: bool = False
    marriage: bool = False
    joker_slap: bool = True
    # Jokers alike (each a slap where joker_slap is on), or told apart (the Wikipedia article):
    # the red joker a slap, the black joker a challenge with 13 chances.
    jokers: Literal["alike", "apart"] = "alike"
    # Cards a bad slap costs a player holding cards.
    burn: int = 2
    # Where they go: burned under the pile, or (the Wikipedia article: "penalty cards may be
    # placed at the top of the deck as dead cards") laid on top of it as dead cards by the
    # player, before play goes on.
    penalty_cards: Literal["under", "on-top"] = "under"
    # What a bad slap by a player holding cards costs: ``burn`` cards under the pile, or (the
    # Wikipedia article's alternative) nothing by itself, but plays may be contested: a long
    # press before the next card contests the last pile taken or the last bad slap by another
    # player. If the play was right each contester gives the player their top card; if it was
    # wrong the player gives each contester theirs.
    bad_slaps: Literal["burn", "contest"] = "burn"
    slap_in: bool = True
    # Slapping back in only while two players or more hold cards, or at any time (the rule
    # sheet: "you can always slap").
    slap_in_always: bool = False
    # A bad slap by a player with no cards: a strike (at ``strikes_limit`` no more slapping in),
    # or (the Wikipedia article's variation) their hand goes under the pile: no slapping in
    # until the pile is next won.
    out_slaps: Literal["strikes", "hand-under"] = "strikes"
    # Bad slaps by a player with no cards are strikes; at this many they may no longer slap in.
    strikes_limit: int = 3
    # A player who runs out while answering a challenge: the next player goes on with the chances
    # left, or the face-card player takes the pile.
    runout: Literal["next-player", "challenger-takes"] = "next-player"
    # When one player holds every card they play this many more for a last slap-in chance (0: off).
    last_chance_cards: int = 3
    # Two presses with the very same timestamp on a good pile: a seeded draw, the first of them
    # clockwise from the player of the top card, or nobody takes it.
    tie: Literal["random", "seat-order", "nobody"] = "random"
    # Presses after the pile was already won on that card: ignored, or penalised like bad slaps
    # (but its winner's own: the pile is theirs).
    late_slaps: Literal["ignore", "penalty"] = "ignore"
    # A card laid out of turn: the turn's player's, as the camera cannot tell whose hand laid
    # it, or (the Wikipedia article) a dead card once the table is told whose it was while it
    # is the pile's top card: it stays on the pile, makes no slap (a slap on it is bad), and
    # the turn stays where it was; "dead-and-burn" also costs its player a bad slap's penalty
    # ("in some cases, this same penalty is applied").
    out_of_turn: Literal["credited", "dead", "dead-and-burn"] = "credited"

    def check(self, given: frozenset[str]) -> None:
        """Refuse values out of range and combinations that cannot be played."""
        ranges = {
            "decks": (1, 8),
            "jokers_per_deck": (0, 2),
            "run_length": (3, 4),
            "suit_run_length": (2, 8),
            "colour_run_length": (2, 8),
            "burn": (1, 3),
            "strikes_limit": (1, 99),
            "last_chance_cards": (0, 10),
        }
        for key, (lo, hi) in ranges.items():
            value = getattr(self, key)
            if not lo <= value <= hi:
                raise RulesError(f"rules key {key!r}: {value} is outside {lo}..{hi}")
        any_condition = any(getattr(self, c) for c in SLAP_CONDITIONS if c != "joker")
        if self.slaps and not any_condition and not (self.joker_slap and self.jokers_per_deck):
            raise RulesError("rules key 'slaps' is on but every slap condition is off")
        needs = {
            "run_wrap": "run",
            "run_length": "run",
            "tens_face_cards": "tens",
            "tens_ace_counts_one": "tens",
            "run_skips_ten": "run",
            "top_bottom_match": "top_bottom",
            "suit_run_length": "suit_run",
            "colour_run_length": "colour_run",
        }
        for key, parent in needs.items():
            if key in given and not getattr(self, parent):
                raise RulesError(f"rules key {key!r} is set but {parent!r} is off")
        if not self.slaps:
            turned_on = sorted(k for k in given & set(SLAP_CONDITIONS) if getattr(self, k))
            if turned_on:
                raise RulesError(f"rules key {turned_on[0]!r} is on but 'slaps' is off")
        if self.bad_slaps == "contest" and self.late_slaps == "penalty":
            raise RulesError(
                "rules keys 'bad_slaps' and 'late_slaps': a contest begins with a press after the pile is won, "
                "which late_slaps = 'penalty' would burn"
            )
        if self.bad_slaps == "contest" and self.out_of_turn == "dead-and-burn":
            raise RulesError(
                "rules keys 'bad_slaps' and 'out_of_turn': nothing is burned where bad slaps are contested, "
                "so a card laid out of turn cannot cost a burn"
            )
        if self.bad_slaps == "contest" and self.penalty_cards == "on-top":
            raise RulesError("rules key 'penalty_cards' is set but bad slaps are contested, not paid in cards")
        if self.bad_slaps == "contest" and "burn" in given:
            raise RulesError("rules key 'burn' is set but bad slaps are contested, not burned")

    @property
    def total_cards(self) -> int:
        return self.decks * (52 + self.jokers_per_deck)
