"""What an onlooker is shown of a game: each seat's score, the cards in the middle, whose turn,
the round and phase. One view of every referee, for the terminal's sketch of the table and for
the dashboard's MQTT topics, so that both show the same thing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from table.cards import SUIT_NAMES
from table.lights import Pattern


def seat_counts(referee: Any) -> tuple[str, list[str]]:
    """What each seat's count is in this game, and the counts as shown (Oh Hell's with the bid)."""
    if referee.GAME == "oh-hell":
        state = referee.state
        bids = [("-" if b is None else str(b)) for b in state.bids] or ["-"] * len(state.totals)
        tricks = state.tricks or [0] * len(bids)
        return "score (bid/taken)", [
            f"{total} ({bid}/{taken})" for total, bid, taken in zip(state.totals, bids, tricks, strict=False)
        ]
    if referee.GAME == "eights":
        state = referee.state
        held = [f"{h}+1" if safe else str(h) for h, safe in zip(state.hands, state.safe, strict=True)]
        if referee.rules.rounds == 1:
            return "cards held (+ safe card)", held
        what, totals = seat_scores(referee)
        return f"{what} (cards held)", [f"{t} ({h})" for t, h in zip(totals, held, strict=True)]
    what, scores = seat_scores(referee)
    return what, [str(v) for v in scores]


def seat_scores(referee: Any) -> tuple[str, list[int]]:
    """Each seat's score as one number, and what it counts: the cards it holds (Egyptian Rat
    Screw), its lives or points (the trading game), its points (the bidding game)."""
    if referee.GAME == "ers":
        return "cards", [len(h) for h in referee.hands]
    state = referee.state
    if referee.GAME == "cuckoo":
        points = referee.rules.scoring == "points"
        return ("points" if points else "lives"), list(state.points if points else state.lives)
    if referee.GAME == "eights":
        return ("wins" if referee.rules.scoring == "wins" else "cards left"), list(state.totals)
    return "points", list(state.totals)


def middle_cards(referee: Any) -> tuple[str, list[str]]:
    """The cards showing in the middle of the table, oldest first, and what they are."""
    if referee.GAME == "ers":
        return f"pile of {referee.pile_size()}", [c.code for c in referee.played[-4:]]
    state = referee.state
    if referee.GAME == "oh-hell":
        trump = "no trump" if state.trump is None else f"trumps {state.trump}"
        return f"trick {state.trick_no}, {trump}", [c.code for c in state.trick_cards]
    if referee.GAME == "eights":
        suit = SUIT_NAMES.get(state.suit or "", "any suit")
        return f"pile of {len(state.pile)}, {suit}; stock {state.stock}", [c.code for c in state.pile[-4:]]
    shown = [c.code for c in state.revealed if c is not None]
    return f"round {state.round}, pot {state.pot}", shown


def round_and_phase(referee: Any) -> tuple[int | None, str]:
    """The round (hand) under way, None in a game without rounds, and the phase of play."""
    if referee.finished:
        return _round(referee), "over"
    if referee.GAME == "ers":
        return None, "challenge" if referee.challenger is not None else "playing"
    return _round(referee), str(referee.state.phase)


def _round(referee: Any) -> int | None:
    if referee.GAME in ("cuckoo", "eights"):
        return int(referee.state.round)
    if referee.GAME == "oh-hell":
        return int(referee.state.hand) + 1
    return None


def winners(referee: Any) -> list[int]:
    if not referee.finished:
        return []
    if referee.GAME == "ers":
        return [referee.winner]
    return list(referee.state.winners or [])


def table_state(
    referee: Any, setup: Any, names: Sequence[str], lights: Sequence[Pattern] = (), paused: Sequence[str] = ()
) -> dict[str, Any]:
    """The whole table as one JSON object (the ``state`` topic: what a web page draws)."""
    what, scores = seat_scores(referee)
    _, shown = seat_counts(referee)
    title, cards = middle_cards(referee)
    expected = referee.expects()
    round_no, phase = round_and_phase(referee)
    out = set(_out(referee))
    seats = []
    for seat, name in enumerate(names):
        light = lights[seat] if seat < len(lights) else None
        seats.append(
            {
                "seat": seat,
                "name": name,
                "score": scores[seat],
                "shown": shown[seat],
                "out": seat in out,
                "light": None if light is None else {"kind": light.kind, "colour": _hex(light.colour)},
            }
        )
    return {
        "game": setup.game,
        "preset": setup.preset,
        "round": round_no,
        "phase": phase,
        "score": what,
        "turn": expected.seat if expected.action not in ("none", "") else None,
        "expects": expected.action,
        "dealer": getattr(referee, "dealer", None) if referee.GAME == "ers" else referee.state.dealer,
        "seats": seats,
        "middle": {"title": title, "cards": cards},
        "winners": winners(referee),
        "paused": list(paused),
    }


def _out(referee: Any) -> list[int]:
    if referee.GAME == "ers":
        return [s for s in range(referee.players) if not referee.hands[s]]
    if referee.GAME == "cuckoo":
        alive = referee.alive()
        return [s for s in range(referee.players) if s not in alive]
    return []


def _hex(colour: tuple[int, int, int]) -> str:
    red, green, blue = colour
    return f"#{red:02x}{green:02x}{blue:02x}"
