"""The documents match what they document: the wiring picture is the one ``table.example.toml``'s
pins give, the README's set-up commands are the Makefile's, and each game's document names its
rules keys and presets."""

from __future__ import annotations

import dataclasses
import importlib.util
from pathlib import Path

from table.games import GAMES

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


def test_each_games_document_names_every_rules_key_and_preset() -> None:
    """docs/games/<game>.md: every key a preset file may set, and every preset shipped, with its
    reading beside it."""
    for name, game in GAMES.items():
        document = (ROOT / "docs" / "games" / f"{name}.md").read_text(encoding="utf-8")
        keys = [field.name for field in dataclasses.fields(game.rules)]
        presets = sorted(p.stem for p in (ROOT / "table" / "games" / name.replace("-", "_") / "presets").glob("*.toml"))
        assert presets, name
        missing = [key for key in keys + presets if f"`{key}`" not in document]
        assert not missing, f"docs/games/{name}.md does not name {missing}"
