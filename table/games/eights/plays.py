"""The shedding game's plays: the turned card and the dealer's option, the cards laid on the pile
(matches within their window, misplays), what each play does (switches, the special cards), the
choices it offers, whose turn is next, and the end of a game.
"""

from __future__ import annotations

import copy
import operator
from typing import Any

from table.cards import Card, Rank
from table.decisions import CardPlayed, Decision, GameOver, Rejected, RoundStarted, TurnChanged
from table.games.eights.cards import (
    SUIT_NAMES,
    SUITS,
    base_card,
    draw_kind,
    draw_of,
    is_black_ace,
    is_play,
    is_red_ace,
    natural_pair,
    naturals,
    playable,
    spade_combo,
    stacks_on,
    suit_of,
)
from table.games.eights.decisions import (
    CardTurned,
    ChoiceMade,
    ChoiceOffered,
    DirectionChanged,
    DrawOwed,
    MatchPlayed,
    Misplay,
    RoundWon,
    SafeCardTraded,
    Shielded,
    TurnedCardTaken,
)
from table.games.eights.state import (
    CHOOSE,
    DEALER_DISCARD,
    DEALER_OPTION,
    NOBODY,
    OVER,
    PLAY,
    SAFE_REFILL_NS,
    TURN_UP,
    EightsBase,
    EightsState,
)


class EightsPlays(EightsBase):
    """What the cards on the pile do."""

    def _new_round(self, t: int) -> list[Decision]:
        st, rules, n = self.state, self.rules, self.players
        keep = {"dealer": st.dealer, "totals": st.totals, "round": st.round + 1, "last_t": st.last_t}
        self.state = st = EightsState(**keep)
        st.hands = [rules.hand_size - rules.safe_card] * n
        st.safe = [rules.safe_card] * n
        st.called = [False] * n
        st.refill_until = [0] * n
        st.stock = self.pack_size - rules.hand_size * n
        st.turn = st.dealer
        return [RoundStarted(t, st.round, st.dealer, tuple(range(n)), rules.hand_size)]

    def _round_won(self, t: int, seat: int) -> list[Decision]:
        st, rules = self.state, self.rules
        if rules.scoring == "wins":
            points = [int(s == seat) for s in range(self.players)]
        else:
            points = [0 if s == seat else self.total(s) for s in range(self.players)]
        st.totals = [a + b for a, b in zip(st.totals, points, strict=True)]
        out: list[Decision] = [RoundWon(t, st.round, seat, tuple(points), tuple(st.totals))]
        st.open_cards, st.choices = [], []
        if st.round < rules.rounds:
            st.dealer = (st.dealer + 1) % self.players
            return out + self._new_round(t)
        st.phase = OVER
        best = max(st.totals) if rules.scoring == "wins" else min(st.totals)
        st.winners = [s for s in range(self.players) if st.totals[s] == best]
        how = "most games won" if rules.scoring == "wins" else "fewest cards left"
        reason = f"out of cards first in game {st.round}" if rules.rounds == 1 else f"{how} after {st.round} games"
        return [*out, GameOver(t, tuple(st.winners), tuple(st.totals), reason)]

    def _pile(self, t: int, card: Card) -> list[Decision]:
        st = self.state
        if st.lifted and card in st.reshow:  # the pile lifted for a reshuffle, its active cards put back
            del st.reshow[: st.reshow.index(card) + 1]
            st.lifted = bool(st.reshow)
            return []
        reshow, laid = st.reshow, len(st.pile)
        out = self._laid_on_pile(t, card)
        if st.reshow is reshow and len(st.pile) != laid:  # played on: the active cards are not coming back
            st.reshow, st.lifted = [], False
        return out

    def _laid_on_pile(self, t: int, card: Card) -> list[Decision]:
        """A card seen on the pile that is no active card put back after a reshuffle."""
        st = self.state
        if st.phase == TURN_UP:
            return self._turned(t, card)
        out: list[Decision] = []
        if st.phase == DEALER_OPTION and st.must_take:  # the turned joker was taken unseen: the dealer's discard
            return self._taken(t) + self._dealer_discard(t, card)
        if st.phase == DEALER_DISCARD:
            return self._dealer_discard(t, card)
        unknown = self.unknown_card(card, st.pile)  # the pile is the same for a join and a new play
        if unknown is not None and (st.phase in (CHOOSE, DEALER_OPTION) or st.open_cards):
            # A card that cannot be one more of the decks' is a misreading, shown again: the
            # dealer's option, a choice waiting, a play open to a match stay as they were. Whose
            # it was is the next player's (None where it may have been a match).
            return [Rejected(t, unknown, "card-seen", None if st.open_cards else self._plays_on())]
        if st.phase == DEALER_OPTION:
            out += self._start_play(t)  # the dealer left the turned card by playing on
        if st.phase == CHOOSE:
            out += self._default_choices(t)
        if st.open_cards:
            joined = None if unknown else self._join(t, card)
            if joined is not None:
                return out + joined
            out += self._close(t)
            if self.state is st and st.phase == CHOOSE:
                out += self._default_choices(t)
        if self.state is not st or st.phase != PLAY:  # that ended the game (or this deal)
            return [*out, Rejected(t, f"{card} came after the end of the game it was played in", "card-seen")]
        return out + self._new_play(t, st.turn, card, unknown)

    def _plays_on(self) -> int | None:
        """Who plays next by laying a card on what waits (the dealer's option, a choice, a
        play open to a match), once it is settled as that card would settle it, a jack's
        reversal and all; None when nothing waits so (or the card would end the game)."""
        st = self.state
        if (st.phase not in (CHOOSE, DEALER_OPTION) and not st.open_cards) or st.must_take:
            return None
        trial = copy.deepcopy(self)
        t = st.last_t
        if st.phase == DEALER_OPTION:
            trial._start_play(t)
        if trial.state.open_cards:
            trial._close(t)
        if trial.state.phase == CHOOSE:
            trial._default_choices(t)
        return trial.state.turn if trial.state.phase == PLAY and trial.state.round == st.round else None

    def _new_play(self, t: int, seat: int, card: Card, unknown: str | None) -> list[Decision]:
        """``unknown``: why the card cannot be one more of the decks' (``unknown_card``)."""
        st = self.state
        why = unknown or self._unaccounted(seat, card)
        if why is not None:  # a misreading: the card is shown again
            return [Rejected(t, why, "card-seen", seat)]
        why = self._illegal([card])
        if why is not None:  # taken back, the card under it shows where it lay: the camera knows it
            return [Misplay(t, seat, card, why)]
        out = self._from_hand(t, seat)
        st.pile.append(card)
        st.plays += 1
        out.append(CardPlayed(t, seat, card, len(st.pile)))
        st.open_cards, st.open_t = [card], t
        if self.total(seat) == 0 or not self.rules.matches or not self.rules.match_window_ms:
            out += self._close(t)
        return out

    def _join(self, t: int, card: Card) -> list[Decision] | None:
        """The card joins the open play as a match, or None when it cannot."""
        st = self.state
        cards = [*st.open_cards, card]
        if not is_play(cards, self.rules) or self._unaccounted(st.turn, card):
            return None
        if self._illegal(cards):
            return None
        out = self._from_hand(t, st.turn)
        st.pile.append(card)
        st.open_cards = cards
        out.append(CardPlayed(t, st.turn, card, len(st.pile)))
        if self.total(st.turn) == 0 or (len(cards) == 2 and (natural_pair(cards) or spade_combo(cards, self.rules))):
            out += self._close(t)
        return out

    def _unaccounted(self, seat: int, card: Card) -> str | None:
        """Why ``card`` cannot be the seat's, by every count (None: it can be)."""
        st = self.state
        if self.total(seat) or st.stock or st.unseen:
            return None
        return f"{card}: seat {seat} holds no card and the stock is empty: show it again, or say who played it"

    def _illegal(self, cards: list[Card]) -> str | None:
        """Why a play may not go on the pile now (None: it may)."""
        st, rules = self.state, self.rules
        under = st.match
        jokers_only = not naturals(cards)
        if st.owed:
            if jokers_only and rules.joker_shield:
                return None
            if st.owed_locked or not stacks_on(cards, st.owed_kind, under, rules):
                how = "shield with a joker or " if rules.joker_shield else ""
                stacks = rules.stacking and (st.owed_kind != "queen" or rules.queen_stacks or rules.spade_combo)
                stack = "stack on it, " if stacks and not st.owed_locked else ""
                return f"you must draw {st.owed}: {stack}{how}hold your button to draw"
        if st.skips:
            base = base_card(cards, under)
            if not rules.stacking or base is None or base.rank is not Rank.FOUR:
                return f"you miss {'this turn' if st.skips == 1 else f'{st.skips} turns'}: a four passes it on"
        first = naturals(cards) or cards
        if not any(playable(c, under, st.suit, rules) for c in first):
            assert under is not None
            suit = SUIT_NAMES.get(st.suit or "", "?")
            wild = ", an 8" if rules.eights_wild else ""
            return f"{first[0]} does not go on {under}: it takes {suit} or a {under.rank.symbol}{wild} or a joker"
        return None

    def _turned(self, t: int, card: Card) -> list[Decision]:
        st = self.state
        why = self.unknown_card(card, [])
        if why is not None:
            return [Rejected(t, why, "card-seen", st.dealer)]
        st.pile, st.stock = [card], st.stock - 1
        st.match, st.suit, st.top_from = card, suit_of(card), NOBODY
        out: list[Decision] = [CardTurned(t, card)]
        if card.is_joker or self.rules.dealer_option:
            st.must_take = card.is_joker
            st.phase = DEALER_OPTION
            return [*out, TurnChanged(t, st.dealer)]
        return out + self._start_play(t)

    def _start_play(self, t: int) -> list[Decision]:
        st = self.state
        st.phase = PLAY
        return self._resolve(t, NOBODY, st.pile[-1:], effects=self.rules.turned_card_effects)

    def _taken(self, t: int) -> list[Decision]:
        st = self.state
        st.hands[st.dealer] += 1
        st.pile, st.match, st.suit, st.must_take = [], None, None, False
        st.phase = DEALER_DISCARD
        return [TurnedCardTaken(t, st.dealer)]

    def _dealer_discard(self, t: int, card: Card) -> list[Decision]:
        """The dealer's discard in place of the turned card taken: it sets the rank and suit (so
        no joker), its special function applies, and a switch on it, as on a turned card, takes
        fresh cards rather than anyone's hand."""
        st = self.state
        why = self.unknown_card(card, [])
        if why is not None:
            return [Rejected(t, why, "card-seen", st.dealer)]
        if card.is_joker:
            return [Misplay(t, st.dealer, card, "the dealer's discard sets the rank and suit: not a joker")]
        out = self._from_hand(t, st.dealer)
        st.pile = [card]
        st.phase, st.turn = PLAY, st.dealer
        out.append(CardPlayed(t, st.dealer, card, 1))
        out += self._resolve(t, st.dealer, [card], effects=self.rules.turned_card_effects)
        st.top_from = NOBODY  # the opening card, as a turned one: a switch on it renews a hand
        return out

    def _close(self, t: int) -> list[Decision]:
        st = self.state
        cards, st.open_cards = st.open_cards, []
        out: list[Decision] = []
        if len(cards) > 1:
            out.append(MatchPlayed(t, st.turn, tuple(cards), natural_pair(cards)))
        return out + self._resolve(t, st.turn, cards)

    def _resolve(self, t: int, seat: int, cards: list[Card], effects: bool = True) -> list[Decision]:
        """What a play does, in order: a switch, the card's function, a king run's draw; then the
        choices it offers; then the turn passes. ``seat`` is NOBODY for the turned card."""
        st, rules = self.state, self.rules
        if seat != NOBODY and self.total(seat) == 0 and rules.going_out == "out":
            return self._round_won(t, seat)
        under, before = st.match, st.top_from
        jokers_only = not naturals(cards)
        if st.owed and jokers_only and rules.joker_shield and seat != NOBODY:
            return self._shield(t, seat)
        stacked = bool(st.owed or st.skips)
        run_due = st.kings if self.king_run() and seat != NOBODY else 0
        base = base_card(cards, under)
        st.match, st.top_from = base, seat
        if not jokers_only:
            st.suit = suit_of(base)
        st.play_from = len(st.pile) - len(cards)
        if not stacked:
            st.active_from = st.play_from
        kings = naturals(cards)
        if base is not None and kings and all(c.rank is Rank.KING for c in kings):
            if not st.kings:
                st.kings_from = len(st.pile) - len(cards)
            st.kings += len(kings)  # a king laid with jokers is one natural king: the run goes on
            run_due = 0
        else:
            st.kings = 0
        bomb_by, st.bomb_by = st.bomb_by, NOBODY
        out: list[Decision] = []
        if effects and base is not None:
            out += self._switch(t, seat, cards, under, before, base)
            out += self._function(t, seat, cards, under, base, stacked, bomb_by)
        if run_due:
            out += self._draw(t, seat, run_due, "kings")
        return out + self._then(t, seat)

    def _switch(
        self, t: int, seat: int, cards: list[Card], under: Card | None, before: int, base: Card
    ) -> list[Decision]:
        """A play identical to the card the pile's top counts as (``under``: the natural card of
        the play on top, whichever order a match was laid in, or under a shield or a joker
        alone, "as if the joker were not there") swaps with ``before``, who played that."""
        st, rules = self.state, self.rules
        if seat == NOBODY:
            return []
        natural = naturals(cards)
        real = rules.switch and under is not None and any(c.face == under.face for c in natural)
        real = real and (rules.joker_switch or len(natural) == len(cards))  # literally: no switch with a joker
        joker = not natural and rules.joker_alone == "switch"
        black = rules.black_aces and is_black_ace(base)
        if not (real or joker):
            return []
        if before == NOBODY:
            return self._renew(t, seat)
        if before == seat:
            return []
        if black:
            steps = 2 if len(cards) > 1 else 1
            st.choices.append(self._offer(seat, "order", ["pass-first", "swap-first"], target=before, steps=steps))
        elif real and rules.switch_safe_trade and st.safe[before] and st.hands[seat] and len(natural) == len(cards):
            st.choices.append(self._offer(seat, "switch", ["hands", "safe-card"], target=before))
        else:
            return self._swap(t, seat, before)
        return []

    def _function(
        self, t: int, seat: int, cards: list[Card], under: Card | None, base: Card, stacked: bool, bomb_by: int
    ) -> list[Decision]:
        st, rules = self.state, self.rules
        out: list[Decision] = []
        double = len(cards) > 1
        kind = draw_kind(base, rules)
        if kind is not None or spade_combo(cards, rules):
            st.owed = (st.owed if stacked else 0) + draw_of(cards, under, rules)
            st.owed_kind = "queen" if spade_combo(cards, rules) else kind or ""
            st.owed_from = st.dealer if seat == NOBODY else seat  # a turned card: the dealer left it
            if natural_pair(cards) and rules.pair_split:
                st.choices.append(self._offer(seat, "pair", ["all-to-next", "split"]))
        if rules.fours_skip and base.rank is Rank.FOUR:
            st.skips = (st.skips if stacked else 0) + (2 if double else 1)
        if rules.bomb and base.rank is Rank.SEVEN and natural_pair(cards):
            if rules.bomb_counter and bomb_by not in (NOBODY, seat):
                out += self._draw(t, bomb_by, rules.bomb_draw, "bomb-returned")
            else:
                st.bomb_by = seat
                for k in range(1, self.players):
                    out += self._draw(t, self.step(seat, k), rules.bomb_draw, "bomb")
        if rules.eights_wild and base.rank is Rank.EIGHT and seat != NOBODY and (not double or rules.eight_match_suit):
            st.choices.append(self._offer(seat, "suit", [SUIT_NAMES[s] for s in SUITS], SUIT_NAMES[st.suit or "C"]))
        if rules.jacks_reverse and base.rank is Rank.JACK and not double:
            st.direction = -st.direction
            out.append(DirectionChanged(t, st.direction))
        if rules.black_aces and is_black_ace(base) and not any(c["kind"] == "order" for c in st.choices):
            out += self._pass_hands(t, 2 if double else 1)
        if rules.red_aces and st.red_aces and seat == st.dealer and is_red_ace(base):
            seats = [f"seat {(seat + k) % self.players}" for k in range(1, self.players)]  # to the left
            for _ in range(2 if double else 1):
                st.choices.append(self._offer(seat, "red-ace", seats, "none"))
        return out

    def _then(self, t: int, seat: int) -> list[Decision]:
        """Offer the first waiting choice, or pass the turn on. A player left with no card is
        not asked: its choices take their defaults."""
        st = self.state
        if st.choices and seat != NOBODY and self.total(seat) == 0:
            c = st.choices.pop(0)
            return [
                ChoiceMade(t, seat, c["kind"], c["default"]),
                *self._carry_out(t, c, c["default"]),
                *self._then(t, seat),
            ]
        if st.choices:
            st.phase = CHOOSE
            c = st.choices[0]
            return [ChoiceOffered(t, c["seat"], c["kind"], tuple(c["options"]), c["default"])]
        return self._next(t, seat)

    def _next(self, t: int, seat: int) -> list[Decision]:
        """The turn passes from ``seat`` (NOBODY: the turned card, from the dealer)."""
        st = self.state
        # Out of cards (every card held: ``total``): the player, or a seat its play left with none.
        if seat != NOBODY and 0 in map(operator.add, st.hands, st.safe):
            return self._round_won(t, next(s for k in range(self.players) if self.total(s := self.step(seat, k)) == 0))
        st.phase, st.drawn = PLAY, False
        st.turn = self.step(st.dealer if seat == NOBODY else seat)
        out: list[Decision] = []
        if st.owed:
            out.append(DrawOwed(t, st.turn, st.owed, 0, st.owed_kind))
        elif st.skips:
            out.append(DrawOwed(t, st.turn, 0, st.skips, "four"))
        elif self.king_run():
            out.append(DrawOwed(t, st.turn, st.kings, 0, "kings"))
        return [*out, TurnChanged(t, st.turn)]

    def _shield(self, t: int, seat: int) -> list[Decision]:
        """A joker instead of drawing: whoever played the draw takes it; play goes on past the joker."""
        st = self.state
        onto = st.owed_from if st.owed_from not in (NOBODY, seat) else None
        out: list[Decision] = [Shielded(t, seat, onto, st.owed)]
        if onto is not None:
            out += self._draw(t, onto, st.owed, "shielded")
        st.owed, st.owed_split = st.owed_split, 0
        st.owed_locked = bool(st.owed)
        return out + self._next(t, seat)

    def _choose(self, t: int, seat: int, value: int) -> list[Decision]:
        st = self.state
        c = st.choices[0]
        options = c["options"]
        if value > len(options):
            return [Rejected(t, f"{c['kind']}: 1 to {len(options)} taps, or hold", "action", seat)]
        option = c["default"] if value == 0 else options[value - 1]
        if c["kind"] == "switch" and option == "safe-card" and not st.safe[c["target"]]:
            # The safe card was taken up (allowed at any time) while the choice waited: no trade.
            c["options"], c["default"] = ["hands"], "hands"
            why = f"seat {c['target']} has taken up its safe card: only the hands can be swapped"
            return [Rejected(t, why, "action", seat), ChoiceOffered(t, seat, "switch", ("hands",), "hands")]
        st.choices.pop(0)
        return [ChoiceMade(t, seat, c["kind"], option), *self._carry_out(t, c, option), *self._then(t, seat)]

    def _carry_out(self, t: int, c: dict[str, Any], option: str) -> list[Decision]:
        st = self.state
        seat, kind, target = c["seat"], c["kind"], c["target"]
        if kind == "suit":
            st.suit = next(s for s, name in SUIT_NAMES.items() if name == option)
        elif kind == "pair" and option == "split":
            st.owed, st.owed_split, st.owed_locked = (st.owed + 1) // 2, st.owed // 2, True
        elif kind == "switch":
            if option == "hands":
                return self._swap(t, seat, target)
            if self.rules.safe_trade_gives == "hand":  # the safe card lost: the card given is held
                st.safe[target], st.hands[target] = False, st.hands[target] + 1
            else:
                st.refill_until[target] = t + SAFE_REFILL_NS
            return [SafeCardTraded(t, seat, target)]
        elif kind == "order":
            if option == "pass-first":
                return self._pass_hands(t, c["steps"]) + self._swap(t, seat, target)
            return self._swap(t, seat, target) + self._pass_hands(t, c["steps"])
        elif kind == "red-ace" and option != "none":
            return self._swap(t, seat, int(option.removeprefix("seat ")))
        return []

    def _default_choices(self, t: int) -> list[Decision]:
        """A choice not made before the game moves on takes its default."""
        out: list[Decision] = []
        while self.state.phase == CHOOSE and self.state.choices:
            out += self._choose(t, self.state.choices[0]["seat"], 0)
        return out
