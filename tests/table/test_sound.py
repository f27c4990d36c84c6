"""The table's sound cues (``table.sound``): made as WAV, played by ``aplay``, written to a log by
the simulator; a cue for each slap, challenge, life lost and winner, and "your turn" once a seat
has been waited on."""

from __future__ import annotations

import io
import logging
import wave
from pathlib import Path

import pytest

from sim.games import SIMULATIONS
from sim.options import SimOptions
from table import sound
from table.cards import parse_card
from table.config import ConfigError, load_config
from table.controller import Outputs, TableCore
from table.decisions import BadSlap, ChallengeStarted, GameWon, GoodSlap
from table.events import CardSeen
from table.games import setup_game
from table.games.ers.referee import ErsReferee
from table.games.ers.rules import ErsRules
from table.rules import build_rules
from table.sound import Cue, LogPlayer, Sounds, table_sounds, wav
from table.units import MS, SECOND
from tests.live_tables import rendered_table
from tests.table.test_ers_rules import stacked_deal


def _samples(data: bytes) -> tuple[wave._wave_params, list[int]]:
    with wave.open(io.BytesIO(data)) as w:
        params, frames = w.getparams(), w.readframes(w.getnframes())
    return params, [int.from_bytes(frames[i : i + 2], "little", signed=True) for i in range(0, len(frames), 2)]


@pytest.mark.parametrize("cue", list(Cue))
def test_each_cue_is_a_short_wav_as_loud_as_its_volume(cue: Cue) -> None:
    params, loud = _samples(wav(cue, 1.0))
    assert (params.nchannels, params.sampwidth, params.framerate) == (1, 2, sound.RATE)
    assert 0.1 <= len(loud) / sound.RATE <= 1.0  # short
    assert max(map(abs, loud)) > 30_000
    _, half = _samples(wav(cue, 0.5))
    assert abs(max(map(abs, half)) - max(map(abs, loud)) / 2) < 50
    _, silent = _samples(wav(cue, 0.0))
    assert not any(silent)


def test_a_simulated_game_logs_a_cue_for_every_slap_challenge_and_the_winner(tmp_path: Path) -> None:
    out = io.StringIO()
    sounds = Sounds(LogPlayer(out))
    sim = SIMULATIONS["ers"](setup_game("ers", None, {}, 3, 0, 2), SimOptions(camera="reports", seats="actions"))
    sim.core.outputs.decisions.append(sounds.decided)
    sim.core.outputs.ticks.append(sounds.tick)
    sim.run()
    logged = [line.split() for line in out.getvalue().splitlines()]
    heard = [(int(t), cue, seat) for t, cue, seat in logged if cue != Cue.YOUR_TURN]
    kinds = {GoodSlap: Cue.GOOD_SLAP, BadSlap: Cue.BAD_SLAP, ChallengeStarted: Cue.CHALLENGE, GameWon: Cue.WINNER}
    meant = [(d.t_ns, kinds[type(d)], str(d.seat)) for d in sim.result.decisions if type(d) in kinds]
    assert heard == meant
    assert {cue for _, cue, _ in heard} == {Cue.GOOD_SLAP, Cue.BAD_SLAP, Cue.CHALLENGE, Cue.WINNER}
    assert heard[-1][1] == Cue.WINNER


def _heard_core() -> tuple[TableCore, io.StringIO]:
    """A trading game's core started, its sounds written to the log returned."""
    out = io.StringIO()
    sounds = Sounds(LogPlayer(out))
    core = TableCore(setup_game("cuckoo", players=3, seed=1), {"camera": 250 * MS, "gpio": 20 * MS})
    core.outputs = Outputs(decisions=[sounds.decided], ticks=[sounds.tick])
    core.start(0)
    return core, out


def test_a_seat_waited_on_hears_it_is_its_turn_once() -> None:
    core, out = _heard_core()
    seat = core.referee.expects().seat
    core.tick(9 * SECOND)
    assert out.getvalue() == ""
    core.tick(11 * SECOND)
    core.tick(30 * SECOND)
    assert out.getvalue() == f"{10 * SECOND} your-turn {seat}\n"


def test_a_seat_that_keeps_playing_is_not_reminded_nor_a_dealer_dealing() -> None:
    """An Egyptian Rat Screw player answering an ace plays card after card without the turn
    changing: each card starts the wait again. A bidding game's dealer deals before turning up
    the trump card, which the table cannot see: no reminder."""
    out = io.StringIO()
    sounds = Sounds(LogPlayer(out))
    rules = build_rules(ErsRules, {})
    referee = ErsReferee(rules, 2, deal=stacked_deal(rules, 2, [["2C", "3C", "4C", "5C"], ["AS"]]))
    for d in referee.start(0):
        sounds.decided(d, referee)
    for n, code in enumerate(["AS", "2C", "3C", "4C"], start=1):  # 8 s apart, three by the same seat
        t = n * 8 * SECOND
        sounds.tick(t - 1)
        for d in referee.handle(CardSeen(t, "camera", parse_card(code), "pile")):
            sounds.decided(d, referee)
    assert referee.expects().seat == 0 and referee.challenger == 1
    reminded = lambda: [line for line in out.getvalue().splitlines() if "your-turn" in line]  # noqa: E731
    sounds.tick(4 * 8 * SECOND + 9 * SECOND)
    assert reminded() == []  # 9 s since its last card: not yet
    sounds.tick(4 * 8 * SECOND + 10 * SECOND)
    assert reminded() == [f"{42 * SECOND} your-turn 0"]
    dealer = Sounds(LogPlayer(io.StringIO()))
    bidding = TableCore(setup_game("oh-hell", players=4, seed=1), {"camera": 250 * MS, "gpio": 20 * MS})
    bidding.outputs = Outputs(decisions=[dealer.decided], ticks=[dealer.tick])
    bidding.start(0)
    assert bidding.referee.expects().action == "trump-card"
    bidding.tick(60 * SECOND)
    assert dealer.player.out.getvalue() == ""


def test_nobody_is_waited_on_while_the_game_is_paused() -> None:
    core, out = _heard_core()
    seat = core.referee.expects().seat
    core.fault("camera", "no frame for 3 s", 1 * SECOND)
    core.tick(30 * SECOND)
    assert out.getvalue() == ""  # paused: the seat is not the one keeping the table waiting
    core.fault("camera", None, 30 * SECOND)
    core.tick(39 * SECOND)
    assert out.getvalue() == ""
    core.tick(41 * SECOND)
    assert out.getvalue() == f"{40 * SECOND} your-turn {seat}\n"  # 10 s after the pause ended


def test_aplay_is_handed_the_cue_and_a_machine_without_it_stays_quiet(tmp_path: Path, monkeypatch, caplog) -> None:
    fake = tmp_path / "aplay"
    heard = tmp_path / "heard.wav"
    fake.write_text(f"#!/bin/sh\ncat > {heard}\n")
    fake.chmod(0o755)
    player = sound.AplayPlayer(0.6, str(fake))
    player.play(Cue.WINNER, 2, 0)
    player.playing[0].wait(timeout=10)
    assert heard.read_bytes() == wav(Cue.WINNER, 0.6)
    monkeypatch.setattr(sound.shutil, "which", lambda name: None)
    with caplog.at_level(logging.INFO, "cardtable"):
        assert table_sounds(True, 0.6) is None
    assert "no aplay" in caplog.text
    monkeypatch.setattr(sound.shutil, "which", lambda name: str(fake))
    monkeypatch.setattr(sound, "sound_card", lambda: True)
    assert table_sounds(False, 0.6) is None  # off by its key
    assert isinstance(table_sounds(True, 0.6).player, sound.AplayPlayer)


def test_the_sound_keys_are_checked(tmp_path: Path) -> None:
    path = rendered_table(tmp_path, frames=1)
    assert load_config(path).sound.on is True
    assert load_config(path, {"sound": {"on": False}}).sound.on is False
    with pytest.raises(ConfigError, match=r"'volume' in \[sound\]"):
        load_config(path, {"sound": {"volume": 2.0}})
    with pytest.raises(ConfigError, match="loud"):
        load_config(path, {"sound": {"loud": True}})


def test_a_game_given_up_waits_on_nobody() -> None:
    from table.game_series import GameSeries

    core, out = _heard_core()
    GameSeries().abandon(core)  # every button held: the preset menu opens over it
    core.tick(30 * SECOND)
    assert out.getvalue() == ""
