"""The imports flow one way: the core (cards, events, decisions, the referees, the sequencer, the
journal) imports nothing else of the project; vision and the microcontroller bridge use only the
core's values (and the bridge the seat hardware's); outputs read the core and never the hardware
behind it; only the table's own wiring (the controller, the live loop, the configuration, the
command line) joins vision, the bridge and the outputs; nothing the table ships loads the
simulator or the benchmarks.

Read from the source (every import, in functions too), not from what happens to be imported.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("table", "vision", "firmware_bridge", "sim", "benchmarks")
SHIPPED = ("table", "vision", "firmware_bridge")

# The table's modules by what they are. A new module must be placed in one of these.
CORE = {
    "table",
    "table.cards",
    "table.commands",
    "table.decisions",
    "table.errors",
    "table.events",
    "table.journal",
    "table.referee",
    "table.replay",
    "table.rules",
    "table.sequencer",
    "table.snapshots",
    "table.typed",
    "table.units",
}  # and every module of ``table.games``
SEAT_HARDWARE = {"table.buttons", "table.lights", "table.gestures"}
OUTPUTS = {
    "table.home_assistant",
    "table.league",
    "table.mqtt",
    "table.narration",
    "table.notify",
    "table.scoreboard",
    "table.signals",
    "table.sound",
    "table.standings",
    "table.table_sketch",
    "table.tally",
    "table.terminal_view",
}
WIRING = {
    "table.__main__",
    "table.arguments",
    "table.camera_reader",
    "table.cli",
    "table.command_answers",
    "table.config",
    "table.control",
    "table.controller",
    "table.faults",
    "table.frame_reports",
    "table.game_series",
    "table.hardware_check",
    "table.kept_changes",
    "table.laid_while_down",
    "table.live",
    "table.loop_stats",
    "table.pin_watch",
    "table.preset_menu",
    "table.resume",
    "table.seat_parts",
}
# The one way into the simulator from what ships: ``cardtable sim`` hands its arguments to it.
SIM_DOOR = ("table.cli", "sim.cli")
# The networks' trainers (``python -m vision.train``, with the ``train`` extra) draw their scenes
# with the simulator's renderer; the table never runs them.
TRAINERS = "vision.train"


def _module(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def _imports() -> dict[str, set[str]]:
    """Each module of the project's packages, and the project's modules it imports:
    ``from table.cards import Card`` imports ``table.cards``; ``from table.games.ers import lines``
    imports the module ``table.games.ers.lines`` (and its package only for its other names)."""
    paths = {
        _module(path): path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if "firmware" not in path.relative_to(ROOT).parts[1:2]  # the board's own MicroPython program
    }
    found: dict[str, set[str]] = {}
    for module, path in paths.items():
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                inner = {f"{node.module}.{alias.name}" for alias in node.names} & set(paths)
                names |= inner
                if len(inner) < len(node.names):
                    names.add(node.module)
        found[module] = {n for n in names if n in paths and n != module}
    return found


IMPORTS = _imports()


def _is_core(module: str) -> bool:
    return module in CORE or module.startswith("table.games")


def _offending(allowed) -> list[str]:
    return [f"{m} imports {n}" for m, names in sorted(IMPORTS.items()) for n in sorted(names) if not allowed(m, n)]


def test_every_module_of_the_table_has_its_place():
    placed = CORE | SEAT_HARDWARE | OUTPUTS | WIRING
    table = {m for m in IMPORTS if m.split(".")[0] == "table" and not _is_core(m)}
    assert table - placed == set(), "place these in the test's groups"
    assert placed - CORE - {m for m in IMPORTS} == set(), "these modules are gone"


def test_the_core_imports_only_the_core():
    assert _offending(lambda m, n: not _is_core(m) or _is_core(n)) == []


def test_vision_uses_only_the_cores_values():
    def allowed(m: str, n: str) -> bool:
        drawn = m.startswith(TRAINERS) and n == "sim.render"
        return not m.startswith("vision") or n.startswith("vision") or _is_core(n) or drawn

    assert _offending(allowed) == []


def test_the_bridge_uses_the_core_and_the_seat_hardwares_values():
    def allowed(m: str, n: str) -> bool:
        return (
            not m.startswith("firmware_bridge") or n.startswith("firmware_bridge") or _is_core(n) or n in SEAT_HARDWARE
        )

    assert _offending(allowed) == []


@pytest.mark.parametrize(
    ("group", "may_import"), [(SEAT_HARDWARE, CORE | SEAT_HARDWARE), (OUTPUTS, CORE | SEAT_HARDWARE | OUTPUTS)]
)
def test_hardware_and_outputs_reach_neither_vision_nor_the_bridge_nor_the_wiring(group, may_import):
    assert _offending(lambda m, n: m not in group or _is_core(n) or n in may_import) == []


def test_nothing_shipped_loads_the_simulator_or_the_benchmarks():
    def allowed(m: str, n: str) -> bool:
        shipped, loads = m.split(".")[0] in SHIPPED, n.split(".")[0] in ("sim", "benchmarks")
        return not (shipped and loads) or (m, n) == SIM_DOOR or (m.startswith(TRAINERS) and n == "sim.render")

    assert _offending(allowed) == []


def test_the_simulators_door_is_opened_only_for_the_simulator():
    """``table.cli`` imports ``sim.cli`` inside its ``main``, for ``cardtable sim`` alone."""
    tree = ast.parse((ROOT / "table" / "cli.py").read_text())
    top = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
    assert all(getattr(n, "module", None) != "sim.cli" for n in top)


def test_no_module_imports_itself_through_others():
    """Every import, in functions and for type checks too: no circle of modules."""
    done: set[str] = set()
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return None
        path.append(module)
        for name in sorted(IMPORTS.get(module, ())):
            found = visit(name)
            if found:
                return found
        path.pop()
        done.add(module)
        return None

    circles = [c for c in (visit(m) for m in sorted(IMPORTS)) if c]
    assert circles == []
