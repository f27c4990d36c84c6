"""The bidding game's referee against DeepMind OpenSpiel's ``oh_hell`` (C++), on the same games.

Random games are played in OpenSpiel (seeded choices among its legal actions); each is then
replayed twice, timed: its actions through OpenSpiel again, and as the table would see it through
this referee (the trump card turned, the bids, each card laid on the pile), one hand of the
number of tricks OpenSpiel drew, scored one a trick plus 10 for an exact bid, as OpenSpiel's
defaults score. Every game must end with OpenSpiel's scores; the ratio of the two replay times
is printed. OpenSpiel is an optional dependency (``pip install open_spiel``): without it the
comparison is skipped with a message.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from benchmarks.timing import median_times
from table.cards import parse_card
from table.decisions import CardPlayed, GameOver, Rejected, TurnChanged
from table.events import CardSeen, Event, SeatAction
from table.games import GameSetup, setup_game

SUITS = "CDSH"  # OpenSpiel's suit order: a card's action is rank * 4 + suit, ranks 2 to ace
RANKS = "23456789TJQKA"
BID_BASE = 52  # a bid's action is 52 + the bid


@dataclass
class PlayedGame:
    actions: list[int]  # OpenSpiel's, chance's included
    setup: GameSetup
    events: list[Event]  # the same game as the table sees it
    returns: tuple[int, ...]


def _card(action: int) -> str:
    return RANKS[action // 4] + SUITS[action % 4]


def random_games(count: int, players: int = 4, seed: int = 1) -> list[PlayedGame]:
    """``count`` random games of OpenSpiel's ``oh_hell``, each also as the table's inputs."""
    import pyspiel

    game = pyspiel.load_game("oh_hell", {"players": players})
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        state = game.new_initial_state()
        actions: list[int] = []
        while not state.is_terminal():
            chance = state.is_chance_node()
            action = rng.choice([a for a, _ in state.chance_outcomes()] if chance else state.legal_actions())
            actions.append(action)
            state.apply_action(action)
        out.append(as_table_game(actions, players, tuple(round(r) for r in state.returns())))
    return out


def as_table_game(actions: list[int], players: int, returns: tuple[int, ...]) -> PlayedGame:
    """OpenSpiel's actions as the table's inputs: the number of tricks and the dealer chosen,
    the cards dealt face down (unseen), the trump card turned, the bids, the cards laid."""
    tricks, dealer = actions[0], actions[1]
    rest = actions[2 + tricks * players :]
    rules = {"hand_sizes": "listed", "hand_list": [tricks], "scoring": "tricks", "dealer_restriction": False}
    setup = setup_game("oh-hell", "classic", rules, players, dealer)
    t = 0
    events: list[Event] = []
    for action in rest:
        t += 1_000_000
        if not events:
            events.append(CardSeen(t, "camera", parse_card(_card(action)), "trump"))
        elif action >= BID_BASE:
            seat = (dealer + len(events)) % players  # bids go round from the dealer's left
            events.append(SeatAction(t, "gpio", seat, "bid", action - BID_BASE))
        else:
            events.append(CardSeen(t, "camera", parse_card(_card(action)), "pile"))
    return PlayedGame(actions, setup, events, returns)


def replay_openspiel(games: list[PlayedGame], players: int = 4) -> None:
    import pyspiel

    game = pyspiel.load_game("oh_hell", {"players": players})
    for played in games:
        state = game.new_initial_state()
        for action in played.actions:
            state.apply_action(action)


def replay_referee(games: list[PlayedGame]) -> list[Any]:
    """Each game through a fresh referee; the last decision of each (its game over)."""
    ends = []
    for played in games:
        referee = played.setup.referee()
        referee.start(0)
        out: list[Any] = []
        for event in played.events:
            out = referee.handle(event)
        ends.append(out[-1] if out else None)
    return ends


def replay_floor(games: list[PlayedGame]) -> None:
    """The least any Python referee does on replay: each game's referee made and started, each
    input answered with the two decisions a card makes (played, and whose turn), no rule looked at."""
    for played in games:
        played.setup.referee().start(0)
        for event in played.events:
            [CardPlayed(event.t_ns, 0, None, 1), TurnChanged(event.t_ns, 1)]  # type: ignore[arg-type]


def disagreements(games: list[PlayedGame]) -> list[str]:
    """The games whose replay through the referee refuses an input or ends with other scores."""
    wrong = []
    for n, played in enumerate(games):
        referee = played.setup.referee()
        decisions = referee.start(0)
        for event in played.events:
            decisions += referee.handle(event)
        refused = [d for d in decisions if isinstance(d, Rejected)]
        over = [d for d in decisions if isinstance(d, GameOver)]
        if refused or not over or over[-1].scores != played.returns:
            why = refused[0].reason if refused else f"scores {over[-1].scores if over else None} != {played.returns}"
            wrong.append(f"game {n}: {why}")
    return wrong


def main(count: int = 300) -> None:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("Oh Hell against OpenSpiel: skipped, OpenSpiel is not installed (pip install open_spiel)")
        return
    games = random_games(count)
    wrong = disagreements(games)
    events = sum(len(g.events) for g in games)
    ours, theirs, floor = median_times(
        [lambda: replay_referee(games), lambda: replay_openspiel(games), lambda: replay_floor(games)], rounds=15
    )
    print(f"Oh Hell against OpenSpiel's oh_hell (C++), {count} random 4-player games, one hand each:")
    print(f"  games ending with OpenSpiel's scores: {count - len(wrong)} of {count}")
    for line in wrong[:5]:
        print(f"    {line}")
    print(f"  this referee: {ours / events * 1e6:6.2f} us an input, {count / ours:8,.0f} games/s")
    print(f"  OpenSpiel:    {theirs / events * 1e6:6.2f} us an input, {count / theirs:8,.0f} games/s")
    print(f"  ratio (this referee's time over OpenSpiel's): {ours / theirs:.1f}x")
    print(
        f"  baseline, a stand-in that looks at no rule and answers each input with two decisions:"
        f" {floor / theirs:.1f}x OpenSpiel's time"
    )
