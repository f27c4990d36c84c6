"""Which slap condition, if any, the pile shows: pure functions over the cards played.

``played`` is the pile bottom first, without the burned cards under it (burned cards never make
a slap; they only stop top-bottom from counting).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

from table.cards import Card, Rank
from table.games.ers.rules import ErsRules

FACE_CHANCES = {Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1}
BLACK_JOKER_CHANCES = 13  # the black joker told apart: a challenge with this many chances


def chances(card: Card, rules: ErsRules) -> int | None:
    """The chances a card's challenge gives, or None: it starts none."""
    if rules.jokers == "apart" and card.rank is Rank.BLACK_JOKER:
        return BLACK_JOKER_CHANCES
    return FACE_CHANCES.get(card.rank)


def _is_slap_joker(card: Card, rules: ErsRules) -> bool:
    """A joker that is a slap: either, or the red one where they are told apart."""
    return card.rank is Rank.RED_JOKER or (card.rank.is_joker and rules.jokers == "alike")


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
    kings = 13  # the ranks a run steps through, ace to king
    if rules.run_skips_ten:  # the sheet's 7-8-9-J: the ten is no step, and no card of a run
        if any(r == int(Rank.TEN) for r in ranks):
            return False
        ranks = [r - 1 if r > int(Rank.TEN) else r for r in ranks]
        kings = 12
    if rules.run_wrap:
        steps = {(b - a) % kings for a, b in itertools.pairwise(ranks)}
        return steps in ({1}, {kings - 1})
    for ace in (1, kings + 1):
        values = [ace if r == 1 else r for r in ranks]
        steps = {b - a for a, b in itertools.pairwise(values)}
        if steps in ({1}, {-1}):
            return True
    return False


def _alike_run(played: Sequence[Card], length: int, key: Callable[[Card], object]) -> bool:
    """The top ``length`` cards alike by ``key`` (a suit, a colour); jokers have neither."""
    if len(played) < length or any(c.suit is None for c in played[-length:]):
        return False
    return len({key(c) for c in played[-length:]}) == 1


def _matches_first(top: Card, first: Card, rules: ErsRules) -> bool:
    if top.rank.is_joker or top.rank != first.rank:
        return False
    if rules.top_bottom_match == "suit":
        return top.suit == first.suit
    if rules.top_bottom_match == "colour":
        return top.suit is not None and first.suit is not None and top.suit.is_red == first.suit.is_red
    return True


def slap_condition(played: Sequence[Card], burned: bool, rules: ErsRules, answered: int = 0) -> str | None:
    """The name of the condition the pile meets, most specific first, or None. ``answered``:
    the cards played so far answering the challenge under way (the top one the last of them)."""
    n = len(played)
    if n == 0:
        return None
    top = played[-1]
    if rules.joker_slap and _is_slap_joker(top, rules):
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
    if rules.suit_run and _alike_run(played, rules.suit_run_length, lambda c: c.suit):
        return "suit_run"
    if rules.colour_run and _alike_run(played, rules.colour_run_length, lambda c: c.suit is not None and c.suit.is_red):
        return "colour_run"
    if rules.top_bottom and not burned and n >= 2 and _matches_first(top, played[0], rules):
        return "top_bottom"
    if (
        rules.counted
        and answered
        and not top.rank.is_joker
        and top.rank not in FACE_CHANCES
        and int(top.rank) == answered
    ):
        return "counted"
    return None
