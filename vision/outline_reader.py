"""Reading a frame's card outlines: each warped from the frame as the reader asks it and read
with one deck at one threshold (``OutlineReader``), and the frame's edges, drawn only where
asked (``Edges``), to which cards found by their index are fitted. What ``vision.identify`` and
``vision.by_index`` read a frame with."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

from vision.covered import hide
from vision.deck import Deck
from vision.detect import CARD_H, CARD_W, CardQuad, FoundCard, warp_card
from vision.fans import line_map
from vision.quads import whole
from vision.reader import FACE_SCALE, Reading, Warped, corner_box, read_cards
from vision.seen import SeenCard

LINE_TILE, LINE_MARGIN = 64, 16  # pixels: the line map is drawn a tile at a time, from a patch this much bigger


def warp_corners(source: np.ndarray, quad: CardQuad) -> list[np.ndarray]:
    """``corner_image``'s two corners of the card ``warp_card`` would give, warped alone (a
    fifth of its pixels)."""
    corners = [warp_card(source, quad, corner_box(CARD_H, CARD_W, which)) for which in (0, 1)]
    return [corners[0], cv2.flip(corners[1], -1)]


class Edges:
    """A frame's grey picture and its line map (``fans.line_map``), each made when first asked
    (most frames never ask): where cards found by an index are fitted to the picture's edges.

    The line map is drawn only where asked (``lines_over``), a ``LINE_TILE`` square at a time,
    each from a patch ``LINE_MARGIN`` bigger all round: the map's filters reach two pixels. Canny's
    hysteresis follows a faint line from a strong one, which the patch may not hold: such a line
    is missed (0.3% of a rendered table's pixels; every photograph and rendered scene reads the
    same). On a sandy carpet the whole 1280 x 720 frame's map took 8 ms (its Canny, 7), and a card
    found by its index asks for a fifth of it."""

    def __init__(self, image: np.ndarray) -> None:
        self._image = image
        self._lines: np.ndarray | None = None
        self._drawn = np.zeros((0, 0), bool)  # which tiles of the line map are drawn

    @cached_property
    def gray(self) -> np.ndarray:
        return cv2.cvtColor(self._image, cv2.COLOR_BGR2GRAY) if self._image.ndim == 3 else self._image

    def lines_over(self, boxes: list[np.ndarray]) -> np.ndarray:
        """The line map (the frame's size), drawn at least over the boxes (x0, y0, x1, y1, image
        pixels); elsewhere it may be empty."""
        gray, tile = self.gray, LINE_TILE
        h, w = gray.shape
        if self._lines is None:
            self._lines = np.zeros_like(gray)
            self._drawn = np.zeros((-(-h // tile), -(-w // tile)), bool)
        rows, cols = self._drawn.shape
        for box in boxes:
            x0, y0 = (max(0, int(v) // tile) for v in box[:2])
            x1, y1 = min(cols - 1, int(box[2]) // tile), min(rows - 1, int(box[3]) // tile)
            if x1 < x0 or y1 < y0 or self._drawn[y0 : y1 + 1, x0 : x1 + 1].all():
                continue
            top, left, bottom, right = y0 * tile, x0 * tile, min(h, (y1 + 1) * tile), min(w, (x1 + 1) * tile)
            py, px = max(0, top - LINE_MARGIN), max(0, left - LINE_MARGIN)
            patch = line_map(gray[py : min(h, bottom + LINE_MARGIN), px : min(w, right + LINE_MARGIN)])
            fresh = np.repeat(np.repeat(~self._drawn[y0 : y1 + 1, x0 : x1 + 1], tile, 0), tile, 1)
            fresh = fresh[: bottom - top, : right - left]
            self._lines[top:bottom, left:right][fresh] = patch[top - py : bottom - py, left - px : right - px][fresh]
            self._drawn[y0 : y1 + 1, x0 : x1 + 1] = True
        return self._lines


@dataclass(frozen=True)
class OutlineReader:
    """How a frame's outlines are read: warped from the frame's ``detect.warp_source`` copy, and
    read with one deck at one threshold (one network pass a batch)."""

    source: np.ndarray
    deck: Deck | None
    threshold: float

    def read(
        self, quads: list[CardQuad], vouch: bool = True, looks: list[list[np.ndarray]] | None = None
    ) -> tuple[list[Warped], list[Reading]]:
        """The outlines' warps and readings; with ``vouch``, an outline that is ``whole`` vouches
        for its card (see ``reader.read_cards``, which also says what ``looks`` are)."""
        warps = [self.warp(quad) for quad in quads]
        return warps, self.read_warps(warps, quads, vouch, looks)

    def warp(self, quad: CardQuad) -> Warped:
        """An outline's card as the reader asks it: the face warped at ``FACE_SCALE``, the
        index corners at full size (``warp_corners``)."""
        corners = warp_corners(self.source, quad)
        return Warped(warp_card(self.source, quad, scale=FACE_SCALE), (corners[0], corners[1])).balanced()

    def read_warps(
        self,
        warps: list[Warped],
        quads: list[CardQuad],
        vouch: bool = True,
        looks: list[list[np.ndarray]] | None = None,
    ) -> list[Reading]:
        """``read``, of the outlines' warps made already."""
        vouched = [whole(q) for q in quads] if vouch else None
        return read_cards(warps, self.deck, self.threshold, vouched, looks=looks)

    def read_covered(self, found: list[FoundCard]) -> list[SeenCard]:
        """Cards partly under others, read with what lies under the cards on top painted out;
        those showing no index are left out."""
        return [card for card in self.read_under(found) if card is not None]

    def read_under(self, found: list[FoundCard]) -> list[SeenCard | None]:
        """``read_covered``, one answer a card: None for one hardly showing, or showing no index."""
        hidden = [hide(warp_card(self.source, f.quad), f.quad, f.over) for f in found]
        shown = [(f.quad, card) for f, card in zip(found, hidden, strict=True) if card is not None]
        cards = [Warped.of(c) for _, c in shown]
        readings = iter(read_cards(cards, self.deck, self.threshold, covered=True) if cards else [])
        out: list[SeenCard | None] = []
        for f, card in zip(found, hidden, strict=True):
            r = next(readings) if card is not None else None
            shows = r is not None and r.corners != (None, None)
            out.append(SeenCard(r.code, r.confidence, f.quad.corners, covered=True) if shows else None)
        return out
