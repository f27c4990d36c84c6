"""Random Egyptian Rat Screw games for property tests: random deals, plays and slaps."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from table.cards import Card, deal_round_robin, shuffled_deck
from table.decisions import Decision
from table.events import OUT_OF_CARDS, OUT_OF_TURN, ButtonPressed, CardSeen, Event, SeatAction
from table.games import GameSetup, setup_game
from table.games.ers.referee import CONTEST, ErsReferee


@dataclass
class RandomGame:
    setup: GameSetup
    events: list[Event] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    referee: ErsReferee | None = None


def deck_counter(cards: list[Card | None]) -> Counter[str]:
    return Counter("??" if c is None else c.code for c in cards)


def play_random_game(
    seed: int, players: int, preset: str, steps: int, check=None, rules: dict | None = None
) -> RandomGame:
    """Deal, then interleave the expected plays with random presses (some at equal timestamps),
    contests, cards laid out of turn (mostly told so at once, where the rules make them dead), and
    now and then a player saying they hold no card."""
    rng = random.Random(seed)
    base = setup_game("ers", preset, rules or {}, players=players, seed=seed)
    rules = base.rules_value()
    deck = shuffled_deck(rng, rules.decks, rules.jokers_per_deck)
    hands = deal_round_robin(deck, players, 0)
    setup = GameSetup(base.game, base.preset, base.rules, players, 0, seed, [[c.code for c in h] for h in hands])
    game = RandomGame(setup)
    ref = setup.referee()
    assert isinstance(ref, ErsReferee)
    game.referee = ref
    game.decisions += ref.start()
    t = 0
    for _ in range(steps):
        if ref.finished:
            break
        t += rng.choice([1, 1000, 250_000_000])
        roll = rng.random()
        if roll < 0.65:
            game.decisions += ref.advance(t - 1)  # as the sequencer does before a later event
            if ref.finished:
                break
            seat = ref.expects().seat
            assert seat is not None
            # a pending pile is picked up before leading: its bottom card comes after the hand
            top = [*ref.hands[seat], *ref.burned, *ref.played][0]
            event: Event = CardSeen(t, "camera", top, "pile")
        elif roll < 0.7:  # a long press: a contest where the rules have them
            event = SeatAction(t, "gpio", rng.randrange(players), CONTEST)
        elif roll < 0.74:  # a card laid out of turn, and now and then the table told so
            game.decisions += ref.advance(t - 1)
            seat = ref.expects().seat
            others = [s for s in range(players) if s != seat and ref.hands[s]]
            if ref.finished or not others:
                continue
            offender = rng.choice(others)
            laid = CardSeen(t, "camera", ref.hands[offender][0], "pile")
            game.events.append(laid)
            game.decisions += ref.handle(laid)
            t += 1
            named = laid.card if rng.random() < 0.9 else ref.hands[seat][0] if ref.hands[seat] else laid.card
            assert named is not None
            told = offender if rng.random() < 0.9 else rng.randrange(players)
            event = SeatAction(t, "command", told, OUT_OF_TURN, named.key)
        elif roll < 0.75:  # a player says they hold no card (a count the table lost)
            event = SeatAction(t, "command", rng.randrange(players), OUT_OF_CARDS)
        else:
            event = ButtonPressed(t, "gpio", rng.randrange(players))
            if roll > 0.95:  # an exact tie with another seat, handed over in the sequencer's order
                first, event = sorted([event, ButtonPressed(t, "gpio", rng.randrange(players))], key=Event.sort_key)
                game.events.append(first)
                game.decisions += ref.handle(first)
        game.events.append(event)
        game.decisions += ref.handle(event)
        if check is not None:
            check(ref, deck)
    game.decisions += ref.advance(t)
    if check is not None:
        check(ref, deck)
    return game
