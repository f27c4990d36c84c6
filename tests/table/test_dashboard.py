"""The scoreboard page (``dashboard/``) in a real headless Chromium, served by a real Mosquitto's
websockets listener (``http_dir``) and fed over MQTT-over-WebSockets while the simulator plays:
the page ends showing the scores the simulator's referee reached."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from sim.games import SIMULATIONS
from sim.options import SimOptions
from table.games import setup_game
from table.mqtt import TablePublisher, parse_url
from table.scoreboard import seat_scores
from tests.headless import Headless
from tests.mqtt_broker import Broker, free_port

pytestmark = pytest.mark.system

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["Ann", "Bob", "Cyd", "Dee"]
SCORES = "[...document.querySelectorAll('.score')].map(e => e.textContent).join(',')"


def test_the_page_shows_the_game_the_simulator_plays_and_its_final_scores(tmp_path: Path) -> None:
    ws = free_port()
    broker = Broker(tmp_path, extra=f"listener {ws} 127.0.0.1\nprotocol websockets\nhttp_dir {ROOT / 'dashboard'}\n")
    broker.start()
    setup = setup_game("cuckoo", None, {}, 4, 0, 3)
    sim = SIMULATIONS["cuckoo"](setup, SimOptions(camera="reports", seats="actions", speed=16.0))
    publisher = TablePublisher(parse_url(broker.url, "tv")).start()
    sim.core.outputs.decisions.append(publisher.follow(sim.setup, NAMES))
    page = Headless(f"http://127.0.0.1:{ws}/index.html?table=tv", tmp_path)
    game = threading.Thread(target=sim.run)
    try:
        assert page.wait_for("document.getElementById('connection').textContent === 'live'")  # broker and table
        game.start()  # the page is open: it watches the game being played
        assert page.wait_for("document.querySelectorAll('.seat').length") == 4
        game.join(timeout=120)
        _, scores = seat_scores(sim.referee)
        wanted = ",".join(map(str, scores))
        assert page.wait_for(f"{SCORES} === '{wanted}' && document.getElementById('game').textContent")
        assert page.evaluate("document.getElementById('game').textContent").endswith("· over")
        names = page.evaluate("[...document.querySelectorAll('.name')].map(e => e.textContent).join(',')")
        assert names == ",".join(NAMES)
        winners = page.evaluate("[...document.querySelectorAll('.seat.winner')].map(e => +e.dataset.seat)")
        assert winners == sim.referee.state.winners
        assert page.evaluate("document.querySelectorAll('#last li').length") > 0  # the last decisions
        publisher.stop()
        assert page.wait_for("document.getElementById('connection').textContent === 'table offline'")
    finally:
        page.close()
        broker.stop()
