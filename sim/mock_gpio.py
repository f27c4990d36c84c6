"""gpiozero's own mock pins, with edges delivered at a tick the test or simulator chooses.

gpiozero's ``MockPin`` stamps an edge with ``time.monotonic()`` when it is driven. To test that
presses are ordered by their edge times (and not by when the callback ran), a simulated press
must carry the moment the finger really came down, which may be earlier than the moment the
edge is delivered. ``TimedMockPin.edge(level, ticks)`` does exactly that.
"""

from __future__ import annotations

from gpiozero.pins.mock import MockFactory, MockPWMPin

# What a ``cardtable run`` of its own process needs in its environment to use gpiozero's mock
# pins (PWM ones: the lights dim).
MOCK_PINS_ENV = {"GPIOZERO_PIN_FACTORY": "mock", "GPIOZERO_MOCK_PIN_CLASS": "mockpwmpin"}


class TimedMockPin(MockPWMPin):
    """A mock pin that also dims (PWM), as every pin does with the lgpio factory: lights and buttons alike."""

    def edge(self, level: bool, ticks: float) -> None:
        """Change the input to ``level`` as of ``ticks`` (seconds) and fire ``when_changed``."""
        assert self._function == "input"
        if self._state == level:
            return
        self._state = level
        self._last_change = ticks
        wanted = "rising" if level else "falling"
        if self._edges in ("both", wanted) and self._when_changed is not None:
            self._call_when_changed()


def timed_mock_factory() -> MockFactory:
    return MockFactory(pin_class=TimedMockPin)


def press(factory: MockFactory, pin: int, ticks: float, pull_up: bool = True) -> None:
    """A button on ``pin`` goes down at ``ticks`` (to ground with a pull-up, the usual wiring)."""
    factory.pin(pin).edge(not pull_up, ticks)


def release(factory: MockFactory, pin: int, ticks: float, pull_up: bool = True) -> None:
    factory.pin(pin).edge(pull_up, ticks)
