"""What an onlooker is shown of a game: each seat's score, the cards in the middle, whose turn,
the round and phase. One view of every referee, for the terminal's sketch of the table and for
the dashboard's MQTT topics, so that both show the same thing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from table.games import game_of
from table.lights import Pattern
from table.narration import named
from table.referee import Referee
from table.tally import GameTally


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


def table_state(
    referee: Referee,
    setup: Any,
    names: Sequence[str],
    lights: Sequence[Pattern] = (),
    paused: Sequence[str] = (),
    tally: GameTally | None = None,
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
        "middle": {"title": view.middle, "cards": list(view.cards), "beside": [list(card) for card in view.beside]},
        "facts": [[label, named(value, names)] for label, value in view.facts],
        "history": [[named(cell, names) for cell in row] for row in view.history],
        "winners": list(view.winners),
        "ending": tally.ending if tally is not None else "",
        "figures": tally.figures() if tally is not None else [],
        "paused": list(paused),
    }


def _hex(colour: tuple[int, int, int]) -> str:
    red, green, blue = colour
    return f"#{red:02x}{green:02x}{blue:02x}"
