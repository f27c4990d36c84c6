"""A game counted as it goes, from its decisions as told (``Narrator.told``): the cards played,
each player's slaps and how fast they came, bids made, lives lost, and how it ended.

One count for the scoreboard's winner screen (``table.scoreboard``) and the players' records
(``table.standings``), kept live by the table and made again from a journal the same way. It
reads decisions by their kind, so it needs no game's own code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class SeatTally:
    good_slaps: int = 0
    bad_slaps: int = 0
    reactions_ns: list[int] = field(default_factory=list)  # from the slappable card to this seat's press
    bids: int = 0
    bids_made: int = 0
    lives_lost: int = 0


@dataclass
class GameTally:
    cards: int = 0
    tricks: int = 0
    closest_ns: int | None = None  # the smallest lead a slap won by
    seats: list[SeatTally] = field(default_factory=list)
    over: bool = False
    winners: tuple[int, ...] = ()
    ending: str = ""  # the sentence of the decision that ended the game
    _card_t: int | None = None  # when the last card landed
    _found: set[int] = field(default_factory=set)  # seats whose bad slap a contest upheld, since that card

    def heard(self, told: dict[str, Any]) -> None:
        kind, t = told.get("kind"), told.get("t", 0)
        if kind == "game-started":
            self.__dict__.update(GameTally(seats=[SeatTally() for _ in range(told["players"])]).__dict__)
        elif kind == "card-played":
            self.cards += 1
            self._card_t = t
            self._found.clear()
        elif kind == "good-slap":
            self._seat(told["seat"]).good_slaps += 1
            self._reaction(told["seat"], t)
        elif kind == "slap-lead":
            lead = int(told["lead_ns"])
            self.closest_ns = lead if self.closest_ns is None else min(self.closest_ns, lead)
            self._reaction(told["behind"], t)
        elif kind == "bad-slap":
            self._seat(told["seat"]).bad_slaps += 1
        elif kind == "contested" and told["upheld"] and told["player"] not in self._found:
            self._found.add(told["player"])  # a bad slap the table kept quiet about, found out (once)
            self._seat(told["player"]).bad_slaps += 1
        elif kind == "trick-won":
            self.tricks += 1
        elif kind == "hand-scored":
            for seat, (bid, took) in enumerate(zip(told["bids"], told["tricks"], strict=True)):
                self._seat(seat).bids += 1
                self._seat(seat).bids_made += bid == took
        elif kind == "life-lost":
            self._seat(told["seat"]).lives_lost += 1
        elif kind in ("game-won", "game-over"):
            self.over = True
            self.winners = (told["seat"],) if kind == "game-won" else tuple(told["winners"])
            self.ending = told.get("said", "")

    def _seat(self, seat: int) -> SeatTally:
        while len(self.seats) <= seat:
            self.seats.append(SeatTally())
        return self.seats[seat]

    def _reaction(self, seat: int, t: int) -> None:
        if self._card_t is not None:
            self._seat(seat).reactions_ns.append(t - self._card_t)

    def figures(self) -> list[list[str]]:
        """The figures worth telling on the winner's screen, each as [what, how many]."""
        slaps = sum(s.good_slaps for s in self.seats)
        out = [["cards played", str(self.cards)]] if self.cards else []  # (the trading game's are shown)
        out += [["slaps won", str(slaps)], ["bad slaps", str(sum(s.bad_slaps for s in self.seats))]] if slaps else []
        if self.closest_ns is not None:
            out.append(["the closest slap won", f"{self.closest_ns / 1e6:.1f} ms"])
        out += [["tricks", str(self.tricks)]] if self.tricks else []
        lives = sum(s.lives_lost for s in self.seats)
        out += [["lives lost", str(lives)]] if lives else []
        return out
