"""The scoreboard page (``dashboard/``) in a real headless Chromium, served by a real Mosquitto's
websockets listener (``http_dir``) and fed over MQTT-over-WebSockets while the simulator plays:
the page ends showing the scores the simulator's referee reached."""

from __future__ import annotations

import threading
import time
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


def test_the_page_asks_for_the_password_once_keeps_it_in_the_browser_and_never_in_the_address(tmp_path: Path) -> None:
    import subprocess

    passwords = tmp_path / "passwd"
    subprocess.run(["mosquitto_passwd", "-c", "-b", str(passwords), "dashboard", "dash-pw"], check=True)
    subprocess.run(["mosquitto_passwd", "-b", str(passwords), "tv", "tv-pw"], check=True)
    ws = free_port()
    extra = (
        f"allow_anonymous false\npassword_file {passwords}\n"
        f"listener {ws} 127.0.0.1\nprotocol websockets\nhttp_dir {ROOT / 'dashboard'}\n"
    )
    broker = Broker(tmp_path, extra=extra).start()
    publisher = TablePublisher(parse_url(f"mqtt://tv:tv-pw@127.0.0.1:{broker.port}", "tv")).start()
    page = Headless(f"http://127.0.0.1:{ws}/index.html?table=tv&user=dashboard", tmp_path)
    try:
        assert page.wait_for("!document.getElementById('login').hidden")  # asked, nothing in the address
        page.evaluate("document.getElementById('password').value = 'wrong'")
        page.evaluate("document.getElementById('login').requestSubmit()")
        assert page.wait_for("document.getElementById('login-said').textContent.includes('refused')")
        page.evaluate("document.getElementById('password').value = 'dash-pw'")
        page.evaluate("document.getElementById('login').requestSubmit()")
        assert page.wait_for("document.getElementById('connection').textContent === 'live'")
        page.evaluate("location.reload()")
        time.sleep(1.0)
        assert page.wait_for("document.getElementById('connection').textContent === 'live'")  # kept: not asked again
        assert page.evaluate("document.getElementById('login').hidden")
        assert "dash-pw" not in page.evaluate("location.href")
    finally:
        page.close()
        publisher.stop()
        broker.stop()
