"""What an onlooker is shown of a game: each seat's score, the cards in the middle, whose turn,
the round and phase. One view of every referee, for the terminal's sketch of the table and for
the dashboard's MQTT topics, so that both show the same thing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

from table.games import game_of
from table.lights import Pattern
from table.referee import Referee


def seat_counts(referee: Referee) -> tuple[str, list[str]]:
    """What each seat's count is in this game, and the counts as shown (Oh Hell's with the bid)."""
    view = referee.view()
    return view.counts, list(view.shown)


def seat_scores(referee: Referee) -> tuple[str, list[int]]:
    """Each seat's score as one number, and what it counts: the cards it holds (Egyptian Rat
    Screw), its lives or points (the trading game), its points (the bidding game)."""
    view = referee.view()
    return view.score, list(view.scores)


def middle_cards(referee: Referee) -> tuple[str, list[str]]:
    """The cards showing in the middle of the table, oldest first, and what they are."""
    view = referee.view()
    return view.middle, list(view.cards)


@dataclass
class GameStory:
    """What the winner's screen tells of a game: how it ended and a few figures, gathered from
    its decisions as told (``Narrator.told``) since the game began."""

    cards: int = 0
    good_slaps: int = 0
    bad_slaps: int = 0
    closest_ns: int | None = None  # the smallest lead a slap won by
    tricks: int = 0
    lives_lost: int = 0
    ending: str = ""  # the sentence of the decision that ended the game

    def heard(self, told: dict[str, Any]) -> None:
        kind = told.get("kind")
        if kind == "game-started":
            for f in fields(self):
                setattr(self, f.name, f.default)
        elif kind == "card-played":
            self.cards += 1
        elif kind == "good-slap":
            self.good_slaps += 1
        elif kind == "bad-slap":
            self.bad_slaps += 1
        elif kind == "slap-lead":
            lead = int(told["lead_ns"])
            self.closest_ns = lead if self.closest_ns is None else min(self.closest_ns, lead)
        elif kind == "trick-won":
            self.tricks += 1
        elif kind == "life-lost":
            self.lives_lost += 1
        elif kind in ("game-won", "game-over"):
            self.ending = told.get("said", "")

    def figures(self) -> list[list[str]]:
        """The figures worth telling, each as [what, how many]."""
        out = [["cards played", str(self.cards)]]
        out += [["slaps won", str(self.good_slaps)], ["bad slaps", str(self.bad_slaps)]] if self.good_slaps else []
        if self.closest_ns is not None:
            out.append(["the closest slap won", f"{self.closest_ns / 1e6:.1f} ms"])
        out += [["tricks", str(self.tricks)]] if self.tricks else []
        out += [["lives lost", str(self.lives_lost)]] if self.lives_lost else []
        return out


def named(text: str, names: Sequence[str]) -> str:
    """A view's text with each seat written "{2}" replaced by its player's name."""
    return re.sub(r"\{(\d+)\}", lambda m: names[int(m[1])] if int(m[1]) < len(names) else m[0], text)


def table_state(
    referee: Referee,
    setup: Any,
    names: Sequence[str],
    lights: Sequence[Pattern] = (),
    paused: Sequence[str] = (),
    story: GameStory | None = None,
) -> dict[str, Any]:
    """The whole table as one JSON object (the ``state`` topic: what a web page draws)."""
    view = referee.view()
    expected = referee.expects()
    seats = []
    for seat, name in enumerate(names):
        light = lights[seat] if seat < len(lights) else None
        seats.append(
            {
                "seat": seat,
                "name": name,
                "score": view.scores[seat],
                "shown": view.shown[seat],
                "out": seat in view.out,
                "note": view.notes[seat] if seat < len(view.notes) else "",
                "light": None if light is None else {"kind": light.kind, "colour": _hex(light.colour)},
            }
        )
    return {
        "game": setup.game,
        "title": game_of(referee).title,
        "preset": setup.preset,
        "round": view.round,
        "phase": view.phase,
        "score": view.score,
        "fewest_best": view.fewest_best,
        "turn": expected.seat if expected.action not in ("none", "") else None,
        "expects": expected.action,
        "dealer": view.dealer,
        "seats": seats,
        "middle": {"title": view.middle, "cards": list(view.cards)},
        "facts": [[label, named(value, names)] for label, value in view.facts],
        "history": [[named(cell, names) for cell in row] for row in view.history],
        "winners": list(view.winners),
        "ending": story.ending if story is not None else "",
        "figures": story.figures() if story is not None else [],
        "paused": list(paused),
    }


def _hex(colour: tuple[int, int, int]) -> str:
    red, green, blue = colour
    return f"#{red:02x}{green:02x}{blue:02x}"
