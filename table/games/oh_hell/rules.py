"""The rules of the bidding game (Screw Your Neighbour, an Oh Hell variant) as one value.

Sources: the "Game Rules for Screw Your Neighbor" score sheet and the "Screw Your Neighbour" trick-taking
rule sheet. Defaults follow the first score sheet: hands grow from
one card, the turned card's suit is trump, an exact bid scores 10 plus the bid.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Literal

from table.rules import RulesError


@dataclass(frozen=True, slots=True)
class OhHellRules:
    """Oh Hell house rules. Field names are the keys of preset files."""

    decks: int = 1
    # More players than this play with a second deck (the second rule sheet: "for more than 5
    # players, a second deck is used"); 0: the decks are ``decks`` at any table.
    second_deck_above: int = 0
    jokers_per_deck: int = 0
    # up: 1, 2, ... the largest hand (the first score sheet); down: the largest hand down to 1
    # (the second rule sheet); down-up and up-down turn round at 1 or at the largest hand;
    # listed: the hands of ``hand_list``.
    hand_sizes: Literal["up", "down", "down-up", "up-down", "listed"] = "up"
    # The largest hand; 0: as many cards as leave one to turn up for trump.
    max_hand: int = 0
    hand_list: tuple[int, ...] = ()
    # turned: the turned card's suit is trump; no-trump-on-honours: an ace, ten, face card (or
    # joker) turned means no trump (the second rule sheet). A hand that leaves no card to turn has no trump.
    trump: Literal["turned", "no-trump-on-honours"] = "turned"
    # The dealer may not bid so that the bids add up to the tricks: somebody gets screwed.
    dealer_restriction: bool = True
    # bonus: exact bid scores 10 + bid, else 0 (the first score sheet); squares: exact 10 + bid^2, else minus the
    # square of the difference (the second rule sheet); tricks: one a trick, plus 10 for an exact bid.
    scoring: Literal["bonus", "squares", "tricks"] = "bonus"
    # With several decks, identical cards in one trick cancel each other (the second rule sheet); otherwise the
    # first played of them ranks higher.
    cancellation: bool = True
    # A revoke found later: flag it only (the first score sheet: "there are no negative points"),
    # or also take ``revoke_points`` off that hand's score (a house rule).
    revoke_penalty: Literal["flag", "points"] = "flag"
    revoke_points: int = 10

    def check(self, given: frozenset[str]) -> None:
        if not 1 <= self.decks <= 8:
            raise RulesError(f"rules key 'decks': 1 to 8 decks, not {self.decks}")
        if not 0 <= self.jokers_per_deck <= 2:
            raise RulesError(f"rules key 'jokers_per_deck': 0 to 2, not {self.jokers_per_deck}")
        if self.max_hand < 0:
            raise RulesError(f"rules key 'max_hand': 0 (as many as fit) or more, not {self.max_hand}")
        if self.hand_sizes == "listed":
            if not self.hand_list or any(n < 1 for n in self.hand_list):
                raise RulesError("rules key 'hand_list': list the hand sizes, each at least 1")
            if "max_hand" in given:
                raise RulesError("rules key 'max_hand' does not apply to hand_sizes = \"listed\"")
        elif "hand_list" in given:
            raise RulesError("rules key 'hand_list' needs hand_sizes = \"listed\"")
        if self.second_deck_above < 0:
            above = self.second_deck_above
            raise RulesError(f"rules key 'second_deck_above': 0 (never) or a number of players, not {above}")
        if self.revoke_points < 0:
            raise RulesError(f"rules key 'revoke_points': 0 or more, not {self.revoke_points}")

    def for_players(self, players: int) -> OhHellRules:
        """The rules at a table of ``players``: a second deck above ``second_deck_above``."""
        if self.second_deck_above and players > self.second_deck_above and self.decks < 2:
            return dataclasses.replace(self, decks=2)
        return self

    def sizes(self, cards: int, players: int) -> list[int]:
        """The hand sizes of a game, or RulesError naming the hand that cannot be dealt."""
        if self.hand_sizes == "listed":
            for n in self.hand_list:
                if n * players > cards:
                    raise RulesError(f"rules key 'hand_list': {n} cards each is {n * players}, more than {cards}")
            return list(self.hand_list)
        most = (cards - 1) // players
        if self.max_hand:
            if self.max_hand > most:
                raise RulesError(
                    f"rules key 'max_hand': {self.max_hand} cards for {players} players leaves no trump card "
                    f"in {cards} cards (at most {most})"
                )
            most = self.max_hand
        up = list(range(1, most + 1))
        return {
            "up": up,
            "down": up[::-1],
            "down-up": up[::-1] + up[1:],
            "up-down": up + up[-2::-1],
        }[self.hand_sizes]
