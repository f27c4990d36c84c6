"""Bot players with human reaction times and human mistakes, all drawn from a seeded generator.

Reaction times to a slappable pile follow a log-normal law (a median of 350 to 650 ms by player,
a long slow tail), as measured for choice reactions; players miss some slaps, slap now and then
at a pile that is not slappable, and take half a second or more to play a card.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

NAMES = ("Ann", "Bob", "Cyd", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jon", "Kim", "Lou")


@dataclass(frozen=True, slots=True)
class Bot:
    seat: int
    name: str
    reaction_median_ms: float
    notice: float  # chance of spotting a slappable pile at all
    false_slap: float  # chance of slapping a pile that is not slappable
    play_delay_ms: tuple[float, float]

    def reaction_ns(self, rng: random.Random) -> int:
        """Press time after the card landed, whole microseconds (what a GPIO edge resolves)."""
        ms = self.reaction_median_ms * math.exp(rng.gauss(0.0, 0.3))
        return max(120_000, round(ms * 1000)) * 1000

    def play_delay_ns(self, rng: random.Random) -> int:
        lo, hi = self.play_delay_ms
        return round(rng.uniform(lo, hi) * 1000) * 1000


def make_bots(players: int, rng: random.Random) -> list[Bot]:
    bots = []
    for seat in range(players):
        name = NAMES[seat] if seat < len(NAMES) else f"P{seat}"
        bots.append(
            Bot(
                seat=seat,
                name=name,
                reaction_median_ms=rng.uniform(350, 650),
                notice=rng.uniform(0.6, 0.95),
                false_slap=rng.uniform(0.005, 0.03),
                play_delay_ms=(400, 1100),
            )
        )
    return bots
