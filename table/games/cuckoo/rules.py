"""The rules of the trading game (Cuckoo, Chase the Ace, Screw Your Neighbor) as one value.

Sources: the 2020 "Screw Your Neighbor Card Game" article (its first part) and pagat.com's Cuckoo
page. Defaults follow pagat's
Cuckoo: ace low, a king blocks a trade when someone tries to take it, everyone tied for lowest
loses a life, three lives.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from table.cards import Card, Rank
from table.rules import RulesError

KingRule = Literal["traded", "locked", "no-trade", "cuckoo", "stop"]


@dataclass(frozen=True, slots=True)
class CuckooRules:
    """Cuckoo house rules. Field names are the keys of preset files."""

    decks: int = 1
    ace: Literal["low", "high"] = "low"
    # traded: no special effect, the dealer takes a king drawn from the stock too (pagat, rule 1);
    # locked: dealt kings face up, lock their holder and
    # skip the seat on their right (the 2020 article); no-trade: any dealt king stops all trading (pagat, rule 2);
    # cuckoo: shown when someone tries to take it, the trader keeps their card (pagat);
    # stop: as cuckoo, and the deal's trading ends there (pagat, rule 3).
    kings: KingRule = "cuckoo"
    # all-lowest: everyone tied lowest loses (pagat); nearest-dealer-left: the tied player first
    # after the dealer loses (the 2020 article); lowest-unique: tied ranks are safe, the lowest unique rank
    # loses, nobody when no rank is unique (pagat, after David Murphy).
    ties: Literal["all-lowest", "nearest-dealer-left", "lowest-unique"] = "all-lowest"
    # lives: lose one a round, out at zero, last player in wins; points: the loser scores a
    # point, lowest total after ``rounds`` rounds wins (the 2020 article).
    scoring: Literal["lives", "points"] = "lives"
    lives: int = 3
    rounds: int = 10
    # none; ante: one stake each into the pot at the start, the winner takes it (pagat);
    # per-life: every life lost pays a stake into the pot, the last player in takes it (the 2020 article).
    pot: Literal["none", "ante", "per-life"] = "ante"
    stake: int = 1
    # When everyone still in would lose their last life together (pagat's five ways):
    # joint-winners split the pot; replay: they keep their last lives and deal again; cut: they
    # cut cards, highest takes the pot; carry-new-stakes / carry: the game is undecided and the
    # pot goes to the next game, with or without a new stake from each player.
    all_out: Literal["joint-winners", "replay", "cut", "carry-new-stakes", "carry"] = "replay"
    # The pot an undecided game carried to this one (set by the table for the next game of a
    # series: ``CuckooReferee.carried_over``); with ``all_out = "carry"`` no new stakes are added to it.
    pot_carried: int = 0

    def check(self, given: frozenset[str]) -> None:
        if not 1 <= self.decks <= 8:
            raise RulesError(f"rules key 'decks': 1 to 8 decks, not {self.decks}")
        if not 1 <= self.lives <= 99:
            raise RulesError(f"rules key 'lives': 1 to 99, not {self.lives}")
        if self.rounds < 1:
            raise RulesError(f"rules key 'rounds': at least 1, not {self.rounds}")
        if self.pot_carried < 0:
            raise RulesError(f"rules key 'pot_carried': 0 or more, not {self.pot_carried}")
        if self.stake < 1:
            raise RulesError(f"rules key 'stake': at least 1, not {self.stake}")
        if self.scoring == "points":
            if self.pot == "per-life":
                raise RulesError("rules key 'pot': a per-life pot needs scoring = \"lives\"")
            for key in sorted(given & {"lives", "all_out"}):
                raise RulesError(f'rules key {key!r} applies to scoring = "lives" only')
        elif "rounds" in given:
            raise RulesError("rules key 'rounds' applies to scoring = \"points\" only")

    def value(self, card: Card) -> int:
        """The card's rank for losing: suits never count."""
        if card.rank is Rank.ACE and self.ace == "high":
            return 14
        return int(card.rank)
