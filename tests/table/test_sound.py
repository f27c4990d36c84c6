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
from table.config import ConfigError, load_config
from table.controller import Outputs, TableCore
from table.decisions import BadSlap, ChallengeStarted, GameWon, GoodSlap
from table.games import setup_game
from table.sound import Cue, LogPlayer, Sounds, table_sounds, wav
from table.units import MS, SECOND
from tests.live_tables import rendered_table


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
