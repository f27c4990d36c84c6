"""Seat light patterns on gpiozero's mock LEDs: plain, dimmable and RGB."""

from __future__ import annotations

import time

import pytest

from table.lights import GREEN, OFF, RED, GpioLights, LightError, Pattern, blink, flash, pulse, steady
from tests.live_tables import wait_until


def test_patterns_show_on_each_kind_of_light(mock_pins) -> None:
    lights = GpioLights({0: 17, 1: (22, 23, 24)}, factory=mock_pins)
    lights.show(0, steady((0, 0, 128)))
    assert lights.devices[0].value == pytest.approx(128 / 255)
    lights.show(1, steady(GREEN))
    assert lights.devices[1].value == (0, 1, 0)
    lights.show(1, OFF)
    assert lights.devices[1].value == (0, 0, 0)
    lights.close()


def test_flash_n_times_then_off(mock_pins) -> None:
    lights = GpioLights({0: 5}, factory=mock_pins, dimmable=False)
    pin = mock_pins.pin(5)
    pin.clear_states()
    lights.show(0, flash(3, RED, period_ms=40))
    wait_until(lambda: sum(bool(s.state) for s in pin.states) >= 3 and not pin.state, seconds=5)
    time.sleep(0.2)  # and no more after them
    ons = [s for s in pin.states if s.state]
    assert len(ons) == 3 and not pin.state
    lights.close()


def test_blink_and_pulse_keep_going(mock_pins) -> None:
    lights = GpioLights({0: 6, 1: 12}, factory=mock_pins)
    lights.show(0, blink(period_ms=40))
    lights.show(1, pulse(period_ms=400))
    wait_until(lambda: len(mock_pins.pin(6).states) > 4, seconds=5)
    wait_until(lambda: len({round(s.state, 2) for s in mock_pins.pin(12).states}) > 3, seconds=5)  # a fade
    lights.close()


def test_bad_patterns_and_seats_are_named(mock_pins) -> None:
    with pytest.raises(LightError, match="'rainbow' is not one of"):
        Pattern("rainbow")
    with pytest.raises(LightError, match="flash count 0"):
        flash(0)
    with pytest.raises(LightError, match="colour"):
        steady((300, 0, 0))
    lights = GpioLights({0: 13}, factory=mock_pins)
    with pytest.raises(LightError, match="seat 4 has no light"):
        lights.show(4, OFF)
    with pytest.raises(LightError, match="seat 1's light on pin 13"):
        GpioLights({1: 13}, factory=mock_pins)
    lights.close()


def test_a_count_of_taps_is_flashed_back() -> None:
    from table.lights import count_back

    assert count_back(3) == Pattern("flash", (255, 140, 0), 3, 400)
    assert count_back(0).count == 1 and count_back(0).period_ms > 1000  # nothing: one long flash


def test_a_common_anode_light_is_lit_by_pulling_its_pins_low(mock_pins) -> None:
    lights = GpioLights({0: (5, 6, 13), 1: (22, 23, 24)}, factory=mock_pins, common_anode={0: True})
    lights.show(0, steady(RED))
    lights.show(1, steady(RED))
    assert [mock_pins.pin(n).state for n in (5, 6, 13)] == [0, 1, 1]  # red lit: its cathode pin low
    assert [mock_pins.pin(n).state for n in (22, 23, 24)] == [1, 0, 0]  # common cathode: red pin high
    lights.show(0, OFF)
    assert [mock_pins.pin(n).state for n in (5, 6, 13)] == [1, 1, 1]
    lights.close()
