"""Commands to a running table: a new game, another preset or game, the seats' names, a pause.

They come from the command line (``cardtable send``, over the table's control socket:
``table.control``), from the seats (every button held, then the preset chosen with the buttons:
``table.preset_menu``), and later from MQTT. Each is one JSON object; it is checked here, and
what it changes is checked again against the table's configuration by the live loop, so a bad
command is refused with a reason and changes nothing.

``new-game`` abandons the game under way and deals a new one now; ``set`` changes the games
dealt after this one; both keep their changes for every game after. ``pause`` holds the game as
a fault does (the lights blink amber) until ``resume``. ``out-of-cards`` tells the Egyptian Rat
Screw referee that a seat holds no card where it counted some (the camera missed a card played).
``out-of-turn`` tells it, where cards laid out of turn are dead, that the pile's top card was a
seat's, laid out of turn. ``end-game`` ends the game under way where it stands, as players agree
to stop (the trading game on points or lives, the bidding game); the next game is dealt as after
any other.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from table.cards import CardError, parse_card
from table.errors import CardtableError

KINDS = ("new-game", "set", "pause", "resume", "out-of-cards", "out-of-turn", "end-game")
SEAT_KINDS = ("out-of-cards", "out-of-turn")  # the commands that name a seat, and take nothing else
CHANGES = ("game", "rules", "names", "seed")  # what new-game and set may change
PAUSED_PART = "players"  # the fault a pause is kept as: the game waits until it is lifted


class CommandError(CardtableError, ValueError):
    """A command that cannot be taken; the message says what was wrong."""


@dataclass(frozen=True)
class TableCommand:
    kind: str
    game: str | None = None
    rules: str | None = None  # a preset's name, or a preset file on the table's host
    names: tuple[str, ...] | None = None
    seed: int | None = None
    source: str = "the command line"  # who asked, for the log and the pause's reason
    seat: int | None = None  # out-of-cards, out-of-turn: whose
    card: str | None = None  # out-of-turn: the card laid out of turn

    @property
    def changes(self) -> bool:
        return any(getattr(self, key) is not None for key in CHANGES)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"command": self.kind}
        for key in (*CHANGES, "seat", "card"):
            value = getattr(self, key)
            if value is not None:
                out[key] = list(value) if key == "names" else value
        return out


@dataclass(frozen=True)
class CommandRequest:
    """A command for the table's loop, and where its answer goes: ``answer(accepted, message)``
    (the control socket's client, or the MQTT reply topic)."""

    command: TableCommand
    answer: Callable[[bool, str], None]

    def reply(self, ok: bool, message: str) -> None:
        self.answer(ok, message)


def parse_command(data: Any, source: str = "the command line") -> TableCommand:
    """A command from its JSON object; a ``CommandError`` names what was wrong with it."""
    if not isinstance(data, Mapping):
        raise CommandError(f"a command is a JSON object like {{'command': 'new-game'}}, not {data!r}")
    kind = data.get("command")
    if kind not in KINDS:
        raise CommandError(f"command {kind!r} is not one of {', '.join(KINDS)}")
    if kind in SEAT_KINDS:
        return _seat_command(kind, data, source)
    unknown = sorted(set(data) - {"command", *CHANGES})
    if unknown:
        raise CommandError(f"{kind}: unknown key {unknown[0]!r} (known: {', '.join(CHANGES)})")
    if kind in ("pause", "resume", "end-game") and any(key in data for key in CHANGES):
        raise CommandError(f"{kind} changes nothing; give new-game or set the changes")
    for key in ("game", "rules"):
        if key in data and not (isinstance(data[key], str) and data[key].strip()):
            raise CommandError(f"{kind}: {key} must be a name, not {data[key]!r}")
    names = data.get("names")
    if names is not None:
        if isinstance(names, str):
            names = names.split(",")
        if not isinstance(names, list | tuple) or not all(isinstance(n, str) for n in names):
            raise CommandError(f"{kind}: names must be a list of names, one a seat, not {names!r}")
        names = tuple(n.strip() for n in names)
    seed = data.get("seed")
    if seed is not None and (type(seed) is not int or seed < 0):
        raise CommandError(f"{kind}: seed must be a whole number from 0, not {seed!r}")
    command = TableCommand(kind, data.get("game"), data.get("rules"), names, seed, source)
    if kind == "set" and not command.changes:
        raise CommandError(f"set: nothing to change; give one of {', '.join(CHANGES)}")
    return command


def _seat_command(kind: str, data: Mapping[str, Any], source: str) -> TableCommand:
    """``out-of-cards`` takes the seat; ``out-of-turn`` the seat and the card it laid."""
    keys = {"seat", "card"} if kind == "out-of-turn" else {"seat"}
    unknown = sorted(set(data) - {"command", *keys})
    if unknown:
        raise CommandError(f"{kind}: unknown key {unknown[0]!r} (it takes {' and '.join(sorted(keys))})")
    seat = data.get("seat")
    if type(seat) is not int or seat < 0:
        raise CommandError(f"{kind}: seat must be a seat's number from 0, not {seat!r}")
    if kind != "out-of-turn":
        return TableCommand(kind, source=source, seat=seat)
    card = data.get("card")
    try:
        code = parse_card(card).code if isinstance(card, str) else None
    except CardError:
        code = None
    if code is None:
        raise CommandError(f"{kind}: card must be the card laid, as 2C, 10H, QS or RJ, not {card!r}")
    return TableCommand(kind, source=source, seat=seat, card=code)
