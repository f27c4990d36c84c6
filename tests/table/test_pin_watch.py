"""The Pi's pins' levels held against the edges the core was given (``table.pin_watch``), on
gpiozero's mock pins: an edge lost on the way is taken as lost only when the level says so twice
running, a second apart."""

from __future__ import annotations

from sim.mock_gpio import press, release
from table.buttons import GpioButtons
from table.controller import Outputs, TableCore
from table.games import setup_game
from table.pin_watch import PinWatch
from table.units import MS, SECOND

PINS = {0: 17, 1: 27, 2: 22}
NAMES = ["GPIO17", "GPIO27", "GPIO22"]


def table(mock_pins) -> tuple[GpioButtons, TableCore, PinWatch]:
    buttons = GpioButtons(PINS, factory=mock_pins)
    core = TableCore(setup_game("ers", players=3, seed=1), {"camera": 250 * MS, "gpio": 20 * MS}, Outputs())
    return buttons, core, PinWatch(buttons, NAMES)


def test_a_press_whose_edge_was_lost_is_a_fault_at_the_second_check(mock_pins) -> None:
    buttons, core, watch = table(mock_pins)
    press(mock_pins, 27, 100.0)
    buttons.drain()  # the edge never reaches the core
    watch.check(core, 1 * SECOND)
    assert not core.faults and core.lost_edges == 0  # once: its edge may be on its way
    watch.check(core, 1 * SECOND + 500 * MS)  # checked once a second, not more
    assert not core.faults
    watch.check(core, 2 * SECOND)
    assert core.lost_edges == 1 and any("an edge lost" in why for why in core.faults.values()), core.faults


def test_a_level_that_differs_once_is_an_edge_on_its_way(mock_pins) -> None:
    buttons, core, watch = table(mock_pins)
    press(mock_pins, 17, 100.0)
    edge = buttons.drain()[0]
    watch.check(core, 1 * SECOND)
    core.edge(edge.seat, edge.pressed, edge.t_ns, 1 * SECOND)  # it came after all
    watch.check(core, 2 * SECOND)
    watch.check(core, 3 * SECOND)
    assert not core.faults and core.lost_edges == 0


def test_a_release_whose_edge_was_lost_lets_the_button_go(mock_pins) -> None:
    buttons, core, watch = table(mock_pins)
    press(mock_pins, 22, 100.0)
    edge = buttons.drain()[0]
    core.edge(edge.seat, edge.pressed, edge.t_ns, edge.t_ns)
    release(mock_pins, 22, 100.5)
    buttons.drain()  # the release is lost
    watch.check(core, 101 * SECOND)
    assert core.gestures.seats[2].raw  # the core still has it down
    watch.check(core, 102 * SECOND)
    assert not core.gestures.seats[2].raw and core.lost_edges == 1 and not core.faults
