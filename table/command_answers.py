"""What the commands that act on the game under way do to it, and the answer each gets.

``pause`` and ``resume`` hold the game as a fault of its own (``PAUSED_PART``), so that it waits
as it waits for a camera or a button; ``out-of-cards`` tells the referee a seat holds no card
where it counts some. Each returns whether it was done and a sentence saying what happened or
why not. The commands that change the games to come (the game, preset, names, a new deal) belong
to the live table, which holds the configuration.
"""

from __future__ import annotations

from collections.abc import Sequence

from table.cards import parse_card, spoken
from table.commands import PAUSED_PART
from table.controller import COMMAND, TableCore
from table.events import END, OUT_OF_CARDS, OUT_OF_TURN, SeatAction

Answer = tuple[bool, str]


def pause(core: TableCore, source: str, now: int) -> Answer:
    """Pause the game until ``resume``: every light blinks amber meanwhile."""
    if PAUSED_PART in core.faults:
        return False, "the game is paused already"
    core.fault(PAUSED_PART, f"paused from {source}", now)
    return True, "paused: every light blinks amber until resume"


def resume(core: TableCore, now: int) -> Answer:
    """Lift a pause, or say that each card a restarted table asks about was the only one laid
    while it was down; what else the game waits on is named."""
    if core.go_on(now):
        return True, f"each top card asked about is played as the only one laid while the table was down{_still(core)}"
    if PAUSED_PART not in core.faults:
        waits = f" (it waits on: {'; '.join(core.faults)})" if core.faults else ""
        return False, f"the game is not paused by a command{waits}"
    core.fault(PAUSED_PART, None, now)
    return True, f"resumed{_still(core)}"


def _still(core: TableCore) -> str:
    """What the game still waits on, said after a lifted wait."""
    return f"; still paused: {'; '.join(f'{p}: {w}' for p, w in core.faults.items())}" if core.faults else ""


def _paused(core: TableCore) -> Answer | None:
    """The refusal of a game command while the game is paused (None: it goes on)."""
    if core.paused:
        return False, f"the game is paused ({'; '.join(core.faults)}): say it again when it goes on"
    return None


def _no_seat(seat: int, names: Sequence[str]) -> Answer | None:
    """The refusal of a command for a seat the table does not have (None: it has it)."""
    if seat >= len(names):
        return False, f"seat {seat}: the seats are 0 to {len(names) - 1}"
    return None


def end_game(core: TableCore | None, now: int) -> Answer:
    """The players end the game where it stands: the referee decides its winners once every
    input before now is decided. ``core`` is None between games."""
    if core is None or core.referee.finished:
        return False, "no game is under way"
    if END not in core.referee.COMMANDS:
        return False, f"{core.setup.game} ends by its own rules only, not by the players' word"
    if (refused := _paused(core)) is not None:
        return refused
    core.command(END, now)
    return True, "the game ends where it stands: the scores so far decide"


def out_of_cards(core: TableCore | None, seat: int, names: Sequence[str], now: int) -> Answer:
    """A seat holds no card where the referee counts some: the referee is told, in turn.
    ``core`` is None between games."""
    if core is None or core.referee.finished or core.referee.cards_held(0) is None:
        return False, "only a game of Egyptian Rat Screw or the shedding game under way counts the cards in hand"
    if (refused := _paused(core)) is not None:
        return refused
    if (refused := _no_seat(seat, names)) is not None:
        return refused
    counted = core.referee.cards_held(seat)
    if not counted:
        return False, f"{names[seat]} holds no card by the referee's count already"
    core.seat_input(SeatAction(now, COMMAND, seat, OUT_OF_CARDS), now)
    return True, f"the referee is told {names[seat]} holds no card; the {counted} counted go under the pile"


def out_of_turn(core: TableCore | None, seat: int, card: str, names: Sequence[str], now: int) -> Answer:
    """The pile's top card, ``card``, was ``seat``'s, laid out of turn: where the rules make
    such cards dead, the referee is told, in turn (with the card, so that a card laid since is
    not taken for it). ``core`` is None between games."""
    if core is None or core.referee.finished:
        return False, "no game is under way"
    if (refused := _paused(core)) is not None:
        return refused
    if (refused := _no_seat(seat, names)) is not None:
        return refused
    if OUT_OF_TURN not in core.referee.legal_actions().get(seat, ()):
        return False, (
            f"the top card cannot be taken as {names[seat]}'s, laid out of turn: only in Egyptian Rat Screw "
            "with dead cards (out_of_turn), for the top card before anything is judged on it, "
            "laid by another than the player whose turn it was"
        )
    top = core.referee.view().cards[-1:]
    if top != (card,):
        return False, f"the top card is {spoken(top[0]) if top else 'none'}, not {spoken(card)}"
    core.seat_input(SeatAction(now, COMMAND, seat, OUT_OF_TURN, parse_card(card).key), now)
    return (
        True,
        f"the referee is told {spoken(card)} is {names[seat]}'s, laid out of turn: dead, and the turn goes back",
    )
