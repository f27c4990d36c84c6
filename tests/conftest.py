"""What many test modules share: gpiozero's mock pins, a real Mosquitto on a loopback port, and
the vision stages' tuned numbers changed for one test."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import settings

from sim.mock_gpio import timed_mock_factory
from tests.mqtt_broker import Broker
from vision.tuning import changed

# No time limit on one example: a busy machine that holds a test up for a moment is no failure.
settings.register_profile("cardtable", deadline=None)
settings.load_profile("cardtable")


@pytest.fixture
def mock_pins() -> Iterator[MockFactory]:
    """gpiozero's mock pins (PWM ones, whose edges carry the ticks a test gives), closed after."""
    factory = timed_mock_factory()
    yield factory
    factory.close()


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    """A Mosquitto of its own on a free loopback port, anonymous clients allowed; stopped after."""
    running = Broker(tmp_path).start()
    yield running
    running.stop()


@pytest.fixture
def retune() -> Iterator[Callable[..., object]]:
    """Change a vision stage's tuned numbers for the rest of the test (``vision.tuning.changed``):
    ``retune(indices.TUNING, mirror_reach=0.0)`` reads without the mirrored indices' rule."""
    with ExitStack() as stack:
        yield lambda values, **fields: stack.enter_context(changed(values, **fields))
