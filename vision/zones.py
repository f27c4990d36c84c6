"""The table's zones: named polygons in table millimetres (the pile, each seat, the stock, the
trump card's place, the cut), where the tracker files each card it sees.

Zones come from the table's configuration (``load_zones``) or are laid out evenly round a
rectangular table (``default_zones``); ``zone_at`` says which zone a point lies in.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from table.events import ZoneKind
from vision.calibration import ZoneError, is_number, polygon_mm

ZONE_KINDS = tuple(ZoneKind)


def _signed_area(polygon: Sequence[tuple[float, float]]) -> float:
    n = len(polygon)
    return 0.5 * sum(
        polygon[i][0] * polygon[(i + 1) % n][1] - polygon[(i + 1) % n][0] * polygon[i][1] for i in range(n)
    )


@dataclass(frozen=True)
class Zone:
    """A named area of the table, a polygon in table mm; a ``seat`` zone also names its seat."""

    name: str
    kind: str
    polygon_mm: tuple[tuple[float, float], ...]
    seat: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise ZoneError(f"a zone needs a name, not {self.name!r}")
        label = f"zone {self.name!r}"
        if self.kind not in ZONE_KINDS:
            raise ZoneError(f"{label}: kind {self.kind!r} is not one of {', '.join(ZONE_KINDS)}")
        if self.kind == ZoneKind.SEAT:
            if type(self.seat) is not int or self.seat < 0:
                raise ZoneError(f"{label}: a seat zone needs seat = a seat number from 0, not {self.seat!r}")
        elif self.seat is not None:
            raise ZoneError(f"{label}: seat is only for seat zones, not for a {self.kind} zone")
        polygon = polygon_mm(self.polygon_mm, f"{label}: polygon")
        if abs(_signed_area(polygon)) < 1e-9:
            raise ZoneError(f"{label}: polygon has no area (its points are on one line)")
        object.__setattr__(self, "polygon_mm", polygon)

    @property
    def area(self) -> float:
        """Area in mm²."""
        return abs(_signed_area(self.polygon_mm))

    @property
    def centre(self) -> tuple[float, float]:
        """The polygon's centroid: where its label goes."""
        a = _signed_area(self.polygon_mm)
        pts, n = self.polygon_mm, len(self.polygon_mm)
        cx = sum((pts[i][0] + pts[(i + 1) % n][0]) * _cross(pts[i], pts[(i + 1) % n]) for i in range(n))
        cy = sum((pts[i][1] + pts[(i + 1) % n][1]) * _cross(pts[i], pts[(i + 1) % n]) for i in range(n))
        return (cx / (6 * a), cy / (6 * a))

    def contains(self, point_mm: Sequence[float]) -> bool:
        """Whether the point is inside the polygon or on its edge."""
        x, y = float(point_mm[0]), float(point_mm[1])
        pts, n = self.polygon_mm, len(self.polygon_mm)
        inside = False
        for i in range(n):
            (x1, y1), (x2, y2) = pts[i], pts[(i + 1) % n]
            cross = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)
            if abs(cross) <= 1e-9 * max(1.0, abs(x2 - x1) + abs(y2 - y1)) and (
                min(x1, x2) - 1e-9 <= x <= max(x1, x2) + 1e-9 and min(y1, y2) - 1e-9 <= y <= max(y1, y2) + 1e-9
            ):
                return True
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
        return inside


def _cross(p: tuple[float, float], q: tuple[float, float]) -> float:
    return p[0] * q[1] - q[0] * p[1]


ZONE_KEYS = ("name", "kind", "seat", "rect", "polygon")


def _zone_from_entry(entry: Any, position: int) -> Zone:
    label = f"zone #{position + 1}"
    if not isinstance(entry, Mapping):
        raise ZoneError(f"{label} must be a table of keys (name, kind, rect or polygon), not {entry!r}")
    name = entry.get("name")
    if isinstance(name, str) and name.strip():
        label = f"zone {name!r}"
    for key in entry:
        if key not in ZONE_KEYS:
            raise ZoneError(f"{label}: unknown key {key!r} (known: {', '.join(ZONE_KEYS)})")
    if not isinstance(name, str) or not name.strip():
        raise ZoneError(f"{label}: name must be a non-empty string, not {name!r}")
    if "kind" not in entry:
        raise ZoneError(f"{label}: missing key 'kind' (one of {', '.join(ZONE_KINDS)})")
    kind = entry["kind"]
    if kind not in ZONE_KINDS:
        raise ZoneError(f"{label}: kind {kind!r} is not one of {', '.join(ZONE_KINDS)}")
    seat = entry.get("seat")
    if kind == ZoneKind.SEAT and "seat" not in entry:
        raise ZoneError(f"{label}: missing key 'seat' (a seat zone needs its seat number, from 0)")
    if kind == ZoneKind.SEAT and (type(seat) is not int or seat < 0):
        raise ZoneError(f"{label}: seat must be a seat number from 0, not {seat!r}")
    if kind != ZoneKind.SEAT and "seat" in entry:
        raise ZoneError(f"{label}: key 'seat' is only for seat zones, not for a {kind} zone")
    if ("rect" in entry) == ("polygon" in entry):
        which = "both" if "rect" in entry else "neither"
        raise ZoneError(f"{label}: give one of rect = [x, y, width, height] or polygon = [[x, y], ...], not {which}")
    if "rect" in entry:
        rect = entry["rect"]
        if not isinstance(rect, Sequence) or isinstance(rect, str) or len(rect) != 4:
            raise ZoneError(f"{label}: rect must be [x, y, width, height] in mm, not {rect!r}")
        if not all(is_number(v) for v in rect):
            raise ZoneError(f"{label}: rect must be four numbers of mm, not {rect!r}")
        x, y, w, h = (float(v) for v in rect)
        if w <= 0 or h <= 0:
            raise ZoneError(f"{label}: rect width and height must be positive, not {w:g} and {h:g}")
        polygon: Any = ((x, y), (x + w, y), (x + w, y + h), (x, y + h))
    else:
        polygon = polygon_mm(entry["polygon"], f"{label}: polygon")
    return Zone(name, ZoneKind(kind), polygon, seat if kind == ZoneKind.SEAT else None)


def load_zones(mapping: Mapping[str, Any] | Sequence[Any]) -> list[Zone]:
    """Zones from a parsed TOML table with a ``[[zones]]`` array (other keys are left alone), or the array.

    Each entry has ``name``, ``kind`` (pile, seat, stock, trump, cut), ``seat`` for a seat zone,
    and either ``rect = [x, y, width, height]`` or ``polygon = [[x, y], ...]`` in mm. Errors name
    the zone and the key.
    """
    if isinstance(mapping, Mapping):
        if "zones" not in mapping:
            raise ZoneError("no zones: the table configuration needs a [[zones]] list")
        entries = mapping["zones"]
    else:
        entries = mapping
    if not isinstance(entries, Sequence) or isinstance(entries, str):
        raise ZoneError(f"zones must be a list of zone tables ([[zones]]), not {type(entries).__name__}")
    zones: list[Zone] = []
    seen: set[str] = set()
    for position, entry in enumerate(entries):
        zone = _zone_from_entry(entry, position)
        if zone.name in seen:
            raise ZoneError(f"zone {zone.name!r}: the name is used twice")
        seen.add(zone.name)
        zones.append(zone)
    return zones


def zone_at(zones: Iterable[Zone], point_mm: Sequence[float]) -> Zone | None:
    """The smallest zone containing the point (a trump place inside a bigger area wins), or None."""
    best: Zone | None = None
    for zone in zones:
        if zone.contains(point_mm) and (best is None or zone.area < best.area):
            best = zone
    return best


def _edge_point(s: float, rect: tuple[float, float, float, float], outer: tuple[float, float]) -> tuple[float, float]:
    """The point at perimeter position ``s`` of the outer table, carried onto ``rect`` edge for edge.

    Positions run clockwise as the camera sees it, from the bottom-left corner: up the left edge,
    along the top, down the right edge and back along the bottom.
    """
    width, height = outer
    x0, y0, x1, y1 = rect
    lengths = (height, width, height, width)
    s %= 2 * (width + height)
    for edge, length in enumerate(lengths):
        if s <= length or edge == 3:
            f = min(max(s / length, 0.0), 1.0)
            break
        s -= length
    if edge == 0:
        return (x0, y1 + (y0 - y1) * f)
    if edge == 1:
        return (x0 + (x1 - x0) * f, y0)
    if edge == 2:
        return (x1, y0 + (y1 - y0) * f)
    return (x1 + (x0 - x1) * f, y1)


def default_zones(players: int, width_mm: float, height_mm: float) -> list[Zone]:
    """A layout for a ``width_mm`` by ``height_mm`` table (between marker centres).

    The pile in the centre, the stock to its left and the trump place to its right, and one seat
    area per player: the band round the table's edge shared out evenly, seat 0 at the middle of
    the bottom edge (nearest the camera's bottom row), the next seats clockwise as the camera sees
    the table, which is clockwise for the players too. Shrinks for a small table and refuses one
    too small to hold it.
    """
    if type(players) is not int or players < 1:
        raise ZoneError(f"players must be a whole number from 1, not {players!r}")
    for what, value in (("width_mm", width_mm), ("height_mm", height_mm)):
        if not is_number(value) or value <= 0:
            raise ZoneError(f"{what} must be a positive number of millimetres, not {value!r}")
    w, h = float(width_mm), float(height_mm)
    band = min(max(0.2 * min(w, h), 80.0), 180.0)
    pile, slot, gap, margin = 200.0, 140.0, 20.0, 10.0
    inner_w, inner_h = w - 2 * band - 2 * margin, h - 2 * band - 2 * margin
    scale = min(1.0, inner_w / (pile + 2 * gap + 2 * slot), inner_h / pile)
    if scale < 0.4:
        raise ZoneError(f"a {w:g} x {h:g} mm table is too small for the default zones; define them by hand")
    pile, slot, gap = pile * scale, slot * scale, gap * scale
    cx, cy = w / 2, h / 2

    def square(x: float, y: float, side: float) -> tuple[tuple[float, float], ...]:
        return (
            (x - side / 2, y - side / 2),
            (x + side / 2, y - side / 2),
            (x + side / 2, y + side / 2),
            (x - side / 2, y + side / 2),
        )

    side_x = pile / 2 + gap + slot / 2
    zones = [
        Zone("pile", "pile", square(cx, cy, pile)),
        Zone("stock", "stock", square(cx - side_x, cy, slot)),
        Zone("trump", "trump", square(cx + side_x, cy, slot)),
    ]
    perimeter = 2 * (w + h)
    share = perimeter / players
    outer = (0.0, 0.0, w, h)
    inner = (band, band, w - band, h - band)
    corners = (0.0, h, h + w, 2 * h + w)
    start = perimeter - w / 2  # the middle of the bottom edge
    for seat in range(players):
        a = start + seat * share - share / 2
        b = a + share
        inside = sorted(c + k * perimeter for k in (-1, 0, 1, 2) for c in corners if a < c + k * perimeter < b)
        path = [a, *inside, b]
        polygon = [_edge_point(s, outer, (w, h)) for s in path]
        polygon += [_edge_point(s, inner, (w, h)) for s in reversed(path)]
        zones.append(Zone(f"seat-{seat}", "seat", tuple(polygon), seat))
    return zones


# --- the picture to check by eye -----------------------------------------------------------------


def unseen_zones(zones: Iterable[Zone], calibration: Any, size: tuple[int, int]) -> list[str]:
    """The zones that lie wholly outside a ``size`` (width, height) camera image under
    ``calibration``: no card could ever be seen on them."""
    import cv2
    import numpy as np

    width, height = size
    mask = np.zeros((height, width), np.uint8)
    out = []
    for zone in zones:
        mask[:] = 0
        pixels = np.clip(calibration.to_image(np.asarray(zone.polygon_mm, np.float64)), -1e6, 1e6)
        cv2.fillPoly(mask, [np.round(pixels).astype(np.int32).reshape(-1, 1, 2)], 1)
        if not mask.any():
            out.append(zone.name)
    return out
