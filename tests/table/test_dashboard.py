"""The scoreboard page (``dashboard/``) in a real headless Chromium, served by a real Mosquitto's
websockets listener (``http_dir``) and fed over MQTT-over-WebSockets while the simulator plays:
the page ends showing the scores the simulator's referee reached; on a TV and on a phone it shows
the cards, the names and the winner, and fits the screen. Its screenshots are kept in
``build/test-artefacts/dashboard/`` (or ``$CARDTABLE_ARTEFACTS``)."""

from __future__ import annotations

import dataclasses
import itertools
import json
import os
import threading
from pathlib import Path

import cv2
import pytest

from sim.games import SIMULATIONS
from sim.options import SimOptions
from table.cards import parse_card
from table.decisions import BadSlap, SlapLead
from table.events import CardSeen, SeatAction
from table.games import setup_game
from table.mqtt import TablePublisher, parse_url
from table.narration import Narrator
from table.scoreboard import seat_scores
from table.standings import Standings
from tests.headless import Headless
from tests.mqtt_broker import Broker, free_port

pytestmark = pytest.mark.system

ROOT = Path(__file__).resolve().parents[2]
ARTEFACTS = Path(os.environ.get("CARDTABLE_ARTEFACTS", ROOT / "build" / "test-artefacts")) / "dashboard"
SCREENS = {"tv": (1920, 1080), "phone": (390, 844)}
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
        assert page.evaluate("document.getElementById('turn').textContent") == "Game over"
        names = page.evaluate("[...document.querySelectorAll('.name')].map(e => e.textContent).join(',')")
        assert names == ",".join(NAMES)
        winners = page.evaluate("[...document.querySelectorAll('.seat.winner')].map(e => +e.dataset.seat)")
        assert winners == sim.referee.state.winners
        assert page.evaluate("document.querySelectorAll('#last li').length") > 0  # the last decisions
        publisher.stop()
        assert page.wait_for("document.getElementById('connection').textContent === 'table away'")
        assert page.wait_for("!document.getElementById('idle').hidden")  # the idle screen, calmly
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
        page.evaluate("window.before = true; location.reload()")
        assert page.wait_for(  # the page loaded again (no ``before``), kept: not asked again
            "!window.before && document.getElementById('connection').textContent === 'live'"
        )
        assert page.evaluate("document.getElementById('login').hidden")
        assert "dash-pw" not in page.evaluate("location.href")
    finally:
        page.close()
        publisher.stop()
        broker.stop()


def _served(tmp_path: Path) -> tuple[Broker, int]:
    ws = free_port()
    broker = Broker(tmp_path, extra=f"listener {ws} 127.0.0.1\nprotocol websockets\nhttp_dir {ROOT / 'dashboard'}\n")
    return broker.start(), ws


def _qr_read(screenshot: Path) -> set[str]:
    """What OpenCV's two QR readers make of a screenshot, as a phone's camera app would try more
    than one way of finding the code; either must read it whole."""
    image = cv2.imread(str(screenshot))
    return {reader.detectAndDecode(image)[0] for reader in (cv2.QRCodeDetectorAruco(), cv2.QRCodeDetector())}


def _fits(page: Headless, screen: str) -> None:
    """Nothing runs off the side of the screen (its own width, not the page's: a phone's page
    grows to fit what it holds), and every card, seat and sentence drawn is wholly across it;
    the turn, the cards, the facts and the seats, top to bottom, do not overlap; the TV's page
    needs no scrolling at all."""
    width, height = SCREENS[screen]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    across = page.evaluate(
        "[...document.querySelectorAll('.card, .seat, #story, #turn, #facts')].map(e => e.getBoundingClientRect())"
        ".map(r => [Math.floor(r.left), Math.ceil(r.right)])"
    )
    assert all(left >= 0 and right <= width for left, right in across), across
    if screen == "tv":
        assert page.evaluate("document.documentElement.scrollHeight") <= height
    stacked = page.evaluate(
        "['turn', 'cards', 'facts', 'seats'].map(id => document.getElementById(id).getBoundingClientRect())"
        ".map(r => [r.top, r.bottom])"
    )
    for (_, above), (below, _) in itertools.pairwise(stacked):
        assert above <= below + 1, stacked
    outside = page.evaluate(
        "[...document.querySelectorAll('.card')].map(c => c.getBoundingClientRect())"
        ".filter(r => r.left < 0 || r.right > innerWidth || r.top < 0).length"
    )
    assert outside == 0


@pytest.mark.parametrize("screen", SCREENS)
def test_on_a_tv_and_a_phone_the_page_shows_the_cards_the_names_and_the_winner(tmp_path: Path, screen: str) -> None:
    width, height = SCREENS[screen]
    shots = ARTEFACTS / screen
    shots.mkdir(parents=True, exist_ok=True)
    broker, ws = _served(tmp_path)
    publisher = TablePublisher(parse_url(broker.url, "tv")).start()
    page = Headless(f"http://127.0.0.1:{ws}/index.html?table=tv&user=", tmp_path, size=(width, height))
    try:
        # Before any game: how to open the page on a phone, its address and a QR code of it.
        assert page.wait_for("document.querySelector('#qr svg') && !document.getElementById('idle').hidden")
        address = page.evaluate("document.getElementById('address').textContent")
        assert address == f"http://127.0.0.1:{ws}/index.html?table=tv&user="
        page.screenshot(shots / "idle.png")
        assert address in _qr_read(shots / "idle.png")  # a phone's camera reads the page's own address

        # A game under way: the pile's cards drawn large with their suits, whose turn, the names.
        # The page is subscribed once the table's retained "online" has reached it: the game's
        # story, which no broker keeps, is sent only after that.
        assert page.wait_for("document.getElementById('connection').textContent === 'live'")
        setup = setup_game("ers", None, {}, 4, 0, 5)
        sim = SIMULATIONS["ers"](setup, SimOptions(camera="reports", seats="actions", max_cards=23))
        lights = lambda: sim.core.signals.patterns(sim.clock.monotonic_ns())  # noqa: E731
        sim.core.outputs.decisions.append(publisher.follow(sim.setup, NAMES, lights))
        sim.run()
        pile = list(sim.referee.view().cards)
        lit = "[...document.querySelectorAll('.light')].filter(l => l.style.background).length"
        assert page.wait_for(lit)  # the seats' lights in their colours
        assert pile  # this seed stops with cards on the pile
        drawn = "[...document.querySelectorAll('#cards .card')].map(c => c.dataset.code).join(' ')"
        assert page.wait_for(f"{drawn} === '{' '.join(pile)}'")
        suits = page.evaluate("[...document.querySelectorAll('#cards .pip')].map(p => p.textContent).join('')")
        assert suits and set(suits) <= set("♠♥♦♣JOKER")
        tall = page.evaluate("Math.min(...[...document.querySelectorAll('#cards .card')].map(c => c.offsetHeight))")
        across = page.evaluate("document.getElementById('cards').scrollWidth")
        if screen == "tv":
            assert tall >= 0.15 * height  # large enough to read across a room
        else:
            assert across >= 0.7 * width  # as wide as the phone allows
        turn = sim.referee.expects().seat
        assert page.evaluate("document.querySelector('#turn .who').textContent") == NAMES[turn]
        names = page.evaluate("[...document.querySelectorAll('.name')].map(e => e.textContent).join(',')")
        assert names == ",".join(NAMES)
        assert page.wait_for("document.querySelectorAll('#last li').length >= 3")  # the story: its own topic
        said = page.evaluate("[...document.querySelectorAll('#last li')].map(e => e.textContent)")
        assert said and all(any(name in line for name in NAMES) for line in said[:3])  # sentences with names
        _fits(page, screen)
        page.screenshot(shots / "playing.png")
        # News of a seat lights it for a moment, through the state drawn again after it.
        newest = "document.querySelector('#last li')"
        flashed = "[...document.querySelectorAll('.seat.flash')].map(s => +s.dataset.seat).join()"
        assert page.evaluate(flashed) != "0"  # Ann is not the seat the game's own news was about
        publisher.event(Narrator(NAMES).told(BadSlap(sim.clock.monotonic_ns(), 0), sim.referee))
        publisher.show(sim.referee, sim.setup, NAMES, paused=["camera: the lens is covered"])  # a new state
        assert page.wait_for("document.getElementById('turn').textContent === 'The game is paused'")
        assert page.wait_for(f"{flashed} === '0'")
        assert page.evaluate(f"{newest}.textContent + {newest}.className") == "Ann's slap was badbad"
        publisher.event(Narrator(NAMES).told(SlapLead(sim.clock.monotonic_ns(), 1, 0, 400_000), sim.referee))
        assert page.wait_for(f"{newest}.classList.contains('close')")  # a close call, marked
        assert page.evaluate(f"{newest}.textContent") == "Bob took the pile, 0.4 ms ahead of Ann: a close call"

        # The end: who won and how, a few figures, then the standings.
        setup = setup_game("ers", None, {}, 2, 0, 5)
        sim = SIMULATIONS["ers"](setup, SimOptions(camera="reports", seats="actions"))
        sim.core.outputs.decisions.append(publisher.follow(sim.setup, NAMES[:2]))
        sim.run()
        winner = NAMES[sim.referee.winner]
        standings = Standings(tmp_path / "standings.sqlite")  # as the table keeps them when a game ends
        standings.add_played("game.jsonl", sim.setup, NAMES[:2], sim.core.decisions, sim.referee)
        publisher.retain("standings", json.dumps(standings.summary()))
        assert page.wait_for(f"document.getElementById('winner-name').textContent === '{winner} wins!'")
        assert winner in page.evaluate("document.getElementById('winner-how').textContent")
        assert page.evaluate("!document.getElementById('winner').hidden")
        assert page.evaluate(  # the winner's name wholly on the screen
            "(r => r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth)"
            "(document.getElementById('winner-name').getBoundingClientRect())"
        )
        figures = page.evaluate("document.getElementById('figures').textContent")
        assert f"{sim.cards_played}cards played" in figures
        standings = page.evaluate("document.getElementById('standings').textContent")
        assert standings.startswith(f"1. {winner} ")
        league = "document.querySelector('#winner .records').textContent"
        assert page.wait_for(f"{league}.includes('{winner}: 1 of 1 won')")
        assert "fastest slap" in page.evaluate(league)
        page.screenshot(shots / "winner.png")
    finally:
        page.close()
        publisher.stop()
        broker.stop()


GAME_VIEWS = {  # a game under way: its facts' labels, what its middle says, and how far to play it
    "cuckoo": ([], "pot", 14),  # the round and the pot are in its middle's title
    "oh-hell": (["hand", "bids"], "trick", 40),
    "eights": (["direction"], "stock", 60),
}


@pytest.mark.parametrize("game", GAME_VIEWS)
def test_each_game_shows_its_own_facts_notes_and_score_table(tmp_path: Path, game: str) -> None:
    labels, middle, cards = GAME_VIEWS[game]
    shots = ARTEFACTS / "tv"
    shots.mkdir(parents=True, exist_ok=True)
    broker, ws = _served(tmp_path)
    publisher = TablePublisher(parse_url(broker.url, "tv")).start()
    page = Headless(f"http://127.0.0.1:{ws}/index.html?table=tv", tmp_path, size=SCREENS["tv"])
    try:
        assert page.wait_for("document.getElementById('connection').textContent === 'live'")
        setup = setup_game(game, None, {}, 4, 0, 1)
        sim = SIMULATIONS[game](setup, SimOptions(camera="reports", seats="actions", max_cards=cards))
        sim.core.outputs.decisions.append(publisher.follow(sim.setup, NAMES))
        sim.run()
        view = sim.referee.view()
        assert not sim.referee.finished  # under way: stopped after that many cards
        facts = "[...document.querySelectorAll('#facts b')].map(b => b.textContent).join(',')"
        assert page.wait_for(f"{facts} === '{','.join(labels)}'")
        assert [label for label, _ in view.facts] == labels
        assert middle in view.middle
        assert page.wait_for(f"document.getElementById('middle-title').textContent === {json.dumps(view.middle)}")
        notes = "JSON.stringify([...document.querySelectorAll('.note')].map(n => n.textContent))"
        assert page.wait_for(f"{notes} === {json.dumps(json.dumps(list(view.notes), separators=(',', ':')))}")
        rows = page.evaluate("document.querySelectorAll('#history tr').length")
        assert rows == len(view.history)
        if game == "oh-hell":  # the score table by hand: the names, then a row a hand scored
            assert rows >= 3
            heads = page.evaluate("[...document.querySelectorAll('#history th')].map(h => h.textContent)")
            assert heads == ["hand", *NAMES]
        page.screenshot(shots / f"{game}.png")
        _fits(page, "tv")
    finally:
        page.close()
        publisher.stop()
        broker.stop()


LONG_NAMES = [
    "Konstantinos",
    "Maximiliane",
    "Bartholomew",
    "Guinevere",
    "Anastasia",
    "Christopher",
    "Wilhelmina",
    "Theodora",
]


@pytest.mark.parametrize("screen", SCREENS)
def test_eight_long_names_and_a_trick_of_seven_fit_the_screen(tmp_path: Path, screen: str) -> None:
    """The bidding game at eight seats, with long names, seven cards in the trick and the trump
    card turned beside them: every name is there (cut short with an ellipsis where it must be),
    every card and seat is on the screen, and the trump card is drawn as a card, named."""
    setup = setup_game("oh-hell", "big-table", {}, 8, 0, 1)
    referee = setup.referee()
    referee.start(0)
    t = 1
    referee.handle(CardSeen(t, "camera", parse_card("QH"), "trump"))
    while referee.expects().action == "bid":
        t += 1
        referee.handle(SeatAction(t, "gpio", referee.expects().seat, "bid", 1 if referee.expects().seat % 2 else 0))
    for code in ["2C", "3C", "4C", "5C", "6C", "7C", "8C"]:
        t += 1
        assert not [d for d in referee.handle(CardSeen(t, "camera", parse_card(code), "pile")) if d.KIND == "rejected"]
    assert len(referee.view().cards) == 7
    broker, ws = _served(tmp_path)
    publisher = TablePublisher(parse_url(broker.url, "tv")).start()
    page = Headless(f"http://127.0.0.1:{ws}/index.html?table=tv", tmp_path, size=SCREENS[screen])
    try:
        assert page.wait_for("document.getElementById('connection').textContent === 'live'")
        publisher.show(referee, setup, LONG_NAMES)
        assert page.wait_for("document.querySelectorAll('#cards .card').length === 8")
        names = page.evaluate("[...document.querySelectorAll('.name')].map(e => e.textContent).join(',')")
        assert names == ",".join(LONG_NAMES)
        beside = "document.querySelector('#cards .card.beside')"
        assert page.evaluate(f"{beside}.dataset.code + ' ' + {beside}.textContent.slice(-10)") == "QH trump card"
        page.screenshot(ARTEFACTS / screen / "eight-seats.png")
        _fits(page, screen)
    finally:
        page.close()
        publisher.stop()
        broker.stop()


def test_a_page_opened_on_the_pi_itself_shows_phones_the_tables_own_address(tmp_path: Path) -> None:
    """A TV plugged into the Pi opens the page at 127.0.0.1, which no phone can reach: the idle
    screen shows the scoreboard's address the table gives (``[mqtt] scoreboard_url``)."""
    shared = "http://cardtable.local:9001/?table=tv&user=dashboard"
    broker, ws = _served(tmp_path)
    publisher = TablePublisher(dataclasses.replace(parse_url(broker.url, "tv"), page=shared)).start()
    page = Headless(f"http://127.0.0.1:{ws}/index.html?table=tv&user=", tmp_path, size=SCREENS["tv"])
    try:
        address = "document.getElementById('address').textContent"
        assert page.wait_for(f"{address} === {json.dumps(shared)} && !document.getElementById('idle').hidden")
        page.screenshot(tmp_path / "shared.png")
        assert shared in _qr_read(tmp_path / "shared.png")
    finally:
        page.close()
        publisher.stop()
        broker.stop()
