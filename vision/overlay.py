"""The calibration and the zones drawn on a camera image, to check them by eye
(``cardtable calibrate --overlay``)."""

from __future__ import annotations

import math
from collections.abc import Iterable

import cv2
import numpy as np

from vision.calibration import Calibration, checked_image, find_markers, gray_of, marker_centre
from vision.zones import Zone

KIND_COLOURS = {  # BGR
    "pile": (0, 200, 255),
    "seat": (255, 160, 0),
    "stock": (200, 0, 200),
    "trump": (0, 0, 255),
    "cut": (0, 255, 0),
}


def _pixels(points: np.ndarray) -> np.ndarray | None:
    """Float pixel points as OpenCV's fixed-point int32 (4 fraction bits), or None if not drawable."""
    if not np.isfinite(points).all():
        return None
    return np.round(np.clip(points, -1e7, 1e7) * 16).astype(np.int32).reshape(-1, 1, 2)


def _label(image: np.ndarray, text: str, at: np.ndarray, colour: tuple[int, int, int], scale: float) -> None:
    if not np.isfinite(at).all():
        return
    size, _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
    x = int(np.clip(at[0] - size[0] / 2, -1e6, 1e6))
    y = int(np.clip(at[1] + size[1] / 2, -1e6, 1e6))
    thickness = max(1, round(scale * 2))
    cv2.putText(image, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), thickness + 2, cv2.LINE_AA)
    cv2.putText(image, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thickness, cv2.LINE_AA)


def draw_overlay(image: np.ndarray, calibration: Calibration, zones: Iterable[Zone] = ()) -> np.ndarray:
    """A copy of the image with the table outline, a 100 mm grid, the zones and the markers found.

    Everything but the markers is drawn from the calibration, the markers from the image itself:
    where the two disagree, the calibration is off (or the camera has moved).
    """
    checked_image(image)
    out = image.copy() if image.ndim == 3 and image.shape[2] == 3 else cv2.cvtColor(gray_of(image), cv2.COLOR_GRAY2BGR)
    height, width = out.shape[:2]
    scale = max(0.4, min(width, height) / 1200)
    thick = max(1, round(min(width, height) / 500))
    outline = np.array(calibration.outline_mm, dtype=np.float64).reshape(-1, 2)
    if len(outline) >= 3:
        x_min, y_min = outline.min(axis=0)
        x_max, y_max = outline.max(axis=0)
        grid = (200, 200, 200)
        for x in np.arange(math.ceil(x_min / 100) * 100, x_max + 1e-6, 100.0):
            line = _pixels(calibration.to_image(np.linspace([x, y_min], [x, y_max], 2)))
            if line is not None:
                cv2.polylines(out, [line], False, grid, 1, cv2.LINE_AA, shift=4)
        for y in np.arange(math.ceil(y_min / 100) * 100, y_max + 1e-6, 100.0):
            line = _pixels(calibration.to_image(np.linspace([x_min, y], [x_max, y], 2)))
            if line is not None:
                cv2.polylines(out, [line], False, grid, 1, cv2.LINE_AA, shift=4)
        table = _pixels(calibration.to_image(outline))
        if table is not None:
            cv2.polylines(out, [table], True, (0, 255, 255), thick + 1, cv2.LINE_AA, shift=4)
        _label(out, "0,0", calibration.to_image(np.array([0.0, 0.0])), (0, 255, 255), scale)
    for zone in zones:
        colour = KIND_COLOURS.get(zone.kind, (255, 255, 255))
        polygon = _pixels(calibration.to_image(np.array(zone.polygon_mm)))
        if polygon is not None:
            cv2.polylines(out, [polygon], True, colour, thick, cv2.LINE_AA, shift=4)
        _label(out, zone.name, calibration.to_image(np.array(zone.centre)), colour, scale)
    for marker_id, corners in find_markers(image).items():
        polygon = _pixels(corners)
        if polygon is not None:
            cv2.polylines(out, [polygon], True, (0, 255, 0), thick + 1, cv2.LINE_AA, shift=4)
        _label(out, f"#{marker_id}", marker_centre(corners), (0, 255, 0), scale)
    return out
