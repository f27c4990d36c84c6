"""Short sound cues for the table: a good slap, a bad slap, a challenge, your turn (once a seat
has been waited on a while), a life lost, the winner.

The cues are made here, as sums of tones (so there is no sound file to ship or license), and
played with the system's ``aplay`` (ALSA's, on every Raspberry Pi OS), one short process a cue,
never waited for. A table with no sound card, or no ``aplay``, stays quiet and says so once. The
simulator's player writes each cue to a log instead, for the tests.
"""

from __future__ import annotations

import io
import logging
import math
import shutil
import subprocess
import wave
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, TextIO

from table.decisions import Decision
from table.units import SECOND

log = logging.getLogger("cardtable")

RATE = 22_050  # samples a second: plenty for beeps, and small
WAITED_NS = 10 * SECOND  # a seat waited on this long hears that it is its turn (once a wait)
# What a dealer does once the hand is dealt: the table cannot see a deal under way (the cards go
# face down), so a dealer is never reminded.
AFTER_A_DEAL = frozenset({"trump-card", "turn-up"})
NOT_REMINDED = AFTER_A_DEAL | {"none", ""}  # expected actions nobody is reminded of


class Cue(StrEnum):
    GOOD_SLAP = "good-slap"
    BAD_SLAP = "bad-slap"
    CHALLENGE = "challenge"
    YOUR_TURN = "your-turn"
    LIFE_LOST = "life-lost"
    WINNER = "winner"


# Each cue as notes: (frequency in Hz, or 0 for a rest; length in ms; shape).
NOTES: dict[Cue, tuple[tuple[float, int, str], ...]] = {
    Cue.GOOD_SLAP: ((880, 70, "bell"), (1320, 140, "bell")),
    Cue.BAD_SLAP: ((150, 260, "buzz"),),
    Cue.CHALLENGE: ((988, 60, "bell"), (0, 40, "rest"), (988, 60, "bell"), (0, 40, "rest"), (988, 60, "bell")),
    Cue.YOUR_TURN: ((660, 120, "bell"), (880, 200, "bell")),
    Cue.LIFE_LOST: ((523, 150, "glide"), (392, 150, "glide"), (262, 300, "glide")),
    Cue.WINNER: ((523, 120, "bell"), (659, 120, "bell"), (784, 120, "bell"), (1047, 400, "bell")),
}


def _note(freq: float, ms: int, shape: str) -> list[float]:
    n = RATE * ms // 1000
    if shape == "rest" or freq <= 0:
        return [0.0] * n
    out = []
    for i in range(n):
        t = i / RATE
        fade = min(1.0, i / (0.005 * RATE), (n - i) / (0.01 * RATE))  # no clicks at either end
        if shape == "buzz":  # a rough low tone: odd harmonics
            value = sum(math.sin(2 * math.pi * freq * k * t) / k for k in (1, 3, 5, 7))
        elif shape == "glide":  # sliding down a little as it sounds
            value = math.sin(2 * math.pi * freq * (1 - 0.1 * i / n) * t)
        else:  # a bell: struck, then dying away
            value = math.sin(2 * math.pi * freq * t) * math.exp(-3.0 * i / n)
        out.append(value * fade)
    return out


def wav(cue: Cue, volume: float) -> bytes:
    """The cue as a WAV file (16-bit mono), at ``volume`` from 0 to 1."""
    samples = [s for freq, ms, shape in NOTES[cue] for s in _note(freq, ms, shape)]
    peak = max(1e-9, max(abs(s) for s in samples))
    scale = 32_000 * max(0.0, min(1.0, volume)) / peak
    data = b"".join(int(s * scale).to_bytes(2, "little", signed=True) for s in samples)
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(data)
    return out.getvalue()


def cue_for(d: Decision) -> tuple[Cue, int | None] | None:
    """The cue a decision sounds, and the seat it is for; None for most decisions."""
    kind, seat = d.KIND, getattr(d, "seat", None)
    if kind == "good-slap":
        return Cue.GOOD_SLAP, seat
    if kind == "bad-slap":
        return Cue.BAD_SLAP, seat
    if kind == "challenge":
        return Cue.CHALLENGE, seat
    if kind == "life-lost":
        return Cue.LIFE_LOST, seat
    if kind == "game-won" or (kind == "game-over" and getattr(d, "winners", ())):
        return Cue.WINNER, seat
    return None


def sound_card() -> bool:
    """Whether this machine has a sound card ALSA can play on."""
    cards = Path("/proc/asound/cards")
    try:
        return cards.exists() and "no soundcards" not in cards.read_text()
    except OSError:
        return False


class AplayPlayer:
    """Plays cues with ``aplay``, each a process of its own, never waited for."""

    def __init__(self, volume: float, aplay: str) -> None:
        self.sounds = {cue: wav(cue, volume) for cue in Cue}
        self.aplay = aplay
        self.playing: list[subprocess.Popen[bytes]] = []

    def play(self, cue: Cue, seat: int | None, t_ns: int) -> None:
        self.playing = [p for p in self.playing if p.poll() is None]
        try:
            process = subprocess.Popen(
                [self.aplay, "-q", "-"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
        except OSError as exc:  # the player gone: quiet, and the game goes on
            log.warning("sound: %s could not be played: %s", cue, exc)
            return
        self.playing.append(process)
        try:
            assert process.stdin is not None
            process.stdin.write(self.sounds[cue])
            process.stdin.close()
        except OSError as exc:  # it died at once (no device, a device busy): let go of it
            log.warning("sound: %s could not be played: %s", cue, exc)
            process.kill()


class LogPlayer:
    """Writes each cue (its time, its name, its seat) to a text file instead of playing it."""

    def __init__(self, out: TextIO) -> None:
        self.out = out

    def play(self, cue: Cue, seat: int | None, t_ns: int) -> None:
        self.out.write(f"{t_ns} {cue} {'-' if seat is None else seat}\n")
        self.out.flush()


@dataclass
class Sounds:
    """A decision output: the cue of each decision that has one, and "your turn" for a seat the
    referee has waited on ``waited_ns`` (told by ``tick``): waited on since its turn came, or
    since it last did something (a card played answering a challenge, a bid), but not a dealer
    dealing."""

    player: Any  # AplayPlayer, LogPlayer: play(cue, seat, t_ns)
    waited_ns: int = WAITED_NS
    waiting: int | None = None  # the seat the referee waits on ...
    since: int = 0  # ... since then
    reminded: bool = False

    def decided(self, d: Decision, referee: Any) -> None:
        found = cue_for(d)
        if found is not None:
            self.player.play(found[0], found[1], d.t_ns)
        expected = referee.expects()
        seat = expected.seat if expected.action not in NOT_REMINDED else None
        if seat != self.waiting or d.KIND == "turn" or getattr(d, "seat", None) == seat:
            self.waiting, self.since, self.reminded = seat, d.t_ns, False

    def tick(self, now_ns: int, paused: bool = False) -> None:
        """Time has come to ``now_ns``; while the game is paused nobody is waited on, so the wait
        starts again."""
        if paused:
            self.since = now_ns
            return
        if self.waiting is not None and not self.reminded and now_ns - self.since >= self.waited_ns:
            self.reminded = True
            self.player.play(Cue.YOUR_TURN, self.waiting, self.since + self.waited_ns)


def table_sounds(on: bool, volume: float) -> Sounds | None:
    """The table's sounds with ``aplay`` on this machine's sound card, when ``on`` and both are
    there; else None (said once in the log)."""
    if not on:
        return None
    aplay = shutil.which("aplay")
    if aplay is None or not sound_card():
        why = "no aplay (apt install alsa-utils)" if aplay is None else "no sound card"
        log.info("sound: %s; the table stays quiet", why)
        return None
    return Sounds(AplayPlayer(volume, aplay))
