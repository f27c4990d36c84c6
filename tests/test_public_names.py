"""The tests use the project's public names: what they import from a module of the project, read
off one, or swap out in one with ``monkeypatch`` is a name without a leading underscore. A private
name can then change without a test noticing, and a function a test needs is public, with a
docstring saying what it does."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("table", "vision", "firmware_bridge", "sim", "benchmarks")


def _project_modules() -> set[str]:
    return {
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
    }


MODULES = _project_modules()


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _module_names(tree: ast.AST) -> dict[str, str]:
    """The names a test file binds to the project's modules, and the module each stands for."""
    bound: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in MODULES:
                    bound[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                if f"{node.module}.{alias.name}" in MODULES:
                    bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return bound


def _dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and (inner := _dotted(node.value)) is not None:
        return f"{inner}.{node.attr}"
    return None


def _private_uses(source: str, where: str) -> list[str]:
    tree = ast.parse(source, where)
    bound = _module_names(tree)

    def module_of(node: ast.AST) -> str | None:
        name = _dotted(node)
        if name is None:
            return None
        return bound.get(name) or (name if name in MODULES else None)

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] in PACKAGES:
                found += [
                    f"{where}:{node.lineno} imports {node.module}.{a.name}" for a in node.names if _private(a.name)
                ]
        elif isinstance(node, ast.Attribute) and _private(node.attr) and (module := module_of(node.value)):
            found.append(f"{where}:{node.lineno} reads {module}.{node.attr}")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "setattr"
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
            and _private(node.args[1].value)
            and (module := module_of(node.args[0]))
        ):
            found.append(f"{where}:{node.lineno} swaps {module}.{node.args[1].value}")
    return found


def test_the_tests_use_only_the_projects_public_names() -> None:
    found = [
        use
        for path in sorted((ROOT / "tests").rglob("*.py"))
        for use in _private_uses(path.read_text(), str(path.relative_to(ROOT)))
    ]
    assert found == []


def test_the_check_finds_a_private_name_imported_read_or_swapped() -> None:
    sample = (
        "import vision.indices as indices_module\n"
        "from table.live import _now\n"
        "from vision import detect\n"
        "def test(monkeypatch):\n"
        "    indices_module._ink\n"
        "    monkeypatch.setattr(detect, '_explained', None)\n"
        "    detect.explained\n"
    )
    assert sorted(use.split(" ", 1)[1] for use in _private_uses(sample, "sample.py")) == [
        "imports table.live._now",
        "reads vision.indices._ink",
        "swaps vision.detect._explained",
    ]
