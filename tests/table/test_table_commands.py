"""A running table takes commands (``cardtable send`` over its control socket) and a new preset
from the seats (every button held, then taps and a hold), and keeps what they change."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from sim.mock_gpio import MOCK_PINS_ENV, press, release, timed_mock_factory
from table import signals as sg
from table.cards import parse_card
from table.config import load_config
from table.control import SOCKET_NAME, ControlError, send_command
from table.game_series import KEPT_GAMES
from table.journal import JournalWriter
from table.kept_changes import CHANGES_FILE
from table.live import LiveTable
from table.preset_menu import CYAN
from table.rules import shipped_presets
from tests.live_tables import ROOT, journal_lines, rendered_table, wait_until
from tests.table.test_cuckoo_rules import Table


class CuckooTable(Table):
    """A trading-game referee on a clock that keeps every input it was given, for a journal."""

    def __init__(self, players: int, **rules: object) -> None:
        self.events: list = []
        super().__init__(players, **rules)

    def send(self, event):
        self.events.append(event)
        return super().send(event)


pytestmark = pytest.mark.slow

BUTTONS = (17, 27, 22, 23)  # the example configuration's pins, seat 0 to 3


class Running:
    """A live table on gpiozero's mock pins in a thread, stopped at the end."""

    def __init__(self, folder: Path, **options: object) -> None:
        self.factory = timed_mock_factory()
        self.table = LiveTable(load_config(folder / "table.toml"), pin_factory=self.factory, **options)
        self.socket = folder / "journal" / SOCKET_NAME
        self.runner = threading.Thread(target=self.table.run, kwargs={"max_seconds": 60})

    def __enter__(self) -> Running:
        self.runner.start()
        wait_until(lambda: self.socket.exists() and len(self.table.games) == 1)
        return self

    def __exit__(self, *exc: object) -> None:
        self.table.stop()
        self.runner.join(timeout=10)
        assert not self.runner.is_alive() and self.table.stats.errors == 0

    def send(self, **command: object) -> tuple[bool, str]:
        return send_command(self.socket, command)


def test_commands_pause_resume_and_deal_a_new_game_with_changes_that_outlive_a_restart(tmp_path: Path) -> None:
    rendered_table(tmp_path, frames=150, card_from=999)  # 30 s of an empty table
    with Running(tmp_path) as table:
        first = table.table.games[0]
        assert table.send(command="pause") == (True, "paused: every light blinks amber until resume")
        wait_until(lambda: set(first.signals.patterns(time.monotonic_ns())) == {sg.PAUSED})
        assert first.faults == {"players": "paused from the command line"}
        assert table.send(command="pause") == (False, "the game is paused already")
        assert table.send(command="resume") == (True, "resumed")
        assert table.send(command="resume") == (False, "the game is not paused by a command")
        assert not first.paused

        ok, says = table.send(command="set", rules="nope")
        assert not ok and "unknown ers preset 'nope'" in says
        ok, says = table.send(command="new-game", names=["Al", "Bo", "Cy", "Di", "Ed"])
        assert (ok, says) == (False, "names: 5 given, but the table has 4 seats wired")
        ok, says = table.send(command="deal")
        assert not ok and "command 'deal' is not one of" in says
        assert len(table.table.games) == 1  # nothing refused changed anything

        ok, says = table.send(command="new-game", rules="screw", names=["Al", "Bo", "Cy", "Di"])
        assert (ok, says) == (True, "dealing a new game: ers (screw) for Al, Bo, Cy, Di")
        wait_until(lambda: len(table.table.games) == 2)
        assert table.table.games[1].setup.preset == "screw"
        assert table.table.config.seats.names == ("Al", "Bo", "Cy", "Di")
        assert table.send(command="set", game="cuckoo")[0]
        assert table.table.games[1].setup.game == "ers"  # set: from the next game
        assert table.send(command="set", game="ers")[0]
    journals = sorted(p.name for p in (tmp_path / "journal").iterdir() if ".jsonl" in p.name)
    assert len(journals) == 2 and journals[0].endswith(".jsonl.abandoned")  # a restart does not resume it
    kept = json.loads((tmp_path / "journal" / CHANGES_FILE).read_text())
    assert kept["seats"] == {"names": ["Al", "Bo", "Cy", "Di"]} and kept["game"]["name"] == "ers"

    (tmp_path / "journal" / journals[1]).unlink()  # the screw game is not resumed: a new one is dealt
    again = LiveTable(load_config(tmp_path / "table.toml"), pin_factory=timed_mock_factory())
    assert again.config.seats.names == ("Al", "Bo", "Cy", "Di") and again.config.game.preset is None  # set game=ers
    own = {"seats": {"names": ["W", "X", "Y", "Z"]}}
    mine = LiveTable(load_config(tmp_path / "table.toml", own), pin_factory=timed_mock_factory(), overrides=own)
    assert mine.config.seats.names == ("W", "X", "Y", "Z")  # the command line's win


def test_fewer_players_than_seats_wired_leave_the_last_seats_dark_and_their_buttons_unheard(tmp_path: Path) -> None:
    """Three players at a table wired for four: they sit at seats 0 to 2; seat 3's light goes out
    (it blinked with the others while paused) and a press on its button is no one's."""
    rendered_table(tmp_path, frames=150, card_from=999)
    with Running(tmp_path) as table:
        assert table.send(command="pause")[0]
        wait_until(lambda: any(table.factory.pin(19).state > 0 for _ in range(50) if not time.sleep(0.01)))
        ok, says = table.send(command="new-game", names=["Al", "Bo", "Cy"])
        assert (ok, says) == (True, "dealing a new game: ers (standard) for Al, Bo, Cy")
        wait_until(lambda: len(table.table.games) == 2)
        game = table.table.games[1]
        assert game.setup.players == 3 and game.paused  # a pause holds into the next game
        assert table.send(command="resume")[0]
        lit = []
        for _ in range(40):  # two seconds: a blink would show
            lit.append(table.factory.pin(19).state)
            time.sleep(0.05)
        assert max(lit) == 0
        now = time.monotonic()
        press(table.factory, 23, now)  # seat 3's button
        release(table.factory, 23, now + 0.08)
        press(table.factory, 22, now + 0.3)  # seat 2's
        release(table.factory, 22, now + 0.38)
        wait_until(lambda: any(getattr(d, "seat", None) == 2 for d in game.decisions))
    journal = sorted((tmp_path / "journal").glob("*.jsonl"))[-1]
    lines = [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()]
    assert lines[0]["players"] == 3
    assert [e["seat"] for e in lines[1:] if e["type"] == "press"] == [2]


def test_out_of_cards_puts_a_count_right_in_the_journal(tmp_path: Path) -> None:
    rendered_table(tmp_path, frames=100, card_from=999)
    with Running(tmp_path) as running:
        core = running.table.games[0]
        counted = len(core.referee.hands[1])
        ok, says = running.send(command="out-of-cards", seat=1)
        assert (ok, says) == (True, f"the referee is told Bob holds no card; the {counted} counted go under the pile")
        wait_until(lambda: any(d.KIND == "count-corrected" for d in core.decisions))
        assert not core.referee.hands[1] and core.referee.turn == 2 and core.referee.pile_size() == counted
        assert running.send(command="out-of-cards", seat=1) == (
            False,
            "Bob holds no card by the referee's count already",
        )
        assert running.send(command="out-of-cards", seat=4) == (False, "seat 4: the seats are 0 to 3")
        assert running.send(command="pause")[0]
        said = running.send(command="out-of-cards", seat=2)  # review: it was taken, then set aside and lost
        assert said == (False, "the game is paused (players): say it again when it goes on")
    actions = [e for e in journal_lines(tmp_path)[1:] if e["type"] == "action"]
    assert [(e["seat"], e["source"], e["action"]) for e in actions] == [(1, "command", "out-of-cards")]


def test_end_game_ends_a_trading_game_where_it_stands_and_is_refused_where_the_rules_end_it(tmp_path: Path) -> None:
    rendered_table(tmp_path, frames=100, card_from=999)
    with Running(tmp_path) as running:
        said = running.send(command="end-game")
        assert said == (False, "ers ends by its own rules only, not by the players' word")
        assert running.send(command="new-game", game="cuckoo")[0]
        wait_until(lambda: running.table.series.dealt == 2)
        core = running.table.games[-1]
        assert running.send(command="end-game") == (True, "the game ends where it stands: the scores so far decide")
        wait_until(lambda: core.referee.finished)
        over = [d for d in core.decisions if d.KIND == "game-over"]
        assert len(over) == 1 and over[0].reason == "ended by the players: most lives left"
        journal = running.table.journals[-1]
    lines = [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()[1:]]
    assert [(e["type"], e["name"]) for e in lines if e["type"] == "command"] == [("command", "end")]


def test_an_undecided_games_pot_goes_to_the_next_game_after_a_restart_too(tmp_path: Path) -> None:
    """Everyone went out together in a trading game whose pot carries forward (pagat): the
    table stopped after it; started again, it deals the next game with that pot."""
    config = rendered_table(tmp_path, frames=100, card_from=999)
    text = config.read_text(encoding="utf-8").replace('name = "ers"', 'name = "cuckoo"')
    text = text.replace('preset = "standard"', 'preset = "cuckoo"').replace(
        "# burn = 1", 'lives = 1\nall_out = "carry"'
    )
    config.write_text(text, encoding="utf-8")
    played = CuckooTable(4, lives=1, all_out="carry")
    played.play_round("5C 5S 5H 5D")  # all four lowest on their last life: undecided, the pot of 4 carried
    assert played.ref.finished and played.ref.carried_over() == {"pot_carried": 4}
    (tmp_path / "journal").mkdir()
    path = tmp_path / "journal" / "20261203-000000-cuckoo-1.jsonl"
    with JournalWriter(path, played.setup, fsync=False, start_ns=0, number=1) as journal:
        for event in played.events:
            journal.record(event)
    with Running(tmp_path) as running:
        game = running.table.games[0]
        assert game.setup.rules["pot_carried"] == 4 and game.referee.state.pot == 4  # no new stakes


def test_a_game_changed_by_set_is_resumed_after_a_restart_and_a_damaged_changes_file_is_ignored(
    tmp_path: Path,
) -> None:
    rendered_table(tmp_path, frames=100, card_from=999)
    with Running(tmp_path) as running:
        assert running.send(command="set", game="cuckoo")[0]
        played = running.table.journals[-1]
    with Running(tmp_path) as again:  # killed or stopped mid-game: the ERS game goes on
        assert again.table.games[0].setup.game == "ers" and again.table.journals[-1] == played
        assert again.table.config.game.name == "cuckoo"  # for the next game
    kept = {"game": {"name": "cuckoo", "preset": None, "rules": {}}, "seats": {"names": ["Al", "Bo", "Cy", "Di"]}}
    (tmp_path / "journal" / CHANGES_FILE).write_text(json.dumps(kept))
    own = {"game": {"preset": "screw"}}  # an ERS preset, against the kept game: the kept names still hold
    table = LiveTable(load_config(tmp_path / "table.toml", own), pin_factory=timed_mock_factory(), overrides=own)
    assert (table.config.game.name, table.config.game.preset, table.config.seats.names[0]) == ("ers", "screw", "Al")
    (tmp_path / "journal" / CHANGES_FILE).write_text('{"game": "xy"}')
    table = LiveTable(load_config(tmp_path / "table.toml"), pin_factory=timed_mock_factory())
    assert table.config.game.name == "ers"  # the file's, with an error in the log


def test_a_table_running_for_days_keeps_only_the_latest_games(tmp_path: Path) -> None:
    rendered_table(tmp_path, frames=100, card_from=999)
    with Running(tmp_path) as running:
        for dealt in range(2, 6):
            assert running.send(command="new-game")[0]
            wait_until(lambda dealt=dealt: running.table.series.dealt == dealt)
        table = running.table
        assert len(table.games) == len(table.journals) == KEPT_GAMES and table.journals[-1].name.endswith("-5.jsonl")
        assert [g.setup.dealer for g in table.games] == [2, 3, 0]  # the deal passing on: the last three of five
        assert "in 5 game(s)" in table.summary()


def test_a_second_table_on_the_same_journal_folder_is_refused_and_a_stale_socket_is_not(tmp_path: Path) -> None:
    rendered_table(tmp_path, frames=100, card_from=999)
    with Running(tmp_path) as table:
        with pytest.raises(ControlError, match="another table is running on"):  # before it opens a part
            LiveTable(load_config(tmp_path / "table.toml"), pin_factory=timed_mock_factory())
        assert table.send(command="pause")[0]  # the first is unharmed
    assert not table.socket.exists()  # removed at a clean stop
    table.socket.touch()  # as a table killed would leave it
    with pytest.raises(ControlError, match="no table is running"):
        send_command(table.socket, {"command": "pause"})
    with Running(tmp_path) as again:
        assert again.send(command="pause")[0]


def test_every_button_held_opens_the_preset_menu_taps_choose_and_a_hold_deals(tmp_path: Path) -> None:
    rendered_table(tmp_path, frames=150, card_from=999)
    with Running(tmp_path) as running:
        table, factory = running.table, running.factory
        now = time.monotonic()
        for pin in BUTTONS:  # held together for longer than the three seconds (their edges dated so)
            press(factory, pin, now - 3.5)
        wait_until(lambda: table.menu is not None)
        turns = table.stats.turns
        time.sleep(1.0)
        assert table.stats.turns - turns < 100  # the menu waits for its deadlines, not the abandoned game's (review)
        for pin in BUTTONS:
            release(factory, pin, time.monotonic())
        menu = table.menu
        assert menu.presets[0] == "standard" and sorted(menu.presets) == shipped_presets("ers")
        wait_until(lambda: factory.pin(5).state > 0)  # every light flashes the number offered
        for _ in range(2):
            now = time.monotonic()
            press(factory, BUTTONS[2], now)
            release(factory, BUTTONS[2], now + 0.08)
            time.sleep(0.1)
        wait_until(lambda: menu.offered == 2)
        assert menu.pattern().count == 3 and menu.pattern().colour == CYAN
        assert len(table.games) == 1
        press(factory, BUTTONS[0], time.monotonic() - 1.0)  # held a second: deal
        wait_until(lambda: len(table.games) == 2)
        assert not table.games[1].faults  # the hold that dealt is no stuck button
        release(factory, BUTTONS[0], time.monotonic())
        time.sleep(0.2)
        assert not table.games[1].faults and not table.games[1].decisions[2:]  # and its release no gesture
        assert table.menu is None and table.games[1].setup.preset == menu.presets[2]
        assert table.games[1].setup.dealer == 1  # the deal passes on
        assert table.journals[0].name.endswith(".jsonl.abandoned")


def test_cardtable_send_talks_to_cardtable_run(tmp_path: Path) -> None:
    config = rendered_table(tmp_path, frames=100, card_from=999)
    env = {**os.environ, **MOCK_PINS_ENV}
    cli = [sys.executable, "-m", "table.cli"]
    send = [*cli, "send", "--config", str(config)]

    def sent(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*send, *args], cwd=ROOT, capture_output=True, text=True, timeout=60)

    run = subprocess.Popen(
        [*cli, "run", "--config", str(config), "--max-seconds", "40"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_until(lambda: (tmp_path / "journal" / SOCKET_NAME).exists(), 30)
        done = sent("pause")
        assert (done.returncode, done.stdout) == (0, "paused: every light blinks amber until resume\n")
        done = sent("set", "--rules", "nope")
        assert done.returncode == 1 and done.stderr.startswith("refused: ") and "'nope'" in done.stderr
        done = sent("new-game", "--names", "Al,Bo,Cy,Di")
        assert done.returncode == 0 and "dealing a new game: ers (standard) for Al, Bo, Cy, Di" in done.stdout
    finally:
        run.terminate()
        _, err = run.communicate(timeout=30)
    assert "in 2 game(s)" in err and '"command": "new-game"' in err
    done = sent("resume")
    assert done.returncode == 2 and "cardtable: error: no table is running on" in done.stderr


def test_a_card_laid_out_of_turn_is_told_and_is_dead_where_the_rules_say_so(tmp_path: Path) -> None:
    config = rendered_table(tmp_path, frames=100, card_from=15)  # the queen of hearts, 3 s in
    config.write_text(
        config.read_text(encoding="utf-8").replace('preset = "standard"', 'preset = "wikipedia-extras"'),
        encoding="utf-8",
    )
    with Running(tmp_path) as running:
        core = running.table.games[0]
        assert running.send(command="out-of-turn", seat=3, card="QH")[0] is False  # no card on the pile yet
        wait_until(lambda: any(d.KIND == "card-played" for d in core.decisions))
        assert core.referee.turn == 2  # Bob's queen: Cyd answers
        assert running.send(command="out-of-turn", seat=3, card="7C") == (False, "the top card is Q♥, not 7♣")
        ok, says = running.send(command="out-of-turn", seat=3, card="QH")
        assert (ok, says) == (True, "the referee is told Q♥ is Dee's, laid out of turn: dead, and the turn goes back")
        wait_until(lambda: any(d.KIND == "card-dead" for d in core.decisions))
        assert core.referee.turn == 1 and core.referee.challenger is None and core.referee.dead == [0]
        again = running.send(command="out-of-turn", seat=3, card="QH")
        assert again[0] is False and "cannot be taken as Dee's" in again[1]
    actions = [e for e in journal_lines(tmp_path)[1:] if e["type"] == "action"]
    assert [(e["seat"], e["source"], e["action"], e["value"]) for e in actions] == [
        (3, "command", "out-of-turn", parse_card("QH").key)
    ]
