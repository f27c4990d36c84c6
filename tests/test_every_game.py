"""Every registered game through every output: a whole game of each, played by the simulator's
bots, is printed in the terminal, drawn in the sketch, shown on the lights and published as MQTT
and Home Assistant read it; a game that one of them does not know fails here. And the games are
named in one place: nothing outside ``table/games/`` spells a game's name."""

from __future__ import annotations

import ast
import io
import json
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from sim.games import SIMULATIONS
from sim.options import SimOptions
from table import decisions as dc
from table.decisions import Decision, GameOver, GameStarted, GameWon, TurnChanged
from table.events import ButtonPressed, Command, Event
from table.games import GAMES, game_of, setup_game
from table.lights import LightKind, Pattern
from table.mqtt import TablePublisher, parse_url
from table.rules import shipped_presets
from table.table_sketch import TableSketch
from table.terminal_view import TerminalView

ROOT = Path(__file__).resolve().parents[1]
NAMES = ["Ann", "Bob", "Cyd", "Dee", "Eve"]


class _Broker:
    """Stands in for paho's client: connected, keeping the last payload of each topic."""

    def __init__(self) -> None:
        self.topics: dict[str, str] = {}
        self.events: list[dict[str, Any]] = []

    def publish(self, topic: str, payload: str, qos: int = 0, retain: bool = False) -> None:
        if topic.endswith("/events"):
            self.events.append(json.loads(payload))
        else:
            self.topics[topic] = payload

    def __getattr__(self, name: str) -> Any:
        return lambda *args, **kwargs: None  # will_set, reconnect_delay_set and the like


SHARED_NEWS = (dc.PileWon, dc.BadSlap, dc.PlayerOut, dc.Rejected, dc.CardMismatch)  # decisions every game's lights tell


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_whole_game_goes_through_every_output(name: str) -> None:
    game = GAMES[name]
    setup = setup_game(name, players=4, seed=2)
    names = NAMES[: setup.players]
    console = Console(file=io.StringIO(), width=200)
    view = TerminalView(names, console=console)
    broker = _Broker()
    publisher = TablePublisher(parse_url("mqtt://localhost:1883", "t"), client=broker)
    publisher.connected = True
    own: dict[str, int] = {}  # the decisions by kind, and how many of them had a line
    said: dict[str, int] = {}
    told = [0]  # seats told the game's own news on their lights
    sim: Any = None

    def output(d: Decision, referee: Any) -> None:
        assert game_of(referee) is game
        printed = len(console.file.getvalue())
        view.show(d, referee)
        own[d.KIND] = own.get(d.KIND, 0) + 1
        said[d.KIND] = said.get(d.KIND, 0) + (len(console.file.getvalue()) > printed)
        lights = sim.core.signals.patterns(sim.clock.monotonic_ns())
        assert len(lights) == setup.players and all(isinstance(p, Pattern) for p in lights)
        waits = referee.expects().seat
        if waits is not None and not referee.finished:  # the seat the game waits on is lit
            assert lights[waits].kind != LightKind.OFF, (d, waits, lights)
        shared = {d.seat} if isinstance(d, SHARED_NEWS) and d.seat is not None else set()
        for seat in set(game.news(d)) | shared:  # news of a seat, the game's own or any game's, shows at once
            assert lights[seat].kind == LightKind.FLASH, (d, seat, lights[seat])
            told[0] += 1
        publisher.follow(setup, names, lambda: lights)(d, referee)
        assert TableSketch(names, lambda: referee, lambda: lights, lambda: "").__rich__() is not None

    sim = SIMULATIONS[name](setup, SimOptions(camera="reports", seats="actions", max_cards=3000), on_decision=output)
    result = sim.run()
    assert result.winners, f"{name}: the game did not end"
    assert told[0], f"{name}: no seat's light told it what happened to it"

    out = console.file.getvalue()
    lines = out.splitlines()
    assert f"  {game.title}, 4 players" in lines[0] and any(" wins the game" in line for line in lines)
    assert {kind for kind in own if not said[kind]} <= {TurnChanged.KIND}, f"{name}: decisions with no line"
    state = json.loads(broker.topics["cardtable/t/state"])
    assert state["game"] == name and state["phase"] == "over" and state["winners"] == list(result.winners)
    assert [s["name"] for s in state["seats"]] == names and all(isinstance(s["score"], int) for s in state["seats"])
    assert json.loads(broker.topics["cardtable/t/game"])["game"] == name
    for seat, seat_state in enumerate(state["seats"]):  # what Home Assistant's score sensors read
        assert broker.topics[f"cardtable/t/seat/{seat}/score"] == str(seat_state["score"])
    discovery = json.loads(broker.topics["homeassistant/device/cardtable_t/config"])
    assert f"cardtable_t_seat{setup.players - 1}_score" in discovery["cmps"]
    kinds = [event["kind"] for event in broker.events]
    assert kinds[0] == GameStarted.KIND and (GameOver.KIND in kinds or GameWon.KIND in kinds)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_game_is_whole_in_its_registry_entry(name: str) -> None:
    game = GAMES[name]
    assert game.name == name == game.referee.GAME and game.title
    assert game.preset in shipped_presets(name)
    assert game_of(setup_game(name).referee()) is game


def _names_a_game(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    return [
        f"{path.relative_to(ROOT)}:{node.lineno} {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value in GAMES
    ]


def test_nothing_outside_the_games_spells_a_games_name() -> None:
    """Outputs, the wiring, vision and the bridge ask the registry and the referee's view."""
    shipped = [
        *(ROOT / "table").rglob("*.py"),
        *(ROOT / "vision").rglob("*.py"),
        *(ROOT / "firmware_bridge").rglob("*.py"),
    ]
    outside = [p for p in shipped if not p.is_relative_to(ROOT / "table" / "games")]
    assert [hit for path in outside for hit in _names_a_game(path)] == []


@pytest.mark.parametrize("name", sorted(GAMES))
def test_live_and_replay_give_the_same_decisions_in_the_same_order(name: str) -> None:
    """A live table tells the referee that time has passed (``advance``) before each later input;
    a replay hands the inputs over alone. Among a whole game's inputs, now and then a command the
    game may not take and a press from a seat that does not exist, answered by any referee."""
    setup = setup_game(name, players=4, seed=3)
    sim = SIMULATIONS[name](setup, SimOptions(camera="reports", seats="actions", max_cards=3000))
    sim.run()
    events: list[Event] = []
    for n, (event, late) in enumerate(sim.core.inputs):
        if late is None:
            events.append(event)
        if n % 7 == 3:
            events += [
                Command(event.t_ns + 900_000_000, "cli", "shuffle"),
                ButtonPressed(event.t_ns + 900_000_001, "gpio", 9),
            ]
    events.sort(key=lambda e: e.sort_key())

    def decisions(live: bool) -> list[dict[str, Any]]:
        referee = setup.referee()
        out = referee.start(0)
        for event in events:
            out += referee.advance(event.t_ns - 1) if live else []
            out += referee.handle(event)
        return [d.to_json() for d in out + referee.advance(events[-1].t_ns + 10**10)]

    live, replay = decisions(True), decisions(False)
    assert any(d.get("event") == "command" for d in replay) and any(d.get("seat") == 9 for d in replay)
    assert live == replay
