"""GPIO seat buttons through gpiozero's mock pin mock_pins, with edges at ticks the test chooses."""

from __future__ import annotations

import gc

import pytest

from sim.mock_gpio import press, release, timed_mock_factory
from table.buttons import ButtonError, GpioButtons, RawEdge, tick_info


def test_edges_carry_the_edge_time_not_the_delivery_time(mock_pins) -> None:
    buttons = GpioButtons({0: 17, 1: 27, 2: 22}, factory=mock_pins, require_exact=True)
    # Seat 2 pressed first, but its edge is delivered last (a slow interrupt): the times tell.
    press(mock_pins, 27, 100.000_250)
    press(mock_pins, 17, 100.000_251)
    press(mock_pins, 22, 100.000_249)
    release(mock_pins, 17, 100.2)
    edges = buttons.drain()
    assert edges == [
        RawEdge(1, True, 100_000_250_000),
        RawEdge(0, True, 100_000_251_000),
        RawEdge(2, True, 100_000_249_000),
        RawEdge(0, False, 100_200_000_000),
    ]
    assert [e.seat for e in sorted(edges[:3], key=lambda e: e.t_ns)] == [2, 1, 0]
    assert buttons.drain() == []


def test_one_microsecond_apart_is_still_in_order(mock_pins) -> None:
    buttons = GpioButtons({0: 5, 1: 6}, factory=mock_pins)
    press(mock_pins, 6, 5_000.000_001)  # after more than an hour of uptime
    press(mock_pins, 5, 5_000.000_000)
    first = min(buttons.drain(), key=lambda e: e.t_ns)
    assert first.seat == 0


def test_handlers_survive_garbage_collection(mock_pins) -> None:
    buttons = GpioButtons({0: 17}, factory=mock_pins)
    gc.collect()
    press(mock_pins, 17, 3.0)
    assert buttons.drain() == [RawEdge(0, True, 3_000_000_000)]


def test_pull_down_wiring_inverts_the_levels(mock_pins) -> None:
    buttons = GpioButtons({0: 17}, factory=mock_pins, pull_up=False)
    press(mock_pins, 17, 1.0, pull_up=False)
    assert buttons.drain() == [RawEdge(0, True, 1_000_000_000)]


def test_wiring_mistakes_are_named(mock_pins) -> None:
    with pytest.raises(ButtonError, match="pin GPIO17 is given to both seat 0 and seat 1"):
        GpioButtons({0: 17, 1: "GPIO17"}, factory=mock_pins)
    with pytest.raises(ButtonError, match="not a GPIO pin"):
        GpioButtons({0: 99}, factory=mock_pins)
    first = GpioButtons({0: 17}, factory=mock_pins)
    with pytest.raises(ButtonError, match="pin 17 is already used"):
        GpioButtons({0: 27, 1: 17}, factory=mock_pins)
    first.close()
    GpioButtons({0: 17}, factory=mock_pins).close()  # released pins can be used again


def test_factories_that_stamp_late_are_refused_for_slaps() -> None:
    class RPiGPIOFactory:  # the name is what tells (the real one needs a Pi)
        pass

    info = tick_info(RPiGPIOFactory())
    assert not info.exact and "callback" in info.note
    with pytest.raises(ButtonError, match="need edge timestamps"):
        GpioButtons({0: 17}, factory=RPiGPIOFactory(), require_exact=True)
    assert tick_info(timed_mock_factory()).exact
