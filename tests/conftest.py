"""What many test modules share: gpiozero's mock pins, and a real Mosquitto on a loopback port."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from sim.mock_gpio import timed_mock_factory
from tests.mqtt_broker import Broker


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
