"""Which slap condition, if any, the pile shows: pure functions over the cards played.

``played`` is the pile bottom first, without the burned cards under it (burned cards never make
a slap; they only stop top-bottom from counting).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from table.cards import Card, Rank
from table.games.ers.rules import ErsRules

FACE_CHANCES = {Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1}


def _tens_value(card: Card, rules: ErsRules) -> int | None:
    """A card's worth in a tens sum, or None when it ends the run of cards."""
    rank = card.rank
    if rank.is_joker:
        return None
    if rank == Rank.ACE and rules.tens_ace_counts_one:
        return 1
    if rank in FACE_CHANCES:
        return 0 if rules.tens_face_cards == "zero" else None
    return int(rank)


def _tens(played: Sequence[Card], rules: ErsRules) -> bool:
    total = 0
    for count, card in enumerate(reversed(played), start=1):
        value = _tens_value(card, rules)
        if value is None:
            return False
        total += value
        if total > 10:
            return False
        if count >= 2 and total == 10:
            return True
    return False


def _run(played: Sequence[Card], rules: ErsRules) -> bool:
    n = rules.run_length
    if len(played) < n:
        return False
    top = played[-n:]
    if any(c.rank.is_joker for c in top):
        return False
    ranks = [int(c.rank) for c in top]
    if rules.run_wrap:
        steps = {(b - a) % 13 for a, b in itertools.pairwise(ranks)}
        return steps in ({1}, {12})
    for ace in (1, 14):
        values = [ace if r == 1 else r for r in ranks]
        steps = {b - a for a, b in itertools.pairwise(values)}
        if steps in ({1}, {-1}):
            return True
    return False


def slap_condition(played: Sequence[Card], burned: bool, rules: ErsRules) -> str | None:
    """The name of the condition the pile meets, most specific first, or None."""
    n = len(played)
    if n == 0:
        return None
    top = played[-1]
    if rules.joker_slap and top.rank.is_joker:
        return "joker"
    if n >= 2:
        second = played[-2]
        same = top.rank == second.rank and not top.rank.is_joker
        if same and rules.triple and n >= 3 and played[-3].rank == top.rank:
            return "triple"
        if same and rules.double:
            return "double"
        if rules.marriage and {top.rank, second.rank} == {Rank.KING, Rank.QUEEN}:
            return "marriage"
    if rules.sandwich and n >= 3 and played[-3].rank == top.rank and not top.rank.is_joker:
        return "sandwich"
    if rules.hoagie and n >= 4 and played[-4].rank == top.rank and not top.rank.is_joker:
        return "hoagie"
    if rules.run and _run(played, rules):
        return "run"
    if rules.tens and _tens(played, rules):
        return "tens"
    if rules.top_bottom and not burned and n >= 2 and played[0].rank == top.rank and not top.rank.is_joker:
        return "top_bottom"
    return None
