"""Draws the vision pictures of the README and docs/vision.md: ``python docs/images/make_pictures.py``
(from the repository root)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "vision"))

from test_calibration import MARKER_MM, TABLE_H, TABLE_W, camera_view, flat_table

from benchmarks.photos import photos_folder
from sim.render import CardPlacement, SceneSpec, render_scene
from vision.calibration import calibrate_from_markers
from vision.identify import draw, identify
from vision.overlay import draw_overlay
from vision.segment import builtin_segmenter
from vision.zones import default_zones

HERE = Path(__file__).resolve().parent
REAL = photos_folder() / "IMG_2451.JPG"
ON_FLOOR = photos_folder() / "IMG_2572.JPG"  # three cards on a pale tiled floor


def segmenter_picture(photo: np.ndarray) -> np.ndarray:
    """The photo with what was read, beside the segmenter's map (white: a card's face)."""
    face, cell = builtin_segmenter().face_map(photo)
    big = cv2.resize(face, None, fx=cell, fy=cell, interpolation=cv2.INTER_NEAREST)[: photo.shape[0], : photo.shape[1]]
    grey = cv2.cvtColor((big * 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)
    return np.hstack([draw(photo, identify(photo)), grey])


def main() -> None:
    cards = (
        CardPlacement("QH", 250, 300, 12, 210),
        CardPlacement("7C", 520, 260, -25, 210, style="modern"),
        CardPlacement("10D", 600, 420, 80, 210, style="vintage"),
        CardPlacement("AS", 560, 470, 95, 210, style="vintage"),
        CardPlacement("back", 130, 470, 40, 210),
    )
    image, _ = render_scene(
        SceneSpec(table="wood", cards=cards, light=0.5, glare=0.3, noise=3.0, seed=random.Random(3).random())
    )
    cv2.imwrite(str(HERE / "identify-rendered.jpg"), draw(image, identify(image)), [cv2.IMWRITE_JPEG_QUALITY, 85])
    if REAL.is_file():
        photo = cv2.imread(str(REAL))
        cv2.imwrite(str(HERE / "identify-photo.jpg"), draw(photo, identify(photo)), [cv2.IMWRITE_JPEG_QUALITY, 85])
    if ON_FLOOR.is_file():
        picture = segmenter_picture(cv2.imread(str(ON_FLOOR)))
        cv2.imwrite(str(HERE / "segmenter.jpg"), picture, [cv2.IMWRITE_JPEG_QUALITY, 85])
    view = camera_view(flat_table())
    calibration = calibrate_from_markers(view, MARKER_MM)
    overlay = draw_overlay(view, calibration, default_zones(4, TABLE_W, TABLE_H))
    cv2.imwrite(str(HERE / "calibration.jpg"), cv2.resize(overlay, (770, 574)), [cv2.IMWRITE_JPEG_QUALITY, 85])


if __name__ == "__main__":
    main()
