"""The table on MQTT (``table.mqtt``) against a real Mosquitto broker started for each test on a
free loopback port: retained state republished on every connect, a last will, decisions queued
while the broker is away, and a simulated game's scores on the broker exactly as the referee's."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from sim.games import SIMULATIONS
from sim.options import SimOptions
from table import home_assistant
from table.decisions import GoodSlap
from table.games import setup_game
from table.mqtt import MqttError, MqttSettings, TablePublisher, parse_url
from table.narration import Narrator
from table.scoreboard import seat_scores
from tests.mqtt_broker import Broker, Subscriber, connected_client

pytestmark = pytest.mark.system

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["Ann", "Bob", "Cyd"]


def test_a_broker_address_is_read_and_a_bad_one_named() -> None:
    assert parse_url("mqtt://table:s%40cret@pi.local:1884", "kitchen") == MqttSettings(
        "pi.local", 1884, "kitchen", "table", "s@cret"
    )
    assert parse_url("mqtts://broker", "t1") == MqttSettings("broker", 8883, "t1", tls=True)
    for url, table_id, says in (
        ("http://pi:1883", "t", "is no broker address"),
        ("mqtt://pi:99999", "t", "is no broker address"),
        ("mqtt://pi:1883/topic", "t", "has a path or query"),
        ("mqtt://pi", "a/b", "table id 'a/b' must be 1 to 40 letters"),
        ("mqtt://pi", "", "table id '' must be"),
    ):
        with pytest.raises(MqttError, match=says):
            parse_url(url, table_id)


def _sim(game: str = "cuckoo", seed: int = 3) -> object:
    setup = setup_game(game, None, {}, 3, 0, seed)
    return SIMULATIONS[game](setup, SimOptions(camera="reports", seats="actions", speed=0.0))


def test_a_simulated_game_leaves_the_referees_scores_and_state_retained_on_the_broker(broker: Broker) -> None:
    sim = _sim()
    publisher = TablePublisher(parse_url(broker.url, "t1")).start()
    sim.core.outputs.decisions.append(publisher.follow(sim.setup, NAMES))
    sim.run()
    publisher.stop()
    _, scores = seat_scores(sim.referee)
    late = Subscriber(broker, "cardtable/t1/#")  # a dashboard opened after the game: the retained topics
    try:
        assert late.wait_for("cardtable/t1/availability") == "offline"  # the clean stop said so
        for seat, name in enumerate(NAMES):
            assert late.wait_for(f"cardtable/t1/seat/{seat}/name") == name
            assert late.wait_for(f"cardtable/t1/seat/{seat}/score") == str(scores[seat])
        game = json.loads(late.wait_for("cardtable/t1/game"))
        assert game == {"game": "cuckoo", "preset": "cuckoo", "round": sim.referee.state.round, "phase": "over"}
        state = json.loads(late.wait_for("cardtable/t1/state"))
        assert [s["score"] for s in state["seats"]] == scores and state["winners"] == sim.referee.state.winners
        assert late.wait_for("cardtable/t1/turn") == "none"
        assert "cardtable/t1/events" not in late.latest  # decisions are not retained
    finally:
        late.close()


def test_decisions_stream_on_events_in_order_while_a_dashboard_watches(broker: Broker) -> None:
    watching = Subscriber(broker, "cardtable/t2/events")
    assert watching.subscribed.wait(10)
    sim = _sim()
    made = []
    sim.core.outputs.decisions.append(lambda d, r: made.append(Narrator(NAMES).told(d, r)))
    publisher = TablePublisher(parse_url(broker.url, "t2")).start()
    sim.core.outputs.decisions.append(publisher.follow(sim.setup, NAMES))
    sim.run()
    publisher.stop()
    try:
        deadline = time.monotonic() + 15
        while len(watching.messages) < len(made) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert [json.loads(p) for _, p, _ in watching.messages] == made and publisher.dropped == 0
        assert [m["said"] for m in made if m["kind"] == "game-started"] == ["The trading game (Cuckoo), 3 players"]
    finally:
        watching.close()


def test_a_broker_away_then_back_is_caught_up_with_the_latest_state_and_the_decisions_kept(
    tmp_path: Path,
) -> None:
    broker = Broker(tmp_path)  # not started: the table begins without it
    publisher = TablePublisher(parse_url(broker.url, "t3", keep_events=5)).start()
    sim = _sim()
    sim.core.outputs.decisions.append(publisher.follow(sim.setup, NAMES))
    sim.run()
    told = [Narrator(NAMES).told(d, sim.referee) for d in sim.result.decisions]
    made = [m for t in told for m in [("cardtable/t3/events", t), *home_assistant.events(t, NAMES)]]
    made = [(topic if topic.startswith("cardtable/") else f"cardtable/t3/{topic}", payload) for topic, payload in made]
    assert not publisher.connected and publisher.dropped == len(made) - 5  # the oldest gave way to the newest
    deadline = time.monotonic() + 15
    while publisher.refused is None and time.monotonic() < deadline:  # paho's first try, on its own thread
        time.sleep(0.05)
    assert publisher.refused is not None and "cannot be reached" in publisher.refused
    publisher.client.loop_stop()  # held back until the dashboard below listens, so it hears the catch-up
    broker.start()
    watching = Subscriber(broker, "cardtable/t3/#")
    try:
        assert watching.subscribed.wait(10)
        publisher.client.loop_start()
        _, scores = seat_scores(sim.referee)
        assert watching.wait_for("cardtable/t3/availability", "online", seconds=20)
        assert publisher.refused is None  # connected: the next outage is said again
        assert [watching.wait_for(f"cardtable/t3/seat/{s}/score") for s in range(3)] == [str(v) for v in scores]
        deadline = time.monotonic() + 15
        sent = lambda: [(t, json.loads(p)) for t, p, _ in watching.messages if "/event" in t]  # noqa: E731
        while len(sent()) < 5 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert sent() == made[-5:]  # the five kept, in order: the game's last decisions and Home Assistant's events
        publisher.stop()
        assert watching.wait_for("cardtable/t3/availability", "offline")
    finally:
        watching.close()
        broker.stop()


def _scored(broker: Broker, table_id: str, score: str) -> TablePublisher:
    """A table whose seat 0 scores ``score``, seen on the broker."""
    publisher = TablePublisher(parse_url(broker.url, table_id)).start()
    publisher.retain("seat/0/score", score)
    first = Subscriber(broker, f"cardtable/{table_id}/#")
    assert first.wait_for(f"cardtable/{table_id}/seat/0/score") == score
    first.close()
    return publisher


def test_values_the_last_connection_left_unconfirmed_do_not_overwrite_newer_ones(broker: Broker) -> None:
    """paho resends unacknowledged messages after a reconnect; the catch-up must land after them."""
    publisher = _scored(broker, "t7", "1")
    assert broker.process is not None
    os.kill(broker.process.pid, signal.SIGSTOP)  # a broker that hangs: the link looks alive
    publisher.retain("seat/0/score", "2")  # handed to paho, never acknowledged
    time.sleep(0.3)
    broker.stop()  # SIGKILL: the connection drops
    deadline = time.monotonic() + 10
    while publisher.connected and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not publisher.connected
    publisher.retain("seat/0/score", "3")  # the final score, made while the broker is away
    broker.start()
    try:
        again = Subscriber(broker, "cardtable/t7/#")
        assert again.wait_for("cardtable/t7/availability", "online", seconds=20)
        assert again.wait_for("cardtable/t7/seat/0/score", "3")
        time.sleep(0.5)
        again.close()
        last = Subscriber(broker, "cardtable/t7/seat/0/score")  # what the broker keeps for a new dashboard
        assert last.wait_for("cardtable/t7/seat/0/score") == "3"
        last.close()
    finally:
        publisher.stop()


def test_seats_that_went_away_are_cleared_from_the_broker(broker: Broker) -> None:
    publisher = TablePublisher(parse_url(broker.url, "t8")).start()
    four, three = (setup_game("cuckoo", None, {}, n, 0, 1) for n in (4, 3))
    try:
        publisher.show(four.referee(), four, ["Ann", "Bob", "Cyd", "Dee"])
        seen = Subscriber(broker, "cardtable/t8/seat/#")
        assert seen.wait_for("cardtable/t8/seat/3/name") == "Dee"
        seen.close()
        publisher.show(three.referee(), three, NAMES)
        # A subscriber that came before the clearing reached the broker was given seat 3 still:
        # a newcomer is asked again until one is given none (or ten seconds are up).
        deadline = time.monotonic() + 10.0
        while True:
            seen = Subscriber(broker, "cardtable/t8/seat/#")
            assert seen.wait_for("cardtable/t8/seat/2/name") == "Cyd"
            time.sleep(0.3)
            gone = "cardtable/t8/seat/3/name" not in seen.latest and "cardtable/t8/seat/3/score" not in seen.latest
            seen.close()
            if gone or time.monotonic() > deadline:
                break
        assert gone, "seat 3 is still retained on the broker"
    finally:
        publisher.stop()


def test_a_broker_killed_and_restarted_forgetting_everything_gets_the_state_again(broker: Broker) -> None:
    publisher = _scored(broker, "t5", "7")
    broker.stop()  # SIGKILL, no persistence: its retained topics are gone
    publisher.retain("seat/0/score", "9")  # the game went on meanwhile
    broker.start()
    again = Subscriber(broker, "cardtable/t5/#")
    try:
        assert again.wait_for("cardtable/t5/seat/0/score", "9", seconds=20)
        assert again.wait_for("cardtable/t5/availability", "online") and publisher.connects == 2
    finally:
        again.close()
        publisher.stop()


def test_a_table_that_dies_is_marked_offline_by_its_last_will(broker: Broker) -> None:
    watching = Subscriber(broker, "cardtable/t4/availability")
    script = (
        "import time; from table.mqtt import TablePublisher, parse_url\n"
        f"p = TablePublisher(parse_url({broker.url!r}, 't4')).start()\n"
        "time.sleep(60)\n"
    )
    table = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT)
    try:
        assert watching.wait_for("cardtable/t4/availability", "online")
        os.kill(table.pid, signal.SIGKILL)  # no clean stop: the broker sees the connection drop
        assert watching.wait_for("cardtable/t4/availability", "offline")
    finally:
        table.kill()
        table.wait()
        watching.close()


def test_cardtable_sim_publishes_a_game_as_a_table_would(broker: Broker) -> None:
    watching = Subscriber(broker, "cardtable/sim1/#")
    try:
        game = ["sim", "--game", "cuckoo", "--players", "3", "--seed", "3", "--fast", "--quiet"]
        parts = ["--camera", "reports", "--seats", "actions", "--mqtt", broker.url, "--table-id", "sim1"]
        done = subprocess.run(
            [sys.executable, "-m", "table.cli", *game, *parts],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        assert watching.wait_for("cardtable/sim1/availability", "offline")
        assert json.loads(watching.wait_for("cardtable/sim1/game"))["phase"] == "over"
        assert any(t == "cardtable/sim1/events" and '"kind":"game-over"' in p for t, p, _ in watching.messages)
    finally:
        watching.close()


def test_the_live_table_publishes_its_decisions_and_pause(broker: Broker, tmp_path: Path) -> None:
    from sim.mock_gpio import press, release, timed_mock_factory
    from table.config import load_config
    from table.control import SOCKET_NAME, send_command
    from table.live import LiveTable
    from tests.live_tables import rendered_table, wait_until

    path = rendered_table(tmp_path, frames=100, card_from=999)
    config = load_config(path, {"mqtt": {"url": broker.url, "table_id": "live"}})
    watching = Subscriber(broker, "cardtable/live/#")
    factory = timed_mock_factory()
    table = LiveTable(config, pin_factory=factory)
    runner = threading.Thread(target=table.run, kwargs={"max_seconds": 30})
    runner.start()
    try:
        assert watching.wait_for("cardtable/live/availability", "online")
        assert watching.wait_for("cardtable/live/turn") == "Bob"  # seat 1 leads
        now = time.monotonic()
        press(factory, 22, now)  # seat 2 slaps an empty pile
        release(factory, 22, now + 0.08)
        wait_until(lambda: any('"kind":"bad-slap"' in p for _, p, _ in watching.messages))
        assert send_command(tmp_path / "journal" / SOCKET_NAME, {"command": "pause"})[0]
        wait_until(lambda: json.loads(watching.latest["cardtable/live/state"])["paused"] != [])
        assert json.loads(watching.latest["cardtable/live/state"])["paused"] == [
            "players: paused from the command line"
        ]
    finally:
        table.stop()
        runner.join(timeout=10)
        watching.close()
    assert table.stats.errors == 0


def test_the_configurations_mqtt_keys_are_checked(tmp_path: Path) -> None:
    from table.config import ConfigError, load_config
    from tests.live_tables import rendered_table

    path = rendered_table(tmp_path, frames=1)
    for mqtt, says in (
        ({"url": "mqtt//pi"}, "[mqtt] mqtt: 'mqtt//pi' is no broker address"),
        ({"url": "mqtt://pi", "table_id": "a b"}, "table id 'a b' must be"),
        ({"url": "mqtt://u@pi", "password_file": "nope.txt"}, "[mqtt] password_file: cannot read"),
        ({"url": "mqtt://pi", "password_file": "table.toml"}, "the url names no user"),
        ({"urll": "mqtt://pi"}, "unknown key 'urll' in [mqtt] (did you mean 'url'?)"),
    ):
        with pytest.raises(ConfigError) as caught:
            load_config(path, {"mqtt": mqtt})
        assert says in str(caught.value)
    (tmp_path / "secret").write_text("s3cret\n")
    config = load_config(path, {"mqtt": {"url": "mqtt://table@pi:1884", "password_file": "secret"}})
    page = f"http://{socket.gethostname()}.local:9001/?table=table&user=dashboard"  # this machine's scoreboard
    assert config.mqtt_settings() == MqttSettings("pi", 1884, "table", "table", "s3cret", page=page)
    config = load_config(path, {"mqtt": {"url": "mqtt://pi", "scoreboard_url": "http://tv.lan:9001/"}})
    assert config.mqtt_settings().page == "http://tv.lan:9001/"


# What Home Assistant's MQTT integration documents for the platforms used here (the keys each
# entity may have, those it must), for the device (its abbreviations), and for the device
# discovery message itself.
PLATFORMS = {
    "sensor": (
        {"p", "name", "state_topic", "unique_id", "default_entity_id"},
        {"value_template", "json_attributes_topic", "device_class", "options", "state_class", "icon"},
    ),
    "event": (
        {"p", "name", "state_topic", "event_types", "unique_id", "default_entity_id"},
        {"value_template", "json_attributes_topic", "device_class", "icon"},
    ),
}
DEVICE = {"ids", "name", "mf", "mdl", "sw", "hw", "cu", "sa"}
MESSAGE = {"dev", "o", "cmps", "availability_topic", "qos", "state_topic", "command_topic"}


def _checked_discovery(config: dict, table: str) -> dict:
    """The device message against the documented schema; its components."""
    assert set(config) <= MESSAGE and set(config["dev"]) <= DEVICE and config["dev"]["ids"] == [f"cardtable_{table}"]
    assert config["dev"]["cu"].startswith("http")  # the device page links to the scoreboard
    parts = config["cmps"]
    for key, part in parts.items():
        if set(part) == {"p"}:
            continue  # a removal
        required, optional = PLATFORMS[part["p"]]
        assert required <= set(part) <= required | optional, (key, set(part) ^ required)
        assert part["unique_id"] == key and part["default_entity_id"] == f"{part['p']}.{key}"  # stable entity ids
        assert part["state_topic"].startswith(f"cardtable/{table}/")
        if part["p"] == "event":
            assert part["event_types"] and all(isinstance(t, str) for t in part["event_types"])
    return parts


def test_home_assistant_is_told_of_the_table_its_events_and_leader_and_a_seat_gone_once(broker: Broker) -> None:
    sim = _sim("ers", 2)
    publisher = TablePublisher(dataclasses.replace(parse_url(broker.url, "t6"), page="http://pi.local:9001/")).start()
    topic = "homeassistant/device/cardtable_t6/config"
    # Not "#": the state topics' many messages would overflow the broker's queue for a slow subscriber.
    ha = Subscriber(
        broker, "homeassistant/#", "cardtable/t6/event/#", "cardtable/t6/leader", "cardtable/t6/availability"
    )
    try:
        assert ha.subscribed.wait(10)
        assert ha.wait_for("cardtable/t6/availability", "online")  # the table is on the broker: nothing waits
        sim.core.outputs.decisions.append(publisher.follow(sim.setup, NAMES))
        sim.run()
        first = json.loads(ha.wait_count(topic, 1)[0])  # a run's first: the seats it may have had before, removed
        assert [k for k, c in first["cmps"].items() if c == {"p": "sensor"}] == [
            f"cardtable_t6_seat{seat}_score" for seat in range(3, home_assistant.MAX_SEATS)
        ]
        parts = _checked_discovery(json.loads(ha.wait_for(topic)), "t6")
        assert [parts[f"cardtable_t6_seat{s}_score"]["name"] for s in range(3)] == [f"{n} score" for n in NAMES]
        assert "cardtable_t6_seat3_score" not in parts  # no seat that never was
        assert parts["cardtable_t6_turn"]["options"] == [*NAMES, "none"]
        events = {key.removeprefix("cardtable_t6_"): part for key, part in parts.items() if part["p"] == "event"}
        assert set(events) == {"slap", "game", "winner"}
        # Each event message has an event_type its entity declares; slaps won, the game over, the winner.
        winner = NAMES[sim.referee.winner]
        assert ha.wait_for("cardtable/t6/event/winner", seconds=60)
        heard = {
            name: [json.loads(p) for t, p, _ in ha.messages if t == f"cardtable/t6/event/{name}"] for name in events
        }
        for name, messages in heard.items():
            assert messages and all(m["event_type"] in events[name]["event_types"] for m in messages)
        slaps = [d for d in sim.result.decisions if isinstance(d, GoodSlap)]
        assert [(m["seat"], m["condition"]) for m in heard["slap"]] == [(d.seat, d.condition) for d in slaps]
        assert [m["winners"] for m in heard["game"]] == [[winner]] and [m["name"] for m in heard["winner"]] == [winner]
        assert ha.wait_for("cardtable/t6/leader") == winner
        # A seat gone: removed in one message; the retained one after it no longer names it.
        sent = ha.count(topic)
        publisher.announce(NAMES[:2])
        publisher.announce(NAMES[:2])  # the same seats again: nothing is sent
        configs = [json.loads(p) for p in ha.wait_count(topic, sent + 2)]
        removal, after = configs[-2:]
        assert removal["cmps"]["cardtable_t6_seat2_score"] == {"p": "sensor"}
        assert "cardtable_t6_seat2_score" not in _checked_discovery(after, "t6")
        time.sleep(0.5)
        assert ha.count(topic) == sent + 2
        home = connected_client(broker)
        home.publish("homeassistant/status", "online", qos=1).wait_for_publish(5)
        again = json.loads(ha.wait_count(topic, sent + 3)[-1])  # sent again for Home Assistant ...
        assert again == after  # ... without the removal
        home.disconnect()
        home.loop_stop()
    finally:
        ha.close()
        publisher.stop()


def test_seats_gone_while_the_broker_is_away_are_removed_from_home_assistant_when_it_is_back(tmp_path: Path) -> None:
    broker = Broker(tmp_path)  # not started
    publisher = TablePublisher(parse_url(broker.url, "t9")).start()
    topic = "homeassistant/device/cardtable_t9/config"
    publisher.announce(["Ann", "Bob", "Cyd", "Dee"])
    publisher.announce(["Ann", "Bob"])
    publisher.announce(["Ann", "Bob", "Cyd"])  # Cyd is back: not removed
    publisher.client.loop_stop()  # held back until Home Assistant below listens
    broker.start()
    ha = Subscriber(broker, topic)
    try:
        assert ha.subscribed.wait(10)
        publisher.client.loop_start()
        configs = [json.loads(p) for p in ha.wait_count(topic, 2, seconds=20)]
        removed = [k for k, c in configs[0]["cmps"].items() if c == {"p": "sensor"}]
        assert removed == [f"cardtable_t9_seat{seat}_score" for seat in range(3, home_assistant.MAX_SEATS)]
        time.sleep(0.5)
        last = json.loads(ha.latest[topic])
        assert sorted(k for k in last["cmps"] if "_seat" in k) == [f"cardtable_t9_seat{s}_score" for s in range(3)]
    finally:
        ha.close()
        publisher.stop()
        broker.stop()


def test_commands_over_mqtt_are_taken_or_refused_with_a_reason_on_reply(broker: Broker, tmp_path: Path) -> None:
    from sim.mock_gpio import timed_mock_factory
    from table.config import load_config
    from table.live import LiveTable
    from tests.live_tables import rendered_table, wait_until

    path = rendered_table(tmp_path, frames=100, card_from=999)
    table = LiveTable(
        load_config(path, {"mqtt": {"url": broker.url, "table_id": "cmd"}}), pin_factory=timed_mock_factory()
    )
    watching = Subscriber(broker, "cardtable/cmd/#")
    runner = threading.Thread(target=table.run, kwargs={"max_seconds": 30})
    runner.start()
    admin = connected_client(broker)

    def sent(kind: str, payload: str = "") -> dict:
        before = sum(1 for t, _, _ in watching.messages if t == "cardtable/cmd/reply")
        admin.publish(f"cardtable/cmd/cmd/{kind}", payload, qos=1).wait_for_publish(5)
        wait_until(lambda: sum(1 for t, _, _ in watching.messages if t == "cardtable/cmd/reply") > before)
        return json.loads(watching.latest["cardtable/cmd/reply"])

    try:
        watching.wait_for("cardtable/cmd/availability", "online")  # said after subscribing to its commands
        assert sent("pause") == {
            "command": "pause",
            "ok": True,
            "message": "paused: every light blinks amber until resume",
        }
        wait_until(lambda: table.games[0].faults == {"players": "paused from MQTT"})
        refused = sent("set", '{"rules": "nope"}')
        assert not refused["ok"] and "unknown ers preset 'nope'" in refused["message"]
        assert sent("set", "[1]")["message"].startswith("the payload must be a JSON object")
        assert sent("resume", "{oops")["message"].startswith("the payload is not JSON")
        assert sent("dance")["message"].startswith("command 'dance' is not one of")
        assert sent("set", "[" * 50_000)["message"] == "the payload is 50000 bytes; a command is at most 4096"
        assert sent("set", "[" * 4000)["message"].startswith("the payload is not JSON: maximum recursion")
        dealt = sent("new-game", '{"names": ["Al", "Bo", "Cy", "Di"]}')
        assert dealt == {
            "command": "new-game",
            "ok": True,
            "message": "dealing a new game: ers (standard) for Al, Bo, Cy, Di",
        }
        assert watching.wait_for("cardtable/cmd/seat/0/name", "Al")
    finally:
        admin.disconnect()
        admin.loop_stop()
        table.stop()
        runner.join(timeout=10)
        watching.close()
    assert table.stats.errors == 0


def test_tables_side_by_side_on_one_broker_keep_apart_and_the_league_shows_them_all(broker: Broker) -> None:
    from table.league import collect

    finished = {}
    for table_id, game, seed in (("hall", "cuckoo", 3), ("den", "oh-hell", 5)):
        sim = _sim(game, seed)
        publisher = TablePublisher(parse_url(broker.url, table_id)).start()
        sim.core.outputs.decisions.append(publisher.follow(sim.setup, NAMES))
        sim.run()
        publisher.stop()
        finished[table_id] = seat_scores(sim.referee)[1]
    odd = connected_client(broker)  # what else may be retained where a state would be
    seat = {"seat": 0, "name": "Ann", "score": "ten"}
    for table_id, payload in (
        ("bare", "{}"),
        ("five", "5"),
        ("texts", json.dumps({"game": "ers", "preset": "p", "phase": "x", "seats": [seat]})),
    ):
        odd.publish(f"cardtable/{table_id}/state", payload, qos=1, retain=True).wait_for_publish(5)
    odd.disconnect()
    tables = collect(parse_url(broker.url, "league"))
    assert [tables.pop(t)["unread"] for t in ("bare", "five", "texts")] == [
        "no game",
        "not an object",
        "its seats are not seats with a name and a score",
    ]
    assert sorted(tables) == ["den", "hall"]
    for table_id, scores in finished.items():
        assert [s["score"] for s in tables[table_id]["seats"]] == scores and not tables[table_id]["online"]
    assert tables["den"]["game"] == "oh-hell" and tables["hall"]["game"] == "cuckoo"
    done = subprocess.run(
        [sys.executable, "-m", "table.cli", "league", "--mqtt", broker.url],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and "hall (offline)" in done.stdout and "oh-hell (classic), over" in done.stdout
    assert done.stdout.count("cannot be read") == 3 and "Traceback" not in done.stderr  # (rich wraps the rest)
