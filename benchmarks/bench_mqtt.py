"""The table on MQTT against a real Mosquitto on loopback: how long a decision takes to reach a
subscriber, and whether a dashboard ends with the referee's scores when the broker is killed and
restarted in the middle of a game.

Games are simulated at eight times real pace (a fast live table) on the fast parts (camera
reports and seat actions), the publisher attached to the core as on a real table.
"""

from __future__ import annotations

import logging
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path

from sim.games import SIMULATIONS
from sim.options import SimOptions
from table.games import setup_game
from table.mqtt import TablePublisher, parse_url
from table.scoreboard import seat_scores
from tests.mqtt_broker import Broker, Subscriber

NAMES = ["Ann", "Bob", "Cyd", "Dee"]
RESTARTS = 20


def _sim(game: str, players: int, seed: int, speed: float) -> object:
    setup = setup_game(game, None, {}, players, 0, seed)
    return SIMULATIONS[game](setup, SimOptions(camera="reports", seats="actions", speed=speed))


def _bare(broker: Broker, payloads: list[str], handed: list[int]) -> list[float]:
    """The baseline: the same payloads at the same moments apart, published by a bare paho client
    to a subscriber of the same broker, each from its publish to its arrival (ms): what the
    broker and loopback take, with nothing of the table's."""
    from paho.mqtt.client import CallbackAPIVersion, Client

    watching = Subscriber(broker, "bench/bare")
    watching.subscribed.wait(5)
    client = Client(CallbackAPIVersion.VERSION2)
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    sent: list[int] = []
    for n, payload in enumerate(payloads):
        if n:
            time.sleep(max(0, handed[n] - handed[n - 1]) / 1e9)
        sent.append(time.monotonic_ns())
        client.publish("bench/bare", payload, qos=1)
    watching.wait_count("bench/bare", len(sent))
    client.loop_stop()
    client.disconnect()
    watching.close()
    return sorted((t - at) / 1e6 for at, (_, _, t) in zip(sent, watching.messages, strict=False))


def latency(folder: Path) -> str:
    """Each decision from the moment it is handed to the publisher to its arrival at a subscriber,
    and, in the same run, the same messages at the same pace through a bare client (``_bare``)."""
    broker = Broker(folder).start()
    try:
        watching = Subscriber(broker, "cardtable/bench/events")
        watching.subscribed.wait(5)  # nothing sent before the subscriber listens
        sim = _sim("ers", 4, 1, 8.0)
        publisher = TablePublisher(parse_url(broker.url, "bench")).start()
        publisher._up.wait(5)
        follow = publisher.follow(sim.setup, NAMES)
        handed: list[int] = []

        def decided(decision: object, referee: object) -> None:
            handed.append(time.monotonic_ns())
            follow(decision, referee)

        sim.core.outputs.decisions.append(decided)
        sim.run()
        publisher.stop()
        watching.wait_count("cardtable/bench/events", len(handed))
        watching.close()
        got = [t for _, _, t in watching.messages]
        lat = sorted((b - a) / 1e6 for a, b in zip(handed, got, strict=False))
        p99 = lat[min(len(lat) - 1, int(0.99 * len(lat)))]
        bare = _bare(broker, [payload for _, payload, _ in watching.messages], handed)
        bare_p99 = bare[min(len(bare) - 1, int(0.99 * len(bare)))]
        return (
            f"a decision to a subscriber's hands, loopback, {len(lat)} of {len(handed)} decisions of a game of ERS "
            f"at 8x: median {statistics.median(lat):.2f} ms, 99th percentile {p99:.2f} ms, worst {lat[-1]:.2f} ms "
            f"(target: under 20 ms at the 99th percentile); the same messages at the same pace from a bare client, "
            f"the same run: median {statistics.median(bare):.2f} ms, 99th percentile {bare_p99:.2f} ms"
        )
    finally:
        broker.stop()


def restarts(folder: Path) -> str:
    """Games whose broker is killed (SIGKILL, no persistence: it forgets every retained topic)
    and restarted in the middle; a dashboard opened afterwards must show the referee's scores."""
    rng = random.Random(1)
    agreed, outages = 0, []
    logging.getLogger("cardtable.mqtt").setLevel(logging.ERROR)  # each loss would say so
    for trial in range(RESTARTS):
        (folder / f"b{trial}").mkdir()
        broker = Broker(folder / f"b{trial}").start()
        sim = _sim("cuckoo", 4, trial, 16.0)
        publisher = TablePublisher(parse_url(broker.url, f"r{trial}")).start()
        sim.core.outputs.decisions.append(publisher.follow(sim.setup, NAMES))
        game = threading.Thread(target=sim.run)
        game.start()
        time.sleep(rng.uniform(0.3, 1.5))
        broker.stop()  # killed mid-game
        away = rng.uniform(0.5, 3.0)
        time.sleep(away)
        outages.append(away)
        broker.start()
        game.join()
        publisher.stop()
        watching = Subscriber(broker, f"cardtable/r{trial}/#")
        _, scores = seat_scores(sim.referee)
        try:
            shown = [watching.wait_for(f"cardtable/r{trial}/seat/{s}/score") for s in range(4)]
            agreed += shown == [str(v) for v in scores] and publisher.connects >= 2
        except AssertionError:
            pass
        finally:
            watching.close()
            broker.stop()
    return (
        f"broker killed and restarted mid-game ({statistics.median(outages):.1f} s away, median): the dashboard's "
        f"final scores equal the referee's in {agreed} of {RESTARTS} games"
    )


def main() -> None:
    print("The table on MQTT (a real Mosquitto on loopback):")
    with tempfile.TemporaryDirectory() as folder:
        print(" ", latency(Path(folder)))
        print(" ", restarts(Path(folder)))


if __name__ == "__main__":
    main()
