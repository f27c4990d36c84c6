"""A table configuration whose camera shows rendered pictures: ``table.example.toml`` with an
800 x 600 camera at 5 frames a second looking straight down (its calibration written beside it),
for the tests and benchmarks that run ``cardtable run`` on a rendered table."""

from __future__ import annotations

from pathlib import Path

import cv2

from sim.render import CardPlacement, SceneSpec, render_scene
from vision.calibration import calibrate_from_points

EXAMPLE = Path(__file__).resolve().parents[1] / "table.example.toml"
SIZE = (800, 600)


def rendered_config(folder: Path, source: str) -> Path:
    """``folder/table.toml`` and its calibration, the camera ``source`` (``folder:frames``,
    ``still:table.png``, ...); the file's path."""
    corners = [[0, 0], [SIZE[0], 0], [SIZE[0], SIZE[1]], [0, SIZE[1]]]
    calibrate_from_points(corners, corners, SIZE).save(folder / "calibration.json")
    text = EXAMPLE.read_text(encoding="utf-8").replace('source = "usb:0"', f'source = "{source}"')
    for old, new in (("width = 1280", "width = 800"), ("height = 720", "height = 600"), ("fps = 15", "fps = 5")):
        text = text.replace(old, new)
    text = text.replace("lateness_ms = 450 ", "lateness_ms = 1200 ")
    (folder / "table.toml").write_text(text, encoding="utf-8")
    return folder / "table.toml"


def _turn(turns: tuple[float, ...], n: int) -> float:
    return turns[n] if n < len(turns) else 0.0


def pile_picture(cards: tuple[str, ...], seed: int, turns: tuple[float, ...] = ()) -> object:
    """The table with ``cards`` laid on the pile one over another (the last on top), as the
    camera sees it; ``turns``: degrees each card lies turned further (a card laid again lands
    otherwise)."""
    angles = (15.0, -25.0, 40.0, -5.0, 30.0, -35.0)
    placed = tuple(
        CardPlacement(code, 400 + 6 * (n % 3), 300 + 4 * (n % 2), angles[n % len(angles)] + _turn(turns, n), 200)
        for n, code in enumerate(cards)
    )
    return render_scene(SceneSpec(cards=placed, seed=seed, noise=3.0))[0]


def write_picture(path: Path, image: object) -> None:
    """Replace a picture at once (written beside it, then renamed over it): a ``still:`` camera
    never reads half of one."""
    fresh = path.with_name(path.stem + ".new" + path.suffix)
    cv2.imwrite(str(fresh), image)
    fresh.replace(path)
