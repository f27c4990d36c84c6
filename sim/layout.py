"""Where a simulated table's cards lie, as the overhead camera sees them.

The simulated camera looks straight down at a table that fills its frame: one table millimetre
is one pixel, so the calibration is the identity, and the zones are ``vision.zones``' default
layout (the pile in the centre, the stock left of it, the trump place right of it, a band round
the edge shared out between the seats). A card's pose is drawn the way a player puts it down:
thrown onto the pile at any angle, laid in front of its player roughly square to the table's edge.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from sim.render import CardPlacement
from vision.calibration import Calibration, calibrate_from_points
from vision.zones import Zone, _edge_point, default_zones

Place = tuple[str, int | None]  # a zone's kind and seat, as the tracker names zones


@dataclass(frozen=True)
class TableLayout:
    players: int
    width: int = 1280
    height: int = 720
    card_height: float = field(default=0.0)  # 0: a size that fits the seats' band

    def __post_init__(self) -> None:
        if self.card_height <= 0:
            object.__setattr__(self, "card_height", round(0.25 * min(self.width, self.height)))

    @property
    def zones(self) -> list[Zone]:
        return default_zones(self.players, self.width, self.height)

    def calibration(self) -> Calibration:
        corners = [[0, 0], [self.width, 0], [self.width, self.height], [0, self.height]]
        return calibrate_from_points(corners, corners, (self.width, self.height))

    def pose(self, code: str, place: Place, rng: random.Random, offset: int = 0) -> CardPlacement:
        """A card put down on ``place``; ``offset`` shifts it along the seat's edge (a second
        card laid beside the first, a cut on top of a seat's card)."""
        kind, seat = place
        w, h = self.width, self.height
        if kind == "seat":
            assert seat is not None
            x, y, facing, (ax, ay) = self._seat_spot(seat)
            x += offset * 0.35 * self.card_height * ax
            y += offset * 0.35 * self.card_height * ay
            return CardPlacement(
                code, x + rng.gauss(0, 4), y + rng.gauss(0, 4), facing + rng.gauss(0, 8), self.card_height
            )
        centre = next(z.centre for z in self.zones if z.kind == kind)
        angle = rng.uniform(0, 360) if kind == "pile" else rng.gauss(0, 6)
        spread = 0.06 * self.card_height if kind == "pile" else 3.0
        x = min(max(centre[0] + rng.gauss(0, spread), 0), w)
        y = min(max(centre[1] + rng.gauss(0, spread), 0), h)
        return CardPlacement(code, x, y, angle, self.card_height)

    def _seat_spot(self, seat: int) -> tuple[float, float, float, tuple[float, float]]:
        """The middle of a seat's share of the band near its inner edge (a card there lies whole
        in the picture, its centre on the seat's zone), the angle it is turned to face its player
        (0: the bottom edge's seat), and the direction along the table's edge."""
        w, h = self.width, self.height
        band = min(max(0.2 * min(w, h), 80.0), 180.0)
        perimeter = 2 * (w + h)
        s = perimeter - w / 2 + seat * perimeter / self.players
        outer = _edge_point(s, (0.0, 0.0, w, h), (w, h))
        inner = _edge_point(s, (band, band, w - band, h - band), (w, h))
        dx, dy = inner[0] - outer[0], inner[1] - outer[1]  # from the player towards the table's middle
        inward = max(0.5, 1 - 0.1 * self.card_height / band)
        x, y = outer[0] + dx * inward, outer[1] + dy * inward
        norm = math.hypot(dx, dy) or 1.0
        return x, y, math.degrees(math.atan2(-dx, -dy)), (-dy / norm, dx / norm)
