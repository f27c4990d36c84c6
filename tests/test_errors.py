"""Every error the project raises for a person to read derives from one base, which the command
line catches once: a new kind of error cannot slip out as a traceback."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import firmware_bridge
import table
import vision
from table.errors import CardtableError

# The bridge's protocol module runs on the board too (MicroPython), and imports nothing of the
# table's; its errors are the host driver's to turn into faults, never the user's to read.
BOARD_SIDE = {"firmware_bridge.protocol.ProtocolError"}


def _errors() -> list[type[BaseException]]:
    found = []
    for package in (table, vision, firmware_bridge):
        for module in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            if module.name.startswith(("vision.train", "firmware_bridge.firmware")):
                continue  # the trainers need the train extra; the board's program is MicroPython
            loaded = importlib.import_module(module.name)
            for _, value in inspect.getmembers(loaded, inspect.isclass):
                if issubclass(value, Exception) and value.__module__ == module.name:
                    found.append(value)
    return found


def test_every_error_of_the_project_is_a_cardtable_error() -> None:
    errors = _errors()
    assert len(errors) >= 15
    strays = [f"{e.__module__}.{e.__qualname__}" for e in errors if not issubclass(e, CardtableError)]
    assert [s for s in strays if s not in BOARD_SIDE] == []
