"""The referee engines: ERS events per second with slaps on, Beggar-my-neighbour games per second,
and full Cuckoo and Oh Hell games per second.

Targets: well under 100 microseconds an ERS event, over 1,000 full BMN games a second on one core
 the rules engine is never what a simulation waits on, so each round game is
timed both alone and inside the whole simulation that produced it. Each figure is the median of
several rounds; a baseline measured in the same run puts it in context on a noisy machine.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

from benchmarks import oh_hell_openspiel
from benchmarks.timing import ROUNDS, median_time, median_times
from sim.games import SIMULATIONS
from table.cards import make_deck
from table.events import CardSeen, Event
from table.games import GameSetup, setup_game
from table.games.ers.beggar import deal_from_cards, playout
from table.journal import JournalWriter, read_journal
from table.sequencer import Sequencer


def simulated_games(
    count: int, players: int | None = 4, game: str = "ers", preset: str = "standard"
) -> list[tuple[GameSetup, list[Event]]]:
    """Event streams of real simulated games (bots, slaps, mistakes), in the sequencer's order."""
    games = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(1, count + 1):
            path = Path(tmp) / f"{seed}.jsonl"
            sim = SIMULATIONS[game](setup_game(game, preset, players=players, seed=seed))
            with JournalWriter(path, sim.setup, fsync=False) as journal:
                sim.journal = journal
                sim.run()
            read = read_journal(path)
            events = sorted((e.event for e in read.entries if e.late_ns is None), key=lambda e: e.sort_key())
            games.append((read.setup, events))
    return games


def bench_ers() -> None:
    games = simulated_games(6)
    n_events = sum(len(ev) for _, ev in games)
    n_cards = sum(isinstance(e, CardSeen) for _, ev in games for e in ev)

    def referee_all() -> None:
        referee_games(games)

    def sequencer_all() -> None:
        for _, events in games:
            seq = Sequencer(250_000_000)
            for event in events:
                seq.push(event)
                seq.release(event.t_ns)
            seq.drain()

    t_ref = median_time(referee_all)
    t_seq = median_time(sequencer_all)
    print(f"ERS referee, standard rules (slaps on), {len(games)} simulated 4-player games,")
    print(f"  {n_events} events ({n_cards} cards): median of {ROUNDS} rounds")
    print(
        f"  referee:   {t_ref / n_events * 1e6:6.2f} us/event   {n_events / t_ref:10,.0f} events/s"
        f"   {n_cards / t_ref:10,.0f} cards/s"
    )
    print(f"  baseline, sequencer on the same events: {t_seq / n_events * 1e6:6.2f} us/event")


def referee_games(games: list[tuple[GameSetup, list[Event]]]) -> None:
    """Each game's events through a fresh referee, as replay and the live table hand them over."""
    for setup, events in games:
        ref = setup.referee()
        ref.start()
        handle = ref.handle
        for event in events:
            handle(event)
        ref.advance(events[-1].t_ns)
        assert ref.finished


def bench_round_games() -> None:
    """Whole Cuckoo, Oh Hell and shedding games: the referee alone, against the simulation around it."""
    cases = [
        ("cuckoo", "cuckoo", 5),
        ("cuckoo", "screw-your-neighbor", 6),
        ("oh-hell", "classic", 4),
        ("oh-hell", "big-table", 8),
        ("eights", "screw-your-neighbour", 4),
        ("eights", "screw-your-neighbour", 8),
    ]
    count = 20
    for game, preset, players in cases:
        games = simulated_games(count, players, game, preset)
        n_events = sum(len(ev) for _, ev in games)
        t_ref = median_time(lambda games=games: referee_games(games))
        t_sim = median_time(
            lambda game=game, preset=preset, players=players: [
                SIMULATIONS[game](setup_game(game, preset, players=players, seed=s)).run() for s in range(1, count + 1)
            ],
            rounds=3,
        )
        print(f"{game} / {preset}, {players} players, {count} simulated games ({n_events / count:.0f} events a game):")
        print(f"  referee alone: {count / t_ref:8,.0f} games/s   {t_ref / n_events * 1e6:6.2f} us/event")
        print(
            f"  baseline, the whole simulation (bots, sequencer, referee): {count / t_sim:6,.0f} games/s;"
            f" the referee is {t_ref / t_sim:.0%} of it"
        )


def bench_bmn() -> None:
    rng = random.Random(2024)
    deck = make_deck()
    deals = []
    for _ in range(1000):
        rng.shuffle(deck)
        deals.append(deal_from_cards([deck[0::2], deck[1::2]]))
    cards = sum(playout(d).cards for d in deals)

    def kernel() -> None:
        for deal in deals:
            playout(deal)

    referee_deals = deals[:50]
    same = sum(bare_loop(deal) == playout(deal).winner for deal in deals)

    t_kernel, t_bare = median_times([kernel, lambda: [bare_loop(deal) for deal in deals]], rounds=15)
    mean_cards = cards / len(deals)
    print(f"Beggar-my-neighbour, {len(deals)} random 2-player deals ({mean_cards:.0f} cards a game on average):")
    print(f"  playout kernel: {len(deals) / t_kernel:10,.0f} games/s   {cards / t_kernel:12,.0f} cards/s")
    print(
        f"  baseline, a bare Python loop over the same deals: {len(deals) / t_bare:8,.0f} games/s"
        f" (the same winner in {same} of {len(deals)}); the kernel takes {t_kernel / t_bare:.2f} of its time"
    )
    t_ref = median_time(lambda: _referee_bmn(referee_deals), rounds=3)
    print(f"  baseline, the full referee playing the same deals: {len(referee_deals) / t_ref:8,.0f} games/s")


def bare_loop(deal: list[bytes], most_cards: int = 20_000) -> int | None:
    """Beggar-my-neighbour for two as plainly as Python plays it (a card is its chances): the
    winner, or None past ``most_cards`` (a game that never ends; the kernel proves it by cycles)."""
    hands = [list(deal[0]), list(deal[1])]
    pile: list[int] = []
    player, owed, played = 0, 0, 0
    while played < most_cards:
        if not hands[player]:
            winner = 1 - player
            hands[winner] += pile
            return winner
        card = hands[player].pop(0)
        pile.append(card)
        played += 1
        if card:
            owed, player = card, 1 - player
        elif owed:
            owed -= 1
            if not owed:
                hands[1 - player] += pile
                pile = []
                player = 1 - player
        else:
            player = 1 - player
    return None


def _referee_bmn(deals: list[list[bytes]]) -> None:
    """Play deals through the ERS referee under the BMN preset, as the camera would feed it."""
    setup = setup_game("ers", "beggar-my-neighbour", players=2)
    plain = [c for c in make_deck() if 2 <= c.rank.value <= 10]
    courts = {v: [c for c in make_deck() if c.code[0] == k] for k, v in zip("JQKA", (1, 2, 3, 4), strict=True)}
    for deal in deals:
        pools = {0: list(plain), **{v: list(cs) for v, cs in courts.items()}}
        hands = [[pools[v].pop() for v in hand] for hand in deal]
        ref = GameSetup(setup.game, setup.preset, setup.rules, 2, 1, 0, [[c.code for c in h] for h in hands]).referee()
        t = 0
        while not ref.finished and t < 20_000:
            seat = ref.expects().seat
            t += 1
            ref.handle(CardSeen(t, "camera", ref.hands[seat][0], "pile"))


def main() -> None:
    oh_hell_openspiel.main()
    print()
    bench_ers()
    print()
    bench_bmn()
    print()
    bench_round_games()
