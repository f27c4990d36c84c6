"""The four ArUco markers the table is calibrated from, drawn to print: one on each A4 page at a
stated size, with its place on the table (``vision.calibration.CORNER_MARKERS``) and a 50 mm bar
to check that the printer kept the scale (``cardtable markers --out markers.pdf``)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.calibration import CORNER_MARKERS, MARKER_DICTIONARY, CalibrationError

A4_MM = (210.0, 297.0)
DPI = 300
MM = DPI / 25.4  # pixels a millimetre
SIZES_MM = (20.0, 180.0)  # a marker smaller than this is hard to see from above; larger fits no A4 page
CHECK_BAR_MM = 50.0


def _px(mm: float) -> int:
    return round(mm * MM)


def marker_page(marker_id: int, size_mm: float) -> np.ndarray:
    """One white A4 page (grey, ``DPI``) with the marker ``size_mm`` wide in its middle, a quiet
    white border round it, what it is and where it goes, and the check bar."""
    w, h = _px(A4_MM[0]), _px(A4_MM[1])
    page = np.full((h, w), 255, np.uint8)
    side = _px(size_mm)
    marker = cv2.aruco.generateImageMarker(cv2.aruco.getPredefinedDictionary(MARKER_DICTIONARY), marker_id, side)
    top, left = (h - side) // 2, (w - side) // 2
    page[top : top + side, left : left + side] = marker
    font, scale, ink = cv2.FONT_HERSHEY_SIMPLEX, MM * 0.9, 2 * round(MM / 6) + 1
    where = CORNER_MARKERS.get(marker_id, "")
    lines = (
        f"cardtable marker {marker_id}: the table's {where} corner",
        f"{size_mm:g} mm wide; its centre on the corner",
    )
    for n, text in enumerate(lines):
        cv2.putText(page, text, (_px(15), _px(20) + n * _px(9)), font, scale / 8, 0, max(1, ink // 2), cv2.LINE_AA)
    bar_top = h - _px(30)
    cv2.rectangle(page, (_px(15), bar_top), (_px(15) + _px(CHECK_BAR_MM) - 1, bar_top + _px(4)), 0, -1)
    said = f"{CHECK_BAR_MM:g} mm: measure it; printed at another scale, print again at 100%"
    cv2.putText(page, said, (_px(15), bar_top + _px(11)), font, scale / 10, 0, max(1, ink // 3), cv2.LINE_AA)
    return page


def write_markers(path: str | Path, size_mm: float = 60.0) -> list[Path]:
    """The four markers, a page each, as a PDF (or PNG pages ``NAME-0.png`` ... for a ``.png``
    path): the files written."""
    if not SIZES_MM[0] <= size_mm <= SIZES_MM[1]:
        raise CalibrationError(f"a marker {size_mm:g} mm wide: give {SIZES_MM[0]:g} to {SIZES_MM[1]:g} mm")
    path = Path(path)
    kind = path.suffix.lower()
    if kind not in (".pdf", ".png"):
        raise CalibrationError(f"markers are written as a .pdf, or as .png pages: not {path.name!r}")
    pages = [marker_page(marker_id, size_mm) for marker_id in sorted(CORNER_MARKERS)]
    if kind == ".png":
        written = [path.with_name(f"{path.stem}-{marker_id}.png") for marker_id in range(len(pages))]
        for page_path, page in zip(written, pages, strict=True):
            if not cv2.imwrite(str(page_path), page):
                raise CalibrationError(f"cannot write {page_path}")
        return written
    from PIL import Image

    images = [Image.fromarray(page) for page in pages]
    try:
        images[0].save(path, "PDF", resolution=DPI, save_all=True, append_images=images[1:])
    except OSError as exc:
        raise CalibrationError(f"cannot write {path}: {exc.strerror or exc}") from None
    return [path]
