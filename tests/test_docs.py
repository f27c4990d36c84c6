"""The documents match what they document: the wiring picture is the one ``table.example.toml``'s
pins give, and the README's set-up commands are the Makefile's."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_wiring_picture_shows_the_example_configurations_pins() -> None:
    spec = importlib.util.spec_from_file_location("draw_wiring", ROOT / "docs" / "images" / "draw_wiring.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    example = (ROOT / "table.example.toml").read_text(encoding="utf-8")
    drawn = (ROOT / "docs" / "images" / "wiring.svg").read_text(encoding="utf-8")
    assert drawn == module.wiring_svg(example), "run python docs/images/draw_wiring.py"
    assert "GPIO17 (pin 11)" in drawn and "GPIO19 (pin 35)" in drawn and "seat 3: Dee" in drawn


def test_the_readmes_two_commands_are_the_makefiles() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    for target in ("sim", "test"):
        assert f"make {target}" in readme and f"\n{target}: setup" in makefile
