"""Camera-to-table calibration and the table's zones.

Table coordinates are millimetres on the table surface: the origin is the centre of the top-left
marker, x grows to the right and y downwards, as the camera looks at the table. Four ArUco markers
(dictionary DICT_4X4_50) with ids 0, 1, 2 and 3 lie at the table's top-left, top-right,
bottom-right and bottom-left corners; the table configuration says where their centres are in mm
(:func:`default_marker_mm` for a plain rectangle). One camera image of the markers gives a
homography from camera pixels to table mm (:func:`calibrate_from_markers`); four points clicked by
hand do too (:func:`calibrate_from_points`). The homography assumes a flat table and a lens without
noticeable distortion: a wide-angle lens bends straight edges and should be undistorted first.

Zones are named polygons in table mm: the ``pile`` in the centre, each player's ``seat`` area, the
``stock``, the ``trump`` card's place and the ``cut``. :func:`zone_at` says which zone a card's
centre lies in. ``vision.overlay.draw_overlay`` draws all of it on a camera image, to check by eye.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from table.errors import CardtableError

MARKER_DICTIONARY = cv2.aruco.DICT_4X4_50
CORNER_MARKERS = {0: "top-left", 1: "top-right", 2: "bottom-right", 3: "bottom-left"}
METHODS = ("markers", "points")
FORMAT = "cardtable-calibration/1"
MOST_BYTES = 1 << 20  # a calibration is a few kilobytes: more than this is no calibration


class CalibrationError(CardtableError, ValueError):
    """A calibration that cannot be made or loaded; the message names what was wrong."""


class ZoneError(CalibrationError):
    """A zone definition that cannot be used; the message names the zone and the key."""


# --- markers -------------------------------------------------------------------------------------


def default_marker_mm(width_mm: float, height_mm: float) -> dict[int, tuple[float, float]]:
    """Marker centres of a plain rectangle ``width_mm`` by ``height_mm`` between marker centres."""
    for what, value in (("width_mm", width_mm), ("height_mm", height_mm)):
        if not is_number(value) or value <= 0:
            raise CalibrationError(f"{what} must be a positive number of millimetres, not {value!r}")
    w, h = float(width_mm), float(height_mm)
    return {0: (0.0, 0.0), 1: (w, 0.0), 2: (w, h), 3: (0.0, h)}


@lru_cache(maxsize=1)
def _detector() -> cv2.aruco.ArucoDetector:
    """One detector for the table's dictionary, with sub-pixel corners (they set the accuracy)."""
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(MARKER_DICTIONARY), params)


def checked_image(image: Any, what: str = "image") -> np.ndarray:
    if (
        not isinstance(image, np.ndarray)
        or image.dtype != np.uint8
        or not (image.ndim == 2 or (image.ndim == 3 and image.shape[2] in (1, 3, 4)))
        or image.shape[0] == 0
        or image.shape[1] == 0
    ):
        got = f"{image.dtype} {image.shape}" if isinstance(image, np.ndarray) else type(image).__name__
        raise CalibrationError(f"{what} must be a uint8 array (height, width) or (height, width, 3), not {got}")
    return image


def gray_of(image: np.ndarray) -> np.ndarray:
    if image.ndim == 2:
        return image
    if image.shape[2] == 1:
        return image[:, :, 0]
    code = cv2.COLOR_BGRA2GRAY if image.shape[2] == 4 else cv2.COLOR_BGR2GRAY
    return cv2.cvtColor(image, code)


def _detect(image: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """Every marker found, with repeats: (id, 4x2 corners in pixels, clockwise from its top-left)."""
    corners, ids, _rejected = _detector().detectMarkers(gray_of(checked_image(image)))
    if ids is None:
        return []
    return [(int(i), np.asarray(c, dtype=np.float64).reshape(4, 2)) for c, i in zip(corners, ids.ravel(), strict=True)]


def _sightings(image: np.ndarray) -> dict[int, list[np.ndarray]]:
    """Every marker id found, with each detection of it (a marker printed twice is seen twice)."""
    found: dict[int, list[np.ndarray]] = {}
    for marker_id, corners in _detect(image):
        found.setdefault(marker_id, []).append(corners)
    return found


def find_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """Marker id -> its 4x2 corner points in pixels (clockwise from the marker's own top-left).

    A marker seen twice keeps its first detection; :func:`calibrate_from_markers` refuses that.
    """
    return {marker_id: seen[0] for marker_id, seen in _sightings(image).items()}


def marker_centre(corners: np.ndarray) -> np.ndarray:
    """The centre of a marker seen in perspective: where its diagonals cross (not the corners' mean)."""
    c = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    p, r = c[0], c[2] - c[0]
    q, s = c[1], c[3] - c[1]
    denom = r[0] * s[1] - r[1] * s[0]
    if abs(denom) < 1e-12:
        return c.mean(axis=0)
    t = ((q[0] - p[0]) * s[1] - (q[1] - p[1]) * s[0]) / denom
    return p + t * r


# --- the calibration -----------------------------------------------------------------------------


def is_number(value: Any) -> bool:
    return (
        isinstance(value, int | float | np.integer | np.floating)
        and not isinstance(value, bool)
        and math.isfinite(value)
    )


def polygon_mm(values: Any, what: str, minimum: int = 3) -> tuple[tuple[float, float], ...]:
    if not isinstance(values, Sequence | np.ndarray) or isinstance(values, str):
        raise ZoneError(f"{what} must be a list of [x, y] points in mm, not {values!r}")
    points: list[tuple[float, float]] = []
    for p in values:
        if not isinstance(p, Sequence | np.ndarray) or isinstance(p, str) or len(p) != 2:
            raise ZoneError(f"{what}: {p!r} is not an [x, y] point")
        if not all(is_number(v) for v in p):
            raise ZoneError(f"{what}: {list(p)!r} must be two finite numbers of mm")
        points.append((float(p[0]), float(p[1])))
    if len(points) < minimum:
        raise ZoneError(f"{what} needs at least {minimum} points, not {len(points)}")
    return tuple(points)


def _apply(matrix: np.ndarray, points: Any, what: str) -> np.ndarray:
    """Map points of shape (2,), (N, 2) or (N, 1, 2) through a homography, keeping the shape."""
    pts = np.asarray(points, dtype=np.float64)
    if pts.ndim == 0 or pts.shape[-1] != 2:
        raise CalibrationError(f"{what}: points must be (x, y) pairs, not an array of shape {pts.shape}")
    flat = pts.reshape(-1, 2)
    mapped = flat @ matrix[:, :2].T + matrix[:, 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        out = mapped[:, :2] / mapped[:, 2:3]
    return out.reshape(pts.shape)


@dataclass(frozen=True, eq=False)
class Calibration:
    """The mapping from one camera's pixels to table millimetres.

    ``homography`` is 3x3, camera pixel -> table mm. ``image_size`` is (width, height) of the images
    it was made from (None when unknown): a camera switched to another resolution needs a new
    calibration, which :meth:`check_image` catches. ``reprojection_error`` is the RMS distance in mm
    between the table points used and where the homography puts them; with exactly four points the
    fit is exact and the error is 0, so it only means something for markers with a known size or
    more than four points. ``outline_mm`` is the table outline (the marker centres, or the points
    given by hand) that ``vision.overlay.draw_overlay`` draws.
    """

    homography: np.ndarray
    image_size: tuple[int, int] | None
    method: str
    reprojection_error: float
    outline_mm: tuple[tuple[float, float], ...] = ()
    _inverse: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        try:
            h = np.array(self.homography, dtype=np.float64)
        except (TypeError, ValueError):
            raise CalibrationError(f"homography must be a 3x3 matrix of numbers, not {self.homography!r}") from None
        if h.shape != (3, 3) or not np.isfinite(h).all():
            raise CalibrationError(f"homography must be a 3x3 matrix of finite numbers, not shape {h.shape}")
        if abs(h[2, 2]) > 1e-12:
            h = h / h[2, 2]
        try:
            inverse = np.linalg.inv(h)
        except np.linalg.LinAlgError:
            raise CalibrationError("homography is singular: it maps the image onto a line") from None
        if not np.isfinite(inverse).all() or abs(np.linalg.det(h)) < 1e-15:
            raise CalibrationError("homography is singular: it maps the image onto a line")
        h.setflags(write=False)
        inverse.setflags(write=False)
        size = self.image_size
        if size is not None:
            if not isinstance(size, tuple | list) or len(size) != 2 or any(type(v) is not int or v <= 0 for v in size):
                raise CalibrationError(f"image_size must be (width, height) in whole pixels, not {size!r}")
            size = (size[0], size[1])
        if self.method not in METHODS:
            raise CalibrationError(f"method must be one of {', '.join(METHODS)}, not {self.method!r}")
        if not is_number(self.reprojection_error) or self.reprojection_error < 0:
            raise CalibrationError(f"reprojection_error must be a number from 0, not {self.reprojection_error!r}")
        outline = polygon_mm(self.outline_mm, "outline_mm", minimum=0) if len(self.outline_mm) else ()
        object.__setattr__(self, "homography", h)
        object.__setattr__(self, "image_size", size)
        object.__setattr__(self, "reprojection_error", float(self.reprojection_error))
        object.__setattr__(self, "outline_mm", outline)
        object.__setattr__(self, "_inverse", inverse)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Calibration):
            return NotImplemented
        return (
            np.array_equal(self.homography, other.homography)
            and self.image_size == other.image_size
            and self.method == other.method
            and self.reprojection_error == other.reprojection_error
            and self.outline_mm == other.outline_mm
        )

    __hash__ = None  # type: ignore[assignment]

    def to_table(self, points_px: Any) -> np.ndarray:
        """Camera pixels -> table mm; shape (2,), (N, 2) or (N, 1, 2) is kept."""
        return _apply(self.homography, points_px, "to_table")

    def to_image(self, points_mm: Any) -> np.ndarray:
        """Table mm -> camera pixels; shape (2,), (N, 2) or (N, 1, 2) is kept."""
        return _apply(self._inverse, points_mm, "to_image")

    def check_image(self, image: np.ndarray) -> None:
        """Refuse an image of another size than the calibration's: its pixels would land wrongly."""
        height, width = checked_image(image).shape[:2]
        if self.image_size is not None and (width, height) != self.image_size:
            w, h = self.image_size
            raise CalibrationError(
                f"the image is {width}x{height} but the calibration was made at {w}x{h}; calibrate again"
            )

    def to_json(self) -> dict[str, Any]:
        return {
            "calibration": FORMAT,
            "method": self.method,
            "image_size": None if self.image_size is None else list(self.image_size),
            "homography": [[float(v) for v in row] for row in self.homography],
            "reprojection_error": self.reprojection_error,
            "outline_mm": [list(p) for p in self.outline_mm],
        }

    @classmethod
    def from_json(cls, data: Any) -> Calibration:
        """Decode :meth:`to_json`'s output, naming any missing, unknown or bad key."""
        if not isinstance(data, dict):
            raise CalibrationError(f"a calibration must be a JSON object, not {type(data).__name__}")
        if data.get("calibration") != FORMAT:
            raise CalibrationError(f"not a calibration of format {FORMAT} (calibration: {data.get('calibration')!r})")
        known = {"calibration", "method", "image_size", "homography", "reprojection_error", "outline_mm"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise CalibrationError(f"unknown key(s) {', '.join(unknown)}")
        missing = [k for k in ("method", "image_size", "homography", "reprojection_error") if k not in data]
        if missing:
            raise CalibrationError(f"missing key(s) {', '.join(missing)}")
        size = data["image_size"]
        if isinstance(size, list):
            size = tuple(size)
        outline = data.get("outline_mm", [])
        if not isinstance(outline, list):
            raise CalibrationError(f"outline_mm must be a list of [x, y] points, not {outline!r}")
        matrix = data["homography"]
        if not (
            isinstance(matrix, list)
            and len(matrix) == 3
            and all(isinstance(row, list) and len(row) == 3 and all(is_number(v) for v in row) for row in matrix)
        ):
            raise CalibrationError(f"homography must be 3 rows of 3 numbers, not {matrix!r}")
        return cls(
            homography=np.array(matrix, dtype=np.float64),
            image_size=size,
            method=data["method"],
            reprojection_error=data["reprojection_error"],
            outline_mm=tuple(tuple(p) if isinstance(p, list) else p for p in outline),
        )

    def save(self, path: str | Path) -> None:
        """Write the calibration as JSON, atomically (a power cut leaves the old file or the new one)."""
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp")
        try:
            tmp.write_text(json.dumps(self.to_json(), indent=2) + "\n", encoding="utf-8")
            os.replace(tmp, path)
        except OSError as exc:
            with contextlib.suppress(OSError):  # (no folder to hold it: nothing to take away either)
                tmp.unlink(missing_ok=True)
            raise CalibrationError(f"calibration file {path}: cannot write it ({exc.strerror or exc})") from None

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        """Read a file written by :meth:`save`; a bad file is refused with its name and the fault."""
        path = Path(path)
        try:
            if path.exists() and not path.is_file():  # a device (/dev/zero never ends), a folder
                raise CalibrationError(f"calibration file {path}: not a file")
            with open(path, "rb") as f:
                raw = f.read(MOST_BYTES + 1)
            if len(raw) > MOST_BYTES:
                raise CalibrationError(f"calibration file {path}: over {MOST_BYTES} bytes, no calibration")
            text = raw.decode("utf-8")
        except FileNotFoundError:
            raise CalibrationError(f"calibration file {path} does not exist") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise CalibrationError(f"calibration file {path}: cannot read it ({exc})") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise CalibrationError(f"calibration file {path}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
        try:
            return cls.from_json(data)
        except CalibrationError as exc:
            raise CalibrationError(f"calibration file {path}: {exc}") from None


def _points(values: Any, what: str) -> np.ndarray:
    try:
        pts = np.array(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise CalibrationError(f"{what} must be a list of (x, y) points, not {values!r}") from None
    if pts.ndim != 2 or pts.shape[1] != 2:
        raise CalibrationError(f"{what} must be a list of (x, y) points, not an array of shape {pts.shape}")
    if not np.isfinite(pts).all():
        raise CalibrationError(f"{what}: every coordinate must be a finite number")
    return pts


def _area2(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> float:
    """Twice the signed area of triangle abc: its sign is the triangle's orientation."""
    return float((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]))


def _check_correspondence(pixels: np.ndarray, table: np.ndarray, names: Sequence[str], hint: str) -> None:
    """Refuse points on one line and image/table point lists that are not in the same order.

    A homography of a table seen from above keeps every triangle's orientation, so a triangle that
    turns over between the table and the image means two points were swapped (or the image is
    mirrored).
    """
    n = len(pixels)
    scale_px = float(np.ptp(pixels, axis=0).max()) ** 2
    scale_mm = float(np.ptp(table, axis=0).max()) ** 2
    if scale_px == 0 or scale_mm == 0:
        raise CalibrationError(f"the {', '.join(names)} are all at one place; {hint}")
    flipped = 0
    for i, j, k in itertools.combinations(range(n), 3):
        a_px = _area2(pixels[i], pixels[j], pixels[k])
        a_mm = _area2(table[i], table[j], table[k])
        small_px, small_mm = abs(a_px) < 1e-3 * scale_px, abs(a_mm) < 1e-3 * scale_mm
        if n == 4 and (small_px or small_mm):
            where = "in the image" if small_px else "on the table"
            raise CalibrationError(f"{names[i]}, {names[j]} and {names[k]} lie on one line {where}; {hint}")
        if not (small_px or small_mm) and (a_px > 0) != (a_mm > 0):
            flipped += 1
    if flipped:
        raise CalibrationError(
            f"the image positions and the table positions of the {', '.join(names)} are not in the same order "
            f"(or the image is mirrored); {hint}"
        )


def _fit(pixels: np.ndarray, table: np.ndarray) -> np.ndarray:
    matrix, _mask = cv2.findHomography(pixels, table, 0)
    if matrix is None or not np.isfinite(matrix).all():
        raise CalibrationError("cannot fit a mapping to these points (are three of them on one line?)")
    return matrix


def _rms(matrix: np.ndarray, pixels: np.ndarray, table: np.ndarray) -> float:
    mapped = _apply(matrix, pixels, "fit")
    return float(np.sqrt(np.mean(np.sum((mapped - table) ** 2, axis=1))))


def _outline(table: np.ndarray) -> tuple[tuple[float, float], ...]:
    """The points in order round their centre, so any four given by hand draw a simple outline."""
    centre = table.mean(axis=0)
    order = np.argsort(np.arctan2(table[:, 1] - centre[1], table[:, 0] - centre[0]))
    return tuple((float(x), float(y)) for x, y in table[order])


def calibrate_from_points(pixels: Any, table_mm: Any, image_size: tuple[int, int] | None = None) -> Calibration:
    """A calibration from points clicked by hand: ``pixels[i]`` in the image is ``table_mm[i]`` on the table.

    Four points (or more, fitted by least squares), no three on one line, in the same order in
    both lists. Give ``image_size`` (width, height) so the calibration can refuse other resolutions.
    """
    px = _points(pixels, "pixels")
    mm = _points(table_mm, "table_mm")
    if len(px) != len(mm):
        raise CalibrationError(f"{len(px)} image points but {len(mm)} table points; give one table point for each")
    if len(px) < 4:
        raise CalibrationError(f"a calibration needs 4 points, not {len(px)}")
    names = [f"point {i}" for i in range(len(px))]
    _check_correspondence(px[:4], mm[:4], names[:4], "give the points in the same order in both lists")
    matrix = _fit(px, mm)
    return Calibration(matrix, image_size, "points", _rms(matrix, px, mm), _outline(mm))


def _check_marker_mm(marker_mm: Any) -> dict[int, np.ndarray]:
    if not isinstance(marker_mm, Mapping):
        raise CalibrationError(f"marker_mm must map marker ids to (x, y) in mm, not {type(marker_mm).__name__}")
    out: dict[int, np.ndarray] = {}
    for key, value in marker_mm.items():
        if isinstance(key, bool) or not isinstance(key, int | np.integer) or not 0 <= key < 50:
            raise CalibrationError(f"marker_mm: {key!r} is not a marker id (0-49 of DICT_4X4_50)")
        if not isinstance(value, Sequence | np.ndarray) or len(value) != 2 or not all(is_number(v) for v in value):
            raise CalibrationError(f"marker_mm: marker {key}: position must be (x, y) in mm, not {value!r}")
        out[int(key)] = np.array(value, dtype=np.float64)
    if len(out) < 4:
        raise CalibrationError(f"marker_mm: a calibration needs 4 markers, not {len(out)}")
    return out


def calibrate_from_markers(
    image: np.ndarray, marker_mm: Mapping[int, tuple[float, float]], *, marker_size_mm: float | None = None
) -> Calibration:
    """A calibration from one image showing the table's markers.

    ``marker_mm`` gives each marker's centre in table mm (:func:`default_marker_mm`). Every one of
    them must be found, once. With ``marker_size_mm`` (the printed black square's side) the fit
    uses the markers' 16 corners instead of their 4 centres, assuming the markers lie square to the
    table's edges (any way round): a little more accurate, and ``reprojection_error`` then says how
    well the picture agrees with the table's measurements.
    """
    wanted = _check_marker_mm(marker_mm)
    if marker_size_mm is not None and (not is_number(marker_size_mm) or marker_size_mm <= 0):
        raise CalibrationError(f"marker_size_mm must be a positive number, not {marker_size_mm!r}")
    sightings = _sightings(image)
    repeated = sorted(i for i in wanted if len(sightings.get(i, ())) > 1)
    if repeated:
        raise CalibrationError(f"marker(s) {', '.join(map(str, repeated))} seen more than once; cover the extra copies")
    missing = sorted(i for i in wanted if i not in sightings)
    if missing:
        found = ", ".join(map(str, sorted(sightings))) or "none"
        raise CalibrationError(
            f"marker(s) {', '.join(map(str, missing))} not found in the image (found: {found}); "
            "check that every corner marker is in view, uncovered and lit"
        )
    corners = {i: sightings[i][0] for i in wanted}
    ids = sorted(wanted)
    centres_px = np.array([marker_centre(corners[i]) for i in ids])
    centres_mm = np.array([wanted[i] for i in ids])
    names = [f"marker {i}" + (f" ({CORNER_MARKERS[i]})" if i in CORNER_MARKERS else "") for i in ids]
    hint = "check that markers 0, 1, 2, 3 are at the top-left, top-right, bottom-right, bottom-left corners"
    _check_correspondence(centres_px[:4], centres_mm[:4], names[:4], hint)
    matrix = _fit(centres_px, centres_mm)
    error = _rms(matrix, centres_px, centres_mm)
    if marker_size_mm is not None:
        half = float(marker_size_mm) / 2
        square = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
        px_all, mm_all = [], []
        for i in ids:
            seen_mm = _apply(matrix, corners[i], "fit")
            ideal = wanted[i] + square
            # The detected corners run clockwise from the marker's own top-left; pick the turn of
            # the ideal square that matches them best, so a marker may lie any way round.
            shift = min(range(4), key=lambda r: float(np.sum((seen_mm - np.roll(ideal, -r, axis=0)) ** 2)))
            px_all.append(corners[i])
            mm_all.append(np.roll(ideal, -shift, axis=0))
        px_arr, mm_arr = np.vstack(px_all), np.vstack(mm_all)
        matrix = _fit(px_arr, mm_arr)
        error = _rms(matrix, px_arr, mm_arr)
    height, width = image.shape[:2]
    outline = tuple((float(x), float(y)) for x, y in centres_mm) if ids[:4] == [0, 1, 2, 3] else _outline(centres_mm)
    return Calibration(matrix, (int(width), int(height)), "markers", error, outline)


# mm: a marker this far from where the calibration puts it has moved. Far beyond the markers' own
# jitter (the calibration maps them back within 2 mm), and a card's width short of putting a card
# in the zone beside its own.
MOVED_MM = 10.0


@dataclass(frozen=True)
class MarkerCheck:
    """A frame's markers against a calibration: how far each marker seen lies from its place on
    the table (mm, through the calibration), and which were not seen (a hand or a card over them).

    A bumped camera, or a table pushed under it, moves every marker at once; a marker knocked
    askew, or misread, moves alone. So the calibration is off (``moved``) when two markers or
    more lie ``MOVED_MM`` or more from their places, and it holds (``steady``) when two or more
    lie in place and it is not off; with fewer in view a frame cannot tell."""

    off_mm: dict[int, float]
    unseen: tuple[int, ...]

    @property
    def astray(self) -> list[int]:
        """The markers seen away from their places."""
        return sorted(i for i, d in self.off_mm.items() if d >= MOVED_MM)

    @property
    def moved(self) -> bool:
        return len(self.astray) >= 2

    @property
    def steady(self) -> bool:
        return not self.moved and len(self.off_mm) - len(self.astray) >= 2

    def describe(self) -> str:
        """One line for a person: where the markers lie, and what to do."""
        seen = ", ".join(f"marker {i} {d:.0f} mm" for i, d in sorted(self.off_mm.items())) or "no marker"
        place = "from its place" if len(self.off_mm) == 1 else "from their places"
        where = f"{seen} {place}" + (f"; not seen: {', '.join(map(str, self.unseen))}" if self.unseen else "")
        if self.moved:
            return f"the camera or the table has moved ({where}): calibrate again"
        stray = f"; put marker {self.astray[0]} back where it was" if self.astray else ""
        if self.steady:
            return f"the calibration holds ({where}){stray}"
        return f"too few markers in view to check the calibration ({where}): uncover the table's corners{stray}"


def check_markers(
    image: np.ndarray, calibration: Calibration, marker_mm: Mapping[int, tuple[float, float]]
) -> MarkerCheck:
    """Where a frame's markers lie against ``calibration`` (:class:`MarkerCheck`). ``marker_mm``
    is where their centres are on the table, as for :func:`calibrate_from_markers` (a calibration
    clicked by hand is checked the same way, if the table has its markers). A marker seen twice
    counts as not seen. Detection takes a few milliseconds a frame: a table checks once in a while,
    not every frame."""
    wanted = _check_marker_mm(marker_mm)
    calibration.check_image(image)
    sightings = _sightings(image)
    off = {
        i: float(np.linalg.norm(calibration.to_table(marker_centre(sightings[i][0])) - place))
        for i, place in wanted.items()
        if len(sightings.get(i, ())) == 1
    }
    return MarkerCheck(off, tuple(sorted(i for i in wanted if i not in off)))
